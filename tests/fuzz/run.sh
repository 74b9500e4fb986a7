#!/usr/bin/env bash
# run.sh [SECONDS] — the three fuzz targets (the model-file parser, the safetensors reader and
# the checkpoint tokenizer files' parsers, the parsers of files a user drops in): libFuzzer,
# ASan and UBSan. Built by the native-asan preset (clang-14, whose libFuzzer Debian ships in
# libclang-rt-14-dev; tests/fuzz/CMakeLists.txt), the same build as the ASan suites, so the
# test command compiles the sanitized core once. Replays every input in regressions/<target>/
# (crashes found before, kept), then fuzzes each target for SECONDS (default 30) from
# corpus/<target>/. Exits non-zero on a crash or a sanitizer report; a new crashing input is
# left as crash-* in the work folder — add it to regressions/<target>/ with the fix.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-30}
root=$(cd ../.. && pwd)
work=${FUZZ_WORK:-$root/build/fuzz}
mkdir -p "$work"
command -v clang++-14 >/dev/null || { echo "fuzz: clang++-14 not found (apt-get install clang-14 libclang-rt-14-dev)" >&2; exit 1; }
targets=(model_json safetensors tokenizer)
(cd "$root" && cmake --preset native-asan >/dev/null &&
  cmake --build --preset native-asan -j"$(nproc 2>/dev/null || echo 2)" --target "${targets[@]/#/fuzz_}")
# Each target: replay its past crashes, fuzz. Two at a time (the machine has 2 cores; each
# fuzzer is one process): the third starts when one of the first two ends.
fuzz_one() {
  local target=$1 bin="$root/build/native-asan/tests/fuzz/fuzz_$1"
  local regressions=(regressions/$target/*)
  if [ -e "${regressions[0]}" ]; then
    echo "fuzz: $target: replaying ${#regressions[@]} regression input(s)"
    "$bin" "${regressions[@]}" >"$work/$target-regressions.log" 2>&1 || { cat "$work/$target-regressions.log"; return 1; }
  fi
  mkdir -p "$work/corpus-$target"
  echo "fuzz: $target: ${seconds} s"
  (cd "$work" && "$bin" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
     "corpus-$target" "$root/tests/fuzz/corpus/$target" >"$target.log" 2>&1) ||
    { tail -40 "$work/$target.log"; echo "fuzz: $target FAILED (see $work/$target.log; the input is $work/crash-*)"; return 1; }
  grep -E "^#[0-9]+ *DONE|Done [0-9]+ runs" "$work/$target.log" | tail -1 | sed "s/^/fuzz: $target: /"
}
run_bg() {
  rm -f "$work/$1.rc"
  if fuzz_one "$1"; then echo 0 >"$work/$1.rc"; else echo 1 >"$work/$1.rc"; fi
}
run_bg model_json &
run_bg safetensors &
wait -n || true
run_bg tokenizer
wait
failed=0
for t in "${targets[@]}"; do [ "$(cat "$work/$t.rc" 2>/dev/null)" = 0 ] || { echo "fuzz: $t failed" >&2; failed=1; }; done
[ "$failed" = 0 ] || exit 1
echo "fuzz: no crash"
