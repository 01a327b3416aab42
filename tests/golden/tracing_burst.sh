#!/usr/bin/env bash
# Burst mode (PXT_BURSTS, tracing/README.md "Size control"): only the Running bursts longer
# than the threshold are kept, with their counters. tests/tracing/bursts.c computes 3 ms
# before its first call, after iterations 0, 2, 4, 6, 8 of a loop of 10 (user state 100 around
# event 1000) and at the end, and nothing after iterations 1, 3, 5, 7: with PXT_BURSTS=1ms the
# trace (read with `parallax text` and BSC's useful_duration.cfg) holds exactly 7 Running
# bursts, each of at least 1 ms and each ending with its counters (synthetic: 1 cycle per ns of
# cpu time), Idle (0) between them, no user state and no user event; event 40000018 = 2 (CPU
# Bursts) once; the merge report counts 7 kept, 4 shorter bursts and 31 records dropped (the
# first event, and per iteration its state entry, event and exit). Detailed tracing of the same
# program keeps the 10 states and 11 events.
# Skipped (77) when the test program was not built.
set -euo pipefail
BIN=$(realpath "$1")
DATA=$(realpath "$2")
BUILD=$(cd "$(dirname "$BIN")/.." && pwd)
PROG=$BUILD/bin/pxt_test_bursts
[ -x "$PROG" ] || { echo "skipped: $PROG not built"; exit 77; }
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
. "$(dirname "$0")/lib/tracing.bash"  # check, preload, events, values
PXT_BURSTS=1ms PXT_COUNTERS=synthetic PXT_OUTPUT_DIR=$OUT PXT_OUTPUT_NAME=bursts "$PROG" 3000 \
  > "$OUT/stdout" 2> "$OUT/stderr"
check "program ran" "$(cat "$OUT/stdout")" "bursts done"
check "merge report" "$(grep -o 'bursts: pid [0-9]*: PXT_BURSTS=1000000 ns: .*' "$OUT/stderr" | sed 's/pid [0-9]*/pid P/')" \
  "bursts: pid P: PXT_BURSTS=1000000 ns: 7 bursts kept (Running, with their counters), 4 shorter ones and 31 records (calls, events) dropped"
PRV=$OUT/bursts.prv
"$BIN" info "$PRV" > "$OUT/info.txt"
check "trace loads without diagnostics" "$(grep -c 'diagnostics (0 kinds)' "$OUT/info.txt")" "1"
"$BIN" text "$PRV" --thread-function "State As Is" --json > "$OUT/text.json"
python3 - "$OUT/text.json" > "$OUT/summary" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
iv = [i for i in d["intervals"] if i["value"] != 32]  # the final flush aside
run = [i for i in iv if i["value"] == 1]
print("running", len(run), "all >= 1 ms" if all(i["end"] - i["begin"] >= 1000000 for i in run) else "SHORT")
print("states", sorted(set(int(i["value"]) for i in iv)))
ev = d["events"]
cyc = [e for e in ev if e["type"] == 42000059]
ends = set(i["end"] for i in run)
print("cycles", len(cyc), "at burst ends" if all(e["time"] in ends and e["value"] > 0 for e in cyc) else "MISPLACED")
print("user events", sum(1 for e in ev if e["type"] == 1000), "mode", [e["value"] for e in ev if e["type"] == 40000018])
PY
check "Running bursts kept" "$(sed -n 1p "$OUT/summary")" "running 7 all >= 1 ms"
check "states (Idle between bursts, no user state)" "$(sed -n 2p "$OUT/summary")" "states [0, 1]"
check "counters at the end of each burst" "$(sed -n 3p "$OUT/summary")" "cycles 7 at burst ends"
check "no user event; tracing mode CPU Bursts" "$(sed -n 4p "$OUT/summary")" "user events 0 mode [2]"
CFG=$DATA/cfg/bsc/General/views/useful_duration.cfg
if [ -f "$CFG" ]; then
  check "useful_duration.cfg: 7 bursts" "$("$BIN" text "$PRV" --cfg "$CFG" --json | python3 -c '
import json, sys
print(sum(1 for i in json.load(sys.stdin)["intervals"] if i["value"] != 0))')" "7"
fi
check ".pcf label" "$(grep -c 'CPU Bursts' "$OUT/bursts.pcf")" "1"

# Detailed tracing of the same program: its 10 states and 11 events.
PXT_COUNTERS=none PXT_VERBOSE=0 PXT_OUTPUT_DIR=$OUT PXT_OUTPUT_NAME=detail "$PROG" 1000 >/dev/null
check "detailed: user states" "$(grep -c '^1:.*:100$' "$OUT/detail.prv")" "10"
check "detailed: user events" "$(grep -o ':1000:[0-9]*' "$OUT/detail.prv" | wc -l)" "11"

exit $fail
