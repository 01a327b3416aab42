#!/usr/bin/env bash
# libparallax-mpi.so on tests/tracing/mpi_coll.c (4 ranks): every collective call carries
# Extrae's bytes sent / received, root and communicator events with the values the program
# implies; created communicators are .prv communicator lines with the right members; one-sided
# transfers carry their size and target, MPI-IO reads and writes their bytes. Skipped when MPI
# is not built.
set -euo pipefail
BIN=$1
DATA=$2
source "$(dirname "$0")/lib/mpi_env.bash"

mpirun --allow-run-as-root --oversubscribe -np 4 -x LD_PRELOAD="$PRELOAD" \
  -x PXT_OUTPUT_DIR="$OUT" "$BUILD/bin/pxt_test_mpi_coll" "$OUT" >"$OUT/stdout" 2>"$OUT/stderr"
PRV="$OUT/pxt_test_mpi_coll.prv"
"$BIN" paramedir "$PRV" "$DATA/cfg/bsc/mpi/analysis/mpi_stats.cfg" "$OUT/mpi_stats.txt" \
  >"$OUT/paramedir.out" 2>&1 || { echo "tracing_mpi_coll: paramedir failed"; cat "$OUT/paramedir.out"; exit 1; }
PYTHONPATH="$(dirname "$0")/lib" python3 - "$PRV" "$OUT/stderr" "$OUT" <<'PY'
import sys
from prv_summary import read_prv
prv, report, out = read_prv(sys.argv[1]), open(sys.argv[2]).read(), sys.argv[3]
members = dict(prv['communicators'])
I = 4  # bytes per int

def expected(r):
    """(call value, bytes sent, bytes received, root or None, communicator members) in call
    order, for world rank r; values are Extrae's (195 and 196: ours, Exscan / Iexscan)."""
    world, me, v = [1, 2, 3, 4], r + 1, r + 1
    def rooted(root, to_all, from_all):
        return (to_all if r == root else 0, from_all, root)
    bcast = lambda n, root: (n * I if r == root else 0, 0 if r == root else n * I, root)
    reduce_ = lambda n, root: (0 if r == root else n * I, n * I if r == root else 0, root)  # the root sends 0, as Extrae
    gatherv = (v * I, 10 * I if r == 0 else 0, 0)
    blocking = [(8, 0, 0, None), (7,) + bcast(8, 0), (9,) + reduce_(4, 1), (10, 8, 8, None),
                (13, I, 4 * I if r == 0 else 0, 0), (14,) + gatherv,
                (15, 8 * I if r == 2 else 0, 2 * I, 2), (16, 10 * I if r == 0 else 0, v * I, 0),
                (17, 3 * I, 12 * I, None), (18, v * I, 10 * I, None), (11, 4 * I, 4 * I, None),
                (12, 4 * I, 4 * I, None), (170, 4 * I, 4 * I, None), (80, 10 * I, v * I, None),
                (168, 8 * I, 2 * I, None), (30, I, I, None), (195, I, I, None)]
    nonblocking = [(156, 0, 0, None), (157,) + bcast(8, 0), (155, 8, 8, None), (154,) + reduce_(4, 1),
                   (160, 3 * I, 12 * I, None), (158, 4 * I, 4 * I, None), (163,) + gatherv,
                   (167, I, I, None), (196, I, I, None), (169, 8 * I, 2 * I, None)]
    calls = [c + (world,) for c in blocking + nonblocking]
    calls.append((10, I, I, None, world))                                  # dup
    calls.append((10, I, I, None, [t for t in world if t % 2 == me % 2]))  # split by parity
    if r < 3: calls.append((8, 0, 0, None, [1, 2, 3]))                    # Comm_create
    row = [t for t in world if (t - 1) // 2 == r // 2]                     # Cart_sub: a row
    calls.append((7,) + (I if r % 2 == 0 else 0, 0 if r % 2 == 0 else I, 0) + (row,))
    calls.append((8, 0, 0, None, world))                                   # dist graph
    return calls

checks = []
for r in range(4):
    got = [(e[50000002], e.get(50100001), e.get(50100002), e.get(50100003),
            sorted(members.get(e.get(50100004), [])))
           for t, e in prv['lines'] if t == r + 1 and e.get(50000002)]
    checks.append(('rank %d collectives' % r, got, expected(r)))
    rma = [(e[50000004], e.get(50001000), e.get(50001001))
           for t, e in prv['lines'] if t == r + 1 and e.get(50000004) in (65, 66, 67)]
    checks.append(('rank %d one-sided' % r, rma, [(65, 2 * I, (r + 1) % 4), (66, I, (r + 3) % 4), (67, I, 0)]))
    io = [(e[50000005], e.get(50001100)) for t, e in prv['lines'] if t == r + 1 and e.get(50000005)]
    checks.append(('rank %d MPI-IO' % r, io, [(141, None), (149, 4 * I), (148, 4 * I), (142, None)]))
    fences = prv['calls'][(r + 1, 68)]
    checks.append(('rank %d fences, lock, unlock' % r,
                   (fences, prv['calls'][(r + 1, 74)], prv['calls'][(r + 1, 75)]), (3, 1, 1)))
checks.append(('report warnings', 'warning' in report or 'unmatched' in report or 'lost' in report, False))
# BSC's mpi_stats.cfg: the % of time in each MPI call (columns labelled from the .pcf) per thread.
table = [l.rstrip('\t').split('\t') for l in open(out + '/mpi_stats.txt').read().split('\n')]
columns = table[0][1:]
wanted = ['Outside MPI', 'MPI_Alltoallw', 'MPI_Reduce_scatter', 'MPI_Reduce_scatter_block',
          'MPI_Ireduce_scatter_block', 'MPI_Igatherv', 'MPI_Exscan', 'MPI_Ibarrier', 'MPI_Put',
          'MPI_Get', 'MPI_Accumulate', 'MPI_Win_fence', 'MPI_File_write_at', 'MPI_Cart_sub',
          'MPI_Iexscan', 'MPI_Dist_graph_create_adjacent']
checks.append(('mpi_stats.cfg columns', [w for w in wanted if w not in columns], []))
checks.append(('mpi_stats.cfg rows sum to 100%',
               [abs(sum(float(v) for v in r[1:]) - 100) < 0.5 for r in table[1:5]], [True] * 4))
bad = [(n, g, w) for n, g, w in checks if g != w]
for b in bad: print('tracing_mpi_coll: %s:\n  got      %r\n  expected %r' % b)
if not bad: print('ok MPI collectives, communicators, one-sided and MPI-IO: sizes, roots and members as the program implies')
sys.exit(1 if bad else 0)
PY
