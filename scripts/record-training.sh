#!/usr/bin/env bash
# record-training.sh — the recorded run behind the README's training tables ("The time to
# 99%", "Training speed of number-words", "A training step against TensorFlow.js"): runs each
# command the tables name and writes what it printed, with the date, the commit, the machine and
# the load before and after, to docs/records/training.txt. The README quotes that file.
#
#   scripts/record-training.sh [--quick]   # --quick: one seed and tfjs's --quick rounds (~3 min)
#
# Needs build/native-release/encoder-walkthrough and build/wasm/node (cmake --build --preset
# native-release / wasm) and bench/node/node_modules (bench/run.sh installs it). Timings depend
# on the load: the file says what it was; nothing here is a test.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
[ "${1:-}" = --quick ] && quick=1
cli=build/native-release/encoder-walkthrough
[ -x "$cli" ] || { echo "record-training: build $cli first (cmake --build --preset native-release)" >&2; exit 1; }
[ -f build/wasm/node/encoder_walkthrough_node.js ] || { echo "record-training: build the wasm Node module first (cmake --build --preset wasm)" >&2; exit 1; }
[ -d bench/node/node_modules ] || (cd bench/node && npm ci --no-audit --no-fund --loglevel=error)
mkdir -p docs/records
out=docs/records/training.txt
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

# One command: its line, what it printed, its wall time and the load around it.
record() {
  local t0 t1
  echo "\$ $*" >>"$tmp"
  echo "  load before: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$tmp"
  t0=$(date +%s.%N)
  "$@" >>"$tmp" 2>&1
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" -v l="$(cut -d' ' -f1-3 /proc/loadavg)" 'BEGIN { printf "  wall: %.2f s; load after: %s\n\n", b - a, l }' >>"$tmp"
  echo "record-training: done: $*" >&2
}

{
  echo "# The README's training tables, recorded by scripts/record-training.sh$([ $quick = 1 ] && echo ' --quick')"
  echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD), $(nproc) CPUs: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  echo
  echo "## The time to 99%: number-words at the panel's defaults (3,000 steps of 16, lr 0.006), 1,000 held-out examples"
} >"$tmp"
seeds=(1 2 3)
((quick)) && seeds=(1)
for s in "${seeds[@]}"; do
  record "$cli" train --task number-words --steps 3000 --batch 16 --lr 0.006 --seed "$s" --eval 1000 --eval-every 250
done
echo "## The time to 99%: brackets, 2 encoder layers, 4,000 steps of 32, lr 0.003" >>"$tmp"
record "$cli" train --task brackets --num_layers 2 --steps 4000 --batch 32 --lr 0.003 --eval 1000 --eval-every 1000
echo "## Training speed of number-words, the step alone (native, no evaluation)" >>"$tmp"
for b in 16 32; do
  record "$cli" train --task number-words --steps 2000 --batch "$b" --eval 0
done
echo "## Training speed of number-words in Node (wasm SIMD128, TurboFan, a fixed batch)" >>"$tmp"
for b in 16 32; do
  record node bench/node/train_bench.mjs --ours-only --batch "$b" --only task_size
done
echo "## A training step against TensorFlow.js (interleaved rounds; train_vs_tfjs is the median of per-round ratios)" >>"$tmp"
if ((quick)); then record node bench/node/train_bench.mjs --quick; else record node bench/node/train_bench.mjs; fi
chmod 644 "$tmp"
mv "$tmp" "$out"
trap - EXIT
echo "record-training: wrote $out" >&2
