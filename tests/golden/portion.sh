#!/usr/bin/env bash
# Analysis of a portion of a trace (--from/--to/--records) through the commands, on trace T of
# trace-format.md §10 (answers worked by hand) and on qsort_beo3 (a portion analysed in place
# agrees with the analysis of its `parallax cut`).
set -euo pipefail
BIN=$(realpath "$1")
DATA=$(realpath "$2")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0
check() {  # name, expected, actual
  if [[ "$2" != "$3" ]]; then echo "FAIL $1: expected [$2] got [$3]"; fail=1; else echo "ok $1"; fi
}
refused() {  # name, expected first line of stderr, command...
  local name=$1 want=$2
  shift 2
  if "$@" >"$TMP/out" 2>"$TMP/err"; then echo "FAIL $name: accepted"; fail=1; return; fi
  check "$name" "$want" "$(head -1 "$TMP/err")"
}

cat >"$TMP/t.prv" <<'PRV'
#Paraver (01/01/2024 at 00:00):1000_ns:1(2):1:2(1:1,1:1)
1:1:1:1:1:0:200:1
1:1:1:1:1:200:300:3
1:1:1:1:1:300:700:1
1:1:1:1:1:800:1000:1
2:1:1:1:1:0:50000001:31
2:1:1:1:1:250:50000001:0
2:1:1:1:1:500:50000002:7:50000003:9
1:2:1:2:1:0:400:1
1:2:1:2:1:400:600:3
1:2:1:2:1:600:1000:1
3:1:1:1:1:210:215:2:1:2:1:590:600:1024:77
PRV
cat >"$TMP/states.cfg" <<'CFG'
#ParaverCFG
ConfigFile.Version: 3.4
ConfigFile.NumWindows: 1

window_name states
window_type single
window_level thread
window_units Nanoseconds
window_selected_functions { 1, { {thread, State As Is} } }
< NEW ANALYZER2D >
Analyzer2D.Name: profile
Analyzer2D.ControlWindow: 1
Analyzer2D.Statistic: Time
Analyzer2D.ComputeYScale: False
Analyzer2D.Minimum: 0
Analyzer2D.Maximum: 3
Analyzer2D.Delta: 1
Analyzer2D.UseFixedDelta: True
CFG
T=$TMP/t.prv
cells() {  # the value cells of a tsv table, one row per line
  awk -F'\t' 'NR > 1 && $1 ~ /^THREAD/ { $1 = ""; print substr($0, 2) }' OFS=' '
}
# Whole trace: thread 1.1 is idle 700-800 (state 0), 1.2 never.
check whole "$(printf '100.00 800.00 0.00 100.00\n0.00 800.00 0.00 200.00')" \
  "$("$BIN" analyze "$T" --cfg "$TMP/states.cfg" | cells)"
# [250, 650): 1.1 is in state 3 for 50 ns, in state 1 for 350; 1.2 in 1 for 150 + 50, in 3 for 200.
half="$(printf '0.00 350.00 0.00 50.00\n0.00 200.00 0.00 200.00')"
check range-ns "$half" "$("$BIN" analyze "$T" --cfg "$TMP/states.cfg" --from 250 --to 650 | cells)"
check range-units "$half" "$("$BIN" analyze "$T" --cfg "$TMP/states.cfg" --from 0.25us --to 0.65us | cells)"
check range-percent "$half" "$("$BIN" analyze "$T" --cfg "$TMP/states.cfg" --from 25% --to 65% | cells)"
# Records 2..3 of the body (file order): the states beginning at 200 and 300: [200, 300).
check records "$(printf '0.00 0.00 0.00 100.00\n0.00 100.00 0.00 0.00')" \
  "$("$BIN" analyze "$T" --cfg "$TMP/states.cfg" --records 2..3 | cells)"
# paramedir writes the same table for the portion.
(cd "$TMP" && "$BIN" paramedir "$T" "$TMP/states.cfg" half.csv --from 250 --to 650 >/dev/null)
check paramedir "$(printf '0.00 350.00 0.00 50.00')" \
  "$(awk -F'\t' '$1 == "THREAD 1.1.1" { $1 = ""; print substr($0, 2) }' OFS=' ' "$TMP/half.csv" | sed 's/ *$//')"
# text and timeline take the same options.
check text "300-700=1 " "$("$BIN" text "$T" --thread-function "State As Is" --object "THREAD 1.1.1" \
  --from 35% --to 60% --json | python3 -c 'import json,sys; print("".join("%d-%d=%g " % (i["begin"], i["end"], i["value"]) for i in json.load(sys.stdin)["intervals"]))')"
"$BIN" timeline "$T" --thread-function "State As Is" --from 250 --to 650 -o "$TMP/half.json" >/dev/null
# The drawing area is 904 pixels wide from x = 83; 250-300 (state 3, red) is 1/8 of it.
check timeline-range "83 113 #ff0000" "$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["rects"][0]; print(r[0], r[2], r[4])' "$TMP/half.json")"

