#!/usr/bin/env bash
# `mpirun -np N parallax-mpi paramedir`: the files rank 0 writes are byte-identical to those of
# `parallax paramedir` (2D, 3D and communication histograms, a timeline dump, -e, --from/--to),
# with 1, 2 and 3 ranks (oversubscribed); a cfg one rank cannot read fails the run with a
# message instead of hanging. Runs with the trace cache off and on (golden_cached.*).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/parallax_mpi.bash"
mpi_setup "$@"
TRACE=$DATA/epoch/epoch_4proc.prv.gz
CFGS=(
  "$DATA/cfg/bsc/mpi/analysis/mpi_stats.cfg"
  "$DATA/cfg/bsc/mpi/analysis/3dh_duration_MPIcall.cfg"
  "$DATA/cfg/bsc/mpi/analysis/connectivity.cfg"
  "$DATA/cfg/bsc/General/analysis/2dh_useful_duration.cfg"
  "$DATA/cfg/bsc/General/views/state_as_is.cfg"
)

run_both() {  # name, extra paramedir options...
  local name=$1
  shift
  mkdir -p "$OUT/$name/single"
  (cd "$OUT/$name/single" && "$BIN" paramedir "$@" "$TRACE" "${CFGS[@]}" 2>/dev/null)
  local n files
  files=$(cd "$OUT/$name/single" && ls)
  [[ $(echo "$files" | wc -l) -ge 4 ]] || { echo "FAIL $name: single run wrote only: $files"; exit 1; }
  for n in $(mpi_ranks 1 2 3); do
    mkdir -p "$OUT/$name/np$n"
    (cd "$OUT/$name/np$n" && mpi "$n" "$MPI_BIN" paramedir "$@" "$TRACE" "${CFGS[@]}" >/dev/null 2>"$OUT/$name/np$n.err") ||
      { echo "FAIL $name: $n ranks exited non-zero"; cat "$OUT/$name/np$n.err"; exit 1; }
    diff -r "$OUT/$name/single" "$OUT/$name/np$n" >/dev/null ||
      { echo "FAIL $name: $n ranks differ from the single process"; diff -r "$OUT/$name/single" "$OUT/$name/np$n" | head; exit 1; }
  done
  echo "ok $name: $(echo "$files" | wc -l) files identical with $(mpi_ranks 1 2 3 | sed "s/ /, /g") ranks"
}

run_both plain
run_both hidden-empty -e
run_both portion --from 10% --to 60%

# One cfg unreadable on every rank: the run fails (exit 1) and says why, the other files are
# still written. A damaged share is impossible to provoke from outside; the unit tests
# (Distributed*) cover a rank failing alone.
mkdir -p "$OUT/bad"
if (cd "$OUT/bad" && mpi 2 "$MPI_BIN" paramedir "$TRACE" "${CFGS[0]}" "$OUT/missing.cfg" >/dev/null 2>"$OUT/bad.err"); then
  echo "FAIL bad: a missing cfg did not fail the run"; exit 1
fi
grep -q "missing.cfg" "$OUT/bad.err" || { echo "FAIL bad: no message naming the cfg"; cat "$OUT/bad.err"; exit 1; }
[[ -s "$OUT/bad/mpi_stats" ]] || { echo "FAIL bad: the good cfg's file is missing"; ls "$OUT/bad"; exit 1; }
echo "ok bad cfg: exit status 1, message, the other file written"
