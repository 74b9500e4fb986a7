// model_file.h — the JSON model file (docs/model-file.md): configuration, text, optional
// explicit input rows, vocabulary and any subset of the weights. Parsed with nlohmann-json
// and checked strictly: unknown keys or enum values, wrong types, ragged or non-numeric
// matrices and non-finite numbers are ew::Error with the JSON path in the message.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "model/config_schema.h"
#include "model/model.h"

namespace ew {

Model model_from_json(const nlohmann::json& j);
Model model_from_string(const std::string& text);  // parse errors name line and column
nlohmann::json model_file_json(const std::string& text);  // the JSON alone (errors as above)
Model model_from_file(const std::string& path);    // a missing file is an ew::Error
// A model file (text, inputs; no "weights", no parameters) whose configuration, vocabulary,
// labels and parameters come from the safetensors file `bytes` (weights a reader loads or
// trains in the page); a bad file is the safetensors reader's ew::Error naming the tensor.
Model model_with_weight_bytes(nlohmann::json j, const std::string& bytes);
// A model (after ew::run: every parameter exists) as a model file with all its weights;
// model_from_json of it gives the same numbers.
nlohmann::json model_to_json(const Model& m);

// (The "config" object: config_schema.h.)

}  // namespace ew
