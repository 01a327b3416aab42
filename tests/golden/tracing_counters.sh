#!/usr/bin/env bash
# Hardware counters of the tracing library (PXT_COUNTERS): read at every state change and written
# as Extrae's counter types, or a notice when they cannot be read, never a failure.
# - default (PAPI_TOT_INS,PAPI_TOT_CYC): either the machine has them (events at every state
#   change) or it has not (a virtual machine: one notice on stderr, no counter events);
# - a name PAPI does not know: the notice names it, the trace is written without counters;
# - "none": no counters, no notice;
# - "synthetic" (test counters: 2 instructions and 1 cycle per ns of thread cpu time): the
#   events appear with every state change and `parallax pop` prints an IPC of exactly 2.00.
set -euo pipefail
BIN=$1
BUILD=$(cd "$(dirname "$BIN")/.." && pwd)
OUT=$(mktemp -d)
ASAN_LIB=$(ldd "$BUILD/bin/pxt_example_threads" | awk '/libasan/ {print $3}')
PRELOAD="${ASAN_LIB:+$ASAN_LIB:}$BUILD/lib/libparallax-pthread.so"
export ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0
trap 'rm -rf "$OUT"' EXIT
fail=0
check() {  # name, expected, actual
  if [[ "$2" != "$3" ]]; then echo "FAIL $1: expected [$2] got [$3]"; fail=1; else echo "ok $1"; fi
}
trace() {  # name, PXT_COUNTERS value; stderr in $OUT/NAME.err
  PXT_COUNTERS="$2" PXT_OUTPUT_NAME="$1" PXT_OUTPUT_DIR=$OUT PXT_MERGE=1 LD_PRELOAD="$PRELOAD" \
    "$BUILD/bin/pxt_example_threads" 2 >"$OUT/$1.out" 2>"$OUT/$1.err"
}
# event lines of a trace holding an event type that starts with $1 (types are fields 7, 9, ...;
# a plain grep would also match a timestamp or a value that happens to contain the digits)
count() {
  awk -F: -v p="$1" '$1 == 2 { for (i = 7; i <= NF; i += 2) if (index($i, p) == 1) { n++; break } }
                     END { print n + 0 }' "$OUT/$2.prv"
}

trace default ""
check default-program "counter 4000" "$(cat "$OUT/default.out")"
if grep -q "hardware counters are not recorded" "$OUT/default.err"; then
  check default-no-counter-events 0 "$(count 42000050 default)"
  echo "ok default: no counters on this machine ($(grep -m1 -o 'hardware counter.*' "$OUT/default.err"))"
else
  check default-counter-events-present 1 "$([ "$(count 42000050 default)" -gt 0 ] && echo 1 || echo 0)"
fi

trace bogus "NO_SUCH_COUNTER"
check bogus-program "counter 4000" "$(cat "$OUT/bogus.out")"
check bogus-notice 1 "$(grep -q 'hardware counter NO_SUCH_COUNTER is not available on this machine' "$OUT/bogus.err" && echo 1 || echo 0)"
check bogus-no-events 0 "$(count 4200 bogus)"

trace off none
check none-no-notice 0 "$(grep -c 'counter' "$OUT/off.err" || true)"
check none-no-events 0 "$(count 4200 off)"

trace syn synthetic
check synthetic-count-sees-events 1 "$([ "$(count 4200 syn)" -gt 10 ] && echo 1 || echo 0)"
python3 - "$OUT/syn.prv" "$OUT/syn.pcf" <<'PY'
import sys
pcf = open(sys.argv[2]).read()
changes = with_counters = 0
ins = cyc = 0
for line in open(sys.argv[1]):
    f = line.rstrip('\n').split(':')
    if f[0] != '2': continue
    pairs = dict(zip(f[6::2], f[7::2]))
    if '42000050' in pairs:
        with_counters += 1
        ins += int(pairs['42000050']); cyc += int(pairs['42000059'])
bad = []
if with_counters < 10: bad.append('only %d event lines carry counters' % with_counters)
if ins != 2 * cyc: bad.append('instructions %d != 2 x cycles %d' % (ins, cyc))
for label in ('PAPI_TOT_INS [Instr completed]', 'PAPI_TOT_CYC [Total cycles]'):
    if label not in pcf: bad.append('.pcf lacks ' + label)
for b in bad: print('FAIL synthetic:', b)
if not bad: print('ok synthetic counters: %d readings, %d instructions' % (with_counters, ins))
sys.exit(1 if bad else 0)
PY
"$BIN" pop "$OUT/syn.prv" > "$OUT/pop.txt"
value() { grep "^$1 *|" "$OUT/pop.txt" | awk -F'|' '{gsub(/ /, "", $2); print $2}'; }
check synthetic-pop-ipc "2.00" "$(value 'Average IPC')"
check synthetic-pop-ipc-scalability "100.00%" "$(value 'IPC scalability')"
exit $fail
