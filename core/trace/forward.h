// forward.h — the entry point that runs a model's whole forward pass into a Trace
// (forward.cpp: text → tokens → embeddings → layers → heads, every step recorded).
#pragma once
#include "model/model.h"
#include "trace/trace.h"

namespace ew {

// Runs the whole forward pass into `trace` (which is rewound first). Parameters that
// depend on the text (embedding rows, the output vocabulary) are created on demand and
// kept in `model`, so the same token always gets the same row.
void run(Model& model, Trace& trace);

}  // namespace ew
