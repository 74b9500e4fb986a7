// main.cpp — the encoder-walkthrough command: runs a model file (or a built-in preset) through
// a session (core/session/session.h) and prints the walkthrough the way the seed notebooks do
// (each step's title, formula, shape and values with "..." elision; print.cpp), or the
// session's JSON document with --json; `train` and `analyze` are in train.cpp and masked.cpp.
#include <cstdlib>
#include <functional>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "commands.h"
#include "io/presets.h"
#include "kernels/pool.h"
#include "model/config_schema.h"
#include "model/error.h"
#include "session/session.h"

namespace {

const char* kUsage =
    "usage: encoder-walkthrough [--model FILE.json | --preset NAME] [--json] [--edge N] [--threads N]\n"
    "       encoder-walkthrough --checkpoint DIR [--text T] [--text2 T2 | --ids 101,7592,102] [--json] [--generate]\n"
    "       encoder-walkthrough --list-presets | --config-schema\n"
    "       encoder-walkthrough train --task NAME ... (train --help)\n"
    "       encoder-walkthrough analyze --task NAME (--preset NAME | --model FILE) ... (analyze --help)\n"
    "       encoder-walkthrough export --hf DIR (--preset NAME | --model FILE) (export --help: what fits)\n"
    "\n"
    "Runs a Transformer encoder(-decoder) forward pass and prints every step.\n"
    "  --model FILE   a model file (docs/model-file.md); default: the 'default' preset\n"
    "  --preset NAME  a built-in preset (see --list-presets)\n"
    "  --checkpoint DIR  a Hugging Face checkpoint: config.json, model.safetensors and its tokenizer\n"
    "                 files (bert, distilbert, gpt2; README, \"Open a checkpoint\")\n"
    "  --text2 TEXT   a checkpoint's second sentence (BERT: segment B, after [SEP])\n"
    "  --ids LIST     a checkpoint's input as token ids (comma-separated), instead of text\n"
    "  --json         print the whole trace as JSON (docs/trace.md; a checkpoint's parameters without their data)\n"
    "  --backward     also the loss and every gradient dL/dX (needs a classifier label or a decoder)\n"
    "  --label L      the backward pass's label for a checkpoint's classifier (a name of its id2label, or an index)\n"
    "  --mask-targets W1,W2  the true tokens at a checkpoint's [MASK]s, in order (its masked-LM loss)\n"
    "  --text TEXT    the sentence to run (replaces the preset's or model file's)\n"
    "  --generate     decode greedily, one token per run, until </s> or <|endoftext|> (at most 32); the\n"
    "                 walkthrough (or JSON, with \"generated\") is that of the last round\n"
    "  --edge N       values shown at each edge of a row/column before '...' (default 3)\n"
    "  --threads N    threads for the large matmuls, 1 to 16 (default 1; the numbers are identical)\n"
    "What if? (docs/trace.md, \"Interventions\"; each repeatable flag may be given many times):\n"
    "  --ablate ID          switch off a head (layer0.head1, decoder0.self.head0, decoder0.cross.head1)\n"
    "                       or a feed-forward unit (layer0.ffn_hidden[3]); repeatable\n"
    "  --ablate-mode M      zero (default) or mean (its mean over the task's held-out inputs)\n"
    "  --ablate-task NAME   the task whose held-out inputs give the means (default: the shipped model's)\n"
    "  --set 'ID[r,c]=V'    set one cell of a parameter or a step; repeatable\n"
    "  --patch-from TEXT    run TEXT first (the donor) and ...\n"
    "  --patch ID[@p,q]     ... copy its step ID (only rows p, q of the token axis) into this run; repeatable\n"
    "  --lens               each layer's output through the model's own head (lens.<layer>.*)\n"
    "  --attribute          the predicted logit split into parts (attr.*; pre-norm models)\n"
    "  --config-schema  print the configuration fields (name, type, default, range, values) as JSON\n";


// The walkthrough's command line.
struct Args {
  std::string model_path, preset_name, checkpoint;
  std::optional<std::string> text, text2, label;
  std::optional<std::vector<int>> ids;
  std::vector<std::string> mask_targets;
  bool json = false, backward = false, generate = false, lens = false, attribute = false;
  int edge = 3;
  ew::InterventionSpec intervene;
  std::string mean_task;
};

// The intervention flags (--ablate … --patch); false: not one of them. Throws ew::Error for a
// spec the parser refuses.
bool intervention_flag(const std::string& arg, const std::function<std::string(const char*)>& value, Args& a) {
  ew::InterventionSpec& iv = a.intervene;
  if (arg == "--ablate") {
    iv.ablate.push_back(value("--ablate"));
  } else if (arg == "--ablate-mode") {
    const std::string m = value("--ablate-mode");
    if (m != "zero" && m != "mean") throw ew::Error("--ablate-mode is zero or mean, got \"" + m + "\"");
    iv.ablate_mode = m == "mean" ? ew::AblateMode::Mean : ew::AblateMode::Zero;
  } else if (arg == "--ablate-task") {
    a.mean_task = value("--ablate-task");
  } else if (arg == "--set") {
    iv.set.push_back(ew::parse_set(value("--set")));
  } else if (arg == "--patch-from") {
    iv.patch_from = value("--patch-from");
  } else if (arg == "--patch") {
    iv.patch.push_back(ew::parse_patch(value("--patch")));
  } else if (arg == "--lens") {
    a.lens = true;
  } else if (arg == "--attribute") {
    a.attribute = true;
  } else {
    return false;
  }
  return true;
}

// --edge N: a whole number from 1 to 1000; else 0.
int edge_value(const std::string& v) {
  char* end = nullptr;
  const long n = std::strtol(v.c_str(), &end, 10);
  return !end || *end || n < 1 || n > 1000 ? 0 : static_cast<int>(n);
}

// --ids 101,7592,102: token ids; empty when the list is not one.
std::optional<std::vector<int>> ids_value(const std::string& v) {
  std::vector<int> ids;
  std::size_t from = 0;
  while (from <= v.size()) {
    std::size_t at = v.find(',', from);
    if (at == std::string::npos) at = v.size();
    const std::string item = v.substr(from, at - from);
    char* end = nullptr;
    const long n = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || !end || *end || n < 0 || n > 100000000) return std::nullopt;
    ids.push_back(static_cast<int>(n));
    from = at + 1;
  }
  return ids;
}

