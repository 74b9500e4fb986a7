// intervene.cpp — the intervention specs, their resolution and their application (intervene.h).
#include "trace/intervene.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "model/error.h"
#include "model/naming.h"

namespace ew {

namespace {

std::string trim(const std::string& s) {
  std::size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

// Whole numbers ≥ 0 separated by commas: "1,2" → {1, 2}. `what` names the list in messages.
std::vector<int> whole_numbers(const std::string& list, const std::string& spec, const char* what) {
  std::vector<int> out;
  std::size_t from = 0;
  while (true) {
    const std::size_t comma = list.find(',', from);
    const std::string item = trim(list.substr(from, comma == std::string::npos ? std::string::npos : comma - from));
    bool digits = !item.empty() && item.size() <= 9;
    for (char c : item) digits = digits && std::isdigit(static_cast<unsigned char>(c));
    if (!digits)
      throw Error("\"" + spec + "\": " + what + " must be whole numbers ≥ 0 separated by commas, got \"" + item + "\"");
    out.push_back(std::atoi(item.c_str()));
    if (comma == std::string::npos) return out;
    from = comma + 1;
  }
}

void check_id(const std::string& id, const std::string& spec) {
  bool ok = !id.empty();
  for (char c : id) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.');
  if (!ok) throw Error("\"" + spec + "\" does not start with a step or parameter id (letters, digits, _ and .)");
}

std::string shape_text(const std::vector<int>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

// The row-major offset of `index` in a tensor of `shape` whose axes are `axes` (for messages).
std::size_t offset_of(const CellRef& c, const std::vector<int>& shape, const std::vector<Axis>& axes) {
  if (c.index.size() != shape.size())
    throw Error("\"" + c.id + "\" has shape " + shape_text(shape) + ": a cell needs " + std::to_string(shape.size()) +
                " index(es), got " + std::to_string(c.index.size()));
  std::size_t off = 0;
  for (std::size_t a = 0; a < shape.size(); ++a) {
    if (c.index[a] >= shape[a])
      throw Error("\"" + c.id + "\" has shape " + shape_text(shape) + ": index " + std::to_string(c.index[a]) +
                  " is out of range for axis " + std::to_string(a) + (a < axes.size() ? " (" + axes[a].name + ")" : "") +
                  " of size " + std::to_string(shape[a]));
    off = off * static_cast<std::size_t>(shape[a]) + static_cast<std::size_t>(c.index[a]);
  }
  return off;
}

// The steps an edit may target: forward steps whose values later steps read.
const Step& editable_step(const Trace& t, const std::string& id, const std::string& spec) {
  const Step* s = t.find(id);
  if (!s || s->kind == "grad") throw Error("\"" + spec + "\": this model's trace has no step \"" + id + "\"");
  if (s->kind == "tokens")
    throw Error("\"" + spec + "\": token ids are not values later steps read; set a cell of the embedding instead");
  return *s;
}

Edit edit(Edit::Kind kind, const std::string& what) {
  Edit e;
  e.kind = kind;
  e.what = what;
  return e;
}

std::string first_names(const std::map<std::string, std::string>& heads) {
  std::string s;
  int n = 0;
  for (const auto& [id, ctx] : heads) {
    if (n++ == 6) return s + ", …";
    s += (s.empty() ? "" : ", ") + id;
  }
  return s.empty() ? "none" : s;
}

Edit ablate_edit(const std::string& spec, const Trace& t, const ColumnMeans* means, std::string& step) {
  const auto heads = head_context_steps(t);
  Edit e = edit(Edit::Kind::Ablate, spec);
  const auto h = heads.find(spec);
  int column = -1;
  if (h != heads.end()) {
    step = h->second;
  } else {
    const CellRef c = parse_cell(spec);
    const Step* s = t.find(c.id);
    if (!s || s->role != "ffn_hidden" || c.index.size() != 1)
      throw Error("cannot ablate \"" + spec + "\": give a head (this model's: " + first_names(heads) +
                  ") or a feed-forward unit (layer0.ffn_hidden[j], decoder0.ffn_hidden[j])");
    if (c.index[0] >= s->shape.back())
      throw Error("cannot ablate \"" + spec + "\": the feed-forward has " + std::to_string(s->shape.back()) +
                  " hidden units (0 to " + std::to_string(s->shape.back() - 1) + ")");
    step = c.id;
    column = c.index[0];
  }
  const int width = t.at(step).shape.back();
  e.column = column;
  if (!means) {
    e.values.assign(column < 0 ? width : 1, 0.0f);
    return e;
  }
  const auto m = means->find(step);
  if (m == means->end() || static_cast<int>(m->second.size()) != width)
    throw Error("cannot ablate \"" + spec + "\" to its mean: no mean was measured for " + step);
  e.values = column < 0 ? m->second : std::vector<float>{m->second[column]};
  return e;
}

Edit patch_edit(const PatchSpec& p, const Trace& t, const Trace& donor) {
  const std::string spec = p.id + (p.positions.empty() ? "" : "@…");
  const Step& s = editable_step(t, p.id, p.id);
  const Step* d = donor.find(p.id);
  if (!d) throw Error("cannot patch \"" + p.id + "\": the donor run has no such step");
  if (d->shape != s.shape)
    throw Error("cannot patch \"" + p.id + "\": it has shape " + shape_text(s.shape) + " in this run but " +
                shape_text(d->shape) + " in the donor's; the two sentences must have as many tokens (source, and target for decoder steps)");
  Edit e = edit(Edit::Kind::Patch, p.id);
  e.values = d->data;
  e.positions = p.positions;
  if (p.positions.empty()) return e;
  e.axis = -1;
  for (std::size_t a = 0; a < s.axes.size() && e.axis < 0; ++a)
    if (s.axes[a].name == "token" || s.axes[a].name == "query") e.axis = static_cast<int>(a);
  if (e.axis < 0) throw Error("cannot patch \"" + p.id + "\" at positions: the step has no token axis");
  for (int q : p.positions)
    if (q >= s.shape[e.axis])
      throw Error("cannot patch \"" + p.id + "\" at position " + std::to_string(q) + ": its token axis has " +
                  std::to_string(s.shape[e.axis]) + " positions");
  return e;
}

}  // namespace

CellRef parse_cell(const std::string& spec_in) {
  const std::string spec = trim(spec_in);
  const std::size_t open = spec.find('[');
  CellRef c;
  c.id = spec.substr(0, open);
  check_id(c.id, spec);
  if (open == std::string::npos) return c;
  if (spec.back() != ']' || spec.find(']') != spec.size() - 1)
    throw Error("\"" + spec + "\": a cell is written ID[i], ID[r,c] or ID[b,r,c], ending with ]");
  c.index = whole_numbers(spec.substr(open + 1, spec.size() - open - 2), spec, "the indices");
  return c;
}

SetSpec make_set(const std::string& cell, double value) {
  SetSpec s{parse_cell(cell), 0};
  if (s.cell.index.empty()) throw Error("\"" + cell + "\": say which cell to set, as ID[r,c]");
  if (!std::isfinite(value) || std::fabs(value) > FLT_MAX)
    throw Error("\"" + cell + "\": the value must be a finite number (float32), got " +
                (std::isfinite(value) ? std::to_string(value) : std::string("a non-finite one")));
  s.value = static_cast<float>(value);
  return s;
}

SetSpec parse_set(const std::string& spec) {
  const std::size_t eq = spec.rfind('=');
  if (eq == std::string::npos) throw Error("\"" + spec + "\": a set is written ID[r,c]=VALUE");
  const std::string v = trim(spec.substr(eq + 1));
  char* end = nullptr;
  errno = 0;
  const double x = v.empty() ? 0 : std::strtod(v.c_str(), &end);
  if (v.empty() || *end || errno == ERANGE)
    throw Error("\"" + spec + "\": the value after = must be a number, got \"" + v + "\"");
  return make_set(spec.substr(0, eq), x);
}

PatchSpec parse_patch(const std::string& spec_in) {
  const std::string spec = trim(spec_in);
  const std::size_t at = spec.find('@');
  PatchSpec p;
  p.id = spec.substr(0, at);
  check_id(p.id, spec);
  if (at != std::string::npos) p.positions = whole_numbers(spec.substr(at + 1), spec, "the positions after @");
  return p;
}

std::map<std::string, std::string> head_context_steps(const Trace& trace) {
  std::map<std::string, std::string> out;
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const Step& s = trace[i];
    if (s.role != "context" || s.place.head < 0) continue;
    const std::string prefix = block_prefix(s.place);  // "layer0.head1."
    out[prefix.substr(0, prefix.size() - 1)] = s.id;
  }
  return out;
}

std::vector<std::string> ffn_hidden_steps(const Trace& trace) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < trace.size(); ++i)
    if (trace[i].role == "ffn_hidden") out.push_back(trace[i].id);
  return out;
}

