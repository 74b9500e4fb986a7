// lens.js — the logit lens as a layer × token grid: for every lens.<layer>.probs step of the
// trace (core/trace/lens.h), each position's top guess and its probability. A cell is a
// button that opens that layer's probabilities.
import { el } from '../lib/dom.js';
import { t } from '../lib/i18n.js';
import { placeText } from '../model/titles.js';

// hooks: {goTo(id)}. The lens steps' data must be fetched (page/lab-page.js does).
export function lensGrid(trace, hooks) {
  const steps = trace.steps.filter((s) => /^lens\..*\.probs$/.test(s.id) && s.data);
  if (!steps.length) return null;
  const box = el('figure', 'lab-lens');
  box.append(el('figcaption', 'lab-sub', t('lab.lensTitle')));
  const table = el('table', 'lab-grid');
  const axes = trace.axesOf(steps[0]);
  const rowLabels = trace.labelsFor(axes.rows) || [];
  const head = el('tr');
  head.append(el('th', '', t('lab.lensLayer')));
  const V = steps[0].shape[steps[0].shape.length - 1], T = steps[0].data.length / V;
  for (let r = 0; r < T; r++) {
    const th = el('th', 'mono', String(rowLabels[r] ?? r));
    th.scope = 'col';
    head.append(th);
  }
  table.append(head);
  const vocab = trace.labelsFor(axes.cols) || [];
  for (const s of steps) {
    const tr = el('tr');
    const th = el('th', '', placeText(s.place, trace) || s.id.replace(/^lens\.|\.probs$/g, ''));  // "decoder layer 0", as the map says
    th.scope = 'row';
    tr.append(th);
    for (let r = 0; r < T; r++) {
      const row = s.data.subarray(r * V, (r + 1) * V);
      let k = 0;
      for (let j = 1; j < V; j++) if (row[j] > row[k]) k = j;
      const td = el('td');
      const b = el('button', 'lab-cellbtn mono', t('lab.lensCell', { token: String(vocab[k] ?? k), pct: (100 * row[k]).toFixed(0) }));
      b.type = 'button';
      b.style.setProperty('--w', row[k].toFixed(3));
      b.addEventListener('click', () => hooks.goTo(s.id));
      td.append(b);
      tr.append(td);
    }
    table.append(tr);
  }
  box.append(table);
  return box;
}
