// masked_words.cpp — the masked-words task: corpus files, the learned BPE vocabulary, the
// deterministic masking, training through the recorded pass, and held-out top-1/top-5
// against a unigram baseline (masked_words.h).
#include "trace/forward.h"
#include "train/masked_words.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <unordered_set>

#include "model/config_schema.h"
#include "model/error.h"
#include "model/params.h"
#include "trace/backward.h"
#include "train/optim.h"

namespace ew {

namespace {

const char* const kSpecials[] = {"<pad>", "<s>", "</s>", "<unk>", "[MASK]"};

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
std::uint64_t hash3(std::uint64_t a, std::uint64_t b, std::uint64_t c) { return mix(mix(mix(a) ^ b) ^ c); }

std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream in(path);
  if (!in)
    throw Error("cannot read \"" + path + "\": write the corpus first with node scripts/extract-corpus.mjs");
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(line);
  if (out.empty()) throw Error("\"" + path + "\" has no sentences");
  return out;
}

std::vector<std::string> corpus_words(const std::vector<std::string>& sentences) {
  std::vector<std::string> words;
  for (const std::string& s : sentences)
    for (auto& w : tokenize_regex(s)) words.push_back(std::move(w));
  return words;
}

// Config and seeded parameters of a fresh model (pre-norm, GELU, as Trainer's models).
Model initial_model(const MaskedOptions& o, const MaskedVocab& v) {
  Model m;
  Config& c = m.config;
  c.d_model = o.d_model, c.num_heads = o.num_heads, c.d_ff = o.d_ff, c.num_layers = o.num_layers;
  c.norm = NormOrder::Pre;
  c.activation = Activation::GELU;
  c.tokenizer = TokenizerKind::Bpe;
  c.masked_lm = true;
  c.max_tokens = 256;
  c.seed = o.seed;
  validate_config(c);
  m.vocab = v.tokens;
  for (const BpeMerge& mg : v.bpe.merges) m.merges.push_back(mg.pair);
  Param E{"embedding_table", xt::xarray<float>::from_shape({v.tokens.size(), static_cast<std::size_t>(c.d_model)}), {}, {}, {}};
  for (std::size_t i = 0; i < v.tokens.size(); ++i) {
    float* row = E.value.data() + i * c.d_model;
    seeded_embedding_row(row, o.seed, v.tokens[i], c.d_model);
    for (int k = 0; k < c.d_model; ++k) row[k] *= 0.1f;
  }
  m.params.push_back(std::move(E));
  m.user_embedding = true;
  return m;
}

void set_example(Model& m, const MaskedExample& ex) {
  m.text = ex.text;
  m.mask_targets = ex.targets;
}

}  // namespace

MaskedCorpus read_masked_corpus(const std::string& dir) {
  return {read_lines(dir + "/sotu-train.txt"), read_lines(dir + "/sotu-heldout.txt")};
}

MaskedVocab learn_masked_vocab(const std::vector<std::string>& train, int merges) {
  MaskedVocab v;
  v.bpe = bpe_learn(corpus_words(train), merges);
  std::map<std::string, long> freq;
  for (const auto& [word, f] : v.bpe.final_vocab)
    for (const std::string& tok : tokenize_whitespace(word)) freq[tok] += f;
  std::vector<std::pair<long, std::string>> order;
  for (const auto& [tok, f] : freq) order.emplace_back(-f, tok);
  std::sort(order.begin(), order.end());
  for (const char* s : kSpecials) v.tokens.push_back(s);
  for (const auto& [f, tok] : order) v.tokens.push_back(tok);
  return v;
}

