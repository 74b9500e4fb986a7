// masked_words.cpp — the masked-words task: corpus files, the learned BPE vocabulary, the
// deterministic masking, the Task around a corpus, and held-out top-1/top-5 against a unigram
// baseline (masked_words.h).
#include "trace/forward.h"
#include "train/masked_words.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <unordered_set>

#include "model/error.h"
#include "train/train.h"

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

void set_example(Model& m, const Example& ex) {
  m.text = ex.source;
  m.mask_targets = ex.mask_targets;
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

MaskableWords maskable_words(const std::vector<std::pair<std::string, std::string>>& merges,
                             const std::vector<std::string>& vocabulary, const MaskedCorpus& corpus) {
  BpeModel bpe;
  for (const auto& p : merges) bpe.merges.push_back(BpeMerge{p, 0, {}, {}});
  std::unordered_set<std::string> seen, vocab(vocabulary.begin(), vocabulary.end());
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

MaskableWords maskable_words(const Model& m, const MaskedCorpus& corpus) {
  return maskable_words(m.merges, m.vocab, corpus);
}

bool masked_example(Example& out, const std::string& sentence, const MaskableWords& w, std::uint64_t seed,
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
    out.source += (i ? " " : "") + (hide[i] ? std::string("[MASK]") : words[i]);
    if (hide[i]) out.mask_targets.push_back(w.token.at(words[i]));
  }
  return true;
}

Example training_example(const MaskedCorpus& corpus, const MaskableWords& w, std::uint64_t seed, std::uint64_t index) {
  Example ex;
  for (std::uint64_t attempt = 0;; ++attempt) {
    const std::uint64_t h = hash3(seed, index, 0x5e17e9ce + attempt);
    if (masked_example(ex, corpus.train[h % corpus.train.size()], w, seed, h)) return ex;
    if (attempt > 1000) throw Error("the training corpus has no maskable words");
  }
}

MaskedWordsTask::MaskedWordsTask(MaskedCorpus corpus, int merges) : corpus_(std::move(corpus)) {
  MaskedVocab v = learn_masked_vocab(corpus_.train, merges);
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const BpeMerge& mg : v.bpe.merges) pairs.push_back(mg.pair);
  build(std::move(pairs), std::move(v.tokens));
}

MaskedWordsTask::MaskedWordsTask(MaskedCorpus corpus, const Model& m) : corpus_(std::move(corpus)) {
  if (!m.config.masked_lm) throw Error("this model has no masked-word head (config.masked_lm is false)");
  build(m.merges, m.vocab);
}

void MaskedWordsTask::build(std::vector<std::pair<std::string, std::string>> merges, std::vector<std::string> vocab) {
  words_ = maskable_words(merges, vocab, corpus_);
  Example probe;
  for (std::size_t i = 0; i < corpus_.heldout.size(); ++i)
    if (masked_example(probe, corpus_.heldout[i], words_, 0, i)) maskable_heldout_.push_back(i);
  task_.name = kMaskedWordsTask;
  task_.description = "Masked words of the State of the Union addresses (BPE vocabulary learned on the training split)";
  task_.vocab = std::move(vocab);
  task_.merges = std::move(merges);
  task_.tokenizer = TokenizerKind::Bpe;
  task_.masked_lm = true;
  task_.max_tokens = 256;
  task_.held_out_size = maskable_heldout_.size();
  task_.sample = [this](std::uint64_t seed, std::uint64_t index, Split split) {
    if (split == Split::Train) return training_example(corpus_, words_, seed, index);
    if (index >= maskable_heldout_.size())
      throw Error("the held-out corpus has only " + std::to_string(maskable_heldout_.size()) +
                  " sentences with a maskable word");
    Example ex;
    masked_example(ex, corpus_.heldout[maskable_heldout_[index]], words_, seed, maskable_heldout_[index]);
    return ex;
  };
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

namespace {

// The 5 most frequent mask targets of the first 20,000 training examples, most frequent first.
std::vector<std::string> unigram_top5(const Task& task, std::uint64_t seed) {
  std::unordered_map<std::string, long> freq;
  for (std::uint64_t i = 0; i < 20000; ++i)
    for (const auto& t : task.sample(seed, i, Split::Train).mask_targets) ++freq[t];
  std::vector<std::pair<long, std::string>> top;
  for (const auto& [t, f] : freq) top.emplace_back(-f, t);
  std::sort(top.begin(), top.end());
  top.resize(std::min<std::size_t>(top.size(), 5));
  std::vector<std::string> out;
  for (const auto& [f, t] : top) out.push_back(t);
  return out;
}

}  // namespace

MaskedScore score_masked(Model& m, const MaskedWordsTask& t, std::uint64_t seed, int n,
                         const std::function<void(int)>& progress) {
  if (!m.config.masked_lm) throw Error("this model has no masked-word head (config.masked_lm is false)");
  const Task& task = t.task();
  const std::vector<std::string> top = unigram_top5(task, seed);
  MaskedScore s;
  Trace trace;
  const Model saved = m;
  n = static_cast<int>(std::min<std::uint64_t>(static_cast<std::uint64_t>(std::max(n, 0)), task.held_out_size));
  for (int i = 0; i < n; ++i) {
    const Example ex = task.sample(seed, static_cast<std::uint64_t>(i), Split::HeldOut);
    set_example(m, ex);
    run(m, trace);
    const auto fills = mask_fills(trace, 5);
    for (std::size_t j = 0; j < fills.size(); ++j) {
      const std::string& want = ex.mask_targets[j];
      s.masks += 1;
      s.top1 += fills[j][0].first == want;
      for (const auto& f : fills[j]) s.top5 += f.first == want;
      s.unigram_top1 += top[0] == want;
      for (const auto& u : top) s.unigram_top5 += u == want;
    }
    if (progress) progress(i + 1);
  }
  m.text = saved.text, m.mask_targets = saved.mask_targets;
  if (s.masks == 0) throw Error("no held-out sentence has a maskable word");
  for (double* x : {&s.top1, &s.top5, &s.unigram_top1, &s.unigram_top5}) *x /= static_cast<double>(s.masks);
  return s;
}

MaskedScore score_masked(Model& m, const MaskedCorpus& corpus, std::uint64_t seed, int n,
                         const std::function<void(int)>& progress) {
  const MaskedWordsTask t(corpus, m);
  return score_masked(m, t, seed, n, progress);
}

Model train_masked_words(const TrainOptions& o, const MaskedCorpus& corpus,
                         const std::function<void(int, double)>& report) {
  TrainOptions to = o;
  to.task = kMaskedWordsTask;
  const MaskedWordsTask task(corpus, to.merges);
  Trainer t(to, task.task());
  for (int step = 1; step <= to.steps; ++step) {
    const double loss = t.step();
    if (report) report(step, loss);
  }
  Model m = t.model();
  m.mask_targets.clear();
  m.text = "the [MASK] of the union .";
  return m;
}

}  // namespace ew
