// checkpoint.cpp — a Hugging Face checkpoint's files into a Model (checkpoint.h).
#include "io/checkpoint.h"
#include <algorithm>
#include <cmath>
#include <cstring>

#include <fstream>
#include <set>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "io/hf_keys.h"
#include "io/safetensors.h"
#include "model/config_schema.h"
#include "model/error.h"
#include "model/params.h"

namespace ew {

using nlohmann::json;

namespace {

// A file's bytes in one buffer of its size (Bytes: std::string or HeapBytes).
template <class Bytes>
Bytes read_file(const std::string& path, const char* name) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error(std::string(name) + ": missing (looked for " + path + ")");
  f.seekg(0, std::ios::end);  // one buffer of the file's size: no stream growing to twice it
  const std::streamoff size = f.tellg();
  f.seekg(0, std::ios::beg);
  if (size < 0) throw Error(std::string(name) + ": cannot be read (" + path + ")");
  Bytes bytes;
  if constexpr (std::is_same_v<Bytes, std::string>) bytes.resize(static_cast<std::size_t>(size));
  else bytes = Bytes(static_cast<std::size_t>(size));
  if (size > 0 && !f.read(reinterpret_cast<char*>(bytes.data()), size))
    throw Error(std::string(name) + ": cannot be read (" + path + ")");
  return bytes;
}

// The names a binding's tensor may have in the file, in order of preference.
std::vector<std::string> candidates(const Binding& b, const std::string& prefix) {
  std::vector<std::string> stems{b.key};
  const auto ends = [&](const std::string& tail) {
    return b.key.size() >= tail.size() && b.key.compare(b.key.size() - tail.size(), tail.size(), tail) == 0;
  };
  const std::string stem = b.key.substr(0, b.key.rfind('.'));
  const bool gamma = b.param.size() > 5 && b.param.compare(b.param.size() - 5, 5, "gamma") == 0;
  const bool beta = b.param.size() > 4 && b.param.compare(b.param.size() - 4, 4, "beta") == 0;
  if (gamma && ends(".weight")) stems.push_back(stem + ".gamma");  // old BERT files: LayerNorm.gamma / .beta
  if (beta && ends(".bias")) stems.push_back(stem + ".beta");
  if (b.key == "cls.predictions.bias") stems.push_back("cls.predictions.decoder.bias");
  std::vector<std::string> out;
  for (const auto& s : stems) {
    if (b.base) out.push_back(prefix + s);
    out.push_back(s);
  }
  return out;
}

// Elements first … first+n−1 of a 16-bit tensor as they are (little-endian on disk); a value
// that is not finite is the same ew::Error as when widening (tensor_value names the index).
void tensor_halves(const SafeTensorsIndex& index, const TensorEntry& e, std::size_t first, std::size_t n,
                   std::uint16_t* out) {
  const std::uint8_t* q = index.data + e.begin + first * 2;
  const std::uint16_t exp = e.dtype == DiskType::BF16 ? 0x7F80u : 0x7C00u;  // all ones: ±inf, NaN
  for (std::size_t i = 0; i < n; ++i, q += 2) {
    out[i] = static_cast<std::uint16_t>(q[0] | q[1] << 8);
    if ((out[i] & exp) == exp) (void)tensor_value(index, e, first + i);  // throws
  }
}

// rows × cols elements of a table or vector (row stride `stride`, from column col0) into out as
// they are. `read(first, n, dst)` reads n elements as T (widened floats, or 16-bit as they are).
// (A matmul weight, transposed or not, goes through pack_rows below.)
template <class T, class Read>
void place_rows(T* out, std::size_t rows, std::size_t cols, std::size_t stride, std::size_t col0, const Read& read) {
  for (std::size_t r = 0; r < rows; ++r) read(r * stride + col0, cols, out + r * cols);
}

// A matmul weight straight into the kernels' panels (kernels.h,
// ew_packed_index), 32 of the file's rows at a time — rows of our in×out matrix as they are
// (Conv1D), or its columns ([out, in], Layout::Linear): `pack(block, first, n)` puts them there.
// The weight is never held row-major.
template <class T, class Read, class Pack>
void pack_rows(std::size_t rows, std::size_t cols, std::size_t stride, std::size_t col0, const Read& read, const Pack& pack) {
  constexpr std::size_t kRows = 32;
  std::vector<T> block(kRows * cols);
  for (std::size_t r0 = 0; r0 < rows; r0 += kRows) {
    const std::size_t n = std::min(kRows, rows - r0);
    for (std::size_t i = 0; i < n; ++i) read((r0 + i) * stride + col0, cols, &block[i * cols]);
    pack(block.data(), static_cast<int>(r0), static_cast<int>(n));
  }
}

// The binding's tensor into our parameter's layout (transposed, or one part of c_attn): a
// matrix or table of an F16/BF16 file stays 16-bit (model.h, Param); an F32 file's matmul
// weights are packed (Param::packed only); vectors, and an F32 file's tables, are float32.
Param decode(const SafeTensorsIndex& index, const TensorEntry& e, const Binding& b) {
  const std::size_t rows = e.shape.size() == 1 ? 1 : e.shape[0], cols = e.shape.back() / b.parts;
  const std::size_t col0 = cols * b.part, stride = e.shape.back();
  std::vector<std::size_t> shape;
  if (b.layout == Layout::Vector) shape = {cols};
  else if (b.layout == Layout::Linear) shape = {cols, rows};
  else shape = {rows, cols};
  const bool transpose = b.layout == Layout::Linear;
  Param p;
  p.id = b.param;
  if (shape.size() == 2 && (e.dtype == DiskType::F16 || e.dtype == DiskType::BF16)) {
    p.value = xt::xarray<float>::from_shape({0});  // no float32 numbers (a default xarray holds one)
    p.dtype = e.dtype == DiskType::BF16 ? Dtype::BF16 : Dtype::F16;
    p.half_shape = shape;
    auto read = [&](std::size_t first, std::size_t n, std::uint16_t* dst) { tensor_halves(index, e, first, n, dst); };
    if (b.layout == Layout::Linear || b.layout == Layout::Conv1D) {  // a matmul weight: into the panels, 16-bit
      const int K = static_cast<int>(shape[0]), N = static_cast<int>(shape[1]);
      p.half = HalfBuffer(ew_f32_packed_floats(K, N));
      std::fill(p.half.data(), p.half.data() + p.half.size(), std::uint16_t{0});  // the padding: +0
      p.half_packed = true;
      pack_rows<std::uint16_t>(rows, cols, stride, col0, read, [&](const std::uint16_t* block, int first, int n) {
        if (transpose) ew_h16_pack_bt_rows(p.half.data(), K, N, block, static_cast<int>(cols), first, n);
        else ew_h16_pack_b_rows(p.half.data(), K, N, block, static_cast<int>(cols), first, n);
      });
      return p;
    }
    p.half = HalfBuffer(rows * cols);
    place_rows(p.half.data(), rows, cols, stride, col0, read);
    return p;
  }
  if (b.layout == Layout::Linear || b.layout == Layout::Conv1D) {  // an F32 matmul weight: packed as it is decoded
    p.value = xt::xarray<float>::from_shape({0});
    ew_f32_pack_b_init(&p.packed, static_cast<int>(shape[0]), static_cast<int>(shape[1]));
    pack_rows<float>(rows, cols, stride, col0,
              [&](std::size_t first, std::size_t n, float* dst) { tensor_values(index, e, first, n, dst); },
              [&](const float* block, int first, int n) {
                if (transpose) ew_f32_pack_bt_rows(&p.packed, block, static_cast<int>(cols), first, n);
                else ew_f32_pack_b_rows(&p.packed, block, static_cast<int>(cols), first, n);
              });
    return p;
  }
  p.value = xt::xarray<float>::from_shape(shape);
  place_rows(p.value.data(), rows, cols, stride, col0,
             [&](std::size_t first, std::size_t n, float* dst) { tensor_values(index, e, first, n, dst); });
  return p;
}

// One weights file: model.safetensors, or one shard of a sharded checkpoint.
struct Shard {
  std::string name;
  HeapBytes bytes;
  SafeTensorsIndex index;
};

// A file's first tensor, when it is a token table stored as our parameter lies ([rows, cols], no
// transposition, not a part of a fused tensor) in a float dtype, on a little-endian machine.
bool adoptable(const TensorEntry& e, const Binding& b) {
  const std::uint16_t one = 1;
  std::uint8_t low = 0;
  std::memcpy(&low, &one, 1);
  return low == 1 && e.shape.size() == 2 && b.layout == Layout::Table && b.parts == 1 &&
         (e.dtype == DiskType::F16 || e.dtype == DiskType::BF16 || e.dtype == DiskType::F32);
}

// That tensor taken over where it lies: its bytes moved to the start of the file's buffer, the
// rest of the buffer given back, and the buffer becomes the parameter's (no second copy: a
// Qwen2.5-0.5B's token table is 27% of its file, GPT-2's 28%, so copying it out would need that
// much more). The file is gone afterwards.
// The tensor's bytes moved to the start of the file's buffer, the rest given back, and the buffer
// released to the caller (the file is gone afterwards).
void* take_tensor_bytes(Shard& sh, const TensorEntry& e, std::size_t width) {
  const std::size_t data_at = static_cast<std::size_t>(sh.index.data - sh.bytes.data());
  std::uint8_t* base = sh.bytes.data();
  std::memmove(base, base + data_at + e.begin, width * e.count);
  sh.bytes.shrink(width * e.count);
  sh.index.data = nullptr;
  return sh.bytes.release();
}

Param adopt_first(Shard& sh, const TensorEntry& e, const Binding& b) {
  Param p;
  p.id = b.param;
  p.value = xt::xarray<float>::from_shape({0});
  const std::uint8_t* q = sh.index.data + e.begin;
  if (e.dtype == DiskType::F32) {
    for (std::size_t i = 0; i < e.count; ++i, q += 4) {
      float v;
      std::memcpy(&v, q, 4);
      if (!std::isfinite(v)) (void)tensor_value(sh.index, e, i);  // throws, naming the index
    }
    p.adopted_shape = {e.shape[0], e.shape[1]};
    p.adopted = FloatBuffer::adopt(take_tensor_bytes(sh, e, 4), e.count);
    return p;
  }
  const std::uint16_t exp = e.dtype == DiskType::BF16 ? 0x7F80u : 0x7C00u;
  for (std::size_t i = 0; i < e.count; ++i, q += 2)
    if (((q[0] | q[1] << 8) & exp) == exp) (void)tensor_value(sh.index, e, i);  // throws, naming the index
  p.dtype = e.dtype == DiskType::BF16 ? Dtype::BF16 : Dtype::F16;
  p.half_shape = {e.shape[0], e.shape[1]};
  p.half = HalfBuffer::adopt(take_tensor_bytes(sh, e, 2), e.count);
  return p;
}

// bytes [0, n) of the data turned around in place, in units of `unit` bytes (4 when every
// boundary allows: a float32 file's data moves a float at a time).
void reverse_units(std::uint8_t* data, std::size_t n, std::size_t unit) {
  if (unit == 4) {
    for (std::size_t i = 0, j = n - 4; n >= 8 && i < j; i += 4, j -= 4) {
      std::uint32_t a, b;
      std::memcpy(&a, data + i, 4);
      std::memcpy(&b, data + j, 4);
      std::memcpy(data + i, &b, 4);
      std::memcpy(data + j, &a, 4);
    }
    return;
  }
  std::reverse(data, data + n);
}

// Where a binding's tensor is: its shard and entry.
struct Found {
  std::size_t shard;
  const TensorEntry* e;
};

// A file whose token table is its *last* tensor (the `safetensors` library sorts tensors by name:
// GPT-2's wte.weight is last) gets its data turned so that the table comes first, where
// adopt_first takes it over: the table's bytes and everything before them rotated in place (three
// reversals, no second buffer), every entry's offset moved with them. Without it the table, decoded
// first from the end, is copied out beside the whole file (GPT-2 small: 548 + 154 MB).
void table_first(Shard& sh, std::size_t shard, const std::vector<Found>& found, const std::vector<Binding>& bindings) {
  const TensorEntry* first = nullptr;
  const TensorEntry* last = nullptr;
  std::size_t first_binding = 0, last_binding = 0;
  for (std::size_t i = 0; i < found.size(); ++i) {
    if (found[i].shard != shard) continue;
    if (!first || found[i].e->begin < first->begin) first = found[i].e, first_binding = i;
    if (!last || found[i].e->begin > last->begin) last = found[i].e, last_binding = i;
  }
  if (!last || last == first || !adoptable(*last, bindings[last_binding]) || last->begin == 0) return;
  if (adoptable(*first, bindings[first_binding]) && first->end - first->begin >= last->end - last->begin) return;
  for (std::size_t i = 0; i < found.size(); ++i)  // a tensor two bindings share (c_attn's parts) stays where it is
    if (found[i].shard == shard && found[i].e == last && i != last_binding) return;
  std::uint8_t* data = sh.bytes.data() + (sh.index.data - sh.bytes.data());
  const std::size_t before = last->begin, size = last->end - last->begin;
  const std::size_t unit = (reinterpret_cast<std::uintptr_t>(data) % 4 == 0 && before % 4 == 0 && size % 4 == 0) ? 4 : 1;
  reverse_units(data, before, unit);
  reverse_units(data + before, size, unit);
  reverse_units(data, before + size, unit);
  for (TensorEntry& e : sh.index.entries) {
    if (e.begin >= before + size) continue;  // after the table: unmoved
    if (&e == last) e.begin = 0, e.end = size;
    else e.begin += size, e.end += size;
  }
}

// Each binding's tensor in the files, its shape checked against the config.
std::vector<Found> resolve(const std::vector<Shard>& shards, const CheckpointConfig& c,
                           const std::vector<Binding>& bindings) {
  std::vector<Found> found;
  for (const Binding& b : bindings) {
    Found f{0, nullptr};
    const std::vector<std::string> names = candidates(b, c.prefix);
    for (const auto& n : names) {
      for (f.shard = 0; f.shard < shards.size() && !(f.e = shards[f.shard].index.find(n)); ++f.shard) {}
      if (f.e) break;
    }
    const std::string file = shards.size() == 1 ? shards[0].name : "model.safetensors.index.json";
    if (!f.e)
      throw Error(file + ": tensor \"" + names.front() + "\" is missing (" + c.arch.architecture + "'s " + b.param + ")");
    if (f.e->shape != b.shape)
      throw Error(shards[f.shard].name + ": tensor \"" + f.e->name + "\" has shape " + shape_str(f.e->shape) +
                  ", but config.json implies " + shape_str(b.shape) + " (" + b.param + ")");
    found.push_back(f);
  }
  return found;
}

// A tied output weight the file keeps as a copy must equal the token table's tensor (compared
// in the file, before bind() gives its bytes back).
std::set<std::string> check_tied(const std::vector<Shard>& shards, const CheckpointConfig& c, const Found& table) {
  std::set<std::string> used;
  std::vector<float> a(table.e->shape.back()), b(a.size());
  for (const std::string& key : tied_copies(c)) {
    for (const Shard& sh : shards) {
    const TensorEntry* e = sh.index.find(key);
    if (!e) continue;
    used.insert(key);
    bool same = e->count == table.e->count;
    for (std::size_t at = 0; same && at < e->count; at += a.size()) {
      tensor_values(shards[table.shard].index, *table.e, at, a.size(), a.data());
      tensor_values(sh.index, *e, at, b.size(), b.data());
      same = a == b;
    }
    if (!same)
      throw Error(sh.name + ": tensor \"" + key + "\" differs from the token table, but config.json ties the output "
                  "weights to the embeddings (tie_word_embeddings)");
    }
  }
  return used;
}

// Every binding's tensor into model.params (in the bindings' order), decoded from the end of
// each file to its start, the last shard first; behind each tensor the file gives its bytes back
// (heap_bytes.h), and a shard whose tensors are all decoded is freed, so the files and the
// weights are never both held whole. Returns the names used.
std::set<std::string> bind(Model& m, std::vector<Shard>& shards, const CheckpointConfig& c) {
  const std::vector<Binding> bindings = checkpoint_bindings(c);
  const std::vector<Found> found = resolve(shards, c, bindings);
  for (std::size_t k = 0; k < shards.size(); ++k) table_first(shards[k], k, found, bindings);
  std::set<std::string> used;
  for (std::size_t i = 0; i < bindings.size(); ++i)
    if (bindings[i].param == "embedding_table") used = check_tied(shards, c, found[i]);
  std::vector<std::size_t> order(bindings.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return found[a].shard != found[b].shard ? found[a].shard > found[b].shard : found[a].e->begin > found[b].e->begin;
  });
  std::vector<Param> values(bindings.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::size_t i = order[k];
    Shard& sh = shards[found[i].shard];
    const bool next_same = k + 1 < order.size() && found[order[k + 1]].shard == found[i].shard;
    if (!next_same && adoptable(*found[i].e, bindings[i])) {  // this file's first tensor: taken over
      values[i] = adopt_first(sh, *found[i].e, bindings[i]);
      continue;
    }
    values[i] = decode(sh.index, *found[i].e, bindings[i]);
    if (next_same && found[order[k + 1]].e->begin == found[i].e->begin) continue;  // c_attn: its three parts first
    if (!next_same) {  // this file's last tensor (the first in it): the file goes
      sh.bytes = HeapBytes();
      sh.index.data = nullptr;
      continue;
    }
    const std::size_t data_at = static_cast<std::size_t>(sh.index.data - sh.bytes.data());
    sh.bytes.shrink(data_at + found[i].e->begin);
    sh.index.data = sh.bytes.data() + data_at;
  }
  for (std::size_t i = 0; i < bindings.size(); ++i) {
    const Binding& b = bindings[i];
    const TensorEntry* e = found[i].e;
    used.insert(e->name);
    m.params.push_back(std::move(values[i]));
    if (b.parts > 1)
      m.arch.notes.push_back(b.param + ": part " + std::to_string(b.part + 1) + " of " + std::to_string(b.parts) +
                             " of the fused " + e->name + " (columns " + std::to_string(b.part * e->shape.back() / b.parts) +
                             "…" + std::to_string((b.part + 1) * e->shape.back() / b.parts - 1) + ")");
  }
  m.given_params = static_cast<int>(m.params.size());
  for (std::size_t i = 0; i < bindings.size(); ++i)  // Gemma's √d in the table's precision, as its code casts it
    if (bindings[i].param == "embedding_table" && m.arch.embed_scale > 0) {
      if (found[i].e->dtype == DiskType::BF16) m.arch.embed_scale = bf16_to_float(float_to_bf16(m.arch.embed_scale));
      if (found[i].e->dtype == DiskType::F16) m.arch.embed_scale = half_to_float(float_to_half(m.arch.embed_scale));
    }
  return used;
}

