#!/usr/bin/env bash
# Call stacks of configurable depth (tracing/README.md, PXT_CALLERS): tests/tracing/mpi_callers.c
# (-O0 -g) sends on rank 0 through main -> a -> b -> MPI_Send and receives on rank 1 in main.
# With PXT_CALLERS=4 every MPI call carries Extrae's 70000001..70000004 (caller function at level
# 1..4) and 80000001..80000004 (its line): MPI_Send's level 1 is b at line 10, level 2 a at line
# 14, level 3 main at line 22, level 4 the C library (what called main); MPI_Recv's level 1 is
# main at line 24; MPI_Init / MPI_Comm_rank / MPI_Finalize main at lines 19 / 20 / 25. The .pcf
# labels each type "Caller at level L" / "Caller line at level L", `parallax text` shows level 3,
# and BSC's by_call_stack cfgs (2dp_MPItime_caller{,2,3,4}.cfg) read it through `parallax
# paramedir`. PXT_CALLERS=2 records two levels, the default one. Skipped when MPI is not built.
set -euo pipefail
BIN=$(realpath "$1")
DATA=$(realpath "$2")
source "$(dirname "$0")/lib/mpi_env.bash"
PROG=$BUILD/bin/pxt_test_mpi_callers
CFG=$DATA/cfg/bsc/General/link_to_source/by_call_stack
[ -x "$PROG" ] || { echo "skipped: $PROG not built"; exit 77; }
[ -f "$CFG/2dp_MPItime_caller4.cfg" ] || { echo "skipped: no BSC cfgs in $DATA"; exit 77; }

run() {  # levels (empty: PXT_CALLERS unset) -> $OUT/cLEVELS/pxt_test_mpi_callers.prv
  local dir=$OUT/c${1:-default}
  mkdir -p "$dir"
  mpirun --allow-run-as-root --oversubscribe -np 2 -x LD_PRELOAD="$PRELOAD" ${1:+-x PXT_CALLERS=$1} \
    -x PXT_COUNTERS=none -x PXT_VERBOSE=0 -x PXT_OUTPUT_DIR="$dir" "$PROG" >"$dir/stdout" 2>&1 ||
    { cat "$dir/stdout"; exit 1; }
}

# check LEVELS: the callers of every MPI call of the trace recorded with PXT_CALLERS=LEVELS.
check() {
python3 - "$OUT/c$1/pxt_test_mpi_callers" "$1" <<'PY'
import re, sys
base, levels = sys.argv[1], sys.argv[2]
n = 1 if levels == 'default' else int(levels)
pcf = open(base + '.pcf').read()
def block(t):  # (type label, {value: label}) of a type of the .pcf
    m = re.search(r'\n0\s+%d\s+([^\n]*)\nVALUES\n(.*?)\n\n' % t, pcf, re.S)
    if not m: return None, {}
    return m.group(1).strip(), {int(v): l.strip() for v, l in (x.split(None, 1) for x in m.group(2).splitlines())}
calls = {}
for t in (50000001, 50000002, 50000003): calls.update(block(t)[1])
mod = '(mpi_callers.c, pxt_test_mpi_callers)'
# Expected, by hand from mpi_callers.c: (task, call) -> [(function, line)] for levels 1..3.
expect = {
    (1, 'MPI_Send'): [('b', 10), ('a', 14), ('main', 22)],
    (2, 'MPI_Recv'): [('main', 24)],
    (1, 'MPI_Init'): [('main', 19)], (2, 'MPI_Init'): [('main', 19)],
    (1, 'MPI_Comm_rank'): [('main', 20)], (2, 'MPI_Comm_rank'): [('main', 20)],
    (1, 'MPI_Finalize'): [('main', 25)], (2, 'MPI_Finalize'): [('main', 25)],
}
bad, seen = [], set()
for L in range(1, n + 1):
    for t, label in ((70000000 + L, 'Caller at level %d' % L), (80000000 + L, 'Caller line at level %d' % L)):
        if block(t)[0] != label: bad.append('.pcf type %d is %r, expected %r' % (t, block(t)[0], label))
for t in (70000000 + n + 1, 80000000 + n + 1):
    if block(t)[0] is not None: bad.append('.pcf has type %d with PXT_CALLERS=%s' % (t, levels))
funcs = {L: block(70000000 + L)[1] for L in range(1, n + 1)}
lines = {L: block(80000000 + L)[1] for L in range(1, n + 1)}
for rec in open(base + '.prv'):
    f = rec.rstrip('\n').split(':')
    if f[0] != '2': continue
    pairs = dict(zip(map(int, f[6::2]), map(int, f[7::2])))
    call = next((calls[pairs[t]] for t in (50000001, 50000002, 50000003) if pairs.get(t)), None)
    if call is None: continue
    task = int(f[3])
    got = [(funcs[L].get(pairs.get(70000000 + L)), lines[L].get(pairs.get(80000000 + L))) for L in range(1, n + 1)]
    if any(t in pairs for t in (70000000 + n + 1, 80000000 + n + 1)): bad.append('%s has level %d' % (call, n + 1))
    if (task, call) not in expect: continue
    seen.add((task, call))
    want = expect[(task, call)]
    for L in range(1, n + 1):
        fn, line = got[L - 1]
        if L <= len(want):
            wf, wl = want[L - 1]
            if (fn, line) != (wf, '%d %s' % (wl, mod)):
                bad.append('task %d %s level %d: %r %r, expected %r %r' % (task, call, L, fn, line, wf, '%d %s' % (wl, mod)))
        elif fn is None or fn in ('a', 'b', 'main') or mod in (line or mod):
            # below main: the C library's frames (names depend on its version), never the program's
            bad.append('task %d %s level %d: %r %r, expected a frame below main' % (task, call, L, fn, line))
for k in expect:
    if k not in seen: bad.append('no %s on task %d' % (k[1], k[0]))
for b in bad[:12]: print('tracing_callers:', b)
if not bad: print('ok PXT_CALLERS=%s: %d calls, levels 1..%d as computed by hand' % (levels, len(seen), n))
sys.exit(1 if bad else 0)
PY
}

