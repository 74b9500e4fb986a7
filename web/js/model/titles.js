// titles.js — a step's title, crumbs, short name and formula, the one source of them for the
// page, the web component and every export: the catalog's words (area `steps`) built from its
// role, kind, place and the model's config — never from its id or the engine's English title.
// Gradients are titled by the tensor they belong to (`of`).
import { t, has } from '../lib/i18n.js';
import { symbolOf, symbolTex } from './symbols.js';
import { stackKey, wordSection } from './stack.js';

// The catalog key of a step's name (without its place): role, refined by section/kind where
// one role names two different things (pre- vs post-norm LayerNorms, output vs classifier);
// a decoder-only model's own words where the catalog has them (stack.js).
function nameKey(step, trace) {
  const key = stackKey(roleKey(step, trace), trace);
  return has(`decoders.${key}`) ? `decoders.${key}` : key;  // the modern decoders' own steps (i18n/*/decoders.js)
}
function roleKey(step, trace) {
  const r = step.role, p = step.place || {}, pre = trace.config && trace.config.norm === 'pre';
  if (r === 'ln2' && pre) return `steps.ln2.pre.${p.section === 'decoder' ? 'decoder' : 'encoder'}`;
  if (['ln1', 'ln2', 'ln3'].includes(r)) return `steps.${r}.${pre ? 'pre' : 'post'}`;
  if (r === 'residual2') return `steps.residual2.${p.section === 'decoder' ? 'decoder' : 'encoder'}`;
  if (r === 'residual1') return `steps.residual1.${p.section === 'decoder' ? 'decoder' : 'encoder'}`;
  if (r === 'logits' || r === 'probs') return `steps.${r}.${p.section}`;
  const dec = decoderKey(step, trace);
  if (dec) return dec;
  if (r === 'output' || r === 'decoder_output') {
    if (p.block === 'stack_output') return `steps.${r}.stack${step.kind === 'layernorm' ? '.final' : ''}`;
    return `steps.output.${step.kind === 'layernorm' ? 'addnorm' : 'layer'}`;
  }
  if (r === 'decoder_input') return `steps.decoder_input${step.kind === 'layernorm' ? '.ln' : ''}`;
  if (r === 'input') return `steps.input.${step.kind === 'layernorm' ? 'ln' : step.kind === 'add' ? 'add' : 'given'}`;
  if (r === 'positional' || r === 'target_positional') return `steps.${r}.${step.kind === 'lookup' ? 'learned' : 'sin'}`;
  if (r === 'embedding_sum' && (step.inputs || []).some((id) => trace.get(id)?.role === 'token_type_embedding')) return 'steps.embedding_sum.segments';
  return `steps.${r}`;
}

// A modern decoder's step whose role the older models use for another operation (by kind).
function decoderKey(step, trace) {
  const r = step.role;
  if (r === 'ffn_hidden' && step.kind === 'mul') return 'steps.ffn_hidden.gated';
  if (r === 'ffn_out' && trace.get(step.inputs[0])?.kind === 'mul') return 'steps.ffn_out.gated';
  if (r === 'input' && step.kind === 'scale') return 'steps.input.scale';
  if (r === 'output' && step.kind === 'rmsnorm') return 'steps.output.stack.rms';
  if (r === 'scale' && trace.get(step.inputs[0])?.kind === 'rms') return 'steps.scale.rms';  // attribution's frozen 1/rms
  return null;
}

// The step a statistic (mean, var, rowmax, rowsum) is computed for: the step that reads it.
export function consumerOf(step, trace) {
  return trace.steps.find((s) => s.role !== 'grad' && s.index > step.index && (s.inputs || []).includes(step.id)) || null;
}