// Tensors the walkthrough does not use: known ones with their reason, others as "not used".
void note_unused(Model& m, const std::vector<Shard>& shards, const CheckpointConfig& c, const std::set<std::string>& used) {
  int buffers = 0;
  for (const Shard& sh : shards)
  for (const TensorEntry& e : sh.index.entries) {
    if (used.count(e.name)) continue;
    const std::string why = ignored_reason(e.name, c);
    if (why.rfind("a buffer", 0) == 0) {
      ++buffers;
      continue;
    }
    m.arch.notes.push_back("ignored " + e.name + ": " + (why.empty() ? "not used by " + c.arch.architecture : why));
  }
  if (buffers) m.arch.notes.push_back("ignored " + std::to_string(buffers) + " buffer tensor(s) (position_ids, attention masks)");
}

// id → token: the tokenizer's vocabulary, padded with "[id N]" up to the embedding table's rows.
std::vector<std::string> vocabulary(const CheckpointTokenizer& tok, int rows) {
  std::vector<std::string> v = tok.vocab();
  if (static_cast<int>(v.size()) > rows)
    throw Error(tok.source() + ": the vocabulary has " + std::to_string(v.size()) + " tokens, but the token table in "
                "model.safetensors has " + std::to_string(rows) + " rows");
  for (int i = static_cast<int>(v.size()); i < rows; ++i) v.push_back("[id " + std::to_string(i) + "]");
  return v;
}

