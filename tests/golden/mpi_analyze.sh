#!/usr/bin/env bash
# `mpirun -np N parallax-mpi analyze TRACE --cfg CFG`: rank 0 prints the same tables, byte for
# byte, as `parallax analyze` (2D, 3D and communication histograms, every format, --last, -e,
# --from/--to), with 1, 2 and 3 ranks (oversubscribed); the other ranks print nothing. A
# missing cfg fails the run with a message instead of hanging. Runs with the trace cache off
# and on (golden_cached.*).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/parallax_mpi.bash"
mpi_setup "$@"
TRACE=$DATA/epoch/epoch_4proc.prv.gz

check() {  # name, analyze arguments...
  local name=$1 n
  shift
  "$BIN" analyze "$TRACE" "$@" >"$OUT/$name.single" 2>/dev/null
  [[ $(wc -l <"$OUT/$name.single") -ge 4 ]] || { echo "FAIL $name: the single run printed too little"; exit 1; }
  for n in $(mpi_ranks 1 2 3); do
    mpi "$n" "$MPI_BIN" analyze "$TRACE" "$@" >"$OUT/$name.np$n" 2>"$OUT/$name.np$n.err" ||
      { echo "FAIL $name: $n ranks exited non-zero"; cat "$OUT/$name.np$n.err"; exit 1; }
    cmp -s "$OUT/$name.single" "$OUT/$name.np$n" ||
      { echo "FAIL $name: $n ranks differ from the single process"; diff "$OUT/$name.single" "$OUT/$name.np$n" | head; exit 1; }
  done
  echo "ok $name: identical with $(mpi_ranks 1 2 3 | sed "s/ /, /g") ranks"
}

check stats --cfg "$DATA/cfg/bsc/mpi/analysis/mpi_stats.cfg"
check 3d-json --cfg "$DATA/cfg/bsc/mpi/analysis/3dh_duration_MPIcall.cfg" --format json
check comm-csv --cfg "$DATA/cfg/bsc/mpi/analysis/connectivity.cfg" --format csv
check useful-portion --cfg "$DATA/cfg/bsc/General/analysis/2dh_useful_duration.cfg" -e --from 10% --to 60%
check last-markdown --cfg "$DATA/cfg/bsc/mpi/analysis/mpi_stats.cfg" --last --format markdown

if mpi 2 "$MPI_BIN" analyze "$TRACE" --cfg "$OUT/missing.cfg" >/dev/null 2>"$OUT/bad.err"; then
  echo "FAIL bad: a missing cfg did not fail the run"; exit 1
fi
grep -q "missing.cfg" "$OUT/bad.err" || { echo "FAIL bad: no message naming the cfg"; cat "$OUT/bad.err"; exit 1; }
echo "ok bad cfg: exit status non-zero with a message"
