#!/usr/bin/env bash
# `mpirun -np N parallax-mpi pop TRACE...`: rank 0 prints the same report, byte for byte, as
# `parallax pop` (text, csv with its notes on stderr, json; one trace with hardware counters,
# one without, a scaling series dealt out by trace, --no-replay, a portion), with 1, 2 and 3
# ranks (oversubscribed); the other ranks print nothing. A missing trace stops every rank with
# one message each instead of hanging. Runs with the trace cache off and on (golden_cached.*).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/parallax_mpi.bash"
mpi_setup "$@"
EPOCH=$DATA/epoch

notes() { grep -E '^(note|warning): ' || true; }

check() {  # name, pop arguments...
  local name=$1 n
  shift
  "$BIN" pop "$@" >"$OUT/$name.single" 2>"$OUT/$name.single.err"
  [[ $(wc -l <"$OUT/$name.single") -ge 10 ]] || { echo "FAIL $name: the single run printed too little"; exit 1; }
  for n in $(mpi_ranks 1 2 3); do
    mpi "$n" "$MPI_BIN" pop "$@" >"$OUT/$name.np$n" 2>"$OUT/$name.np$n.err" ||
      { echo "FAIL $name: $n ranks exited non-zero"; cat "$OUT/$name.np$n.err"; exit 1; }
    cmp -s "$OUT/$name.single" "$OUT/$name.np$n" ||
      { echo "FAIL $name: $n ranks differ from the single process"; diff "$OUT/$name.single" "$OUT/$name.np$n" | head; exit 1; }
    # csv's notes and warnings go to stderr: the same lines, once (rank 0's). Other lines
    # (Open MPI's own) are not compared.
    cmp -s <(notes <"$OUT/$name.single.err") <(notes <"$OUT/$name.np$n.err") ||
      { echo "FAIL $name: $n ranks' notes differ"; diff "$OUT/$name.single.err" "$OUT/$name.np$n.err" | head; exit 1; }
  done
  echo "ok $name: identical with $(mpi_ranks 1 2 3 | sed "s/ /, /g") ranks"
}

# One trace (4 tasks, PAPI_TOT_INS and PAPI_TOT_CYC): its threads are dealt out, the last rank
# replays it on the ideal network.
check counters "$EPOCH/epoch_4proc.prv.gz"
grep -q "Average IPC" "$OUT/counters.single" || { echo "FAIL counters: no IPC line"; exit 1; }
check counters-csv "$EPOCH/epoch_4proc.prv.gz" --format csv
check counters-json "$EPOCH/epoch_4proc.prv.gz" --format json
# No hardware counters: IPC and frequency unavailable (the notes on stderr with csv).
check no-counters "$DATA/compss_cholesky/cholesky_autoparallel.prv" --format csv
grep -q "PAPI_TOT_INS" "$OUT/no-counters.single.err" || { echo "FAIL no-counters: no note about the counters"; exit 1; }
# A scaling series: the traces are dealt out among the ranks (3 ranks: one trace each).
check series "$EPOCH/epoch_1proc.prv.gz" "$EPOCH/epoch_2proc.prv.gz" "$EPOCH/epoch_4proc.prv.gz"
check series-csv "$EPOCH/epoch_1proc.prv.gz" "$EPOCH/epoch_2proc.prv.gz" "$EPOCH/epoch_4proc.prv.gz" --format csv --scaling weak
check no-replay "$EPOCH/epoch_2proc.prv.gz" --no-replay --format json
check portion "$EPOCH/epoch_4proc.prv.gz" --from 10% --to 60%

# A missing trace, alone or in a series: the run fails with the single process' message (rank 0)
# and one line from each other rank, instead of hanging.
for name in alone series; do
  args=("$OUT/missing.prv")
  [[ $name == series ]] && args=("$EPOCH/epoch_1proc.prv.gz" "$OUT/missing.prv" "$EPOCH/epoch_4proc.prv.gz")
  "$BIN" pop "${args[@]}" >/dev/null 2>"$OUT/bad.single" && { echo "FAIL bad $name: the single run succeeded"; exit 1; }
  if mpi 2 "$MPI_BIN" pop "${args[@]}" >"$OUT/bad.out" 2>"$OUT/bad.err"; then
    echo "FAIL bad $name: a missing trace did not fail the run"; exit 1
  fi
  [[ ! -s "$OUT/bad.out" ]] || { echo "FAIL bad $name: a report was printed"; exit 1; }
  first=$(head -1 "$OUT/bad.single")
  grep -qxF "$first" "$OUT/bad.err" || { echo "FAIL bad $name: rank 0 did not print '$first'"; cat "$OUT/bad.err"; exit 1; }
  [[ $(grep -c "^\[rank 1\]" "$OUT/bad.err") -eq 1 ]] || { echo "FAIL bad $name: rank 1 did not say why it stops"; cat "$OUT/bad.err"; exit 1; }
  echo "ok bad $name: exit status non-zero, one message per rank"
done
