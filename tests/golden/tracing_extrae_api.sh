#!/usr/bin/env bash
# Extrae compatibility of the tracing library (tracing/README.md, "Extrae's API"): a program
# written against Extrae's user API (tests/tracing/extrae_api.c, built unchanged with
# include/extrae/) records what Extrae records — labelled event types, events, Extrae_nevent's
# events on one line, a user function (60000019/60000119, resolved to its name and line), an
# event with counters, Extrae_shutdown/restart as event 40000012 with nothing between; Extrae's
# environment variables name the output and turn tracing off; its XML configuration is said not
# to be read; MPI_Pcontrol(0)/(1) stop and resume an MPI job's recording.
set -euo pipefail
BIN=$1
BUILD=$(cd "$(dirname "$BIN")/.." && pwd)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
fail=0
check() { if eval "$2"; then echo "ok $1"; else echo "FAIL $1"; fail=1; fi; }
P=$OUT/pxt_test_extrae_api
PXT_OUTPUT_DIR=$OUT PXT_COUNTERS=synthetic PXT_VERBOSE=0 "$BUILD/bin/pxt_test_extrae_api" > "$OUT/stdout"
check "the version and Extrae_is_initialized" "grep -qx 'Extrae API 4.0.0, initialized 1' '$OUT/stdout'"
check "Extrae_define_event_type labels the type and its values" \
  "grep -A4 '^0 *1000 *Phase\$' '$P.pcf' | grep -q '^1 *Phase A\$' && grep -A5 '^0 *1000 *Phase\$' '$P.pcf' | grep -q '^2 *Phase B\$'"
check "Extrae_event: the 10 pairs (1, 2 alternating, then 0)" \
  "[ \"\$(grep -o ':1000:[0-9]*' '$P.prv' | cut -d: -f3 | tr '\n' ' ')\" = '1 0 2 0 1 0 2 0 1 0 2 0 1 0 2 0 1 0 2 0 ' ]"
check "Extrae_user_function: Solver's entry and exit, its name and line" \
  "grep -q ':60000019:3:60000119:3\$' '$P.prv' && grep -q ':60000019:0:60000119:0\$' '$P.prv' && grep -A6 '60000019 *User function\$' '$P.pcf' | grep -q '^3 *Solver' && grep -A6 '60000119 *User function line\$' '$P.pcf' | grep -q '^3 *[0-9]* (extrae_api.c, pxt_test_extrae_api)\$'"
check "Extrae_nevent: both events on one line" "grep -q ':2000:7:2001:8\$' '$P.prv'"
check "Extrae_eventandcounters: the counters with the event" "grep -q ':42000050:[0-9]*:42000059:[0-9]*:2002:5\$' '$P.prv'"
check "Extrae_shutdown/restart: 40000012 0 then 1, nothing between, recording after" \
  "[ \"\$(grep -o ':40000012:[01]' '$P.prv' | tr '\n' ' ')\" = ':40000012:0 :40000012:1 ' ] && ! grep -q ':1000:99' '$P.prv' && grep -q ':2003:1\$' '$P.prv' && grep -A3 '40000012 *Tracing' '$P.pcf' | grep -q '^0 *Disabled'"
mkdir "$OUT/said"
(cd "$OUT/said" && PXT_COUNTERS=none "$BUILD/bin/pxt_test_extrae_api" > /dev/null 2> stderr)
check "calls accepted but not recorded are said once each" \
  "[ \$(grep -c 'Extrae_next_hwc_set (one counter set) is accepted but not recorded' '$OUT/said/stderr') = 1 ] && [ \$(grep -c 'Extrae_set_options (PXT_ variables' '$OUT/said/stderr') = 1 ]"
