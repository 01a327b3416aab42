#!/usr/bin/env bash
# PXT_MAX_SIZE stops recording when the process file reaches the limit (tracing/README.md,
# "Size control"): tests/tracing/size_limit.c records events 1000 = 1..200000 (about 1.6 MB)
# inside user state 100, with a 256 KiB limit and 64 KiB buffers. The run says so once on
# stderr and in the merge report; the process file stays under the limit plus one buffer; the
# merged trace loads, holds exactly the events 1..K for some K < 200000 (a prefix, nothing lost
# before the stop, nothing after it), event 40000098 once at the stop, and state 14 (Tracing
# disabled) from the stop to the end. Without the limit all 200000 events are there.
# Skipped (77) when the test program was not built.
set -euo pipefail
BIN=$(realpath "$1")
BUILD=$(cd "$(dirname "$BIN")/.." && pwd)
PROG=$BUILD/bin/pxt_test_size_limit
[ -x "$PROG" ] || { echo "skipped: $PROG not built"; exit 77; }
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
. "$(dirname "$0")/lib/tracing.bash"  # check, preload, events, values
N=200000
LIMIT=262144 BUFFER=65536
PXT_MAX_SIZE=256K PXT_BUFFER_SIZE=64K PXT_COUNTERS=none PXT_OUTPUT_DIR=$OUT PXT_OUTPUT_NAME=lim \
  "$PROG" "$N" > "$OUT/stdout" 2> "$OUT/stderr"
check "program ran to its end" "$(cat "$OUT/stdout")" "events $N"
check "said once on stderr" "$(grep -c 'trace size limit reached (PXT_MAX_SIZE=262144 bytes' "$OUT/stderr")" "1"
check "said in the merge report" "$(grep -c 'size limit: pid [0-9]*: recording stopped when the process file reached PXT_MAX_SIZE=262144' "$OUT/stderr")" "1"
size=$(stat -c %s "$OUT"/lim.pxt.d/*.pxt)
check "process file within the limit plus one buffer (and its metadata)" \
  "$([ "$size" -le $((LIMIT + BUFFER + 8192)) ] && [ "$size" -ge $((LIMIT / 2)) ] && echo yes)" "yes"
PRV=$OUT/lim.prv
"$BIN" info "$PRV" > "$OUT/info.txt"
check "trace loads without diagnostics" "$(grep -c 'diagnostics (0 kinds)' "$OUT/info.txt")" "1"
# The events, the stop and the states through `parallax text`.
"$BIN" text "$PRV" --thread-function "State As Is" --json > "$OUT/text.json"
python3 - "$OUT/text.json" "$N" > "$OUT/summary" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
values = [e["value"] for e in d["events"] if e["type"] == 1000]
stops = [e["time"] for e in d["events"] if e["type"] == 40000098]
k = len(values)
print("prefix", "yes" if values == list(range(1, k + 1)) and 0 < k < n else "no (%d events)" % k)
print("stops", len(stops), [e["value_label"] for e in d["events"] if e["type"] == 40000098])
last_event = max(e["time"] for e in d["events"] if e["type"] == 1000)
print("events before the stop", "yes" if stops and last_event <= stops[0] else "no")
iv = d["intervals"]
after = [i for i in iv if stops and i["begin"] >= stops[0]]
print("after the stop", sorted(set(i["label"] for i in after)), "to the end" if after and after[-1]["end"] == d["to"] else "")
print("before the stop", sorted(set(int(i["value"]) for i in iv if stops and i["end"] <= stops[0] and i["value"] != 32)))
PY
check "events 1000: a prefix 1..K, K < $N" "$(sed -n 1p "$OUT/summary")" "prefix yes"
check "stop marked once (40000098)" "$(sed -n 2p "$OUT/summary")" "stops 1 ['Recording stopped']"
check "no event after the stop" "$(sed -n 3p "$OUT/summary")" "events before the stop yes"
check "state after the stop" "$(sed -n 4p "$OUT/summary")" "after the stop ['Tracing Disabled'] to the end"
check "states before the stop (Running, user state 100; flushes aside)" "$(sed -n 5p "$OUT/summary")" "before the stop [1, 100]"
check ".pcf label" "$(grep -c 'Trace size limit reached (PXT_MAX_SIZE): recording stopped' "$OUT/lim.pcf")" "1"

# Without a limit: every event.
PXT_BUFFER_SIZE=64K PXT_COUNTERS=none PXT_VERBOSE=0 PXT_OUTPUT_DIR=$OUT PXT_OUTPUT_NAME=full "$PROG" "$N" >/dev/null
check "no limit: all events" "$(grep -o ':1000:[0-9]*' "$OUT/full.prv" | wc -l)" "$N"
check "no limit: no stop" "$(grep -c ':40000098:' "$OUT/full.prv" || true)" "0"

exit $fail
