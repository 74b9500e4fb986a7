// test_checkpoint.cpp — a Hugging Face checkpoint's files in memory (io/checkpoint.h), checked
// from the definitions of the layouts: nn.Linear's [out, in] weight lands transposed in our
// in×out parameter (element [o][i] = 100·o + i reads back at W[i][o]); GPT-2's fused c_attn
// [in, 3d] splits by columns into W_q | W_k | W_v; bfloat16 is the top half of a float32
// (rounded to nearest even); the tied decoder copy must equal the token table; the notes list
// the next-sentence head. Runs natively and in both wasm builds (the page will load the same way).
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <utility>

#include "io/checkpoint.h"
#include "io/checkpoint_tokenizer.h"
#include "text/byte_bpe.h"
#include "io/safetensors.h"
#include "model/error.h"
#include "model/params.h"
#include "session/session.h"
#include "trace/backward.h"
#include "trace/forward.h"
#include "trace/lens.h"

namespace {

ew::NamedTensor tensor(const std::string& name, std::vector<std::size_t> shape, float (*f)(std::size_t, std::size_t)) {
  ew::NamedTensor t{name, shape, {}};
  const std::size_t rows = shape.size() == 1 ? 1 : shape[0], cols = shape.back();
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) t.data.push_back(f(r, c));
  return t;
}
float index_value(std::size_t r, std::size_t c) { return static_cast<float>(100 * r + c); }
float one(std::size_t, std::size_t) { return 1.0f; }
float zero(std::size_t, std::size_t) { return 0.0f; }

std::string bytes_of(const ew::SafeTensors& st, ew::DiskType type = ew::DiskType::F32) {
  const auto b = ew::write_safetensors(st, type);
  return std::string(b.begin(), b.end());
}

// A one-layer BERT (d 4, 2 heads, d_ff 8, 3 positions, 5 tokens) with every tensor named as
// BertForPreTraining saves it; Q's weight holds 100·o + i.
ew::SafeTensors tiny_bert() {
  ew::SafeTensors st;
  const std::string L = "bert.encoder.layer.0.";
  auto& t = st.tensors;
  t.push_back(tensor("bert.embeddings.word_embeddings.weight", {5, 4}, index_value));
  t.push_back(tensor("bert.embeddings.position_embeddings.weight", {3, 4}, one));
  t.push_back(tensor("bert.embeddings.token_type_embeddings.weight", {2, 4}, zero));
  t.push_back(tensor("bert.embeddings.LayerNorm.gamma", {4}, one));  // the old names
  t.push_back(tensor("bert.embeddings.LayerNorm.beta", {4}, zero));
  for (const char* m : {"attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense"}) {
    t.push_back(tensor(L + m + ".weight", {4, 4}, index_value));
    t.push_back(tensor(L + m + ".bias", {4}, zero));
  }
  t.push_back(tensor(L + "intermediate.dense.weight", {8, 4}, index_value));
  t.push_back(tensor(L + "intermediate.dense.bias", {8}, zero));
  t.push_back(tensor(L + "output.dense.weight", {4, 8}, index_value));
  t.push_back(tensor(L + "output.dense.bias", {4}, zero));
  for (const char* ln : {"attention.output.LayerNorm", "output.LayerNorm"}) {
    t.push_back(tensor(L + ln + ".weight", {4}, one));
    t.push_back(tensor(L + ln + ".bias", {4}, zero));
  }
  t.push_back(tensor("cls.predictions.transform.dense.weight", {4, 4}, one));
  t.push_back(tensor("cls.predictions.transform.dense.bias", {4}, zero));
  t.push_back(tensor("cls.predictions.transform.LayerNorm.weight", {4}, one));
  t.push_back(tensor("cls.predictions.transform.LayerNorm.bias", {4}, zero));
  t.push_back(tensor("cls.predictions.bias", {5}, zero));
  t.push_back(tensor("cls.seq_relationship.weight", {2, 4}, one));
  t.push_back(tensor("cls.seq_relationship.bias", {2}, zero));
  return st;
}

const char* kBertConfig = R"({"model_type": "bert", "architectures": ["BertForPreTraining"], "hidden_size": 4,
  "num_attention_heads": 2, "num_hidden_layers": 1, "intermediate_size": 8, "max_position_embeddings": 3,
  "vocab_size": 5, "type_vocab_size": 2})";

