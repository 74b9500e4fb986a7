// error.h — the one exception type of the core. Every message names what is wrong
// specifically (the key, the expected and the actual value or shape), because it is
// shown verbatim to the person who typed the input by the CLI, and on the page when the
// error has no code. An error a reader can cause (a setting out of range, a sentence with
// no tokens, a weights file that is not one) also carries a machine-readable `code` and
// its `params`, so the page can show the message from its catalog in the reader's
// language (web/js/i18n/<lang>/errors.js, keys 'errors.<code>').
#pragma once
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ew {

using ErrorParams = std::vector<std::pair<std::string, std::string>>;  // name → value, in order

struct Error : std::runtime_error {
  explicit Error(const std::string& what) : std::runtime_error(what) {}
  Error(const std::string& what, std::string code_, ErrorParams params_)
      : std::runtime_error(what), code(std::move(code_)), params(std::move(params_)) {}
  std::string code;     // empty: no catalog message; show what()
  ErrorParams params;
};

}  // namespace ew
