#!/usr/bin/env bash
# isolated-suites.sh — issue 21's "the browser suites run once isolated and once not": runs the
# suites that exercise the shell and the engine again with the site served cross-origin isolated
# (EW_ISOLATED=1: tests/harness.mjs serverOptions, COOP/COEP), so the page runs the threaded build
# (each suite asserts it once: crossOriginIsolated and "on N threads" in the readout). The
# default-mode runs are scripts/test.sh's own lines. Prints each suite's time; fails if any fails.
#
#   bash tests/browser/isolated-suites.sh [-j 2] [SUITE...]   (default: the suites below, one at a time)
set -u
cd "$(dirname "$0")/../.."
jobs=1
if [ "${1:-}" = "-j" ]; then jobs=$2; shift 2; fi
suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=(run blog elements trained lab checkpoints)
cli=build/native-release/encoder-walkthrough
logs=$(mktemp -d)
export EW_ISOLATED=1

one() {
  local s=$1 t0 rc
  t0=$(date +%s)
  node "tests/browser/$s.mjs" --cli "$cli" --artifacts "artifacts/isolated-$s" >"$logs/$s.log" 2>&1
  rc=$?
  echo "$rc $(( $(date +%s) - t0 ))" >"$logs/$s.rc"
}

t0=$(date +%s)
running=0
for s in "${suites[@]}"; do
  one "$s" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
done
wait

failed=0
for s in "${suites[@]}"; do
  read -r rc secs <"$logs/$s.rc"
  echo "== $s.mjs isolated: exit $rc, ${secs} s"
  if [ "$rc" != 0 ]; then failed=$((failed + 1)); grep -E '^(FAIL|     )' "$logs/$s.log" | head -30; fi
  grep -E '^skip |build readout|passed, .* failed' "$logs/$s.log"
done
echo "isolated suites: ${#suites[@]} run, $failed failed, $(( $(date +%s) - t0 )) s in all (-j $jobs)"
rm -rf "$logs"
[ "$failed" = 0 ]
