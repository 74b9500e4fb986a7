// print.cpp — the walkthrough as text, printed the way the seed notebooks print: each step's
// title, formula, shape and values (numpy-style, 8 significant digits, "..." past `edge`
// values at each end of a row or column), after the tokens and BPE merges; then the run's
// answers (generated tokens, a classifier's prediction, the fills of each [MASK]).
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>

#include "commands.h"
#include "kernels/kernels.h"
#include "text/tokenizer.h"

namespace {

// Numpy-style number: 8 significant digits.
std::string num(float v) {
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.8g", static_cast<double>(v));
  return buf;
}

void print_row(const float* row, int n, int edge) {
  std::cout << "[";
  for (int j = 0; j < n; ++j) {
    if (n > 2 * edge && j == edge) {
      std::cout << " ...";
      j = n - edge - 1;
      continue;
    }
    std::cout << (j ? " " : "") << num(row[j]);
  }
  std::cout << "]";
}

void print_matrix(const float* data, int rows, int cols, int edge, const std::string& indent) {
  std::cout << indent << "[";
  for (int i = 0; i < rows; ++i) {
    if (rows > 2 * edge && i == edge) {
      std::cout << "\n" << indent << " ...";
      i = rows - edge - 1;
      continue;
    }
    if (i) std::cout << "\n" << indent << " ";
    print_row(data + static_cast<std::size_t>(i) * cols, cols, edge);
  }
  std::cout << "]\n";
}

void print_step(const ew::Step& s, int edge) {
  std::string shape = "(";
  for (std::size_t i = 0; i < s.shape.size(); ++i) shape += (i ? ", " : "") + std::to_string(s.shape[i]);
  shape += s.shape.size() == 1 ? ",)" : ")";
  std::cout << "\n== " << s.title << "  [" << s.id << "]" << (s.intervened ? "  (intervened)" : "") << "\n";
  std::cout << "   " << s.formula << "\n";
  if (!s.note.empty()) std::cout << "   " << s.note << "\n";
  std::cout << "   shape: " << shape;
  if (!s.inputs.empty()) {
    std::cout << "   from:";
    for (const auto& in : s.inputs) std::cout << " " << in;
  }
  std::cout << "\n";
  if (s.shape.size() == 1) {
    std::cout << "   ";
    print_row(s.data.data(), s.shape[0], edge);
    std::cout << "\n";
  } else if (s.shape.size() == 2) {
    print_matrix(s.data.data(), s.shape[0], s.shape[1], edge, "   ");
  } else {
    const int rows = s.shape[1], cols = s.shape[2];
    for (int b = 0; b < s.shape[0]; ++b) {
      std::cout << "   batch item " << b << ":\n";
      print_matrix(s.data.data() + static_cast<std::size_t>(b) * rows * cols, rows, cols, edge, "   ");
    }
  }
}

}  // namespace

void print_walkthrough(const ew::Trace& trace, const ew::Model& model, int edge) {
  const ew::TextInfo& t = trace.text;
  const ew::Config& c = model.config;
  std::cout << "Encoder walkthrough: d_model=" << c.d_model << ", heads=" << c.num_heads << ", d_ff=" << c.d_ff
            << ", layers=" << c.num_layers << (c.decoder_layers ? ", decoder layers=" + std::to_string(c.decoder_layers) : "")
            << " (kernels: " << ew::kernel_isa() << ")\n";
  if (t.tokenizer == "bpe") {
    if (!t.bpe.merges.empty() && t.bpe.merges[0].vocab_before.empty())
      std::cout << "BPE: the model's " << t.bpe.merges.size() << " learned merges, applied in order\n";
    for (const ew::BpeMerge& m : t.bpe.merges) {
      if (m.vocab_before.empty()) continue;
      std::cout << "-----\nmost frequent pair: ('" << m.pair.first << "', '" << m.pair.second << "') x" << m.count << "\n";
      std::cout << "vocab before merge:";
      for (const auto& [w, f] : m.vocab_before) std::cout << " ('" << w << "', " << f << ")";
      std::cout << "\nvocab after merge:";
      for (const auto& [w, f] : m.vocab_after) std::cout << " ('" << w << "', " << f << ")";
      std::cout << "\n";
    }
  }
  for (std::size_t b = 0; b < t.source_tokens.size(); ++b) {
    std::cout << (b ? "Second sentence tokens: [" : "Our input tokens are: [");
    for (std::size_t i = 0; i < t.source_tokens[b].size(); ++i)
      std::cout << (i ? ", " : "") << "'" << t.source_tokens[b][i] << "'";
    std::cout << "] with length: " << t.source_tokens[b].size() << "\n";
    if (b < t.skipped.size() && !t.skipped[b].empty()) {  // what the regex dropped, and why
      std::cout << "Skipped:";
      for (const ew::SkippedSpan& sp : t.skipped[b]) std::cout << " '" << sp.text << "' (at " << sp.start << ")";
      std::cout << ": " << ew::kRegexSkipReason << "\n";
    }
  }
  if (!t.target_tokens.empty()) {
    std::cout << "Decoder input tokens: [";
    for (std::size_t i = 0; i < t.target_tokens.size(); ++i) std::cout << (i ? ", " : "") << "'" << t.target_tokens[i] << "'";
    std::cout << "]\n";
  }
  for (std::size_t i = 0; i < trace.size(); ++i) print_step(trace[i], edge);
}


