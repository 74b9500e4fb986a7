#!/usr/bin/env bash
# setup.sh — installs what is missing on a fresh Debian 12 machine, in two sizes:
#   setup.sh          building and serving the page (scripts/run.sh) and the README's whole
#                     wasm build (`cmake --build --preset wasm`, the single file included): CMake,
#                     Emscripten, the header-only libraries, and package.json's `dependencies`
#                     (KaTeX for the site, esbuild for the single file) — no browser, no PyTorch
#   setup.sh --test   everything the tests need on top (scripts/test.sh): the native toolchain's
#                     extras, Chromium, NumPy/PyTorch and regex (GPT-2's \p{L} pattern) for the reference
#                     tests, clang-14's libFuzzer,
#                     and every npm package of package-lock.json (playwright-core, axe-core, …)
# Idempotent: installs only what is missing. Nothing is downloaded at run time afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."

test=0
[ "${1:-}" = "--test" ] && test=1
packages=(cmake make g++ emscripten xtensor-dev xtl-dev doctest-dev nlohmann-json3-dev clang-19)
((test)) && packages+=(libxsimd-dev libbenchmark-dev chromium python3 python3-numpy python3-torch python3-regex python3-jinja2 clang-14 libclang-rt-14-dev)
# Node.js 18+ with npm: the machine's own if it has one, else Debian's (18 in Debian 12).
command -v node >/dev/null && command -v npm >/dev/null || packages+=(nodejs npm)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing Debian packages: ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "setup: need root (or sudo) to apt-get install ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

command -v node >/dev/null || { echo "setup: Node.js (18+) is needed and not on PATH" >&2; exit 1; }
if ((test)); then
  if [ ! -d node_modules/katex ] || [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/esbuild ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    echo "setup: npm ci"
    npm ci --no-audit --no-fund --loglevel=error
  fi
elif [ ! -d node_modules/katex ] || [ ! -d node_modules/esbuild ]; then
  # What the wasm build runs: KaTeX (vendored into the site), esbuild (the single file).
  # tests/readme-build.mjs checks that these are what the build imports.
  echo "setup: npm ci --omit=dev (KaTeX, esbuild)"
  npm ci --omit=dev --no-audit --no-fund --loglevel=error
fi
