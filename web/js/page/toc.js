// toc.js — the navigation: the architecture map (arch-map.js) and, one click away, the full
// step list (sections, groups and per-head rows from each step's place, steps.js), one link
// per step (a real link: it opens the same state at that step), and marking the step on screen.
import { app } from './app.js';
import { $, el } from '../lib/dom.js';
import { toURL } from '../model/settings.js';
import { outline } from '../model/steps.js';
import { stepTitle, stepName } from '../model/titles.js';
import { t } from '../lib/i18n.js';
import { drawMap, markMap } from '../view/arch-map.js';

let mapModel = null;
let mapHref = null;

let tocLinks = [];
export function stepHref(id) {
  const base = toURL({ ...app.shownState, step: '' }, app.presets, { embed: app.embed ? '1' : '' });
  return `${base}&step=${encodeURIComponent(id)}`;
}
export function buildToc() {
  const trace = app.trace;
  const root = $('toc-list');
  const sections = outline(trace.steps, trace);
  const base = toURL({ ...app.shownState, step: '' }, app.presets, { embed: app.embed ? '1' : '' });
  tocLinks = new Array(trace.steps.length);
  const link = (s, text) => {
    const a = el('a', 'toc-link', text);
    a.href = `${base}&step=${encodeURIComponent(s.id)}`;
    a.dataset.i = s.index;
    a.title = stepTitle(s, trace);
    tocLinks[s.index] = a;
    return a;
  };
  const frag = document.createDocumentFragment();
  for (const sec of sections) {
    const d = el('details', 'toc-sec');
    d.dataset.first = sec.first;
    const sum = el('summary', '', sec.title);
    d.append(sum);
    for (const g of sec.groups) {
      const gd = el('div', 'toc-group');
      if (g.title) gd.append(el('p', 'toc-gtitle', g.title));
      const ol = el('ol');
      for (const it of g.items) {
        const li = el('li');
        if (it.step) li.append(link(it.step, stepName(it.step, trace)));
        else {
          li.className = 'toc-head';
          li.append(el('span', 'toc-hlabel', t('toc.head', { n: it.head.head })));
          const row = el('span', 'toc-hsteps');
          for (const s of it.head.steps) row.append(link(s, stepName(s, trace)));
          li.append(row);
        }
        ol.append(li);
      }
      gd.append(ol);
      d.append(gd);
    }
    frag.append(d);
  }
  root.replaceChildren(frag);
  $('toc-count').textContent = t('toc.count', { n: trace.steps.length });
  mapHref = (i) => `${base}&step=${encodeURIComponent(trace.steps[i].id)}`;
  mapModel = drawMap($('map'), trace, mapHref, app.index);
}
export function markToc() {
  if (mapModel) markMapHere();
  for (const a of $('toc-list').querySelectorAll('a[aria-current]')) a.removeAttribute('aria-current');
  const a = tocLinks[app.index];
  if (!a) return;
  a.setAttribute('aria-current', 'step');
  const sec = a.closest('details');
  for (const d of $('toc-list').children) if (d !== sec && d.open && !d.dataset.userOpen) d.open = false;
  if (sec && !sec.open) sec.open = true;
  // Scrolling the list reads layout: in the next frame, with the step already drawn, so it
  // costs no forced layout of its own (it was ~15 ms of a d512 sentence edit, issue 13).
  requestAnimationFrame(() => {
    const box = $('toc-list');
    if (!box.offsetParent || !a.isConnected) return;
    const r = a.getBoundingClientRect(), b = box.getBoundingClientRect();
    if (r.top < b.top || r.bottom > b.bottom) box.scrollTop += r.top - b.top - b.height / 3;
  });
}

// The map's "you are here": a step in a collapsed layer redraws the map with that layer open.
function markMapHere() {
  const root = $('map');
  const b = mapModel.nodeOf[app.index];
  const folded = b && b.layer >= 0 && root.querySelector(`.map-sec[data-section="${b.section}"] .map-layer.collapsed[data-layer="${b.layer}"]`);
  if (folded) mapModel = drawMap(root, app.trace, mapHref, app.index);
  markMap(root, mapModel, app.trace, app.index, mapHref);
  // Keep the block on screen visible in the map's own scroll box (wide screens), next frame.
  requestAnimationFrame(() => {
    const a = root.querySelector('a.map-node[aria-current]');
    const box = $('side-nav');
    if (!a || !box.offsetParent || box.scrollHeight <= box.clientHeight) return;
    const r = a.getBoundingClientRect(), b = box.getBoundingClientRect();
    if (r.top < b.top || r.bottom > b.bottom) box.scrollTop += r.top - b.top - b.height / 3;
  });
}
