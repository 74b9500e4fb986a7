#!/usr/bin/env bash
# run-rest.sh JOBS — run.sh's background half: every other module the site serves and the single file.
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs
# What the site serves (the other modules, the single file and the Node module it is built with),
# not the wasm doctest binaries a reader never runs (the test command builds those).
want=(site single_file ew_wasm_web_relaxed ew_wasm_web_scalar ew_wasm_web_relaxed_mt)
have=$(cmake --build --preset wasm --target help | sed -n 's/^\.\.\. //p')
targets=()
for t in "${want[@]}"; do grep -qx "$t" <<<"$have" && targets+=("$t"); done
cmake --build --preset wasm -j"${1:-2}" --target "${targets[@]}"
