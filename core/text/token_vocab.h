// token_vocab.h — a checkpoint tokenizer's vocabulary: id → token (the spelling in the file:
// "##ing", "Ġthe", "[CLS]") and token → id, both by table or hash lookup.
// Not here: how a file spells it (hf_tokenizer_load.cpp reads vocab.txt, vocab.json and
// tokenizer.json into it).
#pragma once
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ew {

struct TokenVocab {
  std::vector<std::string> tokens;              // by id; "" where a file leaves an id unused
  std::unordered_map<std::string, int> ids;     // token → id

  int size() const { return static_cast<int>(tokens.size()); }
  int id(const std::string& token) const {      // -1 if absent
    const auto it = ids.find(token);
    return it == ids.end() ? -1 : it->second;
  }
  bool has(const std::string& token) const { return ids.count(token) != 0; }
  // Sets id → token (growing the table) and token → id.
  void set(int id, const std::string& token) {
    if (id >= size()) tokens.resize(static_cast<std::size_t>(id) + 1);
    tokens[static_cast<std::size_t>(id)] = token;
    ids[token] = id;
  }
};

}  // namespace ew
