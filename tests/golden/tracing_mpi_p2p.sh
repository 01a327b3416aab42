#!/usr/bin/env bash
# libparallax-mpi.so on tests/tracing/mpi_p2p.c (4 ranks): messages completed by every MPI
# completion family in the reverse of their posting order, persistent requests, matched probes,
# Sendrecv, Issend, a split communicator and a cancelled receive. Checks every message's
# partners, size and tag against what the program does, the deterministic call counts, the
# communicator lines, the merge report (nothing unmatched, the cancelled receive reported), and
# BSC's connectivity cfg (number of sends between tasks). Skipped when MPI is not built.
set -euo pipefail
BIN=$1
DATA=$2
source "$(dirname "$0")/lib/mpi_env.bash"
K=4

mpirun --allow-run-as-root --oversubscribe -np 4 -x LD_PRELOAD="$PRELOAD" \
  -x PXT_OUTPUT_DIR="$OUT" "$BUILD/bin/pxt_test_mpi_p2p" >"$OUT/stdout" 2>"$OUT/stderr"
PRV="$OUT/pxt_test_mpi_p2p.prv"
"$BIN" paramedir "$PRV" "$DATA/cfg/bsc/mpi/analysis/connectivity.cfg" "$OUT/connectivity.txt" \
  >"$OUT/paramedir.out" 2>&1 || { echo "tracing_mpi_p2p: paramedir failed"; cat "$OUT/paramedir.out"; exit 1; }
PYTHONPATH="$(dirname "$0")/lib" python3 - "$PRV" "$OUT/stderr" "$OUT" $K <<'PY'
import collections, glob, sys
from prv_summary import read_prv
prv, report, out, K = read_prv(sys.argv[1]), open(sys.argv[2]).read(), sys.argv[3], int(sys.argv[4])
calls, comms = prv['calls'], prv['comms']
PERSISTENT, PHASES = 8, 12
def count(phase, i): return phase * K + i + 1            # ints of message i of phase p
# Expected messages from each task: per tag the multiset of sizes, all to the next task, plus
# one message of 2 ints (tag 100) to the task two away (split communicator pairs 0-2, 1-3).
want = collections.Counter()
for task in range(1, 5):
    for p in range(PHASES):
        for i in range(K):
            want[(task, task % 4 + 1, p, 4 * count(p, i))] += 2 if p == PERSISTENT else 1
    want[(task, (task + 1) % 4 + 1, 100, 8)] += 1
got = collections.Counter((c['send_task'], c['recv_task'], c['tag'], c['size']) for c in comms)
checks = [
    ('messages', len(comms), 4 * (13 * K + 1)),
    ('partners, tags and sizes', sorted((got - want).items()) + sorted((want - got).items()), []),
    ('received before sent', sum(1 for c in comms if c['precv'] < c['psend']), 0),
    ('report: unmatched', 'unmatched' in report, False),
    ('report: warnings', 'warning' in report, False),
    ('report: cancelled receive of each rank',
     sum('lost: rank %d: 1 receive(s) posted by MPI_Irecv cancelled' % r in report for r in range(4)), 4),
    ('communicator lines', sorted(t for _, t in prv['communicators']),
     [[1, 2, 3, 4], [1, 3], [2, 4]]),
]
# Deterministic call counts per rank (Extrae values).
per_rank = {'MPI_Irecv': (4, 9 * K + 2), 'MPI_Isend': (3, 9 * K + 1), 'MPI_Issend': (37, K),
            'MPI_Send_init': (117, K), 'MPI_Recv_init': (116, K), 'MPI_Startall': (124, 1),
            'MPI_Start': (123, 2 * K), 'MPI_Request_free': (115, 2 * K), 'MPI_Wait': (5, K + 2 * K + K // 2 + 1),
            'MPI_Waitall': (6, 14), 'MPI_Waitany': (59, K), 'MPI_Mprobe': (190, K // 2),
            'MPI_Mrecv': (192, K // 2), 'MPI_Imrecv': (193, K // 2), 'MPI_Sendrecv': (41, K),
            'MPI_Cancel': (40, 1), 'MPI_Comm_split': (23, 1), 'MPI_Comm_free': (25, 1)}
for name, (value, n) in per_rank.items():
    checks.append((name + ' calls per rank', [calls[(t, value)] for t in range(1, 5)], [n] * 4))
# Loops until completion: at least one call on every rank.
for name, value in {'MPI_Waitsome': 60, 'MPI_Test': 39, 'MPI_Testall': 125, 'MPI_Testany': 126,
                    'MPI_Testsome': 128, 'MPI_Improbe': 191}.items():
    checks.append((name + ' called by every rank', all(calls[(t, value)] > 0 for t in range(1, 5)), True))
# BSC's connectivity.cfg: number of sends from each task (rows) to each task (columns).
table = open(glob.glob(out + '/connectivity.txt*')[0]).read()
rows = [l.rstrip('\t').split('\t')[1:] for l in table.strip().split('\n')[1:5]]
checks.append(('connectivity.cfg table', [[float(v) for v in r] for r in rows],
               [[float(13 * K if j == i % 4 + 1 else 1 if j == (i + 1) % 4 + 1 else 0)
                 for j in range(1, 5)] for i in range(1, 5)]))
bad = [(n, g, w) for n, g, w in checks if g != w]
for b in bad: print('tracing_mpi_p2p: %s: got %r, expected %r' % b)
if bad: print(report)
else: print('ok MPI completion families: %d messages paired as sent, nothing lost' % len(comms))
sys.exit(1 if bad else 0)
PY
# The same run with the smallest buffer (4 KiB): every buffer flush is in the trace (state 32,
# event 40000003) and still no message is lost or mispaired.
mpirun --allow-run-as-root --oversubscribe -np 4 -x LD_PRELOAD="$PRELOAD" -x PXT_BUFFER_SIZE=4K \
  -x PXT_OUTPUT_DIR="$OUT" -x PXT_OUTPUT_NAME=small "$BUILD/bin/pxt_test_mpi_p2p" >/dev/null 2>"$OUT/small.err"
PYTHONPATH="$(dirname "$0")/lib" python3 - "$OUT/small.prv" "$OUT/small.err" $K <<'PY'
import sys
from prv_summary import read_prv
prv, report, K = read_prv(sys.argv[1]), open(sys.argv[2]).read(), int(sys.argv[3])
flushes = sum(1 for t, e in prv['lines'] if e.get(40000003) == 1)
states = sum(1 for l in open(sys.argv[1]) if l.startswith('1:') and l.rstrip().endswith(':32'))
bad = [m for m, ok in [('messages %d' % len(prv['comms']), len(prv['comms']) == 4 * (13 * K + 1)),
                       ('unmatched or wrongly paired', 'unmatched' not in report and 'warning' not in report),
                       ('flush events %d' % flushes, flushes >= 4), ('flush states %d' % states, states == flushes)]
       if not ok]
for b in bad: print('tracing_mpi_p2p (4 KiB buffers):', b)
if not bad: print('ok 4 KiB buffers: %d flushes shown, all %d messages paired' % (flushes, len(prv['comms'])))
sys.exit(1 if bad else 0)
PY
