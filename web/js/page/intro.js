// intro.js — the short opening: what the page shows and how to use it, in plain words. Shown
// until the reader dismisses it, then not again (localStorage); never in embed mode (main.js).
import { el } from '../lib/dom.js';
import { t } from '../lib/i18n.js';

const KEY = 'encoder-walkthrough.intro-dismissed';

function dismissed() {
  try {
    return localStorage.getItem(KEY) === '1';
  } catch {
    return false; // storage refused (private mode, file://): show it, it can still be closed
  }
}

// Draws the opening into `slot` unless the reader has dismissed it before.
export function showIntro(slot) {
  if (dismissed()) return;
  const box = el('section', 'intro');
  box.setAttribute('aria-label', t('shell.intro.label'));
  box.append(el('h2', 'intro-title', t('shell.intro.title')), el('p', '', t('shell.intro.what')));
  const ul = el('ul', 'intro-list');
  for (const k of ['type', 'move', 'point', 'presets']) ul.append(el('li', '', t(`shell.intro.${k}`)));
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
  box.append(ul, close);
  slot.replaceChildren(box);
}
