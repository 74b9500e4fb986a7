#!/usr/bin/env bash
# run.sh — the main job: set up, build the WebAssembly module and the site into dist/, and
# serve it on http://127.0.0.1:PORT/ (prints the URL). PORT defaults to 8000. Installs only what
# building and serving need (setup.sh without --test: no browser, no PyTorch).
# Serves as soon as the build Chromium picks (relaxed SIMD, engine/builds.js) is linked; the other
# builds (SIMD128 for Firefox and Safari, scalar, threaded) and the single file follow in the
# background, logged to build/wasm/run-rest.log (issue 29: a fresh clone serves in minutes, not
# after all four compiles). A browser that asks for a build not yet there gets the page's message
# naming it; reload once the line "all builds ready" is printed.
set -euo pipefail
cd "$(dirname "$0")/.."
t0=$SECONDS
bash scripts/setup.sh
export NODE_PATH=/usr/share/nodejs
jobs_n="$(nproc 2>/dev/null || echo 2)"
# The first build skips Binaryen's -O3 pass over the relaxed module (a minute of one core; the
# module is correct without it, about 2x slower on small models); the background build runs the
# pass over the served relaxed modules afterwards (scripts/run-rest.sh), so the next load gets
# the optimised module, and turns the option back on for later builds.
cmake --preset wasm -DEW_RELAXED_WASM_OPT=OFF >/dev/null
echo "run.sh: building the relaxed-SIMD module (what Chromium runs) …"
cmake --build --preset wasm -j"$jobs_n" --target ew_wasm_web_relaxed
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
    echo "run.sh: all builds ready, $(( $(date +%s) - $2 )) s later (SIMD128, scalar, threaded, single file; the relaxed module optimised)"
  else
    echo "run.sh: the background build failed: see build/wasm/run-rest.log" >&2
  fi' _ "$jobs_n" "$(date +%s)" &
rest=$!
node scripts/serve.mjs dist "${PORT:-8000}" &
server=$!
echo "run.sh: serving after $((SECONDS - t0)) s (the URL follows); building the other modules in the background (build/wasm/run-rest.log) …"
wait "$server"
