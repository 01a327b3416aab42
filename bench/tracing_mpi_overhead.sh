#!/usr/bin/env bash
# Overhead of libparallax-mpi.so on the MPI example: wall time of `mpirun -np 4
# pxt_example_mpi` without the tracer, with it, and with it but without call-site capture
# (PXT_CALLERS=0) (best of REPS runs each, hardware counters off: PXT_COUNTERS=none), the merge
# excluded (PXT_MERGE=0) and then timed on its own with `parallax merge` (which resolves the
# call sites with libdw).
# Usage: bash bench/tracing_mpi_overhead.sh BUILD_DIR [ITERATIONS] [WORK] [REPS]
set -euo pipefail
BUILD=${1:-build}
ITER=${2:-200}
WORK=${3:-20000}
REPS=${4:-5}
EXAMPLE=$BUILD/bin/pxt_example_mpi
LIB=$BUILD/lib/libparallax-mpi.so
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
MPIRUN=(mpirun --allow-run-as-root --oversubscribe -np 4)

best() {  # best wall time in seconds of REPS runs of "$@"
  local best=""
  for _ in $(seq "$REPS"); do
    local t0 t1
    t0=$(date +%s.%N)
    "$@" >/dev/null
    t1=$(date +%s.%N)
    best=$(python3 -c "b='$best'; d=$t1-$t0; print(d if not b else min(float(b), d))")
  done
  echo "$best"
}

plain=$(best "${MPIRUN[@]}" "$EXAMPLE" "$ITER" "$WORK")
nocallers=$(best "${MPIRUN[@]}" -x LD_PRELOAD="$LIB" -x PXT_OUTPUT_DIR="$OUT/nc" -x PXT_MERGE=0 \
  -x PXT_CALLERS=0 -x PXT_COUNTERS=none "$EXAMPLE" "$ITER" "$WORK")
traced=$(best "${MPIRUN[@]}" -x LD_PRELOAD="$LIB" -x PXT_OUTPUT_DIR="$OUT" -x PXT_MERGE=0 \
  -x PXT_COUNTERS=none "$EXAMPLE" "$ITER" "$WORK")
t0=$(date +%s.%N)
"$BUILD/bin/parallax" merge "$OUT/pxt_example_mpi.pxt.d" -o "$OUT/m.prv" --force >/dev/null
t1=$(date +%s.%N)
records=$("$BUILD/bin/parallax" info --json "$OUT/m.prv" |
  python3 -c 'import json,sys; i=json.load(sys.stdin); print(i["states"]+i["event_pairs"]+i["comms"])')
python3 - "$plain" "$traced" "$(python3 -c "print($t1-$t0)")" "$records" "$ITER" "$nocallers" <<'PY'
import sys
plain, traced, merge, records, iters, nocallers = map(float, sys.argv[1:])
print(f"MPI example, 4 ranks, {int(iters)} iterations (best of runs, wall time incl. mpirun start-up)")
print(f"  without tracer  {plain:.3f} s")
print(f"  tracer, no call sites {nocallers:.3f} s   overhead {nocallers - plain:+.3f} s ({(nocallers / plain - 1) * 100:+.1f} %)")
print(f"  with tracer     {traced:.3f} s   overhead {traced - plain:+.3f} s ({(traced / plain - 1) * 100:+.1f} %)")
print(f"  records         {int(records)} (states + event pairs + comms) -> "
      f"{(traced - plain) / records * 1e9:.0f} ns per record incl. start-up, clock sync and files")
print(f"  merge           {merge:.3f} s (parallax merge, separate)")
PY
