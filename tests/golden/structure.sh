#!/usr/bin/env bash
# `parallax structure` on generated traces with a planted structure (bench/trace_gen.cc: a
# "timestep" user function per iteration, three OpenMP function behaviours of known work and
# IPC): the iteration count is the generator's, exactly, for several seeds and shapes; the
# bursts' clusters agree with the planted behaviours on more than 95% of the bursts (read back
# from the trace written with -o: the cluster event at each burst's begin beside the OpenMP
# function event there); a cut of iterations A..B holds B-A+1 iterations; real traces without a
# regular loop say so and what was tried; a trace without counters is clustered by duration
# and says so; bad options fail with a message.
set -euo pipefail
BIN=$1
DATA=$2
GEN=$(dirname "$BIN")/parallax-gen
WORK=$(mktemp -d /tmp/parallax_structure.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
fail=0
check() { if eval "$2"; then echo "ok $1"; else echo "FAIL $1"; fail=1; fi; }

for shape in "1 6M 16 4" "2 12M 8 2" "3 4M 4 4"; do
  set -- $shape
  seed=$1 size=$2 tasks=$3 threads=$4
  planted=$("$GEN" --size "$size" --seed "$seed" --tasks "$tasks" --threads "$threads" --out "$WORK/g$seed" 2>&1 |
            sed -n 's/.* \([0-9]*\) iterations,.*/\1/p')
  "$BIN" structure "$WORK/g$seed.prv" --format json -o "$WORK/a$seed.prv" > "$WORK/s$seed.json" 2> "$WORK/err"
  found=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["iterations"]["count"], d["iterations"]["method"])' "$WORK/s$seed.json")
  check "seed $seed ($tasks x $threads): $planted iterations planted, found $found" "[ \"$found\" = \"$planted marker\" ]"
  if ! python3 - "$WORK/a$seed.prv" "$planted" "$tasks" <<'PY'
import sys
from collections import Counter, defaultdict
path, planted, tasks = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
fn_at, cl_at, its = {}, {}, 0
with open(path) as f:
    for line in f:
        x = line.rstrip("\n").split(":")
        if x[0] != "2":
            continue
        key = (x[2], x[3], x[4], x[5])
        for ty, v in zip(x[6::2], x[7::2]):
            if ty == "60000018" and v != "0":
                fn_at[key] = int(v)
            elif ty == "90000001" and int(v) != 0:
                cl_at[key] = int(v)
            elif ty == "90000101":
                its += 1
# Every rank gets one iteration event per iteration and one end event.
assert its == (planted + 1) * tasks, (its, planted, tasks)
# Noise (5) counts against; bursts with no counters at all are "missing data" (the generator's
# lock splits a burst without a counter read) and are not counted.
pairs = [((fn_at[k] - 3) % 3, cl_at[k]) for k in fn_at if k in cl_at and cl_at[k] >= 5]
assert len(pairs) > 100, len(pairs)
by_cluster = defaultdict(Counter)
for truth, c in pairs:
    by_cluster[c][truth] += 1
agree = sum(c.most_common(1)[0][1] for cl, c in by_cluster.items() if cl != 5)
by_cluster.pop(5, None)
# Each planted behaviour is the majority of some cluster.
assert {c.most_common(1)[0][0] for c in by_cluster.values()} == {0, 1, 2}, by_cluster
print(f"cluster agreement {agree}/{len(pairs)} = {agree / len(pairs):.3f}")
assert agree / len(pairs) > 0.95
PY
  then echo "FAIL seed $seed: clusters"; fail=1; fi
  grep -q "Cluster ID" "$WORK/a$seed.pcf" && grep -q "Iteration 1" "$WORK/a$seed.pcf" || { echo "FAIL seed $seed: pcf"; fail=1; }
done

# The marker given explicitly finds the same loop.
m=$("$BIN" structure "$WORK/g1.prv" --marker 60000019:3 --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["iterations"]["count"])')
a=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["iterations"]["count"])' "$WORK/s1.json")
check "--marker 60000019:3 finds $m = $a" "[ '$m' = '$a' ]"

# Cuts by iterations: the cut holds exactly those iterations.
"$BIN" cut "$WORK/g1.prv" --iterations 3..7 -o "$WORK/c.prv" 2> "$WORK/cut.err"
n=$("$BIN" structure "$WORK/c.prv" --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["iterations"]["count"])')
check "cut --iterations 3..7 holds 5 iterations ($n)" "[ '$n' = 5 ]"
check "cut says the share before writing" "grep -q 'iterations 3..7 of .*% of the run, about' '$WORK/cut.err'"
"$BIN" cut "$WORK/g1.prv" --representative 4 -o "$WORK/r.prv" 2> "$WORK/rep.err"
n=$("$BIN" structure "$WORK/r.prv" --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["iterations"]["count"])')
check "cut --representative 4 holds 4 iterations ($n)" "[ '$n' = 4 ]"

# Real traces: no regular loop in epoch (a particle code whose exchanges vary per step): said,
# with what was tried, exit 0; a single rank works.
for n in 1 2; do
  "$BIN" structure "$DATA/epoch/epoch_${n}proc.prv.gz" > "$WORK/e.txt"
  check "epoch_${n}proc: no iterations, with what was tried" \
    "grep -q 'no iterations found' '$WORK/e.txt' && grep -q 'MPI_Sendrecv' '$WORK/e.txt'"
done
check "epoch_1proc (one rank) has clusters with IPC" "grep -q 'DBSCAN on log10(instructions), IPC' '$WORK/e.txt'"
"$BIN" structure "$DATA/qsort_beo3/qsort_beo3.prv" > "$WORK/q.txt"
check "no counters: clustered by duration, said" "grep -q 'by duration only' '$WORK/q.txt'"

# Bad options and inputs.
set +e
"$BIN" structure "$WORK/g1.prv" --marker x:1 > /dev/null 2> "$WORK/err"; rc=$?
check "bad --marker: exit 2 with a hint ($rc)" "[ $rc = 2 ] && grep -q 'hint' '$WORK/err'"
"$BIN" cut "$DATA/epoch/epoch_2proc.prv.gz" --iterations 1..2 -o "$WORK/x.prv" 2> "$WORK/err"; rc=$?
check "cut --iterations without iterations: exit 1, nothing written ($rc)" "[ $rc = 1 ] && [ ! -e '$WORK/x.prv' ] && grep -q 'no iterations found' '$WORK/err'"
"$BIN" cut "$WORK/g1.prv" --iterations 5..999 -o "$WORK/x.prv" 2> "$WORK/err"; rc=$?
check "cut --iterations beyond the loop: exit 1 ($rc)" "[ $rc = 1 ] && [ ! -e '$WORK/x.prv' ]"
"$BIN" cut "$WORK/g1.prv" --iterations 0..2 -o "$WORK/x.prv" 2> /dev/null; rc=$?
check "cut --iterations 0..2: exit 2 ($rc)" "[ $rc = 2 ]"
"$BIN" structure "$WORK/g1.prv" -o "$WORK/a1.prv" > /dev/null 2>&1; rc=$?
check "an existing output is not replaced without --force ($rc)" "[ $rc = 1 ]"
set -e
exit $fail