void print_answers(const nlohmann::json& report) {
  if (report.contains("checkpoint")) {
    const auto& c = report["checkpoint"];
    std::cout << "\nCheckpoint: " << c["architecture"].get<std::string>() << " (" << c["model_type"].get<std::string>() << ")\n";
    for (const auto& n : c["notes"]) std::cout << "  " << n.get<std::string>() << "\n";
  }
  if (report.contains("unknown")) {  // as the page's note says it (web/js/page/provenance.js)
    const auto& u = report["unknown"];
    const std::size_t n = u["tokens"].size();
    std::cout << "\n";
    for (std::size_t i = 0; i < n; ++i) std::cout << (i ? ", " : "") << "“" << u["tokens"][i].get<std::string>() << "”";
    std::cout << (n > 1 ? " are" : " is") << " not in this model’s vocabulary of " << u["vocab_size"].get<std::size_t>()
              << " tokens: it reads " << (n > 1 ? "them" : "it") << " as " << u["as"].get<std::string>()
              << ", one vector for every unknown word.\n";
  }
  if (report.contains("generated_text")) {  // a checkpoint's: decoded by its tokenizer, quoted
    std::cout << "\nGenerated: " << nlohmann::json(report["generated_text"].get<std::string>()).dump() << "\n";
  } else if (report.contains("generated")) {
    std::cout << "\nGenerated:";
    for (const auto& tok : report["generated"]) std::cout << " " << tok.get<std::string>();
    std::cout << "\n";
  }
  if (report.contains("prediction")) {
    const auto& p = report["prediction"];
    std::cout << "\nPrediction: " << p["label"].get<std::string>() << "  (";
    for (std::size_t i = 0; i < p["probs"].size(); ++i)
      std::cout << (i ? ", " : "") << p["labels"][i].get<std::string>() << " " << p["probs"][i].get<double>();
    std::cout << ")\n";
  }
  if (report.contains("fills")) {
    const auto& fills = report["fills"];
    std::cout << "\nFills of each [MASK] (top 5):\n";
    for (std::size_t i = 0; i < fills.size(); ++i) {
      std::cout << "  [MASK] " << i + 1 << ":";
      for (const auto& f : fills[i]) std::cout << "  " << f["token"].get<std::string>() << " " << f["p"].get<double>();
      std::cout << "\n";
    }
  }
  if (report.contains("next_tokens")) {
    std::cout << "\nNext token at each decoder position:";
    for (const auto& tok : report["next_tokens"]) std::cout << " " << tok.get<std::string>();
    std::cout << "\n";
  }
  if (report.contains("attribution")) {
    const auto& a = report["attribution"];
    std::cout << "\nAttribution of \"" << a["target"].get<std::string>() << "\" at position " << a["position"].get<int>()
              << ": logit " << a["logit"].get<double>() << ", the parts (attr.parts) sum to " << a["sum"].get<double>() << "\n";
  }
  if (report.contains("baseline_prediction")) {
    std::cout << "\nWithout the interventions:";
    print_answers(report["baseline_prediction"]);
  }
}