fail=0
run 4 && check 4 || fail=1
run 2 && check 2 || fail=1
run "" && check default || fail=1

# The textual view: level 3 of MPI_Send on rank 0 is main.
T=$OUT/c4/pxt_test_mpi_callers.prv
"$BIN" text "$T" --thread-function "Last Evt Val" --param 70000003 --object 1.1.1 >"$OUT/text.txt" 2>&1 || { cat "$OUT/text.txt"; exit 1; }
if grep -qw main "$OUT/text.txt"; then echo "ok text view: Caller at level 3 = main"; else echo "FAIL text view:"; head "$OUT/text.txt"; fail=1; fi

# BSC's cfgs: the columns of the % of MPI time per caller at levels 1..4 (thread 1.1.1 holds
# the send; levels 3 and 4 of MPI_Init & co. are the C library's).
cols() { (cd "$OUT" && rm -f "$2" && "$BIN" paramedir "$T" "$CFG/$2.cfg" >/dev/null 2>&1 && head -1 "$2" | tr '\t' '\n' | grep -v '^$' | sort | tr '\n' ' '); }
for pair in "2dp_MPItime_caller:b main" "2dp_MPItime_caller2:a" "2dp_MPItime_caller3:main" "2dp_MPItime_caller4:"; do
  cfg=${pair%%:*}; want=${pair#*:}
  got=$(cols "$T" "$cfg")
  ok=1
  for w in $want; do [[ " $got" == *" $w "* ]] || ok=0; done
  # the program's functions appear at their own level only
  case $cfg in
    2dp_MPItime_caller) [ "$got" = "b main " ] || ok=0 ;;
    2dp_MPItime_caller2) [[ " $got" != *" b "* && " $got" != *" main "* ]] || ok=0 ;;
    2dp_MPItime_caller3) [[ " $got" != *" a "* && " $got" != *" b "* ]] || ok=0 ;;
    2dp_MPItime_caller4) [[ -n "$got" && " $got" != *" a "* && " $got" != *" b "* && " $got" != *" main "* ]] || ok=0 ;;
  esac
  if [ $ok = 1 ]; then echo "ok paramedir $cfg: $got"; else echo "FAIL paramedir $cfg: got '$got', expected '$want'"; fail=1; fi
done
exit $fail
