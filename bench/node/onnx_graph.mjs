// onnx_graph.mjs — builds the ONNX models the onnxruntime-web peer runs, in JavaScript:
// the few onnx.proto messages needed are declared inline and encoded with protobufjs
// (no Python, no onnx package). Field numbers are those of onnx/onnx.proto (IR version 8).
import protobuf from 'protobufjs';

const ONNX_PROTO = `
syntax = "proto3";
package onnx;
message AttributeProto {
  string name = 1; float f = 2; int64 i = 3; bytes s = 4; TensorProto t = 5;
  repeated float floats = 7; repeated int64 ints = 8; int32 type = 20;
}
message ValueInfoProto { string name = 1; TypeProto type = 2; }
message NodeProto {
  repeated string input = 1; repeated string output = 2; string name = 3; string op_type = 4;
  repeated AttributeProto attribute = 5; string domain = 7;
}
message ModelProto {
  int64 ir_version = 1; string producer_name = 2; string producer_version = 3;
  GraphProto graph = 7; repeated OperatorSetIdProto opset_import = 8;
}
message GraphProto {
  repeated NodeProto node = 1; string name = 2; repeated TensorProto initializer = 5;
  repeated ValueInfoProto input = 11; repeated ValueInfoProto output = 12;
}
message StringStringEntryProto { string key = 1; string value = 2; }
message TensorProto {
  repeated int64 dims = 1; int32 data_type = 2; string name = 8; bytes raw_data = 9;
  repeated StringStringEntryProto external_data = 13; int32 data_location = 14;
}
message TensorShapeProto {
  message Dimension { int64 dim_value = 1; string dim_param = 2; }
  repeated Dimension dim = 1;
}
message TypeProto {
  message Tensor { int32 elem_type = 1; TensorShapeProto shape = 2; }
  Tensor tensor_type = 1;
}
message OperatorSetIdProto { string domain = 1; int64 version = 2; }
`;

const root = protobuf.parse(ONNX_PROTO, { keepCase: true }).root;
const ModelProto = root.lookupType('onnx.ModelProto');

const FLOAT = 1, INT64 = 7;
const ATTR = { FLOAT: 1, INT: 2, INTS: 7 };

function valueInfo(name, dims) {
  return { name, type: { tensor_type: { elem_type: FLOAT, shape: { dim: dims.map((d) => ({ dim_value: d })) } } } };
}

function floatTensor(name, dims, data) {
  const f = data instanceof Float32Array ? data : Float32Array.from(data);
  return { name, dims, data_type: FLOAT, raw_data: new Uint8Array(f.buffer, f.byteOffset, f.byteLength) };
}

function int64Tensor(name, values) {
  const b = new BigInt64Array(values.map((v) => BigInt(v)));
  return { name, dims: [values.length], data_type: INT64, raw_data: new Uint8Array(b.buffer) };
}

function attr(name, value) {
  if (Array.isArray(value)) return { name, type: ATTR.INTS, ints: value };
  if (Number.isInteger(value)) return { name, type: ATTR.INT, i: value };
  return { name, type: ATTR.FLOAT, f: value };
}

function node(op_type, input, output, attrs = {}, domain = '') {
  return { op_type, input, output, name: output[0], domain, attribute: Object.entries(attrs).map(([k, v]) => attr(k, v)) };
}

function encodeModel(graph) {
  const msg = ModelProto.create({
    ir_version: 8,
    producer_name: 'encoder-walkthrough-bench',
    // 17: LayerNormalization; com.microsoft: onnxruntime's contrib ops (Attention, SkipLayerNormalization)
    opset_import: [{ domain: '', version: 17 }, { domain: 'com.microsoft', version: 1 }],
    graph,
  });
  const err = ModelProto.verify(msg);
  if (err) throw new Error('onnx model: ' + err);
  return ModelProto.encode(msg).finish();
}

// C (M×N) = A (M×K, input "A") · B (K×N, an initializer: a weight, as in our packed matmul).
export function matmulModel(M, K, N, B) {
  return encodeModel({
    name: 'matmul',
    node: [node('MatMul', ['A', 'B'], ['C'])],
    initializer: [floatTensor('B', [K, N], B)],
    input: [valueInfo('A', [M, K])],
    output: [valueInfo('C', [M, N])],
  });
}

