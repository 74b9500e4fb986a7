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
message TensorProto {
  repeated int64 dims = 1; int32 data_type = 2; string name = 8; bytes raw_data = 9;
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
