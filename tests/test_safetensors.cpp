// test_safetensors.cpp — safetensors (safetensors.h): round trips (F32 bit-exact, F16 to the
// nearest half), half conversion against known encodings, a model saved and loaded runs to
// the same trace, and every malformed file is refused with a message naming the problem.
#include <doctest/doctest.h>

#include <cstring>
#include <limits>
#include <string>

#include "io/safetensors.h"
#include "model/error.h"
#include "trace/forward.h"
#include "check.h"

namespace {

// A file from a header text and data bytes, as a hostile writer could make it.
std::vector<std::uint8_t> file(const std::string& header, std::size_t data_bytes, std::uint64_t claimed = 0) {
  std::vector<std::uint8_t> out(8 + header.size() + data_bytes, 0);
  const std::uint64_t n = claimed ? claimed : header.size();
  for (int i = 0; i < 8; ++i) out[i] = static_cast<std::uint8_t>(n >> (8 * i));
  std::memcpy(out.data() + 8, header.data(), header.size());
  return out;
}

std::string safetensors_error_of(const std::vector<std::uint8_t>& f) {
  try {
    ew::read_safetensors(f.data(), f.size());
  } catch (const ew::Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("half precision: known encodings, ties to even, exact back") {
  CHECK(ew::float_to_half(1.0f) == 0x3C00);
  CHECK(ew::float_to_half(-2.0f) == 0xC000);
  CHECK(ew::float_to_half(65504.0f) == 0x7BFF);
  CHECK(ew::float_to_half(65520.0f) == 0x7C00);  // rounds past the largest half: inf
  CHECK(ew::float_to_half(0.1f) == 0x2E66);
  CHECK(ew::float_to_half(5.9604645e-8f) == 0x0001);  // the smallest subnormal
  CHECK(ew::float_to_half(1e-9f) == 0x0000);
  CHECK(ew::float_to_half(1.0f + 1.0f / 2048) == 0x3C00);  // a tie: to even
  CHECK(ew::float_to_half(1.0f + 3.0f / 2048) == 0x3C02);
  for (std::uint32_t h = 0; h < 0x7C00; ++h)  // every finite half survives the trip
    REQUIRE(ew::float_to_half(ew::half_to_float(static_cast<std::uint16_t>(h))) == h);
}

TEST_CASE("a model written and read back runs to the same numbers (F32 exact, F16 close)") {
  ew::Model m;
  const ew::Trace t = ewtest::run_json(R"({"config": {"d_model": 8, "num_heads": 2, "d_ff": 12, "decoder_layers": 1,
      "norm": "pre", "num_labels": 2}, "text": "the frost was hard", "vocab": ["<pad>", "<s>", "</s>", "<unk>", "the",
      "frost", "was", "hard"], "labels": ["cold", "warm"]})", &m);
  for (ew::DiskType type : {ew::DiskType::F32, ew::DiskType::F16}) {
    const auto bytes = ew::write_safetensors(ew::model_to_safetensors(m), type);
    CHECK((8 + (bytes[0] | bytes[1] << 8)) % 8 == 0);  // data 8-byte aligned
    ew::Model back = ew::model_from_safetensors(ew::read_safetensors(bytes.data(), bytes.size()));
    back.text = m.text;
    CHECK(back.label_names == m.label_names);
    ew::Trace t2;
    ew::run(back, t2);
    REQUIRE(t2.size() == t.size());
    const ew::Step& a = t.at("probs");
    const ew::Step& b = t2.at("probs");
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (type == ew::DiskType::F32) REQUIRE(a.data[i] == b.data[i]);
      else REQUIRE(std::abs(a.data[i] - b.data[i]) < 2e-2f);
    }
  }
}

TEST_CASE("malformed files are refused, naming the problem") {
  const std::string ok = R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
  CHECK(safetensors_error_of(file(ok, 8)) == "");
  CHECK(safetensors_error_of({1, 2, 3}).find("too short") != std::string::npos);
  CHECK(safetensors_error_of(file(ok, 8, 1000)).find("truncated") != std::string::npos);
  CHECK(safetensors_error_of(file(ok, 8, std::uint64_t{1} << 40)).find("larger than 100 MB") != std::string::npos);
  CHECK(safetensors_error_of(file("{not json", 0)).find("not valid JSON") != std::string::npos);
  CHECK(safetensors_error_of(file("[1,2]", 0)).find("not a JSON object") != std::string::npos);
  CHECK(safetensors_error_of(file(R"({"a":{"dtype":"I64","shape":[1],"data_offsets":[0,8]}})", 8)).find("\"a\" has dtype \"I64\"") != std::string::npos);
  CHECK(safetensors_error_of(file(R"({"a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}})", 8)).find("needs 12") != std::string::npos);
  CHECK(safetensors_error_of(file(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,80]}})", 8)).find("outside the 8 bytes") != std::string::npos);
  CHECK(safetensors_error_of(file(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})", 8))
            .find("overlaps") != std::string::npos);
  CHECK(safetensors_error_of(file(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})", 8)).find("belong to no tensor") != std::string::npos);
  CHECK(safetensors_error_of(file(ok, 12)).find("last 4 bytes") != std::string::npos);
  CHECK(safetensors_error_of(file(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", 8))
            .find("names \"a\" twice") != std::string::npos);
  CHECK(safetensors_error_of(file(R"({"__metadata__":{"k":1},"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", 8)).find("\"k\" is not a string") != std::string::npos);
  CHECK(safetensors_error_of(file(R"({"a":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}})", 8)).find("not a size") != std::string::npos);
  auto nan = file(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", 4);
  const float q = std::numeric_limits<float>::quiet_NaN();
  std::memcpy(nan.data() + nan.size() - 4, &q, 4);
  CHECK(safetensors_error_of(nan).find("not finite") != std::string::npos);
}

TEST_CASE("a safetensors model must describe itself, and its table must fit its vocabulary") {
  ew::SafeTensors st;
  CHECK_THROWS_WITH_AS(ew::model_from_safetensors(st), doctest::Contains("no \"config\""), ew::Error);
  st.metadata["config"] = R"({"d_model": 4, "num_heads": 2})";
  st.metadata["vocab"] = R"(["a", "b"])";
  st.tensors.push_back({"embedding_table", {3, 4}, std::vector<float>(12, 0.5f)});
  CHECK_THROWS_WITH_AS(ew::model_from_safetensors(st), doctest::Contains("the vocabulary has 2"), ew::Error);
  st.tensors[0] = {"layer0.W_q", {4, 3}, std::vector<float>(12, 0.5f)};
  ew::Model m = ew::model_from_safetensors(st);
  m.text = "a b";
  ew::Trace t;
  CHECK_THROWS_WITH_AS(ew::run(m, t), doctest::Contains("'layer0.W_q' has shape [4, 3], expected [4, 4]"), ew::Error);
}
