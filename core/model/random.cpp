// random.cpp — SplitMix64-based counter RNG (see random.h for why it is portable).
#include "model/random.h"

#include <cmath>

namespace ew {

std::uint64_t seeded_stream(std::uint64_t seed, std::string_view name) {
  std::uint64_t h = 0xCBF29CE484222325ull;
  for (unsigned char c : name) {
    h ^= c;
    h *= 0x100000001B3ull;
  }
  return splitmix64(h ^ splitmix64(seed));
}

float glorot_limit(int fan_in, int fan_out) {
  // sqrt is correctly rounded (IEEE 754), so this is the same everywhere.
  return static_cast<float>(std::sqrt(6.0 / (static_cast<double>(fan_in) + fan_out)));
}

}  // namespace ew
