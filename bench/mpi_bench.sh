#!/usr/bin/env bash
# paramedir and pop over MPI ranks: wall time of a paramedir-mode states profile
# (bench/states_profile.cfg) with `parallax paramedir` and with `mpirun -np N parallax-mpi
# paramedir` for N = 1, 2, 4 (oversubscribed beyond the cores), all reading the trace cache,
# and each run's speed-up against one rank; then the same for `parallax pop` (the POP metrics
# with the ideal replay). Outputs are checked identical. CPU is the user + system seconds of all
# the processes of a run (mpirun's included).
# Usage: bash bench/mpi_bench.sh [BUILD_DIR] [SIZE | TRACE.prv]   (default: build 1G)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=$(realpath "${1:-build}")
ARG=${2:-1G}
TMP=$(mktemp -d /tmp/parallax-mpi-bench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
CFG=$(realpath bench/states_profile.cfg)
if [[ -f $ARG ]]; then
  TRACE=$(realpath "$ARG")
else
  nice "$BUILD/bin/parallax-gen" --size "$ARG" --out "$TMP/synth" >/dev/null
  TRACE=$TMP/synth.prv
fi
export PARALLAX_CACHE_DIR=$TMP/cache
"$BUILD/bin/parallax" cache build "$TRACE" >/dev/null
cat "$PARALLAX_CACHE_DIR"/*.pxc >/dev/null  # warm the page cache: we measure the analysis
seconds() {  # command...: "WALL CPU ANALYSIS" seconds (ANALYSIS: paramedir's, or -)
  PARALLAX_TIMINGS=1 /usr/bin/time -f '%e %U %S' -o "$TMP/time" "$@" >/dev/null 2>"$TMP/err"
  local analysis
  analysis=$(sed -n 's/.*timings: open [0-9.]* s, analysis \([0-9.]*\) s.*/\1/p' "$TMP/err" | tail -1)
  awk -v a="${analysis:--}" '{ printf "%.2f %.2f %s\n", $1, $2 + $3, a }' "$TMP/time"
}
mkdir -p "$TMP/single"
printf 'trace %s (%d MiB), states profile from the cache\n' "$(basename "$TRACE")" "$(( $(stat -c %s "$TRACE") / 1048576 ))"
read -r t cpu an < <(cd "$TMP/single" && seconds "$BUILD/bin/parallax" paramedir "$TRACE" "$CFG")
printf '%-28s %6s s wall %6s s cpu  analysis %s s\n' "parallax paramedir" "$t" "$cpu" "$an"
speedup() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
one="" one_an=""
for n in 1 2 4; do
  mkdir -p "$TMP/np$n"
  read -r t cpu an < <(cd "$TMP/np$n" && seconds mpirun --allow-run-as-root --oversubscribe -np "$n" "$BUILD/bin/parallax-mpi" paramedir "$TRACE" "$CFG")
  [[ -z $one ]] && one=$t one_an=$an
  diff -r "$TMP/single" "$TMP/np$n" >/dev/null || { echo "np $n: output differs" >&2; exit 1; }
  printf '%-28s %6s s wall %6s s cpu  speed-up %s; analysis %s s, speed-up %s\n' "mpirun -np $n parallax-mpi" \
    "$t" "$cpu" "$(speedup "$one" "$t")" "$an" "$(speedup "$one_an" "$an")"
done
# pop: the threads dealt out, the last rank replaying the trace on the ideal network.
"$BUILD/bin/parallax" pop "$TRACE" --format csv >"$TMP/pop.single" 2>/dev/null
read -r t cpu _ < <(seconds "$BUILD/bin/parallax" pop "$TRACE" --format csv)
printf '%-28s %6s s wall %6s s cpu\n' "parallax pop" "$t" "$cpu"
one=""
for n in 1 2 4; do
  read -r t cpu _ < <(seconds mpirun --allow-run-as-root --oversubscribe -np "$n" "$BUILD/bin/parallax-mpi" pop "$TRACE" --format csv)
  mpirun --allow-run-as-root --oversubscribe -np "$n" "$BUILD/bin/parallax-mpi" pop "$TRACE" --format csv 2>/dev/null |
    cmp -s - "$TMP/pop.single" || { echo "pop np $n: output differs" >&2; exit 1; }
  [[ -z $one ]] && one=$t
  printf '%-28s %6s s wall %6s s cpu  speed-up %s\n' "mpirun -np $n parallax-mpi pop" "$t" "$cpu" "$(speedup "$one" "$t")"
done
