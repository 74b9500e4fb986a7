// model.h — the configuration and the parameters of an encoder(-decoder) model (the forward
// pass that runs it into a Trace is trace/forward.h).
//
// Row-vector convention throughout (seed 000): Y = X·W + b with W of shape in×out.
// Every parameter has a stable id ("layer0.W_q", "decoder0.cross.W_k", "embedding_table"),
// made from its place and name (model/naming.h), so that trace steps can name the parameters
// they were computed from.
// Parameters a model file leaves out are seeded-random (random.h: the same numbers on
// every platform), biases 0, LayerNorm γ 1 and β 0.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <xtensor/xarray.hpp>

#include "kernels/kernels.h"
#include "model/naming.h"
#include "model/place.h"

namespace ew {

enum class NormOrder { Post, Pre };
enum class Positional { None, Sinusoidal, Learned };
enum class TokenizerKind { Whitespace, Regex, Bpe, Chars };
// Its name in a model file's config and in the trace ("whitespace", "regex", "bpe", "chars").
inline const char* tokenizer_name(TokenizerKind k) {
  switch (k) {
    case TokenizerKind::Whitespace: return "whitespace";
    case TokenizerKind::Regex: return "regex";
    case TokenizerKind::Bpe: return "bpe";
    case TokenizerKind::Chars: return "chars";
  }
  return "";
}

// Field defaults are these initialisers; ranges, enum names and descriptions are in the one
// table of config_schema.h, which parses, validates and writes every field.
struct Config {
  int d_model = 8;
  int num_heads = 2;
  int d_ff = 32;
  int num_layers = 1;
  NormOrder norm = NormOrder::Post;
  Activation activation = Activation::ReLU;
  float layer_norm_eps = 1e-5f;
  bool causal = false;  // causal mask in the encoder's self-attention
  Positional positional = Positional::Sinusoidal;
  bool scale = true;  // divide scores by sqrt(d_k)
  std::uint64_t seed = 66;
  TokenizerKind tokenizer = TokenizerKind::Regex;
  int bpe_merges = 10;      // merges learned on the text itself when tokenizer == bpe
  int max_tokens = 512;     // longer text is an error, not a silent truncation
  int decoder_layers = 0;   // 0: encoder only
  int num_labels = 0;       // > 0: a sequence-classification head on the first token
  bool masked_lm = false;   // a masked-word head: each token's output → vocabulary (tied table)

  int d_k() const { return d_model / num_heads; }
};

// What a pretrained checkpoint's architecture (io/checkpoint.h) adds to the configuration:
// pieces our own models do not have. Not settings of the page's form (not in the config
// schema); their defaults are our own models'.
struct Arch {
  std::string model_type;          // "" (our own), "bert", "distilbert", "gpt2"
  std::string architecture;        // "BertForMaskedLM", "GPT2LMHeadModel", ... ("" for our own)
  int type_vocab_size = 0;         // > 0: token-type (segment) embeddings added to the input
  bool embedding_ln = true;        // learned positions: a LayerNorm after the sum (BERT), or none (GPT-2)
  bool mlm_transform = false;      // masked-word head: dense + activation + LayerNorm before the
                                   // tied decoder, which has a bias (BERT, DistilBERT)
  Activation pooler = Activation::None;  // classifier: a dense layer + this on the first token first
                                         // (BERT: Tanh; DistilBERT's pre_classifier: ReLU)
  bool lm_head = false;            // a causal LM head: every position's output against the token
                                   // table (tied), next-token softmax ("logits", "probs")
  int eos_id = -1;                 // generation stops at this token (<|endoftext|>)
  std::vector<std::string> notes;  // what loading ignored or read differently (tensors not used, …)

