// forward.cpp — ew::run: text → tokens → ids → embeddings (+ positions) → encoder layers →
// classification head and/or decoder → vocabulary softmax, every step into the trace.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "error.h"
#include "layers.h"
#include "model.h"
#include "params.h"
#include "positional.h"
#include "record.h"
#include "tokenizer.h"

namespace ew {

namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();
const char* const kSpecials[] = {"<pad>", "<s>", "</s>"};

std::vector<std::string> tokenize(const Model& m, const std::string& text, const std::string& what,
                                  TextInfo& info) {
  validate_utf8(text);
  std::vector<std::string> tokens;
  switch (m.config.tokenizer) {
    case TokenizerKind::Whitespace: tokens = tokenize_whitespace(text); break;
    case TokenizerKind::Regex: tokens = tokenize_regex(text); break;
    case TokenizerKind::Bpe: tokens = bpe_encode(info.bpe, tokenize_regex(text)); break;
  }
  if (tokens.empty())
    throw Error("\"" + what + "\" has no tokens: the " + std::string(m.config.tokenizer == TokenizerKind::Whitespace ? "whitespace" : "regex") +
                " tokenizer found no words in it");
  if (static_cast<int>(tokens.size()) > m.config.max_tokens)
    throw Error("\"" + what + "\" has " + std::to_string(tokens.size()) + " tokens; the limit (max_tokens) is " +
                std::to_string(m.config.max_tokens));
  return tokens;
}

struct Vocab {
  std::vector<std::string> tokens;
  std::unordered_map<std::string, int> ids;
  int pad = 0;
  int unk = -1;
  bool user = false;

