#!/usr/bin/env bash
# run.sh — the main job: set up, build the WebAssembly module and the site into dist/, and
# serve it on http://127.0.0.1:PORT/ (prints the URL). PORT defaults to 8000. Installs only what
# building and serving need (setup.sh without --test: no browser, no PyTorch).
# Serves as soon as the build every browser runs first is linked and split (the SIMD128 module,
# engine/build-pick.js; wasm/tools/split.mjs): the other builds (relaxed SIMD, scalar, threaded)
# and the single file follow in the background, logged to build/wasm/run-rest.log (issue 29: a
# fresh clone serves in minutes, not after all four compiles). A browser that asks for a build
# not yet there gets the page's message naming it; reload once the line "all builds ready" is printed.
set -euo pipefail
cd "$(dirname "$0")/.."
t0=$SECONDS
bash scripts/setup.sh
export NODE_PATH=/usr/share/nodejs
jobs_n="$(nproc 2>/dev/null || echo 2)"
# The first link skips Binaryen's -O3 (EW_QUICK_LINK: half a minute of a core); the background
# half links the module again with it (scripts/run-rest.sh), for the next load.
cmake --preset wasm -DEW_RELAXED_WASM_OPT=ON -DEW_QUICK_LINK=ON >/dev/null
echo "run.sh: building the SIMD128 module (what every browser runs first) …"
cmake --build --preset wasm -j"$jobs_n" --target ew_wasm_web
cmake --build --preset wasm --target site_files
# Ctrl-C (or any exit) stops the server and the background build (its own process group: setsid).
server="" rest=""
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null
  [ -n "$rest" ] && kill -- "-$rest" 2>/dev/null
  return 0
}
trap 'cleanup; exit 130' INT TERM
trap cleanup EXIT
setsid bash -c 'sleep 1; if bash scripts/run-rest.sh "$1" >build/wasm/run-rest.log 2>&1; then
    echo "run.sh: all builds ready, $(( $(date +%s) - $2 )) s later (relaxed SIMD, scalar, threaded, single file)"
  else
    echo "run.sh: the background build failed: see build/wasm/run-rest.log" >&2
  fi' _ "$jobs_n" "$(date +%s)" &
rest=$!
node scripts/serve.mjs dist "${PORT:-8000}" &
server=$!
echo "run.sh: serving after $((SECONDS - t0)) s (the URL follows); building the other modules in the background (build/wasm/run-rest.log) …"
wait "$server"