// Each shard's bytes indexed (the header only); an error names the file.
std::vector<Shard> index_shards(CheckpointFiles& files) {
  std::vector<Shard> shards;
  if (files.shards.empty()) shards.push_back({"model.safetensors", std::move(files.safetensors), {}});
  for (auto& [name, bytes] : files.shards) shards.push_back({name, std::move(bytes), {}});
  for (Shard& sh : shards) {
    try {
      sh.index = index_safetensors(sh.bytes.data(), sh.bytes.size());
    } catch (const Error& e) {
      throw Error(sh.name + ": " + e.what());
    }
  }
  return shards;
}

}  // namespace

std::vector<std::string> shard_names(const std::string& index_json) {
  json j;
  try {
    j = json::parse(index_json);
  } catch (const json::exception& e) {
    throw Error(std::string("model.safetensors.index.json: not valid JSON (") + e.what() + ")");
  }
  if (!j.is_object() || !j.contains("weight_map") || !j["weight_map"].is_object())
    throw Error("model.safetensors.index.json: no \"weight_map\" object (tensor name → shard file)");
  std::vector<std::string> names;
  for (const auto& [tensor, file] : j["weight_map"].items()) {
    if (!file.is_string()) throw Error("model.safetensors.index.json: the shard of \"" + tensor.substr(0, 60) + "\" is not a file name");
    const std::string f = file.get<std::string>();
    if (f.empty() || f.find('/') != std::string::npos || f.find('\\') != std::string::npos || f.rfind(".safetensors") != f.size() - 12 || f.size() < 13)
      throw Error("model.safetensors.index.json: \"" + f.substr(0, 60) + "\" is not a .safetensors file of the same folder");
    if (std::find(names.begin(), names.end(), f) == names.end()) names.push_back(f);
  }
  if (names.empty()) throw Error("model.safetensors.index.json: \"weight_map\" names no shard");
  std::sort(names.begin(), names.end());
  return names;
}

