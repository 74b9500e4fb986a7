// trace_json.h — the trace as JSON, the format the CLI's --json prints and the page reads:
//   {"tokens":[...], "text":{...}, "config":{...}, "isa":"...",
//    "steps":[{"id","title","formula","kind","note","role","shape","inputs","head","axes","place",
//              "of" (a gradient), "data"}],
//    "params":[{"id","shape","axes","place","data"}]}
// axes: [{"name", "labels"}] one per dimension; place: {"section","layer","block","head"}
// (docs/trace.md).
// Built as one document (nlohmann::ordered_json, keys in the order above) that callers add
// their own keys to (session/session.h: generation rounds, prediction, timings). A float is
// stored as the double nearest its shortest float32 decimal, so it is written as that decimal
// and reads back to the same float32; -inf (a masked score) is null. Without data, the same
// document is the page's step index.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "model/model.h"
#include "trace/trace.h"

namespace ew {

struct JsonOptions {
  bool step_data = true;   // include each step's "data"
  bool params = true;      // include the "params" list
  bool param_data = true;  // include each parameter's "data"
};

nlohmann::ordered_json trace_json(const Trace& trace, const Model& model, const JsonOptions& opt = {});

// A float as the shortest text that reads back to the same float32 ("null" for -inf).
std::string format_float(float v);

}  // namespace ew
