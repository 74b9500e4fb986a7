// trace.js — the trace on the main thread: step metadata from the engine plus Float32Array
// views into transferred buffers (no per-step copies, no nested arrays). The Worker keeps
// the trace; a step's `data` is null until the page asks for it (ensureStep / ensureSteps:
// one 'steps' request for whatever is missing), so showing a step costs the size of that
// step and its inputs, not of the trace. Parameters: eager when small, fetched on demand
// otherwise; attention thumbnails come reduced ('thumbs'). Also what the views need to know
// about a tensor — its matrix layout and the labels of its axes — read from the step's own
// axes and kind (layout.js), never from its id.
import { matrixLayout, matrixAxes, PER_ROW_KINDS } from './layout.js';
import { t } from '../lib/i18n.js';
import { pieceText, pieceStyle } from '../lib/format.js';

const floats = (shape) => shape.reduce((a, b) => a * b, 1);

// `items` in order, cut into runs whose weights add up to at most `max` each (an item heavier
// than `max` alone in its run).
export function batches(items, weight, max) {
  const out = [];
  let run = [], sum = 0;
  for (const it of items) {
    const w = weight(it);
    if (run.length && sum + w > max) out.push(run), run = [], sum = 0;
    run.push(it);
    sum += w;
  }
  if (run.length) out.push(run);
  return out;
}

export class Trace {
  // At most this many floats (1 GiB) in one 'steps' or 'params' reply.
  static requestFloats = 2 ** 28;

  constructor(result) {
    const { meta, steps, params, generation, timing } = result;
    this.meta = meta;
    this.generation = generation;
    this.timing = timing;
    this.text = meta.text;
    this.config = meta.config;
    this.tokens = meta.tokens;
    this.isa = meta.isa;
    this.steps = meta.steps.map((s, i) => ({ ...s, index: i, data: null }));
    // `steps` is {indices, buffer, offsets} (some steps, from the Worker) or {buffer, offsets}
    // with every step in order (a whole trace, e.g. built in Node by the tests).
    if (steps) this.#fill(steps.indices || this.steps.map((s, i) => i), steps);
    this.thumbs = new Map(); // `${index}/${offset}/${max}` → {rows, cols, data}
    this.byId = new Map(this.steps.map((s) => [s.id, s]));
    const pall = params ? new Float32Array(params.buffer) : null;
    this.params = meta.params.map((p, i) => ({
      ...p,
      index: i,
      isParam: true,
      kind: 'param',
      data: pall ? pall.subarray(params.offsets[i], params.offsets[i + 1]) : null,
    }));
    this.paramById = new Map(this.params.map((p) => [p.id, p]));
    // A gradient step sits where its forward tensor sits (the table of contents reads this).
    for (const s of this.steps)
      if (s.of) {
        const f = this.byId.get(s.of) || this.paramById.get(s.of);
        s.gradOf = f ? { place: f.place, isParam: !!f.isParam } : null;
      }
    this.B = (this.text.source_tokens || []).length || 1;
    this.T = this.B && this.text.source_tokens[0] ? Math.max(...this.text.source_tokens.map((t) => t.length)) : 0;
  }

  get(id) {
    return this.byId.get(id) || this.paramById.get(id) || null;
  }