  int id(const std::string& t) const {
    auto it = ids.find(t);
    if (it != ids.end()) return it->second;
    if (unk >= 0) return unk;
    throw Error("token \"" + t + "\" is not in the model's vocabulary (and the vocabulary has no <unk> or [UNK])");
  }
  void add(const std::string& t) {
    if (ids.emplace(t, static_cast<int>(tokens.size())).second) tokens.push_back(t);
  }
};

Vocab build_vocab(const Model& m, const std::vector<std::vector<std::string>>& texts) {
  Vocab v;
  if (!m.vocab.empty()) {
    v.user = true;
    for (const auto& t : m.vocab) v.add(t);
    for (const char* u : {"<unk>", "[UNK]"})
      if (v.ids.count(u)) v.unk = v.ids.at(u);
    for (const char* p : {"<pad>", "[PAD]"})
      if (v.ids.count(p)) { v.pad = v.ids.at(p); break; }
    return v;
  }
  for (const char* s : kSpecials) v.add(s);
  for (const auto& toks : texts)
    for (const auto& t : toks) v.add(t);
  return v;
}

// token_ids, embedding, positional, (embedding_sum, embedding_ln.*), input for one stream.
const float* rec_embed(Rec r, const std::string& pre, const std::vector<std::vector<int>>& ids, int T,
                       const std::string& out_id, const std::string& what) {
  const Config& c = r.model.config;
  const int B = r.B, d = c.d_model;
  const Param& E = r.model.at("embedding_table");
  float* idf = r.trace.add(pre + "token_ids", batch_shape(B, T), "Token ids (" + what + ")",
                           "\\text{id}_t = \\text{vocab}[\\text{token}_t]", "tokens", {},
                           B > 1 ? "The shorter sentence is padded with <pad> to the same length." : "")
                   .data.data();
  float* emb = r.trace.add(pre + "embedding", batch_shape(B, T, d), "Embedding lookup (" + what + ")",
                           "X^{\\text{tok}}_t = E[\\text{id}_t]", "lookup", {pre + "token_ids", "embedding_table"},
                           "Row id_t of the embedding table, one row per token.")
                   .data.data();
  for (int b = 0; b < B; ++b)
    for (int t = 0; t < T; ++t) {
      const int id = ids[b][t];
      idf[b * T + t] = static_cast<float>(id);
      std::copy(E.value.data() + static_cast<std::size_t>(id) * d, E.value.data() + static_cast<std::size_t>(id + 1) * d,
                emb + (static_cast<std::size_t>(b) * T + t) * d);
    }
  if (c.positional == Positional::None) {
    return rec_copy(r, out_id, batch_shape(B, T, d), "Encoder input (no positional encoding)", "X = X^{\\text{tok}}",
                    emb, pre + "embedding",
                    "Without positions, attention cannot tell word order: permuting the tokens permutes the output.");
  }
  const bool learned = c.positional == Positional::Learned;
  float* pos = r.trace
                   .add(pre + "positional", {T, d}, learned ? "Learned position embeddings" : "Sinusoidal positional encoding",
                        learned ? "P_t = E^{\\text{pos}}[t]"
                                : "PE_{(p,2i)} = \\sin\\!\\left(\\frac{p}{10000^{2i/d}}\\right),\\; PE_{(p,2i+1)} = \\cos\\!\\left(\\frac{p}{10000^{2i/d}}\\right)",
                        learned ? "lookup" : "positional", learned ? std::vector<std::string>{"position_table"} : std::vector<std::string>{},
                        learned ? "BERT-style: one learned row per position." : "Fixed, not learned: each position gets a unique pattern of waves.")
                   .data.data();
  if (learned) {
    const float* P = r.model.at("position_table").value.data();
    std::copy(P, P + static_cast<std::size_t>(T) * d, pos);
  } else {
    sinusoidal_positional(pos, T, d);
  }
  Step& sum_step = r.trace.add(learned ? pre + "embedding_sum" : out_id, batch_shape(B, T, d),
                               learned ? "Token + position embeddings" : "Encoder input: embedding + position",
                               "X = X^{\\text{tok}} + " + std::string(learned ? "P" : "PE"), "add",
                               {pre + "embedding", pre + "positional"});
  float* sum = sum_step.data.data();
  for (int b = 0; b < B; ++b)
    for (std::size_t i = 0; i < static_cast<std::size_t>(T) * d; ++i)
      sum[b * static_cast<std::size_t>(T) * d + i] = emb[b * static_cast<std::size_t>(T) * d + i] + pos[i];
  if (!learned) return sum;
  return rec_layernorm(r, pre + "embedding_ln", out_id, batch_shape(B, T, d), batch_shape(B, T),
                       "Embedding LayerNorm", sum, pre + "embedding_sum", B * T, d, "embedding_ln",
                       "BERT normalises the summed embeddings; dropout after it is the identity at inference.");
}

float* rec_mask(Rec r, const std::string& id, const std::string& title, int B, int Tq, int Tk,
                const std::vector<int>& key_len, bool causal) {
  std::vector<int> shape = B == 1 ? std::vector<int>{Tq, Tk} : std::vector<int>{B, Tq, Tk};
  std::string note;
  if (causal) note = "Causal: position i may not look at j > i. ";
  if (B > 1 || key_len[0] < Tk) note += "Padding: no query may look at a <pad> key.";
  if (note.empty()) note = "Nothing is masked: every position sees every position.";
  float* m = r.trace.add(id, shape, title, "M_{ij} = \\begin{cases} 0 & \\text{allowed} \\\\ -\\infty & \\text{masked} \\end{cases}",
                         "mask", {}, note)
                 .data.data();
  for (int b = 0; b < B; ++b)
    for (int i = 0; i < Tq; ++i)
      for (int j = 0; j < Tk; ++j)
        m[(static_cast<std::size_t>(b) * Tq + i) * Tk + j] = (j >= key_len[b] || (causal && j > i)) ? kNegInf : 0.0f;
  return m;
}

}  // namespace

void validate(const Config& c) {
  auto range = [](const char* key, long v, long lo, long hi) {
    if (v < lo || v > hi)
      throw Error(std::string("config.") + key + " must be between " + std::to_string(lo) + " and " +
                  std::to_string(hi) + ", got " + std::to_string(v));
  };
  range("d_model", c.d_model, 1, kMaxDModel);
  range("num_heads", c.num_heads, 1, kMaxHeads);
  range("d_ff", c.d_ff, 1, kMaxDff);
  range("num_layers", c.num_layers, 0, kMaxLayers);
  range("decoder_layers", c.decoder_layers, 0, kMaxLayers);
  range("max_tokens", c.max_tokens, 1, kMaxTokens);
  range("bpe_merges", c.bpe_merges, 0, kMaxBpeMerges);
  range("num_labels", c.num_labels, 0, kMaxLabels);
  if (c.d_model % c.num_heads != 0)
    throw Error("config.num_heads (" + std::to_string(c.num_heads) + ") must divide config.d_model (" +
                std::to_string(c.d_model) + ")");
  if (!(c.layer_norm_eps > 0.0f) || !std::isfinite(c.layer_norm_eps) || c.layer_norm_eps > 1.0f)
    throw Error("config.layer_norm_eps must be a positive number no larger than 1, got " + std::to_string(c.layer_norm_eps));
}

