#!/usr/bin/env bash
# paramedir's -g TYPE (event-driven cutter, --event-cutter) and -tw FILE (whole-trace shift,
# --workload-shifter), alone and chained in command-line order, with answers worked by hand.
set -euo pipefail
BIN=$(realpath "$1")
PARAMEDIR=$(dirname "$BIN")/paramedir
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# shellcheck source=lib/check.bash
source "$(dirname "${BASH_SOURCE[0]}")/lib/check.bash"
cd "$TMP"
provenance() { sed -E 's/^#[0-9]+:CUTTER:ORIGINAL:"[^"]*":/#CUTTER:/' "$1"; }

# Mark 90000001: thread 1.1 opens it at 100 and 600, thread 1.2 at 150 (0 closes).
cat >e.prv <<'T'
#Paraver (01/01/2024 at 10:00):1000_ns:1(2):1:2(1:1,1:1)
1:1:1:1:1:0:1000:1
1:2:1:2:1:0:1000:1
2:1:1:1:1:100:90000001:1
2:2:1:2:1:150:90000001:1
2:1:1:1:1:400:90000001:0
2:1:1:1:1:600:90000001:2
2:2:1:2:1:700:90000001:0
2:1:1:1:1:800:90000001:0
T
# -g: from the first occurrence (100) to the last (600), times relative to 100, states broken
# at the limits, the regions still open closed at the end. Default name NAME.chop1.prv.
"$PARAMEDIR" -g 90000001 e.prv >/dev/null
cut_expected='#Paraver (01/01/2024 at 10:00):500_ns:1(2):1:2(1:1,1:1)
#CUTTER:100:100:600
1:1:1:1:1:0:500:1
1:2:1:2:1:0:500:1
2:1:1:1:1:0:90000001:1
2:2:1:2:1:50:90000001:1
2:1:1:1:1:300:90000001:0
2:1:1:1:1:500:90000001:2
# Appending events with value 0
2:1:1:1:1:500:90000001:0
2:2:1:2:1:500:90000001:0'
check "-g" "$cut_expected" "$(provenance e.chop1.prv)"
"$PARAMEDIR" --event-cutter 90000001 e.prv -o long.prv >/dev/null
check "--event-cutter" "$cut_expected" "$(provenance long.prv)"

# -tw: one offset (250) for every record; the end moves by as much.
printf '# the whole trace, ns\n250\n' >w.txt
"$PARAMEDIR" e.prv -tw w.txt -o w.prv >/dev/null
check "-tw" '#Paraver (01/01/2024 at 10:00):1250_ns:1(2):1:2(1:1,1:1)
1:1:1:1:1:250:1250:1
1:2:1:2:1:250:1250:1
2:1:1:1:1:350:90000001:1
2:2:1:2:1:400:90000001:1
2:1:1:1:1:650:90000001:0
2:1:1:1:1:850:90000001:2
2:2:1:2:1:950:90000001:0
2:1:1:1:1:1050:90000001:0' "$(cat w.prv)"
"$BIN" shift e.prv --offsets w.txt --level trace -o s.prv >/dev/null
check "shift --level trace" "$(cat w.prv)" "$(cat s.prv)"

# Chained in command-line order: cut, then shift (the cut's 0..500 becomes 250..750, sorted
# by time, then thread) ...
"$PARAMEDIR" -g 90000001 -tw w.txt e.prv -o gw.prv >/dev/null
check "-g then -tw" '1:1:1:1:1:250:750:1|2:1:1:1:1:250:90000001:1|1:2:1:2:1:250:750:1|2:2:1:2:1:300:90000001:1' \
  "$(grep '^[12]:' gw.prv | head -4 | paste -sd'|')"
check "-g then -tw end" "750_ns" "$(head -1 gw.prv | sed -E 's/.*\):([0-9]+_ns):.*/\1/')"
# ... or shift, then cut (the marks are then at 350..850: the same cut, relative times).
"$PARAMEDIR" -tw w.txt -g 90000001 e.prv -o wg.prv >/dev/null
check "-tw then -g" "$(sed 1,2d e.chop1.prv)" "$(sed 1,2d wg.prv)"
check "-tw then -g provenance" "#CUTTER:350:350:850" "$(provenance wg.prv | sed -n 2p)"

# Bad input: nothing is written.
refused bad-type 'paramedir: bad -g "9x"' "$PARAMEDIR" -g 9x e.prv -o z.prv
refused absent-type "paramedir: e.prv: error: event type 123 never occurs in e.prv" "$PARAMEDIR" -g 123 e.prv -o z.prv
printf '1\n2\n' >two.txt
refused two-offsets "paramedir: two.txt: error: 2 offsets for 1 trace" "$PARAMEDIR" -tw two.txt e.prv -o z.prv
printf '# ok\n\n1x\n' >bad.txt
refused bad-offset 'paramedir: bad.txt:3:1: error: bad offset "1x"' "$PARAMEDIR" -tw bad.txt e.prv -o z.prv
printf -- '-300\n' >neg.txt
refused before-zero "paramedir: e.prv:2:1: error: the offset -300 moves time 0 before 0" "$PARAMEDIR" -tw neg.txt e.prv -o z.prv
check nothing-left "" "$(ls z.prv* 2>/dev/null || true)"
exit $fail
