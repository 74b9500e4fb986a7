// session_checkpoint.cpp — the checkpoint a session holds across runs (session.h): loaded once
// from a directory (the CLI) or from files handed over as bytes (the page, staged in place),
// then every run takes its weights by move, so a text edit re-tokenizes and runs again without
// reading 440 MB or copying the weights.
//
// The weights are in exactly one place at a time: held (checkpoint_->model.params) between
// runs, next_ once loaded for a run, the run's own model while it runs, model_ after a good run
// (model_from_checkpoint_). A failed run hands them back; a cell an intervention set is put
// back to the file's value when they leave model_.
#include <utility>

#include "kernels/kernels.h"
#include "model/error.h"
#include "session/session.h"

namespace ew {

using nlohmann::json;

namespace {

// Sets the recorded cells back to their original values (Param::set: packed copies follow).
void undo_cells(std::vector<Param>& params, std::vector<std::pair<std::pair<std::string, std::size_t>, float>>& dirty) {
  for (auto it = dirty.rbegin(); it != dirty.rend(); ++it)
    for (Param& p : params) {
      if (p.id != it->first.first || it->first.second >= p.size()) continue;
      p.set(it->first.second, it->second);  // edited cells widened a 16-bit one for good (intervene.cpp)
    }
  dirty.clear();
}

// What a rotary decoder (Llama, Qwen, Gemma 3) adds to the description: the page's map and
// head picker draw grouped-query attention and the sliding layers from it. null for the others.
json decoder_info(const Model& m) {
  if (!m.arch.rms_norm) return nullptr;
  const AttnGeom g = attn_geom(m);
  return {{"kv_heads", g.KV},       {"head_dim", g.hd},           {"rope_theta", m.arch.rope_theta},
          {"rope_local_theta", m.arch.rope_local_theta}, {"rope_scaling", m.arch.rope_scaling},
          {"sliding", m.arch.sliding}, {"sliding_window", m.arch.sliding_window}, {"qk_norm", m.arch.qk_norm},
          {"sandwich_norm", m.arch.sandwich_norm}, {"untied_head", m.arch.untied_head},
          {"embed_scale", m.arch.embed_scale},
          // the gate's activation: the settings form's list (relu, gelu, gelu_new) has no SiLU
          {"activation", m.config.activation == Activation::SiLU       ? "silu"
                         : m.config.activation == Activation::GELUTanh ? "gelu_pytorch_tanh"
                                                                       : ""}};
}

json info_of(const Checkpoint& c, const json& config, std::size_t file_bytes, const std::string& name) {
  std::size_t count = 0;
  std::size_t bytes = 0;
  std::size_t half_values = 0;
  const char* half = "";
  for (const Param& p : c.model.params) {
    count += p.size(), bytes += p.bytes();
    if (p.is_half()) half_values += p.size(), half = p.dtype == Dtype::BF16 ? "bf16" : "f16";
  }
  const std::string named = config.is_object() && config.contains("_name_or_path") && config["_name_or_path"].is_string()
                                ? config["_name_or_path"].get<std::string>()
                                : "";
  return {{"name", named.empty() ? name : named},
          {"model_type", c.model.arch.model_type},
          {"architecture", c.model.arch.architecture},
          {"params", count},
          {"bytes", bytes},  // what the parameters hold: 2 a value for a 16-bit file's matrices
          // the matrices' precision in memory: "bf16" or "f16" (the file's, kept; its vectors are
          // widened), else "f32"; half_params counts the values kept 16-bit
          {"precision", half_values ? half : "f32"},
          {"half_params", half_values},
          {"file_bytes", file_bytes},
          {"num_layers", c.model.config.num_layers},
          {"d_model", c.model.config.d_model},
          {"num_heads", c.model.config.num_heads},
          {"causal", c.model.config.causal},  // a decoder (GPT-2, Llama, Qwen, Gemma): the page's text and Generate
          {"vocab_size", c.model.vocab.size()},
          {"tokenizer", c.tokenizer.source()},
          {"notes", c.model.arch.notes},
          {"decoder", decoder_info(c.model)}};
}

}  // namespace

void Session::release_checkpoint() {
  if (model_from_checkpoint_) {  // the trace on screen is the old checkpoint's: it goes with it
    model_ = Model{};
    trace_ = Trace{};
    good_ = ok_ = false;
    model_from_checkpoint_ = false;
  }
  if (next_from_checkpoint_) {
    next_ = Model{};
    next_ready_ = next_from_checkpoint_ = false;
  }
  checkpoint_.reset();
  checkpoint_dir_.clear();
  checkpoint_info_ = json();
  checkpoint_dirty_.clear();
}

json Session::load_checkpoint(CheckpointFiles&& files, const std::string& name) {
  release_checkpoint();  // one checkpoint's weights in memory at a time
  std::size_t file_bytes = files.safetensors.size();
  for (const auto& shard : files.shards) file_bytes += shard.second.size();
  json config;
  try {
    config = json::parse(files.config_json);
  } catch (const json::exception&) {
    // ew::load_checkpoint says what is wrong with it
  }
  auto c = std::make_unique<Checkpoint>(ew::load_checkpoint(std::move(files)));
  checkpoint_info_ = info_of(*c, config, file_bytes, name);
  checkpoint_ = std::move(c);
  return checkpoint_info_;
}

static std::string* staged_text(CheckpointFiles& staged, const std::string& file) {
  TokenizerFileSet& t = staged.tokenizer;
  return file == "config.json"             ? &staged.config_json
         : file == "model.safetensors.index.json" ? &staged.safetensors_index_json
         : file == "tokenizer.json"        ? &t.tokenizer_json
         : file == "vocab.txt"             ? &t.vocab_txt
         : file == "vocab.json"            ? &t.vocab_json
         : file == "merges.txt"            ? &t.merges_txt
         : file == "tokenizer_config.json" ? &t.tokenizer_config_json
                                           : nullptr;
}

static const char* kNotAFile =
    ": not a checkpoint file (config.json, model.safetensors or model.safetensors.index.json and its "
    "*.safetensors shards, tokenizer.json, vocab.txt, vocab.json, merges.txt, tokenizer_config.json)";

// One shard of a sharded checkpoint: a *.safetensors file other than model.safetensors (the
// index's weight_map names it; load_staged_checkpoint checks that every one it names arrived).
static bool is_shard(const std::string& f) {
  static const std::string ext = ".safetensors";
  return f != "model.safetensors" && f.size() > ext.size() && f.find('/') == std::string::npos &&
         f.compare(f.size() - ext.size(), ext.size(), ext) == 0;
}
static HeapBytes* staged_shard(CheckpointFiles& staged, const std::string& file) {
  for (auto& [name, bytes] : staged.shards)
    if (name == file) return &bytes;
  return nullptr;
}

Session::StagedBuffer Session::stage_checkpoint_file_view(const std::string& file) {
  if (file == "model.safetensors") return {staged_.safetensors.data(), staged_.safetensors.size()};
  if (HeapBytes* b = is_shard(file) ? staged_shard(staged_, file) : nullptr) return {b->data(), b->size()};
  std::string* slot = staged_text(staged_, file);
  if (!slot) throw Error(file + kNotAFile);
  return {reinterpret_cast<std::uint8_t*>(slot->data()), slot->size()};
}

Session::StagedBuffer Session::stage_checkpoint_file(const std::string& file, std::size_t size) {
  if (file == "model.safetensors") {
    release_checkpoint();  // room for the new weights before they arrive
    staged_.safetensors = HeapBytes();
    staged_.safetensors = HeapBytes(size);
  } else if (is_shard(file)) {
    if (staged_.shards.empty()) release_checkpoint();  // room for the new weights
    if (HeapBytes* b = staged_shard(staged_, file)) *b = HeapBytes();
    else staged_.shards.emplace_back(file, HeapBytes());
    *staged_shard(staged_, file) = HeapBytes(size);
  } else {
    std::string* slot = staged_text(staged_, file);
    if (!slot) throw Error(file + kNotAFile);
    *slot = std::string();
    slot->resize(size);
  }
  return stage_checkpoint_file_view(file);
}

json Session::load_staged_checkpoint(const std::string& name) {
  CheckpointFiles files = std::exchange(staged_, CheckpointFiles{});
  if (files.config_json.empty()) throw Error("config.json: missing (a checkpoint needs config.json and model.safetensors)");
  if (!files.safetensors_index_json.empty() && files.safetensors.empty()) {  // sharded: every named shard staged
    for (const std::string& name : shard_names(files.safetensors_index_json))
      if (!staged_shard(files, name)) throw Error(name + ": missing (model.safetensors.index.json names it)");
    return load_checkpoint(std::move(files), name);
  }
  if (files.safetensors.empty()) throw Error("model.safetensors: missing (a checkpoint needs config.json and model.safetensors)");
  return load_checkpoint(std::move(files), name);
}

void Session::reclaim_checkpoint_params() {
  if (next_from_checkpoint_ && checkpoint_) {  // loaded for a run that never came
    std::vector<Param>& home = model_from_checkpoint_ ? model_.params : checkpoint_->model.params;
    home = std::move(next_.params);
    next_from_checkpoint_ = next_ready_ = false;
  }
}

void Session::return_checkpoint_params(Model& failed) {
  if (!checkpoint_) return;
  undo_cells(failed.params, checkpoint_dirty_);
  (model_from_checkpoint_ ? model_.params : checkpoint_->model.params) = std::move(failed.params);
}

void Session::note_checkpoint_cells(const Model& model, const Interventions& iv) {
  for (const ParamSet& ps : iv.params)
    if (const Param* p = model.find(ps.id); p && ps.offset < p->size())
      checkpoint_dirty_.push_back({{ps.id, ps.offset}, p->at(ps.offset)});
}

void Session::undo_checkpoint_cells(std::vector<Param>& params) { undo_cells(params, checkpoint_dirty_); }

void Session::load_checkpoint_model(const ModelSource& source) {
  if (source.text2 && source.ids) throw Error("give a second sentence as text (--text2) or everything as --ids, not both");
  if (!source.value.empty() && (!checkpoint_ || checkpoint_dir_ != source.value)) {
    load_checkpoint(read_checkpoint_dir(source.value), source.value);
    checkpoint_dir_ = source.value;
  }
  if (!checkpoint_) throw Error("no checkpoint is open: open its files first (config.json, model.safetensors, tokenizer)");
  Checkpoint& c = *checkpoint_;
  Model m;
  {
    std::vector<Param> held = std::move(c.model.params);  // the shell, never the weights, is copied
    m = c.model;
    c.model.params = std::move(held);
  }
  m.text = source.text.value_or(source.ids ? "" : "Hello world.");
  m.text2 = source.text2.value_or("");
  m.tokens = checkpoint_tokens(c, m.text, m.text2, source.ids ? &*source.ids : nullptr);
  std::vector<Param>& home = model_from_checkpoint_ ? model_.params : c.model.params;
  undo_cells(home, checkpoint_dirty_);
  m.params = std::move(home);
  next_ = std::move(m);
  next_from_checkpoint_ = next_ready_ = true;
}

}  // namespace ew