ew::Checkpoint load_checkpoint(const std::string& config, std::string weights) {
  ew::CheckpointFiles f;
  f.config_json = config;
  f.safetensors = ew::HeapBytes(weights);
  // A WordPiece vocabulary for BERT's; GPT-2's test needs none (a byte-level one has 256+ tokens).
  if (config.find("\"gpt2\"") == std::string::npos) f.tokenizer.vocab_txt = "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\n";
  return ew::load_checkpoint(std::move(f));
}

}  // namespace

TEST_CASE("nn.Linear's [out, in] weight is transposed into our in×out parameter") {
  const ew::Checkpoint c = load_checkpoint(kBertConfig, bytes_of(tiny_bert()));
  // An F32 file's matmul weights are kept in the kernels' panels only, read back through the accessors.
  const ew::Param& W = c.model.at("layer0.W_q");  // [in, out]
  CHECK(W.packed_only());
  CHECK(W.shape() == std::vector<std::size_t>{4, 4});
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t o = 0; o < 4; ++o) CHECK(W.at(i * 4 + o) == static_cast<float>(100 * o + i));
  const ew::Param& W1 = c.model.at("layer0.W_1");  // intermediate.dense [8, 4] → [4, 8]
  CHECK(W1.shape() == std::vector<std::size_t>{4, 8});
  CHECK(W1.at(3 * 8 + 7) == 703.0f);
  CHECK_THROWS_WITH(W1.f32(), doctest::Contains("kept packed"));
  CHECK(c.model.config.masked_lm);
  CHECK(c.model.vocab.size() == 5);
  bool nsp = false;
  for (const auto& n : c.model.arch.notes) nsp = nsp || n.find("cls.seq_relationship.weight") != std::string::npos;
  CHECK(nsp);
}

TEST_CASE("a tied decoder copy must be the token table") {
  ew::SafeTensors st = tiny_bert();
  st.tensors.push_back(tensor("cls.predictions.decoder.weight", {5, 4}, index_value));
  CHECK_NOTHROW(load_checkpoint(kBertConfig, bytes_of(st)));
  st.tensors.back().data[3] += 1.0f;
  CHECK_THROWS_WITH_AS(load_checkpoint(kBertConfig, bytes_of(st)),
                       doctest::Contains("\"cls.predictions.decoder.weight\" differs from the token table"), ew::Error);
}

TEST_CASE("GPT-2's fused c_attn splits by columns into W_q | W_k | W_v, its bias likewise") {
  ew::SafeTensors st;
  auto& t = st.tensors;
  const std::string L = "h.0.";
  t.push_back(tensor("wte.weight", {5, 4}, one));
  t.push_back(tensor("wpe.weight", {3, 4}, one));
  t.push_back(tensor(L + "attn.c_attn.weight", {4, 12}, index_value));  // Conv1D: [in, out]
  t.push_back(tensor(L + "attn.c_attn.bias", {12}, index_value));
  t.push_back(tensor(L + "attn.c_proj.weight", {4, 4}, index_value));
  t.push_back(tensor(L + "attn.c_proj.bias", {4}, zero));
  t.push_back(tensor(L + "mlp.c_fc.weight", {4, 16}, one));
  t.push_back(tensor(L + "mlp.c_fc.bias", {16}, zero));
  t.push_back(tensor(L + "mlp.c_proj.weight", {16, 4}, one));
  t.push_back(tensor(L + "mlp.c_proj.bias", {4}, zero));
  for (const char* ln : {"h.0.ln_1", "h.0.ln_2", "ln_f"}) {
    t.push_back(tensor(std::string(ln) + ".weight", {4}, one));
    t.push_back(tensor(std::string(ln) + ".bias", {4}, zero));
  }
  const ew::Checkpoint c = load_checkpoint(R"({"model_type": "gpt2", "n_embd": 4, "n_head": 2, "n_layer": 1, "n_positions": 3,
                                    "vocab_size": 5})",
                                bytes_of(st, ew::DiskType::F16));  // integers below 2048: exact in float16
  const char* parts[3][2] = {{"layer0.W_q", "layer0.b_q"}, {"layer0.W_k", "layer0.b_k"}, {"layer0.W_v", "layer0.b_v"}};
  for (int p = 0; p < 3; ++p) {
    const ew::Param& W = c.model.at(parts[p][0]);  // 16-bit (an F16 file's matrix): read through at()
    const ew::Param& b = c.model.at(parts[p][1]);
    CHECK(W.is_half());
    for (std::size_t r = 0; r < 4; ++r)
      for (std::size_t col = 0; col < 4; ++col) CHECK(W.at(r * 4 + col) == static_cast<float>(100 * r + 4 * p + col));
    CHECK(b.at(0) == static_cast<float>(4 * p));
  }
  CHECK(c.model.at("layer0.W_o").at(1 * 4 + 2) == 102.0f);  // Conv1D: as is
  CHECK(c.model.config.norm == ew::NormOrder::Pre);
  CHECK(c.model.config.activation == ew::Activation::GELUTanh);
  CHECK_FALSE(c.model.arch.lm_head);  // GPT2Model: no "transformer." keys, no architectures
  // Its titles call the stack what it is: decoder blocks without cross-attention.
  ew::Model m;
  m = c.model;
  const std::vector<int> ids{0, 1};
  m.tokens = ew::checkpoint_tokens(c, "", "", &ids);
  ew::Trace trace;
  ew::run(m, trace);
  for (std::size_t i = 0; i < trace.size(); ++i) CHECK(trace[i].title.find("Encoder") == std::string::npos);
  CHECK(trace.at("output").title == "Final LayerNorm: Decoder output");
}