// One post-norm encoder layer on X (T×d): the computation of core/trace/layers.cpp.
//   Q,K,V = X·W + b; per head: softmax(Q_h·K_hᵀ / √d_k)·V_h; concat · W_o + b_o;
//   O = LayerNorm(X + MHA); Y = LayerNorm(O + ReLU(O·W_1 + b_1)·W_2 + b_2)
// w: {W_q,b_q,W_k,b_k,W_v,b_v,W_o,b_o,W_1,b_1,W_2,b_2,ln1_gamma,ln1_beta,ln2_gamma,ln2_beta}
// (Float32Array, W in×out row-major).
export function encoderLayerModel(T, d, h, ff, w, eps = 1e-5) {
  const dk = d / h;
  const n = [], init = [];
  const W = (name, dims) => init.push(floatTensor(name, dims, w[name]));
  for (const m of ['q', 'k', 'v', 'o']) { W('W_' + m, [d, d]); W('b_' + m, [d]); }
  W('W_1', [d, ff]); W('b_1', [ff]); W('W_2', [ff, d]); W('b_2', [d]);
  for (const p of ['ln1_gamma', 'ln1_beta', 'ln2_gamma', 'ln2_beta']) W(p, [d]);
  init.push(int64Tensor('shape_thd', [T, h, dk]), int64Tensor('shape_td', [T, d]));
  init.push(floatTensor('scale', [], [1 / Math.sqrt(dk)]));

  for (const m of ['q', 'k', 'v']) n.push(node('Gemm', ['X', 'W_' + m, 'b_' + m], [m.toUpperCase()]));
  for (const m of ['Q', 'K', 'V']) n.push(node('Reshape', [m, 'shape_thd'], [m + '3']));
  n.push(node('Transpose', ['Q3'], ['Qh'], { perm: [1, 0, 2] }));   // h×T×dk
  n.push(node('Transpose', ['K3'], ['KhT'], { perm: [1, 2, 0] }));  // h×dk×T
  n.push(node('Transpose', ['V3'], ['Vh'], { perm: [1, 0, 2] }));   // h×T×dk
  n.push(node('MatMul', ['Qh', 'KhT'], ['S']));                      // h×T×T
  n.push(node('Mul', ['S', 'scale'], ['Ss']));
  n.push(node('Softmax', ['Ss'], ['P'], { axis: -1 }));
  n.push(node('MatMul', ['P', 'Vh'], ['Ah']));                       // h×T×dk
  n.push(node('Transpose', ['Ah'], ['A3'], { perm: [1, 0, 2] }));
  n.push(node('Reshape', ['A3', 'shape_td'], ['A']));
  n.push(node('Gemm', ['A', 'W_o', 'b_o'], ['MHA']));
  n.push(node('Add', ['X', 'MHA'], ['R1']));
  n.push(node('LayerNormalization', ['R1', 'ln1_gamma', 'ln1_beta'], ['O'], { axis: -1, epsilon: eps }));
  n.push(node('Gemm', ['O', 'W_1', 'b_1'], ['H']));
  n.push(node('Relu', ['H'], ['Hr']));
  n.push(node('Gemm', ['Hr', 'W_2', 'b_2'], ['F']));
  n.push(node('Add', ['O', 'F'], ['R2']));
  n.push(node('LayerNormalization', ['R2', 'ln2_gamma', 'ln2_beta'], ['Y'], { axis: -1, epsilon: eps }));
  return encodeModel({
    name: 'encoder_layer',
    node: n,
    initializer: init,
    input: [valueInfo('X', [T, d])],
    output: [valueInfo('Y', [T, d])],
  });
}

// The same layer with onnxruntime's fused contrib ops (com.microsoft), the formulation its
// transformer optimizer produces for BERT: Attention (packed QKV projection, all heads,
// scale 1/√d_k, softmax, ·V) on X as 1×T×d, then SkipLayerNormalization (LayerNorm(x + skip
// + bias)) after W_o and after the FFN (Gemm + Relu, which "all" fuses).
export function encoderLayerModelFused(T, d, h, ff, w, eps = 1e-5) {
  const n = [], init = [];
  const W = (name, dims) => init.push(floatTensor(name, dims, w[name]));
  const qkv = new Float32Array(d * 3 * d), qkvBias = new Float32Array(3 * d);
  ['W_q', 'W_k', 'W_v'].forEach((k, m) => {
    for (let i = 0; i < d; i++) qkv.set(w[k].subarray(i * d, (i + 1) * d), i * 3 * d + m * d);
  });
  ['b_q', 'b_k', 'b_v'].forEach((k, m) => qkvBias.set(w[k], m * d));
  init.push(floatTensor('W_qkv', [d, 3 * d], qkv), floatTensor('b_qkv', [3 * d], qkvBias));
  W('W_o', [d, d]); W('b_o', [d]);
  W('W_1', [d, ff]); W('b_1', [ff]); W('W_2', [ff, d]); W('b_2', [d]);
  for (const p of ['ln1_gamma', 'ln1_beta', 'ln2_gamma', 'ln2_beta']) W(p, [d]);
  init.push(int64Tensor('shape_1td', [1, T, d]), int64Tensor('shape_td', [T, d]));
  n.push(node('Reshape', ['X', 'shape_1td'], ['X3']));
  n.push(node('Attention', ['X3', 'W_qkv', 'b_qkv'], ['A3'], { num_heads: h }, 'com.microsoft'));
  n.push(node('Reshape', ['A3', 'shape_td'], ['A']));
  n.push(node('MatMul', ['A', 'W_o'], ['MHA']));
  n.push(node('SkipLayerNormalization', ['MHA', 'X', 'ln1_gamma', 'ln1_beta', 'b_o'], ['O'], { epsilon: eps }, 'com.microsoft'));
  n.push(node('Gemm', ['O', 'W_1', 'b_1'], ['H']));
  n.push(node('Relu', ['H'], ['Hr']));
  n.push(node('MatMul', ['Hr', 'W_2'], ['F']));
  n.push(node('SkipLayerNormalization', ['F', 'O', 'ln2_gamma', 'ln2_beta', 'b_2'], ['Y'], { epsilon: eps }, 'com.microsoft'));
  return encodeModel({
    name: 'encoder_layer_fused',
    node: n,
    initializer: init,
    input: [valueInfo('X', [T, d])],
    output: [valueInfo('Y', [T, d])],
  });
}

