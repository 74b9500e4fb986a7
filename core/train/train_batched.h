// train_batched.h — the fast training path: one flat forward pass over a padded minibatch
// [B,T,…] into preallocated activation buffers and one flat backward pass mirroring it
// (llm.c's gpt2_forward / gpt2_backward), gradients with the parameters' layout, `+=`.
// It computes what run() + run_backward() compute for each example of the batch (the mean of
// their losses and gradients: tests/test_train_batched.cpp checks it), without recording
// anything, hashing a string or allocating once its buffers are sized (they are sized for
// the first batches' lengths and regrow only when a longer batch comes).
//
// The models it supports are the ones training builds (train.cpp's initial_model):
// pre-norm, ReLU or GELU, sinusoidal positions, a given vocabulary with its embedding table
// read by any of the tokenizers (whitespace, regex, or BPE with the model's own merges);
// exactly one head: a classification head on the first token, a decoder (teacher forcing,
// logits tied to the embedding table), or the masked-word head (the encoder's rows at the
// [MASK]s against the embedding table, tied); any number of layers and heads; causal or not.
// Anything else (post-norm, learned positions, merges learned from the text at run time,
// explicit input rows) is named by batched_unsupported() and trained on the recorded path.
//
// Padding: sources are padded to the longest in the batch; no query attends to a padded key
// (the valid keys of a row are a prefix: 0 … len−1, and 0 … i under the causal mask, so the
// softmax runs over that prefix and the other weights are exactly 0, as exp(−∞) is in the
// recorded path). Padded rows never reach the loss, so their gradients are exactly zero.
#pragma once
#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/model.h"
#include "text/tokenizer.h"
#include "text/vocab.h"
#include "train/tasks.h"

namespace ew {

// A padded minibatch as token ids. Storage is reused from batch to batch.
struct TokenBatch {
  int B = 0, T = 0, S = 0;    // examples; source length; decoder length (0: classifier)
  std::vector<int> src;       // B×T, <pad> after src_len[b]
  std::vector<int> src_len;   // B
  std::vector<int> dec_in;    // B×S: <s> then the target's tokens, <pad> after dec_len[b]
  std::vector<int> dec_out;   // B×S: the target's tokens then </s> (what each position predicts); −1 after
  std::vector<int> dec_len;   // B
  std::vector<int> label;     // B (classifier)
  // Masked-word head: each [MASK]'s row b·T + t, its right token (−1 when not given) and how
  // many [MASK]s each example has (B).
  std::vector<int> mask_row, mask_label, mask_count;
};

// Empty when the batched path supports `m`; otherwise why not (for the fallback's message).
std::string batched_unsupported(const Model& m);

class BatchedPass {
 public:
  // Binds to m's parameters by id (their order and shapes must stay as they are: training
  // never changes them) and to its vocabulary. Throws ew::Error when batched_unsupported(m).
  explicit BatchedPass(const Model& m);
  ~BatchedPass();
  BatchedPass(const BatchedPass&) = delete;
  BatchedPass& operator=(const BatchedPass&) = delete;

  // Tokenises n examples into `out` as the model's tokenizer reads them (vocabulary ids,
  // <unk> for unknown tokens when the vocabulary has one; ew::Error otherwise, or for an
  // empty text). Masked-word models: the [MASK] rows, and Example::mask_targets as labels.
  void encode(TokenBatch& out, const Example* ex, int n);

  // Forward and backward over the batch with m's current parameter values: returns the
  // mean over examples of each example's loss (classifier: −log p(label); encoder–decoder:
  // the mean over its target tokens and </s> of −log p), and writes its gradient into
  // `grads` (num_grads() floats: each parameter's gradient at offset(k), in m.params order).
  double loss_and_grads(const Model& m, const TokenBatch& batch, float* grads);

  // Greedy predictions for n examples with m's current weights, forward only, batched: for
  // an encoder–decoder the generated token ids (greedy_decode of trace/generate.h, at most
  // max_len tokens, as Trainer::predict does on the recorded path); for a classifier the most
  // probable label; for a masked-word model the most probable token of each [MASK]. Targets,
  // labels and mask targets of `ex` are not read.
  void predict(const Model& m, const Example* ex, int n, int max_len, std::vector<std::vector<int>>& out);

  // Parts predict() switches off (zero ablation, as trace/intervene.h does it on the recorded
  // path: a head's context columns, a feed-forward block's hidden units set to 0) — the what-if
  // lab's ablation sweep (session/sweep.h). Heads by {stack, layer, head}, stack 0 encoder,
  // 1 decoder self-attention, 2 cross-attention; feed-forward blocks by {stack, layer}, stack 0
  // encoder, 1 decoder. Replaces the last call's; an empty Ablation switches nothing off.
  // Training never sets one (loss_and_grads reads it too: set none there).
  struct Ablation {
    std::vector<std::array<int, 3>> heads;
    std::vector<std::array<int, 2>> ffn;
  };
  void set_ablation(const Ablation& a);

  std::size_t num_grads() const { return num_grads_; }
  std::size_t offset(std::size_t k) const { return offsets_[k]; }

  struct Impl;  // buffers and parameter indices (train_batched.cpp)

 private:
  // Appends the ids of text's tokens to ids_; returns how many (ew::Error past max_tokens).
  int append_ids(std::string_view text, const char* what);
  void append_bpe_ids(std::string_view piece);
  void encode_bpe_words(const Example* ex, int n);
  void mask_rows(TokenBatch& out, const Example* ex, int n) const;
  Impl* impl_;
  TokenBatch pred_;  // predict()'s batch
  Vocab vocab_;
  int pad_ = 0, bos_ = -1, eos_ = -1, mask_ = -1;
  int max_tokens_ = 0;
  TokenizerKind tokenizer_ = TokenizerKind::Whitespace;
  bool masked_lm_ = false;
  BpeModel bpe_;                                             // the model's merges
  std::unordered_map<std::string, std::vector<int>> bpe_ids_;  // a word's BPE token ids, once encoded
  std::vector<int> ids_, ids_at_;  // encode()'s token ids, and where each example's begin
  std::vector<std::size_t> offsets_;
  std::size_t num_grads_ = 0;
};

}  // namespace ew
