// vocab.h — a vocabulary: tokens in id order and the one lookup from a token to its id, used
// by the forward pass (token ids), the backward pass (the labels of the loss) and the batched
// training path (whole minibatches of ids). The special tokens are found once: an unknown
// token reads as <unk> (else [UNK]); padding is <pad> (else [PAD], else id 0); a decoder
// starts at <s> and stops at </s>.
//
// Lookups take a string_view and allocate nothing (a sorted index of ids, searched by
// bisection), so the batched path can tokenise a minibatch without touching the heap.
// Deliberately not here: tokenizers (tokenizer.h), which turn text into the tokens looked up.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace ew {

class Vocab {
 public:
  Vocab() = default;
  // A model's vocabulary: id i is tokens[i]. A repeated token keeps its first id (model
  // files reject repeats; this keeps the ids equal to the embedding table's rows regardless).
  explicit Vocab(const std::vector<std::string>& tokens);

  // Appends `token` with the next id unless it is already there (a vocabulary built from text).
  void add(const std::string& token);

  // The id of `token`, or −1.
  int find(std::string_view token) const;
  // The id of `token`, else <unk>'s, else ew::Error (code "unknown_token", naming it).
  int id(std::string_view token) const;

  const std::vector<std::string>& tokens() const { return tokens_; }
  int size() const { return static_cast<int>(tokens_.size()); }
  int unk() const;  // <unk>, else [UNK], else −1
  int pad() const;  // <pad>, else [PAD], else 0
  int bos() const { return find("<s>"); }   // −1 when absent
  int eos() const { return find("</s>"); }  // −1 when absent

 private:
  std::vector<std::string> tokens_;
  std::vector<int> sorted_;  // ids ordered by token (the first id of each distinct token)
  std::size_t lower_bound(std::string_view token) const;
};

}  // namespace ew