// ---- whole checkpoints (bench/node/checkpoints.mjs) ---------------------------------------------
// w: name → Float32Array, the safetensors tensors under their file names (prefix "bert." /
// "transformer." removed). Linear weights stay as the file has them: BERT's [out, in] (Gemm
// transB = 1), GPT-2's Conv1D [in, out]. The sequence length is dynamic (Reshape with -1).

// Exact GELU from opset-17 ops: 0.5·x·(1 + erf(x/√2)).
function geluErf(n, x, out) {
  n.push(node('Mul', [x, 'c_inv_sqrt2'], [out + '_s']), node('Erf', [out + '_s'], [out + '_e']),
         node('Add', [out + '_e', 'c_one'], [out + '_p']), node('Mul', [x, out + '_p'], [out + '_m']),
         node('Mul', [out + '_m', 'c_half'], [out]));
}
// GPT-2's gelu_new: 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))).
function geluTanh(n, x, out) {
  n.push(node('Mul', [x, x], [out + '_x2']), node('Mul', [out + '_x2', x], [out + '_x3']),
         node('Mul', [out + '_x3', 'c_044715'], [out + '_a']), node('Add', [x, out + '_a'], [out + '_b']),
         node('Mul', [out + '_b', 'c_sqrt2pi'], [out + '_c']), node('Tanh', [out + '_c'], [out + '_t']),
         node('Add', [out + '_t', 'c_one'], [out + '_p']), node('Mul', [x, out + '_p'], [out + '_m']),
         node('Mul', [out + '_m', 'c_half'], [out]));
}
function constants(init, h, dk, d) {
  init.push(floatTensor('c_inv_sqrt2', [], [Math.SQRT1_2]), floatTensor('c_one', [], [1]), floatTensor('c_half', [], [0.5]),
            floatTensor('c_044715', [], [0.044715]), floatTensor('c_sqrt2pi', [], [Math.sqrt(2 / Math.PI)]),
            floatTensor('scale', [], [1 / Math.sqrt(dk)]),
            int64Tensor('shape_thd', [-1, h, dk]), int64Tensor('shape_td', [-1, d]));
}
// Multi-head attention on Q, K, V (T×d) with an optional additive mask input (T×T); writes p + 'A' (T×d).
function attentionNodes(n, p, Q, K, V, mask) {
  for (const [m, src] of [['Q', Q], ['K', K], ['V', V]]) n.push(node('Reshape', [src, 'shape_thd'], [p + m + '3']));
  n.push(node('Transpose', [p + 'Q3'], [p + 'Qh'], { perm: [1, 0, 2] }), node('Transpose', [p + 'K3'], [p + 'KhT'], { perm: [1, 2, 0] }),
         node('Transpose', [p + 'V3'], [p + 'Vh'], { perm: [1, 0, 2] }), node('MatMul', [p + 'Qh', p + 'KhT'], [p + 'S']),
         node('Mul', [p + 'S', 'scale'], [p + 'Ss']));
  if (mask) n.push(node('Add', [p + 'Ss', mask], [p + 'Sm']));
  n.push(node('Softmax', [mask ? p + 'Sm' : p + 'Ss'], [p + 'P'], { axis: -1 }), node('MatMul', [p + 'P', p + 'Vh'], [p + 'Ah']),
         node('Transpose', [p + 'Ah'], [p + 'A3'], { perm: [1, 0, 2] }), node('Reshape', [p + 'A3', 'shape_td'], [p + 'A']));
}
const intInput = (name) => ({ name, type: { tensor_type: { elem_type: INT64, shape: { dim: [{ dim_param: 'T' }] } } } });
const dynOutput = (name, cols) => ({ name, type: { tensor_type: { elem_type: FLOAT, shape: { dim: [{ dim_param: 'T' }, { dim_value: cols }] } } } });

