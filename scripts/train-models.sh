#!/usr/bin/env bash
# train-models.sh — retrains every model the project ships (models/*.safetensors) from its
# seed with the project's own training command, and writes the same files again (training is
# deterministic for a seed on a given build and CPU; see README). Builds the native CLI first.
# Each run prints its progress and its held-out accuracy; the log is kept beside the weights.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --preset native-release >/dev/null
cmake --build --preset native-release -j"$(nproc 2>/dev/null || echo 2)" --target encoder-walkthrough
cli=build/native-release/encoder-walkthrough
train() {
  local name=$1; shift
  echo "== $name"
  "$cli" train "$@" --eval 1000 --out "models/$name.safetensors" --float16 | tee "models/$name.log"
}
train number-words --task number-words --seed 1 --steps 3000 --batch 16 --lr 0.006 \
  --d_model 32 --num_heads 4 --d_ff 64 --num_layers 1 --decoder_layers 1 --eval-every 500
train brackets --task brackets --seed 1 --steps 4000 --batch 32 --lr 0.003 \
  --d_model 32 --num_heads 4 --d_ff 64 --num_layers 2 --eval-every 500
ls -l models/*.safetensors