TEST_CASE("bfloat16 is the top half of a float32, rounded to nearest even") {
  CHECK(ew::float_to_bf16(1.0f) == 0x3F80);
  CHECK(ew::float_to_bf16(3.14159274f) == 0x4049);  // 0x40490FDB: the lower half < 0x8000
  std::uint32_t u = 0x3F808000u;                    // exactly half way: to the even 0x3F80
  float f;
  std::memcpy(&f, &u, 4);
  CHECK(ew::float_to_bf16(f) == 0x3F80);
  u = 0x3F818000u;  // half way from an odd one: up to 0x3F82
  std::memcpy(&f, &u, 4);
  CHECK(ew::float_to_bf16(f) == 0x3F82);
  CHECK(ew::bf16_to_float(0xC0A0) == -5.0f);
}

namespace {

// The tiny BERT handed to a session as staged bytes, as the page does (Engine.stageCheckpointFile).
void stage(ew::Session& s) {
  const std::string w = bytes_of(tiny_bert());
  const std::string v = "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\n";
  for (const auto& [name, bytes] : {std::pair<std::string, std::string>{"config.json", kBertConfig}, {"model.safetensors", w}, {"vocab.txt", v}})
    std::memcpy(s.stage_checkpoint_file(name, bytes.size()).data, bytes.data(), bytes.size());
  s.load_staged_checkpoint("tiny");
}

ew::ModelSource held(std::vector<int> ids) {
  return {ew::ModelSource::Kind::Checkpoint, "", std::nullopt, std::nullopt, std::move(ids)};
}

void same_trace(const ew::Trace& a, const ew::Trace& b) {
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].id == b[i].id);
    CHECK(a[i].data == b[i].data);
  }
}

}  // namespace

TEST_CASE("a session holds a checkpoint handed over as bytes: text edits, a failed run and a set cell leave its weights as the file's") {
  ew::Session fresh;
  stage(fresh);
  fresh.run(held({2, 4, 3}), {});
  ew::Session s;
  stage(s);
  CHECK(s.checkpoint_info()["name"] == "tiny");
  CHECK(s.checkpoint_info()["architecture"] == "BertForPreTraining");
  s.run(held({2, 3}), {});
  CHECK(s.trace().at("token_ids").data.size() == 2);
  s.run(held({2, 4, 3}), ew::run_options_from_json(nlohmann::json::parse(R"({"set": {"layer0.W_q[0,0]": 5}})")));
  CHECK_THROWS(s.run(held({2, 4, 3}), ew::run_options_from_json(nlohmann::json::parse(R"({"set": {"nosuch[0,0]": 1}})"))));
  s.run(held({2, 4, 3}), {});
  same_trace(s.trace(), fresh.trace());
  CHECK(s.model().at("layer0.W_q").at(0) == fresh.model().at("layer0.W_q").at(0));
  CHECK_THROWS_WITH(ew::Session().run(held({2, 3}), {}), doctest::Contains("no checkpoint is open"));
  ew::Session bad;
  std::memcpy(bad.stage_checkpoint_file("config.json", 2).data, "{}", 2);
  CHECK_THROWS_WITH(bad.load_staged_checkpoint("x"), doctest::Contains("model.safetensors: missing"));
}

