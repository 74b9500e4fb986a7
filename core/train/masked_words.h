// masked_words.h — the masked-words task (issue 9): BERT-style masked-word prediction on a
// corpus of sentences (scripts/extract-corpus.mjs writes the State of the Union addresses as
// DIR/sotu-train.txt and DIR/sotu-heldout.txt, split by address), with a vocabulary learned by
// seed 001's BPE at corpus scale (bpe_learn) and stored in the model (Model::merges).
//
// Masking (simpler than BERT's 80/10/10, and documented as such): whole words that are a
// single token of the learned vocabulary can be masked; each is masked with probability 0.15
// (at least one per sentence), always replaced by [MASK]. Which sentence and which words are
// decided by a hash of (seed, index, position), so every run draws the same examples.
// Training runs every example through the recorded forward and backward pass (run /
// run_backward), like Trainer: nothing here is batched.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/model.h"
#include "model/tokenizer.h"
#include "trace/trace.h"

namespace ew {

struct MaskedCorpus {
  std::vector<std::string> train, heldout;  // one sentence each
};

// DIR/sotu-train.txt and DIR/sotu-heldout.txt; ew::Error saying how to make them when missing.
MaskedCorpus read_masked_corpus(const std::string& dir);

// A sentence with some words replaced by [MASK], and the right token for each [MASK].
struct MaskedExample {
  std::string text;
  std::vector<std::string> targets;
};

// The learned tokenizer and vocabulary: <pad> <s> </s> <unk> [MASK], then every BPE token of
// the training corpus, most frequent first.
struct MaskedVocab {
  BpeModel bpe;
  std::vector<std::string> tokens;
};
MaskedVocab learn_masked_vocab(const std::vector<std::string>& train, int merges);

// Which words can be masked: those that are one token of the model's vocabulary (built once
// from the model's merges and vocabulary over the corpus's distinct words).
struct MaskableWords {
  std::unordered_map<std::string, std::string> token;  // word → its single BPE token
};
MaskableWords maskable_words(const Model& m, const MaskedCorpus& corpus);

// Example `index`: `sentence` with its masks. Returns false when it has no maskable word.
bool masked_example(MaskedExample& out, const std::string& sentence, const MaskableWords& w, std::uint64_t seed,
                    std::uint64_t index);
// Training example `index`: a sentence drawn by hash (skipping sentences with nothing to mask).
MaskedExample training_example(const MaskedCorpus& corpus, const MaskableWords& w, std::uint64_t seed,
                               std::uint64_t index);

struct MaskedOptions {
  std::string corpus_dir = "build/corpus";
  int merges = 2000;
  int steps = 1500, batch = 32;
  double lr = 3e-3;
  std::uint64_t seed = 1;
  int d_model = 32, num_heads = 4, d_ff = 64, num_layers = 2;
  int warmup = 100;
};

struct MaskedScore {
  long masks = 0;                       // masked words scored
  double top1 = 0, top5 = 0;            // the model
  double unigram_top1 = 0, unigram_top5 = 0;  // always guessing the most frequent training words
};

// Top-1/top-5 over the masks of the first n held-out sentences (those with a maskable word),
// beside the unigram baseline: the 5 most frequent targets of the first 20,000 training
// examples, guessed for every mask.
MaskedScore score_masked(Model& m, const MaskedCorpus& corpus, std::uint64_t seed, int n,
                         const std::function<void(int)>& progress = {});

// Trains a model; `report(step, loss)` is called after every step (may be empty).
Model train_masked_words(const MaskedOptions& o, const MaskedCorpus& corpus,
                         const std::function<void(int, double)>& report = {});

// The top k fills of each [MASK] of the last run: (token, probability) per mask, in order.
std::vector<std::vector<std::pair<std::string, float>>> mask_fills(const Trace& trace, int k);

}  // namespace ew
