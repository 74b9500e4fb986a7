#!/usr/bin/env bash
# bench/run.sh — every benchmark of the project in one command (see bench/README.md):
#   1. builds what it needs: build/native-release (Google Benchmark programs),
#      build/wasm (the Node flavor of our module: SIMD128 and relaxed SIMD) and
#      build/wasm-scalar, npm ci in bench/node;
#   2. runs the native kernels and one encoder layer (bench/native_bench.cpp);
#   3. runs the WebAssembly comparison in Node (bench/node/bench.mjs): ours SIMD, relaxed and scalar,
#      TensorFlow.js wasm and onnxruntime-web, single thread, interleaved rounds;
#   4. runs a training step against TensorFlow.js (bench/node/train_bench.mjs: train_vs_tfjs);
#   5. with --checkpoints, whole BERT-base- and GPT-2-small-sized checkpoints against the same two
#      peers (bench/node/checkpoints.mjs: bert_base_trace_ms, gpt2_small_token_ms, checkpoint_vs_*);
#      and modern decoders (bench/node/decoders.mjs: SmolLM2-135M- and Qwen2.5-0.5B-sized generation
#      against onnxruntime-web with a KV cache and wllama on GGUF in Chromium; checkpoint_vs_{ort,wllama}*)
#   6. with --browser, the same WebAssembly comparison in headless Chromium (bench/browser/run.mjs:
#      dist/'s web modules, the peers from bench/node/node_modules, single thread), and
#      threads_vs_one of the threaded module on an isolated origin (bench/browser/threads.mjs), and
#      the comparison again isolated with every implementation threaded ("threaded" in the JSON);
#   7. prints one table (or, with --json, one JSON object) on stdout. Progress goes to stderr.
#
# Usage: bench/run.sh [--quick] [--json] [--no-build] [--native-only | --wasm-only] [--browser | --browser-only]
#                     [--checkpoints | --checkpoints-only] [--ours DIR]
#   --quick       fewer repetitions and rounds (a smoke run of a minute or two)
#   --json        stdout is exactly one JSON object {"machine", "results", "ratios", ..., "browser"}
#   --no-build    use the existing builds and node_modules as they are
#   --native-only / --wasm-only   run one half
#   --browser     also run the WebAssembly comparison in headless Chromium ("browser" in the JSON)
#   --browser-only  only that (no native, Node or training runs)
#   --checkpoints   also the checkpoint cases (~6 minutes; checkpoints in /tmp/ck-bert-base and
#                   /tmp/ck-gpt2-small, made by /usr/bin/python3 tests/browser/write_checkpoints.py
#                   --bert-base DIR / --gpt2-small DIR, or where $EW_CK_BERT / $EW_CK_GPT2 say;
#                   a missing one is skipped with a note)
#   --checkpoints-only  only those;  --ours DIR: our Node modules for them (default build/wasm/node)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

quick=0 json=0 build=1 native=1 wasm=1 browser=0 checkpoints=0 ours_dir=build/wasm/node
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  a=${args[i]}
  case "$a" in
    --checkpoints) checkpoints=1 ;;
    --checkpoints-only) checkpoints=1 native=0 wasm=0 ;;
    --ours) i=$((i + 1)); ours_dir=${args[i]:?--ours needs a directory} ;;
    --quick) quick=1 ;;
    --json) json=1 ;;
    --no-build) build=0 ;;
    --native-only) wasm=0 ;;
    --wasm-only) native=0 ;;
    --browser) browser=1 ;;
    --browser-only) browser=1 native=0 wasm=0 ;;
    -h|--help) sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench/run.sh: unknown argument $a (try --help)" >&2; exit 2 ;;
  esac
done

log() { echo "bench: $*" >&2; }
jobs=$(nproc 2>/dev/null || echo 2)
export NODE_PATH=/usr/share/nodejs  # em++ needs Debian's acorn (docs: /work/shared/TOOLCHAIN.md)