TEST_CASE("a session holds a sharded checkpoint handed over as bytes: the index and each shard it names, as the page stages them") {
  ew::Session one;
  stage(one);
  one.run(held({2, 4, 3}), {});
  // The tiny BERT's tensors split in two shards (first half, second half) with their index.
  const ew::SafeTensors all = tiny_bert();
  ew::SafeTensors a, b;
  nlohmann::json map = nlohmann::json::object();
  for (std::size_t i = 0; i < all.tensors.size(); ++i) {
    const bool first = i < all.tensors.size() / 2;
    (first ? a : b).tensors.push_back(all.tensors[i]);
    map[all.tensors[i].name] = first ? "model-00001-of-00002.safetensors" : "model-00002-of-00002.safetensors";
  }
  const std::string index = nlohmann::json{{"metadata", nlohmann::json::object()}, {"weight_map", map}}.dump();
  const auto put = [](ew::Session& s, const std::string& name, const std::string& bytes) {
    std::memcpy(s.stage_checkpoint_file(name, bytes.size()).data, bytes.data(), bytes.size());
  };
  ew::Session sharded;
  put(sharded, "config.json", kBertConfig);
  put(sharded, "model.safetensors.index.json", index);
  put(sharded, "model-00002-of-00002.safetensors", bytes_of(b));  // any order
  put(sharded, "model-00001-of-00002.safetensors", bytes_of(a));
  put(sharded, "vocab.txt", "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\n");
  sharded.load_staged_checkpoint("tiny");
  CHECK(sharded.checkpoint_info()["file_bytes"].get<std::size_t>() == bytes_of(a).size() + bytes_of(b).size());
  sharded.run(held({2, 4, 3}), {});
  same_trace(sharded.trace(), one.trace());
  ew::Session missing;
  put(missing, "config.json", kBertConfig);
  put(missing, "model.safetensors.index.json", index);
  put(missing, "model-00001-of-00002.safetensors", bytes_of(a));
  CHECK_THROWS_WITH(missing.load_staged_checkpoint("x"), doctest::Contains("model-00002-of-00002.safetensors: missing"));
  CHECK_THROWS_WITH(missing.stage_checkpoint_file("../x.safetensors", 1), doctest::Contains("not a checkpoint file"));
}

// A one-layer BERT of d 20, 4 heads, d_ff 36 (panels of the matmul kernels that do not fill)
// with every weight and bias nonzero and different: w(r, c) = sin(0.37 r + 0.11 c + 0.5).
float wave(std::size_t r, std::size_t c) { return std::sin(0.37f * static_cast<float>(r) + 0.11f * static_cast<float>(c) + 0.5f); }
const char* kWavyConfig = R"({"model_type": "bert", "architectures": ["BertForMaskedLM"], "hidden_size": 20,
  "num_attention_heads": 4, "num_hidden_layers": 1, "intermediate_size": 36, "max_position_embeddings": 6,
  "vocab_size": 5, "type_vocab_size": 2})";
ew::SafeTensors wavy_bert() {
  ew::SafeTensors st;
  const std::string L = "bert.encoder.layer.0.";
  const std::size_t d = 20, ff = 36;
  auto& t = st.tensors;
  t.push_back(tensor("bert.embeddings.word_embeddings.weight", {5, d}, wave));
  t.push_back(tensor("bert.embeddings.position_embeddings.weight", {6, d}, wave));
  t.push_back(tensor("bert.embeddings.token_type_embeddings.weight", {2, d}, wave));
  for (const std::string& ln : {std::string("bert.embeddings.LayerNorm"), L + "attention.output.LayerNorm", L + "output.LayerNorm",
                               std::string("cls.predictions.transform.LayerNorm")}) {
    t.push_back(tensor(ln + ".weight", {d}, wave));
    t.push_back(tensor(ln + ".bias", {d}, wave));
  }
  for (const char* m : {"attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense"}) {
    t.push_back(tensor(L + m + ".weight", {d, d}, wave));
    t.push_back(tensor(L + m + ".bias", {d}, wave));
  }
  t.push_back(tensor(L + "intermediate.dense.weight", {ff, d}, wave));
  t.push_back(tensor(L + "intermediate.dense.bias", {ff}, wave));
  t.push_back(tensor(L + "output.dense.weight", {d, ff}, wave));
  t.push_back(tensor(L + "output.dense.bias", {d}, wave));
  t.push_back(tensor("cls.predictions.transform.dense.weight", {d, d}, wave));
  t.push_back(tensor("cls.predictions.transform.dense.bias", {d}, wave));
  t.push_back(tensor("cls.predictions.bias", {5}, wave));
  return st;
}

