// trace_json.h — the trace as JSON, the format the CLI's --json prints and the page reads:
//   {"tokens":[...], "text":{...}, "config":{...}, "isa":"...",
//    "steps":[{"id","title","formula","kind","note","shape","inputs","head","axes","place","data"}],
//    "params":[{"id","shape","axes","place","data"}]}
// axes: [{"name", "labels"}] one per dimension; place: {"section","layer","block","head"}
// (docs/trace.md).
// Floats are written so that they read back to the same float32; -inf (a masked score) is
// written as null. Without data, the same document is the page's step index.
#pragma once
#include <ostream>
#include <string>

#include "model/model.h"
#include "trace/trace.h"

namespace ew {

struct JsonOptions {
  bool step_data = true;   // include each step's "data"
  bool params = true;      // include the "params" list
  bool param_data = true;  // include each parameter's "data"
};

void write_trace_json(std::ostream& out, const Trace& trace, const Model& model, const JsonOptions& opt = {});
std::string trace_json(const Trace& trace, const Model& model, const JsonOptions& opt = {});

// A float as the shortest text that reads back to the same float32 ("null" for -inf).
std::string format_float(float v);

}  // namespace ew
