// intro.js — the short opening: what the page shows and how to use it, in plain words. Shown
// until the reader dismisses it, then not again (localStorage); never in embed mode or in a
// figure (main.js). On a phone it starts as one line (its title) that expands on a tap, so the
// step's first numbers are on the first screen (issue 22); on wider screens it starts open.
import { el } from '../lib/dom.js';
import { t } from '../lib/i18n.js';
import { checkpointKind } from './layout-shell.js';
import { paramsText } from './checkpoint.js';

const KEY = 'encoder-walkthrough.intro-dismissed';
// The width below which the page is laid out for phones (style.css's phone bar).
const PHONE = '(max-width: 760px)';

function dismissed() {
  try {
    return localStorage.getItem(KEY) === '1';
  } catch {
    return false; // storage refused (private mode, file://): show it, it can still be closed
  }
}

// The opening's first sentence says what is open: "a small Transformer", or the checkpoint
// `ck` (its name, architecture, size and kind; `config`: its trace's) — not a "small
// Transformer" for a 110-million-parameter BERT.
export function introModel(ck, config) {
  const what = document.getElementById('intro-what');
  if (!what) return;
  what.textContent = ck
    ? t('shell.intro.whatCheckpoint', { name: ck.name, architecture: ck.architecture || ck.model_type, params: paramsText(ck), kind: checkpointKind(ck, config) })
    : t('shell.intro.what');
}

// Draws the opening into `slot` unless the reader has dismissed it before.
export function showIntro(slot) {
  if (dismissed()) return;
  const box = el('section', 'intro');
  box.setAttribute('aria-label', t('shell.intro.label'));
  const more = el('details', 'intro-more');
  more.open = !window.matchMedia(PHONE).matches;
  const summary = el('summary', 'intro-summary');
  summary.append(el('h2', 'intro-title', t('shell.intro.title')));
  const ul = el('ul', 'intro-list');
  for (const k of ['type', 'move', 'point', 'presets']) ul.append(el('li', '', t(`shell.intro.${k}`)));
  const what = el('p', '', t('shell.intro.what'));
  what.id = 'intro-what';
  more.append(summary, what, ul);
  const close = el('button', 'intro-close', t('shell.intro.dismiss'));
  close.type = 'button';
  close.addEventListener('click', () => {
    try {
      localStorage.setItem(KEY, '1');
    } catch {
      /* not remembered: it shows again next time */
    }
    box.remove();
  });
  box.append(more, close);
  slot.replaceChildren(box);
}
