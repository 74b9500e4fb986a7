// trace.js — the trace on the main thread: step metadata from the engine plus Float32Array
// views into the one transferred buffer (no per-step copies, no nested arrays), parameters
// (eager when small, fetched from the worker on demand otherwise), and the facts the views
// need: batch size, which axis of a tensor is tokens, target tokens or the vocabulary.

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

  // What the rows and columns of a tensor stand for: 'src' | 'tgt' | 'vocab' | 'pos' | 'batch' | 'labels' | null.
  axes(id) {
    const isDec = /^decoder\d+\./.test(id);
    if (id === 'embedding_table') return { rows: 'vocab', cols: null };
    if (id === 'position_table') return { rows: 'pos', cols: null };
    if (this.paramById.has(id)) return { rows: null, cols: null };
    if (id === 'positional') return { rows: 'pos', cols: null };
    if (id === 'token_ids') return { rows: this.B > 1 ? 'batch' : null, cols: 'src' };
    if (id === 'target_token_ids') return { rows: null, cols: 'tgt' };
    if (id === 'target_positional') return { rows: 'pos', cols: null };
    if (id.startsWith('cls.')) return { rows: this.B > 1 ? 'batch' : null, cols: id === 'cls.pooled' ? null : 'labels' };
    if (id === 'logits' || id === 'probs') return { rows: 'tgt', cols: 'vocab' };
    if (id.startsWith('probs.')) return { rows: 'tgt', cols: null };
    if (id === 'decoder_mask') return { rows: 'tgt', cols: 'tgt' };
    if (id === 'cross_mask') return { rows: 'tgt', cols: 'src' };
    if (id.startsWith('target_') || id === 'decoder_input' || id === 'decoder_output') return { rows: 'tgt', cols: null };
    if (isDec) {
      if (/\.cross\.(k|v)$/.test(id)) return { rows: 'src', cols: null };
      const head = /\.(self|cross)\.head\d+\.(scores|scaled|weights)$/.exec(id);
      if (head) return { rows: 'tgt', cols: head[1] === 'cross' ? 'src' : 'tgt' };
      return { rows: 'tgt', cols: null };
    }
    if (id === 'attention_mask' || /^layer\d+\.head\d+\.(scores|scaled|weights)$/.test(id)) return { rows: 'src', cols: 'src' };
    return { rows: 'src', cols: null };
  }

  labelsFor(kind, b = 0) {
    switch (kind) {
      case 'src': return this.sourceTokens(b);
      case 'tgt': return this.targetTokens();
      case 'vocab': return this.text.vocab || [];
      case 'pos': return null;
      case 'batch': return Array.from({ length: this.B }, (_, i) => `sentence ${i + 1}`);
      default: return null;
    }
  }
}
