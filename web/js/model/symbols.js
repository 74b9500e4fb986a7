// symbols.js — the page's one table of symbols: which letter stands for which quantity, the
// same in every title, note, explanation and the notation key. Steps are looked up by their
// `role` (and section/block where one role has two symbols: a layer's output vs the stack's);
// parameters, which carry no role, by the name their id ends in (notation only: the page's
// structure never comes from ids).

// role → symbol. X encoder input, Y decoder input, H encoder output, Z decoder output.
export const ROLE_SYMBOLS = {
  token_ids: 'id', target_token_ids: 'id', embedding: 'X_tok', target_embedding: 'Y_tok',
  positional: 'PE', target_positional: 'PE', embedding_sum: 'X_sum', target_embedding_sum: 'Y_sum', input: 'X', decoder_input: 'Y',
  attention_mask: 'M', decoder_mask: 'M', cross_mask: 'M',
  q: 'Q', k: 'K', v: 'V', scores: 'S', scaled: 'S̃', rowmax: 'm', rowsum: 's', weights: 'A',
  context: 'C_h', concat: 'C', attn_out: 'MHA',
  residual1: 'R₁', residual2: 'R₂', residual3: 'R₃', mean: 'μ', var: 'σ²', ln1: 'LN₁', ln2: 'LN₂', ln3: 'LN₃',
  ffn_pre: 'U', ffn_hidden: 'φ(U)', ffn_out: 'FFN',
  output: 'H', decoder_output: 'Z', pooled: 'h', logits: 'z', probs: 'p', loss: 'L',
  // a checkpoint's: BERT's token types (segments), the masked-word head's transform, the pooler
  token_type_ids: 's', token_type_embedding: 'X_seg',
  transform_pre: 'U_t', transform_act: 'φ(U_t)', transform_ln: 'LN_t', pooler_pre: 'u', pooler: 'φ(u)',
  // the modern decoders (Llama, Qwen, Gemma): RMSNorm, rotation, gated FFN, cache
  rms: 'rms', attn_norm: 'N₁', ffn_norm: 'N₂', post_attn_norm: 'P₁', post_ffn_norm: 'P₂', q_norm: 'Q̂', k_norm: 'K̂',
  q_rot: 'Q_rot', k_rot: 'K_rot', rope_angles: 'θ', sliding_mask: 'M_win', ffn_gate: 'G', ffn_gate_act: 'φ(G)', ffn_up: 'U',
  k_cache: 'K_cache', v_cache: 'V_cache',
};

// Parameter name (the end of its id) → symbol.
export const PARAM_SYMBOLS = {
  W_q: 'W_Q', W_k: 'W_K', W_v: 'W_V', W_o: 'W_O', b_q: 'b_Q', b_k: 'b_K', b_v: 'b_V', b_o: 'b_O',
  W_1: 'W₁', b_1: 'b₁', W_2: 'W₂', b_2: 'b₂', gamma: 'γ', beta: 'β',
  W_gate: 'W_gate', W_up: 'W_up', W_down: 'W_down', b_gate: 'b_gate', b_up: 'b_up', b_down: 'b_down', lm_head: 'W_lm',
  embedding_table: 'E', position_table: 'P', W: 'W_cls', b: 'b_cls',
  token_type_table: 'E_type', W_t: 'W_t', b_t: 'b_t', W_p: 'W_p', b_p: 'b_p', b_vocab: 'b_vocab',
};

// A parameter's name within its block (W_q, gamma, embedding_table): the trace records a
// parameter by id only (docs/trace.md), whose last part is that name. The one place the page
// reads a name out of an id, for notation only (no structure comes from it); a recorded
// `name` is used when the trace has one.
// The masked-word head's bias per vocabulary entry is named "b" like the classifier's: it is
// told apart by its section ("b_vocab").
export function paramName(p) {
  const name = p.name || String(p.id).split('.').pop();
  return name === 'b' && p.place && p.place.section === 'masked_lm' ? 'b_vocab' : name;
}

// The symbol of a step (by role) or parameter (by name); a gradient is ∂L/∂(its tensor's),
// looked up in `trace` (without one, by the tensor's id as a parameter name, else the id).
export function symbolOf(t, trace = null) {
  if (!t) return '';
  if (t.isParam || !t.role) return PARAM_SYMBOLS[paramName(t)] || t.id;
  if (t.role === 'grad') {
    const of = trace && trace.get(t.of);
    return `∂L/∂${of ? symbolOf(of, trace) : PARAM_SYMBOLS[paramName({ id: t.of })] || t.of}`;
  }
  if (t.role === 'output') return layerOutput(t.place || {});
  if (t.role === 'ffn_hidden' && t.kind === 'mul') return 'Z';  // a gated FFN's φ(G) ⊙ U
  return ROLE_SYMBOLS[t.role] || t.role;
}
// One layer's output is H⁽ˡ⁾ (encoder layer l) or Z⁽ˡ⁾ (decoder); the stack's output H or Z.
const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';
function layerOutput(place) {
  const letter = place.section === 'decoder' ? 'Z' : 'H';
  if (!(place.layer >= 0) || place.block === 'stack_output') return letter;
  return `${letter}⁽${String(place.layer).replace(/\d/g, (d) => SUPERSCRIPT[d])}⁾`;
}

// A symbol of the table as LaTeX (for formulas the page writes itself: a gradient's ∂L/∂T).
const TEX_CHARS = { 'μ': '\\mu', 'σ': '\\sigma', 'γ': '\\gamma', 'β': '\\beta', 'φ': '\\varphi', '∂': '\\partial ', 'θ': '\\theta' };
const SUBS = '₀₁₂₃₄₅₆₇₈₉', SUPS = '⁰¹²³⁴⁵⁶⁷⁸⁹';
export function symbolTex(s) {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (s[i + 1] === '\u0303') { out += `\\tilde{${ch}}`; i++; continue; } // S̃
    if (s[i + 1] === '\u0302') { out += `\\hat{${ch}}`; i++; continue; } // Q̂
    const word = /[A-Za-z]/.test(ch) ? s.slice(i).match(/^[A-Za-z]{2,}/) : null;
    if (word) { out += `\\mathrm{${word[0]}}`; i += word[0].length - 1; continue; } // FFN, MHA, LN
    if (SUBS.includes(ch)) out += `_{${SUBS.indexOf(ch)}}`;
    else if (SUPS.includes(ch)) out += `^{${SUPS.indexOf(ch)}}`;
    else if (ch === '⁽' || ch === '⁾') out += ch === '⁽' ? '^{(' : ')}';
    else if (ch === '_') {
      const m = s.slice(i + 1).match(/^[A-Za-z]+/);
      const name = m ? m[0] : '';
      out += name.length > 1 ? `_{\\mathrm{${name}}}` : `_{${name}}`;
      i += m ? m[0].length : 0;
    } else out += TEX_CHARS[ch] || ch;
  }
  // H⁽⁰⁾ → H^{(^{0})}: fold the digits inside a superscript parenthesis.
  return out.replace(/\^\{\(\^\{(\d+)\}\)\}/g, '^{($1)}');
}