TEST_CASE("a checkpoint's F32 matmul weights are packed at load and held only there: the trace equals the same weights row-major, bit for bit") {
  // An F32 file's matmul weights go straight into the kernels' panels (io/checkpoint.cpp,
  // pack_rows) and live only there; the row-major kernel stages the same blocks the packed one
  // reads, so every number — the prompt's products and a decoded row's — must be the same.
  const ew::Checkpoint c = load_checkpoint(kWavyConfig, bytes_of(wavy_bert()));
  CHECK_FALSE(c.model.pack_weights);
  auto traced = [&](bool row_major) {
    ew::Model m;
    m = c.model;
    if (row_major)
      for (ew::Param& p : m.params)
        if (p.packed_only()) {
          p.make_f32();  // row-major beside the panels …
          p.packed = {};  // … and only row-major
        }
    const std::vector<int> ids{2, 4, 1, 0, 3};
    m.tokens = ew::checkpoint_tokens(c, "", "", &ids);
    ew::Trace t;
    ew::run(m, t);
    CHECK(m.at("layer0.W_q").packed_only() == !row_major);
    CHECK(m.at("layer0.W_q").has_f32() == row_major);
    CHECK(m.at("layer0.W_q").value.size() == (row_major ? 20u * 20u : 0u));  // no second copy
    // one decoded row through param_matmul: ew_f32_gemv_packed against ew_f32_gemv
    const ew::Param& W1 = m.at("layer0.W_1");
    std::vector<float> x(W1.dim(0)), y(W1.dim(1));
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = 0.25f * static_cast<float>(i % 7) - 0.6f;
    ew::param_matmul(y.data(), static_cast<int>(y.size()), x.data(), W1, m.at("layer0.b_1").f32(), 1, ew::Activation::None);
    return std::make_pair(std::move(t), y);
  };
  const auto packed = traced(false), row_major = traced(true);
  REQUIRE(packed.first.size() == row_major.first.size());
  for (std::size_t i = 0; i < packed.first.size(); ++i) {
    CAPTURE(packed.first[i].id);
    CHECK(packed.first[i].data == row_major.first[i].data);
  }
  CHECK(packed.second == row_major.second);
}

TEST_CASE("the logit lens reads a checkpoint's layers through its own head: at the last layer, the head's logits bit for bit") {
  // BERT's masked-LM head (dense, GELU, LayerNorm, tied decoder + bias) and its classifier
  // (pooler dense + tanh, then the classifier): the lens must apply all of it, so that the last
  // layer's lens equals the model's own output exactly.
  for (const bool classifier : {false, true}) {
    CAPTURE(classifier);
    ew::SafeTensors st = wavy_bert();
    std::string config = kWavyConfig;
    if (classifier) {
      st.tensors.push_back(tensor("bert.pooler.dense.weight", {20, 20}, wave));
      st.tensors.push_back(tensor("bert.pooler.dense.bias", {20}, wave));
      st.tensors.push_back(tensor("classifier.weight", {3, 20}, wave));
      st.tensors.push_back(tensor("classifier.bias", {3}, wave));
      config.replace(config.find("BertForMaskedLM"), 15, "BertForSequenceClassification");
      config.insert(config.find("\"vocab_size\""), R"("id2label": {"0": "a", "1": "b", "2": "c"}, )");
    }
    const ew::Checkpoint c = load_checkpoint(config, bytes_of(st));
    ew::Model m;
    m = c.model;
    const std::vector<int> ids{2, 4, 1, 3};
    m.tokens = ew::checkpoint_tokens(c, "", "", &ids);
    ew::Trace t;
    ew::run(m, t);
    ew::rec_lens(t, m);
    const std::string head = classifier ? "cls.logits" : "mlm.logits";
    REQUIRE(t.find(head));
    CHECK(t.at("lens.layer0.logits").data == t.at(head).data);
  }
}

