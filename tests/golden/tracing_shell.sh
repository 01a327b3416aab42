#!/usr/bin/env bash
# A program started through a traced shell (`LD_PRELOAD=... bash -c "prog; true"`, one output
# name for both): the shell records nothing, so it writes no process file and merges nothing;
# the program's trace (5 threads) is the one left in NAME.prv. A second program run in the same
# shell with the same name gets NAME.PID.prv instead of replacing the first one's trace.
set -euo pipefail
BIN=$1
BUILD=$(cd "$(dirname "$BIN")/.." && pwd)
OUT=$(mktemp -d)
ASAN_LIB=$(ldd "$BUILD/bin/pxt_example_threads" | awk '/libasan/ {print $3}')
PRELOAD="${ASAN_LIB:+$ASAN_LIB:}$BUILD/lib/libparallax-pthread.so"
export ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0
trap 'rm -rf "$OUT"' EXIT
PROG="$BUILD/bin/pxt_example_threads"

PXT_OUTPUT_DIR=$OUT PXT_OUTPUT_NAME=run LD_PRELOAD="$PRELOAD" bash -c "'$PROG' 4; true" \
  >"$OUT/stdout" 2>"$OUT/stderr"
threads=$(sed -n 's/^LEVEL THREAD SIZE //p' "$OUT/run.row")
[ "$threads" = 5 ] || { echo "tracing_shell: run.prv has $threads threads, expected the program's 5"; cat "$OUT/stderr"; exit 1; }
files=$(ls "$OUT/run.pxt.d")
[ "$(echo "$files" | wc -l)" = 1 ] && [[ "$files" == pxt_example_threads.*.pxt ]] \
  || { echo "tracing_shell: process files: $files (expected one, named after the program)"; exit 1; }
echo "ok traced shell: the program's trace is kept, the shell wrote nothing"

PXT_OUTPUT_DIR=$OUT PXT_OUTPUT_NAME=two LD_PRELOAD="$PRELOAD" bash -c "'$PROG' 2; '$PROG' 3; true" \
  >"$OUT/stdout" 2>"$OUT/stderr"
ls "$OUT"/two.*.prv >/dev/null 2>&1 || { echo "tracing_shell: no two.PID.prv"; cat "$OUT/stderr"; exit 1; }
grep -q "two.prv was written by another process of this run" "$OUT/stderr" \
  || { echo "tracing_shell: the second program did not say where it wrote"; cat "$OUT/stderr"; exit 1; }
echo "ok two programs in one traced shell: two traces"