  #fill(indices, { buffer, offsets }) {
    const all = new Float32Array(buffer);
    indices.forEach((i, k) => { this.steps[i].data = all.subarray(offsets[k], offsets[k + 1]); });
  }

  // The data of the steps named by these ids (steps only; unknown ids are ignored), fetched
  // from the worker if missing: one request, or several when they hold more than
  // Trace.requestFloats between them (a big vocabulary's whole trace is gigabytes, and a message
  // cannot carry a buffer of 2 GiB or more).
  async ensureSteps(ids, engine) {
    const missing = [...new Set(ids)].map((id) => this.byId.get(id)).filter((s) => s && !s.data);
    for (const batch of batches(missing, (s) => floats(s.shape), Trace.requestFloats)) {
      const r = await engine.call('steps', { generation: this.generation, indices: batch.map((s) => s.index) });
      this.#fill(r.indices, r);
    }
  }

  // What showing one step reads: its data, its inputs' (steps and parameters).
  async ensureStep(step, engine) {
    const ids = [step.id, ...(step.inputs || [])];
    await Promise.all([this.ensureSteps(ids, engine), this.ensureParams(step.inputs || [], engine)]);
  }

  // Every step's data (the JS API's getTrace()).
  async ensureAll(engine) {
    await this.ensureSteps(this.steps.map((s) => s.id), engine);
  }

  // Reduced copies for thumbnails: regions [{step, offset, rows, cols}] → at most max×max
  // cells each (block maxima), cached; returns [{rows, cols, data}] in order.
  async thumbnails(regions, max, engine) {
    const key = (g) => `${g.step.index}/${g.offset}/${max}`;
    const missing = regions.filter((g) => !this.thumbs.has(key(g)));
    if (missing.length) {
      const items = missing.map((g) => ({ index: g.step.index, offset: g.offset, rows: g.rows, cols: g.cols }));
      const r = await engine.call('thumbs', { generation: this.generation, items, max });
      const all = new Float32Array(r.buffer);
      missing.forEach((g, k) => {
        const [rows, cols] = r.shapes[k];
        this.thumbs.set(key(g), { rows, cols, data: all.subarray(r.offsets[k], r.offsets[k + 1]) });
      });
    }
    return regions.map((g) => this.thumbs.get(key(g)));
  }

  // Parameters named by these ids, fetched from the worker if they were not sent eagerly (in
  // requests of at most Trace.requestFloats, as steps are).
  async ensureParams(ids, engine) {
    const missing = ids.map((id) => this.paramById.get(id)).filter((p) => p && !p.data);
    for (const batch of batches(missing, (p) => floats(p.shape), Trace.requestFloats)) {
      const r = await engine.call('params', {
        generation: this.generation,
        indices: batch.map((p) => p.index),
        sizes: batch.map((p) => floats(p.shape)),
      });
      const all = new Float32Array(r.buffer);
      batch.forEach((p, k) => { p.data = all.subarray(r.offsets[k], r.offsets[k + 1]); });
    }
  }

  // Whether a step (or parameter) has a leading batch dimension: its own axes say so.
  isBatched(id) {
    const s = this.get(id);
    return !!(s && s.axes && s.axes.length && s.axes[0].name === 'batch');
  }

  // A token as the reader sees it: a tokenizer's piece as the text it stands for, in the style
  // of this vocabulary (lib/format.js pieceText: GPT-2's "Ġmat" is "␣mat", SentencePiece's
  // "▁the" "␣the"). The chips, the labels of rows and columns, the notes and the explanations
  // read tokens through this; the trace's own text (exports, the engine) keeps the pieces.
  piece(p) {
    return this.vocabStyle ? pieceText(p, this.vocabStyle) : p;
  }
  // 'bytes', 'sentencepiece' or '' (lib/format.js pieceStyle), found once.
  get vocabStyle() {
    if (this.style === undefined) this.style = pieceStyle(this.text.vocab);
    return this.style;
  }
  // The vocabulary as shown (computed once: a checkpoint's has 50,257 entries).
  shownVocab() {
    if (!this.vocabShown) this.vocabShown = (this.text.vocab || []).map((p) => this.piece(p));
    return this.vocabShown;
  }
  sourceTokens(b = 0) {
    const toks = (this.text.source_tokens && this.text.source_tokens[b]) || [];
    const out = toks.map((p) => this.piece(p));
    while (out.length < this.T) out.push('<pad>');
    return out;
  }
  targetTokens() {
    return (this.text.target_tokens || []).map((p) => this.piece(p));
  }

  // The tensor as a matrix (layout.js), from its axes and its kind.
  layout(t) {
    const batched = !!(t.axes && t.axes.length && t.axes[0].name === 'batch');
    return matrixLayout(t, batched, PER_ROW_KINDS.has(t.kind));
  }
  // {rows, cols}: the axes ({name, labels}) the matrix's rows and columns stand for.
  axesOf(t) {
    return matrixAxes(t, this.layout(t), PER_ROW_KINDS.has(t.kind));
  }
  // Labels for the indices along `axis` (of batch item b), or null for plain indices.
  labelsFor(axis, b = 0) {
    switch (axis && axis.labels) {
      case 'source': return this.sourceTokens(b);
      case 'target': return this.targetTokens();
      case 'vocab': return this.shownVocab();
      case 'batch': return Array.from({ length: this.B }, (_, i) => t('explain.sentence', { n: i + 1 }));
      // A classifier's label names: the engine's prediction names them (runWith, issue 10).
      case 'labels': return this.text.labels || (this.meta.prediction && this.meta.prediction.labels) || null;
      default: return null;
    }
  }
}
