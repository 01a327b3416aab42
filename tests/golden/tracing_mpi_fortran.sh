#!/usr/bin/env bash
# libparallax-mpi.so on a Fortran MPI program (tests/tracing/mpi_fortran.f90, `use mpi`, 4
# ranks) and on the same program with the Fortran 2008 bindings (mpi_fortran08.f90,
# `use mpi_f08`): Open MPI's Fortran libraries call PMPI_ directly, so only the library's Fortran
# wrappers can see these calls. Each trace must hold what the program does, as for C: every
# message with its partner, size and tag, the calls with Extrae's values, the collective bytes
# and the Cartesian and split communicators. Skipped when MPI or gfortran is missing.
set -euo pipefail
BIN=$1
source "$(dirname "$0")/lib/mpi_env.bash"
[ -x "$BUILD/bin/pxt_test_mpi_fortran" ] || { echo "skipped: no Fortran MPI program (install gfortran)"; exit 0; }

for PROG in pxt_test_mpi_fortran pxt_test_mpi_fortran08; do
[ -x "$BUILD/bin/$PROG" ] || { echo "$PROG: not built (Open MPI without the mpi_f08 module)"; continue; }
mpirun --allow-run-as-root --oversubscribe -np 4 -x LD_PRELOAD="$PRELOAD" \
  -x PXT_OUTPUT_DIR="$OUT" "$BUILD/bin/$PROG" >"$OUT/stdout" 2>"$OUT/stderr"
if ! grep -q "sum of ranks 6" "$OUT/stdout" || grep -q "bad data" "$OUT/stdout"; then
  echo "tracing_mpi_fortran: $PROG output:"; cat "$OUT/stdout"; exit 1
fi
PYTHONPATH="$(dirname "$0")/lib" python3 - "$OUT/$PROG.prv" "$OUT/stderr" "$PROG" <<'PY'
import collections, sys
from prv_summary import read_prv
prv, report = read_prv(sys.argv[1]), open(sys.argv[2]).read()
calls = prv['calls']
got = collections.Counter((c['send_task'], c['recv_task'], c['tag'], c['size']) for c in prv['comms'])
want = collections.Counter()
for t in range(1, 5):
    for i in range(1, 5): want[(t, t % 4 + 1, 1, 4 * i)] += 1   # Isend of i integers
    want[(t, t % 4 + 1, 2, 12)] += 1                            # Send of 3 integers
members = dict(prv['communicators'])
checks = [('messages', sorted(got.items()), sorted(want.items())),
          ('report', 'unmatched' in report or 'lost' in report or 'warning' in report, False)]
for name, value, n in [('MPI_Init', 31, 1), ('MPI_Finalize', 32, 1), ('MPI_Irecv', 4, 4),
                       ('MPI_Isend', 3, 4), ('MPI_Waitall', 6, 1), ('MPI_Send', 1, 1),
                       ('MPI_Recv', 2, 1), ('MPI_Allreduce', 10, 1), ('MPI_Bcast', 7, 1),
                       ('MPI_Barrier', 8, 2), ('MPI_Comm_split', 23, 1), ('MPI_Comm_free', 25, 3),
                       ('MPI_Iallreduce', 155, 1), ('MPI_Wait', 5, 1), ('MPI_Gatherv', 14, 1),
                       ('MPI_Cart_create', 43, 1), ('MPI_Cart_sub', 49, 1)]:
    checks.append((name + ' calls per rank', [calls[(t, value)] for t in range(1, 5)], [n] * 4))
checks.append(('MPI_Waitsome on every rank', all(calls[(t, 60)] > 0 for t in range(1, 5)), True))
for t in range(1, 5):
    coll = [(e[50000002], e.get(50100001), e.get(50100002), sorted(members.get(e.get(50100004), [])))
            for task, e in prv['lines'] if task == t and e.get(50000002)]
    checks.append(('task %d collectives' % t, coll,
                   [(10, 4, 4, [1, 2, 3, 4]), (7, 4 if t == 1 else 0, 0 if t == 1 else 4, [1, 2, 3, 4]),
                    (155, 4, 4, [1, 2, 3, 4]), (14, 4 * t, 40 if t == 1 else 0, [1, 2, 3, 4]),
                    (8, 0, 0, [1, 2] if t <= 2 else [3, 4]),
                    (8, 0, 0, [u for u in range(1, 5) if u % 2 == t % 2])]))
bad = [(n, g, w) for n, g, w in checks if g != w]
for b in bad: print('tracing_mpi_fortran: %s: %s: got %r, expected %r' % ((sys.argv[3],) + b))
if not bad: print('ok %s: %d messages, calls and collectives as in C' % (sys.argv[3], len(prv['comms'])))
sys.exit(1 if bad else 0)
PY
done
