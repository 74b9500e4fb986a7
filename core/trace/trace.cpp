// trace.cpp — the step list: appends steps into buffers kept from the previous run.
#include "trace/trace.h"

#include "model/error.h"

namespace ew {

void Trace::begin() {
  n_ = 0;
  index_.clear();
  text = TextInfo{};
  setup_ms = 0.0;
  intervened_params.clear();
}

Step& Trace::add(const std::string& id, const std::string& role, const Dims& dims, const Place& place,
                 const std::string& title, const std::string& formula, const std::string& kind,
                 std::vector<std::string> inputs, const std::string& note) {
  if (index_.count(id)) throw Error("internal: trace step '" + id + "' recorded twice");
  std::size_t count = 1;
  for (const Dim& d : dims) count *= static_cast<std::size_t>(d.size);
  if (n_ == steps_.size()) steps_.emplace_back();
  Step& step = steps_[n_];
  step.id = id;
  step.title = title;
  step.formula = formula;
  step.kind = kind;
  step.note = note;
  step.role = role;
  step.shape.clear();
  step.axes.clear();
  for (const Dim& d : dims) {
    step.shape.push_back(d.size);
    step.axes.push_back(d.axis);
  }
  step.inputs = std::move(inputs);
  step.place = place;
  step.head = place.head;
  step.of.clear();
  step.intervened = false;
  step.data.resize(count);  // keeps its capacity: no allocation when shapes repeat
  index_.emplace(id, n_);
  ++n_;
  return step;
}

const Step* Trace::find(const std::string& id) const {
  auto it = index_.find(id);
  return it == index_.end() ? nullptr : &steps_[it->second];
}

Step* Trace::find(const std::string& id) {
  auto it = index_.find(id);
  return it == index_.end() ? nullptr : &steps_[it->second];
}

const Step& Trace::at(const std::string& id) const {
  const Step* s = find(id);
  if (!s) throw Error("the trace has no step '" + id + "'");
  return *s;
}

}  // namespace ew
