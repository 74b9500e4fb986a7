// answers.cpp — a run's prediction, fills, rounds and unknown tokens as JSON (answers.h).
#include "session/answers.h"

#include <algorithm>
#include <string>
#include <unordered_set>

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

nlohmann::json unknown_json(const Trace& trace) {
  const std::vector<std::string>& vocab = trace.text.vocab;
  const std::unordered_set<std::string> known(vocab.begin(), vocab.end());
  const std::string as = known.count("<unk>") ? "<unk>" : known.count("[UNK]") ? "[UNK]" : "";
  if (as.empty()) return nullptr;
  std::vector<std::string> unknown;
  for (const auto& sentence : trace.text.source_tokens)
    for (const std::string& tok : sentence)
      if (!known.count(tok) && std::find(unknown.begin(), unknown.end(), tok) == unknown.end()) unknown.push_back(tok);
  if (unknown.empty()) return nullptr;
  return {{"tokens", unknown}, {"as", as}, {"vocab_size", vocab.size()}};
}

nlohmann::json rounds_json(const std::vector<GenRound>& rounds) {
  nlohmann::json out = nlohmann::json::array();
  for (const GenRound& r : rounds) out.push_back({{"decoder_input", r.decoder_input}, {"token", r.token}, {"prob", r.prob}});
  return out;
}

}  // namespace ew
