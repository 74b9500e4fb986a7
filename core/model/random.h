// random.h — seeded parameters that are the same on every platform, native and wasm.
//
// Each value is a pure function of (seed, parameter name, element index): SplitMix64 over
// integers, then an exact integer-to-float conversion. No transcendental functions are
// involved, so glibc, musl (Emscripten) and any compiler give bit-identical numbers, and a
// token's embedding row does not depend on which other tokens are in the sentence.
#pragma once
#include <cstdint>
#include <string_view>

namespace ew {

// 64-bit FNV-1a of a string, mixed with the seed.
std::uint64_t seeded_stream(std::uint64_t seed, std::string_view name);

inline std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Uniform in [-1, 1): the top 24 bits of element `index` of the SplitMix64 sequence that
// starts at `stream` (the state advances by the golden gamma; splitmix64 adds one more and
// mixes), exact in float. Inline: millions of them are drawn for a BERT-size model.
inline float seeded_uniform(std::uint64_t stream, std::uint64_t index) {
  const std::uint64_t bits = splitmix64(stream + index * 0x9E3779B97F4A7C15ull) >> 40;  // 24 bits
  return static_cast<float>(static_cast<std::int64_t>(bits) - (1 << 23)) * (1.0f / (1 << 23));
}

// Glorot/Xavier uniform limit for an in×out weight: sqrt(6 / (in + out)).
float glorot_limit(int fan_in, int fan_out);

}  // namespace ew
