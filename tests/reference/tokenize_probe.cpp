// tokenize_probe.cpp — a test-only window on the checkpoint tokenizers (text/hf_tokenizer.h),
// for the references that compare them with outside implementations (check_hf_tokenizers.mjs):
//   tokenize_probe DIR [MODEL_TYPE]  <  one JSON array per line: ["text"] or ["text", "text2"]
// loads DIR's tokenizer files (io/tokenizer_dir.h) and writes one JSON object per input line:
//   {"ids": […], "tokens": […], "type_ids": […], "offsets": [[b, e], …], "special": […],
//    "decode": "the text of the ids, special tokens kept"}
// or {"error": "message", "code": "…"} when encoding fails. A loading error goes to stderr
// with exit status 1 (the bad-files checks read it there).
#include <iostream>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "io/tokenizer_dir.h"
#include "model/error.h"

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::cerr << "usage: tokenize_probe DIR [MODEL_TYPE] < lines of [\"text\"] or [\"text\", \"text2\"]\n";
    return 2;
  }
  std::optional<ew::HfTokenizer> tok;
  try {
    tok.emplace(ew::load_tokenizer_dir(argv[1], argc > 2 ? argv[2] : ""));
  } catch (const ew::Error& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  std::string line;
  while (std::getline(std::cin, line)) {
    nlohmann::json out;
    try {
      const nlohmann::json in = nlohmann::json::parse(line);
      const std::string a = in.at(0).get<std::string>();
      const ew::HfEncoding e = in.size() > 1 ? tok->encode(a, in.at(1).get<std::string>()) : tok->encode(a);
      out["ids"] = e.ids;
      out["tokens"] = e.pieces;
      out["type_ids"] = e.type_ids;
      out["offsets"] = e.offsets;
      out["special"] = e.special;
      out["decode"] = tok->decode(e.ids);
    } catch (const ew::Error& e) {
      out = {{"error", e.what()}, {"code", e.code}};
    }
    std::cout << out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  }
  return 0;
}
