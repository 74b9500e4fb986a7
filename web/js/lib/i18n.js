// i18n.js — the page's one message catalog: every string a reader sees is looked up here by
// key, t('area.name', {param: value}), in the reader's language. The catalog of a language is
// web/js/lib/i18n/<lang>.js, assembled from one file per area of the page (i18n/<lang>/<area>.js)
// so that each module's strings sit together; every language has exactly the keys English
// has (tests/web/i18n.mjs). A message is a string with {param} placeholders, or a function of
// the params for grammar a placeholder cannot express (plurals, cases).
// The language: `lang=` in the URL, else the browser's preference, else English
// (page/language.js sets it before anything renders and puts the switcher in the header; a web
// component sets its element's own wherever it writes: embed/component-view.js). A new area: i18n/en/<area>.js and i18n/de/<area>.js, each
// imported and listed once in i18n/en.js and i18n/de.js.
import { EN } from './i18n/en.js';

// The languages; English is in the page's code, every other catalog is fetched when a reader,
// a link or an element asks for it (loadLang: issue 29, an English reader does not download the
// German catalog, nor the reverse beyond English's).
const LOADERS = {
  de: () => import('./i18n/de.js').then((m) => m.DE),
};
// Each language named in itself (the language switcher shows these).
export const LANG_NAMES = { en: 'English', de: 'Deutsch' };
// The catalogs loaded so far (every language of LANG_NAMES once loadLang has run for it).
export const CATALOGS = { en: EN };

// Loads language `l`'s catalog (once); resolves when setLang(l) and withLang(l) can use it.
// A language this page does not have resolves at once (setLang then shows English).
export async function loadLang(l) {
  if (!CATALOGS[l] && LOADERS[l]) CATALOGS[l] = await LOADERS[l]();
  return CATALOGS[l] || null;
}
export function loadAllLangs() {
  return Promise.all(Object.keys(LANG_NAMES).map(loadLang));
}

let lang = 'en';
let catalog = EN;

export function currentLang() {
  return lang;
}

// The language a page with this query string and these browser preferences shows, and a
// note when the link asks for one we do not have (null otherwise).
export function chooseLang(search, preferred = []) {
  const asked = new URLSearchParams(search).get('lang');
  if (asked !== null) {
    const l = asked.trim().toLowerCase();
    if (LANG_NAMES[l]) return { lang: l, fromURL: true, bad: null };
  }
  const pick = pickPreferred(preferred);
  return { lang: pick, fromURL: false, bad: asked !== null ? asked : null };
}
function pickPreferred(preferred) {
  for (const p of preferred || []) {
    const primary = String(p).toLowerCase().split('-')[0];
    if (LANG_NAMES[primary]) return primary;
  }
  return 'en';
}

// `root`: the element whose lang attribute says the language (the page's <html>; a web
// component passes null: the host page's <html> is not ours to change).
// A language whose catalog is not loaded yet (loadLang) is a bug: said on the console (the
// suites fail on it), and English shown.
export function setLang(l, root = typeof document !== 'undefined' ? document.documentElement : null) {
  if (LANG_NAMES[l] && !CATALOGS[l] && typeof console !== 'undefined') console.error(`i18n: '${l}' set before loadLang('${l}')`);
  lang = CATALOGS[l] ? l : 'en';
  catalog = CATALOGS[lang];
  if (root) root.lang = lang;
}

// Runs fn() with language `l`'s catalog and gives the language back after (synchronous code
// only: a view drawing in its own language, view/step-view.js); no `l`: the current one.
export function withLang(l, fn) {
  if (!l || l === lang || !CATALOGS[l]) return fn();
  const saved = lang;
  setLang(l, null);
  try {
    return fn();
  } finally {
    setLang(saved, null);
  }
}

// The message `key` with its params filled in. A key the catalog lacks is shown as ⟦key⟧
// (the browser suites fail on any ⟦ on the page) rather than as a silent English fallback.
export function t(key, params = {}) {
  const m = catalog[key] !== undefined ? catalog[key] : undefined;
  if (m === undefined) {
    if (typeof console !== 'undefined') console.error(`i18n: no message '${key}' in '${lang}'`);
    return `⟦${key}⟧`;
  }
  if (typeof m === 'function') return m(params);
  return fill(m, params);
}
export function has(key) {
  return catalog[key] !== undefined;
}
export function fill(s, params) {
  return s.replace(/\{(\w+)\}/g, (all, k) => (params[k] !== undefined ? String(params[k]) : all));
}

// Static markup: <x data-i18n="key"> gets its text, <x data-i18n-attr="title:key;aria-label:key2">
// its attributes, from the catalog.
export function applyStatic(root = document) {
  for (const n of root.querySelectorAll('[data-i18n]')) n.textContent = t(n.dataset.i18n);
  for (const n of root.querySelectorAll('[data-i18n-attr]'))
    for (const pair of n.dataset.i18nAttr.split(';')) {
      const [attr, key] = pair.split(':').map((s) => s.trim());
      if (attr && key) n.setAttribute(attr, t(key));
    }
}

// A number in the reader's locale (decimal comma in German) for prose; the matrices keep
// their fixed-width format.
export function num(x, digits) {
  const o = digits === undefined ? {} : { minimumFractionDigits: digits, maximumFractionDigits: digits };
  return Number(x).toLocaleString(lang, o);
}
