// language.js — the page's language, set before anything renders (main.js imports this module
// first and waits for languageReady): `lang=` in the URL, else the browser's preference (navigator.languages), else English
// (i18n.js chooseLang). Also the language switcher in the header, which reloads the page with
// lang= set — the address bar holds the whole state (url.js), so the step and settings stay —
// and the notice for a lang= this page does not have. Weights trained or loaded in the page live
// in the engine Worker and do not survive the reload (download them first).
import { chooseLang, setLang, currentLang, applyStatic, t, LANG_NAMES, loadLang } from '../lib/i18n.js';
import { el } from '../lib/dom.js';

const choice = chooseLang(location.search, navigator.languages || [navigator.language]);
// Resolves once the reader's catalog is loaded and set, and the static markup follows it
// (main.js waits for it before anything renders; English needs no fetch).
export const languageReady = loadLang(choice.lang).then(() => {
  setLang(choice.lang);
  applyStatic();
});

// The note for a lang= value the page does not have, as an item of the page's list of bad
// link settings ('' when the link is fine).
export function badLangNote() {
  if (choice.bad === null) return '';
  const list = Object.values(LANG_NAMES).join(', ');
  return t('i18n.badLangItem', { lang: String(choice.bad).slice(0, 20), list, shown: LANG_NAMES[currentLang()] });
}

// What links the page writes add to keep the language: {lang} once the URL or the switcher
// named one; nothing for a language that only came from the browser (its links follow the
// next reader's browser).
export function langParam() {
  return choice.fromURL ? { lang: currentLang() } : {};
}

// The URL of this page in language `l` (everything else in the address bar kept).
export function urlInLang(href, l) {
  const u = new URL(href);
  u.searchParams.set('lang', l);
  return u.href;
}

// The labelled <select> of languages, in the header's #lang-slot (or after #perf until the
// header has one). Switching reloads in the new language.
export function installLangSwitch(doc = document) {
  if (doc.getElementById('lang-select')) return doc.getElementById('lang-select');
  const wrap = el('span', 'lang-switch');
  const sel = el('select');
  sel.id = 'lang-select';
  const lab = el('label', 'small', t('i18n.language'));
  lab.htmlFor = sel.id;
  for (const l of Object.keys(LANG_NAMES)) {
    const o = el('option', '', LANG_NAMES[l]);
    o.value = l;
    o.lang = l;
    sel.append(o);
  }
  sel.value = currentLang();
  sel.addEventListener('change', () => {
    // Modules keep what the URL does not hold (run-options.js: the backward switch) for the reload.
    window.dispatchEvent(new CustomEvent('encoder-walkthrough:before-lang-switch'));
    location.assign(urlInLang(location.href, sel.value));
  });
  wrap.append(lab, sel);
  // One line, label beside the select (the header's CSS, the shell's, may restyle .lang-switch).
  Object.assign(wrap.style, { display: 'inline-flex', alignItems: 'center', gap: '0.4em' });
  const slot = doc.getElementById('lang-slot');
  if (slot) slot.replaceChildren(wrap);
  else doc.getElementById('perf').after(wrap);
  return sel;
}
