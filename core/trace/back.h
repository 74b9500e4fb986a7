// back.h — what a backward rule works with (backward.cpp runs them; each operation's unit
// in ops.h brings its own): a tensor's values by id (View), the gradients being accumulated
// (Grads), and one rule's arguments (Back). Rules add (+=) into the gradients of their inputs,
// as llm.c's *_backward functions do.
#pragma once
#include <algorithm>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/model.h"
#include "trace/trace.h"

namespace ew {

// A tensor of the run (a step or a parameter): its values and shape.
struct View {
  const float* data = nullptr;
  std::size_t n = 0;
  std::vector<int> shape;
  int last() const { return shape.empty() ? 1 : shape.back(); }
  int rows() const { return static_cast<int>(n / static_cast<std::size_t>(last())); }
};

// Gradients by id, zero-filled on first use, and where each gradient's terms came from.
class Grads {
 public:
  Grads(const Trace& t, const Model& m) : t_(t), m_(m) {}

  View view(const std::string& id) const {
    if (const Step* s = t_.find(id)) return {s->data.data(), s->size(), s->shape};
    const Param& p = m_.at(id);
    const std::vector<std::size_t> shape = p.shape();
    const float* data = nullptr;
    if (p.has_f32()) data = p.f32();
    else if (auto it = widened_.find(id); it != widened_.end()) data = it->second.data();
    else data = widened_.emplace(id, p.widened()).first->second.data();
    return {data, p.size(), std::vector<int>(shape.begin(), shape.end())};
  }
  bool live(const std::string& id) const { return live_.count(id) > 0; }
  void set_live(const std::string& id) { live_.insert(id); }
  // dL/d(id), created on first use; `via` names the terms (a grad step and the operands).
  float* of(const std::string& id, std::vector<std::string> via) {
    auto it = g_.find(id);
    if (it == g_.end()) it = g_.emplace(id, std::vector<float>(view(id).n, 0.0f)).first;
    auto& f = from_[id];
    for (auto& v : via)
      if (std::find(f.begin(), f.end(), v) == f.end()) f.push_back(std::move(v));
    return it->second.data();
  }
  const std::vector<float>* find(const std::string& id) const {
    auto it = g_.find(id);
    return it == g_.end() ? nullptr : &it->second;
  }
  const std::vector<std::string>& from(const std::string& id) { return from_[id]; }

 private:
  // 16-bit parameters widened on first read, kept for the backward pass (the rules read whole
  // matrices: the same float32 numbers the forward pass multiplied by).
  mutable std::unordered_map<std::string, Widened> widened_;
  const Trace& t_;
  const Model& m_;
  std::set<std::string> live_;
  std::unordered_map<std::string, std::vector<float>> g_;
  std::unordered_map<std::string, std::vector<std::string>> from_;
};

// Arguments of one backward rule: the forward step, its gradient, where gradients go.
struct Back {
  const Step& s;
  const float* dy;
  Grads& G;
  const Model& m;
  bool folded = false;  // the row max or sum of a softmax the loss reads: its term in dL/dz is
                        // already in the softmax's (back_softmax_loss), so input 0 gets none
  std::string in(std::size_t k) const { return s.inputs.at(k); }
  // dL/d(input k) if that input depends on a parameter, else nullptr (nothing to do).
  float* to(std::size_t k, std::vector<std::string> operands = {}) const {
    if (!G.live(in(k)) || (folded && k == 0)) return nullptr;
    operands.insert(operands.begin(), "grad." + s.id);
    return G.of(in(k), std::move(operands));
  }
};

}  // namespace ew
