// forward.cpp — ew::run: text → tokens → ids → embeddings (+ positions) → encoder layers →
// classification head and/or decoder → vocabulary softmax, every step into the trace.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "trace/forward.h"
#include "model/config_schema.h"
#include "model/error.h"
#include "model/model.h"
#include "model/naming.h"
#include "model/params.h"
#include "model/positional.h"
#include "text/tokenizer.h"
#include "text/vocab.h"
#include "trace/intervene.h"
#include "trace/layers.h"
#include "trace/ops.h"
#include "trace/record.h"

namespace ew {

namespace {

// What a step title calls the stack: a decoder-only checkpoint (GPT-2: causal blocks without
// cross-attention) is a "Decoder", as is our own decoder (symbol Y); our encoders (causal or not)
// and BERT's are "Encoder" (the page's model/stack.js draws the same line).
std::string stack_name(const Model& m, const std::string& sym) {
  return sym == "Y" || (m.config.causal && !m.arch.model_type.empty()) ? "Decoder" : "Encoder";
}

constexpr float kNegInf = -std::numeric_limits<float>::infinity();
const char* const kSpecials[] = {"<pad>", "<s>", "</s>"};
const char* const kMask = "[MASK]";

// `skipped` (when given) receives what the regex tokenizer dropped, at offsets in `text`.
std::vector<std::string> tokenize(const Model& m, const std::string& text, const std::string& what,
                                  TextInfo& info, std::vector<SkippedSpan>* skipped = nullptr) {
  validate_utf8(text);
  std::vector<std::string> tokens;
  // With a masked-word head, "[MASK]" is one token wherever it stands; the text between is
  // tokenized as usual.
  const std::string mask = m.config.masked_lm ? kMask : "";
  std::size_t from = 0;
  while (from <= text.size()) {
    const std::size_t at = mask.empty() ? std::string::npos : text.find(mask, from);
    const std::string piece = text.substr(from, at == std::string::npos ? std::string::npos : at - from);
    std::vector<std::string> part;
    switch (m.config.tokenizer) {
      case TokenizerKind::Whitespace: part = tokenize_whitespace(piece); break;
      case TokenizerKind::Regex: part = tokenize_regex(piece); break;
      case TokenizerKind::Bpe: part = bpe_encode(info.bpe, tokenize_regex(piece)); break;
      case TokenizerKind::Chars: part = tokenize_chars(piece); break;
    }
    if (skipped && m.config.tokenizer != TokenizerKind::Whitespace && m.config.tokenizer != TokenizerKind::Chars)
      for (SkippedSpan& sp : regex_skipped(piece, utf8_length(std::string_view(text).substr(0, from))))
        skipped->push_back(std::move(sp));
    tokens.insert(tokens.end(), part.begin(), part.end());
    if (at == std::string::npos) break;
    tokens.push_back(mask);
    from = at + mask.size();
  }
  // BPE splits the regex tokenizer's words: when there are none, that tokenizer found nothing.
  const std::string kind = m.config.tokenizer == TokenizerKind::Bpe ? "regex" : tokenizer_name(m.config.tokenizer);
  if (tokens.empty())
    throw Error("\"" + what + "\" has no tokens: the " + kind + " tokenizer found no words in it", "no_tokens",
                {{"what", what}, {"tokenizer", kind}});
  if (static_cast<int>(tokens.size()) > m.config.max_tokens)
    throw Error("\"" + what + "\" has " + std::to_string(tokens.size()) + " tokens; the limit (max_tokens) is " +
                    std::to_string(m.config.max_tokens),
                "too_many_tokens",
                {{"what", what}, {"count", std::to_string(tokens.size())}, {"max", std::to_string(m.config.max_tokens)}});
  return tokens;
}

// The run's vocabulary (text/vocab.h): the model's own, or for a seeded model the specials
// and every token of the texts, in order of first appearance.
Vocab build_vocab(const Model& m, const std::vector<std::vector<std::string>>& texts) {
  if (!m.vocab.empty()) return Vocab(m.vocab);
  Vocab v;
  for (const char* s : kSpecials) v.add(s);
  for (const auto& toks : texts)
    for (const auto& t : toks) v.add(t);
  return v;
}

// token_ids, embedding, positional, (embedding_sum, embedding_ln.*), input for one stream
// (r.tokens: "source" or "target"), at place {r.place.section, -1, ...}.
// Token types (segments, BERT): their ids and the rows of the token-type table, one per token.
Tensor rec_segments(Rec r, const std::vector<int>& type_ids, int T) {
  const int d = r.model.config.d_model;
  const Rec re = r.in("embedding");
  float* tid = r.trace.add("token_type_ids", "token_type_ids", per_token(r, T), r.in("tokens").place,
                           "Token types (segments)", "s_t \\in \\{0, 1\\}", "tokens", {},
                           "0 for the first sentence (with [CLS] and its [SEP]), 1 for the second.")
                   .data.data();
  float* seg = r.trace.add("token_type_embedding", "token_type_embedding", per_token(r, T, dim(d, "feature")), re.place,
                           "Token-type embeddings", "X^{\\text{seg}}_t = E^{\\text{type}}[s_t]", "lookup",
                           {"token_type_ids", "token_type_table"}, "Row s_t of the token-type table: which sentence.")
                   .data.data();
  const Param& E = r.model.at("token_type_table");
  const int rows = static_cast<int>(E.dim(0));
  for (int t = 0; t < T; ++t) {
    const int s = t < static_cast<int>(type_ids.size()) ? type_ids[t] : 0;
    if (s < 0 || s >= rows)
      throw Error("token type " + std::to_string(s) + " at position " + std::to_string(t) + " is outside the " +
                  std::to_string(rows) + " rows of the token-type table");
    tid[t] = static_cast<float>(s);
    E.widen(static_cast<std::size_t>(s) * d, d, seg + static_cast<std::size_t>(t) * d);
  }
  return {"token_type_embedding", seg};
}

Tensor rec_embed(Rec r, const std::string& pre, const std::vector<std::vector<int>>& ids, int T,
                 const std::string& out_id, const std::string& what, const std::vector<int>* type_ids = nullptr) {
  const Config& c = r.model.config;
  const int B = r.B, d = c.d_model;
  const Param& E = r.model.at("embedding_table");
  const Dims rows = per_token(r, T, dim(d, "feature"));
  float* idf = r.trace.add(pre + "token_ids", pre + "token_ids", per_token(r, T), r.in("tokens").place,
                           "Token ids (" + what + ")",
                           "\\text{id}_t = \\text{vocab}[\\text{token}_t]", "tokens", {},
                           B > 1 ? "The shorter sentence is padded with <pad> to the same length." : "")
                   .data.data();
  const Rec re = r.in("embedding");
  const std::string sym = pre == "target_" ? "Y" : "X";  // the decoder's stream is Y, the encoder's X
  float* emb = r.trace.add(pre + "embedding", pre + "embedding", rows, re.place, "Embedding lookup (" + what + ")",
                           sym + "^{\\text{tok}}_t = E[\\text{id}_t]", "lookup", {pre + "token_ids", "embedding_table"},
                           "Row id_t of the embedding table, one row per token.")
                   .data.data();
  for (int b = 0; b < B; ++b)
    for (int t = 0; t < T; ++t) {
      const int id = ids[b][t];
      idf[b * T + t] = static_cast<float>(id);
      E.widen(static_cast<std::size_t>(id) * d, d, emb + (static_cast<std::size_t>(b) * T + t) * d);
    }
  intervene(r.trace, pre + "embedding");
  const Tensor tok{pre + "embedding", emb};
  if (r.model.arch.rope) {  // positions come later: q and k are rotated in every layer
    if (out_id != "input") return tok;  // Gemma scales the lookup first (rec_modern_stack)
    return rec_copy(re, out_id, rows, stack_name(r.model, sym) + " input: token embeddings", sym + " = " + sym + "^{\\text{tok}}",
                    tok, "No position vectors are added: every layer rotates q and k by their position instead (rotary positions).");
  }
  if (c.positional == Positional::None)
    return rec_copy(re, out_id, rows, stack_name(r.model, sym) + std::string(" input (no positional encoding)"),
                    sym + " = " + sym + "^{\\text{tok}}", tok,
                    "Without positions, attention cannot tell word order: permuting the tokens permutes the output.");
  const bool learned = c.positional == Positional::Learned;
  float* pos = r.trace
                   .add(pre + "positional", pre + "positional", {dim(T, "position"), dim(d, "feature")},
                        r.in("positional").place,
                        learned ? "Learned position embeddings" : "Sinusoidal positional encoding",
                        learned ? "P_t = E^{\\text{pos}}[t]"
                                : "PE_{(p,2i)} = \\sin\\!\\left(\\frac{p}{10000^{2i/d}}\\right),\\; PE_{(p,2i+1)} = \\cos\\!\\left(\\frac{p}{10000^{2i/d}}\\right)",
                        learned ? "lookup" : "positional", learned ? std::vector<std::string>{"position_table"} : std::vector<std::string>{},
                        learned ? "BERT-style: one learned row per position." : "Fixed, not learned: each position gets a unique pattern of waves.")
                   .data.data();
  if (learned) {
    r.model.at("position_table").widen(0, static_cast<std::size_t>(T) * d, pos);
  } else {
    sinusoidal_positional(pos, T, d);
  }
  intervene(r.trace, pre + "positional");
  const std::string input_title = stack_name(r.model, sym) + " input: embedding + position";
  const bool segments = type_ids && c.positional == Positional::Learned && r.model.arch.type_vocab_size > 0;
  const Tensor seg = segments ? rec_segments(r, *type_ids, T) : Tensor{};
  const bool norm = learned && r.model.arch.embedding_ln;
  const std::string sum_role = norm ? pre + "embedding_sum" : out_id;
  std::vector<std::string> parts{pre + "embedding", pre + "positional"};
  if (segments) parts.push_back(seg.id);
  float* sum = r.trace.add(sum_role, sum_role, rows, re.place,
                           learned ? (segments ? "Token + position + token-type embeddings" : "Token + position embeddings")
                                   : input_title,
                           sym + " = " + sym + "^{\\text{tok}} + " + std::string(learned ? "P" : "PE") +
                               (segments ? " + " + sym + "^{\\text{seg}}" : ""),
                           "add", parts)
                   .data.data();
  for (int b = 0; b < B; ++b)
    for (std::size_t i = 0; i < static_cast<std::size_t>(T) * d; ++i)
      sum[b * static_cast<std::size_t>(T) * d + i] =
          emb[b * static_cast<std::size_t>(T) * d + i] + pos[i] + (segments ? seg.data[i] : 0.0f);
  intervene(r.trace, sum_role);
  if (!norm) return {out_id, sum};
  return rec_layernorm(re, pre + "embedding_ln", out_id, rows, "Embedding LayerNorm", {sum_role, sum},
                       {{"input", -1, "embedding", -1}, "embedding_ln", {}},
                       "BERT normalises the summed embeddings; dropout after it is the identity at inference.");
}

// An additive mask [batch,] query × key (0 allowed, −inf masked), at r.place's section.
Tensor rec_mask(Rec r, const std::string& id, const std::string& title, int Tq, const char* q_tokens, int Tk,
                const char* k_tokens, const std::vector<int>& key_len, bool causal, int window = 0) {
  Dims dims;
  if (r.B > 1) dims.push_back(dim(r.B, "batch", "batch"));
  dims.push_back(dim(Tq, "query", q_tokens));
  dims.push_back(dim(Tk, "key", k_tokens));
  std::string note;
  if (causal) note = "Causal: position i may not look at j > i. ";
  if (r.B > 1 || key_len[0] < Tk) note += "Padding: no query may look at a <pad> key.";
  if (window > 0)
    note += "Sliding window: position i sees only the " + std::to_string(window) + " positions i − " +
            std::to_string(window - 1) + " … i. ";
  if (note.empty()) note = "Nothing is masked: every position sees every position.";
  float* m = r.trace.add(id, id, dims, r.in("mask").place, title,
                         "M_{ij} = \\begin{cases} 0 & \\text{allowed} \\\\ -\\infty & \\text{masked} \\end{cases}",
                         "mask", {}, note)
                 .data.data();
  for (int b = 0; b < r.B; ++b)
    for (int i = 0; i < Tq; ++i)
      for (int j = 0; j < Tk; ++j)
        m[(static_cast<std::size_t>(b) * Tq + i) * Tk + j] =
            (j >= key_len[b] || (causal && j > i) || (window > 0 && i - j >= window)) ? kNegInf : 0.0f;
  intervene(r.trace, id);
  return {id, m};
}

// The stack's output: pre-norm stacks end with a final LayerNorm (GPT-2, T5, PyTorch's
// TransformerEncoder(norm=...)), recorded as `<ln>.mean`, `<ln>.var` and `out_id`;
// post-norm stacks already end normalised, so the output is a copy of the last layer's.
Tensor rec_stack_output(Rec r, const std::string& ln, const std::string& out_id, const Dims& rows, const Tensor& x,
                        const std::string& what, int layers) {
  const Rec so = r.in("stack_output");
  if (r.model.config.norm == NormOrder::Pre)
    return rec_layernorm(so, ln, out_id, rows, "Final LayerNorm: " + what, x, {so.place, ln, {}},
                         "Pre-norm layers add without normalising, so the stack ends with one LayerNorm.");
  const std::string sym = ln == "final_ln" ? "H = X" : "Z = Y";
  return rec_copy(so, out_id, rows, what, sym + "^{(" + std::to_string(layers) + ")}", x,
                  ln == "final_ln" ? "One context-aware vector per token." : "");
}

}  // namespace

namespace {

// The text of a run as token ids: tokenizer, vocabulary, ids, and the parameters they need.
struct Tokens {
  int B = 1, T = 0, S = 0;
  std::vector<int> src_len;
  std::vector<std::vector<int>> src_ids, tgt_ids;
};

void train_bpe(const Model& m, TextInfo& info) {
  if (!m.merges.empty()) {  // a trained model's own merges: applied, not learned
    info.bpe = {};
    for (const auto& p : m.merges) info.bpe.merges.push_back(BpeMerge{p, 0, {}, {}});
    info.bpe_learned_on = "model";
    info.weights = m.weights;
    return;
  }
  std::vector<std::string> corpus;
  info.bpe_learned_on = m.bpe_corpus.empty() ? "sentence" : "corpus";
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
  // Seed 001's learner keeps every vocabulary snapshot for the page; past a few hundred
  // words the corpus-scale learner gives the same merges without them.
  info.bpe = corpus.size() <= 2000 ? bpe_train(corpus, m.config.bpe_merges) : bpe_learn(corpus, m.config.bpe_merges);
  info.bpe_corpus_words = static_cast<int>(corpus.size());
}

// A masked-word head needs tokens, and "mask_targets" (when given) one per "[MASK]".
void check_mask_targets(const Model& m, const TextInfo& info) {
  if (!m.mask_targets.empty() && !m.config.masked_lm)
    throw Error("\"mask_targets\" needs the masked-word head: set config.masked_lm to true");
  if (!m.config.masked_lm) return;
  if (m.input) throw Error("config.masked_lm needs text (its head scores tokens against the token table), not \"input\" rows");
  std::size_t masks = 0;
  for (const auto& toks : info.source_tokens)
    for (const auto& tok : toks) masks += tok == kMask;
  if (!m.mask_targets.empty() && masks != m.mask_targets.size())
    throw Error("\"mask_targets\" has " + std::to_string(m.mask_targets.size()) + " tokens but the text has " +
                std::to_string(masks) + " [MASK]: give one target per [MASK], in order");
}

// Tokens given as ids (a checkpoint's tokenizer, or --ids): one sequence, checked against the
// vocabulary and the position table's length.
void given_tokens(const Model& m, TextInfo& info, Tokens& t) {
  const GivenTokens& g = *m.tokens;
  if (g.ids.empty()) throw Error("the text has no tokens", "no_tokens", {{"what", "text"}, {"tokenizer", g.tokenizer}});
  if (static_cast<int>(g.ids.size()) > m.config.max_tokens)
    throw Error("the text has " + std::to_string(g.ids.size()) + " tokens; this model takes at most " +
                    std::to_string(m.config.max_tokens) + " (max_tokens)",
                "too_many_tokens",
                {{"what", "text"}, {"count", std::to_string(g.ids.size())}, {"max", std::to_string(m.config.max_tokens)}});
  for (std::size_t i = 0; i < g.ids.size(); ++i)
    if (g.ids[i] < 0 || g.ids[i] >= static_cast<int>(m.vocab.size()))
      throw Error("token id " + std::to_string(g.ids[i]) + " (position " + std::to_string(i) +
                  ") is outside the vocabulary of " + std::to_string(m.vocab.size()) + " tokens");
  info.sentences.push_back(m.text2.empty() ? m.text : m.text + "\n" + m.text2);
  info.skipped.emplace_back();
  info.source_tokens.push_back(g.pieces);
  info.tokenizer = g.tokenizer;
  t.T = static_cast<int>(g.ids.size());
}

// Source and target tokens into `info`; returns their lengths.
Tokens tokenize_all(const Model& m, TextInfo& info) {
  const Config& c = m.config;
  const bool explicit_input = m.input.has_value();
  if (explicit_input && !m.text2.empty())
    throw Error("\"text2\" needs \"text\": a model file with explicit \"input\" rows has no sentences to batch");
  if (!explicit_input && !m.tokens && m.text.empty()) throw Error("\"text\" is empty: type a sentence", "empty_text", {});
  if (c.tokenizer == TokenizerKind::Bpe && !explicit_input && !m.tokens) train_bpe(m, info);
  Tokens t;
  if (m.tokens) {
    given_tokens(m, info, t);
  } else if (explicit_input) {
    t.T = static_cast<int>(m.input->shape()[0]);
    std::vector<std::string> labels;
    for (int i = 0; i < t.T; ++i) labels.push_back("x" + std::to_string(i));
    info.source_tokens.push_back(labels);
    info.tokenizer = "input";
  } else {
    info.skipped.emplace_back();
    info.sentences.push_back(m.text);
    info.source_tokens.push_back(tokenize(m, m.text, "text", info, &info.skipped.back()));
    if (!m.text2.empty()) {
      info.skipped.emplace_back();
      info.sentences.push_back(m.text2);
      info.source_tokens.push_back(tokenize(m, m.text2, "text2", info, &info.skipped.back()));
    }
    info.tokenizer = tokenizer_name(c.tokenizer);
    for (const auto& toks : info.source_tokens) t.T = std::max(t.T, static_cast<int>(toks.size()));
  }
  check_mask_targets(m, info);
  t.B = static_cast<int>(info.source_tokens.size());
  for (const auto& toks : info.source_tokens) t.src_len.push_back(static_cast<int>(toks.size()));
  if (c.decoder_layers > 0) {
    if (m.target_given || !m.target.empty()) {  // teacher forcing: <s>, then the sequence to produce
      info.target_tokens.push_back("<s>");
      if (!m.target.empty())
        for (auto& tok : tokenize(m, m.target, "target", info)) info.target_tokens.push_back(std::move(tok));
    } else {
      if (explicit_input) throw Error("a decoder over explicit \"input\" rows needs a \"target\" text");
      info.target_tokens.push_back("<s>");
      const auto& src = info.source_tokens[0];
      info.target_tokens.insert(info.target_tokens.end(), src.begin(), src.end() - 1);
    }
  }
  t.S = static_cast<int>(info.target_tokens.size());
  return t;
}

// Vocabulary, token ids (an unknown token is reported before anything is computed), and
// every parameter the model needs (seeded embedding rows keyed by the token itself: the same
// word gets the same vector in any sentence).
void assign_ids(Model& m, TextInfo& info, Tokens& t) {
  std::vector<std::vector<std::string>> texts;
  if (!m.input) texts = info.source_tokens;
  if (t.S) texts.push_back(info.target_tokens);
  if (!m.mask_targets.empty()) texts.push_back(m.mask_targets);
  const Vocab vocab = build_vocab(m, texts);
  for (const std::string& w : m.mask_targets)  // a fixed vocabulary (a file's, a checkpoint's): never <unk> silently
    if (vocab.find(w) < 0)
      throw Error("the [MASK] target \"" + w + "\" is not one token of the model's vocabulary: give a token it holds whole",
                  "mask_target_unknown", {{"token", w}});
  info.vocab = vocab.tokens();
  t.src_ids.assign(t.B, std::vector<int>(t.T, vocab.pad()));
  if (m.tokens)
    t.src_ids[0] = m.tokens->ids;
  else if (!m.input)
    for (int b = 0; b < t.B; ++b)
      for (int i = 0; i < t.src_len[b]; ++i) t.src_ids[b][i] = vocab.id(info.source_tokens[b][i]);
  t.tgt_ids.assign(1, {});
  for (const auto& tok : info.target_tokens) t.tgt_ids[0].push_back(vocab.id(tok));
  if (m.user_embedding) return;
  Param* E = nullptr;
  for (Param& p : m.params)
    if (p.id == "embedding_table") E = &p;
  if (!E) {
    m.params.push_back(Param{"embedding_table", {}, {}, {}, {}});
    E = &m.params.back();
  }
  const int V = vocab.size(), d = m.config.d_model;
  E->dtype = Dtype::F32;  // seeded rows are float32, whatever the table held before
  E->half = HalfBuffer();
  E->half_shape.clear();
  E->adopted = FloatBuffer();
  E->adopted_shape.clear();
  E->value = xt::xarray<float>::from_shape({static_cast<std::size_t>(V), static_cast<std::size_t>(d)});
  for (int id = 0; id < V; ++id)
    seeded_embedding_row(E->value.data() + static_cast<std::size_t>(id) * d, m.config.seed, vocab.tokens()[id], d);
}

// A modern decoder (Llama, Qwen, Gemma 3: Arch::rms_norm): the token embeddings (Gemma: times
// √d), the rotary angles of every position (Gemma: a local base for its sliding layers too), the
// causal mask (and the sliding band), the layers, and the final RMSNorm.
Tensor rec_modern_stack(Rec r, const Tokens& t) {
  const Config& c = r.model.config;
  const Arch& a = r.model.arch;
  r.place = {"input", -1, "", -1};
  const Dims rows = per_token(r, t.T, dim(c.d_model, "feature"));
  Tensor x = rec_embed(r, "", t.src_ids, t.T, a.embed_scale > 0 ? "embedding_copy" : "input", "source");
  if (a.embed_scale > 0)
    x = rec_scale(r.in("embedding"), "input", rows, "Decoder input: embeddings scaled by √d",
                  "X = \\sqrt{d}\\; X^{\\text{tok}}", x, a.embed_scale,
                  "Gemma multiplies its embeddings by √d = " + std::to_string(a.embed_scale) + " (the table is tied to the output).");
  const int hd = attn_geom(r.model).hd;
  const Tensor rope = rec_rope_angles(r, "rope_angles", t.T, hd, a.rope_theta, true);
  const bool any_sliding = std::find(a.sliding.begin(), a.sliding.end(), true) != a.sliding.end();
  const Tensor rope_local = a.rope_local_theta > 0 && any_sliding
                                ? rec_rope_angles(r, "rope_angles_local", t.T, hd, a.rope_local_theta, false)
                                : rope;
  const Tensor mask = rec_mask(r, "attention_mask", "Causal mask", t.T, "source", t.T, "source", t.src_len, true);
  const Tensor band = any_sliding ? rec_mask(r, "sliding_mask", "Sliding-window causal mask", t.T, "source", t.T, "source",
                                             t.src_len, true, a.sliding_window)
                                  : mask;
  for (int i = 0; i < c.num_layers; ++i) {
    const bool sl = a.sliding[static_cast<std::size_t>(i)];
    x = rec_modern_layer(r, i, x, t.T, sl ? band : mask, sl ? rope_local : rope);
  }
  const Rec so = [&] { Rec s = r; s.place = {"encoder", -1, "stack_output", -1}; return s; }();
  return rec_rmsnorm(so, "final_norm", "output", rows, "Final RMSNorm: Decoder output", x, {so.place, "final_norm", {}},
                     "Pre-norm layers add without normalising, so the stack ends with one RMSNorm.");
}

// Embeddings (or the given rows), the mask, the encoder layers and the stack's output.
Tensor rec_encoder(Rec r, const Tokens& t) {
  const Config& c = r.model.config;
  if (r.model.arch.rms_norm) return rec_modern_stack(r, t);
  r.place = {"input", -1, "", -1};
  Tensor x;
  if (r.model.input) {
    Step& s = r.trace.add("input", "input", {dim(t.T, "token", "source"), dim(c.d_model, "feature")}, r.in("embedding").place,
                          "Encoder input (given rows)", "X \\in \\mathbb{R}^{T \\times d}", "given", {},
                          "The model file supplies these rows directly: no tokenizer, embedding or positions.");
    std::copy(r.model.input->data(), r.model.input->data() + s.size(), s.data.data());
    x = {"input", s.data.data()};
    intervene(r.trace, "input");
  } else {
    x = rec_embed(r, "", t.src_ids, t.T, "input", "source", r.model.tokens ? &r.model.tokens->type_ids : nullptr);
  }
  const Tensor mask = rec_mask(r, "attention_mask", c.causal ? "Causal + padding mask" : "Attention mask", t.T, "source",
                               t.T, "source", t.src_len, c.causal);
  for (int i = 0; i < c.num_layers; ++i) x = rec_encoder_layer(r, i, x, t.T, mask);
  r.place = {"encoder", -1, "", -1};
  return rec_stack_output(r, "final_ln", "output", per_token(r, t.T, dim(c.d_model, "feature")), x,
                          stack_name(r.model, "X") + " output",
                          c.num_layers);
}

// Seed 004's sequence-classification head on the first token of each sentence.
void rec_classifier(Rec r, const Tensor& out, int T) {
  const Config& c = r.model.config;
  const int B = r.B, d = c.d_model;
  r.place = {"classifier", -1, "classifier", -1};
  Dims pooled_dims, label_dims;
  if (B > 1) pooled_dims.push_back(dim(B, "batch", "batch"));
  label_dims = pooled_dims;
  pooled_dims.push_back(dim(d, "feature"));
  label_dims.push_back(dim(c.num_labels, "label", "labels"));
  Step& pooled_step = r.trace.add(step_id(r.place, "pooled"), "pooled", pooled_dims, r.place, "First token's output",
                                  "h = H_{0}", "pool", {out.id}, "Dropout is the identity at inference.");
  float* pooled = pooled_step.data.data();
  const std::string pooled_id = pooled_step.id;
  for (int b = 0; b < B; ++b)
    std::copy(out.data + static_cast<std::size_t>(b) * T * d, out.data + (static_cast<std::size_t>(b) * T + 1) * d,
              pooled + static_cast<std::size_t>(b) * d);
  intervene(r.trace, pooled_id);
  Tensor h{pooled_id, pooled};
  const Activation pooler = r.model.arch.pooler;
  if (pooler != Activation::None) {  // BERT's pooler (dense + tanh), DistilBERT's pre_classifier (+ ReLU)
    const bool tanh = pooler == Activation::Tanh;
    pooled_dims.back() = dim(d, "feature");
    h = rec_linear_act(r.in("pooler"), "pooler_pre", "pooler", pooled_dims, "Pooler: dense layer on the first token",
                       "u = h W^{p} + b^{p}", h, "W_p", "b_p", pooler,
                       tanh ? "BERT's pooler: trained on next-sentence prediction, read by the classifier."
                            : "DistilBERT's pre-classifier layer.");
  }
  const Tensor logits = rec_linear(r, "logits", label_dims, "Classifier logits",
                                   "z = h W^{\\text{cls}} + b^{\\text{cls}}", h, "W", "b");
  rec_softmax(r, "probs", label_dims, "Label probabilities", logits);
}

// The masked-word head (BERT's masked-LM objective, without BERT's extra transform layer):
// every token's output scored against the token table (tied weights, no bias), then a
// softmax over the vocabulary; the loss reads the rows of the [MASK] positions.
// A checkpoint's masked-LM head (BERT, DistilBERT) first transforms each output: dense,
// activation, LayerNorm; its tied decoder then adds a bias per vocabulary entry.
void rec_masked_lm(Rec r, Tensor out, int T) {
  const int d = r.model.config.d_model, V = static_cast<int>(r.trace.text.vocab.size());
  const bool transform = r.model.arch.mlm_transform;
  const Dims rows = per_token(r, T, dim(d, "feature"));
  if (transform) {
    Rec in_head = r;
    in_head.place = {"masked_lm", -1, "transform", -1};
    const Tensor u = rec_linear_act(in_head, "transform_pre", "transform_act", rows, "Masked-LM head: dense layer",
                                    "U = H W^{t} + b^{t}", out, "W_t", "b_t", r.model.config.activation,
                                    "The head's own layer before it scores the vocabulary.");
    out = rec_layernorm(in_head, "transform_ln", "", rows, "Masked-LM head: LayerNorm", u,
                        {in_head.place, "transform_ln", {}});
  }
  r.place = {"masked_lm", -1, "projection", -1};
  const Dims vocab_dims = per_token(r, T, dim(V, "vocab", "vocab"));
  std::vector<std::string> inputs{out.id, "embedding_table"};
  if (transform) inputs.push_back(param_id({r.place, "", "b"}));
  Step& step = r.trace.add(step_id(r.place, "logits"), "logits", vocab_dims, r.place,
                           "Masked-word logits over the vocabulary", transform ? "z = U E^{\\top} + b" : "z = H E^{\\top}",
                           "logits", inputs,
                           "Each token's output against every row of the token table (weight tying); the rows at "
                           "[MASK] positions are the guesses.");
  const Tensor logits{step.id, step.data.data()};
  const Param& E = r.model.at("embedding_table");
  param_scores(step.data.data(), V, out.data, d, E, r.B * T, 0, V);
  if (transform) {
    const float* b = r.model.at(inputs.back()).f32();
    for (std::size_t i = 0; i < static_cast<std::size_t>(r.B) * T; ++i)
      for (int v = 0; v < V; ++v) step.data[i * V + v] += b[v];
  }
  intervene(r.trace, logits.id);
  rec_softmax(r.in("softmax"), "probs", vocab_dims, "Masked-word probabilities", logits,
              "Row t is the model's distribution for the word at position t.");
}

// A causal language model's head (GPT-2): every position's output against the token table
// (tied weights, no bias), then the next-token softmax. The same steps as an encoder–decoder's
// output projection ("logits", "probs" at the output), over the source tokens.
void rec_lm_head(Rec r, const Tensor& out, int T) {
  const int d = r.model.config.d_model, V = static_cast<int>(r.trace.text.vocab.size());
  r.place = {"output", -1, "projection", -1};
  const Dims vocab_dims = per_token(r, T, dim(V, "vocab", "vocab"));
  const bool own = r.model.arch.untied_head;
  float* logits = r.trace.add("logits", "logits", vocab_dims, r.place, "Output logits over the vocabulary",
                              own ? "z = H W_{\\text{head}}^{\\top}" : "z = H E^{\\top}", "logits",
                              {out.id, own ? "lm_head" : "embedding_table"},
                              own ? "The LM head has weights of its own (not tied to the token table)."
                                  : "The LM head shares the token table (weight tying).")
                      .data.data();
  const Param& E = r.model.at(own ? "lm_head" : "embedding_table");
  const int rows = r.model.head_last_row_only ? 1 : r.B * T, skip = r.B * T - rows;
  param_scores(logits + static_cast<std::size_t>(skip) * V, V, out.data + static_cast<std::size_t>(skip) * d, d, E, rows, 0, V);
  rec_softmax(r.in("softmax"), "probs", vocab_dims, "Next-token probabilities", {"logits", logits},
              "Row t is the model's distribution for the token after position t.");
}

// The decoder over the first sentence's encoder output, then the tied output projection
// and the vocabulary softmax.
void rec_decoder(Rec r, const Tokens& t, const Tensor& enc) {
  const Config& c = r.model.config;
  const int S = t.S, d = c.d_model, V = static_cast<int>(r.trace.text.vocab.size());
  r.B = 1;
  r.tokens = "target";
  r.place = {"decoder", -1, "", -1};
  Tensor y = rec_embed(r, "target_", t.tgt_ids, S, "decoder_input", "target");
  const Tensor self_mask = rec_mask(r, "decoder_mask", "Causal mask (decoder)", S, "target", S, "target", {S}, true);
  const Tensor cross_mask = rec_mask(r, "cross_mask", "Cross-attention mask", S, "target", t.T, "source",
                                     {t.src_len.empty() ? t.T : t.src_len[0]}, false);
  for (int j = 0; j < c.decoder_layers; ++j) y = rec_decoder_layer(r, j, y, S, enc, t.T, self_mask, cross_mask);
  r.place = {"decoder", -1, "", -1};
  const Tensor z = rec_stack_output(r, "decoder_final_ln", "decoder_output", per_token(r, S, dim(d, "feature")), y,
                                    "Decoder output", c.decoder_layers);
  r.place = {"output", -1, "projection", -1};
  const Dims vocab_dims = per_token(r, S, dim(V, "vocab", "vocab"));
  float* logits = r.trace.add("logits", "logits", vocab_dims, r.place, "Output logits over the vocabulary", "z = Z E^{\\top}",
                              "logits", {z.id, "embedding_table"},
                              "The output projection shares the embedding table (weight tying, as in the original Transformer).")
                      .data.data();
  const Param& E = r.model.at("embedding_table");
  param_scores(logits, V, z.data, d, E, S, 0, V);
  intervene(r.trace, "logits");
  rec_softmax(r.in("softmax"), "probs", vocab_dims, "Next-token probabilities", {"logits", logits},
              "Row t is the model's distribution for the token after target position t.");
}

}  // namespace

void run(Model& m, Trace& trace) {
  validate_config(m.config);
  trace.begin();
  Tokens t = tokenize_all(m, trace.text);
  assign_ids(m, trace.text, t);
  const auto setup0 = std::chrono::steady_clock::now();
  ensure_params(m, static_cast<int>(trace.text.vocab.size()), std::max(t.T, t.S));
  trace.setup_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - setup0).count();
  apply_param_sets(m, trace);  // an intervention's parameter cells, once every parameter exists

  Rec r{trace, m, t.B, "source", {}};
  const Tensor out = rec_encoder(r, t);
  if (m.config.num_labels > 0) rec_classifier(r, out, t.T);
  if (m.config.masked_lm) rec_masked_lm(r, out, t.T);
  if (m.arch.lm_head) rec_lm_head(r, out, t.T);
  if (m.config.decoder_layers > 0) rec_decoder(r, t, out);
}

}  // namespace ew