  // ---- the modern decoders (llama, qwen2, qwen3, gemma3_text): docs/decoders.md ----
  bool rms_norm = false;           // RMSNorm (no mean, no β) instead of LayerNorm everywhere
  float norm_offset = 0.0f;        // RMSNorm scales by (offset + γ): Gemma's (1 + w)
  int kv_heads = 0;                // grouped-query attention: K/V heads (0: one per query head)
  int head_dim = 0;                // columns per head (0: d_model / num_heads; Qwen3, Gemma: explicit)
  bool attn_bias = true;           // b_q, b_k, b_v (Qwen2: yes; Llama: attention_bias)
  bool out_bias = true;            // b_o (Llama: attention_bias; Qwen2: no)
  bool ffn_bias = true;            // the feed-forward biases (Llama: mlp_bias)
  bool gated_ffn = false;          // act(X W_gate) ⊙ (X W_up), then W_down (SwiGLU, GeGLU)
  bool qk_norm = false;            // RMSNorm over each head's q and k before the rotation (Qwen3, Gemma 3)
  bool sandwich_norm = false;      // Gemma 3: post-attention and pre/post-feed-forward norms
  bool untied_head = false;        // an lm_head of its own instead of the token table
  float embed_scale = 0.0f;        // > 0: the token embeddings are multiplied by it (Gemma: √d)
  float attn_scale = 0.0f;         // > 0: scores multiplied by it instead of 1/√head_dim
  // Rotary positions (rotate-half layout: pair i is columns i and i + head_dim/2).
  bool rope = false;
  double rope_theta = 10000.0;       // the global layers' base
  double rope_local_theta = 0.0;     // > 0: the sliding-window layers' base (Gemma 3)
  std::string rope_scaling;          // "" | "linear" | "llama3"
  double rope_factor = 1.0, rope_low = 1.0, rope_high = 4.0;
  int rope_original = 8192;          // llama3: original_max_position_embeddings
  int sliding_window = 0;            // > 0: the width of the sliding layers' band
  std::vector<bool> sliding;         // per layer: a sliding-window layer (Gemma 3)
};

// The shape of multi-head attention: H query heads and KV key/value heads of hd columns each;
// query head h reads K/V head h / (H / KV) (grouped-query attention; KV = H is ordinary MHA).
struct AttnGeom {
  int H, KV, hd;
  float scale;  // what the scores are multiplied by: 1/√hd, Gemma's query_pre_attn_scalar^(−½), or 1 (scaling off)
  int dq() const { return H * hd; }
  int dkv() const { return KV * hd; }
  int kv_head(int h) const { return h / (H / KV); }
};

// Tokens given as ids (a checkpoint's own tokenizer ran before the forward pass, or the CLI's
// --ids): one sequence, its pieces as the vocabulary spells them and its token types.
struct GivenTokens {
  std::vector<int> ids;
  std::vector<int> type_ids;  // empty: all 0
  std::vector<std::string> pieces;
  std::string tokenizer;      // what produced them ("vocab.txt", "ids", ...)
};

// A named parameter tensor. Matrices are in×out; vectors have one dimension.
//
// Its numbers are held one of three ways, and only once:
//   float32, row-major, in `value` (our own models; a checkpoint's vectors and tables);
//   16-bit, in `half` (a checkpoint's F16/BF16 tables row-major; its matmul weights in the
//     kernels' panel layout, half_packed; `value` empty);
//   float32 row-major in `adopted`, a malloc'd block (an F32 file's token table, taken over where
//     the file held it; `value` empty);
//   float32 in the kernels' panel layout, in `packed` only (a checkpoint's F32 matmul weights,
//     packed while the file is decoded; `value` empty: packed_only()). Our own models keep
//     `value` and a packed copy beside it (Model::pack_weights).
// Read them through the accessors below, never through `value` directly, unless the parameter
// is known to hold it (f32() checks): widening and unpacking are exact, so every reader sees
// what the float32 row-major path would.
//   shape(), size(), bytes()          the tensor's shape, element count, bytes its numbers hold
//   at(i)                             element i (row-major), as float
//   widen(first, n, out)              elements first … first+n−1 into the caller's floats (a row)
//   f32()                             the float32 row-major numbers in place (ew::Error if the
//                                     parameter is 16-bit or packed only); has_f32() says which
//   widened()                         all of it as float32 row-major: in place when it can be,
//                                     else a copy (readers that need a whole tensor briefly)
//   set(i, v)                         element i becomes v (a 16-bit parameter is widened for
//                                     good first; a packed copy follows)
//   make_f32()                        row-major float32 numbers for good: a 16-bit parameter
//                                     widened, a packed-only one given them beside its panels
//                                     (training, whose optimizer updates `value` in place)
// The matmuls read 16-bit numbers where they lie (params.h: param_matmul, param_scores).
enum class Dtype { F32, F16, BF16 };
// A parameter's numbers in one malloc'd block, so that a checkpoint's token table can be adopted
// where the file's buffer held it (io/checkpoint.cpp: moved to the buffer's start and the rest
// given back, no copy): 16-bit numbers (HalfBuffer), or an F32 file's float32 table (FloatBuffer).
// Copies are deep.
template <class T>
class MallocBuffer {
 public:
  MallocBuffer() = default;
  explicit MallocBuffer(std::size_t n) : p_(static_cast<T*>(std::malloc(n ? sizeof(T) * n : 1))), n_(n) {
    if (!p_) throw std::bad_alloc();
  }
  // Takes a malloc'd block of n values (freed with free()).
  static MallocBuffer adopt(void* block, std::size_t n) {
    MallocBuffer b;
    b.p_ = static_cast<T*>(block);
    b.n_ = n;
    return b;
  }
  MallocBuffer(const MallocBuffer& o) : MallocBuffer(o.n_) { if (o.n_) std::memcpy(p_, o.p_, sizeof(T) * o.n_); }
  MallocBuffer(MallocBuffer&& o) noexcept : p_(o.p_), n_(o.n_) { o.p_ = nullptr, o.n_ = 0; }
  MallocBuffer& operator=(MallocBuffer o) noexcept {
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
    return *this;
  }
  ~MallocBuffer() { std::free(p_); }
  T* data() { return p_; }
  const T* data() const { return p_; }
  std::size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }

 private:
  T* p_ = nullptr;
  std::size_t n_ = 0;
};
using HalfBuffer = MallocBuffer<std::uint16_t>;
using FloatBuffer = MallocBuffer<float>;
// A parameter's numbers as float32 for as long as this lives (Param::widened()).
class Widened {
 public:
  Widened(const float* in_place, std::vector<float> copy) : copy_(std::move(copy)), p_(copy_.empty() ? in_place : copy_.data()) {}
  Widened(Widened&& o) noexcept : copy_(std::move(o.copy_)), p_(copy_.empty() ? o.p_ : copy_.data()) {}
  Widened(const Widened&) = delete;
  Widened& operator=(const Widened&) = delete;
  const float* data() const { return p_; }

 private:
  std::vector<float> copy_;
  const float* p_;
};
struct Param {
  std::string id;  // param_id of its place, norm and name (model/naming.h)
  xt::xarray<float> value;  // the float32 numbers (empty when the parameter is 16-bit)
  PackedB packed;  // value repacked for ew_f32_matmul_packed (matmul weights, when the model packs)
  std::vector<Axis> axes;  // one per dimension (set by ensure_params)
  Place place;             // the block it belongs to (set by ensure_params)
  std::string norm = {};   // the LayerNorm it belongs to, or "" (set by ensure_params)
  std::string name = {};   // its name in its place (and norm): "W_k", "gamma", ...
  Dtype dtype = Dtype::F32;
  HalfBuffer half = {};                      // the 16-bit numbers (dtype F16 or BF16)
  std::vector<std::size_t> half_shape = {};  // their shape
  bool half_packed = false;                  // `half` holds the kernels' panels (a matmul weight)
  FloatBuffer adopted = {};                  // an F32 file's token table where the file held it
  std::vector<std::size_t> adopted_shape = {};  // (io/checkpoint.cpp; `value` then empty)

  ParamKey key() const { return {place, norm, name}; }

