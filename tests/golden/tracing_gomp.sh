#!/usr/bin/env bash
# libparallax-gomp.so traces OpenMP programs built with GCC (libgomp, no OMPT) by interposing
# its GOMP_* entry points, with the OMPT tool's Extrae types (tracing/README.md, "OpenMP with
# GCC (libgomp)"). tests/tracing/gomp_regions.c (gcc) and tests/tracing/gomp_fortran.f90
# (gfortran) run on 2 threads; the merged traces are read with BSC's OpenMP cfgs through
# `parallax paramedir` and `parallax text`, and every count is the one the program makes:
# regions, loops, loop chunks (Scheduling calls), barriers, critical sections and locks, tasks,
# and the outlined functions (main._omp_fn.0, MAIN__._omp_fn.0) resolve with their lines.
# A program without libgomp under the library writes nothing.
# Skipped (77) without the library, gcc, or the test data's cfgs; the Fortran part without
# gfortran.
set -euo pipefail
BIN=$(realpath "$1")
DATA=$(realpath "$2")
BUILD=$(cd "$(dirname "$BIN")/.." && pwd)
SRC=$(cd "$(dirname "$0")/../tracing" && pwd)
LIB=$BUILD/lib/libparallax-gomp.so
CFG=$DATA/cfg/bsc
[ -f "$LIB" ] || { echo "skipped: $LIB not built"; exit 77; }
command -v gcc >/dev/null || { echo "skipped: no gcc"; exit 77; }
[ -f "$CFG/OpenMP/analysis/omp_profile.cfg" ] || { echo "skipped: no BSC OpenMP cfgs in $DATA"; exit 77; }
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
. "$(dirname "$0")/lib/tracing.bash"  # check, preload, events, values
PRELOAD=$(preload "$LIB")
run() {  # name program: traced on 2 threads into $OUT/NAME.prv
  OMP_NUM_THREADS=2 PXT_COUNTERS=none PXT_VERBOSE=0 PXT_OUTPUT_DIR=$OUT PXT_OUTPUT_NAME=$1 \
    LD_PRELOAD="$PRELOAD" "$2"
}
# Intervals of a thread-level cfg window on every thread, as "value label" lines.
intervals() {  # trace cfg [window]
  local threads
  threads=$(head -1 "$1" | sed 's/.*(\([0-9]*\):[0-9]*)$/\1/')  # the last "(THREADS:NODE)"
  for t in $(seq 1 "$threads"); do
    "$BIN" text "$1" --cfg "$2" ${3:+--window "$3"} --object "THREAD 1.1.$t" --json
  done | python3 -c '
import json, sys
dec = json.JSONDecoder(); s = sys.stdin.read(); i = 0
while i < len(s):
    while i < len(s) and s[i].isspace(): i += 1
    if i >= len(s): break
    d, i = dec.raw_decode(s, i)
    for iv in d["intervals"]: print(int(iv["value"]), iv.get("label", ""))'
}
count() { grep -c -- "$1" || true; }  # lines of stdin matching
# Bursts of each parallel function per thread (BSC's OpenMP profile, # Bursts), "NAME=N,N".
profile() {  # trace
  (cd "$OUT" && rm -f omp_profile && "$BIN" paramedir "$1" "$CFG/OpenMP/analysis/omp_profile.cfg" >/dev/null 2>&1)
  python3 -c '
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
head = [h for h in rows[0] if h]
threads = [r for r in rows if r[0].startswith("THREAD")]
print(" ".join("%s=%s" % (h, ",".join("%g" % float(r[i + 1]) for r in threads)) for i, h in enumerate(head)))' \
    "$OUT/omp_profile"
}
# Lines of a .pcf value list, for a type.
labels() { awk -v t="$2" '$1 == 0 && $2 == t {on = 1; next} on && /^VALUES/ {next} on && NF == 0 {on = 0} on' "$1"; }

T=2
# ---- C: gomp_regions.c --------------------------------------------------------------------
R=3 N=100 CHUNK=10 TASKS=2   # as in tests/tracing/gomp_regions.c
gcc -fopenmp -g -O1 "$SRC/gomp_regions.c" -o "$OUT/gomp_regions"
out=$(run c "$OUT/gomp_regions")
check "C program output" "$out" "regions $R threads $T sum 44550 locked $((R * T)) tasks $((R * TASKS))"
PRV=$OUT/c.prv
# Every thread runs the outlined function once per region; no other function (never main).
check "parallel function bursts per thread (omp_profile.cfg)" "$(profile "$PRV")" "main._omp_fn.0=$R,$R"
line=$(grep -n '^#pragma omp parallel' "$SRC/gomp_regions.c" | head -1 | cut -d: -f1)
check "parallel function line (parallel_function_lines.cfg)" \
  "$(intervals "$PRV" "$CFG/OpenMP/views/parallel_function_lines.cfg" | grep -v '^0 ' | sort -u)" \
  "3 $line (gomp_regions.c, gomp_regions)"
