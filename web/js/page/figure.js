// figure.js — the page's view=figure mode: one step as a figure for an article (title,
// formula, the whole matrix, the explanation of the number pointed at; the "computed from"
// inputs with inputs=1; the sentence box and/or previous/next with controls=text,nav), with a
// link to the full walkthrough in the same state. Also applies theme= and collects the
// notices for bad embed parameters (and a bad lang=), which a figure shows inside itself;
// puts the language switcher in the header (language.js). A figure's matrices show all that
// fits (step-card.js gives its view context embed-params.js's FIGURE_WINDOW).
import { app } from './app.js';
import { $ } from '../lib/dom.js';
import { readEmbedParams } from '../embed/embed-params.js';
import { applyTheme } from './theme.js';
import { badLangNote, langParam, installLangSwitch } from './language.js';
import { t } from '../lib/i18n.js';

// Reads the URL's view keys and sets the page up for them. Returns the notes for bad values.
// redraw() is called when the system theme changes.
export function setupView(search, redraw) {
  const q = new URLSearchParams(search);
  const p = readEmbedParams((k) => q.get(k), window.parent !== window);
  app.view = p;
  app.urlExtra = { ...p.given, ...langParam() };
  if (badLangNote()) p.notes.push(badLangNote());
  installLangSwitch();
  applyTheme(p.theme, document.documentElement, redraw);
  if (p.view !== 'figure') return p.notes;
  const b = document.body.classList;
  b.add('figure');
  b.toggle('figure-inputs', p.inputs);
  b.toggle('figure-text', p.controls.has('text'));
  b.toggle('figure-nav', p.controls.has('nav'));
  // Messages belong inside the figure: move them from the (hidden) form into the card.
  const card = document.querySelector('.step-card');
  card.prepend($('notice'), $('msg'));
  $('open-full').textContent = t('figure.openFull');
  return p.notes;
}
