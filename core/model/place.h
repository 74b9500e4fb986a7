// place.h — where a tensor sits in the architecture and what each of its dimensions means:
// the axes and place every trace step and every parameter carries (docs/trace.md, "Axes" and
// "Place"). Here, below both the model and the trace, so that parameters and steps share them.
#pragma once
#include <string>
#include <vector>

namespace ew {

// What the index along one dimension of a step means (docs/trace.md, "Axes"): `name` is one
// of batch, token, query, key, feature, head_feature, hidden, vocab, label, position, in,
// out, sequence, segment; `labels` says where a reader finds a label for each index: "source" (the
// source tokens of the batch item), "target", "vocab", "labels", "batch", or "" (indices).
struct Axis {
  std::string name;
  std::string labels;
};

// Where a step sits in the architecture (docs/trace.md, "Place"), set by the code that
// records it: section (input, encoder, classifier, decoder, output), layer within its stack
// (-1: not inside a layer), block (tokens, embedding, positional, mask, self_attention,
// cross_attention, add_norm, ffn, layer_output, stack_output, classifier, projection,
// softmax; a checkpoint's heads add transform and pooler) and head (-1: not per head).
struct Place {
  std::string section;
  int layer = -1;
  std::string block;
  int head = -1;
};

// One dimension of a step: its size and its axis, given together so they cannot disagree.
struct Dim {
  int size;
  Axis axis;
};
using Dims = std::vector<Dim>;

}  // namespace ew
