// trace.h — the trace: an ordered list of named, shaped steps, one per intermediate of
// the forward pass, with the LaTeX formula that produced it and the ids of its inputs.
// The page, the CLI and the tests all read this one structure (llm.c's ActivationTensors,
// llm-viz's TensorType). Values are the ones the forward pass used, never recomputed.
//
// Memory: a Trace is reused across runs. begin() rewinds it; add() hands out the
// buffer the step at that position had last run, so recomputing with unchanged
// shapes allocates nothing.
#pragma once
#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/place.h"
#include "text/tokenizer.h"

namespace ew {


struct Step {
  std::string id;       // stable: "embedding", "layer0.head1.weights", ...
  std::string title;    // for people: "Attention weights (head 1)"
  std::string formula;  // LaTeX
  std::string kind;     // what the page uses to explain a cell: "matmul", "softmax", ...
  std::string note;     // one or two sentences more, may be empty
  // What quantity the step is, the same in every layer and head ("weights", "scaled", "q",
  // "ln1", "decoder_input", ...; "grad" for dL/dX, with `of`): the key the page's message
  // catalog and notation use, given by the code that records the step (its id is made from
  // place and role, model/naming.h), so no reader takes it apart from the id.
  std::string role;
  std::vector<int> shape;
  std::vector<std::string> inputs;  // ids of the steps (or parameters) it was computed from
  int head = -1;        // for per-head steps: the head index; else -1 (== place.head)
  std::vector<Axis> axes;  // one per dimension of shape
  Place place;
  std::string of;  // a gradient step dL/dX (kind "grad"): the id of X (a step or parameter)
  std::vector<float> data;  // row-major, prod(shape) values; -inf marks a masked entry
  bool intervened = false;  // an intervention changed its values (trace/intervene.h)

  std::size_t size() const { return data.size(); }
};

// Text-level facts of a run that are not float tensors.
struct TextInfo {
  std::vector<std::vector<std::string>> source_tokens;  // per batch item
  std::vector<std::string> target_tokens;               // decoder input, if any
  std::vector<std::string> vocab;                       // id -> token
  std::string tokenizer;                                // "whitespace" | "regex" | "bpe" | "input"
  BpeModel bpe;                                         // merges, when tokenizer == "bpe"
  // What the merges were learned on: "sentence" (the text itself), "corpus" (the model
  // file's bpe_corpus) or "model" (learned in training, carried by the weights `weights`).
  std::string bpe_learned_on, weights;
  int bpe_corpus_words = 0;                             // words the merges were learned from
  std::vector<std::string> sentences;                   // per batch item: the text tokenized
  // Per batch item: the characters the regex tokenizer (also under BPE) skipped.
  std::vector<std::vector<SkippedSpan>> skipped;
  // The names of the parts of a logit attribution (attr.parts' axis labels "parts").
  std::vector<std::string> attr_parts;
};

struct Interventions;

class Trace {
 public:
  void begin();  // start a run: keeps every buffer for reuse
  // Appends a step; its data has prod(shape) zero-or-stale floats for the caller to fill. The
  // caller says which quantity it is (`role`) and where it sits (dims' axes, `place`): the
  // trace stores them as given and never reads them back out of the id.
  Step& add(const std::string& id, const std::string& role, const Dims& dims, const Place& place,
            const std::string& title, const std::string& formula, const std::string& kind,
            std::vector<std::string> inputs = {}, const std::string& note = {});
  const Step* find(const std::string& id) const;  // nullptr when absent
  Step* find(const std::string& id);
  const Step& at(const std::string& id) const;    // throws ew::Error when absent
  std::size_t size() const { return n_; }
  const Step& operator[](std::size_t i) const { return steps_[i]; }
  Step& operator[](std::size_t i) { return steps_[i]; }

  TextInfo text;
  // Wall time this run spent creating parameters (seeded weights are drawn and packed on the
  // first run of a model; 0 on reruns), so callers can report it apart from the arithmetic.
  double setup_ms = 0.0;
  // Interventions applied to each step as it is computed (trace/intervene.h): set by the
  // caller for one run, kept by begin(); null: none.
  const Interventions* interventions = nullptr;
  std::vector<std::string> intervened_params;  // parameters a run's interventions set

 private:
  std::vector<Step> steps_;  // steps_[0..n_) are this run's; the rest are kept buffers
  std::size_t n_ = 0;
  std::unordered_map<std::string, std::size_t> index_;
};

}  // namespace ew
