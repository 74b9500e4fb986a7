// trace.js — the trace on the main thread: step metadata from the engine plus Float32Array
// views into the one transferred buffer (no per-step copies, no nested arrays), parameters
// (eager when small, fetched from the worker on demand otherwise), and what the views need
// to know about a tensor — its matrix layout and the labels of its axes — read from the
// step's own axes and kind, never from its id.
import { matrixLayout, matrixAxes } from './layout.js';
import { kindOf } from './kinds/index.js';

export class Trace {
  constructor(result) {
    const { meta, steps, params, generation, timing } = result;
    this.meta = meta;
    this.generation = generation;
    this.timing = timing;
    this.text = meta.text;
    this.config = meta.config;
    this.tokens = meta.tokens;
    this.isa = meta.isa;
    const all = new Float32Array(steps.buffer);
    this.steps = meta.steps.map((s, i) => ({
      ...s,
      index: i,
      data: all.subarray(steps.offsets[i], steps.offsets[i + 1]),
    }));
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

  // Parameters named by these ids, fetched from the worker if they were not sent eagerly.
  async ensureParams(ids, engine) {
    const missing = ids.map((id) => this.paramById.get(id)).filter((p) => p && !p.data);
    if (!missing.length) return;
    const size = (s) => s.reduce((a, b) => a * b, 1);
    const r = await engine.call('params', {
      generation: this.generation,
      indices: missing.map((p) => p.index),
      sizes: missing.map((p) => size(p.shape)),
    });
    const all = new Float32Array(r.buffer);
    missing.forEach((p, k) => { p.data = all.subarray(r.offsets[k], r.offsets[k + 1]); });
  }

  // Whether a step (or parameter) has a leading batch dimension: its own axes say so.
  isBatched(id) {
    const s = this.get(id);
    return !!(s && s.axes && s.axes.length && s.axes[0].name === 'batch');
  }

  sourceTokens(b = 0) {
    const toks = (this.text.source_tokens && this.text.source_tokens[b]) || [];
    const out = toks.slice();
    while (out.length < this.T) out.push('<pad>');
    return out;
  }
  targetTokens() {
    return this.text.target_tokens || [];
  }

  // The tensor as a matrix (layout.js), from its axes and its kind.
  layout(t) {
    const batched = !!(t.axes && t.axes.length && t.axes[0].name === 'batch');
    return matrixLayout(t, batched, !!kindOf(t.kind).column);
  }
  // {rows, cols}: the axes ({name, labels}) the matrix's rows and columns stand for.
  axesOf(t) {
    return matrixAxes(t, this.layout(t), !!kindOf(t.kind).column);
  }
  // Labels for the indices along `axis` (of batch item b), or null for plain indices.
  labelsFor(axis, b = 0) {
    switch (axis && axis.labels) {
      case 'source': return this.sourceTokens(b);
      case 'target': return this.targetTokens();
      case 'vocab': return this.text.vocab || [];
      case 'batch': return Array.from({ length: this.B }, (_, i) => `sentence ${i + 1}`);
      // A classifier's label names: the engine's prediction names them (runWith, issue 10).
      case 'labels': return this.text.labels || (this.meta.prediction && this.meta.prediction.labels) || null;
      default: return null;
    }
  }
}
