#!/usr/bin/env bash
# run.sh — the main job: set up, build the WebAssembly module and the site into dist/, and
# serve it on http://127.0.0.1:PORT/ (prints the URL). PORT defaults to 8000. Installs only what
# building and serving need (setup.sh without --test: no browser, no PyTorch).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export NODE_PATH=/usr/share/nodejs
cmake --preset wasm >/dev/null
cmake --build --preset wasm -j"$(nproc 2>/dev/null || echo 2)" --target site ew_wasm_web
exec node scripts/serve.mjs dist "${PORT:-8000}"