CheckpointFiles read_checkpoint_dir(const std::string& dir) {
  const std::string d = dir.empty() || dir.back() == '/' ? dir : dir + "/";
  CheckpointFiles f;
  f.config_json = read_file<std::string>(d + "config.json", "config.json");
  if (!std::ifstream(d + "model.safetensors") && std::ifstream(d + "model.safetensors.index.json")) {
    f.safetensors_index_json = read_file<std::string>(d + "model.safetensors.index.json", "model.safetensors.index.json");
    for (const std::string& name : shard_names(f.safetensors_index_json))
      f.shards.emplace_back(name, read_file<HeapBytes>(d + name, name.c_str()));
  } else {
    f.safetensors = read_file<HeapBytes>(d + "model.safetensors", "model.safetensors");
  }
  f.tokenizer = CheckpointTokenizer::read_dir(d);
  return f;
}

Checkpoint load_checkpoint(CheckpointFiles&& files) {
  json config;
  try {
    config = json::parse(files.config_json);
  } catch (const json::exception& e) {
    throw Error(std::string("config.json: not valid JSON (") + e.what() + ")");
  }
  std::vector<Shard> shards = index_shards(files);  // given back while the weights are decoded
  std::vector<std::string> keys;
  for (const Shard& sh : shards)
    for (const TensorEntry& e : sh.index.entries) keys.push_back(e.name);
  const CheckpointConfig c = read_checkpoint_config(config, keys);
  Checkpoint out;
  Model& m = out.model;
  m.config = c.config;
  m.arch = c.arch;
  m.arch.notes = c.notes;
  m.label_names = c.labels;
  m.weights = shards.size() == 1 ? shards[0].name : "model.safetensors.index.json";
  m.pack_weights = false;  // the weights once in memory: matmuls read them in place
  try {
    validate_config(m.config);
  } catch (const Error& e) {
    throw Error(std::string("config.json: ") + e.what());
  }
  try {
    const std::set<std::string> used = bind(m, shards, c);
    note_unused(m, shards, c, used);
  } catch (const Error& e) {
    const std::string what = e.what();
    throw Error(what.rfind("model", 0) == 0 ? what : shards[0].name + ": " + what);
  }
  out.tokenizer = CheckpointTokenizer::from_files(files.tokenizer, c.arch.model_type);
  m.vocab = vocabulary(out.tokenizer, c.vocab_size);
  m.user_embedding = true;
  return out;
}

GivenTokens checkpoint_tokens(const Checkpoint& c, const std::string& text, const std::string& text2,
                              const std::vector<int>* ids) {
  GivenTokens g;
  if (!ids) {
    TokenizedText t = c.tokenizer.encode(text, text2);
    g.ids = std::move(t.ids);
    g.type_ids = std::move(t.type_ids);
    g.pieces = std::move(t.pieces);
    g.tokenizer = c.tokenizer.source();
    return g;
  }
  g.tokenizer = "ids";
  const int V = static_cast<int>(c.model.vocab.size());
  int segment = 0;
  for (std::size_t i = 0; i < ids->size(); ++i) {
    const int id = (*ids)[i];
    if (id < 0 || id >= V)
      throw Error("--ids: token id " + std::to_string(id) + " (position " + std::to_string(i) + ") is outside the " +
                  "vocabulary of " + std::to_string(V) + " tokens");
    g.ids.push_back(id);
    g.pieces.push_back(c.model.vocab[static_cast<std::size_t>(id)]);
    g.type_ids.push_back(segment);
    if (c.model.arch.type_vocab_size > 1 && c.model.vocab[static_cast<std::size_t>(id)] == "[SEP]") segment = 1;
  }
  return g;
}

}  // namespace ew