namespace {
// The same tensors with every value rounded to 16 bits (as a BF16/F16 file holds them), so that
// an F32 file of these is the 16-bit file widened.
ew::SafeTensors rounded_to(ew::SafeTensors st, ew::DiskType type) {
  for (auto& t : st.tensors)
    for (float& v : t.data)
      v = type == ew::DiskType::BF16 ? ew::bf16_to_float(ew::float_to_bf16(v)) : ew::half_to_float(ew::float_to_half(v));
  return st;
}
ew::Trace traced_ids(const ew::Checkpoint& c, const std::vector<int>& ids) {
  ew::Model m;
  m = c.model;
  m.tokens = ew::checkpoint_tokens(c, "", "", &ids);
  ew::Trace t;
  ew::run(m, t);
  return t;
}
}  // namespace

TEST_CASE("a BF16/F16 checkpoint keeps its matrices 16-bit (2 bytes a weight) and traces exactly as the file widened to F32") {
  for (const ew::DiskType type : {ew::DiskType::BF16, ew::DiskType::F16}) {
    CAPTURE(type == ew::DiskType::BF16 ? "BF16" : "F16");
    const ew::SafeTensors st = rounded_to(wavy_bert(), type);
    const ew::Checkpoint half = load_checkpoint(kWavyConfig, bytes_of(st, type));
    const ew::Checkpoint wide = load_checkpoint(kWavyConfig, bytes_of(st, ew::DiskType::F32));
    // Bytes the parameters hold: 2 per value of every matrix and table (a matmul weight's in the
    // kernels' panels, whose last one is padded to the panel width: `padding` values), 4 per value
    // of the vectors (γ, β, biases stay float32); the F32 file's, 4 per value of everything.
    std::size_t matrix_values = 0, vector_values = 0, half_bytes = 0, wide_bytes = 0, padding = 0;
    for (const ew::Param& p : half.model.params) {
      CAPTURE(p.id);
      CHECK(p.is_half() == (p.rank() == 2));
      CHECK(p.half_packed == (p.rank() == 2 && p.id.find("table") == std::string::npos));  // matmul weights
      CHECK(p.value.size() == (p.is_half() ? 0u : p.size()));  // no second float32 copy
      (p.rank() == 2 ? matrix_values : vector_values) += p.size();
      if (p.half_packed) padding += ew::ew_f32_packed_floats(p.half_k(), p.half_n()) - p.size();
      half_bytes += p.half.size() * sizeof(std::uint16_t) + p.value.size() * sizeof(float);  // what it holds
      CHECK(p.half.size() * sizeof(std::uint16_t) + p.value.size() * sizeof(float) == p.bytes());
    }
    // held once: row-major, packed only (a matmul weight), or adopted where the file held it (the
    // token table, the file's first tensor)
    for (const ew::Param& p : wide.model.params) {
      CAPTURE(p.id);
      CHECK_FALSE(p.is_half());
      CHECK(int{p.value.size() > 0} + int{!p.packed.data.empty()} + int{p.is_adopted()} == 1);
      CHECK(p.is_adopted() == (p.id == "embedding_table"));
      wide_bytes += p.size() * sizeof(float);
    }
    CHECK(matrix_values > 10 * vector_values);
    CHECK(half_bytes == 2 * (matrix_values + padding) + 4 * vector_values);
    CHECK(wide_bytes == 4 * (matrix_values + vector_values));
    // Every parameter reads the same numbers either way, through each accessor.
    for (const ew::Param& p : half.model.params) {
      const ew::Param& q = wide.model.at(p.id);
      REQUIRE(p.shape() == q.shape());
      const ew::Widened w = p.widened(), qw = q.widened();
      std::vector<float> row(p.size());
      p.widen(0, p.size(), row.data());
      for (std::size_t i = 0; i < p.size(); ++i) {
        CHECK(w.data()[i] == qw.data()[i]);
        CHECK(p.at(i) == q.at(i));
        CHECK(row[i] == q.at(i));
      }
    }
    // The trace (matmuls on 16-bit weights, the embedding lookups, the tied masked-LM head):
    // every step bit for bit.
    const std::vector<int> ids{2, 4, 1, 0, 3};
    const ew::Trace a = traced_ids(half, ids), b = traced_ids(wide, ids);
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      CAPTURE(a[i].id);
      CHECK(a[i].data == b[i].data);
    }
    // Planted: the F32 file one bf16/f16 ulp off in one weight of W_q must change the trace
    // (the comparison above can fail).
    ew::SafeTensors off = st;
    for (auto& t : off.tensors)
      if (t.name == "bert.encoder.layer.0.attention.self.query.weight") {
        const float v = t.data[7];
        t.data[7] = type == ew::DiskType::BF16 ? ew::bf16_to_float(static_cast<std::uint16_t>(ew::float_to_bf16(v) + 1))
                                               : ew::half_to_float(static_cast<std::uint16_t>(ew::float_to_half(v) + 1));
      }
    const ew::Trace c = traced_ids(load_checkpoint(kWavyConfig, bytes_of(off, ew::DiskType::F32)), ids);
    CHECK(c.at("mlm.logits").data != a.at("mlm.logits").data);
  }
}