Interventions resolve_interventions(const InterventionSpec& spec, const Trace& trace, const Model& model,
                                    const Trace* donor, const ColumnMeans* means) {
  Interventions iv;
  if (spec.patch_from && spec.patch.empty()) throw Error("a donor sentence (patch_from) needs steps to patch (patch)");
  if (!spec.patch.empty() && !spec.patch_from) throw Error("patching needs a donor sentence (patch_from)");
  for (const PatchSpec& p : spec.patch) iv.edits[p.id].push_back(patch_edit(p, trace, *donor));
  for (const std::string& a : spec.ablate) {
    std::string step;
    Edit e = ablate_edit(a, trace, spec.ablate_mode == AblateMode::Mean ? means : nullptr, step);
    iv.edits[step].push_back(std::move(e));
  }
  for (const SetSpec& s : spec.set) {
    const std::string what = s.cell.id + "[…]=" + std::to_string(s.value);
    if (const Step* st = trace.find(s.cell.id); st && st->kind != "grad") {
      const Step& step = editable_step(trace, s.cell.id, s.cell.id);
      Edit e = edit(Edit::Kind::Set, what);
      e.offset = offset_of(s.cell, step.shape, step.axes);
      e.value = s.value;
      iv.edits[s.cell.id].push_back(std::move(e));
    } else if (const Param* p = model.find(s.cell.id)) {
      const std::vector<std::size_t> dims = p->shape();
      const std::vector<int> shape(dims.begin(), dims.end());
      iv.params.push_back({p->id, what, offset_of(s.cell, shape, p->axes), s.value});
    } else {
      throw Error("cannot set \"" + s.cell.id + "\": this model has no step or parameter of that id");
    }
  }
  return iv;
}