MaskableWords maskable_words(const Model& m, const MaskedCorpus& corpus) {
  BpeModel bpe;
  for (const auto& p : m.merges) bpe.merges.push_back(BpeMerge{p, 0, {}, {}});
  std::unordered_set<std::string> seen, vocab(m.vocab.begin(), m.vocab.end());
  std::vector<std::string> words;
  for (const auto* part : {&corpus.train, &corpus.heldout})
    for (const std::string& s : *part)
      for (auto& w : tokenize_regex(s))
        if (seen.insert(w).second) words.push_back(std::move(w));
  // One call encodes every word; a word's last token is the only one ending in </w>.
  const std::vector<std::string> toks = bpe_encode(bpe, words);
  MaskableWords out;
  std::size_t k = 0;
  for (const std::string& w : words) {
    std::size_t n = 0;
    while (toks[k + n].size() < 4 || toks[k + n].compare(toks[k + n].size() - 4, 4, "</w>") != 0) ++n;
    if (n == 0 && vocab.count(toks[k])) out.token.emplace(w, toks[k]);
    k += n + 1;
  }
  return out;
}

bool masked_example(MaskedExample& out, const std::string& sentence, const MaskableWords& w, std::uint64_t seed,
                    std::uint64_t index) {
  const std::vector<std::string> words = tokenize_regex(sentence);
  std::vector<std::size_t> candidates;
  for (std::size_t i = 0; i < words.size(); ++i)
    if (w.token.count(words[i])) candidates.push_back(i);
  if (candidates.empty()) return false;
  std::vector<bool> hide(words.size(), false);
  bool any = false;
  for (std::size_t i : candidates)
    any |= hide[i] = hash3(seed, index, i) % 1000 < 150;
  if (!any) hide[candidates[hash3(seed, index, 999983) % candidates.size()]] = true;
  out = {};
  for (std::size_t i = 0; i < words.size(); ++i) {
    out.text += (i ? " " : "") + (hide[i] ? std::string("[MASK]") : words[i]);
    if (hide[i]) out.targets.push_back(w.token.at(words[i]));
  }
  return true;
}

MaskedExample training_example(const MaskedCorpus& corpus, const MaskableWords& w, std::uint64_t seed,
                               std::uint64_t index) {
  MaskedExample ex;
  for (std::uint64_t attempt = 0;; ++attempt) {
    const std::uint64_t h = hash3(seed, index, 0x5e17e9ce + attempt);
    if (masked_example(ex, corpus.train[h % corpus.train.size()], w, seed, h)) return ex;
    if (attempt > 1000) throw Error("the training corpus has no maskable words");
  }
}

std::vector<std::vector<std::pair<std::string, float>>> mask_fills(const Trace& trace, int k) {
  const Step& p = trace.at("mlm.probs");
  const auto& src = trace.text.source_tokens;
  const int V = p.shape.back();
  std::size_t T = 0;
  for (const auto& s : src) T = std::max(T, s.size());
  std::vector<std::vector<std::pair<std::string, float>>> out;
  for (std::size_t b = 0; b < src.size(); ++b)
    for (std::size_t i = 0; i < src[b].size(); ++i) {
      if (src[b][i] != "[MASK]") continue;
      const float* row = p.data.data() + (b * T + i) * V;
      std::vector<int> idx(V);
      for (int v = 0; v < V; ++v) idx[v] = v;
      const int kk = std::min(k, V);
      std::partial_sort(idx.begin(), idx.begin() + kk, idx.end(), [&](int a, int c) { return row[a] > row[c] || (row[a] == row[c] && a < c); });
      std::vector<std::pair<std::string, float>> fills;
      for (int j = 0; j < kk; ++j) fills.emplace_back(trace.text.vocab[idx[j]], row[idx[j]]);
      out.push_back(std::move(fills));
    }
  return out;
}

