// trace_json.cpp — JSON output of a trace (trace_json.h). Metadata goes through
// nlohmann::ordered_json; the (possibly large) data arrays are streamed by hand.
#include "io/trace_json.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <sstream>

#include <nlohmann/json.hpp>

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

ojson axes_json(const std::vector<Axis>& axes) {
  ojson a = ojson::array();
  for (const Axis& x : axes) a.push_back({{"name", x.name}, {"labels", x.labels.empty() ? ojson() : ojson(x.labels)}});
  return a;
}

ojson place_json(const Place& p) {
  return {{"section", p.section}, {"layer", p.layer}, {"block", p.block.empty() ? ojson() : ojson(p.block)},
          {"head", p.head}};
}

void write_data(std::ostream& out, const float* v, std::size_t n) {
  out << "[";
  for (std::size_t i = 0; i < n; ++i) {
    if (i) out << ",";
    out << format_float(v[i]);
  }
  out << "]";
}

// Dumps an object and leaves it open ("{...") so that "data" can be appended.
void write_open(std::ostream& out, const ojson& meta) {
  std::string s = meta.dump();
  s.pop_back();  // the closing brace
  out << s;
}

}  // namespace

void write_trace_json(std::ostream& out, const Trace& trace, const Model& model, const JsonOptions& opt) {
  const TextInfo& t = trace.text;
  ojson text{{"source_tokens", t.source_tokens},
             {"target_tokens", t.target_tokens},
             {"vocab", t.vocab},
             {"tokenizer", t.tokenizer}};
  if (t.tokenizer == "bpe") {
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
    text["bpe"] = {{"merges", merges}, {"final_vocab", final_vocab}, {"learned_on", t.bpe_learned_on},
                   {"corpus_words", t.bpe_corpus_words}, {"weights", t.weights}};
  }
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
  ojson head{{"tokens", t.source_tokens.empty() ? std::vector<std::string>{} : t.source_tokens[0]},
             {"text", text},
             {"config", ojson::parse(config_to_json(model.config).dump())},
             {"isa", kernel_isa()}};
  write_open(out, head);
  out << ",\"steps\":[";
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const Step& s = trace[i];
    ojson meta{{"id", s.id}, {"title", s.title}, {"formula", s.formula}, {"kind", s.kind}, {"note", s.note}, {"role", s.role},
               {"shape", s.shape}, {"inputs", s.inputs}, {"head", s.head}, {"axes", axes_json(s.axes)},
               {"place", place_json(s.place)}};
    if (!s.of.empty()) meta["of"] = s.of;
    if (i) out << ",";
    if (opt.step_data) {
      write_open(out, meta);
      out << ",\"data\":";
      write_data(out, s.data.data(), s.size());
      out << "}";
    } else {
      out << meta.dump();
    }
  }
  out << "]";
  if (opt.params) {
    out << ",\"params\":[";
    for (std::size_t i = 0; i < model.params.size(); ++i) {
      const Param& p = model.params[i];
      std::vector<std::size_t> shape(p.value.shape().begin(), p.value.shape().end());
      ojson meta{{"id", p.id}, {"shape", shape}, {"axes", axes_json(p.axes)}, {"place", place_json(p.place)}};
      if (i) out << ",";
      if (opt.param_data) {
        write_open(out, meta);
        out << ",\"data\":";
        write_data(out, p.value.data(), p.value.size());
        out << "}";
      } else {
        out << meta.dump();
      }
    }
    out << "]";
  }
  out << "}";
}

std::string trace_json(const Trace& trace, const Model& model, const JsonOptions& opt) {
  std::ostringstream s;
  write_trace_json(s, trace, model, opt);
  return s.str();
}

}  // namespace ew
