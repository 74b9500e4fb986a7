// trace_json.cpp — the trace as one JSON document (trace_json.h).
#include "io/trace_json.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "io/model_file.h"
#include "kernels/kernels.h"

namespace ew {

using ojson = nlohmann::ordered_json;

std::string format_float(float v) {
  if (std::isinf(v) && v < 0) return "null";
  if (!std::isfinite(v)) return "null";  // never produced by the forward pass
  char buf[32];
#if defined(__cpp_lib_to_chars) || (defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11)
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, res.ptr);
#else
  std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
  return buf;
#endif
}

namespace {

// A float as a JSON number: the double nearest its shortest decimal, which the document then
// writes as that decimal (a float32 reader gets the float back, a float64 reader the decimal).
ojson number(float v) {
  if (!std::isfinite(v)) return nullptr;  // -inf: a masked entry
  const std::string s = format_float(v);
  double d = 0;
#if defined(__cpp_lib_to_chars) || (defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11)
  std::from_chars(s.data(), s.data() + s.size(), d);
#else
  d = std::strtod(s.c_str(), nullptr);
#endif
  return d;
}

ojson values(const float* v, std::size_t n) {
  ojson out = ojson::array();
  out.get_ref<ojson::array_t&>().reserve(n);
  for (std::size_t i = 0; i < n; ++i) out.push_back(number(v[i]));
  return out;
}

ojson axes_json(const std::vector<Axis>& axes) {
  ojson a = ojson::array();
  for (const Axis& x : axes) a.push_back({{"name", x.name}, {"labels", x.labels.empty() ? ojson() : ojson(x.labels)}});
  return a;
}

ojson place_json(const Place& p) {
  return {{"section", p.section}, {"layer", p.layer}, {"block", p.block.empty() ? ojson() : ojson(p.block)},
          {"head", p.head}};
}

// The BPE merges with the vocabulary before and after each, the final vocabulary, and what
// they were learned on.
ojson bpe_json(const TextInfo& t) {
  ojson merges = ojson::array();
  for (const BpeMerge& m : t.bpe.merges) {
    ojson before = ojson::array(), after = ojson::array();
    for (const auto& [w, f] : m.vocab_before) before.push_back({w, f});
    for (const auto& [w, f] : m.vocab_after) after.push_back({w, f});
    merges.push_back({{"pair", {m.pair.first, m.pair.second}},
                      {"count", m.count},
                      {"vocab_before", before},
                      {"vocab_after", after}});
  }
  ojson final_vocab = ojson::array();
  for (const auto& [w, f] : t.bpe.final_vocab) final_vocab.push_back({w, f});
  return {{"merges", merges}, {"final_vocab", final_vocab}, {"learned_on", t.bpe_learned_on},
          {"corpus_words", t.bpe_corpus_words}, {"weights", t.weights}};
}

// The run's text facts: tokens, vocabulary, tokenizer, BPE, and what the regex skipped.
ojson text_json(const TextInfo& t) {
  ojson text{{"source_tokens", t.source_tokens},
             {"target_tokens", t.target_tokens},
             {"vocab", t.vocab},
             {"tokenizer", t.tokenizer}};
  if (t.tokenizer == "bpe") text["bpe"] = bpe_json(t);
  // What the regex tokenizer dropped, per batch item: [{start, length, text}] in code points.
  if (!t.skipped.empty()) {
    ojson skipped = ojson::array();
    for (const auto& item : t.skipped) {
      ojson spans = ojson::array();
      for (const SkippedSpan& sp : item) spans.push_back({{"start", sp.start}, {"length", sp.length}, {"text", sp.text}});
      skipped.push_back(spans);
    }
    text["skipped"] = skipped;
    text["sentences"] = t.sentences;
    text["skip_reason"] = kRegexSkipReason;
  }
  if (!t.attr_parts.empty()) text["attr_parts"] = t.attr_parts;  // attr.parts' axis labels
  return text;
}

ojson step_json(const Step& s, bool data) {
  ojson out{{"id", s.id}, {"title", s.title}, {"formula", s.formula}, {"kind", s.kind}, {"note", s.note}, {"role", s.role},
            {"shape", s.shape}, {"inputs", s.inputs}, {"head", s.head}, {"axes", axes_json(s.axes)},
            {"place", place_json(s.place)}};
  if (!s.of.empty()) out["of"] = s.of;
  if (s.intervened) out["intervened"] = true;
  if (data) out["data"] = values(s.data.data(), s.size());
  return out;
}

ojson param_json(const Param& p, bool data, bool intervened) {
  const std::vector<std::size_t> shape = p.shape();
  ojson out{{"id", p.id}, {"shape", shape}, {"axes", axes_json(p.axes)}, {"place", place_json(p.place)}};
  if (intervened) out["intervened"] = true;
  if (data) out["data"] = values(p.widened().data(), p.size());
  return out;
}

}  // namespace

ojson trace_json(const Trace& trace, const Model& model, const JsonOptions& opt) {
  const TextInfo& t = trace.text;
  ojson doc{{"tokens", t.source_tokens.empty() ? std::vector<std::string>{} : t.source_tokens[0]},
            {"text", text_json(t)},
            {"config", ojson::parse(config_to_json(model.config).dump())},
            {"isa", kernel_isa()}};
  ojson& steps = doc["steps"] = ojson::array();
  for (std::size_t i = 0; i < trace.size(); ++i) steps.push_back(step_json(trace[i], opt.step_data));
  if (opt.params) {
    ojson& params = doc["params"] = ojson::array();
    const auto& set = trace.intervened_params;
    for (const Param& p : model.params)
      params.push_back(param_json(p, opt.param_data, std::find(set.begin(), set.end(), p.id) != set.end()));
  }
  return doc;
}

}  // namespace ew
