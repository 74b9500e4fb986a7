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

// Uniform in [-1, 1): 24 random bits, exact in float.
float seeded_uniform(std::uint64_t stream, std::uint64_t index);

// Glorot/Xavier uniform limit for an in×out weight: sqrt(6 / (in + out)).
float glorot_limit(int fan_in, int fan_out);

}  // namespace ew