// BertForMaskedLM (post-norm, exact GELU, masked-LM head with the tied decoder) at opset 17.
// Inputs: ids, pos, types (int64 [T]); output: logits [T, V]. fused: com.microsoft Attention
// (packed QKV, weights transposed to [in, 3·out]) and SkipLayerNormalization instead of the
// plain attention and Add + LayerNormalization.
export function bertMlmModel(c, w, { fused = false } = {}) {
  const d = c.hidden_size, h = c.num_attention_heads, L = c.num_hidden_layers, V = c.vocab_size, eps = c.layer_norm_eps;
  const n = [], init = [], used = new Set();
  const W = (k) => { if (!w[k]) throw new Error(`checkpoint has no tensor ${k}`); if (!used.has(k)) { used.add(k); init.push(floatTensor(k, w.shape[k], w[k])); } return k; };
  constants(init, h, d / h, d);
  n.push(node('Gather', [W('embeddings.word_embeddings.weight'), 'ids'], ['e_tok']), node('Gather', [W('embeddings.position_embeddings.weight'), 'pos'], ['e_pos']),
         node('Gather', [W('embeddings.token_type_embeddings.weight'), 'types'], ['e_typ']),
         node('Add', ['e_tok', 'e_pos'], ['e_tp']), node('Add', ['e_tp', 'e_typ'], ['e_sum']),
         node('LayerNormalization', ['e_sum', W('embeddings.LayerNorm.weight'), W('embeddings.LayerNorm.bias')], ['x0'], { axis: -1, epsilon: eps }));
  if (fused) init.push(int64Tensor('shape_1td', [1, -1, d]));
  for (let l = 0; l < L; l++) {
    const p = `encoder.layer.${l}.`, x = `x${l}`, o = `L${l}_`;
    const gemm = (inp, k, out) => n.push(node('Gemm', [inp, W(p + k + '.weight'), W(p + k + '.bias')], [out], { transB: 1 }));
    if (fused) {
      const qkv = new Float32Array(d * 3 * d), bias = new Float32Array(3 * d);
      ['query', 'key', 'value'].forEach((m, j) => {
        const Wm = w[p + `attention.self.${m}.weight`];  // [out, in]
        for (let i = 0; i < d; i++) for (let r = 0; r < d; r++) qkv[i * 3 * d + j * d + r] = Wm[r * d + i];
        bias.set(w[p + `attention.self.${m}.bias`], j * d);
      });
      init.push(floatTensor(o + 'Wqkv', [d, 3 * d], qkv), floatTensor(o + 'bqkv', [3 * d], bias));
      n.push(node('Reshape', [x, 'shape_1td'], [o + 'x3']), node('Attention', [o + 'x3', o + 'Wqkv', o + 'bqkv'], [o + 'A3'], { num_heads: h }, 'com.microsoft'),
             node('Reshape', [o + 'A3', 'shape_td'], [o + 'A']), node('Gemm', [o + 'A', W(p + 'attention.output.dense.weight')], [o + 'M'], { transB: 1 }),
             node('SkipLayerNormalization', [o + 'M', x, W(p + 'attention.output.LayerNorm.weight'), W(p + 'attention.output.LayerNorm.bias'), W(p + 'attention.output.dense.bias')], [o + 'O'], { epsilon: eps }, 'com.microsoft'));
    } else {
      gemm(x, 'attention.self.query', o + 'Q'); gemm(x, 'attention.self.key', o + 'K'); gemm(x, 'attention.self.value', o + 'V');
      attentionNodes(n, o, o + 'Q', o + 'K', o + 'V', null);
      gemm(o + 'A', 'attention.output.dense', o + 'M');
      n.push(node('Add', [x, o + 'M'], [o + 'R1']),
             node('LayerNormalization', [o + 'R1', W(p + 'attention.output.LayerNorm.weight'), W(p + 'attention.output.LayerNorm.bias')], [o + 'O'], { axis: -1, epsilon: eps }));
    }
    gemm(o + 'O', 'intermediate.dense', o + 'H');
    geluErf(n, o + 'H', o + 'G');
    gemm(o + 'G', 'output.dense', o + 'F');
    n.push(node('Add', [o + 'O', o + 'F'], [o + 'R2']),
           node('LayerNormalization', [o + 'R2', W(p + 'output.LayerNorm.weight'), W(p + 'output.LayerNorm.bias')], [`x${l + 1}`], { axis: -1, epsilon: eps }));
  }
  n.push(node('Gemm', [`x${L}`, W('cls.predictions.transform.dense.weight'), W('cls.predictions.transform.dense.bias')], ['hd_D'], { transB: 1 }));
  geluErf(n, 'hd_D', 'hd_G');
  n.push(node('LayerNormalization', ['hd_G', W('cls.predictions.transform.LayerNorm.weight'), W('cls.predictions.transform.LayerNorm.bias')], ['hd_U'], { axis: -1, epsilon: eps }),
         node('Gemm', ['hd_U', W('embeddings.word_embeddings.weight'), W('cls.predictions.bias')], ['logits'], { transB: 1 }));
  return encodeModel({ name: 'bert_mlm', node: n, initializer: init, input: ['ids', 'pos', 'types'].map(intInput),
                       output: [dynOutput('logits', V)] });
}