// "Attention weights A" — the name without its place.
export function stepName(step, trace) {
  if (!step) return '';
  if (step.isParam) {
    const where = placeText(step.place, trace);
    const name = t('steps.param', { sym: symbolOf(step) });
    return where ? t('steps.withPlace', { name, where }) : name;
  }
  if (step.role === 'grad') {
    const of = trace.get(step.of);
    return t('steps.grad', { sym: symbolOf(step, trace), of: of ? stepTitle(of, trace) : step.of });
  }
  const params = { sym: symbolOf(step, trace), act: step.role === 'pooler' ? poolerAct(step) : actName(trace) };
  if (step.role === 'k_cache' || step.role === 'v_cache') Object.assign(params, { last: step.shape[0] - 2, new: step.shape[0] - 1 });
  if (['mean', 'var', 'rowmax', 'rowsum', 'rms'].includes(step.role)) {
    const c = consumerOf(step, trace);
    params.of = c ? stepName(c, trace) : '';
  }
  return t(nameKey(step, trace), params);
}
// A modern decoder's config names no activation for its SiLU gate (Llama, Qwen).
const actName = (trace) => ({ gelu: 'GELU', gelu_new: 'GELU (tanh)', silu: 'SiLU' })[trace.config && trace.config.activation]
  || (trace.config && trace.config.activation == null && trace.meta && trace.meta.checkpoint ? 'SiLU' : 'ReLU');
// A pooler's own activation (BERT's tanh, DistilBERT's pre-classifier ReLU): its formula says which.
const poolerAct = (step) => (/\\tanh/.test(step.formula || '') ? 'tanh' : 'ReLU');

// The block a step sits in, named for a reader (self-attention is "masked" in a decoder).
function blockName(p, trace) {
  if (p.block === 'self_attention') return t(wordSection(p.section, trace) === 'decoder' ? 'steps.block.maskedSelf' : 'steps.block.self');
  if (p.block === 'cross_attention') return t('steps.block.cross');
  return '';
}
// "(head 1, cross-attention, decoder layer 0)"; '' outside the layers.
export function placeText(p, trace) {
  if (!p || p.layer < 0) return '';
  const parts = [];
  if (p.head >= 0) parts.push(t('steps.head', { h: p.head }));
  const b = blockName(p, trace);
  if (b) parts.push(b);
  parts.push(t(wordSection(p.section, trace) === 'decoder' ? 'steps.decoderLayer' : 'steps.encoderLayer', { l: p.layer }));
  return parts.join(', ');
}

// The full title: name and place.
export function stepTitle(step, trace) {
  const name = stepName(step, trace);
  if (step.role === 'grad' || step.isParam) return name;
  const where = placeText(step.place, trace);
  return where ? t('steps.withPlace', { name, where }) : name;
}

// "Decoder › layer 0 › cross-attention › head 1" (a gradient: "Backward pass › …" of its tensor).
export function stepCrumbs(step, trace) {
  const grad = step.role === 'grad';
  const of = grad ? trace.get(step.of) : null;
  const p = (of && of.place) || step.place || {};
  const parts = grad ? [t('steps.section.backward')] : [];
  parts.push(t(`steps.section.${wordSection(p.section, trace)}`));
  if (p.layer >= 0) parts.push(t('steps.layer', { l: p.layer }));
  const rms = ['rms', 'rmsnorm'].includes((of || step).kind);  // a modern decoder's norm: no add in it
  const b = blockName(p, trace) || (p.block === 'ffn' ? t('steps.block.ffn') : p.block === 'add_norm' ? t(rms ? 'decoders.steps.block.rmsnorm' : 'steps.block.addNorm') : '');
  if (b) parts.push(b);
  if (p.head >= 0) parts.push(t('steps.head', { h: p.head }));
  return parts.join(' › ');
}

// The step's formula (LaTeX): the engine's, except a gradient's, written with the page's symbol
// of the tensor it differentiates (the engine's names it by id).
export function stepFormula(step, trace) {
  if (step.role !== 'grad') return step.formula;
  const of = trace.get(step.of);
  return of ? `\\frac{\\partial L}{\\partial ${symbolTex(symbolOf(of, trace))}}` : step.formula;
}
