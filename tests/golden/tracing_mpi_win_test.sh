#!/usr/bin/env bash
# MPI_Win_test (tests/tracing/mpi_win_test.c, 2 ranks): the target polls a post/start/complete/
# wait epoch with MPI_Win_test. How many calls it takes depends on timing, so the trace is checked
# against what the program says and against what MPI guarantees: as many MPI_Win_test calls
# (Extrae's 50000004 value 73, in state 22 Memory ordering) as the program counted, at least 2;
# the first ends before the origin's MPI_Win_start begins (the epoch could not be complete); the
# last one, which completed the epoch, ends after the origin's MPI_Win_complete began; and the
# origin's MPI_Put carries 16 bytes to rank 1. Skipped when MPI is not built.
set -euo pipefail
BIN=$1
source "$(dirname "$0")/lib/mpi_env.bash"

mpirun --allow-run-as-root --oversubscribe -np 2 -x LD_PRELOAD="$PRELOAD" -x PXT_COUNTERS=none \
  -x PXT_OUTPUT_DIR="$OUT" "$BUILD/bin/pxt_test_mpi_win_test" >"$OUT/stdout" 2>"$OUT/stderr"
if ! grep -q "win_test calls" "$OUT/stdout" || grep -q "bad data" "$OUT/stdout"; then
  echo "tracing_mpi_win_test: output:"; cat "$OUT/stdout" "$OUT/stderr"; exit 1
fi
python3 - "$OUT/pxt_test_mpi_win_test.prv" "$OUT/stdout" "$OUT/stderr" <<'PY'
import re, sys
prv, stdout, report = sys.argv[1], open(sys.argv[2]).read(), open(sys.argv[3]).read()
n_program = int(re.search(r'win_test calls (\d+)', stdout).group(1))
RMA, WIN_START, WIN_COMPLETE, WIN_POST, WIN_TEST, PUT = 50000004, 69, 70, 71, 73, 65
calls = {1: [], 2: []}   # task -> [(value, entry, exit, {type: value} at entry)]
open_call = {}
states22 = {1: set(), 2: set()}  # begin times of state 22 per task
for line in open(prv):
    f = line.rstrip('\n').split(':')
    if f[0] == '1' and f[7] == '22': states22[int(f[3])].add(int(f[5]))
    if f[0] != '2': continue
    task, t = int(f[3]), int(f[5])
    ev = {int(a): int(b) for a, b in zip(f[6::2], f[7::2])}
    if RMA not in ev: continue
    if ev[RMA]: open_call[task] = (ev[RMA], t, ev)
    else:
        v, t0, e = open_call.pop(task)
        if v not in (63, 64): calls[task].append((v, t0, t, e))  # not Win_create, Win_free
tests = [c for c in calls[2] if c[0] == WIN_TEST]
origin = {c[0]: c for c in calls[1]}
checks = [('MPI_Win_test calls (trace, program)', len(tests), n_program),
          ('at least 2 MPI_Win_test calls', n_program >= 2, True),
          ('target calls', [c[0] for c in calls[2]], [WIN_POST] + [WIN_TEST] * len(tests)),
          ('origin calls', [c[0] for c in calls[1]], [WIN_START, PUT, WIN_COMPLETE]),
          ('MPI_Win_test in state 22', all(c[1] in states22[2] for c in tests), True),
          ('report', 'warning' in report or 'unmatched' in report or 'lost' in report, False)]
if tests and len(origin) == 3:
    checks += [('first MPI_Win_test ends before MPI_Win_start begins', tests[0][2] < origin[WIN_START][1], True),
               ('last MPI_Win_test ends after MPI_Win_complete begins', tests[-1][2] >= origin[WIN_COMPLETE][1], True),
               ('MPI_Put bytes, target', (origin[PUT][3].get(50001000), origin[PUT][3].get(50001001)), (16, 1))]
bad = [c for c in checks if c[1] != c[2]]
for b in bad: print('tracing_mpi_win_test: %s: got %r, expected %r' % b)
if not bad: print('ok MPI_Win_test: %d calls, the first before the access epoch, the last after its completion' % len(tests))
sys.exit(1 if bad else 0)
PY