# Worksharing loops seen (60000001 = 1): the dynamic loop, once per region on each thread; the
# static loop is inlined by GCC and not seen.
check "loops opened (60000001 = 1)" \
  "$(grep -o ':60000001:1' "$PRV" | wc -l)" \
  "$((R * T))"
# Regions opened on the master: 60000001 = 3 after a close (0 or nothing).
check "regions opened on the master" \
  "$(awk -F: '$1 == 2 && $5 == 1 { for (i = 7; i < NF; i += 2) if ($i == 60000001) { if ($(i + 1) == 3 && last == 0) n++; last = $(i + 1) } } END { print n + 0 }' "$PRV")" "$R"
# Chunks: each GOMP_loop_*_start/_next call is one Scheduling interval: the N/CHUNK calls that
# get a chunk plus, on each thread, the one that finds the loop done; and each thread's
# GOMP_single_start.
states=$(intervals "$PRV" "$CFG/General/views/state_as_is.cfg")
check "Scheduling intervals (state_as_is.cfg): chunks + T loop ends + T singles, per region" \
  "$(echo "$states" | count '^7 ')" "$((R * (N / CHUNK + T + T)))"
check "worker Idle between regions" "$(echo "$states" | grep -q '^0 Idle' && echo yes)" "yes"
# Barriers: GOMP_loop_end (the dynamic loop has no nowait) and the explicit barrier, per
# thread and region.
check "barrier entries (in_barrier.cfg)" \
  "$(intervals "$PRV" "$CFG/OpenMP/views/in_barrier.cfg" | count '^1 ')" "$((2 * R * T))"
# Held: the critical section (60000006) and the lock (60000007), once per thread and region.
locks=$(intervals "$PRV" "$CFG/OpenMP/views/locks.cfg" "OpenMP Lock status")
check "locked intervals (locks.cfg, Lock status)" "$(echo "$locks" | count '^6 ')" "$((2 * R * T))"
check "critical sections held (60000006 = 6)" \
  "$(grep -o ':60000006:6' "$PRV" | wc -l)" "$((R * T))"
check "omp_set_lock held (60000007 = 6)" "$(grep -o ':60000007:6' "$PRV" | wc -l)" "$((R * T))"
# Tasks: TASKS per region, each instantiated once and executed once, as main._omp_fn.1.
tasks=$(intervals "$PRV" "$CFG/OpenMP/views/task_execution.cfg" | grep -v '^0 ')
check "tasks executed (task_execution.cfg)" "$(echo "$tasks" | grep -c .)" "$((R * TASKS))"
check "task function" "$(echo "$tasks" | cut -d' ' -f2- | sort -u)" "main._omp_fn.1"
check "tasks instantiated (task_instantiation.cfg)" \
  "$(intervals "$PRV" "$CFG/OpenMP/views/task_instantiation.cfg" | grep -vc '^0 ' || true)" "$((R * TASKS))"
check "no parallel function named main" "$(labels "$OUT/c.pcf" 60000018 | awk '$2 == "main"' | wc -l)" "0"

# ---- Fortran: gomp_fortran.f90 --------------------------------------------------------------
if command -v gfortran >/dev/null; then
  gfortran -fopenmp -g -O1 "$SRC/gomp_fortran.f90" -o "$OUT/gomp_fortran"
  check "Fortran program output" "$(run f "$OUT/gomp_fortran")" "threads $T sum 500500."
  PRV=$OUT/f.prv
  check "Fortran parallel function bursts (omp_profile.cfg)" "$(profile "$PRV")" "MAIN__._omp_fn.0=1,1"
  line=$(grep -n '!\$omp parallel do' "$SRC/gomp_fortran.f90" | head -1 | cut -d: -f1)
  check "Fortran parallel function line" \
    "$(intervals "$PRV" "$CFG/OpenMP/views/parallel_function_lines.cfg" | grep -v '^0 ' | sort -u)" \
    "3 $line (gomp_fortran.f90, gomp_fortran)"
  # 1000 iterations in chunks of 50: 20 chunks, plus one final call per thread.
  check "Fortran Scheduling intervals (chunks + T)" \
    "$(intervals "$PRV" "$CFG/General/views/state_as_is.cfg" | count '^7 ')" "$((1000 / 50 + T))"
  check "Fortran loops opened" "$(grep -o ':60000001:1' "$PRV" | wc -l)" "$T"
  # GOMP_loop_end_nowait (the reduction follows): no barrier call.
  check "Fortran barrier entries" "$(intervals "$PRV" "$CFG/OpenMP/views/in_barrier.cfg" | count '^1 ')" "0"
else
  echo "skipped Fortran part: no gfortran"
fi

# ---- A program without libgomp: nothing traced, no file ---------------------------------------
printf 'int main(void) { return 0; }\n' > "$OUT/plain.c"
gcc "$OUT/plain.c" -o "$OUT/plain"
mkdir "$OUT/plain.d"
OMP_NUM_THREADS=2 PXT_OUTPUT_DIR=$OUT/plain.d LD_PRELOAD="$PRELOAD" "$OUT/plain"
check "no trace without libgomp" "$(ls -A "$OUT/plain.d" | wc -l)" "0"

exit $fail
