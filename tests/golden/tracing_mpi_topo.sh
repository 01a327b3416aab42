#!/usr/bin/env bash
# libparallax-mpi.so on tests/tracing/mpi_topo.c (4 ranks): neighbourhood collectives carry
# Extrae's values (174-183) and the bytes each rank sends to its out-neighbours and receives from
# its in-neighbours; inter-communicator messages connect the right tasks (partners are ranks of
# the remote group), its collectives count bytes as MPI_ROOT / MPI_PROC_NULL / the remote group's
# size imply (Reduce_scatter and its block and I- forms: the local group's vector sent, this
# process's block of the other group's result received), its communicator line covers both
# groups, and the merged intra-communicator translates ranks in its own order. Skipped when MPI
# is not built.
set -euo pipefail
BIN=$1
DATA=$2
source "$(dirname "$0")/lib/mpi_env.bash"

mpirun --allow-run-as-root --oversubscribe -np 4 -x LD_PRELOAD="$PRELOAD" \
  -x PXT_OUTPUT_DIR="$OUT" "$BUILD/bin/pxt_test_mpi_topo" >"$OUT/stdout" 2>"$OUT/stderr"
if grep -q "bad data" "$OUT/stdout"; then echo "tracing_mpi_topo: output:"; cat "$OUT/stdout"; exit 1; fi
PRV="$OUT/pxt_test_mpi_topo.prv"
"$BIN" paramedir "$PRV" "$DATA/cfg/bsc/mpi/analysis/mpi_stats.cfg" "$OUT/mpi_stats.txt" \
  >"$OUT/paramedir.out" 2>&1 || { echo "tracing_mpi_topo: paramedir failed"; cat "$OUT/paramedir.out"; exit 1; }
PYTHONPATH="$(dirname "$0")/lib" python3 - "$PRV" "$OUT/stderr" "$OUT" <<'PY'
import sys
from prv_summary import read_prv
prv, report, out = read_prv(sys.argv[1]), open(sys.argv[2]).read(), sys.argv[3]
members = dict(prv['communicators'])
I, D = 4, 8  # bytes per int, per double
world, evens, odds = [1, 2, 3, 4], [1, 3], [2, 4]

def expected(r):
    """(call value, bytes sent, bytes received, root or None, sorted members) in call order."""
    ind, outd = int(r > 0), int(r < 3)  # the chain 0 -> 1 -> 2 -> 3
    ring = [(174, I, 2 * I), (178, 2 * I, 2 * I), (175, 2 * I, 4 * I), (179, 4 * I, 4 * I)]
    chain = [(176, 3 * I, 3 * I * ind), (180, 3 * I * outd, 3 * I * ind),
             (182, 2 * D * outd, 2 * D * ind), (177, 3 * I, 3 * I * ind),
             (181, 3 * I * outd, 3 * I * ind), (183, 2 * D * outd, 2 * D * ind)]
    calls = [c + (None, world) for c in ring + chain]
    # Inter-communicator: world rank 0 is the root (MPI_ROOT), 2 passes MPI_PROC_NULL, the odd
    # ranks pass root 0 (a rank of the remote group); the other group has 2 processes.
    bcast = (6 * I, 0, None) if r == 0 else (0, 0, None) if r == 2 else (0, 6 * I, 0)
    gather = (0, 2 * 2 * I, None) if r == 0 else (0, 0, None) if r == 2 else (2 * I, 0, 0)
    # Reduce_scatter(_block) and their I- forms: each process sends its local group's vector of
    # 4 integers and receives its block of the other group's sum (recvcounts {1, 3} in the
    # evens' group, {2, 2} in the odds'; blocks of 2), as MPI defines them on an
    # inter-communicator.
    block = {0: 1, 2: 3}.get(r, 2) * I
    scatter = [(80, 4 * I, block, None, world), (166, 4 * I, block, None, world),
               (168, 4 * I, 2 * I, None, world), (169, 4 * I, 2 * I, None, world)]
    calls += [(8, 0, 0, None, world), (7,) + bcast + (world,), (10, 3 * I, 3 * I, None, world),
              (13,) + gather + (world,), (17, I, 2 * I, None, world)] + scatter + [
              (10, I, I, None, world)]
    return calls

checks = []
for r in range(4):
    got = [(e[50000002], e.get(50100001), e.get(50100002), e.get(50100003),
            sorted(members.get(e.get(50100004), [])))
           for t, e in prv['lines'] if t == r + 1 and e.get(50000002)]
    checks.append(('rank %d collectives' % r, got, expected(r)))
    checks.append(('rank %d Intercomm_create, Intercomm_merge' % r,
                   (prv['calls'][(r + 1, 96)], prv['calls'][(r + 1, 97)]), (1, 1)))
# Communications: (sender, receiver, bytes, tag), tasks numbered from 1.
comms = sorted((c['send_task'], c['recv_task'], c['size'], c['tag']) for c in prv['comms'])
checks.append(('communications', comms,
               sorted([(1, 2, 5 * I, 3), (3, 4, 5 * I, 3), (2, 3, 2 * I, 4), (4, 1, 2 * I, 4),
                       (3, 2, 7 * I, 9)])))
# Communicator lines as listed: MPI_COMM_WORLD, the ring and the chain (world's members, one
# key), the halves, the inter-communicator (the group holding task 1 first, then the other) and
# the merged communicator (its rank order: evens first).
lines = sorted(m for _, m in prv['communicators'])
checks.append(('communicator lines', lines,
               sorted([world, world, evens, odds, evens + odds, [1, 3, 2, 4]])))
# The inter-communicator and the merged one share members but not a key (two lines).
checks.append(('inter and merged keys differ',
               len([k for k, m in prv['communicators'] if m == [1, 3, 2, 4]]), 2))
checks.append(('report warnings', 'warning' in report or 'unmatched' in report or 'lost' in report, False))
table = [l.rstrip('\t').split('\t') for l in open(out + '/mpi_stats.txt').read().split('\n')]
wanted = ['MPI_Neighbor_allgather', 'MPI_Ineighbor_allgather', 'MPI_Neighbor_allgatherv',
          'MPI_Ineighbor_allgatherv', 'MPI_Neighbor_alltoall', 'MPI_Ineighbor_alltoall',
          'MPI_Neighbor_alltoallv', 'MPI_Ineighbor_alltoallv', 'MPI_Neighbor_alltoallw',
          'MPI_Ineighbor_alltoallw']
checks.append(('mpi_stats.cfg columns', [w for w in wanted if w not in table[0][1:]], []))
bad = [(n, g, w) for n, g, w in checks if g != w]
for b in bad: print('tracing_mpi_topo: %s:\n  got      %r\n  expected %r' % b)
if not bad: print('ok neighbourhood collectives and inter-communicators: values, sizes, partners and members as the program implies')
sys.exit(1 if bad else 0)
PY