// What follows GPT-2's attention in a block: c_proj, the residual, ln_2, the gelu_new MLP, the
// residual (gpt2LmModel, gpt2KvModel); x: the block's input, o: its names' prefix.
function gpt2BlockRest(n, ln, gemm, x, o, out) {
  gemm(o + 'A', 'attn.c_proj', o + 'M');
  n.push(node('Add', [x, o + 'M'], [o + 'R1']));
  ln(o + 'R1', 'ln_2', o + 'N2'); gemm(o + 'N2', 'mlp.c_fc', o + 'H');
  geluTanh(n, o + 'H', o + 'G');
  gemm(o + 'G', 'mlp.c_proj', o + 'F');
  n.push(node('Add', [o + 'R1', o + 'F'], [out]));
}
// GPT-2's LM head on the last position only (generation needs no more; ours does the same in its
// rounds): ln_f, then the tied table (Gemm transB on wte). Needs the last_* constants.
function gpt2Head(n, W, x, eps) {
  n.push(node('Slice', [x, 'last_start', 'last_end', 'axis0'], ['x_last']),
         node('LayerNormalization', ['x_last', W('ln_f.weight'), W('ln_f.bias')], ['xf'], { axis: -1, epsilon: eps }),
         node('Gemm', ['xf', W('wte.weight')], ['logits'], { transB: 1 }));
}

// GPT2LMHeadModel (pre-norm, causal, gelu_new, final LayerNorm, tied LM head) at opset 17.
// Inputs: ids, pos (int64 [T]), mask (float [T, T]: 0 or -1e9 above the diagonal); output: logits [1, V]
// of the last position (what greedy generation reads).
// fused: com.microsoft Attention with unidirectional = 1 (the causal mask inside; no "mask" input).
export function gpt2LmModel(c, w, { fused = false } = {}) {
  const d = c.n_embd, h = c.n_head, L = c.n_layer, V = c.vocab_size, eps = c.layer_norm_epsilon;
  const n = [], init = [], used = new Set();
  const W = (k) => { if (!w[k]) throw new Error(`checkpoint has no tensor ${k}`); if (!used.has(k)) { used.add(k); init.push(floatTensor(k, w.shape[k], w[k])); } return k; };
  constants(init, h, d / h, d);
  init.push(int64Tensor('split_qkv', [d, d, d]), int64Tensor('shape_1td', [1, -1, d]));
  n.push(node('Gather', [W('wte.weight'), 'ids'], ['e_tok']), node('Gather', [W('wpe.weight'), 'pos'], ['e_pos']), node('Add', ['e_tok', 'e_pos'], ['x0']));
  for (let l = 0; l < L; l++) {
    const p = `h.${l}.`, x = `x${l}`, o = `L${l}_`;
    const ln = (inp, k, out) => n.push(node('LayerNormalization', [inp, W(p + k + '.weight'), W(p + k + '.bias')], [out], { axis: -1, epsilon: eps }));
    const gemm = (inp, k, out) => n.push(node('Gemm', [inp, W(p + k + '.weight'), W(p + k + '.bias')], [out]));
    ln(x, 'ln_1', o + 'N1');
    if (fused) {  // c_attn's Conv1D weight [d, 3d] (Q | K | V columns) is Attention's packed layout
      n.push(node('Reshape', [o + 'N1', 'shape_1td'], [o + 'N3']),
             node('Attention', [o + 'N3', W(p + 'attn.c_attn.weight'), W(p + 'attn.c_attn.bias')], [o + 'A3'], { num_heads: h, unidirectional: 1 }, 'com.microsoft'),
             node('Reshape', [o + 'A3', 'shape_td'], [o + 'A']));
    } else {
      gemm(o + 'N1', 'attn.c_attn', o + 'QKV');
      n.push(node('Split', [o + 'QKV', 'split_qkv'], [o + 'Q', o + 'K', o + 'V'], { axis: 1 }));
      attentionNodes(n, o, o + 'Q', o + 'K', o + 'V', 'mask');
    }
    gpt2BlockRest(n, ln, gemm, x, o, `x${l + 1}`);
  }
  // The LM head on the last position only (gpt2Head).
  init.push(int64Tensor('last_start', [-1]), int64Tensor('last_end', [2 ** 31 - 1]), int64Tensor('axis0', [0]));
  gpt2Head(n, W, `x${L}`, eps);
  const maskIn = { name: 'mask', type: { tensor_type: { elem_type: FLOAT, shape: { dim: [{ dim_param: 'T' }, { dim_param: 'T' }] } } } };
  return encodeModel({ name: 'gpt2_lm', node: n, initializer: init, input: [intInput('ids'), intInput('pos'), ...(fused ? [] : [maskIn])], output: [dynOutput('logits', V)] });
}

