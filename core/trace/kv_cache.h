// kv_cache.h — generation with a key/value cache (issue: "generation at the speed of memory").
// The prompt runs once through the recorded forward pass (prefill); its keys (after the
// rotation, for the rotary decoders) and values fill the cache, one [len, KV·hd] block per layer
// — KV heads, not query heads: grouped-query attention caches less. Each new token is then one
// row through every layer (decode): its q, k and v, attention over the cached rows and its own,
// the feed-forward network, the final norm and the head; its k and v are appended. The row is
// computed by the same operations the recorded pass uses (record.h's kernels, ops.h's row
// functions), and not recorded: a doctest holds its logits to a full recompute's.
//
// Models: causal language models — GPT-2 (LayerNorm, learned positions) and the rotary decoders
// (Llama, Qwen, Gemma 3: Arch::rms_norm). Deliberately left out: batches, interventions (the lab
// recomputes the whole trace).
#pragma once
#include <vector>

#include "model/model.h"
#include "trace/trace.h"

namespace ew {

struct KvCache {
  int len = 0;                           // positions cached
  std::vector<std::vector<float>> k, v;  // per layer: len rows of KV·hd (k rotated where the model rotates)
};

// The cache of a recorded run of a causal model: layer{i}.k_rot (or .k) and .v of its one
// sequence. ew::Error when the model is not a causal LM or the trace is not its run.
KvCache cache_from_trace(const Model& m, const Trace& t);

// The logits (V of them) of the position after the cached ones, given that position's token
// `id`; appends its k and v to the cache. ew::Error past max_tokens.
void decode_next(const Model& m, KvCache& c, int id, std::vector<float>& logits);

}  // namespace ew