if ((build)); then
  if ((native)); then
    log "building build/native-release (ew_native_bench)"
    cmake --preset native-release >&2
    cmake --build --preset native-release -j"$jobs" --target ew_native_bench >&2
  fi
  if ((checkpoints && !wasm)) && [ "$ours_dir" = build/wasm/node ]; then
    log "building build/wasm (ew_wasm_node ew_wasm_node_relaxed)"
    cmake --preset wasm >&2
    cmake --build --preset wasm -j"$jobs" --target ew_wasm_node ew_wasm_node_relaxed >&2
  fi
  if ((wasm)); then
    for p in wasm wasm-scalar; do
      targets=(ew_wasm_node)
      [ "$p" = wasm ] && targets+=(ew_wasm_node_relaxed)  # the relaxed-SIMD (FMA) build
      log "building build/$p (${targets[*]})"
      cmake --preset "$p" >&2
      cmake --build --preset "$p" -j"$jobs" --target "${targets[@]}" >&2
    done
  fi
  if ((browser)); then
    # The web flavour in dist/ (what the page loads): SIMD128, relaxed SIMD, scalar, and the
    # threaded relaxed build the isolated comparison imports (it was missing from a fresh clone:
    # bench/browser/run.mjs got a 404 for dist/encoder_walkthrough_relaxed_mt.js, issue 31).
    log "building build/wasm (ew_wasm_web ew_wasm_web_relaxed ew_wasm_web_scalar ew_wasm_web_relaxed_mt -> dist/)"
    cmake --preset wasm >&2
    cmake --build --preset wasm -j"$jobs" --target ew_wasm_web ew_wasm_web_relaxed ew_wasm_web_scalar ew_wasm_web_relaxed_mt >&2
    [ -d node_modules/playwright-core ] && [ -d node_modules/esbuild ] ||
      { echo "bench/run.sh: --browser needs playwright-core and esbuild in node_modules (bash scripts/setup.sh --test)" >&2; exit 1; }
  fi
  if ((wasm || browser || checkpoints)); then
    if [ ! -d bench/node/node_modules ] || [ bench/node/package-lock.json -nt bench/node/node_modules/.package-lock.json ]; then
      log "npm ci in bench/node"
      (cd bench/node && npm ci --no-audit --no-fund --loglevel=error >&2)
    fi
  fi
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

node_args=()
((quick)) && node_args+=(--quick)
((json)) && node_args+=(--json)

if ((native)); then
  bin="$ROOT/build/native-release/bench/ew_native_bench"
  [ -x "$bin" ] || { echo "bench/run.sh: $bin is not built (run without --no-build)" >&2; exit 1; }
  if ((quick)); then reps=3 min_time=0.05; else reps=7 min_time=0.2; fi
  log "native: $bin ($reps repetitions of >= ${min_time}s each)"
  # The human-readable console report goes to stderr as progress; the JSON file is what we merge.
  "$bin" --benchmark_repetitions="$reps" --benchmark_min_time="$min_time" \
         --benchmark_out="$tmp/native.json" --benchmark_out_format=json >&2
  node_args+=(--native "$tmp/native.json")
fi

if ((wasm)); then
  log "wasm: node bench/node/bench.mjs ${node_args[*]}"
  node bench/node/bench.mjs "${node_args[@]}" > "$tmp/main.out"
elif ((native)); then
  # Native only: bench.mjs just merges and prints (no modules, no peers loaded).
  node bench/node/bench.mjs --no-ours --no-peers "${node_args[@]}" > "$tmp/main.out"
fi

# A training step against TensorFlow.js (bench/node/train_bench.mjs): train_vs_tfjs at the
#    number-words task size and at d_model 512, merged into the JSON object (or printed after the table).
if ((wasm)); then
  train_args=()
  ((quick)) && train_args+=(--quick)
  log "wasm: node bench/node/train_bench.mjs --json ${train_args[*]}"
  node bench/node/train_bench.mjs --json "${train_args[@]}" > "$tmp/train.json"
  if ((json)); then
    node -e 'const fs = require("fs"), [a, t] = process.argv.slice(1).map((f) => JSON.parse(fs.readFileSync(f, "utf8")));
      a.results.push(...t.results); a.train_vs_tfjs = t.train_vs_tfjs; (a.ratios ||= {}).train_vs_tfjs = t.train_vs_tfjs;
      a.checks = (a.checks || []).concat(t.checks); a.notes = (a.notes || []).concat(t.notes);
      process.stdout.write(JSON.stringify(a, null, 1) + "\n");' "$tmp/main.out" "$tmp/train.json" > "$tmp/all.out"
  else
    { cat "$tmp/main.out"
      node -e 'const t = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
        for (const r of t.results) console.log(`${r.name.padEnd(72)} ${r.impl.padEnd(5)} ${String(r.ms_median).padStart(9)} ms`);
        for (const [k, v] of Object.entries(t.train_vs_tfjs)) console.log(`train_vs_tfjs ${k}: ${v}x`);' "$tmp/train.json"
    } > "$tmp/all.out"
  fi
