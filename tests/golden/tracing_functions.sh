#!/usr/bin/env bash
# User functions without source changes (tracing/README.md, "User functions"):
# tests/tracing/user_functions.c, built with -finstrument-functions -O0 -g, runs under
# libparallax-functions.so. main calls f 3 times and g 2 times, g calls h: the trace holds
# exactly the entries main 1, f 3, g 2, h 2 as Extrae's 60000019 (labels main/f/g/h) with
# 60000119 the function's opening line (20, 16, 12, 8), each closed by 60000019 = 0 in nesting
# order; with PXT_FUNCTIONS listing f and g only f 3 and g 2 remain (and the run names the
# listed function it did not find). BSC's uf_profile.cfg (`parallax paramedir`) has the columns
# of the functions, and `parallax text` labels them. Without the library the program runs untraced.
set -euo pipefail
BIN=$(realpath "$1")
DATA=$(realpath "$2")
BUILD=$(cd "$(dirname "$BIN")/.." && pwd)
LIB=$BUILD/lib/libparallax-functions.so
PROG=$BUILD/bin/pxt_test_user_functions
CFG=$DATA/cfg/bsc/General/analysis/uf_profile.cfg
[ -f "$LIB" ] && [ -x "$PROG" ] || { echo "skipped: $LIB or $PROG not built"; exit 77; }
[ -f "$CFG" ] || { echo "skipped: no BSC cfgs in $DATA"; exit 77; }
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
ASAN_LIB=$(ldd "$PROG" 2>/dev/null | awk '/libasan/ {print $3}')
export ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0
run() {  # name [VAR=value...]
  local name=$1; shift
  env PXT_COUNTERS=none PXT_VERBOSE=0 PXT_OUTPUT_DIR="$OUT" PXT_OUTPUT_NAME="$name" "$@" \
    LD_PRELOAD="${ASAN_LIB:+$ASAN_LIB:}$LIB" "$PROG" >"$OUT/$name.out" 2>"$OUT/$name.err"
}
check() {  # name expected-entries ("main f f f g h g h")
python3 - "$OUT/$1" "$2" <<'PY'
import re, sys
base, want = sys.argv[1], sys.argv[2].split()
pcf = open(base + '.pcf').read()
def labels(t):
    m = re.search(r'\n0\s+%d\s+[^\n]*\nVALUES\n(.*?)\n\n' % t, pcf, re.S)
    return {int(v): l.strip() for v, l in (x.split(None, 1) for x in m.group(1).splitlines())} if m else {}
names, lines = labels(60000019), labels(60000119)
line_of = {'main': 20, 'f': 16, 'g': 12, 'h': 8}
entries, stack, bad = [], [], []
for rec in open(base + '.prv'):
    f = rec.rstrip('\n').split(':')
    if f[0] != '2': continue
    pairs = dict(zip(map(int, f[6::2]), map(int, f[7::2])))
    if 60000019 not in pairs: continue
    v, l = pairs[60000019], pairs.get(60000119)
    if v == 0:
        if l != 0: bad.append('exit with line %s' % l)
        if not stack: bad.append('exit without entry')
        else: stack.pop()
        continue
    fn = names.get(v)
    entries.append(fn); stack.append(fn)
    want_line = '%d (user_functions.c, pxt_test_user_functions)' % line_of.get(fn, -1)
    if lines.get(l) != want_line: bad.append('%s at %r, expected %r' % (fn, lines.get(l), want_line))
if stack: bad.append('entries never left: %s' % stack)
if entries != want: bad.append('entries %s, expected %s' % (entries, want))
for b in bad[:10]: print('tracing_functions:', b)
if not bad: print('ok %s: entries %s, each at its line, all left' % (base.rsplit('/', 1)[1], ' '.join(entries)))
sys.exit(1 if bad else 0)
PY
}
fail=0
run all && check all "main f f f g h g h" || fail=1
printf '# kept functions\nf\ng   # and g\nnot_a_function\n' >"$OUT/list"
run list PXT_VERBOSE=1 PXT_FUNCTIONS="$OUT/list" && check list "f f f g g" || fail=1
if grep -q "no function named not_a_function" "$OUT/list.err"; then echo "ok PXT_FUNCTIONS names the missing function"; else echo "FAIL no notice of not_a_function"; cat "$OUT/list.err"; fail=1; fi
# BSC's profile of user functions: one column per function.
got=$(cd "$OUT" && "$BIN" paramedir all.prv "$CFG" uf.txt >/dev/null 2>&1 && head -1 uf.txt | tr '\t' '\n' | grep -v '^$' | sort | tr '\n' ' ')
if [ "$got" = "f g h main " ]; then echo "ok uf_profile.cfg columns: $got"; else echo "FAIL uf_profile.cfg columns: '$got'"; fail=1; fi
"$BIN" text "$OUT/all.prv" --thread-function "Last Evt Val" --param 60000019 --object 1.1.1 >"$OUT/text.txt" 2>&1
if grep -q "60000019 (User function) = 5 (g)" "$OUT/text.txt"; then echo "ok text view labels g"; else echo "FAIL text view:"; grep 60000019 "$OUT/text.txt" | head -3; fail=1; fi
# Without the library: glibc's empty hooks, no trace.
"$PROG" >/dev/null && [ ! -e "$OUT/pxt_test_user_functions.prv" ] && echo "ok untraced run" || { echo "FAIL untraced run"; fail=1; }
exit $fail
