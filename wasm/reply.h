// reply.h — how the bindings answer JavaScript when the core throws: JSON the page's catalog
// can show (shared by bindings.cpp and train_bindings.cpp).
#pragma once
#include <emscripten/heap.h>

#include <exception>
#include <new>
#include <string>

#include <nlohmann/json.hpp>

#include "model/error.h"

namespace ew_wasm {

// {ok: false, error, code?, params?}: the message, and for an ew::Error that has one, the
// code and values the page's catalog shows it from (error.h). A weights file the core
// cannot read gets the code "weights_file" with the core's reason as `detail`; running out of
// memory (std::bad_alloc) the code "out_of_memory" with the module's limit in MB as `max`.
inline std::string error_reply(const std::exception& e) {
  nlohmann::json out{{"ok", false}, {"error", e.what()}};
  const auto* ew_error = dynamic_cast<const ew::Error*>(&e);
  std::string what = e.what();
  if (ew_error && !ew_error->code.empty()) {
    out["code"] = ew_error->code;
    out["params"] = nlohmann::json::object();
    for (const auto& [k, v] : ew_error->params) out["params"][k] = v;
  } else if (dynamic_cast<const std::bad_alloc*>(&e)) {  // "std::bad_alloc" says nothing to a reader
    out["code"] = "out_of_memory";
    out["params"] = {{"max", std::to_string(emscripten_get_heap_max() >> 20)}};
    out["error"] = "out of memory: this needs more than the " + out["params"]["max"].get<std::string>() +
                   " MB this page's WebAssembly memory can hold";
  } else if (what.rfind("safetensors: ", 0) == 0) {
    out["code"] = "weights_file";
    out["params"] = {{"detail", what.substr(13)}};
  }
  return out.dump();
}

}  // namespace ew_wasm
