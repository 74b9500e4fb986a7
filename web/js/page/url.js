// url.js — the address bar follows what is on screen: the shown settings, text and step
// (model/settings.js writes them) and how it is shown (view=, theme=, …: app.urlExtra,
// figure.js), so a copied link reopens exactly this view.
import { app } from './app.js';
import { $ } from '../lib/dom.js';
import { toURL } from '../model/settings.js';
import { labURLEntries } from '../lab/state.js';

// The address bar is written just after the step is on screen (one pending write at a time),
// not on the way to it: history.replaceState took ~8 ms of a d512 sentence edit (issue 13).
let pendingURL = 0;
export function writeURL() {
  if (!app.shownState) return;
  const extra = { embed: app.embed ? '1' : '', ...app.urlExtra, ...labURLEntries() };
  if (app.shownState.preset !== 'checkpoint') {  // ?model= (and its chat=) only while its checkpoint is shown
    delete extra.model;
    delete extra.chat;
  }
  const q = toURL(app.shownState, app.presets, extra);
  clearTimeout(pendingURL);
  pendingURL = setTimeout(() => {
    if (location.search !== q) history.replaceState(null, '', location.pathname + q);
  }, 0);
  const full = $('open-full');
  if (full) full.href = location.pathname + toURL(app.shownState, app.presets, { model: extra.model, chat: extra.chat, theme: app.urlExtra?.theme, lang: app.urlExtra?.lang });
}
