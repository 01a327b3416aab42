#!/usr/bin/env bash
# `parallax structure` on traces libparallax-mpi.so records of tests/tracing/mpi_loop.c run for a
# chosen number of time steps (4 ranks; an irregular start-up with two MPI_Allreduce of its own,
# a checkpoint MPI_Reduce every 5th step, no marker events): the iterations found are exactly
# the time steps, found by an MPI call, and a cut of iterations A..B holds B-A+1 of them.
# Skipped when MPI is not built.
set -euo pipefail
BIN=$1
DATA=$2
source "$(dirname "$0")/lib/mpi_env.bash"
fail=0
for steps in 12 37; do
  rm -rf "$OUT"/pxt_test_mpi_loop*
  mpirun --allow-run-as-root --oversubscribe -np 4 -x LD_PRELOAD="$PRELOAD" \
    -x PXT_OUTPUT_DIR="$OUT" "$BUILD/bin/pxt_test_mpi_loop" "$steps" >"$OUT/stdout" 2>"$OUT/stderr"
  PRV="$OUT/pxt_test_mpi_loop.prv"
  "$BIN" structure "$PRV" --format json > "$OUT/s.json"
  got=$(python3 -c 'import json,sys; i=json.load(open(sys.argv[1]))["iterations"]; print(i["count"], i["method"])' "$OUT/s.json")
  if [ "$got" = "$steps mpi" ]; then echo "ok $steps steps found by an MPI call"; else
    echo "FAIL $steps steps: found $got"; "$BIN" structure "$PRV" | head -20; fail=1; fi
done
"$BIN" cut "$PRV" --iterations 4..9 -o "$OUT/c.prv" 2> /dev/null
n=$("$BIN" structure "$OUT/c.prv" --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["iterations"]["count"])')
if [ "$n" = 6 ]; then echo "ok a cut of iterations 4..9 holds 6"; else echo "FAIL the cut of 4..9 holds $n"; fail=1; fi
exit $fail
