// vocab.cpp — the vocabulary lookup (vocab.h).
#include "text/vocab.h"

#include <algorithm>

#include "model/error.h"

namespace ew {

Vocab::Vocab(const std::vector<std::string>& tokens) : tokens_(tokens) {
  sorted_.reserve(tokens_.size());
  for (std::size_t i = 0; i < tokens_.size(); ++i) sorted_.push_back(static_cast<int>(i));
  // Among equal tokens the first id comes first, and only it is kept.
  std::sort(sorted_.begin(), sorted_.end(), [&](int a, int b) { return tokens_[a] < tokens_[b] || (tokens_[a] == tokens_[b] && a < b); });
  sorted_.erase(std::unique(sorted_.begin(), sorted_.end(), [&](int a, int b) { return tokens_[a] == tokens_[b]; }),
                sorted_.end());
}

std::size_t Vocab::lower_bound(std::string_view token) const {
  const auto it = std::lower_bound(sorted_.begin(), sorted_.end(), token,
                                   [&](int id, std::string_view t) { return std::string_view(tokens_[id]) < t; });
  return static_cast<std::size_t>(it - sorted_.begin());
}

void Vocab::add(const std::string& token) {
  const std::size_t at = lower_bound(token);
  if (at < sorted_.size() && tokens_[sorted_[at]] == token) return;
  sorted_.insert(sorted_.begin() + static_cast<std::ptrdiff_t>(at), static_cast<int>(tokens_.size()));
  tokens_.push_back(token);
}

int Vocab::find(std::string_view token) const {
  const std::size_t at = lower_bound(token);
  return at < sorted_.size() && tokens_[sorted_[at]] == token ? sorted_[at] : -1;
}

int Vocab::id(std::string_view token) const {
  if (const int i = find(token); i >= 0) return i;
  if (const int u = unk(); u >= 0) return u;
  const std::string t(token);
  throw Error("token \"" + t + "\" is not in the model's vocabulary (and the vocabulary has no <unk> or [UNK])",
              "unknown_token", {{"token", t}});
}

int Vocab::unk() const {
  const int u = find("<unk>");
  return u >= 0 ? u : find("[UNK]");
}

int Vocab::pad() const {
  const int p = find("<pad>");
  if (p >= 0) return p;
  const int q = find("[PAD]");
  return q >= 0 ? q : 0;
}

}  // namespace ew
