// stack.js — what the page calls a model's one stack of layers. The core records a model
// without cross-attention in section "encoder"; for a checkpoint of a decoder-only model
// (GPT-2: causal self-attention, no encoder, no cross-attention) those are decoder blocks, and
// every title, the map, the step list, the notes and explanations say so. Seeded models keep
// the form's words ("causal mask in the encoder"). A catalog key with a `.decoderOnly` variant
// is the one such a model's words come from (stackKey).
import { has } from '../lib/i18n.js';

export function decoderOnly(trace) {
  const c = trace && trace.config;
  return !!(c && trace.meta && trace.meta.checkpoint && c.causal && !(c.decoder_layers > 0));
}

// `key`, or its `.decoderOnly` variant when the trace is of a decoder-only model and the
// catalog has one.
export function stackKey(key, trace) {
  return decoderOnly(trace) && has(`${key}.decoderOnly`) ? `${key}.decoderOnly` : key;
}

// The section a step's words are chosen by: a decoder-only model's "encoder" section is its decoder.
export function wordSection(section, trace) {
  return section === 'encoder' && decoderOnly(trace) ? 'decoder' : section;
}
