// trace.cpp — the step list: appends steps into buffers kept from the previous run.
#include "trace/trace.h"

#include "model/error.h"

namespace ew {

void Trace::begin() {
  n_ = 0;
  index_.clear();
  text = TextInfo{};
  setup_ms = 0.0;
}

Step& Trace::add(const std::string& id, std::vector<int> shape, const std::string& title,
                 const std::string& formula, const std::string& kind,
                 std::vector<std::string> inputs, const std::string& note) {
  if (index_.count(id)) throw Error("internal: trace step '" + id + "' recorded twice");
  std::size_t count = 1;
  for (int s : shape) count *= static_cast<std::size_t>(s);
  if (n_ == steps_.size()) steps_.emplace_back();
  Step& step = steps_[n_];
  step.id = id;
  step.title = title;
  step.formula = formula;
  step.kind = kind;
  step.note = note;
  step.role = id.substr(id.rfind('.') + 1);  // npos + 1 == 0: the whole id
  step.shape = std::move(shape);
  step.inputs = std::move(inputs);
  step.head = -1;
  step.axes.clear();
  step.place = Place{};
  step.of.clear();
  step.data.resize(count);  // keeps its capacity: no allocation when shapes repeat
  index_.emplace(id, n_);
  ++n_;
  return step;
}

Step& Trace::add(const std::string& id, const Dims& dims, const Place& place, const std::string& title,
                 const std::string& formula, const std::string& kind, std::vector<std::string> inputs,
                 const std::string& note) {
  std::vector<int> shape;
  shape.reserve(dims.size());
  for (const Dim& d : dims) shape.push_back(d.size);
  Step& step = add(id, std::move(shape), title, formula, kind, std::move(inputs), note);
  for (const Dim& d : dims) step.axes.push_back(d.axis);
  step.place = place;
  step.head = place.head;
  return step;
}

const Step* Trace::find(const std::string& id) const {
  auto it = index_.find(id);
  return it == index_.end() ? nullptr : &steps_[it->second];
}

const Step& Trace::at(const std::string& id) const {
  const Step* s = find(id);
  if (!s) throw Error("the trace has no step '" + id + "'");
  return *s;
}

}  // namespace ew
