// url.js — the address bar follows what is on screen: the shown settings, text and step
// (state.js writes them) and how it is shown (view=, theme=, …: app.urlExtra, figure.js), so a
// copied link reopens exactly this view.
import { app, $ } from './app.js';
import { toURL } from './state.js';

export function writeURL() {
  if (!app.shownState) return;
  const q = toURL(app.shownState, app.presets, { embed: app.embed ? '1' : '', ...app.urlExtra });
  if (location.search !== q) history.replaceState(null, '', location.pathname + q);
  const full = $('open-full');
  if (full) full.href = location.pathname + toURL(app.shownState, app.presets, app.urlExtra && app.urlExtra.theme ? { theme: app.urlExtra.theme } : {});
}
