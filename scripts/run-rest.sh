#!/usr/bin/env bash
# run-rest.sh JOBS — run.sh's background half: every other module the site serves, the SIMD128 one
# optimised, and the single file.
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs
# The SIMD128 module run.sh served was linked without Binaryen's -O3 (EW_QUICK_LINK): linked again with it.
cmake --preset wasm -DEW_QUICK_LINK=OFF >/dev/null
# What the site serves (the other modules, the single file and the Node module it is built with),
# not the wasm doctest binaries a reader never runs (the test command builds those).
want=(site single_file formulas ew_wasm_web ew_wasm_web_relaxed ew_wasm_web_scalar ew_wasm_web_relaxed_mt)
have=$(cmake --build --preset wasm --target help | sed -n 's/^\.\.\. //p')
targets=()
for t in "${want[@]}"; do grep -qx "$t" <<<"$have" && targets+=("$t"); done
cmake --build --preset wasm -j"${1:-2}" --target "${targets[@]}"
