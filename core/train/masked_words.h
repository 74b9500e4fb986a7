// masked_words.h — the masked-words task (issue 9): BERT-style masked-word prediction on a
// corpus of sentences (scripts/extract-corpus.mjs writes the State of the Union addresses as
// DIR/sotu-train.txt and DIR/sotu-heldout.txt, split by address), with a vocabulary learned by
// seed 001's BPE at corpus scale (bpe_learn) and stored in the model (Model::merges).
//
// Masking (simpler than BERT's 80/10/10, and documented as such): whole words that are a
// single token of the learned vocabulary can be masked; each is masked with probability 0.15
// (at least one per sentence), always replaced by [MASK]. Which sentence and which words are
// decided by a hash of (seed, index, position), so every run draws the same examples.
// The task is a Task (tasks.h) built at run time around its corpus (MaskedWordsTask): Trainer
// trains it like the generated tasks, on the batched path (train_batched.h).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/model.h"
#include "text/tokenizer.h"
#include "trace/trace.h"
#include "train/recipe.h"
#include "train/tasks.h"

namespace ew {

inline constexpr const char* kMaskedWordsTask = "masked-words";

struct MaskedCorpus {
  std::vector<std::string> train, heldout;  // one sentence each
};

// DIR/sotu-train.txt and DIR/sotu-heldout.txt; ew::Error saying how to make them when missing.
MaskedCorpus read_masked_corpus(const std::string& dir);

// The learned tokenizer and vocabulary: <pad> <s> </s> <unk> [MASK], then every BPE token of
// the training corpus, most frequent first.
struct MaskedVocab {
  BpeModel bpe;
  std::vector<std::string> tokens;
};
MaskedVocab learn_masked_vocab(const std::vector<std::string>& train, int merges);

// Which words can be masked: those that are one token of the model's vocabulary (built once
// from the merges and vocabulary over the corpus's distinct words).
struct MaskableWords {
  std::unordered_map<std::string, std::string> token;  // word → its single BPE token
};
MaskableWords maskable_words(const std::vector<std::pair<std::string, std::string>>& merges,
                             const std::vector<std::string>& vocab, const MaskedCorpus& corpus);
MaskableWords maskable_words(const Model& m, const MaskedCorpus& corpus);  // m's merges and vocabulary

// Example `index`: `sentence` with its masks (Example::source, and Example::mask_targets the
// right token of each). Returns false when it has no maskable word.
bool masked_example(Example& out, const std::string& sentence, const MaskableWords& w, std::uint64_t seed,
                    std::uint64_t index);
// Training example `index`: a sentence drawn by hash (skipping sentences with nothing to mask).
Example training_example(const MaskedCorpus& corpus, const MaskableWords& w, std::uint64_t seed, std::uint64_t index);

// The task around a corpus: Task::sample draws training examples by hash and held-out
// example i from the i-th held-out sentence that has a maskable word. Neither copied nor
// moved: the Task's sampler refers to the corpus and the words held here.
class MaskedWordsTask {
 public:
  // For training: learns `merges` BPE merges on the training sentences (1.5–2.5 s for 2,000).
  MaskedWordsTask(MaskedCorpus corpus, int merges);
  // For measuring a trained model: its own merges and vocabulary.
  MaskedWordsTask(MaskedCorpus corpus, const Model& m);
  MaskedWordsTask(const MaskedWordsTask&) = delete;
  MaskedWordsTask& operator=(const MaskedWordsTask&) = delete;

  const Task& task() const { return task_; }
  const MaskedCorpus& corpus() const { return corpus_; }
  const MaskableWords& words() const { return words_; }

 private:
  void build(std::vector<std::pair<std::string, std::string>> merges, std::vector<std::string> vocab);
  MaskedCorpus corpus_;
  MaskableWords words_;
  std::vector<std::size_t> maskable_heldout_;  // indices of the held-out sentences with a maskable word
  Task task_;
};

struct MaskedScore {
  long masks = 0;                       // masked words scored
  double top1 = 0, top5 = 0;            // the model
  double unigram_top1 = 0, unigram_top5 = 0;  // always guessing the most frequent training words
};

// Top-1/top-5 over the masks of the first n held-out sentences (those with a maskable word),
// beside the unigram baseline: the 5 most frequent targets of the first 20,000 training
// examples, guessed for every mask. Recorded forward pass, one sentence at a time.
MaskedScore score_masked(Model& m, const MaskedWordsTask& t, std::uint64_t seed, int n,
                         const std::function<void(int)>& progress = {});
MaskedScore score_masked(Model& m, const MaskedCorpus& corpus, std::uint64_t seed, int n,
                         const std::function<void(int)>& progress = {});  // the task of m's vocabulary

// Trains a model on the corpus with Trainer (the task is masked-words whatever o.task says);
// `report(step, loss)` is called after every step (may be empty).
Model train_masked_words(const TrainOptions& o, const MaskedCorpus& corpus,
                         const std::function<void(int, double)>& report = {});

// The top k fills of each [MASK] of the last run: (token, probability) per mask, in order.
std::vector<std::vector<std::pair<std::string, float>>> mask_fills(const Trace& trace, int k);

}  // namespace ew
