#!/usr/bin/env bash
# run.sh [gemv_layout|streams] — builds bench/layout/<name>.cpp (default gemv_layout) for wasm SIMD128
# (Emscripten, one file) and runs it in Node under TurboFan.
#   gemv_layout  row-major against the kernels' panels for a decoded token's products
#   streams      one stream against two far apart, for the products and the tied head
set -euo pipefail
cd "$(dirname "$0")"
name=${1:-gemv_layout}
[[ -f "$name.cpp" ]] || { echo "run.sh: no bench/layout/$name.cpp (gemv_layout or streams)" >&2; exit 2; }
out=$(mktemp -d)
NODE_PATH=/usr/share/nodejs em++ -std=c++17 -O3 -msimd128 -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4294967296 -sENVIRONMENT=node \
  -sSINGLE_FILE=1 "$name.cpp" -o "$out/$name.js" 2> >(grep -v 'warning' >&2 || true)
node --no-liftoff "$out/$name.js"
rm -rf "$out"