  bool is_half() const { return dtype != Dtype::F32; }
  bool packed_only() const { return !is_half() && !packed.data.empty() && value.size() == 0; }
  bool is_adopted() const { return !adopted.empty(); }
  bool has_f32() const { return !is_half() && !packed_only(); }
  Half half_type() const { return dtype == Dtype::BF16 ? Half::BF16 : Half::F16; }
  std::vector<std::size_t> shape() const;
  std::size_t dim(std::size_t i) const { return shape()[i]; }
  std::size_t rank() const { return shape().size(); }
  std::size_t size() const;
  std::size_t bytes() const {
    return is_half() ? half.size() * 2 : packed_only() ? packed.data.size() * 4 : is_adopted() ? adopted.size() * 4 : value.size() * 4;
  }
  // half_shape as the kernels' K and N (a 16-bit matmul weight: in × out)
  int half_k() const { return static_cast<int>(half_shape[0]); }
  int half_n() const { return static_cast<int>(half_shape[1]); }
  float at(std::size_t i) const;
  void widen(std::size_t first, std::size_t n, float* out) const;
  const float* f32() const;
  Widened widened() const;
  void set(std::size_t i, float v);
  void make_f32();
};

struct Model;
AttnGeom attn_geom(const Model& m);

struct Model {
  Config config;
  std::string weights;  // "builtin:<name>" or the file the parameters came from ("" when seeded/inline)
  std::string text;   // the source sentence
  std::string text2;  // optional second sentence: a padded batch of two
  std::string target; // what the decoder should produce; it reads "<s>" + these tokens.
                      // Empty: it reads "<s>" + the source tokens but the last.
  bool target_given = false;  // "target" was given (even empty: the decoder reads <s> alone)
  // Greedy generation's inner rounds (trace/generate.cpp): a causal LM's head scores only the
  // last position, the one the next token comes from (that round's trace is not kept).
  bool head_last_row_only = false;
  // What a classifier should predict (backward pass, training): an index per sentence
  // (-1: none given), and optional names of the labels (num_labels of them).
  int label = -1;
  int label2 = -1;
  std::vector<std::string> label_names;
  // Explicit layer-0 input rows (T×d_model): replaces tokenizer, embedding, positional.
  std::optional<xt::xarray<float>> input;
  // A user vocabulary with its embedding table (V×d_model); empty: the vocabulary is
  // built from the text and each token's row is seeded-random, keyed by the token.
  std::vector<std::string> vocab;
  bool user_embedding = false;  // the model file supplied "embedding" (V×d_model)
  // BPE training corpus (words); empty: the words of the text itself.
  std::vector<std::string> bpe_corpus;
  // Learned BPE merges ("a", "b") in order: when given, the tokenizer applies them instead of
  // learning merges from bpe_corpus or the text (a trained model's own tokenizer).
  std::vector<std::pair<std::string, std::string>> merges;
  // Masked-word head (config.masked_lm): the right token for each "[MASK]" of text, then
  // text2, in order (empty: no loss, forward only).
  std::vector<std::string> mask_targets;

  Arch arch;                           // a checkpoint's architecture (defaults: our own models)
  std::optional<GivenTokens> tokens;   // replaces tokenizing text (and text2)

  std::vector<Param> params;  // every parameter, in a stable order
  int given_params = 0;       // how many of them the model file supplied (the rest are seeded)
  // Matmul weights also kept packed (a second copy, beside `value`) for the kernels. A
  // checkpoint says false: its weights live once — an F32 file's matmul weights packed only
  // (Param::packed_only, io/checkpoint.cpp), a 16-bit file's row-major and read in place
  // (param_matmul: a 16-bit W widened as the unpacked kernel stages each block of it, kernels.h,
  // ew_h16_matmul). A packing model keeps float32 weights (ensure_params widens a 16-bit one).
  bool pack_weights = true;

  const Param* find(const std::string& id) const;
  const Param& at(const std::string& id) const;  // throws ew::Error
  Param& at(const std::string& id);
};

}  // namespace ew