# Bad input: a clear error and a non-zero exit.
refused from-after-end "$T: error: the range begins at 1000 ns, at or after the trace end 1000 ns" \
  "$BIN" analyze "$T" --cfg "$TMP/states.cfg" --from 1000
refused to-after-end "$T: error: the range ends at 2000 ns, after the trace end 1000 ns" \
  "$BIN" analyze "$T" --cfg "$TMP/states.cfg" --to 2us
refused empty "$T: error: empty range: begin 600 ns is not before end 500 ns" \
  "$BIN" analyze "$T" --cfg "$TMP/states.cfg" --from 600 --to 500
refused bad-unit 'error: bad --from "3 parsecs": unknown unit "parsecs"' \
  "$BIN" analyze "$T" --cfg "$TMP/states.cfg" --from "3 parsecs"
refused bad-percent 'error: bad --to "120%": a percentage above 100' \
  "$BIN" paramedir "$T" "$TMP/states.cfg" --to 120%
refused bad-records 'error: bad --records "5"' "$BIN" text "$T" --records 5
refused records-past-end "$T: error: the record range ends at record 99 but the trace has 11 records" \
  "$BIN" analyze "$T" --cfg "$TMP/states.cfg" --records 1..99
refused records-and-time "error: --records cannot be combined with --from/--to" \
  "$BIN" analyze "$T" --cfg "$TMP/states.cfg" --records 1..3 --from 5

# Consistency with the cutter on a real trace: the state profile of a portion analysed in place
# equals the profile of the cut of that portion (the cut breaks states at its limits, which is
# the analyzer's clipping). The cut's first and last instants differ (the cut shifts times to
# 0), so the comparison is of the Time statistic per state.
Q=$DATA/qsort_beo3/qsort_beo3.prv
"$BIN" cut "$Q" --from 20% --to 60% -o "$TMP/cut.prv" >/dev/null 2>&1
a=$("$BIN" analyze "$Q" --cfg "$TMP/states.cfg" --from 20% --to 60% --format csv)
b=$("$BIN" analyze "$TMP/cut.prv" --cfg "$TMP/states.cfg" --format csv)
check cut-agrees "$b" "$a"

# Absolute nanosecond times of today (1.7e18) are past 2^53: --from/--to went through a double, so
# two integers a few ns apart named the same time ("empty range"). Whole numbers stay integers.
cat >"$TMP/today.prv" <<'PRV'
#Paraver (01/01/2025 at 00:00):1700000000000001000_ns:1(1):1:1(1:1)
1:1:1:1:1:1700000000000000000:1700000000000000500:1
1:1:1:1:1:1700000000000000500:1700000000000001000:2
PRV
check today-text "THREAD 1.1.1 — State As Is (State As Is), 1700000000000000499 .. 1700000000000000502 ns" \
  "$("$BIN" text "$TMP/today.prv" --object "THREAD 1.1.1" --from 1700000000000000499 --to 1700000000000000502 | head -1)"
check today-unit "THREAD 1.1.1 — State As Is (State As Is), 1700000000000000499 .. 1700000000000000502 ns" \
  "$("$BIN" text "$TMP/today.prv" --object "THREAD 1.1.1" --from 1700000000000000499ns --to 1700000000000000502ns | head -1)"
"$BIN" timeline "$TMP/today.prv" --from 1700000000000000499 --to 1700000000000000502 -o "$TMP/today.json" >/dev/null
check today-ticks '"1,700,000,000,000,000,499" "1,700,000,000,000,000,502"' \
  "$(grep -o '"1,700,000,000,000,000,[0-9]*"' "$TMP/today.json" | sed -n '1p;$p' | tr '\n' ' ' | sed 's/ $//')"
# The pixel columns were absolute doubles too: at 1.7e18 ns a double's step is 256 ns, so four
# states of 100 ns drawn over 400 ns came out as two runs (states 2 and 4) at the wrong places.
# Columns are offsets from the range's start now: four runs of a quarter of the area each.
cat >"$TMP/today4.prv" <<'PRV'
#Paraver (01/01/2025 at 00:00):1700000000000001000_ns:1(1):1:1(1:1)
1:1:1:1:1:1700000000000000000:1700000000000000100:1
1:1:1:1:1:1700000000000000100:1700000000000000200:2
1:1:1:1:1:1700000000000000200:1700000000000000300:3
1:1:1:1:1:1700000000000000300:1700000000000001000:4
PRV
"$BIN" timeline "$TMP/today4.prv" --from 1700000000000000000 --to 1700000000000000400 --width 400 \
  -o "$TMP/today4.json" >/dev/null
check today-columns '[83,22,76,36,"#0000ff"] [159,22,75,36,"#ffffff"] [234,22,76,36,"#ff0000"] [310,22,77,36,"#ff00ae"]' \
  "$(grep -o '\[[0-9]*,22,[0-9]*,36,"#[0-9a-f]*"\]' "$TMP/today4.json" | tr '\n' ' ' | sed 's/ $//')"
refused too-large 'error: bad --to "18446744073709551616": too large' "$BIN" text "$T" --to 18446744073709551616
exit $fail
