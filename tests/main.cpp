// main.cpp — doctest's main for the whole suite (the test cases live in test_*.cpp), and one
// option of our own: --expect-isa=NAME, the kernel ISA the linked core must report. Under
// Emscripten the test objects are compiled once and linked twice (plain SIMD128 and relaxed
// SIMD: tests/CMakeLists.txt), so which kernels a suite runs is said by its ctest command, and
// test_kernels.cpp checks that they are the ones linked.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/pool.h"

std::string ew_expected_isa;  // "" = any (test_kernels.cpp)

int main(int argc, char** argv) {
  constexpr const char* kOption = "--expect-isa=";
  constexpr const char* kThreads = "--threads=";
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], kOption, std::strlen(kOption)) == 0)
      ew_expected_isa = argv[i] + std::strlen(kOption);
    else if (std::strncmp(argv[i], kThreads, std::strlen(kThreads)) == 0)
      ew::set_threads(std::atoi(argv[i] + std::strlen(kThreads)));
    else
      rest.push_back(argv[i]);
  }
  doctest::Context context(static_cast<int>(rest.size()), rest.data());
  return context.run();
}