// GPT2LMHeadModel with a key/value cache (opset 17), laid out as llamaKvModel: inputs ids, pos
// (int64 [T]), mask (float [T, P+T]: 0, or -1e9 where a key is in the query's future), past_k{l},
// past_v{l} (float [H, P, hd]); outputs logits [1, V] of the last position, present_k{l},
// present_v{l} ([H, P+T, hd], the next call's past). c_attn's Conv1D [d, 3d] is one Gemm, split
// into q | k | v; every other Linear a Gemm on the Conv1D's [in, out] weight; the tied head a Gemm
// transB on wte.
export function gpt2KvModel(c, w) {
  const d = c.n_embd, H = c.n_head, L = c.n_layer, V = c.vocab_size, eps = c.layer_norm_epsilon, hd = d / H;
  const n = [], init = [], used = new Set();
  const W = (k) => { if (!w[k]) throw new Error(`checkpoint has no tensor ${k}`); if (!used.has(k)) { used.add(k); init.push(floatTensor(k, w.shape[k], w[k])); } return k; };
  constants(init, H, hd, d);
  init.push(int64Tensor('split_qkv', [d, d, d]), int64Tensor('last_start', [-1]), int64Tensor('last_end', [2 ** 31 - 1]), int64Tensor('axis0', [0]));
  n.push(node('Gather', [W('wte.weight'), 'ids'], ['e_tok']), node('Gather', [W('wpe.weight'), 'pos'], ['e_pos']), node('Add', ['e_tok', 'e_pos'], ['x0']));
  const io = [];
  for (let l = 0; l < L; l++) {
    const p = `h.${l}.`, x = `x${l}`, o = `L${l}_`;
    const ln = (inp, k, out) => n.push(node('LayerNormalization', [inp, W(p + k + '.weight'), W(p + k + '.bias')], [out], { axis: -1, epsilon: eps }));
    const gemm = (inp, k, out) => n.push(node('Gemm', [inp, W(p + k + '.weight'), W(p + k + '.bias')], [out]));
    ln(x, 'ln_1', o + 'N1');
    gemm(o + 'N1', 'attn.c_attn', o + 'QKV');
    n.push(node('Split', [o + 'QKV', 'split_qkv'], [o + 'Q', o + 'K', o + 'V'], { axis: 1 }));
    for (const m of ['Q', 'K', 'V']) n.push(node('Reshape', [o + m, 'shape_thd'], [o + m + '3']), node('Transpose', [o + m + '3'], [o + m + 'h'], { perm: [1, 0, 2] }));  // [H, T, hd]
    n.push(node('Concat', [`past_k${l}`, o + 'Kh'], [`present_k${l}`], { axis: 1 }), node('Concat', [`past_v${l}`, o + 'Vh'], [`present_v${l}`], { axis: 1 }),
           node('Transpose', [`present_k${l}`], [o + 'KT'], { perm: [0, 2, 1] }), node('MatMul', [o + 'Qh', o + 'KT'], [o + 'S']),  // [H, T, S]
           node('Mul', [o + 'S', 'scale'], [o + 'Ss']), node('Add', [o + 'Ss', 'mask'], [o + 'Sm']), node('Softmax', [o + 'Sm'], [o + 'P'], { axis: -1 }),
           node('MatMul', [o + 'P', `present_v${l}`], [o + 'Ah']), node('Transpose', [o + 'Ah'], [o + 'A3'], { perm: [1, 0, 2] }),
           node('Reshape', [o + 'A3', 'shape_td'], [o + 'A']));
    gpt2BlockRest(n, ln, gemm, x, o, `x${l + 1}`);
    io.push(l);
  }
  gpt2Head(n, W, `x${L}`, eps);
  const kvInfo = (name, len) => ({ name, type: { tensor_type: { elem_type: FLOAT, shape: { dim: [{ dim_value: H }, { dim_param: len }, { dim_value: hd }] } } } });
  const maskIn = { name: 'mask', type: { tensor_type: { elem_type: FLOAT, shape: { dim: [{ dim_param: 'T' }, { dim_param: 'S' }] } } } };
  return encodeModel({ name: 'gpt2_kv', node: n, initializer: init,
                       input: [intInput('ids'), intInput('pos'), maskIn, ...io.flatMap((l) => [kvInfo(`past_k${l}`, 'P'), kvInfo(`past_v${l}`, 'P')])],
                       output: [valueInfo('logits', [1, V]), ...io.flatMap((l) => [kvInfo(`present_k${l}`, 'S'), kvInfo(`present_v${l}`, 'S')])] });
}

