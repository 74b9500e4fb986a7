#!/usr/bin/env bash
# run-rest.sh JOBS — run.sh's background half: every other module and the single file, then
# Binaryen's -O3 over the relaxed modules run.sh served without it (the same pass and flags as
# wasm/CMakeLists.txt's ew_relaxed_wasm_opt), their .gz refreshed; the option back on for later builds.
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs
# What the site serves (the other modules, the single file and the Node module it is built with),
# not the wasm doctest binaries a reader never runs (the test command builds those).
want=(site single_file ew_wasm_web ew_wasm_web_scalar ew_wasm_web_relaxed_mt)
have=$(cmake --build --preset wasm --target help | sed -n 's/^\.\.\. //p')
targets=()
for t in "${want[@]}"; do grep -qx "$t" <<<"$have" && targets+=("$t"); done
cmake --build --preset wasm -j"${1:-2}" --target "${targets[@]}"
opt=wasm/tools/node_modules/binaryen/bin/wasm-opt
flags=(-O3 --enable-simd --enable-relaxed-simd --enable-exception-handling --enable-sign-ext --enable-mutable-globals)
if [ -f "$opt" ]; then
  # (the relaxed Node module is not built here: a later build makes it with the pass on)
  node "$opt" "${flags[@]}" dist/encoder_walkthrough_relaxed.wasm -o dist/encoder_walkthrough_relaxed.wasm
  [ -f dist/encoder_walkthrough_relaxed_mt.wasm ] &&
    node "$opt" "${flags[@]}" --enable-threads --enable-bulk-memory dist/encoder_walkthrough_relaxed_mt.wasm -o dist/encoder_walkthrough_relaxed_mt.wasm
  for w in dist/encoder_walkthrough_relaxed.wasm dist/encoder_walkthrough_relaxed_mt.wasm; do
    [ -f "$w" ] && gzip -9 -k -f "$w"
  done
fi
cmake --preset wasm -DEW_RELAXED_WASM_OPT=ON >/dev/null