namespace {

void apply_edit(const Edit& e, Step& s, const Trace& trace) {
  float* y = s.data.data();
  const std::size_t n = s.size();
  switch (e.kind) {
    case Edit::Kind::Patch: {
      if (e.values.size() != n) throw Error("cannot patch \"" + s.id + "\": its shape changed during the run");
      if (e.positions.empty()) {
        std::copy(e.values.begin(), e.values.end(), y);
        break;
      }
      std::size_t outer = 1, inner = 1;
      for (int a = 0; a < e.axis; ++a) outer *= s.shape[a];
      for (std::size_t a = e.axis + 1; a < s.shape.size(); ++a) inner *= s.shape[a];
      const std::size_t T = s.shape[e.axis];
      for (std::size_t o = 0; o < outer; ++o)
        for (int p : e.positions)
          std::copy_n(e.values.data() + (o * T + p) * inner, inner, y + (o * T + p) * inner);
      break;
    }
    case Edit::Kind::Ablate: {
      const std::size_t w = s.shape.back();
      for (std::size_t row = 0; row < n / w; ++row) {
        if (e.column < 0) std::copy(e.values.begin(), e.values.end(), y + row * w);
        else y[row * w + e.column] = e.values[0];
      }
      break;
    }
    case Edit::Kind::Set: {
      if (e.offset >= n) throw Error("cannot set " + e.what + ": the cell is out of range in this run of " + s.id);
      y[e.offset] = e.value;
      // A masked score stays masked: the mask applies after the set (scaled = score + mask).
      if (s.kind == "scale_mask" && s.inputs.size() > 1)
        if (const Step* m = trace.find(s.inputs[1]); m && m->size() == n && std::isinf(m->data[e.offset]))
          y[e.offset] = m->data[e.offset];
      break;
    }
  }
}

}  // namespace

void intervene(Trace& trace, const std::string& id) {
  if (!trace.interventions) return;
  const auto it = trace.interventions->edits.find(id);
  if (it == trace.interventions->edits.end()) return;
  Step* s = trace.find(id);
  if (!s) return;
  for (const Edit& e : it->second) apply_edit(e, *s, trace);
  s->intervened = true;
}

void apply_param_sets(Model& model, Trace& trace) {
  if (!trace.interventions) return;
  for (const ParamSet& ps : trace.interventions->params) {
    Param& p = model.at(ps.id);
    if (ps.offset >= p.size()) throw Error("cannot set " + ps.what + ": the cell is out of range in this run");
    // An edited 16-bit parameter is widened to float32 for good (Param::set: its other numbers
    // unchanged, widening is exact); a packed weight is edited where its panels hold the cell.
    p.set(ps.offset, ps.value);
    trace.intervened_params.push_back(p.id);
  }
}

}  // namespace ew
