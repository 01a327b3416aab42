#!/usr/bin/env bash
# `parallax pop --from/--to/--records`: the POP metrics of a portion of a trace, worked by hand on
# a tiny trace, and on epoch_2proc compared with `parallax pop` of a `parallax cut` of the same
# portion (the time metrics agree exactly; the counters differ only by the bursts the cut clips).
set -euo pipefail
BIN=$(realpath "$1")
DATA=$(realpath "$2")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# shellcheck source=lib/check.bash
source "$(dirname "${BASH_SOURCE[0]}")/lib/check.bash"
line() {  # csv line name -> its value
  awk -F';' -v n="$1" '$1 == n { print $2 }'
}

# Thread 1.1 runs 0-200, is in state 3 200-300, runs 300-700, idle 700-800, runs 800-1000;
# thread 1.2 runs 0-400, state 3 400-600, runs 600-1000.
cat >"$TMP/t.prv" <<'PRV'
#Paraver (01/01/2024 at 00:00):1000_ns:1(2):1:2(1:1,1:1)
1:1:1:1:1:0:200:1
1:1:1:1:1:200:300:3
1:1:1:1:1:300:700:1
1:1:1:1:1:700:800:0
1:1:1:1:1:800:1000:1
1:2:1:2:1:0:400:1
1:2:1:2:1:400:600:3
1:2:1:2:1:600:1000:1
PRV
whole=$("$BIN" pop "$TMP/t.prv" --format csv 2>/dev/null)
# Whole trace: useful 800 and 800 of a runtime of 1000: LB 100 %, CommE 80 %, PE 80 %.
check whole-pe "80.000000" "$(line "Parallel efficiency" <<<"$whole")"
check whole-lb "100.000000" "$(line "Load balance" <<<"$whole")"
# [250, 650): useful 350 (300-650) and 200 (250-400, 600-650), runtime 400:
# LB = 275/350, CommE = 350/400, PE = 275/400.
part=$("$BIN" pop "$TMP/t.prv" --from 250 --to 650 --format csv 2>/dev/null)
check part-pe "68.750000" "$(line "Parallel efficiency" <<<"$part")"
check part-lb "78.571429" "$(line "Load balance" <<<"$part")"
check part-ce "87.500000" "$(line "Communication efficiency" <<<"$part")"
check part-runtime "0.40" "$(line "#Runtime (us)" <<<"$part")"
check part-useful-max "0.35" "$(line "#Useful duration (maximum)" <<<"$part")"
check part-useful-total "0.55" "$(line "#Useful duration (total)" <<<"$part")"
# The same portion as a percentage and with a unit.
check percent "$part" "$("$BIN" pop "$TMP/t.prv" --from 25% --to 65% --format csv 2>/dev/null)"
check unit "$part" "$("$BIN" pop "$TMP/t.prv" --from 0.25us --to 0.65us --format csv 2>/dev/null)"
# Body records 2..4 (file order) begin at 200, 300 and 700: [200, 700). Useful 400 (300-700)
# and 300 (200-400, 600-700): runtime 500, PE = 350/500.
rec=$("$BIN" pop "$TMP/t.prv" --records 2..4 --format csv 2>/dev/null)
check records-pe "70.000000" "$(line "Parallel efficiency" <<<"$rec")"
check records-runtime "0.50" "$(line "#Runtime (us)" <<<"$rec")"
# The portion is named in the text and json reports.
check text-portion "  $TMP/t.prv: 2 processes, 2 threads, portion [250, 650) ns" \
  "$("$BIN" pop "$TMP/t.prv" --from 250 --to 650 2>/dev/null | grep 'portion \[')"
check json-portion "250 650 ns" "$("$BIN" pop "$TMP/t.prv" --from 250 --to 650 --format json |
  python3 -c 'import json,sys; t=json.load(sys.stdin)["traces"][0]; print(t["from"], t["to"], t["time_unit"])')"
# Bad ranges are refused with the trace's limits.
if "$BIN" pop "$TMP/t.prv" --from 250 --to 1650 >/dev/null 2>"$TMP/err"; then
  echo "FAIL beyond-end: accepted"; fail=1
else
  check beyond-end "$TMP/t.prv: error: the range ends at 1650 ns, after the trace end 1000 ns" \
    "$(head -1 "$TMP/err")"
fi
if "$BIN" pop "$TMP/t.prv" --records 4..x >/dev/null 2>"$TMP/err"; then
  echo "FAIL bad-records: accepted"; fail=1
else
  check bad-records 'error: bad --records "4..x"' "$(head -1 "$TMP/err")"
fi

# A real trace: the portion computed in place against the same portion cut out.
T=$DATA/epoch/epoch_2proc.prv.gz
times() {  # the factors and raw lines that depend only on the states
  grep -E '^(Parallel efficiency|Load balance|Communication efficiency|#Runtime \(us\)|#Useful duration \((average|maximum|total)\));'
}
for range in "--from 20% --to 60%" "--records 100..5000"; do
  # shellcheck disable=SC2086
  "$BIN" cut "$T" $range -o "$TMP/cut.prv" --force >/dev/null 2>&1
  # shellcheck disable=SC2086
  inplace=$("$BIN" pop "$T" $range --format csv 2>/dev/null)
  ofcut=$("$BIN" pop "$TMP/cut.prv" --no-replay --format csv 2>/dev/null)
  check "epoch-cut $range" "$(times <<<"$ofcut")" "$(times <<<"$inplace")"
  check "epoch-cut-lines $range" 7 "$(times <<<"$inplace" | wc -l)"
done
exit $fail
