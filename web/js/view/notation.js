// notation.js — the notation key: a collapsible table, under the step's title, of every
// symbol the current model's trace uses (symbols.js), its meaning and its shape in this
// model ("A — attention weights, 4×5 per head"), with the current step's symbol marked.
import { t, has } from '../lib/i18n.js';
import { symbolOf, paramName } from '../model/symbols.js';
import { decoderOnly, stackKey } from '../model/stack.js';

const shapeOf = (s) => s.shape.filter((_, k) => !(s.axes && s.axes[k] && s.axes[k].name === 'batch')).join('×') || '1';

// [{sym, key, shapes: ['4×5 per head', …]}] in the order the trace first uses each symbol:
// forward steps by role, then the parameters by name.
export function notationEntries(trace) {
  const bySym = new Map();
  const add = (sym, key, shape, perHead) => {
    if (!bySym.has(sym)) bySym.set(sym, { sym, key, shapes: [] });
    const e = bySym.get(sym);
    const text = shape ? t(perHead ? 'notation.shapePerHead' : 'notation.shape', { shape }) : '';
    if (text && !e.shapes.includes(text)) e.shapes.push(text);
  };
  for (const s of trace.steps)
    if (s.role && s.role !== 'grad') add(symbolOf(s, trace), roleKey(s, trace), shapeOf(s), s.place.head >= 0);
  for (const p of trace.params) add(symbolOf(p), decoderKey(`notation.param.${paramName(p)}`), shapeOf(p), false);
  if (trace.steps.some((s) => s.role === 'grad')) add('∂L/∂T', 'notation.grad', '', false);
  return [...bySym.values()];
}

// A step's meaning in the key: a layer's output, or its role's (the stack's output of a model
// without a decoder is what its head reads, not a memory for cross-attention; a decoder-only
// checkpoint's words are a decoder's, model/stack.js).
// The modern decoders' own entries (i18n/*/decoders.js) where the catalog has them.
const decoderKey = (key) => (has(`decoders.${key}`) ? `decoders.${key}` : key);
function roleKey(s, trace) {
  if (s.role === 'ffn_hidden' && s.kind === 'mul') return 'decoders.notation.ffn_hidden.gated';
  if (has(`decoders.notation.${s.role}`)) return `decoders.notation.${s.role}`;
  if (s.role === 'output' && s.place.block !== 'stack_output') return 'notation.layerOutput';
  if (s.role === 'output' && !(trace.config && trace.config.decoder_layers > 0) && !decoderOnly(trace)) return 'notation.output.encoderOnly';
  if (s.role === 'embedding_sum' && s.inputs.some((id) => trace.get(id)?.role === 'token_type_embedding')) return 'notation.embedding_sum.segments';
  return stackKey(`notation.${s.role}`, trace);
}

// The symbol the key marks for a step: its own, or a gradient's tensor's.
export function currentSymbol(step, trace) {
  if (step.role !== 'grad') return symbolOf(step, trace);
  const of = trace.get(step.of);
  return of ? symbolOf(of, trace) : '';
}

// Fills `host` (a <details>) with the key for this trace, marking the step's symbol; keeps
// whether the reader had it open.
export function renderNotation(host, trace, step) {
  const cur = currentSymbol(step, trace);
  const summary = document.createElement('summary');
  summary.textContent = t('notation.title', { sym: cur });
  const table = document.createElement('table');
  table.className = 'notation-table';
  const cap = document.createElement('caption');
  cap.textContent = t('notation.caption');
  table.append(cap);
  for (const e of notationEntries(trace)) {
    const tr = document.createElement('tr');
    if (e.sym === cur) { tr.className = 'current'; tr.setAttribute('aria-current', 'true'); }
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = e.sym;
    const td = document.createElement('td');
    td.textContent = t(e.key);
    const sh = document.createElement('td');
    sh.className = 'mono';
    sh.textContent = e.shapes.join(', ');
    tr.append(th, td, sh);
    table.append(tr);
  }
  host.replaceChildren(summary, table);
}
