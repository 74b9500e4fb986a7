// safetensors.cpp — strict safetensors reading and writing (safetensors.h).
#include "io/safetensors.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>

#include <nlohmann/json.hpp>

#include "model/config_schema.h"
#include "model/error.h"
#include "text/tokenizer.h"

namespace ew {

using nlohmann::json;

namespace {

constexpr std::size_t kMaxHeader = 100u << 20;  // as the reference implementation

std::uint32_t bits_of(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float float_of(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

std::string quoted(const std::string& name) { return "tensor \"" + name.substr(0, 80) + "\""; }


TensorEntry check_entry(const std::string& name, const json& v, std::size_t data_size) {
  const std::string who = quoted(name);
  if (!v.is_object()) throw Error("safetensors: " + who + " is not an object in the header");
  for (const char* k : {"dtype", "shape", "data_offsets"})
    if (!v.contains(k)) throw Error("safetensors: " + who + " has no \"" + k + "\"");
  if (v.size() != 3) throw Error("safetensors: " + who + " has keys other than dtype, shape and data_offsets");
  TensorEntry e{name, DiskType::F32, "", 0, 1, 0, 0, {}};
  const json& dt = v["dtype"];
  static const std::pair<const char*, std::size_t> kOther[] = {{"F64", 8}, {"I64", 8}, {"U64", 8}, {"I32", 4}, {"U32", 4},
                                                               {"I16", 2}, {"U16", 2}, {"I8", 1}, {"U8", 1}, {"BOOL", 1}};
  if (dt == "F32") e.dtype = DiskType::F32, e.elem = 4;
  else if (dt == "F16") e.dtype = DiskType::F16, e.elem = 2;
  else if (dt == "BF16") e.dtype = DiskType::BF16, e.elem = 2;
  else
    for (const auto& [n, size] : kOther)
      if (dt == n) e.dtype = DiskType::Other, e.elem = size;
  if (!e.elem)
    throw Error("safetensors: " + who + " has dtype " + dt.dump().substr(0, 40) +
                "; known: F32, F16, BF16 (weights), F64, I64, U64, I32, U32, I16, U16, I8, U8, BOOL (buffers)");
  e.dtype_name = dt.get<std::string>();
  const json& sh = v["shape"];
  if (!sh.is_array() || sh.size() > 8) throw Error("safetensors: " + who + " has a shape that is not a list of at most 8 sizes");
  for (const json& d : sh) {
    if (!d.is_number_unsigned() && !(d.is_number_integer() && d.get<long long>() >= 0))
      throw Error("safetensors: " + who + " has a shape entry that is not a size: " + d.dump());
    const std::uint64_t n = d.get<std::uint64_t>();
    if (n > (std::uint64_t{1} << 32) || (n && e.count > std::numeric_limits<std::size_t>::max() / n / 8))
      throw Error("safetensors: " + who + " has an impossible shape " + sh.dump());
    e.shape.push_back(static_cast<std::size_t>(n));
    e.count *= static_cast<std::size_t>(n);
  }
  const json& off = v["data_offsets"];
  if (!off.is_array() || off.size() != 2 || !off[0].is_number_unsigned() || !off[1].is_number_unsigned())
    throw Error("safetensors: " + who + " has data_offsets that are not two byte offsets: " + off.dump());
  const std::uint64_t b = off[0].get<std::uint64_t>(), en = off[1].get<std::uint64_t>();
  if (b > en || en > data_size)
    throw Error("safetensors: " + who + " has data_offsets [" + std::to_string(b) + ", " + std::to_string(en) +
                "] outside the " + std::to_string(data_size) + " bytes of data");
  e.begin = static_cast<std::size_t>(b);
  e.end = static_cast<std::size_t>(en);
  if (e.begin % e.elem)
    throw Error("safetensors: " + who + " starts at byte " + std::to_string(b) + " of the data, not a multiple of its " +
                std::to_string(e.elem) + "-byte elements (misaligned)");
  if (e.end - e.begin != e.count * e.elem)
    throw Error("safetensors: " + who + " holds " + std::to_string(e.end - e.begin) + " bytes, but its shape " + sh.dump() +
                " of " + dt.get<std::string>() + " needs " + std::to_string(e.count * e.elem));
  return e;
}

float raw_value(const std::uint8_t* q, DiskType t) {
  switch (t) {
    case DiskType::F32:
      return float_of(std::uint32_t{q[0]} | std::uint32_t{q[1]} << 8 | std::uint32_t{q[2]} << 16 | std::uint32_t{q[3]} << 24);
    case DiskType::F16: return half_to_float(static_cast<std::uint16_t>(q[0] | q[1] << 8));
    case DiskType::BF16: return bf16_to_float(static_cast<std::uint16_t>(q[0] | q[1] << 8));
    case DiskType::Other: break;
  }
  return 0.0f;
}

}  // namespace

std::uint16_t float_to_half(float f) {
  const std::uint32_t u = bits_of(f);
  const std::uint32_t sign = (u >> 16) & 0x8000u;
  const std::uint32_t abs = u & 0x7FFFFFFFu;
  if (abs >= 0x7F800000u) return static_cast<std::uint16_t>(sign | 0x7C00u | (abs > 0x7F800000u ? 0x200u : 0));
  if (abs >= 0x477FF000u) return static_cast<std::uint16_t>(sign | 0x7C00u);  // rounds past 65504: inf
  if (abs < 0x38800000u) {  // a half subnormal (or zero): scale to an integer count of 2^-24
    const float scaled = float_of(abs) * 16777216.0f;  // exact: a power of two
    return static_cast<std::uint16_t>(sign | static_cast<std::uint32_t>(std::nearbyint(scaled)));
  }
  const std::uint32_t mant = abs & 0x7FFFFFu, exp = (abs >> 23) - 112;  // rebias 127 → 15
  std::uint32_t h = (exp << 10) | (mant >> 13);
  const std::uint32_t rest = mant & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // to nearest, ties to even
  return static_cast<std::uint16_t>(sign | h);
}

float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1Fu, mant = h & 0x3FFu;
  if (exp == 0) return (sign ? -1.0f : 1.0f) * static_cast<float>(mant) * (1.0f / 16777216.0f);
  if (exp == 31) return float_of(sign | 0x7F800000u | (mant << 13));
  return float_of(sign | ((exp + 112) << 23) | (mant << 13));
}

std::uint16_t float_to_bf16(float f) {
  const std::uint32_t u = bits_of(f);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<std::uint16_t>((u >> 16) | 0x40u);  // NaN stays NaN
  return static_cast<std::uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

float bf16_to_float(std::uint16_t h) { return float_of(std::uint32_t{h} << 16); }

const TensorEntry* SafeTensorsIndex::find(const std::string& name) const {
  for (const TensorEntry& e : entries)
    if (e.name == name) return &e;
  return nullptr;
}

float tensor_value(const SafeTensorsIndex& index, const TensorEntry& e, std::size_t i) {
  if (e.dtype == DiskType::Other)
    throw Error("safetensors: " + quoted(e.name) + " has dtype \"" + e.dtype_name + "\"; weights must be F32, F16 or BF16");
  const float v = raw_value(index.data + e.begin + i * e.elem, e.dtype);
  if (!std::isfinite(v))
    throw Error("safetensors: " + quoted(e.name) + " holds a value that is not finite (at index " + std::to_string(i) + ")");
  return v;
}

void tensor_values(const SafeTensorsIndex& index, const TensorEntry& e, std::size_t first, std::size_t n,
                   float* out) {
  if (e.dtype == DiskType::Other) (void)tensor_value(index, e, first);  // throws, naming the dtype
  const std::uint8_t* q = index.data + e.begin + first * e.elem;
  switch (e.dtype) {  // one loop per dtype: tensor_value's switch per element was 1/5 of a load
    case DiskType::F32:
      for (std::size_t i = 0; i < n; ++i, q += 4) out[i] = raw_value(q, DiskType::F32);
      break;
    case DiskType::F16:
      for (std::size_t i = 0; i < n; ++i, q += 2) out[i] = raw_value(q, DiskType::F16);
      break;
    default:
      for (std::size_t i = 0; i < n; ++i, q += 2) out[i] = raw_value(q, DiskType::BF16);
  }
  for (std::size_t i = 0; i < n; ++i)
    if (!std::isfinite(out[i])) (void)tensor_value(index, e, first + i);  // throws, naming the index
}

SafeTensors read_safetensors(const std::uint8_t* p, std::size_t size) {
  const SafeTensorsIndex index = index_safetensors(p, size);
  SafeTensors st;
  st.metadata = index.metadata;
  for (const TensorEntry& e : index.entries) {
    std::vector<float> data(e.count);
    for (std::size_t i = 0; i < e.count; ++i) data[i] = tensor_value(index, e, i);
    st.tensors.push_back({e.name, e.shape, std::move(data)});
  }
  return st;
}

SafeTensorsIndex index_safetensors(const std::uint8_t* p, std::size_t size) {
  if (size < 8) throw Error("safetensors: the file is " + std::to_string(size) + " bytes, too short for a header length");
  std::uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | p[i];
  if (n > kMaxHeader) throw Error("safetensors: the header length " + std::to_string(n) + " is larger than 100 MB");
  if (n > size - 8)
    throw Error("safetensors: the header claims " + std::to_string(n) + " bytes, but the file has only " +
                std::to_string(size - 8) + " after the length (truncated?)");
  json h;
  std::set<std::string> names;  // JSON would silently keep the last of two equal keys
  const auto no_duplicates = [&](int depth, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::key && depth == 1 && !names.insert(parsed.get<std::string>()).second)
      throw Error("safetensors: the header names \"" + parsed.get<std::string>().substr(0, 80) + "\" twice");
    return true;
  };
  try {
    h = json::parse(p + 8, p + 8 + n, no_duplicates);
  } catch (const json::exception& e) {  // parse_error, or out_of_range for a number like 1e9999
    throw Error(std::string("safetensors: the header is not valid JSON: ") + e.what());
  }
  if (!h.is_object()) throw Error("safetensors: the header is not a JSON object");
  const std::size_t data_size = size - 8 - static_cast<std::size_t>(n);
  SafeTensorsIndex st;
  std::vector<TensorEntry>& entries = st.entries;
  for (auto it = h.begin(); it != h.end(); ++it) {
    if (it.key() == "__metadata__") {
      if (!it.value().is_object()) throw Error("safetensors: __metadata__ is not an object");
      for (auto m = it.value().begin(); m != it.value().end(); ++m) {
        if (!m.value().is_string()) throw Error("safetensors: __metadata__ \"" + m.key() + "\" is not a string");
        st.metadata[m.key()] = m.value().get<std::string>();
      }
      continue;
    }
    entries.push_back(check_entry(it.key(), it.value(), data_size));
  }
  std::sort(entries.begin(), entries.end(), [](const TensorEntry& a, const TensorEntry& b) { return a.begin < b.begin || (a.begin == b.begin && a.end < b.end); });
  std::size_t at = 0;
  for (const TensorEntry& e : entries) {
    if (e.begin < at) throw Error("safetensors: " + quoted(e.name) + " overlaps the tensor before it");
    if (e.begin > at) throw Error("safetensors: bytes " + std::to_string(at) + "–" + std::to_string(e.begin) + " before " + quoted(e.name) + " belong to no tensor");
    at = e.end;
  }
  if (at != data_size)
    throw Error("safetensors: the last " + std::to_string(data_size - at) + " bytes of data belong to no tensor");
  st.data = p + 8 + n;
  return st;
}

std::vector<std::uint8_t> write_safetensors(const SafeTensors& st, DiskType type) {
  if (type == DiskType::Other) throw Error("safetensors: can write F32, F16 or BF16 only");
  const std::size_t elem = type == DiskType::F32 ? 4 : 2;
  const char* dtype = type == DiskType::F32 ? "F32" : type == DiskType::F16 ? "F16" : "BF16";
  json h = json::object();
  std::size_t at = 0;
  for (const NamedTensor& t : st.tensors) {
    if (t.name == "__metadata__" || h.contains(t.name)) throw Error("safetensors: cannot write two tensors named \"" + t.name + "\"");
    h[t.name] = {{"dtype", dtype}, {"shape", t.shape}, {"data_offsets", {at, at + t.data.size() * elem}}};
    at += t.data.size() * elem;
  }
  if (!st.metadata.empty()) h["__metadata__"] = st.metadata;
  std::string header = h.dump();
  while ((header.size() + 8) % 8) header += ' ';  // the data starts 8-byte aligned
  std::vector<std::uint8_t> out(8 + header.size() + at);
  const std::uint64_t n = header.size();
  for (int i = 0; i < 8; ++i) out[i] = static_cast<std::uint8_t>(n >> (8 * i));
  std::memcpy(out.data() + 8, header.data(), header.size());
  std::uint8_t* q = out.data() + 8 + header.size();
  for (const NamedTensor& t : st.tensors)
    for (float v : t.data) {
      const std::uint32_t u = type == DiskType::F32 ? bits_of(v) : type == DiskType::F16 ? float_to_half(v) : float_to_bf16(v);
      for (std::size_t b = 0; b < elem; ++b) *q++ = static_cast<std::uint8_t>(u >> (8 * b));
    }
  return out;
}

SafeTensors model_to_safetensors(const Model& m) {
  SafeTensors st;
  for (const Param& p : m.params) {
    if (p.id == "embedding_table" && !m.user_embedding) continue;  // seeded rows: keyed by token, not stored
    const Widened v = p.widened();
    st.tensors.push_back({p.id, p.shape(), std::vector<float>(v.data(), v.data() + p.size())});
  }
  st.metadata["config"] = config_to_json(m.config).dump();
  if (!m.vocab.empty()) st.metadata["vocab"] = json(m.vocab).dump();
  if (!m.label_names.empty()) st.metadata["labels"] = json(m.label_names).dump();
  if (!m.merges.empty()) {
    json merges = json::array();
    for (const auto& [a, b] : m.merges) merges.push_back(a + ' ' + b);
    st.metadata["merges"] = merges.dump();
  }
  st.metadata["format"] = "encoder-walkthrough";
  return st;
}

Model model_from_safetensors(const SafeTensors& st) {
  Model m;
  auto meta = [&](const char* key) -> json {
    auto it = st.metadata.find(key);
    if (it == st.metadata.end()) return nullptr;
    try {
      return json::parse(it->second);
    } catch (const json::exception&) {
      throw Error(std::string("safetensors: __metadata__ \"") + key + "\" is not JSON");
    }
  };
  const json config = meta("config");
  if (config.is_null()) throw Error("safetensors: __metadata__ has no \"config\" (this file was not written by a model)");
  parse_config(m.config, config);
  for (const char* key : {"vocab", "labels"}) {
    const json v = meta(key);
    if (v.is_null()) continue;
    if (!v.is_array()) throw Error(std::string("safetensors: __metadata__ \"") + key + "\" is not a list of strings");
    auto& out = std::string(key) == "vocab" ? m.vocab : m.label_names;
    for (const json& s : v) {
      if (!s.is_string()) throw Error(std::string("safetensors: __metadata__ \"") + key + "\" is not a list of strings");
      out.push_back(s.get<std::string>());
    }
  }
  const json merges = meta("merges");
  if (!merges.is_null()) {
    if (!merges.is_array()) throw Error("safetensors: __metadata__ \"merges\" is not a list of strings");
    for (std::size_t i = 0; i < merges.size(); ++i) {
      if (!merges[i].is_string()) throw Error("safetensors: __metadata__ \"merges\" is not a list of strings");
      m.merges.push_back(bpe_merge_from_string(merges[i].get<std::string>(), "safetensors merges[" + std::to_string(i) + "]"));
    }
  }
  for (const NamedTensor& t : st.tensors) {
    xt::xarray<float> v = xt::xarray<float>::from_shape(t.shape);
    std::copy(t.data.begin(), t.data.end(), v.data());
    m.params.push_back(Param{t.name, std::move(v), {}, {}, {}});
    ++m.given_params;
    if (t.name == "embedding_table") {
      if (m.vocab.empty()) throw Error("safetensors: tensor \"embedding_table\" needs a vocabulary (__metadata__ \"vocab\")");
      if (t.shape.size() != 2 || t.shape[0] != m.vocab.size())
        throw Error("safetensors: tensor \"embedding_table\" has " + std::to_string(t.shape.empty() ? 0 : t.shape[0]) +
                    " rows, but the vocabulary has " + std::to_string(m.vocab.size()) + " tokens");
      m.user_embedding = true;
    }
  }
  return m;
}

}  // namespace ew