TEST_CASE("an edited cell of a 16-bit parameter widens that parameter to float32 for good, the others stay 16-bit") {
  const ew::SafeTensors st = rounded_to(wavy_bert(), ew::DiskType::BF16);
  ew::Checkpoint c = load_checkpoint(kWavyConfig, bytes_of(st, ew::DiskType::BF16));
  ew::Param& w = c.model.at("layer0.W_q");
  REQUIRE(w.is_half());
  const float before = w.at(5);
  const std::vector<std::size_t> shape = w.shape();
  REQUIRE(w.half_packed);
  w.make_f32();  // a matmul weight's panels widened in place: packed only, float32
  CHECK_FALSE(w.is_half());
  CHECK(w.half.empty());
  CHECK(w.packed_only());
  CHECK(w.shape() == shape);
  CHECK(w.at(5) == before);
  w.set(5, 2.5f);
  CHECK(w.at(5) == 2.5f);
  ew::Param& t = c.model.at("embedding_table");  // a table: row-major float32
  REQUIRE(t.is_half());
  const float t5 = t.at(5);
  t.make_f32();
  CHECK(t.f32()[5] == t5);
  CHECK(c.model.at("layer0.W_k").is_half());
  CHECK_THROWS_WITH(c.model.at("layer0.W_k").f32(), doctest::Contains("layer0.W_k"));
}

TEST_CASE("the backward pass over a BF16 checkpoint equals it over the file widened to F32, every gradient bit for bit") {
  // The rules read the weights widened once per run (trace/back.h): the same numbers as the F32
  // file's. The masked-word loss at the [MASK] (id 4) of the wavy BERT.
  const ew::SafeTensors st = rounded_to(wavy_bert(), ew::DiskType::BF16);
  const ew::Checkpoint half = load_checkpoint(kWavyConfig, bytes_of(st, ew::DiskType::BF16));
  const ew::Checkpoint wide = load_checkpoint(kWavyConfig, bytes_of(st, ew::DiskType::F32));
  auto backward = [](const ew::Checkpoint& c) {
    ew::Model m;
    m = c.model;
    const std::vector<int> ids{2, 4, 1, 0, 3};
    m.tokens = ew::checkpoint_tokens(c, "", "", &ids);
    m.mask_targets = {"[SEP]"};
    ew::Trace t;
    ew::run(m, t);
    ew::run_backward(m, t);
    return t;
  };
  const ew::Trace a = backward(half), b = backward(wide);
  REQUIRE(a.size() == b.size());
  int grads = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    CAPTURE(a[i].id);
    grads += a[i].kind == "grad";
    CHECK(a[i].data == b[i].data);
  }
  CHECK(grads > 20);
  CHECK(a.find("grad.layer0.W_q"));
}

// The CLI's "Generated:" line and the reply's generated_text: a checkpoint's ids as its own
// tokenizer decodes them — GPT-2's "Ġmat" is " mat" — and an id past the tokenizer's vocabulary
// (a table padded beyond it) as "[id N]", not an error that would lose the run.
TEST_CASE("a checkpoint's generated ids decode to text as its tokenizer writes it; an id past its vocabulary is [id N]") {
  // A byte-level vocabulary: the 256 byte symbols (ids 0–255), then three words.
  nlohmann::json vocab = nlohmann::json::object();
  for (int b = 0; b < 256; ++b) {
    const char32_t cp = ew::byte_to_unicode(static_cast<std::uint8_t>(b));
    std::string sym;  // UTF-8 of cp (< U+0800)
    if (cp < 0x80) sym += static_cast<char>(cp);
    else sym += static_cast<char>(0xC0 | (cp >> 6)), sym += static_cast<char>(0x80 | (cp & 0x3F));
    vocab[sym] = b;
  }
  vocab["the"] = 256, vocab["Ġmat"] = 257, vocab["Ġcat"] = 258;
  ew::TokenizerFileSet files;
  files.vocab_json = vocab.dump();
  files.merges_txt = "#version: 0.2\n";  // (decoding reads no merges)
  const ew::CheckpointTokenizer t = ew::CheckpointTokenizer::from_files(files, "gpt2");
  CHECK(t.decode({256, 257, 258}) == "the mat cat");
  CHECK(t.decode({257, 5000, 258}) == " mat[id 5000] cat");
  CHECK(t.decode({}).empty());
  CHECK(ew::CheckpointTokenizer().decode({0, 1}).empty());  // no tokenizer files: nothing to decode with
}

