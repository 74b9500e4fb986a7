#!/usr/bin/env bash
# run.sh — builds bench/layout/gemv_layout.cpp for wasm SIMD128 (Emscripten, one file) and runs it in Node.
set -euo pipefail
cd "$(dirname "$0")"
out=$(mktemp -d)
NODE_PATH=/usr/share/nodejs em++ -O3 -msimd128 -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4294967296 -sENVIRONMENT=node \
  -sSINGLE_FILE=1 gemv_layout.cpp -o "$out/gemv_layout.js" 2> >(grep -v 'warning' >&2 || true)
node --no-liftoff "$out/gemv_layout.js"
rm -rf "$out"
