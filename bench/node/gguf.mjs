// gguf.mjs — writes a GGUF file (llama.cpp's model format, version 3, little-endian) for a Llama
// or Qwen2 checkpoint's weights, so that wllama (llama.cpp in wasm) runs the very weights our
// Engine runs. Written from the GGUF layout: header (magic "GGUF", version, tensor count, key/value
// count), key/value metadata (incl. the tokenizer), tensor infos (name, dims innermost first,
// ggml type, offset), padding to general.alignment (32), the tensor data, each tensor aligned.
// Facts taken from llama.cpp (gguf-py/gguf/constants.py, convert_hf_to_gguf.py): key and tensor
// names; Llama's q/k rows reordered for llama.cpp's rope (pairs (2j, 2j+1) where HF rotates
// (j, j + d/2)) — Qwen2 uses llama.cpp's NeoX rope, HF's layout, so no reordering; a tied head is
// simply absent (llama.cpp then reads token_embd).
//   writeGguf(file, c, w, tokenizer, { type: 'F32' | 'F16' }) — c: config.json, w: {key without
//   "model.": Float32Array, shape: {key: [out, in]}}, tokenizer: tokenizer.json (byte-level BPE);
//   the vocabulary is padded to c.vocab_size with "<pad_i>" tokens (type UNUSED).
import fs from 'node:fs';

const T = { UINT32: 4, INT32: 5, FLOAT32: 6, BOOL: 7, STRING: 8, ARRAY: 9 };
const GGML = { F32: 0, F16: 1 };
const ALIGN = 32;

class Buf {
  constructor() { this.parts = []; this.length = 0; }
  push(b) { this.parts.push(b); this.length += b.length; }
  u32(v) { const b = Buffer.alloc(4); b.writeUInt32LE(v); this.push(b); }
  i32(v) { const b = Buffer.alloc(4); b.writeInt32LE(v); this.push(b); }
  u64(v) { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(v)); this.push(b); }
  f32(v) { const b = Buffer.alloc(4); b.writeFloatLE(v); this.push(b); }
  str(s) { const b = Buffer.from(s, 'utf8'); this.u64(b.length); this.push(b); }
  concat() { return Buffer.concat(this.parts, this.length); }
}

function kv(B, key, type, value, elemType) {
  B.str(key); B.u32(type);
  const one = (t, v) => { if (t === T.UINT32) B.u32(v); else if (t === T.INT32) B.i32(v); else if (t === T.FLOAT32) B.f32(v); else if (t === T.STRING) B.str(v); else if (t === T.BOOL) B.push(Buffer.from([v ? 1 : 0])); else throw new Error('gguf: type ' + t); };
  if (type === T.ARRAY) { B.u32(elemType); B.u64(value.length); for (const v of value) one(elemType, v); } else one(type, value);
}

// float32 → IEEE half, round to nearest even (what numpy's astype(float16) does).
const f32 = new Float32Array(1), u32 = new Uint32Array(f32.buffer);
export function f32ToF16(x) {
  f32[0] = x;
  const u = u32[0], s = (u >>> 16) & 0x8000, e = (u >>> 23) & 0xff, m = u & 0x7fffff;
  if (e === 0xff) return s | 0x7c00 | (m ? 0x200 : 0);
  let E = e - 127 + 15;
  if (E >= 31) return s | 0x7c00;
  if (E <= 0) {  // subnormal half
    if (E < -10) return s;
    const mm = m | 0x800000, shift = 14 - E, r = mm >>> shift, rem = mm & ((1 << shift) - 1), half = 1 << (shift - 1);
    return s | (r + (rem > half || (rem === half && (r & 1)) ? 1 : 0));
  }
  let r = (E << 10) | (m >>> 13);
  const rem = m & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && (r & 1))) r++;  // a carry into the exponent is still right
  return s | r;
}

// HF [out, in] rows of q or k → llama.cpp's order: per head, row t·(hd/2) + j goes to 2j + t.
function permuteRows(a, out, inn, heads) {
  const hd = out / heads, o = new Float32Array(a.length);
  for (let h = 0; h < heads; h++) for (let t = 0; t < 2; t++) for (let j = 0; j < hd / 2; j++) {
    const src = (h * hd + t * (hd / 2) + j) * inn, dst = (h * hd + 2 * j + t) * inn;
    o.set(a.subarray(src, src + inn), dst);
  }
  return o;
}

