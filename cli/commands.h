// commands.h — the command line's pieces, one file each: the walkthrough printed as the seed
// notebooks print (print.cpp), training and analysis of the shipped tasks (train.cpp), the
// masked-word task's commands (masked.cpp); main.cpp runs the walkthrough and dispatches to them.
#pragma once
#include <nlohmann/json.hpp>

#include "model/model.h"
#include "trace/trace.h"

// print.cpp: every step's title, formula, shape and values with "..." elision; then what the
// run answered besides (a session's report: generated tokens, the prediction, the fills).
void print_walkthrough(const ew::Trace& trace, const ew::Model& model, int edge);
void print_answers(const nlohmann::json& report);

// train.cpp: `encoder-walkthrough train` and `analyze` for number-words, dates and brackets.
int train_main(int argc, char** argv);
int analyze_main(int argc, char** argv);

// masked.cpp: the masked-words task's commands.
int masked_train_main(int argc, char** argv);
int masked_analyze_main(int argc, char** argv);
