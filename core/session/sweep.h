// sweep.h — interventions over many runs, as tables (issue 20, item 3; docs/circuits.md):
//  - ablation: held-out accuracy on a task with each head, and each feed-forward block (all its
//    hidden units), switched off in turn — or with a given set of ablations;
//  - activation patching: for a pair of sentences, the run of `text` with one step of the donor
//    `patch_from` copied in — each layer's residual stream at each position, each head's
//    context — and the share of the logit difference that patch restores,
//        (LD_patched − LD_text) / (LD_donor − LD_text),  LD = z[donor's answer] − z[text's answer]
//    at the first output row where the two runs' answers differ (the label; a decoder position,
//    both runs teacher-forced on the model's target; a [MASK]).
// Heads, blocks and layers are found by the trace's roles and places (trace/intervene.h).
#pragma once
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "model/model.h"
#include "trace/intervene.h"
#include "train/tasks.h"

namespace ew {

// Exact-match accuracy over the first n held-out examples (seed) with `ablate` applied to every
// run (mean mode: the means of session/means.h over the same task).
double ablated_accuracy(const Model& model, const Task& task, const std::vector<std::string>& ablate, AblateMode mode,
                        std::uint64_t seed, int n);

// {"task", "n", "mode", "accuracy" (nothing ablated), "ablations": [{"ablate", "accuracy"}]}:
// every head, then every feed-forward block (its id, e.g. "layer0.ffn", ablates all its units).
// Zero ablations of a model the batched training pass supports run there (every example of a
// chunk at once; "path": "batched"), else one example at a time through the recorded forward
// pass with the interventions ("recorded"); both give the same table (tests/test_intervene.cpp).
enum class SweepPath { Fastest, Recorded };
nlohmann::json ablation_sweep(const Model& model, const Task& task, AblateMode mode, std::uint64_t seed, int n,
                              SweepPath path = SweepPath::Fastest);

// The patching sweeps of `model` (its text replaced by `text`) with donor `patch_from`:
// {"text", "patch_from", "row", "answer", "donor_answer", "logit_diff": {"text", "donor"},
//  "residual": {"steps", "tokens", "restored": [[…]]}, "heads": {"heads", "restored"}}.
// Throws ew::Error when the lengths do not line up or both runs give the same answers.
nlohmann::json patch_sweep(const Model& model, const std::string& text, const std::string& patch_from);

// One sweep asked for as data (the page's sweep({...}); the CLI's analyze flags):
//   {"kind": "ablate", "task"?, "mode"?: "zero"|"mean", "seed"?, "n"?}  → ablation_sweep
//       (task: the shipped model's own when absent; seed 1, n 200)
//   {"kind": "patch", "patch_from", "text"?}                            → patch_sweep
//       (text: the model's own when absent)
// An unknown key or kind, or a value of the wrong type, is an ew::Error naming it.
nlohmann::json sweep_from_json(const Model& model, const nlohmann::json& spec);

}  // namespace ew