mkdir "$OUT/final"
EXTRAE_FINAL_DIR=$OUT/final EXTRAE_PROGRAM_NAME=renamed PXT_VERBOSE=0 "$BUILD/bin/pxt_test_extrae_api" > /dev/null
check "EXTRAE_FINAL_DIR and EXTRAE_PROGRAM_NAME name the trace" "[ -f '$OUT/final/renamed.prv' ] && [ -f '$OUT/final/renamed.pcf' ]"
mkdir "$OUT/off"
(cd "$OUT/off" && EXTRAE_ON=0 "$BUILD/bin/pxt_test_extrae_api" > stdout)
check "EXTRAE_ON=0 turns tracing off: no file" "[ \"\$(ls '$OUT/off')\" = stdout ] && grep -q 'initialized 0' '$OUT/off/stdout'"
mkdir "$OUT/xml"
(cd "$OUT/xml" && EXTRAE_CONFIG_FILE=extrae.xml PXT_VERBOSE=0 "$BUILD/bin/pxt_test_extrae_api" > /dev/null 2> stderr)
check "EXTRAE_CONFIG_FILE is said not to be read, once" \
  "[ \$(grep -c 'EXTRAE_CONFIG_FILE set: Extrae.s XML configuration and these settings are not read' '$OUT/xml/stderr') = 1 ]"

if [ -f "$BUILD/lib/libparallax-mpi.so" ] && command -v mpirun > /dev/null && [ -x "$BUILD/bin/pxt_test_mpi_crash" ]; then
  ASAN_LIB=$(ldd "$BUILD/bin/pxt_test_mpi_crash" | awk '/libasan/ {print $3}')
  export ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0
  mpirun --allow-run-as-root --oversubscribe --mca orte_tmpdir_base "$OUT" -np 2 \
    -x LD_PRELOAD="${ASAN_LIB:+$ASAN_LIB:}$BUILD/lib/libparallax-mpi.so" -x PXT_OUTPUT_DIR="$OUT/mpi" -x PXT_VERBOSE=0 \
    -x ASAN_OPTIONS "$BUILD/bin/pxt_test_mpi_crash" pcontrol 40 10 > /dev/null 2>&1
  steps() {  # the steps each task recorded, "TASK: first-last ..." runs
    python3 -c '
import collections, sys
seen = collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = line.rstrip().split(":")
    if f[0] == "2":
        for i in range(6, len(f) - 1, 2):
            if f[i] == "1000": seen[f[3]].append(int(f[i + 1]))
print(" ".join("%s:%s" % (t, ",".join(map(str, v))) for t, v in sorted(seen.items())))' "$1"
  }
  want="$(python3 -c 'v = ",".join(map(str, list(range(1, 10)) + list(range(20, 41)))); print("1:%s 2:%s" % (v, v))')"
  check "MPI_Pcontrol(0) at step 10, (1) at step 20: steps 1-9 and 20-40 recorded on each rank" \
    "[ \"\$(steps '$OUT/mpi/pxt_test_mpi_crash.prv')\" = '$want' ] && grep -q ':40000012:0' '$OUT/mpi/pxt_test_mpi_crash.prv'"
  # Still paused at MPI_Finalize (the resume would come after the last step): the job's trace is
  # merged all the same.
  mpirun --allow-run-as-root --oversubscribe --mca orte_tmpdir_base "$OUT" -np 2 \
    -x LD_PRELOAD="${ASAN_LIB:+$ASAN_LIB:}$BUILD/lib/libparallax-mpi.so" -x PXT_OUTPUT_DIR="$OUT/paused" -x PXT_VERBOSE=0 \
    -x ASAN_OPTIONS "$BUILD/bin/pxt_test_mpi_crash" pcontrol 15 10 > /dev/null 2>&1
  want="$(python3 -c 'v = ",".join(map(str, range(1, 10))); print("1:%s 2:%s" % (v, v))')"
  check "a job still paused by MPI_Pcontrol(0) at MPI_Finalize is merged: steps 1-9" \
    "[ \"\$(steps '$OUT/paused/pxt_test_mpi_crash.prv' 2>/dev/null)\" = '$want' ]"
else
  echo "skipped: the MPI_Pcontrol part (no MPI)"
fi
exit $fail