// Reads the flags into `a`. Returns -1 to run the walkthrough, or the exit code of a command
// that is done (--list-presets, --config-schema, --help) or of a usage error.
int parse_args(int argc, char** argv, Args& a) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    std::function<std::string(const char*)> value = [&](const char* flag) -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "encoder-walkthrough: " << flag << " needs a value\n" << kUsage;
        std::exit(2);
      }
      return argv[++i];
    };
    try {
      if (intervention_flag(arg, value, a)) continue;
    } catch (const ew::Error& e) {
      std::cerr << "encoder-walkthrough: " << e.what() << "\n";
      return 2;
    }
    if (arg == "--model") {
      a.model_path = value("--model");
    } else if (arg == "--preset") {
      a.preset_name = value("--preset");
    } else if (arg == "--json") {
      a.json = true;
    } else if (arg == "--backward") {
      a.backward = true;
    } else if (arg == "--label") {
      a.label = value("--label");
    } else if (arg == "--mask-targets") {
      std::stringstream list(value("--mask-targets"));
      for (std::string w; std::getline(list, w, ',');) a.mask_targets.push_back(w);
    } else if (arg == "--generate") {
      a.generate = true;
    } else if (arg == "--text") {
      a.text = value("--text");
    } else if (arg == "--text2") {
      a.text2 = value("--text2");
    } else if (arg == "--checkpoint") {
      a.checkpoint = value("--checkpoint");
    } else if (arg == "--ids") {
      const std::string v = value("--ids");
      if (!(a.ids = ids_value(v))) {
        std::cerr << "encoder-walkthrough: --ids must be token ids separated by commas (101,7592,102), got \"" << v << "\"\n";
        return 2;
      }
    } else if (arg == "--edge") {
      const std::string v = value("--edge");
      if (!(a.edge = edge_value(v))) {
        std::cerr << "encoder-walkthrough: --edge must be a whole number from 1 to 1000, got \"" << v << "\"\n";
        return 2;
      }
    } else if (arg == "--threads") {
      const std::string v = value("--threads");
      const int n = edge_value(v);
      if (n < 1 || n > ew::kMaxThreads) {
        std::cerr << "encoder-walkthrough: --threads must be a whole number from 1 to " << ew::kMaxThreads << ", got \"" << v << "\"\n";
        return 2;
      }
      ew::set_threads(n);
    } else if (arg == "--list-presets") {
      for (const ew::Preset& p : ew::presets()) std::cout << p.name << "\t" << p.title << "\n";
      return 0;
    } else if (arg == "--config-schema") {
      std::cout << ew::config_schema_json() << "\n";
      return 0;
    } else if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    } else {
      std::cerr << "encoder-walkthrough: unknown argument \"" << arg << "\"\n" << kUsage;
      return 2;
    }
  }
  if (!a.model_path.empty() + !a.preset_name.empty() + !a.checkpoint.empty() > 1) {
    std::cerr << "encoder-walkthrough: give one of --model, --preset and --checkpoint\n";
    return 2;
  }
  if (a.checkpoint.empty() && (a.text2 || a.ids)) {
    std::cerr << "encoder-walkthrough: --text2 and --ids go with --checkpoint\n";
    return 2;
  }
  return -1;
}

