// export.cpp — `encoder-walkthrough export --hf DIR (--preset NAME | --model FILE)`: one of our
// models written as a Hugging Face BERT checkpoint (core/io/hf_export.h), which
// `--checkpoint DIR` loads back into the same trace. A model BERT cannot express is refused with
// the reasons.
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "commands.h"
#include "io/hf_export.h"
#include "io/model_file.h"
#include "io/presets.h"
#include "model/error.h"

namespace {

const char* kExportUsage =
    "usage: encoder-walkthrough export --hf DIR (--preset NAME | --model FILE) [--text TEXT]\n"
    "\n"
    "Writes the model as a Hugging Face BERT checkpoint (config.json, model.safetensors in float32,\n"
    "tokenizer.json) that `encoder-walkthrough --checkpoint DIR` loads back into the same trace.\n"
    "  --hf DIR       the directory to write (created if missing; the three files are replaced)\n"
    "  --preset NAME  a built-in preset (see --list-presets)\n"
    "  --model FILE   a model file (docs/model-file.md)\n"
    "  --text TEXT    the text a seeded model's vocabulary is taken from (default: the model's)\n"
    "Only models BERT computes exactly are written: an encoder only, post-norm, learned positions,\n"
    "scaled bidirectional attention, ReLU/GELU, no head, the whitespace tokenizer. None of the\n"
    "presets is one (the trained models are pre-norm, with a masked-word head, a classifier or a\n"
    "decoder; the seed presets lack BERT's embedding LayerNorm, read given rows, are pre-norm or\n"
    "tokenize otherwise); each is refused with what does not fit.\n";

}  // namespace

int export_main(int argc, char** argv) {
  std::string dir, preset, model_path;
  std::optional<std::string> text;
  const std::vector<Flag> flags = {
      {"hf", true, [&](const std::string& v) { dir = v; }, "the directory to write"},
      {"preset", true, [&](const std::string& v) { preset = v; }, "a built-in preset"},
      {"model", true, [&](const std::string& v) { model_path = v; }, "a model file"},
      {"text", true, [&](const std::string& v) { text = v; }, "the text a seeded model's vocabulary comes from"},
  };
  parse_flags(argc, argv, flags, "export", kExportUsage);
  if (dir.empty() || preset.empty() == model_path.empty()) {
    std::cerr << "encoder-walkthrough export: give --hf DIR and one of --preset NAME, --model FILE\n" << kExportUsage;
    return 2;
  }
  try {
    ew::Model m;
    if (!model_path.empty()) {
      m = ew::model_from_file(model_path);
    } else {
      const ew::Preset* p = ew::find_preset(preset);
      if (!p) throw ew::Error("unknown preset \"" + preset + "\" (see --list-presets)");
      m = ew::model_from_string(p->model_json);
    }
    if (text) m.text = *text;
    const ew::HfExport e = ew::export_hf(std::move(m));
    ew::write_hf_dir(e, dir);
    for (const std::string& n : e.notes) std::cerr << "note: " << n << "\n";
    std::cout << "wrote " << dir << ": config.json, model.safetensors, tokenizer.json (BertModel)\n";
  } catch (const std::exception& ex) {
    std::cerr << "encoder-walkthrough export: " << (preset.empty() ? model_path : "preset " + preset) << ": " << ex.what()
              << "\n";
    return 1;
  }
  return 0;
}