// The `safetensors` library sorts tensors by name, so GPT-2's token table (wte.weight) is the
// file's *last* tensor: the loader turns the data around in place so that it comes first and is
// taken over where the file held it (io/checkpoint.cpp, table_first, adopt_first) instead of copied
// out beside the whole file. Every number must be where it was: the same parameters and the same
// trace, bit for bit, as the same tensors written with the table first.
TEST_CASE("a token table stored last is turned to the front and adopted in place: the same parameters and trace as stored first") {
  auto gpt2 = [](bool table_last, std::size_t vocab) {
    ew::SafeTensors st;
    auto& t = st.tensors;
    auto wavy = [](std::size_t r, std::size_t c) { return std::sin(0.37f * static_cast<float>(r) + 1.3f * static_cast<float>(c)); };
    if (!table_last) t.push_back(tensor("wte.weight", {vocab, 4}, wavy));
    t.push_back(tensor("h.0.attn.c_attn.weight", {4, 12}, wavy));
    t.push_back(tensor("h.0.attn.c_attn.bias", {12}, wavy));
    t.push_back(tensor("h.0.attn.c_proj.weight", {4, 4}, wavy));
    t.push_back(tensor("h.0.attn.c_proj.bias", {4}, wavy));
    t.push_back(tensor("h.0.mlp.c_fc.weight", {4, 16}, wavy));
    t.push_back(tensor("h.0.mlp.c_fc.bias", {16}, wavy));
    t.push_back(tensor("h.0.mlp.c_proj.weight", {16, 4}, wavy));
    t.push_back(tensor("h.0.mlp.c_proj.bias", {4}, wavy));
    for (const char* ln : {"h.0.ln_1", "h.0.ln_2", "ln_f"}) {
      t.push_back(tensor(std::string(ln) + ".weight", {4}, one));
      t.push_back(tensor(std::string(ln) + ".bias", {4}, zero));
    }
    t.push_back(tensor("wpe.weight", {3, 4}, wavy));
    if (table_last) t.push_back(tensor("wte.weight", {vocab, 4}, wavy));
    return st;
  };
  for (const ew::DiskType type : {ew::DiskType::F32, ew::DiskType::BF16})
    for (const std::size_t vocab : {std::size_t{5}, std::size_t{7}}) {  // 7 rows of BF16: 56 bytes, 4-byte units or not
      CAPTURE(type == ew::DiskType::F32 ? "F32" : "BF16");
      CAPTURE(vocab);
      const std::string config = R"({"model_type": "gpt2", "n_embd": 4, "n_head": 2, "n_layer": 1, "n_positions": 3, "vocab_size": )" +
                                 std::to_string(vocab) + "}";
      const ew::Checkpoint first = load_checkpoint(config, bytes_of(gpt2(false, vocab), type));
      const ew::Checkpoint last = load_checkpoint(config, bytes_of(gpt2(true, vocab), type));
      const ew::Param& table = last.model.at("embedding_table");
      CHECK((type == ew::DiskType::F32 ? table.is_adopted() : table.is_half()));
      CHECK(first.model.at("embedding_table").is_adopted() == table.is_adopted());
      REQUIRE(first.model.params.size() == last.model.params.size());
      for (const ew::Param& p : last.model.params) {
        CAPTURE(p.id);
        const ew::Param& q = first.model.at(p.id);
        REQUIRE(p.shape() == q.shape());
        for (std::size_t i = 0; i < p.size(); ++i) CHECK(p.at(i) == q.at(i));
      }
      const std::vector<int> ids{1, 4, 0};
      const ew::Trace a = traced_ids(first, ids), b = traced_ids(last, ids);
      REQUIRE(a.size() == b.size());
      for (std::size_t i = 0; i < a.size(); ++i) {
        CAPTURE(a[i].id);
        CHECK(a[i].data == b[i].data);
      }
    }
}
