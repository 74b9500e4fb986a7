// test_bpe_scale.cpp — bpe_learn (corpus-scale BPE) learns exactly bpe_train's merges (seed
// 001's algorithm and tie-breaking), and the fast bpe_encode equals applying every merge in
// order, on the seed's corpus and on random corpora full of ties.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "text/tokenizer.h"

namespace {

// Random words over a small alphabet (many equal pair counts, repeated and overlapping pairs).
std::vector<std::string> random_words(std::uint64_t seed, int n, int letters) {
  std::vector<std::string> words;
  std::uint64_t s = seed * 6364136223846793005ull + 1442695040888963407ull;
  auto next = [&] { s = s * 6364136223846793005ull + 1442695040888963407ull; return static_cast<int>(s >> 33); };
  const char* alpha[] = {"a", "b", "c", "d", "é", "ß"};
  for (int i = 0; i < n; ++i) {
    std::string w;
    const int len = 1 + next() % 7;
    for (int k = 0; k < len; ++k) w += alpha[next() % letters];
    words.push_back(w);
  }
  return words;
}

// Seed 001's encode: every merge, in order, over each word's characters.
std::vector<std::string> encode_in_order(const ew::BpeModel& m, const std::vector<std::string>& words) {
  std::vector<std::string> out;
  for (const std::string& w : words) {
    ew::BpeModel one;
    std::vector<std::string> syms = ew::bpe_encode(one, {w});  // characters + </w>
    for (const ew::BpeMerge& mg : m.merges) {
      std::vector<std::string> next;
      for (std::size_t i = 0; i < syms.size();) {
        if (i + 1 < syms.size() && syms[i] == mg.pair.first && syms[i + 1] == mg.pair.second)
          next.push_back(syms[i] + syms[i + 1]), i += 2;
        else
          next.push_back(syms[i]), i += 1;
      }
      syms = next;
    }
    out.insert(out.end(), syms.begin(), syms.end());
  }
  return out;
}

void check_same(const std::vector<std::string>& words, int merges) {
  const ew::BpeModel slow = ew::bpe_train(words, merges);
  const ew::BpeModel fast = ew::bpe_learn(words, merges);
  REQUIRE(fast.merges.size() == slow.merges.size());
  for (std::size_t i = 0; i < slow.merges.size(); ++i) {
    CAPTURE(i);
    CHECK(fast.merges[i].pair == slow.merges[i].pair);
    CHECK(fast.merges[i].count == slow.merges[i].count);
  }
  CHECK(fast.final_vocab == slow.final_vocab);
  const std::vector<std::string> probe = random_words(99, 200, 6);
  CHECK(ew::bpe_encode(fast, probe) == encode_in_order(slow, probe));
  CHECK(ew::bpe_encode(fast, words) == encode_in_order(slow, words));
}

}  // namespace

TEST_CASE("bpe_learn: seed 001's corpus, the same merges as bpe_train") {
  check_same({"low", "lowest", "newer", "wider"}, 10);
  check_same({"low", "low", "lower", "newest", "newest", "widest"}, 20);
}

TEST_CASE("bpe_learn: random corpora with ties, early stop, non-ASCII") {
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    CAPTURE(seed);
    check_same(random_words(seed, 40 + 30 * static_cast<int>(seed), 2 + static_cast<int>(seed % 5)), 60);
  }
  check_same({"aaaa", "aaaaa", "aa"}, 50);  // overlapping pairs, runs out of pairs
  check_same({}, 5);
}
