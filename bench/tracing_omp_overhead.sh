#!/usr/bin/env bash
# Overhead of tracing a fine-grained OpenMP program (bench/omp_fine.c: many short parallel
# regions, each a dynamic loop and a barrier) built with GCC, traced through libgomp's entry
# points (libparallax-gomp.so) and, when clang and libparallax-omp.so are there, built with clang
# and traced through OMPT. Untraced and traced runs are interleaved round by round (the order
# reversed every other round); hardware counters off and the merge excluded (PXT_MERGE=0). For
# each: the median wall time of the regions, the overhead (median of the per-round ratios), the
# trace events per second of the traced runs and the cost per event.
# Usage: bash bench/tracing_omp_overhead.sh BUILD_DIR [ROUNDS=5] [REGIONS=20000] [THREADS=2]
set -euo pipefail
BUILD=$(cd "${1:-build}" && pwd)
ROUNDS=${2:-5}
REGIONS=${3:-20000}
THREADS=${4:-2}
SRC=$(cd "$(dirname "$0")" && pwd)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
echo "load: $(cut -d' ' -f1-3 /proc/loadavg); $THREADS threads, $REGIONS regions of a dynamic loop of 8 chunks and a barrier"

measure() {  # name compiler lib
  local name=$1 cc=$2 lib=$3
  [ -f "$lib" ] || { echo "$name: skipped ($lib not built)"; return; }
  command -v "$cc" > /dev/null || { echo "$name: skipped (no $cc)"; return; }
  "$cc" -O2 -fopenmp "$SRC/omp_fine.c" -o "$OUT/$name"
  local plain=() traced=()
  for r in $(seq 1 "$ROUNDS"); do
    for v in $( ((r % 2)) && echo "plain traced" || echo "traced plain"); do
      rm -rf "$OUT/$name.d"
      if [ "$v" = plain ]; then
        t=$(OMP_NUM_THREADS=$THREADS "$OUT/$name" "$REGIONS" | awk '{print $8}')
        plain+=("$t")
      else
        t=$(OMP_NUM_THREADS=$THREADS PXT_COUNTERS=none PXT_MERGE=0 PXT_VERBOSE=0 PXT_OUTPUT_DIR="$OUT/$name.d" \
            PXT_OUTPUT_NAME=run LD_PRELOAD="$lib" "$OUT/$name" "$REGIONS" | awk '{print $8}')
        traced+=("$t")
      fi
    done
  done
  # The events of one traced run: merge the last one and count its type:value pairs.
  "$BUILD/bin/parallax" merge "$OUT/$name.d/run.pxt.d" -o "$OUT/$name.prv" > /dev/null 2>&1 || true
  local events=0
  [ -f "$OUT/$name.prv" ] && events=$(awk -F: '$1 == 2 {n += (NF - 6) / 2} END {print n + 0}' "$OUT/$name.prv")
  python3 - "$name" "$events" "${plain[*]}" "${traced[*]}" <<'PY'
import statistics, sys
name, events = sys.argv[1], int(sys.argv[2])
plain = [float(x) for x in sys.argv[3].split()]
traced = [float(x) for x in sys.argv[4].split()]
ratios = [t / p for p, t in zip(plain, traced)]
mp, mt = statistics.median(plain), statistics.median(traced)
print(f"{name}: untraced {mp:.3f} s, traced {mt:.3f} s (median of {len(plain)}); overhead "
      f"{100 * (statistics.median(ratios) - 1):+.1f} % (per-round ratios {min(ratios):.3f}..{max(ratios):.3f}); "
      f"{events} events, {events / mt / 1e6:.2f} M events/s, {1e9 * (mt - mp) / max(events, 1):.0f} ns per event")
PY
}
measure gcc-libgomp gcc "$BUILD/lib/libparallax-gomp.so"
measure clang-ompt clang "$BUILD/lib/libparallax-omp.so"