MaskedScore score_masked(Model& m, const MaskedCorpus& corpus, std::uint64_t seed, int n,
                         const std::function<void(int)>& progress) {
  if (!m.config.masked_lm) throw Error("this model has no masked-word head (config.masked_lm is false)");
  const MaskableWords w = maskable_words(m, corpus);
  std::unordered_map<std::string, long> freq;
  for (std::uint64_t i = 0; i < 20000; ++i)
    for (const auto& t : training_example(corpus, w, seed, i).targets) ++freq[t];
  std::vector<std::pair<long, std::string>> top;
  for (const auto& [t, f] : freq) top.emplace_back(-f, t);
  std::sort(top.begin(), top.end());
  top.resize(std::min<std::size_t>(top.size(), 5));
  MaskedScore s;
  Trace trace;
  const Model saved = m;
  for (int i = 0, done = 0; i < static_cast<int>(corpus.heldout.size()) && done < n; ++i) {
    MaskedExample ex;
    if (!masked_example(ex, corpus.heldout[i], w, seed, static_cast<std::uint64_t>(i))) continue;
    set_example(m, ex);
    run(m, trace);
    const auto fills = mask_fills(trace, 5);
    for (std::size_t j = 0; j < fills.size(); ++j) {
      const std::string& want = ex.targets[j];
      s.masks += 1;
      s.top1 += fills[j][0].first == want;
      for (const auto& f : fills[j]) s.top5 += f.first == want;
      s.unigram_top1 += top[0].second == want;
      for (const auto& u : top) s.unigram_top5 += u.second == want;
    }
    if (progress) progress(++done);
  }
  m.text = saved.text, m.mask_targets = saved.mask_targets;
  if (s.masks == 0) throw Error("no held-out sentence has a maskable word");
  for (double* x : {&s.top1, &s.top5, &s.unigram_top1, &s.unigram_top5}) *x /= static_cast<double>(s.masks);
  return s;
}

Model train_masked_words(const MaskedOptions& o, const MaskedCorpus& corpus,
                         const std::function<void(int, double)>& report) {
  Model m = initial_model(o, learn_masked_vocab(corpus.train, o.merges));
  const MaskableWords w = maskable_words(m, corpus);
  AdamWConfig a;
  a.lr = o.lr;
  a.warmup_steps = std::min(o.warmup, o.steps);
  a.total_steps = o.steps;
  a.min_lr_ratio = 0.1;
  a.weight_decay = 0.01;
  a.clip_norm = 1.0;
  AdamW opt(a);
  Trace trace;
  set_example(m, training_example(corpus, w, o.seed, 0));
  run(m, trace);  // creates every parameter
  std::vector<std::vector<float>> grads;
  for (const Param& p : m.params) grads.emplace_back(p.value.size(), 0.0f);
  std::uint64_t drawn = 0;
  for (int step = 1; step <= o.steps; ++step) {
    for (auto& g : grads) std::fill(g.begin(), g.end(), 0.0f);
    double loss = 0;
    for (int b = 0; b < o.batch; ++b) {
      set_example(m, training_example(corpus, w, o.seed, drawn++));
      run(m, trace);
      run_backward(m, trace, /*activations=*/false);
      loss += trace.at("loss").data[0];
      for (std::size_t k = 0; k < m.params.size(); ++k)
        if (const Step* g = trace.find("grad." + m.params[k].id))
          for (std::size_t i = 0; i < g->size(); ++i) grads[k][i] += g->data[i] / static_cast<float>(o.batch);
    }
    std::vector<ParamSlot> slots;
    for (std::size_t k = 0; k < m.params.size(); ++k)
      slots.push_back({m.params[k].value.data(), grads[k].data(), m.params[k].value.size(), m.params[k].value.dimension() == 2});
    const AdamWStepInfo info = opt.step(slots);
    if (!std::isfinite(info.grad_norm) || !std::isfinite(loss))
      throw Error("training stopped at step " + std::to_string(step) + ": the loss or gradient is not finite");
    for (Param& p : m.params) p.packed.data.clear();  // repacked by the next run
    if (report) report(step, loss / o.batch);
  }
  m.mask_targets.clear();
  m.text = "the [MASK] of the union .";
  return m;
}

}  // namespace ew