elif ((native)); then
  cp "$tmp/main.out" "$tmp/all.out"
fi

# Whole checkpoints (bench/node/checkpoints.mjs): merged into the JSON object (results, ratios
# checkpoint_vs_*, bert_base_trace_ms, gpt2_small_token_ms, ...) or printed after the table.
if ((checkpoints)); then
  ck_args=(--ours "$ours_dir")
  ((quick)) && ck_args+=(--quick)
  log "checkpoints: node bench/node/checkpoints.mjs --json ${ck_args[*]}"
  ck_status=0
  node bench/node/checkpoints.mjs --json "${ck_args[@]}" > "$tmp/ck.json" || ck_status=$?
  ((ck_status == 0 || ck_status == 2)) || exit "$ck_status"
  [ -f "$tmp/all.out" ] || { ((json)) && echo '{}' > "$tmp/all.out" || : > "$tmp/all.out"; }
  if ((json)); then
    node -e 'const fs = require("fs"), [a, c] = process.argv.slice(1).map((f) => JSON.parse(fs.readFileSync(f, "utf8")));
      for (const [k, v] of Object.entries(c)) {
        if (Array.isArray(v)) a[k] = (a[k] || []).concat(v);
        else if (k === "ratios") { a[k] ||= {}; for (const [r, x] of Object.entries(v)) a[k][r] = Object.assign(a[k][r] || {}, x); }
        else if (k === "peer_formulation_used" || k === "versions") a[k] = Object.assign(a[k] || {}, v);
        else if (k === "machine") a[k] ||= v;
        else if (k === "settings") a[k] = a[k] ? `${a[k]}; ${v}` : v;
        else a[k] = v;
      }
      process.stdout.write(JSON.stringify(a, null, 1) + "\n");' "$tmp/all.out" "$tmp/ck.json" > "$tmp/all2.out"
  else
    { cat "$tmp/all.out"; echo; echo "== checkpoints =="; node bench/node/bench.mjs --from-json "$tmp/ck.json"; } > "$tmp/all2.out"
  fi
  mv "$tmp/all2.out" "$tmp/all.out"
  # Modern decoders (bench/node/decoders.mjs, issue 31): SmolLM2-135M- and Qwen2.5-0.5B-sized
  # generation, ours against onnxruntime-web (KV cache graph) and wllama (GGUF, in Chromium);
  # merged the same way (ratios checkpoint_vs_{ort,wllama}*, decoders, bandwidth_share).
  dec_args=(--ours "$ours_dir")
  ((quick)) && dec_args+=(--quick)
  log "checkpoints: node bench/node/decoders.mjs --json ${dec_args[*]}"
  dec_status=0
  node bench/node/decoders.mjs --json "${dec_args[@]}" > "$tmp/dec.json" || dec_status=$?
  ((dec_status == 0 || dec_status == 2)) || exit "$dec_status"
  ((dec_status == 2)) && ck_status=2
  if ((json)); then
    node -e 'const fs = require("fs"), [a, c] = process.argv.slice(1).map((f) => JSON.parse(fs.readFileSync(f, "utf8")));
      for (const [k, v] of Object.entries(c)) {
        if (Array.isArray(v)) a[k] = (a[k] || []).concat(v);
        else if (k === "ratios") { a[k] ||= {}; for (const [r, x] of Object.entries(v)) a[k][r] = Object.assign(a[k][r] || {}, x); }
        else if (k === "peer_formulation_used" || k === "versions") a[k] = Object.assign(a[k] || {}, v);
        else if (k === "machine") a[k] ||= v;
        else if (k === "settings") a[k] = a[k] ? `${a[k]}; ${v}` : v;
        else a[k] = v;
      }
      process.stdout.write(JSON.stringify(a, null, 1) + "\n");' "$tmp/all.out" "$tmp/dec.json" > "$tmp/all2.out"
  else
    { cat "$tmp/all.out"; echo; echo "== modern decoders =="; node --input-type=module -e 'import fs from "fs"; import { renderTable } from "./bench/node/suite.mjs"; import { renderDecoders } from "./bench/node/decoders.mjs"; const R = JSON.parse(fs.readFileSync(process.argv[1], "utf8")); process.stdout.write(renderTable(R) + "\n" + renderDecoders(R));' "$tmp/dec.json"; } > "$tmp/all2.out"
  fi
  mv "$tmp/all2.out" "$tmp/all.out"
