#!/usr/bin/env bash
# The CI example of docs/check.md (examples/ci/github-actions.yml): tests/tracing/mpi_loop.c
# traced by libparallax-mpi.so, its report written, then `parallax check` with
# examples/ci/gate.txt passes and writes a valid JUnit file; the same gate on a run of 12 time steps fails its iteration count.
# Skipped when MPI is not built.
set -euo pipefail
BIN=$1
DATA=$2
source "$(dirname "$0")/lib/mpi_env.bash"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
XSD=$(dirname "$0")/lib/junit.xsd
fail=0
check() { if eval "$2"; then echo "ok $1"; else echo "FAIL $1"; fail=1; fi; }
run() {
  rm -rf "$OUT/traces"
  mpirun --allow-run-as-root --oversubscribe -np 4 -x LD_PRELOAD="$PRELOAD" \
    -x PXT_OUTPUT_DIR="$OUT/traces" "$BUILD/bin/pxt_test_mpi_loop" "$1" > "$OUT/stdout" 2> "$OUT/stderr"
}
run 20
"$BIN" report "$OUT/traces/pxt_test_mpi_loop.prv" -o "$OUT/report.html" > /dev/null
check "the report of the traced run: 4 ranks, 20 iterations" \
  "grep -q 'data-path=\"tasks\" data-value=\"4\"' '$OUT/report.html' && grep -q 'data-path=\"iterations/count\" data-value=\"20\"' '$OUT/report.html'"
set +e
"$BIN" check "$OUT/traces/pxt_test_mpi_loop.prv" --assert "$ROOT/examples/ci/gate.txt" --junit "$OUT/check.xml" > "$OUT/check.txt"; rc=$?
set -e
check "the gate passes on the traced run ($rc)" "[ $rc = 0 ] && grep -q '4 assertions: 4 passed' '$OUT/check.txt'" || cat "$OUT/check.txt"
check "its JUnit file is valid, without failures" \
  "xmllint --noout --schema '$XSD' '$OUT/check.xml' 2>/dev/null && ! grep -q '<failure\|<error' '$OUT/check.xml'"
run 12
set +e
"$BIN" check "$OUT/traces/pxt_test_mpi_loop.prv" --assert "$ROOT/examples/ci/gate.txt" > "$OUT/check.txt"; rc=$?
set -e
check "12 time steps fail 'structure.iterations == 20' ($rc)" \
  "[ $rc = 1 ] && grep -q '^FAIL  structure.iterations == 20' '$OUT/check.txt'"
exit $fail
