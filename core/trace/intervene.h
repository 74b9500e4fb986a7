// intervene.h — interventions on a forward pass (issue 20; docs/trace.md, "Interventions"):
// ablate a head or a feed-forward unit, set one cell of a parameter or of a step, patch a step
// with a donor run's values. The one parser of the written specs ("layer0.W_q[1,2]=0.5",
// "layer0.output@1,2") is here; ids are then resolved through the trace's registry of steps
// (their ids, roles and places, made by model/naming.h) and the model's parameters, never by
// taking an id apart.
//
// How a run applies them: Trace::interventions points at a resolved Interventions; every code
// path that computes a step calls intervene(trace, id) once the step's values are final and
// before any later step reads them, so the step shows the new values and everything after it
// is computed from them. A fused kernel whose intermediate an edit targets (a LayerNorm's
// mean or var, a softmax's rowmax or rowsum, an attention head's scores or scaled scores, the
// feed-forward pre-activation) is run in its unfused pieces instead (touches()). Parameter
// sets are applied once the parameters exist (apply_param_sets, from ew::run).
#pragma once
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/model.h"
#include "trace/trace.h"

namespace ew {

// ---- the written specs (the one parser) ---------------------------------------------------
// A tensor or one of its cells: "layer0.W_q" or "layer0.W_q[1,2]" ({"layer0.W_q", {1, 2}}).
struct CellRef {
  std::string id;
  std::vector<int> index;  // empty: the whole tensor
};
// "ID", "ID[i]", "ID[r,c]", "ID[b,r,c]" (whole numbers ≥ 0). Throws ew::Error saying what is wrong.
CellRef parse_cell(const std::string& spec);

struct SetSpec {
  CellRef cell;  // always with an index
  float value = 0;
};
// "ID[r,c]=V": V a finite number. Throws ew::Error.
SetSpec parse_set(const std::string& spec);
// A cell "ID[r,c]" and a JSON number (the options' {"set": {cell: value}}). Throws ew::Error.
SetSpec make_set(const std::string& cell, double value);

struct PatchSpec {
  std::string id;
  std::vector<int> positions;  // rows of the step's first token axis; empty: every row
};
// "ID" or "ID@p,q,…". Throws ew::Error.
PatchSpec parse_patch(const std::string& spec);

enum class AblateMode { Zero, Mean };

// What a run asks to change, as written (RunOptions::intervene).
struct InterventionSpec {
  std::vector<std::string> ablate;  // "layer0.head1", "decoder0.cross.head2", "layer0.ffn_hidden[3]"
  AblateMode ablate_mode = AblateMode::Zero;
  std::vector<SetSpec> set;
  std::optional<std::string> patch_from;  // the donor sentence
  std::vector<PatchSpec> patch;

  bool empty() const { return ablate.empty() && set.empty() && !patch_from && patch.empty(); }
};

// ---- resolved against one model's trace ---------------------------------------------------
// One change to one step's values.
struct Edit {
  enum class Kind { Patch, Ablate, Set } kind = Kind::Set;
  std::string what;            // the spec as given, for messages
  std::vector<float> values;   // Patch: the donor step's data; Ablate: one value per column
                               // (every column) or one value (`column` only)
  std::vector<int> positions;  // Patch: rows of the token axis (empty: all)
  int axis = 0;                // Patch: which dimension is that token axis
  int column = -1;             // Ablate: the one column of the last axis (-1: every column)
  std::size_t offset = 0;      // Set: the cell, row-major
  float value = 0;             // Set
};

// A parameter's cell to set before the run computes anything.
struct ParamSet {
  std::string id, what;
  std::size_t offset = 0;
  float value = 0;
};

// Per-column means of steps over a task's held-out inputs (mean ablation): step id → one
// mean per column of its last axis.
using ColumnMeans = std::map<std::string, std::vector<float>>;

struct Interventions {
  std::map<std::string, std::vector<Edit>> edits;  // step id → edits in order (patch, ablate, set)
  std::vector<ParamSet> params;

  bool touches(const std::string& step_id) const { return edits.count(step_id) > 0; }
  bool empty() const { return edits.empty() && params.empty(); }
};

// Resolves `spec` through `trace` (a run of `model` without interventions: its steps are the
// registry of ids, shapes, roles and places) and the model's parameters. `donor` is the
// donor's trace when spec.patch is not empty; `means` the column means when the mode is Mean.
// Throws ew::Error for an unknown id, a cell out of range, a non-finite value, a step whose
// shape the donor's does not match, a head or unit that is not one.
Interventions resolve_interventions(const InterventionSpec& spec, const Trace& trace, const Model& model,
                                    const Trace* donor, const ColumnMeans* means);

// The heads (their context steps' ids by head id, "layer0.head1" → "layer0.head1.context")
// and feed-forward hidden steps ("layer0.ffn_hidden") of a trace: what can be ablated.
std::map<std::string, std::string> head_context_steps(const Trace& trace);
std::vector<std::string> ffn_hidden_steps(const Trace& trace);

// Applies the edits of step `id` (if any) in place and marks it intervened. A no-op when
// trace.interventions is null. Called by every code path that computes a step.
void intervene(Trace& trace, const std::string& id);

// Sets the parameter cells (repacking a matmul weight) and lists them in
// trace.intervened_params. A no-op when trace.interventions is null.
void apply_param_sets(Model& model, Trace& trace);

}  // namespace ew