fi

# The same WebAssembly comparison in headless Chromium (bench/browser/run.mjs): with --json it
# becomes the "browser" object of the one JSON object (Node's stays at the top level).
status=0
if ((browser)); then
  browser_args=()
  ((quick)) && browser_args+=(--quick)
  ((json)) && browser_args+=(--json)
  log "browser: node bench/browser/run.mjs ${browser_args[*]}"
  node bench/browser/run.mjs "${browser_args[@]}" > "$tmp/browser.out" || status=$?
  ((status == 0 || status == 2)) || exit "$status"  # 2: a correctness check failed; still print it
  # threads_vs_one: the threaded module on an isolated origin, N threads vs 1 (bench/browser/threads.mjs).
  threads_args=()
  ((quick)) && threads_args+=(--quick)
  log "browser: node bench/browser/threads.mjs ${threads_args[*]}"
  node bench/browser/threads.mjs "${threads_args[@]}" > "$tmp/threads.json" || { s=$?; ((s == 2)) || exit "$s"; status=2; }
  # Threaded peers: the same comparison on an isolated page, every implementation at
  # min(navigator.hardwareConcurrency, 4) threads (tfjs threaded-SIMD, ort numThreads, our pool).
  log "browser: node bench/browser/run.mjs --threads auto ${browser_args[*]}"
  node bench/browser/run.mjs --threads auto "${browser_args[@]}" > "$tmp/browser-mt.out" || { s=$?; ((s == 2)) || exit "$s"; status=2; }
  if ((json)); then
    node -e 'const fs = require("fs"), [f, t, m] = process.argv.slice(1), b = JSON.parse(fs.readFileSync(f, "utf8")), th = JSON.parse(fs.readFileSync(t, "utf8")), mt = JSON.parse(fs.readFileSync(m, "utf8"));
      (b.ratios ||= {}).threads_vs_one = th.threads_vs_one; b.threads = th;
      b.threaded = { thread_counts: mt.thread_counts, settings: mt.settings, ratios: mt.ratios, results: mt.results, peer_formulation_used: mt.peer_formulation_used, checks: mt.checks, notes: mt.notes };
      fs.writeFileSync(f, JSON.stringify(b));' "$tmp/browser.out" "$tmp/threads.json" "$tmp/browser-mt.out"
  else
    { cat "$tmp/threads.json"; echo; echo "== in the browser, threaded (isolated page) =="; cat "$tmp/browser-mt.out"; } >> "$tmp/browser.out"
  fi
  if ((json)); then
    [ -f "$tmp/all.out" ] || echo '{}' > "$tmp/all.out"
    node -e 'const fs = require("fs"), [a, b] = process.argv.slice(1).map((f) => JSON.parse(fs.readFileSync(f, "utf8")));
      a.browser = b; process.stdout.write(JSON.stringify(a, null, 1) + "\n");' "$tmp/all.out" "$tmp/browser.out"
  else
    [ -f "$tmp/all.out" ] && { cat "$tmp/all.out"; echo; echo "== in the browser =="; }
    cat "$tmp/browser.out"
  fi
else
  cat "$tmp/all.out"
fi
((status == 0)) && ((checkpoints)) && status=$ck_status
exit "$status"
