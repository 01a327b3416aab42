#!/usr/bin/env bash
# `parallax check` (docs/check.md) on generated runs: a passing and a failing assertion of each
# kind (POP factor, a cfg histogram's totals and cell, diagnosis total, structure), each value
# equal to what the command printing it prints (parallax pop, analyze, diagnose, structure); a
# baseline comparison with a run whose task 3 is 20% slower; the JUnit output valid against
# tests/golden/lib/junit.xsd; metrics that cannot be computed are errors; bad assertion files are
# refused with their line and column before any trace is read, and leave no JUnit file.
set -euo pipefail
BIN=$1
DATA=$2
GEN=$(dirname "$BIN")/parallax-gen
XSD=$(dirname "$0")/lib/junit.xsd
WORK=$(mktemp -d /tmp/parallax_check.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
fail=0
check() { if eval "$2"; then echo "ok $1"; else echo "FAIL $1"; fail=1; fi; }
gen() { "$GEN" --iterations 20 --tasks 4 --threads 2 --seed 7 --out "$WORK/$1" "${@:2}" > /dev/null 2>&1; }
gen a
gen slow --slow-task 2 --slow-factor 1.2
py() { python3 -c "import json,sys; $1" "${@:2}"; }
CFG=$DATA/cfg/bsc/mpi/analysis/mpi_stats.cfg
cp "$CFG" "$WORK/mpi_stats.cfg"

# The values the other commands print.
"$BIN" pop "$WORK/a.prv" --format json > "$WORK/pop.json"
"$BIN" analyze "$WORK/a.prv" --cfg "$CFG" --format json > "$WORK/analyze.json"
"$BIN" diagnose "$WORK/a.prv" --format json > "$WORK/diagnose.json"
"$BIN" structure "$WORK/a.prv" --format json > "$WORK/structure.json"
pe=$(py 'print(repr([f["values"][0] for f in json.load(open(sys.argv[1]))["factors"] if f["key"] == "parallel_efficiency"][0] / 100))' "$WORK/pop.json")
wmax=$(py 'p=json.load(open(sys.argv[1]))[-1]["planes"][0]; print(repr(p["totals"]["Maximum"][p["columns"].index("MPI_Waitall")]))' "$WORK/analyze.json")
cell=$(py 'p=json.load(open(sys.argv[1]))[-1]["planes"][0]; r=[x for x in p["rows"] if x["label"] == "THREAD 1.3.1"][0]; print(repr(r["values"][p["columns"].index("MPI_Waitall")]))' "$WORK/analyze.json")
wait=$(py 'd=json.load(open(sys.argv[1])); print(repr(sum(p["time_s"] for p in d["patterns"].values())))' "$WORK/diagnose.json")
med=$(py 'print(repr(json.load(open(sys.argv[1]))["iterations"]["median_s"]))' "$WORK/structure.json")

# Each kind passes just at its value and fails just beyond it; the file's cfg is relative to it.
cat > "$WORK/gate.txt" <<GATE
# each metric at the value the other commands print
pop.parallel_efficiency >= $pe
pop.parallel_efficiency > $pe            # fails: equal is not greater
hist("mpi_stats.cfg", "MPI_Waitall", "Maximum") <= $wmax
hist("mpi_stats.cfg", "MPI_Waitall", "Maximum") < $wmax
cell("mpi_stats.cfg", "THREAD 1.3.1", "MPI_Waitall") == $cell
diagnose.wait_s == $wait
diagnose.wait_s < $wait * 0.5
structure.iteration_s <= $med
structure.iterations != 20
GATE
set +e
"$BIN" check "$WORK/a.prv" --assert "$WORK/gate.txt" --format json --junit "$WORK/gate.xml" > "$WORK/gate.json"; rc=$?
set -e
check "a failing assertion: exit 1 ($rc)" "[ $rc = 1 ]"
check "pass, fail, pass, fail, pass, pass, fail, pass, fail, each at the other commands' values" \
  "[ \"\$(py 'print(\" \".join(r[\"outcome\"] for r in json.load(open(sys.argv[1]))[\"results\"]))' '$WORK/gate.json')\" = 'pass fail pass fail pass pass fail pass fail' ]"
check "the POP factor is a fraction; each line says where it is and what it read" \
  "[ \"\$(py 'r=json.load(open(sys.argv[1]))[\"results\"]; print(r[0][\"values\"][\"pop.parallel_efficiency\"] < 1, r[1][\"line\"], r[1][\"file\"].endswith(\"gate.txt\"), r[1][\"message\"].endswith(\"is false\"))' '$WORK/gate.json')\" = 'True 3 True True' ]"
check "the JUnit output is valid: 9 test cases, 4 failures" \
  "xmllint --noout --schema '$XSD' '$WORK/gate.xml' 2>/dev/null && grep -c '<testcase' '$WORK/gate.xml' | grep -qx 9 && grep -c '<failure' '$WORK/gate.xml' | grep -qx 4"

# A baseline: B's iterations are longer than 5% over A's; A is not slower than itself.
set +e
"$BIN" check "$WORK/slow.prv" --baseline "$WORK/a.prv" --assert 'structure.iteration_s <= 1.05 * baseline(structure.iteration_s)' > "$WORK/base.txt"; rc=$?
set -e
check "B 20% slower on one task fails 'at most 5% slower per iteration' against A ($rc)" \
  "[ $rc = 1 ] && grep -q '^FAIL ' '$WORK/base.txt' && grep -q 'baseline(structure.iteration_s) = ' '$WORK/base.txt'"
"$BIN" check "$WORK/a.prv" --baseline "$WORK/a.prv" --assert 'structure.iteration_s <= 1.05 * baseline(structure.iteration_s)' \
  --assert 'pop.parallel_efficiency >= 85% * baseline(pop.parallel_efficiency)' --junit "$WORK/pass.xml" > "$WORK/pass.txt"
check "every assertion holds: exit 0, a valid JUnit file without failures" \
  "grep -q '2 assertions: 2 passed, 0 failed' '$WORK/pass.txt' && xmllint --noout --schema '$XSD' '$WORK/pass.xml' 2>/dev/null && ! grep -q '<failure' '$WORK/pass.xml'"

# A metric this trace cannot give is an error of its assertion (JUnit <error>), not a pass.
set +e
"$BIN" check "$DATA/omp/omp2.prv.gz" --assert 'diagnose.wait_s < 1' --assert 'trace.threads > 1' --junit "$WORK/omp.xml" > "$WORK/omp.txt"; rc=$?
set -e
check "no MPI: diagnose.wait_s could not be evaluated, exit 1 ($rc)" \
  "[ $rc = 1 ] && grep -q '^ERROR diagnose.wait_s' '$WORK/omp.txt' && grep -q '1 passed, 0 failed, 1 could not be evaluated' '$WORK/omp.txt' && xmllint --noout --schema '$XSD' '$WORK/omp.xml' 2>/dev/null && grep -q '<error' '$WORK/omp.xml'"

# Bad assertions: located, the available names listed, exit 2, no JUnit file, no trace read.
printf '# gate\npop.parallel_efficiency >= 0.5\n\n  pop.paralel_efficiency > 0.5\n' > "$WORK/typo.txt"
set +e
"$BIN" check "$WORK/missing.prv" --assert "$WORK/typo.txt" --junit "$WORK/typo.xml" > /dev/null 2> "$WORK/err"; rc=$?
check "an unknown metric: file:line:column, the pop metrics listed, exit 2, no JUnit file ($rc)" \
  "[ $rc = 2 ] && grep -q 'typo.txt:4:3: error: unknown metric .pop.paralel_efficiency.' '$WORK/err' && grep -q 'hint: the pop metrics: pop.parallel_efficiency' '$WORK/err' && [ ! -e '$WORK/typo.xml' ]"
"$BIN" check "$WORK/a.prv" --assert 'structure.iteration_s < (2ms' > /dev/null 2> "$WORK/err"; rc=$?
check "an unclosed parenthesis on the command line ($rc)" "[ $rc = 2 ] && grep -q -- '--assert:1:29: error: expected .)' '$WORK/err'"
"$BIN" check "$WORK/a.prv" --assert 'structure.iteration_s < baseline(structure.iteration_s)' > /dev/null 2> "$WORK/err"; rc=$?
check "baseline() without --baseline ($rc)" "[ $rc = 2 ] && grep -q 'hint: give the baseline run with --baseline' '$WORK/err'"
"$BIN" check "$WORK/a.prv" --assert "hist(\"$WORK/mpi_stats.cfg\", \"MPI_Wait_all\", \"Maximum\") < 1" > "$WORK/col.txt"; rc=$?
check "a column the histogram does not have: an error listing its columns ($rc)" \
  "[ $rc = 1 ] && grep -q 'has no column .MPI_Wait_all.' '$WORK/col.txt' && grep -q 'its columns: Outside MPI, MPI_Send' '$WORK/col.txt'"
printf '#Paraver (01/01/26 at 00:00):1000_ns:1(1):1:1(1:1)\n' > "$WORK/empty.prv"
"$BIN" check "$WORK/empty.prv" --assert 'trace.ranks == 1' > /dev/null 2> "$WORK/err"; rc=$?
check "an empty trace ($rc)" "[ $rc = 2 ] && grep -q 'empty body' '$WORK/err'"
"$BIN" check "$WORK/a.prv" --assert 'trace.ranks == 4' --junit "$WORK/gate.xml" > /dev/null 2> "$WORK/err"; rc=$?
check "an existing JUnit file is not replaced without --force ($rc)" "[ $rc = 2 ] && grep -q 'exists' '$WORK/err'"
set -e
"$BIN" check --list > "$WORK/list.txt"
check "--list names every metric with its unit" "grep -q '^pop.parallel_efficiency  *fraction' '$WORK/list.txt' && grep -q '^structure.iteration_s  *s ' '$WORK/list.txt'"
exit $fail
