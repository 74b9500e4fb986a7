// answers.cpp — a run's prediction, fills and rounds as JSON (answers.h).
#include "session/answers.h"

#include <algorithm>
#include <string>

#include "train/masked_words.h"

namespace ew {

nlohmann::json prediction_json(const Model& model, const Trace& trace) {
  const Step& p = trace.at("cls.probs");
  const int n = model.config.num_labels;
  std::vector<std::string> names = model.label_names;
  for (int i = static_cast<int>(names.size()); i < n; ++i) names.push_back("label " + std::to_string(i));
  const int best = static_cast<int>(std::max_element(p.data.begin(), p.data.begin() + n) - p.data.begin());
  return {{"label", names[best]}, {"labels", names}, {"probs", std::vector<float>(p.data.begin(), p.data.begin() + n)}};
}

nlohmann::json fills_json(const Trace& trace) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& fills : mask_fills(trace, 5)) {
    nlohmann::json one = nlohmann::json::array();
    for (const auto& [tok, p] : fills) one.push_back({{"token", tok}, {"p", p}});
    out.push_back(one);
  }
  return out;
}

nlohmann::json rounds_json(const std::vector<GenRound>& rounds) {
  nlohmann::json out = nlohmann::json::array();
  for (const GenRound& r : rounds) out.push_back({{"decoder_input", r.decoder_input}, {"token", r.token}, {"prob", r.prob}});
  return out;
}

}  // namespace ew