// noPermute: leave Llama's q/k rows in HF's order (a planted defect: llama.cpp then rotates the
// wrong pairs; decoders.mjs --plant-gguf-no-permute shows its checks catch it).
export function writeGguf(file, c, w, tokenizer, { type = 'F32', name = 'bench', noPermute = false } = {}) {
  const arch = c.model_type === 'qwen2' ? 'qwen2' : 'llama';
  const d = c.hidden_size, H = c.num_attention_heads, KV = c.num_key_value_heads, hd = c.head_dim || d / H, L = c.num_hidden_layers;
  // The tokenizer: tokenizer.json's byte-level BPE vocabulary and merges, padded to vocab_size.
  const vocab = tokenizer.model.vocab, n = Object.keys(vocab).length, tokens = new Array(c.vocab_size), types = new Array(c.vocab_size);
  for (const [t, i] of Object.entries(vocab)) { tokens[i] = t; types[i] = 1; }  // NORMAL
  for (const a of tokenizer.added_tokens || []) { tokens[a.id] = a.content; types[a.id] = a.special ? 3 : 4; }  // CONTROL / USER_DEFINED
  for (let i = 0; i < c.vocab_size; i++) if (tokens[i] === undefined) { tokens[i] = `<pad_${i}>`; types[i] = 5; }  // UNUSED
  const merges = tokenizer.model.merges.map((m) => (Array.isArray(m) ? m.join(' ') : m));
  const B = new Buf(), P = (k) => `${arch}.${k}`;
  const meta = [
    ['general.architecture', T.STRING, arch], ['general.name', T.STRING, name], ['general.file_type', T.UINT32, type === 'F16' ? 1 : 0],
    ['general.alignment', T.UINT32, ALIGN],
    [P('context_length'), T.UINT32, c.max_position_embeddings || 2048], [P('embedding_length'), T.UINT32, d], [P('block_count'), T.UINT32, L],
    [P('feed_forward_length'), T.UINT32, c.intermediate_size], [P('attention.head_count'), T.UINT32, H], [P('attention.head_count_kv'), T.UINT32, KV],
    [P('attention.key_length'), T.UINT32, hd], [P('attention.value_length'), T.UINT32, hd], [P('rope.dimension_count'), T.UINT32, hd],
    [P('rope.freq_base'), T.FLOAT32, c.rope_theta], [P('attention.layer_norm_rms_epsilon'), T.FLOAT32, c.rms_norm_eps], [P('vocab_size'), T.UINT32, c.vocab_size],
    ['tokenizer.ggml.model', T.STRING, 'gpt2'], ['tokenizer.ggml.pre', T.STRING, 'gpt-2'],
    ['tokenizer.ggml.tokens', T.ARRAY, tokens, T.STRING], ['tokenizer.ggml.token_type', T.ARRAY, types, T.INT32],
    ['tokenizer.ggml.merges', T.ARRAY, merges, T.STRING],
    ['tokenizer.ggml.bos_token_id', T.UINT32, c.bos_token_id], ['tokenizer.ggml.eos_token_id', T.UINT32, c.eos_token_id],
    ['tokenizer.ggml.add_bos_token', T.BOOL, false],
  ];
  // Tensors in llama.cpp's names; 1-D norms stay F32 (as convert_hf_to_gguf keeps them).
  const list = [['token_embd.weight', 'embed_tokens.weight']];
  for (let l = 0; l < L; l++) {
    const p = `layers.${l}.`, b = `blk.${l}.`;
    list.push([b + 'attn_norm.weight', p + 'input_layernorm.weight']);
    for (const [g, h] of [['attn_q', 'q_proj'], ['attn_k', 'k_proj'], ['attn_v', 'v_proj']]) {
      list.push([`${b}${g}.weight`, `${p}self_attn.${h}.weight`, arch === 'llama' && g !== 'attn_v' ? (g === 'attn_q' ? H : KV) : 0]);
      if (w[`${p}self_attn.${h}.bias`]) list.push([`${b}${g}.bias`, `${p}self_attn.${h}.bias`]);
    }
    list.push([b + 'attn_output.weight', p + 'self_attn.o_proj.weight'], [b + 'ffn_norm.weight', p + 'post_attention_layernorm.weight'],
              [b + 'ffn_gate.weight', p + 'mlp.gate_proj.weight'], [b + 'ffn_up.weight', p + 'mlp.up_proj.weight'], [b + 'ffn_down.weight', p + 'mlp.down_proj.weight']);
  }
  list.push(['output_norm.weight', 'norm.weight']);
  if (w['lm_head.weight']) list.push(['output.weight', 'lm_head.weight']);
  B.push(Buffer.from('GGUF', 'latin1')); B.u32(3); B.u64(list.length); B.u64(meta.length);
  for (const [k, t, v, e] of meta) kv(B, k, t, v, e);
  let off = 0;
  const infos = list.map(([g, h, heads]) => {
    const a = w[h], shape = w.shape[h];
    if (!a) throw new Error(`gguf: no tensor ${h}`);
    const tt = shape.length === 2 && type === 'F16' ? 'F16' : 'F32', bytes = a.length * (tt === 'F16' ? 2 : 4);
    const info = { g, h, heads, shape, tt, off, bytes };
    off += Math.ceil(bytes / ALIGN) * ALIGN;
    return info;
  });
  for (const i of infos) { B.str(i.g); B.u32(i.shape.length); for (const x of [...i.shape].reverse()) B.u64(x); B.u32(GGML[i.tt]); B.u64(i.off); }
  const head = B.concat(), fd = fs.openSync(file, 'w');
  fs.writeSync(fd, head);
  fs.writeSync(fd, Buffer.alloc((ALIGN - (head.length % ALIGN)) % ALIGN));
  for (const i of infos) {
    let a = w[i.h];
    if (i.heads && !noPermute) a = permuteRows(a, i.shape[0], i.shape[1], i.heads);
    let out;
    if (i.tt === 'F16') { const u = new Uint16Array(a.length); for (let k = 0; k < a.length; k++) u[k] = f32ToF16(a[k]); out = u; } else out = a;
    fs.writeSync(fd, new Uint8Array(out.buffer, out.byteOffset, out.byteLength));
    fs.writeSync(fd, Buffer.alloc(Math.ceil(i.bytes / ALIGN) * ALIGN - i.bytes));
  }
  fs.closeSync(fd);
  return { file, bytes: head.length + off, tensors: list.length, arch };
}
