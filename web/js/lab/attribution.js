// attribution.js — the direct logit attribution (core/trace/attribution.h) as a bar chart:
// attr.parts, one bar per part (embedding, each head, each feed-forward block, the biases),
// named for a reader (names.js: a head as the map names it) from the trace's attr_parts, whose
// ids stay as the bars' tooltips; the parts sum to the predicted logit ("attribution"). For an
// RMSNorm model (Llama, Qwen, Gemma) a sentence says the split is exact with 1/rms frozen.
import { el } from '../lib/dom.js';
import { t } from '../lib/i18n.js';
import { fmt } from './format.js';
import { ablateName } from './names.js';

export function attributionBars(trace, meta) {
  if (meta && meta.attribution_error) return el('p', 'lab-note', t('lab.attrNone', { why: meta.attribution_error }));
  const s = trace.get('attr.parts');
  if (!s || !s.data || !meta || !meta.attribution) return null;
  const names = trace.text.attr_parts || [];
  const a = meta.attribution;
  const box = el('figure', 'lab-attr');
  box.append(el('figcaption', 'lab-sub', t('lab.attrTitle', { label: String(a.target), logit: fmt(a.logit) })));
  const max = Math.max(1e-12, ...Array.from(s.data, Math.abs));
  const list = el('ul', 'lab-bars');
  s.data.forEach((v, i) => {
    const li = el('li', v < 0 ? 'neg' : 'pos');
    const id = String(names[i] ?? i), name = ablateName(trace, id);
    const label = el('span', 'lab-bar-name', name);
    label.title = `${name} (${id})`;
    li.append(label);
    const bar = el('span', 'lab-bar');
    bar.style.setProperty('--w', (Math.abs(v) / max).toFixed(4));
    li.append(bar, el('span', 'lab-bar-value mono', fmt(v)));
    li.title = t('lab.attrPart', { name, value: fmt(v) });
    list.append(li);
  });
  box.append(list);
  // A modern decoder's final RMSNorm: the split holds with its 1/rms frozen (core/trace/attribution.h).
  if (a.norm === 'rmsnorm') box.append(el('p', 'lab-note', t('lab.attrFrozenRms', { scale: fmt(a.frozen) })));
  return box;
}
