#!/usr/bin/env bash
# Fortran name manglings: Open MPI's Fortran library exports every routine as mpi_send_,
# mpi_send, mpi_send__ and MPI_SEND, and libparallax-mpi.so must catch the four.
# tests/tracing/mpi_fortran_names.c (2 ranks) calls the same routines in four phases, one
# spelling each (tags 10+k and 20+k): each phase must hold the records of the mpi_send_ phase
# (the same calls with the same values and collective bytes, the same messages), phase 0 what the
# program does, and every call must point at its own PHASE line of the source (the call site
# found past the wrapper). And the library itself must export the three other names of every
# `mpi_*_` wrapper. Skipped when MPI is not built.
set -euo pipefail
BIN=$1
source "$(dirname "$0")/lib/mpi_env.bash"
[ -x "$BUILD/bin/pxt_test_mpi_fortran_names" ] || { echo "skipped: Open MPI without libmpi_mpifh"; exit 0; }
SRC=$(cd "$(dirname "$0")/../tracing" && pwd)/mpi_fortran_names.c

# Every wrapper under the four names (nm: binutils).
nm -D --defined-only "$BUILD/lib/libparallax-mpi.so" | awk '{print $3}' | sort >"$OUT/symbols"
python3 - "$OUT/symbols" <<'PY'
import re, sys
names = set(open(sys.argv[1]).read().split())
wrapped = sorted(n[:-1] for n in names if re.fullmatch(r'mpi_[a-z0-9_]+_', n)
                 and not n.endswith('_f08_') and not n.endswith('__'))
missing = [(w, alt) for w in wrapped for alt in (w, w + '__', w.upper()) if alt not in names]
for w, alt in missing[:10]: print('tracing_mpi_fortran_names: %s_ has no %s' % (w, alt))
if len(wrapped) < 100: print('tracing_mpi_fortran_names: only %d Fortran wrappers?' % len(wrapped))
if not missing and len(wrapped) >= 100: print('ok symbols: %d Fortran wrappers, each under 4 names' % len(wrapped))
sys.exit(1 if missing or len(wrapped) < 100 else 0)
PY

mpirun --allow-run-as-root --oversubscribe -np 2 -x LD_PRELOAD="$PRELOAD" -x PXT_COUNTERS=none \
  -x PXT_OUTPUT_DIR="$OUT" "$BUILD/bin/pxt_test_mpi_fortran_names" >"$OUT/stdout" 2>"$OUT/stderr"
if ! grep -q "mpi_fortran_names: done, 0 errors" "$OUT/stdout" || grep -q "bad data" "$OUT/stdout"; then
  echo "tracing_mpi_fortran_names: output:"; cat "$OUT/stdout" "$OUT/stderr"; exit 1
fi
PYTHONPATH="$(dirname "$0")/lib" python3 - "$OUT/pxt_test_mpi_fortran_names" "$SRC" "$OUT/stderr" <<'PY'
import collections, re, sys
from prv_summary import read_prv
base, src, report = sys.argv[1], sys.argv[2], open(sys.argv[3]).read()
prv, pcf = read_prv(base + '.prv'), open(base + '.pcf').read()
def labels(t):
    m = re.search(r'\n0\s+%d\s+[^\n]*\nVALUES\n(.*?)\n\n' % t, pcf, re.S)
    return {int(v): l.strip() for v, l in (x.split(None, 1) for x in m.group(1).splitlines())}
lines = labels(80000001)
# Source line of each phase (the PHASE(k, ... lines) and of INIT / FINALIZE.
phase_of_line = {}
for n, text in enumerate(open(src), 1):
    m = re.match(r'\s*PHASE\((\d),', text)
    if m: phase_of_line[n] = int(m.group(1))
    for mark in ('INIT', 'RANK', 'SIZE', 'FINALIZE'):
        if '/* %s */' % mark in text: phase_of_line[n] = mark
MPI_TYPES = (50000001, 50000002, 50000003)
# Per (task, phase): the MPI calls in order, with their collective bytes.
seq = collections.defaultdict(list); bad = []
for task, e in prv['lines']:
    call = next(((t, e[t]) for t in MPI_TYPES if e.get(t)), None)
    if call is None: continue
    if 80000001 not in e: bad.append('task %d: %r without a call site' % (task, call)); continue
    m = re.match(r'(\d+) \(mpi_fortran_names\.c, pxt_test_mpi_fortran_names\)$', lines[e[80000001]])
    if not m or int(m.group(1)) not in phase_of_line:
        bad.append('task %d: %r at %r, not at a marked line' % (task, call, lines[e[80000001]])); continue
    seq[(task, phase_of_line[int(m.group(1))])].append((call, e.get(50100001), e.get(50100002)))
SEND, RECV, ISEND, IRECV, WAIT, ALLREDUCE, BARRIER = ((50000001, 1), (50000001, 2), (50000001, 3),
    (50000001, 4), (50000001, 5), (50000002, 10), (50000002, 8))
want = {1: [(SEND, None, None), (IRECV, None, None), (WAIT, None, None), (ALLREDUCE, 4, 4), (BARRIER, 0, 0)],
        2: [(RECV, None, None), (ISEND, None, None), (WAIT, None, None), (ALLREDUCE, 4, 4), (BARRIER, 0, 0)]}
checks = [('report', 'unmatched' in report or 'lost' in report or 'warning' in report, False)]
for t in (1, 2):
    checks.append(('task %d mpi_send_ phase' % t, seq[(t, 0)], want[t]))
    for k in (1, 2, 3): checks.append(('task %d phase %d' % (t, k), seq[(t, k)], seq[(t, 0)]))
    checks.append(('task %d init, comm_rank, comm_size, finalize' % t,
                   [seq[(t, m)] for m in ('INIT', 'RANK', 'SIZE', 'FINALIZE')],
                   [[((50000003, v), None, None)] for v in (31, 19, 20, 32)]))
got = collections.Counter((c['send_task'], c['recv_task'], c['tag'], c['size']) for c in prv['comms'])
checks.append(('messages', sorted(got.items()),
               sorted({(1, 2, 10 + k, 8): 1 for k in range(4)}.items() |
                      {(2, 1, 20 + k, 12): 1 for k in range(4)}.items())))
bad += ['%s: got %r, expected %r' % c for c in checks if c[1] != c[2]]
for b in bad[:12]: print('tracing_mpi_fortran_names:', b)
if not bad: print('ok: 4 spellings x %d calls per rank, the same records, each at its PHASE line' % len(want[1]))
sys.exit(1 if bad else 0)
PY
