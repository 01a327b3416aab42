#!/usr/bin/env bash
# `mpirun -np N parallax-mpi check` and `parallax-mpi report` (docs/check.md, docs/report.md):
# with 2 and 3 ranks (oversubscribed), the same results as one process — the check's JSON
# (but its timings), its exit status when an assertion fails, the report's HTML (but the line
# with the date it was written) — and nothing from the other ranks; a missing trace stops
# every rank instead of hanging. Runs with the trace cache off and on (golden_cached.*).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/parallax_mpi.bash"
mpi_setup "$@"
EPOCH=$DATA/epoch
CFG=$DATA/cfg/bsc/mpi/analysis/mpi_stats.cfg
cat > "$OUT/gate.txt" <<GATE
pop.parallel_efficiency >= 90%
hist("$CFG", "MPI_Sendrecv", "Maximum") / hist("$CFG", "MPI_Sendrecv", "Average") < 1.2
cell("$CFG", "THREAD 1.3.1", "MPI_Sendrecv") > 0
diagnose.wait_share < 5%
structure.clusters >= 1
pop.load_balance >= baseline(pop.load_balance) * 0.99
GATE
strip() { python3 -c 'import json,sys; d=json.load(sys.stdin); d.pop("seconds"); [r.pop("seconds") for r in d["results"]]; print(json.dumps(d, sort_keys=True))'; }
set +e
"$BIN" check "$EPOCH/epoch_4proc.prv.gz" --baseline "$EPOCH/epoch_2proc.prv.gz" --assert "$OUT/gate.txt" --format json > "$OUT/single.json"; want=$?
set -e
strip < "$OUT/single.json" > "$OUT/single.stripped"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["passed"] >= 4 and d["failed"] >= 1, d' "$OUT/single.json"
for n in $(mpi_ranks 2 3); do
  set +e
  mpi "$n" "$MPI_BIN" check "$EPOCH/epoch_4proc.prv.gz" --baseline "$EPOCH/epoch_2proc.prv.gz" --assert "$OUT/gate.txt" \
    --format json > "$OUT/np$n.json" 2> "$OUT/np$n.err"; rc=$?
  set -e
  [[ $rc == "$want" ]] || { echo "FAIL check: $n ranks exited $rc, one process $want"; cat "$OUT/np$n.err"; exit 1; }
  strip < "$OUT/np$n.json" | cmp -s - "$OUT/single.stripped" ||
    { echo "FAIL check: $n ranks differ from one process"; diff <(strip < "$OUT/np$n.json") "$OUT/single.stripped" | head; exit 1; }
  echo "ok check: $n ranks give one process' results and exit status ($rc)"
done

"$BIN" report "$EPOCH/epoch_2proc.prv.gz" "$EPOCH/epoch_4proc.prv.gz" -o "$OUT/single.html" > /dev/null
for n in $(mpi_ranks 2 3); do
  mpi "$n" "$MPI_BIN" report "$EPOCH/epoch_2proc.prv.gz" "$EPOCH/epoch_4proc.prv.gz" -o "$OUT/np$n.html" \
    > "$OUT/np$n.out" 2> "$OUT/np$n.err" || { echo "FAIL report: $n ranks exited non-zero"; cat "$OUT/np$n.err"; exit 1; }
  cmp -s <(grep -v 'Written by Parallax on' "$OUT/single.html") <(grep -v 'Written by Parallax on' "$OUT/np$n.html") ||
    { echo "FAIL report: $n ranks differ from one process"; exit 1; }
  [[ $(grep -c 'HTML report of 2 traces' "$OUT/np$n.out") == 1 ]] || { echo "FAIL report: not one line from rank 0"; exit 1; }
  echo "ok report: $n ranks write one process' report"
done

if mpi 2 "$MPI_BIN" report "$OUT/missing.prv" -o "$OUT/bad.html" > /dev/null 2> "$OUT/bad.err"; then
  echo "FAIL a missing trace did not fail the run"; exit 1
fi
[[ ! -e "$OUT/bad.html" ]] || { echo "FAIL a report was written for a missing trace"; exit 1; }
echo "ok a missing trace stops every rank, no report"
