// messages.js — the page's three kinds of message: an error that stops a computation (the
// last good trace stays on screen, dimmed), a dismissible notice, and clearing them.
import { app } from './app.js';
import { $, el } from '../lib/dom.js';
import { t } from '../lib/i18n.js';

export function showError(msg) {
  const m = $('msg');
  m.replaceChildren(el('strong', '', t('shell.cannotCompute')), document.createTextNode(msg));
  m.hidden = false;
  document.body.classList.toggle('stale', !!app.trace);
  $('stale-note').hidden = !app.trace;
}
export function clearError() {
  $('msg').hidden = true;
  document.body.classList.remove('stale');
  $('stale-note').hidden = true;
}
export function showNotice(msg) {
  const n = $('notice');
  if (!msg) {
    n.hidden = true;
    return;
  }
  n.replaceChildren(document.createTextNode(msg));
  const x = el('button', 'small link', t('shell.dismiss'));
  x.type = 'button';
  x.addEventListener('click', () => { n.hidden = true; });
  n.append(' ', x);
  n.hidden = false;
}
// Adds a notice to those already shown (bad embed parameters, a step the trace lacks).
export function appendNotice(msg) {
  const n = $('notice');
  if (!msg) return;
  if (n.hidden) return showNotice(msg);
  n.insertBefore(document.createTextNode(` ${msg}`), n.querySelector('button'));
}
