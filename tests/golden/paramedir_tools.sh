#!/usr/bin/env bash
# paramedir's trace-processing modes through the installed name (`paramedir`, a link to
# parallax): the oracles of tests/data/oracles/paramedir-tools reproduced from the command
# line, the two calls of pypop's chop_prv_to_roi run unchanged, default output names, and the
# errors for bad parameter files. Also `parallax cut/filter/softcounters`.
set -euo pipefail
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
DATA=$(cd "$2" && pwd)
PARAMEDIR=$(dirname "$BIN")/paramedir
ORACLES=$DATA/oracles/paramedir-tools
WORK=$(mktemp -d /tmp/parallax_paramedir_tools.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
fail=0
norm() { sed -E 's/^#[0-9]+:CUTTER:ORIGINAL:"[^"]*":/#DATE:CUTTER:ORIGINAL:"PATH":/'; }
check() {  # name, expected file (.gz allowed), actual file
  if ! cmp -s <(zcat -f "$2" | norm) <(norm < "$3"); then
    echo "FAIL $1: $3 differs from $2"; diff <(zcat -f "$2" | norm) <(norm < "$3") | head -5; fail=1
  else echo "ok $1"; fi
}

# 1. The oracles through `paramedir -c/-f/-s TRACE XML -o OUT` (the same command lines).
cp "$DATA/qsort_beo3/qsort_beo3.prv" "$DATA/qsort_beo3/qsort_beo3.pcf" "$WORK/"
for xml in "$ORACLES"/qsort_beo3/*.xml; do
  name=$(basename "$xml" .xml)
  "$PARAMEDIR" -c "$WORK/qsort_beo3.prv" "$xml" -o "$WORK/$name.prv"
  check "paramedir -c $name" "$ORACLES/qsort_beo3/$name.prv" "$WORK/$name.prv"
done
for name in cut.bytime.mid20.orig-0 cut.bytime.mid20.orig-1; do
  "$PARAMEDIR" --cutter "$DATA/epoch/epoch_2proc.prv.gz" "$ORACLES/epoch_2proc/$name.xml" --output-name "$WORK/$name.prv"
  check "paramedir --cutter $name" "$ORACLES/epoch_2proc/$name.prv.gz" "$WORK/$name.prv"
done
"$PARAMEDIR" -f "$DATA/epoch/epoch_2proc.prv.gz" "$ORACLES/epoch_2proc/filter.mpi50000001.states.xml" -o "$WORK/f.prv"
check "paramedir -f" "$ORACLES/epoch_2proc/filter.mpi50000001.states.prv.gz" "$WORK/f.prv"
for name in sc.count_mpi sc.count_mpi.global sc.count_mpi.bystates; do
  "$PARAMEDIR" -s "$DATA/epoch/epoch_2proc.prv.gz" "$ORACLES/epoch_2proc/$name.xml" -o "$WORK/$name.prv"
  check "paramedir -s $name" "$ORACLES/epoch_2proc/$name.prv.gz" "$WORK/$name.prv"
  check "paramedir -s $name (.pcf)" "$ORACLES/epoch_2proc/$name.pcf" "$WORK/$name.pcf"
done

# 2. Default names: NAME.chop1.prv, then chop2 when chop1 exists; a chain -c -f gives the
#    filter's name for the last step and removes the intermediate trace.
( cd "$WORK" && "$PARAMEDIR" -c qsort_beo3.prv "$ORACLES/qsort_beo3/cut.bytime.orig-0.brk-0.rmfirst-0.rmlast-0.xml" \
  && "$PARAMEDIR" -c qsort_beo3.prv "$ORACLES/qsort_beo3/cut.bytime.orig-0.brk-0.rmfirst-0.rmlast-0.xml" )
for f in qsort_beo3.chop1.prv qsort_beo3.chop1.pcf qsort_beo3.chop2.prv; do
  [ -f "$WORK/$f" ] && echo "ok default name $f" || { echo "FAIL missing $f"; fail=1; }
done
cat > "$WORK/both.xml" <<'XML'
<?xml version="1.0"?>
<config>
  <cutter><by_time>1</by_time><minimum_time>106933</minimum_time><maximum_time>107202</maximum_time>
    <original_time>1</original_time></cutter>
  <filter><discard_communications>1</discard_communications><types><type>50000001-50000003</type></types></filter>
</config>
XML
( cd "$WORK" && "$PARAMEDIR" -c -f qsort_beo3.prv both.xml )
# The cut gets the first free name (chop3: chop1 and chop2 exist), the filter names its
# output after it, and the intermediate cut is removed.
chained=$WORK/qsort_beo3.chop3.filter1.prv
if [ -f "$chained" ] && [ ! -e "$WORK/qsort_beo3.chop3.prv" ] && ! grep -q '^3:' "$chained" \
   && grep -q '^2:.*:5000000[123]:' "$chained" && ! grep -qE ':(60000019|42000050):' "$chained"; then
  echo "ok chain -c -f"
else echo "FAIL chain -c -f"; ls "$WORK"; fail=1; fi

# 3. pypop's chop_prv_to_roi: the two calls, unchanged, on a trace with Extrae's tracing
#    on/off events (40000012: 0 at start, 1 when tracing restarts, 0 at shutdown).
cat > "$WORK/app.prv" <<'PRV'
#Paraver (01/01/2024 at 10:00):1000_ns:1(2):1:2(1:1,1:1),0
1:1:1:1:1:0:100:1
1:2:1:2:1:0:110:1
2:1:1:1:1:5:40000012:0
2:2:1:2:1:6:40000012:0
1:1:1:1:1:100:900:1
2:1:1:1:1:100:40000012:1:50000001:3
1:2:1:2:1:110:900:1
2:2:1:2:1:110:40000012:1
3:1:1:1:1:300:300:2:1:2:1:310:310:64:1
2:1:1:1:1:500:50000001:0
2:1:1:1:1:800:40000012:0
2:2:1:2:1:850:40000012:0
1:1:1:1:1:900:1000:1
1:2:1:2:1:900:1000:1
PRV
printf 'STATES\n0 Idle\n1 Running\n\nEVENT_TYPE\n0 40000012 Tracing\nVALUES\n0 Disabled\n1 Enabled\n' > "$WORK/app.pcf"
(
  cd "$WORK"
  paramedir() { "$PARAMEDIR" "$@"; }
  paramedir --filter "$DATA/pypop/tracing_state.xml" --output-name "$WORK/app.roifilter.prv" "$WORK/app.prv"
  # pypop's _get_roi_times: after the communicator lines, commsize events 40000012:0, then
  # commsize 40000012:1 (start = latest), then commsize 40000012:0 (end = earliest - 1).
  read -r start end < <(python3 - "$WORK/app.roifilter.prv" <<'PY'
import sys
lines = [l.strip() for l in open(sys.argv[1]) if not l.startswith(('#', 'c'))]
assert len(lines) == 6, lines
assert all(l.endswith('40000012:0') for l in lines[0:2]), lines
assert all(l.endswith('40000012:1') for l in lines[2:4]), lines
assert all(l.endswith('40000012:0') for l in lines[4:6]), lines
start = max(int(l.split(':')[5]) for l in lines[2:4])
end = min(int(l.split(':')[5]) for l in lines[4:6])
print(start, end - 1)
PY
)
  [ "$start $end" = "110 799" ] && echo "ok pypop ROI filter gives 110..799" || { echo "FAIL ROI $start $end"; exit 1; }
  # The cutter skeleton pypop fills in (its cutters/single_region.skel, written again here).
  sed -e "s/@MIN_TIME@/$start/" -e "s/@MAX_TIME@/$end/" > "$WORK/cut.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<config>
  <cutter>
    <max_trace_size>0</max_trace_size>
    <by_time>1</by_time>
    <minimum_time>@MIN_TIME@</minimum_time>
    <maximum_time>@MAX_TIME@</maximum_time>
    <minimum_time_percentage>0</minimum_time_percentage>
    <maximum_time_percentage>100</maximum_time_percentage>
    <original_time>0</original_time>
    <break_states>0</break_states>
    <remove_first_states>0</remove_first_states>
    <remove_last_states>0</remove_last_states>
  </cutter>
</config>
XML
  paramedir --cutter "$WORK/app.prv" "$WORK/cut.xml" --output-name "$WORK/app.chop.prv"
)
# Worked by hand from the cutter's rules: states crossing 110 and 799 are kept whole (no
# break), so the first record is at 100 (the shift) and the last ends at 900 (end 800); the
# event at 100 lies before the cut and keep_events is off, so it is dropped; thread 2's open
# tracing event is closed at the last record time.
expected_chop='#Paraver (01/01/2024 at 10:00):800_ns:1(2):1:2(1:1,1:1)
#DATE:CUTTER:ORIGINAL:"PATH":100:110:799
1:1:1:1:1:0:800:1
1:2:1:2:1:10:800:1
2:2:1:2:1:10:40000012:1
3:1:1:1:1:200:200:2:1:2:1:210:210:64:1
2:1:1:1:1:400:50000001:0
# Appending events with value 0
2:2:1:2:1:800:40000012:0'
if [ "$(norm < "$WORK/app.chop.prv")" = "$expected_chop" ]; then echo "ok pypop cutter call"
else echo "FAIL pypop cutter call:"; norm < "$WORK/app.chop.prv"; fail=1; fi

# 3b. pypop names its filtered trace X.prv.roifilter.gz: paramedir writes any output name as
#     plain text (parallax's own commands still gzip a .gz), and a cfg given in the same call
#     reads it; the .pcf goes beside it without the .gz.
(
  cd "$WORK"
  "$PARAMEDIR" -c qsort_beo3.prv "$ORACLES/qsort_beo3/cut.bytime.orig-0.brk-0.rmfirst-0.rmlast-0.xml" \
    "$DATA/qsort_beo3/qsort_beo3.prv.cfg" roi.csv -o "$WORK/x.prv.roifilter.gz" 2> /dev/null
)
if head -1 "$WORK/x.prv.roifilter.gz" | grep -q '^#Paraver' && [ -f "$WORK/x.prv.roifilter.pcf" ] \
   && [ -s "$WORK/roi.csv" ]; then echo "ok paramedir -o X.prv.roifilter.gz (plain text)"
else echo "FAIL paramedir -o X.prv.roifilter.gz"; ls "$WORK"; fail=1; fi
# Dimemas 5.4.2 writes lists with a trailing ',': the header "2(1,1,)" and "2(1:1,1:2,)".
printf '#Paraver (01/01/2024 at 10:00):100_ns:2(1,1,):1:2(1:1,1:2,),0\n1:1:1:1:1:0:100:1\n1:2:1:2:1:0:50:1\n' > "$WORK/dimemas.prv"
if "$PARAMEDIR" -f "$WORK/dimemas.prv" "$ORACLES/epoch_2proc/filter.mpi50000001.states.xml" -o "$WORK/dimemas.f.prv" 2> "$WORK/err" \
   && [ "$(head -1 "$WORK/dimemas.f.prv")" = '#Paraver (01/01/2024 at 10:00):100_ns:2(1,1):1:2(1:1,1:2)' ]; then
  echo "ok Dimemas header"
else echo "FAIL Dimemas header: $(cat "$WORK/err")"; fail=1; fi

# 4. The parallax commands on the same oracles.
"$BIN" cut "$DATA/qsort_beo3/qsort_beo3.prv" --from 106933 --to 107202 --no-break-states -o "$WORK/c.prv"
check "parallax cut" "$ORACLES/qsort_beo3/cut.bytime.orig-0.brk-0.rmfirst-0.rmlast-0.prv" "$WORK/c.prv"
"$BIN" filter "$DATA/epoch/epoch_2proc.prv.gz" --no-comms --types 50000001 -o "$WORK/f2.prv.gz"
check "parallax filter" "$ORACLES/epoch_2proc/filter.mpi50000001.states.prv.gz" <(zcat "$WORK/f2.prv.gz")
"$BIN" softcounters "$DATA/epoch/epoch_2proc.prv.gz" --interval 100000000 --count 50000001,50000002,50000003 -o "$WORK/s.prv"
check "parallax softcounters" "$ORACLES/epoch_2proc/sc.count_mpi.prv.gz" "$WORK/s.prv"

# 5. Errors: an existing output is kept, an unknown key is located, a range after the end.
echo precious > "$WORK/keep.prv"
if "$BIN" cut "$DATA/qsort_beo3/qsort_beo3.prv" --from 1 --to 2 -o "$WORK/keep.prv" 2> "$WORK/err"; then
  echo "FAIL overwrote"; fail=1; fi
grep -q -- '--force' "$WORK/err" && [ "$(cat "$WORK/keep.prv")" = precious ] && echo "ok existing output kept" || { echo "FAIL keep"; fail=1; }
printf '<config>\n<cutter>\n<minimum_tme>5</minimum_tme>\n</cutter>\n</config>\n' > "$WORK/bad.xml"
if "$PARAMEDIR" -c "$DATA/qsort_beo3/qsort_beo3.prv" "$WORK/bad.xml" -o "$WORK/bad.prv" 2> "$WORK/err"; then
  echo "FAIL bad xml accepted"; fail=1; fi
grep -q "bad.xml:3.*unknown key <minimum_tme> in <cutter>" "$WORK/err" && echo "ok unknown key located" || { echo "FAIL unknown key: $(cat "$WORK/err")"; fail=1; }
[ ! -e "$WORK/bad.prv" ] || { echo "FAIL output written for a bad xml"; fail=1; }
if "$BIN" cut "$DATA/qsort_beo3/qsort_beo3.prv" --from 300000 --to 400000 -o "$WORK/late.prv" 2> "$WORK/err"; then
  echo "FAIL late range accepted"; fail=1; fi
grep -q "after the end of the trace" "$WORK/err" && [ ! -e "$WORK/late.prv" ] && echo "ok range after the end" || { echo "FAIL late: $(cat "$WORK/err")"; fail=1; }
exit $fail