void run(Model& m, Trace& trace) {
  const Config& c = m.config;
  validate(c);
  trace.begin();
  TextInfo& info = trace.text;

  // ---- tokens ------------------------------------------------------------------------
  const bool explicit_input = m.input.has_value();
  if (explicit_input && !m.text2.empty())
    throw Error("\"text2\" needs \"text\": a model file with explicit \"input\" rows has no sentences to batch");
  if (!explicit_input && m.text.empty()) throw Error("\"text\" is empty: type a sentence");
  if (c.tokenizer == TokenizerKind::Bpe && !explicit_input) {
    std::vector<std::string> corpus;
    if (!m.bpe_corpus.empty()) {
      corpus = m.bpe_corpus;
    } else {
      validate_utf8(m.text);
      corpus = tokenize_regex(m.text);
      if (!m.text2.empty()) {
        validate_utf8(m.text2);
        for (auto& w : tokenize_regex(m.text2)) corpus.push_back(std::move(w));
      }
    }
    info.bpe = bpe_train(corpus, c.bpe_merges);
  }
  int T = 0;
  if (explicit_input) {
    T = static_cast<int>(m.input->shape()[0]);
    std::vector<std::string> labels;
    for (int t = 0; t < T; ++t) labels.push_back("x" + std::to_string(t));
    info.source_tokens.push_back(labels);
    info.tokenizer = "input";
  } else {
    info.source_tokens.push_back(tokenize(m, m.text, "text", info));
    if (!m.text2.empty()) info.source_tokens.push_back(tokenize(m, m.text2, "text2", info));
    info.tokenizer = c.tokenizer == TokenizerKind::Whitespace ? "whitespace" : c.tokenizer == TokenizerKind::Regex ? "regex" : "bpe";
    for (const auto& toks : info.source_tokens) T = std::max(T, static_cast<int>(toks.size()));
  }
  const int B = static_cast<int>(info.source_tokens.size());
  std::vector<int> src_len;
  for (const auto& toks : info.source_tokens) src_len.push_back(static_cast<int>(toks.size()));

  const bool decoder = c.decoder_layers > 0;
  if (decoder) {
    if (!m.target.empty()) {
      info.target_tokens = tokenize(m, m.target, "target", info);
    } else {
      if (explicit_input) throw Error("a decoder over explicit \"input\" rows needs a \"target\" text");
      info.target_tokens.push_back("<s>");
      const auto& src = info.source_tokens[0];
      info.target_tokens.insert(info.target_tokens.end(), src.begin(), src.end() - 1);
    }
  }
  const int S = static_cast<int>(info.target_tokens.size());

  // ---- vocabulary, parameters ------------------------------------------------------
  std::vector<std::vector<std::string>> texts;
  if (!explicit_input) texts = info.source_tokens;
  if (decoder) texts.push_back(info.target_tokens);
  const Vocab vocab = build_vocab(m, texts);
  info.vocab = vocab.tokens;
  const int V = static_cast<int>(vocab.tokens.size());
  // Token ids first: an unknown token is reported before anything is computed.
  std::vector<std::vector<int>> src_ids(B, std::vector<int>(T, vocab.pad));
  if (!explicit_input)
    for (int b = 0; b < B; ++b)
      for (int t = 0; t < src_len[b]; ++t) src_ids[b][t] = vocab.id(info.source_tokens[b][t]);
  std::vector<std::vector<int>> tgt_ids(1);
  for (const auto& t : info.target_tokens) tgt_ids[0].push_back(vocab.id(t));

  if (!m.user_embedding) {
    // Seeded rows keyed by the token itself: the same word gets the same vector in any sentence.
    Param* E = nullptr;
    for (Param& p : m.params)
      if (p.id == "embedding_table") E = &p;
    if (!E) {
      m.params.push_back(Param{"embedding_table", {}, {}});
      E = &m.params.back();
    }
    E->value = xt::xarray<float>::from_shape({static_cast<std::size_t>(V), static_cast<std::size_t>(c.d_model)});
    for (int id = 0; id < V; ++id)
      seeded_embedding_row(E->value.data() + static_cast<std::size_t>(id) * c.d_model, c.seed, vocab.tokens[id], c.d_model);
  }
  const auto setup0 = std::chrono::steady_clock::now();
  ensure_params(m, V, std::max(T, S));
  trace.setup_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - setup0).count();

  // ---- encoder -----------------------------------------------------------------------
  Rec r{trace, m, B};
  const float* x;
  if (explicit_input) {
    Step& s = trace.add("input", {T, c.d_model}, "Encoder input (given rows)", "X \\in \\mathbb{R}^{T \\times d}", "given", {},
                        "The model file supplies these rows directly: no tokenizer, embedding or positions.");
    std::copy(m.input->data(), m.input->data() + s.size(), s.data.data());
    x = s.data.data();
  } else {
    x = rec_embed(r, "", src_ids, T, "input", "source");
  }
  const float* mask = rec_mask(r, "attention_mask", c.causal ? "Causal + padding mask" : "Attention mask", B, T, T,
                               src_len.empty() ? std::vector<int>{T} : src_len, c.causal);
  std::string x_id = "input";
  for (int i = 0; i < c.num_layers; ++i) {
    x = rec_encoder_layer(r, i, x, x_id, T, mask, "attention_mask");
    x_id = "layer" + std::to_string(i) + ".output";
  }
  const float* out = rec_copy(r, "output", batch_shape(B, T, c.d_model), "Encoder output",
                              "Y = X^{(" + std::to_string(c.num_layers) + ")}", x, x_id,
                              "One context-aware vector per token.");

  // ---- classification head (seed 004) ------------------------------------------------
  if (c.num_labels > 0) {
    const std::vector<int> pshape = B == 1 ? std::vector<int>{c.d_model} : std::vector<int>{B, c.d_model};
    float* pooled = trace.add("cls.pooled", pshape, "First token's output", "h = Y_{0}", "pool", {"output"},
                              "Dropout is the identity at inference.")
                        .data.data();
    for (int b = 0; b < B; ++b)
      std::copy(out + static_cast<std::size_t>(b) * T * c.d_model, out + (static_cast<std::size_t>(b) * T + 1) * c.d_model,
                pooled + static_cast<std::size_t>(b) * c.d_model);
    const std::vector<int> lshape = B == 1 ? std::vector<int>{c.num_labels} : std::vector<int>{B, c.num_labels};
    const float* logits = rec_linear(r, "cls.logits", lshape, "Classifier logits", "z = h W^{\\text{cls}} + b^{\\text{cls}}",
                                     pooled, "cls.pooled", B, "cls.W", "cls.b");
    rec_softmax(r, "cls.probs", lshape, B == 1 ? std::vector<int>{1} : std::vector<int>{B}, "Label probabilities",
                logits, "cls.logits", B, c.num_labels);
  }

  // ---- decoder -----------------------------------------------------------------------
  if (!decoder) return;
  Rec rd{trace, m, 1};
  const float* y = rec_embed(rd, "target_", tgt_ids, S, "decoder_input", "target");
  const float* dmask = rec_mask(rd, "decoder_mask", "Causal mask (decoder)", 1, S, S, {S}, true);
  const float* xmask = rec_mask(rd, "cross_mask", "Cross-attention mask", 1, S, T, {src_len.empty() ? T : src_len[0]}, false);
  std::string y_id = "decoder_input";
  for (int j = 0; j < c.decoder_layers; ++j) {
    y = rec_decoder_layer(rd, j, y, y_id, S, out, "output", T, dmask, xmask);
    y_id = "decoder" + std::to_string(j) + ".output";
  }
  const float* dout = rec_copy(rd, "decoder_output", {S, c.d_model}, "Decoder output",
                               "Z = Y^{(" + std::to_string(c.decoder_layers) + ")}", y, y_id);
  float* logits = trace.add("logits", {S, V}, "Output logits over the vocabulary", "L = Z E^{\\top}", "logits",
                            {"decoder_output", "embedding_table"},
                            "The output projection shares the embedding table (weight tying, as in the original Transformer).")
                      .data.data();
  const Param& E = m.at("embedding_table");
  ew_f32_scores(logits, V, dout, c.d_model, E.value.data(), c.d_model, S, V, c.d_model);
  rec_softmax(rd, "probs", {S, V}, {S}, "Next-token probabilities", logits, "logits", S, V,
              "Row t is the model's distribution for the token after target position t.");
}

}  // namespace ew
