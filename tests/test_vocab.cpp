// test_vocab.cpp — the one vocabulary lookup (core/text/vocab.h) that the forward pass, the
// backward pass's labels and the batched training path share: ids are positions, a repeated
// token keeps its first id, unknown tokens read as <unk> (before [UNK]), padding is <pad>
// (before [PAD], else id 0), and without an unknown-token entry the error names the token.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "model/error.h"
#include "text/vocab.h"

TEST_CASE("vocabulary: ids, repeats, the special tokens and the unknown-token error") {
  const ew::Vocab v({"<pad>", "<s>", "</s>", "[UNK]", "<unk>", "cat", "sat", "cat"});
  CHECK(v.size() == 8);
  CHECK(v.find("cat") == 5);  // the first of two
  CHECK(v.find("sat") == 6);
  CHECK(v.find("dog") == -1);
  CHECK(v.unk() == 4);  // <unk> before [UNK]
  CHECK(v.id("dog") == 4);
  CHECK(v.pad() == 0);
  CHECK(v.bos() == 1);
  CHECK(v.eos() == 2);
  const ew::Vocab bert({"[CLS]", "[PAD]", "[UNK]", "a"});
  CHECK(bert.pad() == 1);
  CHECK(bert.unk() == 2);
  CHECK(bert.bos() == -1);
  const ew::Vocab bare({"a", "b"});
  CHECK(bare.pad() == 0);
  CHECK_THROWS_WITH_AS(bare.id("c"), "token \"c\" is not in the model's vocabulary (and the vocabulary has no <unk> or [UNK])",
                       ew::Error);
  // Built from text: a token is added once, in order of first appearance.
  ew::Vocab grown;
  for (const char* t : {"<pad>", "b", "a", "b", "c", "a"}) grown.add(t);
  CHECK(grown.tokens() == std::vector<std::string>{"<pad>", "b", "a", "c"});
  CHECK(grown.find("c") == 3);
  CHECK(grown.find("a") == 2);
}
