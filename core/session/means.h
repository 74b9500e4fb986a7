// means.h — what mean ablation replaces a head or a feed-forward unit with: its mean over a
// task's held-out inputs (issue 20). Each held-out example runs through the model the way the
// task reads it (an encoder–decoder task teacher-forced on the right answer), and every head's
// context rows and every feed-forward hidden row are averaged, column by column, over all
// examples and positions.
#pragma once
#include <string>

#include "model/model.h"
#include "trace/intervene.h"
#include "train/tasks.h"

namespace ew {

// The task whose shipped model `model` is (its weights "builtin:<task>"), or nullptr.
const Task* shipped_task(const Model& model);

// Column means of every context and ffn_hidden step over the first n held-out examples of
// `task` (seed 1). Throws ew::Error when the task does not fit the model or has no built-in
// inputs (masked-words reads its corpus from files).
ColumnMeans held_out_means(const Model& model, const Task& task, int n);

}  // namespace ew
