// ort_kv.mjs — greedy generation through an onnxruntime-web graph with a key/value cache
// (onnx_graph.mjs gpt2KvModel and llamaKvModel: inputs ids [T], pos [T], mask [T, P + T] and
// past_k{l}, past_v{l} [kvHeads, P, headDim]; outputs the last position's logits and
// present_k{l}, present_v{l}): the prompt's run, then one token a run with the previous run's
// present key/values as its past. Shared by checkpoints.mjs (GPT-2: kvHeads = heads) and
// decoders.mjs (Llama, Qwen2: the K/V heads).
// Returns {ids, first, last, prefillMs, decodeMs, decodeTokens}: the logits of the first and of
// the final run (the rows that chose the first and the last token), the prompt's run, and all
// decoded runs together (each run timed from its feeds to its pick; its mask is built before).
const argmax = (row) => { let b = 0; for (let j = 1; j < row.length; j++) if (row[j] > row[b]) b = j; return b; };
const big = (a) => BigInt64Array.from(a, BigInt);

export async function ortKvGenerate(ort, sess, { layers, kvHeads, headDim }, prompt, n) {
  let past = {};
  for (let l = 0; l < layers; l++) for (const m of ['k', 'v']) past[`past_${m}${l}`] = new ort.Tensor('float32', new Float32Array(0), [kvHeads, 0, headDim]);
  const ids = [];
  let first = null, last = null, P = 0, prefillMs = 0, decodeMs = 0;
  for (let step = 0; step < n; step++) {
    const inp = step === 0 ? prompt : [ids.at(-1)], T = inp.length, S = P + T;
    const mask = new Float32Array(T * S);
    for (let i = 0; i < T; i++) for (let j = P + i + 1; j < S; j++) mask[i * S + j] = -1e9;
    const t0 = performance.now();
    const out = await sess.run({ ids: new ort.Tensor('int64', big(inp), [T]), pos: new ort.Tensor('int64', big(Array.from({ length: T }, (_, i) => P + i)), [T]),
                                 mask: new ort.Tensor('float32', mask, [T, S]), ...past });
    const logits = out.logits.data, id = argmax(logits);
    const dt = performance.now() - t0;
    if (step === 0) { prefillMs = dt; first = logits.slice(); } else decodeMs += dt;
    if (step === n - 1) last = logits.slice();
    ids.push(id);
    P = S;
    const next = {};
    for (let l = 0; l < layers; l++) for (const m of ['k', 'v']) { past[`past_${m}${l}`].dispose?.(); next[`past_${m}${l}`] = out[`present_${m}${l}`]; }
    out.logits.dispose?.();
    past = next;
  }
  return { ids, first, last, prefillMs, decodeMs, decodeTokens: n - 1 };
}