// Runs the model the flags name through a session and prints it: the walkthrough and the
// answers as text, or the session's JSON document. Throws ew::Error.
void walkthrough(const Args& a) {
  ew::RunOptions o;
  o.backward = a.backward;
  o.generate = a.generate;
  o.prediction = o.fills = true;
  o.intervene = a.intervene;
  o.mean_task = a.mean_task;
  o.lens = a.lens;
  o.attribute = a.attribute;
  o.label = a.label;
  o.mask_targets = a.mask_targets;
  ew::ModelSource source{ew::ModelSource::Kind::Preset, a.preset_name, a.text, std::nullopt, std::nullopt};
  if (!a.model_path.empty()) source = {ew::ModelSource::Kind::File, a.model_path, a.text, std::nullopt, std::nullopt};
  if (!a.checkpoint.empty()) source = {ew::ModelSource::Kind::Checkpoint, a.checkpoint, a.text, a.text2, a.ids};
  ew::Session s;
  const ew::Model& model = s.load(source, o);
  if (a.generate && model.config.decoder_layers == 0 && !model.arch.lm_head)
    throw ew::Error("--generate needs a decoder (config.decoder_layers > 0) or a language-model head (GPT2LMHeadModel)");
  s.run(o);
  if (s.report().contains("backward_error")) throw ew::Error(s.report()["backward_error"].get<std::string>());
  if (s.report().contains("attribution_error")) throw ew::Error(s.report()["attribution_error"].get<std::string>());
  if (a.json) {
    ew::DocumentOptions doc;
    doc.trace.param_data = a.checkpoint.empty();  // a checkpoint's weights stay in its file (110 M numbers for BERT-base)
    std::cout << ew::session_json(s, doc).dump() << "\n";
  } else {
    print_walkthrough(s.trace(), s.model(), a.edge);
    print_answers(s.report());
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "train") return train_main(argc, argv);
  if (argc > 1 && std::string(argv[1]) == "analyze") return analyze_main(argc, argv);
  if (argc > 1 && std::string(argv[1]) == "export") return export_main(argc, argv);
  Args a;
  if (const int done = parse_args(argc, argv, a); done >= 0) return done;
  try {
    walkthrough(a);
  } catch (const std::exception& e) {
    std::cerr << "encoder-walkthrough: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
