// random.cpp — SplitMix64-based counter RNG (see random.h for why it is portable).
#include "random.h"

#include <cmath>

namespace ew {

namespace {
std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}
}  // namespace

std::uint64_t seeded_stream(std::uint64_t seed, std::string_view name) {
  std::uint64_t h = 0xCBF29CE484222325ull;
  for (unsigned char c : name) {
    h ^= c;
    h *= 0x100000001B3ull;
  }
  return splitmix64(h ^ splitmix64(seed));
}

float seeded_uniform(std::uint64_t stream, std::uint64_t index) {
  const std::uint64_t bits = splitmix64(stream + splitmix64(index)) >> 40;  // 24 bits
  return static_cast<float>(static_cast<std::int64_t>(bits) - (1 << 23)) * (1.0f / (1 << 23));
}

float glorot_limit(int fan_in, int fan_out) {
  // sqrt is correctly rounded (IEEE 754), so this is the same everywhere.
  return static_cast<float>(std::sqrt(6.0 / (static_cast<double>(fan_in) + fan_out)));
}

}  // namespace ew
