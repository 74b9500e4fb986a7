// error.h — the one exception type of the core. Every message names what is wrong
// specifically (the key, the expected and the actual value or shape), because it is
// shown verbatim to the person who typed the input: on the page and by the CLI.
#pragma once
#include <stdexcept>
#include <string>

namespace ew {

struct Error : std::runtime_error {
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace ew
