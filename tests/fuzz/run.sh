#!/usr/bin/env bash
# run.sh [SECONDS] — builds the three fuzz targets (the model-file parser, the safetensors
# reader and the checkpoint tokenizer files' parsers, the parsers of files a user drops in) with Debian's clang-14 (libclang-rt-14-dev has
# libFuzzer; clang-19 cannot compile xtensor 0.24's headers), libFuzzer, ASan and UBSan, replays every input in regressions/<target>/ (crashes found before, kept), then
# fuzzes each target for SECONDS (default 30) from corpus/<target>/. Exits non-zero on a crash
# or a sanitizer report; a new crashing input is left as crash-* in the work folder — add it
# to regressions/<target>/ with the fix.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-30}
root=$(cd ../.. && pwd)
work=${FUZZ_WORK:-$root/build/fuzz}
mkdir -p "$work"
cxx=${CXX_FUZZ:-clang++-14}
command -v "$cxx" >/dev/null || { echo "fuzz: $cxx not found (apt-get install clang-14 libclang-rt-14-dev)" >&2; exit 1; }
flags=(-std=c++17 -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -I"$root/core")
# The core, compiled once for all targets (two at a time); a file is rebuilt when it or any
# core header is newer than its object.
mkdir -p "$work/obj"
models=$(ls "$root"/models/*.safetensors 2>/dev/null | tr '\n' ';')
cmake -DOUT="$work/builtin_models.cpp" -DMODELS="${models%;}" -P "$root/cmake/embed_models.cmake"
newest_header=$(ls -t "$root"/core/*/*.h | head -1)
# The core compiles in unity batches of 14 files, as CMake's EW_UNITY builds it (each batch parses
# the heavy headers once); the Unicode tables and the models are data, compiled alone.
batch=() n=0 units=()
flush() {
  [ ${#batch[@]} -gt 0 ] || return 0
  local unit="$work/unity_$n.cpp"
  printf '#include "%s"\n' "${batch[@]}" >"$unit.new"
  cmp -s "$unit.new" "$unit" && rm "$unit.new" || mv "$unit.new" "$unit"
  units+=("$unit"); batch=(); n=$((n + 1))
}
for src in "$root"/core/*/*.cpp; do
  case "$src" in */unicode_data.cpp) units+=("$src"); continue ;; esac
  batch+=("$src"); [ ${#batch[@]} -eq 14 ] && flush
done
flush
rm -f $(ls "$work"/obj/*.o 2>/dev/null | grep -v -e '/unity_[0-9]*\.o$' -e '/unicode_data\.o$' -e '/builtin_models\.o$')
for unit in "${units[@]}" "$work/builtin_models.cpp"; do
  obj="$work/obj/$(basename "$unit" .cpp).o"
  stale=0
  [ ! -f "$obj" ] || [ "$unit" -nt "$obj" ] || [ "$newest_header" -nt "$obj" ] && stale=1
  if [ $stale = 0 ] && [ "${unit##*/unity_}" != "$unit" ]; then
    for src in $(sed 's/#include "\(.*\)"/\1/' "$unit"); do [ "$src" -nt "$obj" ] && stale=1; done
  fi
  if [ $stale = 1 ]; then echo "$cxx ${flags[*]} -c $unit -o $obj"; fi
done | xargs -P 2 -I{} sh -c '{}'
# Each target: link, replay its past crashes, fuzz. Two at a time (the machine has 2 cores; each
# fuzzer is one process): the third starts when one of the first two ends.
fuzz_one() {
  local target=$1 bin="$work/fuzz_$1"
  echo "fuzz: linking $target"
  "$cxx" "${flags[@]}" -fsanitize=fuzzer "fuzz_$target.cpp" "$work"/obj/*.o -o "$bin"
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
targets=(model_json safetensors tokenizer)
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
