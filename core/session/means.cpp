// means.cpp — held-out column means for mean ablation (means.h).
#include "session/means.h"

#include "model/error.h"
#include "trace/forward.h"

namespace ew {

const Task* shipped_task(const Model& model) {
  for (const Task& t : tasks())
    if ("builtin:" + t.name == model.weights) return &t;
  return nullptr;
}

ColumnMeans held_out_means(const Model& model, const Task& task, int n) {
  if (task.masked_lm) throw Error("mean ablation over " + task.name + " needs its corpus; use zero ablation");
  if (task.decoder() != (model.config.decoder_layers > 0) || task.classifier != (model.config.num_labels > 0))
    throw Error("mean ablation: the task " + task.name + " does not fit this model (" +
                (task.decoder() ? "an encoder–decoder task" : "a classifier task") + ")");
  Model m = model;
  m.text2.clear();
  Trace t;
  std::map<std::string, std::vector<double>> sums;
  std::map<std::string, long> rows;
  for (int i = 0; i < n; ++i) {
    const Example ex = task.sample(1, static_cast<std::uint64_t>(i), Split::HeldOut);
    m.text = ex.source;
    if (task.decoder()) m.target = ex.target, m.target_given = true;
    run(m, t);
    for (std::size_t k = 0; k < t.size(); ++k) {
      const Step& s = t[k];
      if (!((s.role == "context" && s.place.head >= 0) || s.role == "ffn_hidden")) continue;
      const std::size_t w = s.shape.back(), r = s.size() / w;
      std::vector<double>& sum = sums[s.id];
      sum.resize(w, 0.0);
      for (std::size_t row = 0; row < r; ++row)
        for (std::size_t c = 0; c < w; ++c) sum[c] += s.data[row * w + c];
      rows[s.id] += static_cast<long>(r);
    }
  }
  ColumnMeans out;
  for (const auto& [id, sum] : sums)
    for (double v : sum) out[id].push_back(static_cast<float>(v / static_cast<double>(rows[id])));
  return out;
}

}  // namespace ew
