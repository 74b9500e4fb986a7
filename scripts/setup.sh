#!/usr/bin/env bash
# setup.sh — installs everything building and testing need on a fresh Debian 12 machine:
# Debian packages (compiler, Emscripten, header-only libraries, Chromium, NumPy/PyTorch for the
# reference tests, clang-14's libFuzzer for the fuzz targets) and the npm packages of package-lock.json (KaTeX, playwright-core).
# Idempotent: installs only what is missing. Nothing is downloaded at run time afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake make g++ emscripten xtensor-dev xtl-dev libxsimd-dev doctest-dev nlohmann-json3-dev
          libbenchmark-dev chromium python3 python3-numpy python3-torch clang-14 libclang-rt-14-dev clang-19)
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
if [ ! -d node_modules/katex ] || [ ! -d node_modules/playwright-core ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi
