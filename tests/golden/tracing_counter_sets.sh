#!/usr/bin/env bash
# Counter-set switching (tracing/README.md, PXT_COUNTER_SETS / PXT_COUNTER_SWITCH) without a PMU:
# tests/tracing/counter_sets.c enters a user state 6 times (each entry ends a Running burst).
# With PXT_COUNTERS=synthetic, the sets "PAPI_TOT_INS,PAPI_TOT_CYC;PAPI_L1_DCM,PAPI_L2_DCM" and
# a switch every burst, the thread's active set (Extrae's 41999999) is 1 at its start and then
# 2,1,2,1,2,1 at the 6 entries; each switch writes zero readings of the new set's counters; set 1
# is read 7 times (entry 1, leave+entry 2-3, 4-5, leave 6 + the end) with instructions = 2 x
# cycles exactly, set 2 six times with L2_DCM = 2 x L1_DCM exactly (synthetic rates: position i
# of a set counts (i+1) per 100 ns), and no reading of a counter outside its set's intervals.
# PXT_COUNTER_SWITCH=1ns gives the same switches, =2 switches at entries 2, 4, 6 (1,2,1,2);
# without PXT_COUNTER_SETS there is no 41999999. BSC's counters_PAPI cfgs (L1D_misses.cfg,
# performance/instructions.cfg) through `parallax text` show L1 misses in the 6 set-2 intervals
# and instructions in the 7 set-1 ones.
set -euo pipefail
BIN=$(realpath "$1")
DATA=$(realpath "$2")
BUILD=$(cd "$(dirname "$BIN")/.." && pwd)
PROG=$BUILD/bin/pxt_test_counter_sets
CFG=$DATA/cfg/bsc/counters_PAPI
[ -x "$PROG" ] || { echo "skipped: $PROG not built"; exit 77; }
[ -f "$CFG/architecture/L1D_misses.cfg" ] || { echo "skipped: no BSC cfgs in $DATA"; exit 77; }
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0
SETS="PAPI_TOT_INS,PAPI_TOT_CYC;PAPI_L1_DCM,PAPI_L2_DCM"
run() {  # name [VAR=value...]
  local name=$1; shift
  env PXT_COUNTERS=synthetic PXT_VERBOSE=0 PXT_OUTPUT_DIR="$OUT" PXT_OUTPUT_NAME="$name" "$@" "$PROG" >/dev/null
}
check() {  # name expected-set-sequence
python3 - "$OUT/$1" "$2" <<'PY'
import re, sys
base, want = sys.argv[1], [int(x) for x in sys.argv[2].split(',') if x]
INS, CYC, L1, L2, SET = 42000050, 42000059, 42000000, 42000002, 41999999
sets = {1: (INS, CYC), 2: (L1, L2)}
seq, bad, readings = [], [], {1: 0, 2: 0}
active, zeros_due = (None if want else 1), ()  # without sets: PXT_COUNTERS' one set
for rec in open(base + '.prv'):
    f = rec.rstrip('\n').split(':')
    if f[0] != '2' or f[2:5] != ['1', '1', '1']: continue
    pairs = list(zip(map(int, f[6::2]), map(int, f[7::2])))
    got = {}
    for t, v in pairs:
        if t == SET:
            seq.append(v); active = v; zeros_due = sets.get(v, ())
            continue
        if t not in (INS, CYC, L1, L2): continue
        if t in zeros_due and v == 0:  # the new set's zero readings at the switch
            zeros_due = tuple(x for x in zeros_due if x != t); continue
        if active is None or t not in sets[active]:
            bad.append('type %d = %d read while set %s is active' % (t, v, active))
        got[t] = v
    if zeros_due and len(seq) > 1: bad.append('switch without zero readings of %s' % (zeros_due,)); zeros_due = ()
    for s, (a, b) in (sets.items() if want else [(1, sets[1])]):
        if a in got or b in got:
            readings[s] += 1
            if s == 1 and got.get(INS) != 2 * got.get(CYC, -1): bad.append('set 1 reading %s: instructions != 2 x cycles' % got)
            if s == 2 and (got.get(L2) != 2 * got.get(L1, -1) or got[L1] < 0): bad.append('set 2 reading %s: L2 != 2 x L1' % got)
if seq != want: bad.append('active sets %s, expected %s' % (seq, want))
if want:
    switches = len(want) - 1
    # set 1 from the start to entry 1 and at the end; set 2 and 1 alternate between switches.
    exp = {1: 0, 2: 0}
    # Readings: entry j (j = 1..6) with the set before the switch, leave j with the set after it.
    cur, k = 1, 0
    per_entry = {}
    sw = [i for i in range(1, 7)] if switches == 6 else [2, 4, 6]
    for j in range(1, 7):
        exp[cur] += 1                           # entry j
        if j in sw: cur = 2 if cur == 1 else 1
        exp[cur] += 1                           # leave j
    exp[cur] += 1                               # the thread's end
    if readings != exp: bad.append('readings per set %s, expected %s' % (readings, exp))
pcf = open(base + '.pcf').read()
if want:
    for label in ('41999999    Active hardware counter set', '1      Set 1 (PAPI_TOT_INS,PAPI_TOT_CYC)',
                  '2      Set 2 (PAPI_L1_DCM,PAPI_L2_DCM)', '42000000    PAPI_L1_DCM [L1D cache misses]',
                  '42000002    PAPI_L2_DCM [L2D cache misses]'):
        if label not in pcf: bad.append('.pcf lacks %r' % label)
elif '41999999' in pcf: bad.append('.pcf has 41999999 without PXT_COUNTER_SETS')
for b in bad[:10]: print('tracing_counter_sets:', b)
if not bad: print('ok %s: active sets %s, readings per set %s' % (base.rsplit('/', 1)[1], seq, readings))
sys.exit(1 if bad else 0)
PY
}
fail=0
run every PXT_COUNTER_SETS="$SETS" PXT_COUNTER_SWITCH=1 && check every 1,2,1,2,1,2,1 || fail=1
run time PXT_COUNTER_SETS="$SETS" PXT_COUNTER_SWITCH=1ns && check time 1,2,1,2,1,2,1 || fail=1
run two PXT_COUNTER_SETS="$SETS" PXT_COUNTER_SWITCH=2 && check two 1,2,1,2 || fail=1
run one && check one "" || fail=1

# BSC's cfgs: intervals with a non-zero value (Next Evt Val: one per reading).
nonzero() {  # cfg
  "$BIN" text "$OUT/every.prv" --cfg "$1" --object "THREAD 1.1.1" |
    awk '/^intervals:/ {on=1; next} /^events/ {on=0} on && NF == 3 && $3 != 0 {n++} END {print n+0}'
}
n=$(nonzero "$CFG/architecture/L1D_misses.cfg")
if [ "$n" = 6 ]; then echo "ok L1D_misses.cfg: 6 intervals of set 2"; else echo "FAIL L1D_misses.cfg: $n non-zero intervals, expected 6"; fail=1; fi
n=$(nonzero "$CFG/performance/instructions.cfg")
if [ "$n" = 7 ]; then echo "ok instructions.cfg: 7 intervals of set 1"; else echo "FAIL instructions.cfg: $n non-zero intervals, expected 7"; fail=1; fi
exit $fail