// A Llama / Qwen2 decoder (LlamaForCausalLM, Qwen2ForCausalLM) with a key/value cache, opset 17:
// RMSNorm as Pow → ReduceMean → Add ε → Sqrt → Div → Mul (the pattern onnxruntime's level-"all"
// optimizer fuses into SimplifiedLayerNormalization), rotate-half RoPE from cos/sin tables
// gathered at the positions, grouped-query attention (query heads h = kv·G + g share K/V head kv,
// HF's repeat_kv), SwiGLU (SiLU(gate)·up), the tied head (Gemm transB on the embedding table) on
// the last position only. Every Linear is a Gemm with transB = 1 on HF's [out, in] weight.
// Inputs: ids, pos (int64 [T]), mask (float [T, P+T]: 0, or -1e9 where a key is in the query's
// future), past_k{l}, past_v{l} (float [KV, P, hd]); outputs: logits [1, V], present_k{l},
// present_v{l} ([KV, P+T, hd], the next call's past). w: HF keys without "model.", as in the file.
// external: the weights go to one external-data file (ONNX's data_location EXTERNAL, for models
// past protobuf's 2 GB): returns {model, externalData: [{path, data}]} for ort's session options.
export function llamaKvModel(c, w, { maxPos = 2048, external = false } = {}) {
  const d = c.hidden_size, H = c.num_attention_heads, KV = c.num_key_value_heads, L = c.num_hidden_layers;
  const hd = c.head_dim || d / H, G = H / KV, V = c.vocab_size, eps = c.rms_norm_eps, theta = c.rope_theta ?? 10000;
  const n = [], init = [], used = new Set();
  const W = (k) => { if (!w[k]) throw new Error(`checkpoint has no tensor ${k}`); if (!used.has(k)) { used.add(k); init.push(floatTensor(k, w.shape[k], w[k])); } return k; };
  // RoPE tables as HF computes them: inv_freq in float32, angle p·inv_freq, each half of the row the same.
  const cos = new Float32Array(maxPos * hd), sin = new Float32Array(maxPos * hd);
  for (let i = 0; i < hd / 2; i++) {
    const inv = Math.fround(1 / Math.pow(theta, (2 * i) / hd));
    for (let p = 0; p < maxPos; p++) {
      const a = Math.fround(p * inv);
      cos[p * hd + i] = cos[p * hd + i + hd / 2] = Math.cos(a);
      sin[p * hd + i] = sin[p * hd + i + hd / 2] = Math.sin(a);
    }
  }
  init.push(floatTensor('rope_cos', [maxPos, hd], cos), floatTensor('rope_sin', [maxPos, hd], sin),
            floatTensor('c_two', [], [2]), floatTensor('c_eps', [], [eps]), floatTensor('c_scale', [], [1 / Math.sqrt(hd)]),
            int64Tensor('split_half', [hd / 2, hd / 2]), int64Tensor('shape_tHd', [-1, H, hd]), int64Tensor('shape_tKd', [-1, KV, hd]),
            int64Tensor('shape_kGtd', [KV, G, -1, hd]), int64Tensor('axes1', [1]),
            int64Tensor('shape_Htd', [H, -1, hd]), int64Tensor('shape_td', [-1, H * hd]),
            int64Tensor('last_start', [-1]), int64Tensor('last_end', [2 ** 31 - 1]), int64Tensor('axis0', [0]));
  const rms = (x, k, out) => n.push(node('Pow', [x, 'c_two'], [out + '_sq']), node('ReduceMean', [out + '_sq'], [out + '_ms'], { axes: [-1], keepdims: 1 }),
                                    node('Add', [out + '_ms', 'c_eps'], [out + '_e']), node('Sqrt', [out + '_e'], [out + '_r']),
                                    node('Div', [x, out + '_r'], [out + '_n']), node('Mul', [out + '_n', W(k + '.weight')], [out]));
  const gemm = (x, k, out) => n.push(node('Gemm', w[k + '.bias'] ? [x, W(k + '.weight'), W(k + '.bias')] : [x, W(k + '.weight')], [out], { transB: 1 }));
  // x [heads, T, hd] → x·cos + rotate_half(x)·sin, rotate_half(x) = [−x₂, x₁]
  const rope = (x, out) => n.push(node('Split', [x, 'split_half'], [out + '_1', out + '_2'], { axis: -1 }), node('Neg', [out + '_2'], [out + '_n2']),
                                  node('Concat', [out + '_n2', out + '_1'], [out + '_rh'], { axis: -1 }), node('Mul', [x, 'cos_t'], [out + '_c']),
                                  node('Mul', [out + '_rh', 'sin_t'], [out + '_s']), node('Add', [out + '_c', out + '_s'], [out]));
  n.push(node('Gather', [W('embed_tokens.weight'), 'ids'], ['x0']), node('Gather', ['rope_cos', 'pos'], ['cos_t']), node('Gather', ['rope_sin', 'pos'], ['sin_t']));
  const io = [];
  for (let l = 0; l < L; l++) {
    const p = `layers.${l}.`, x = `x${l}`, o = `L${l}_`;
    rms(x, p + 'input_layernorm', o + 'N1');
    gemm(o + 'N1', p + 'self_attn.q_proj', o + 'q'); gemm(o + 'N1', p + 'self_attn.k_proj', o + 'k'); gemm(o + 'N1', p + 'self_attn.v_proj', o + 'v');
    n.push(node('Reshape', [o + 'q', 'shape_tHd'], [o + 'q3']), node('Transpose', [o + 'q3'], [o + 'qh'], { perm: [1, 0, 2] }),
           node('Reshape', [o + 'k', 'shape_tKd'], [o + 'k3']), node('Transpose', [o + 'k3'], [o + 'kh'], { perm: [1, 0, 2] }),
           node('Reshape', [o + 'v', 'shape_tKd'], [o + 'v3']), node('Transpose', [o + 'v3'], [o + 'vh'], { perm: [1, 0, 2] }));
    rope(o + 'qh', o + 'qr'); rope(o + 'kh', o + 'kr');
    n.push(node('Concat', [`past_k${l}`, o + 'kr'], [`present_k${l}`], { axis: 1 }), node('Concat', [`past_v${l}`, o + 'vh'], [`present_v${l}`], { axis: 1 }),
           node('Mul', [o + 'qr', 'c_scale'], [o + 'qs']), node('Reshape', [o + 'qs', 'shape_kGtd'], [o + 'qg']),  // [KV, G, T, hd]
           node('Transpose', [`present_k${l}`], [o + 'kT'], { perm: [0, 2, 1] }), node('Unsqueeze', [o + 'kT', 'axes1'], [o + 'kT4']),  // [KV, 1, hd, S]
           node('MatMul', [o + 'qg', o + 'kT4'], [o + 'S']), node('Add', [o + 'S', 'mask'], [o + 'Sm']),  // [KV, G, T, S]
           node('Softmax', [o + 'Sm'], [o + 'P'], { axis: -1 }), node('Unsqueeze', [`present_v${l}`, 'axes1'], [o + 'v4']),
           node('MatMul', [o + 'P', o + 'v4'], [o + 'Ag']), node('Reshape', [o + 'Ag', 'shape_Htd'], [o + 'Ah']),  // [KV, G, T, hd] → [H, T, hd]
           node('Transpose', [o + 'Ah'], [o + 'A3'], { perm: [1, 0, 2] }), node('Reshape', [o + 'A3', 'shape_td'], [o + 'A']));
    gemm(o + 'A', p + 'self_attn.o_proj', o + 'M');
    n.push(node('Add', [x, o + 'M'], [o + 'R1']));
    rms(o + 'R1', p + 'post_attention_layernorm', o + 'N2');
    gemm(o + 'N2', p + 'mlp.gate_proj', o + 'g'); gemm(o + 'N2', p + 'mlp.up_proj', o + 'u');
    n.push(node('Sigmoid', [o + 'g'], [o + 'gs']), node('Mul', [o + 'g', o + 'gs'], [o + 'silu']), node('Mul', [o + 'silu', o + 'u'], [o + 'gu']));
    gemm(o + 'gu', p + 'mlp.down_proj', o + 'F');
    n.push(node('Add', [o + 'R1', o + 'F'], [`x${l + 1}`]));
    io.push(l);
  }
  n.push(node('Slice', [`x${L}`, 'last_start', 'last_end', 'axis0'], ['x_last']));
  rms('x_last', 'norm', 'xf');
  n.push(node('Gemm', ['xf', W('embed_tokens.weight')], ['logits'], { transB: 1 }));
  const kvInfo = (name, len) => ({ name, type: { tensor_type: { elem_type: FLOAT, shape: { dim: [{ dim_value: KV }, { dim_param: len }, { dim_value: hd }] } } } });
  const maskIn = { name: 'mask', type: { tensor_type: { elem_type: FLOAT, shape: { dim: [{ dim_param: 'T' }, { dim_param: 'S' }] } } } };
  let ext = null;
  if (external) {
    const big = init.filter((t) => t.raw_data.length >= 1 << 16), total = big.reduce((a, t) => a + Math.ceil(t.raw_data.length / 64) * 64, 0);
    const data = new Uint8Array(total);
    let at = 0;
    for (const t of big) {
      data.set(t.raw_data, at);
      t.external_data = [{ key: 'location', value: 'weights.bin' }, { key: 'offset', value: String(at) }, { key: 'length', value: String(t.raw_data.length) }];
      t.data_location = 1;
      at += Math.ceil(t.raw_data.length / 64) * 64;
      delete t.raw_data;
    }
    ext = [{ path: 'weights.bin', data }];
  }
  const model = encodeModel({ name: 'llama_kv', node: n, initializer: init,
                       input: [intInput('ids'), intInput('pos'), maskIn, ...io.flatMap((l) => [kvInfo(`past_k${l}`, 'P'), kvInfo(`past_v${l}`, 'P')])],
                       output: [valueInfo('logits', [1, V]), ...io.flatMap((l) => [kvInfo(`present_k${l}`, 'S'), kvInfo(`present_v${l}`, 'S')])] });
  return external ? { model, externalData: ext } : model;
}
