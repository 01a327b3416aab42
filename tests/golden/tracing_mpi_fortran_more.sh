#!/usr/bin/env bash
# libparallax-mpi.so on tests/tracing/mpi_fortran_more.c and its Fortran twins (`use mpi` and
# `use mpi_f08`, 4 ranks): neighbourhood, non-blocking, v- and w-collectives, one-sided (fence
# epoch with Put/Get, lock/unlock with Accumulate, lock_all with Fetch_and_op / Compare_and_swap,
# Win_allocate, post/start/complete/wait with Rput/Rget/Get_accumulate), MPI-IO with bytes,
# matched probes, Sendrecv_replace and the communicator constructors. Each Fortran trace must hold the records of the C one: per task, the same MPI
# calls in the same order with the same Extrae values, collective bytes, root and communicator
# members, one-sided bytes and target, I/O bytes; the same messages and communicator lines. The C
# trace itself must show what the program does (counts, bytes, partners), so that a record lost
# on both sides fails too. Skipped when MPI or gfortran is missing.
set -euo pipefail
BIN=$1
source "$(dirname "$0")/lib/mpi_env.bash"
[ -x "$BUILD/bin/pxt_test_mpi_fortran_more" ] || { echo "skipped: no Fortran MPI program (install gfortran)"; exit 0; }

PROGS="pxt_test_mpi_fortran_more_c pxt_test_mpi_fortran_more"
if [ -x "$BUILD/bin/pxt_test_mpi_fortran_more08" ]; then
  PROGS="$PROGS pxt_test_mpi_fortran_more08"
else
  echo "pxt_test_mpi_fortran_more08: not built (Open MPI without the mpi_f08 module)"
fi
for PROG in $PROGS; do
  mpirun --allow-run-as-root --oversubscribe -np 4 -x LD_PRELOAD="$PRELOAD" \
    -x PXT_OUTPUT_DIR="$OUT" "$BUILD/bin/$PROG" "$OUT" >"$OUT/$PROG.stdout" 2>"$OUT/$PROG.stderr" || true
  if ! grep -q "mpi_fortran_more: done" "$OUT/$PROG.stdout" || grep -q "bad data" "$OUT/$PROG.stdout"; then
    echo "tracing_mpi_fortran_more: $PROG output:"; cat "$OUT/$PROG.stdout" "$OUT/$PROG.stderr"; exit 1
  fi
done

PYTHONPATH="$(dirname "$0")/lib" python3 - "$OUT" $PROGS <<'PY'
import collections, sys
from prv_summary import read_prv
out, progs = sys.argv[1], sys.argv[2:]
I, D = 4, 8  # bytes per integer, per double precision
MPI_TYPES = set(range(50000001, 50000006))
EXTRA = {50100001, 50100002, 50100003, 50001000, 50001001, 50001100}
COMM = 50100004

def values(pcf):
    """MPI call name -> Extrae value, from the .pcf's MPI event types."""
    names, in_mpi = {}, False
    for line in open(pcf):
        f = line.split()
        if line.startswith('EVENT_TYPE'):
            in_mpi = False
        elif len(f) >= 3 and f[0] == '0' and f[1].isdigit() and int(f[1]) in MPI_TYPES:
            in_mpi = True
        elif in_mpi and len(f) == 2 and f[0].isdigit():
            names[f[1]] = int(f[0])
    return names

def records(prog):
    """Per task, the MPI events of the trace in order as (type, value) pairs (the communicator as
    its members), whatever the grouping of simultaneous events into .prv lines; the messages, the
    communicator lines and the merge report."""
    prv = read_prv('%s/%s.prv' % (out, prog))
    members = dict(prv['communicators'])
    per_task = collections.defaultdict(list)
    with open('%s/%s.prv' % (out, prog)) as f:
        for line in f:
            fld = line.rstrip('\n').split(':')
            if fld[0] != '2':
                continue
            for t, val in zip(map(int, fld[6::2]), map(int, fld[7::2])):
                if t in MPI_TYPES or t in EXTRA:
                    per_task[int(fld[3])].append((t, val))
                elif t == COMM:
                    per_task[int(fld[3])].append((t, tuple(sorted(members.get(val, [])))))
    comms = sorted((c['send_task'], c['recv_task'], c['size'], c['tag']) for c in prv['comms'])
    lines = sorted(m for _, m in prv['communicators'])
    report = open('%s/%s.stderr' % (out, prog)).read()
    return prv, per_task, comms, lines, report

ref = records(progs[0])
prv, per_task, comms, lines, report = ref
v = values('%s/%s.pcf' % (out, progs[0]))
checks = []

# What the program does, on the C trace (the Fortran ones are compared with it below).
def entries(task, name):
    """A task's entries into `name`: each the dict of its call event and the events after it
    (bytes, root, communicator, ...) up to the next MPI call event."""
    calls = []
    for t, val in per_task[task]:
        if t in MPI_TYPES:
            calls.append({t: val})
        elif calls:
            calls[-1][t] = val
    return [c for c in calls if v[name] in [val for t, val in c.items() if t in MPI_TYPES]]

once = ['MPI_Neighbor_allgather', 'MPI_Neighbor_alltoall', 'MPI_Ineighbor_allgather',
        'MPI_Dist_graph_create_adjacent', 'MPI_Neighbor_allgatherv', 'MPI_Neighbor_alltoallv',
        'MPI_Neighbor_alltoallw', 'MPI_Ineighbor_alltoallw', 'MPI_Iallgather', 'MPI_Ialltoall',
        'MPI_Igather', 'MPI_Iscatter', 'MPI_Iscan', 'MPI_Iexscan', 'MPI_Ireduce_scatter_block',
        'MPI_Reduce_scatter_block', 'MPI_Alltoallw', 'MPI_Ialltoallw', 'MPI_Put',
        'MPI_Get', 'MPI_Win_lock', 'MPI_Accumulate', 'MPI_Win_unlock', 'MPI_Win_lock_all',
        'MPI_Fetch_and_op', 'MPI_Compare_and_swap', 'MPI_Win_flush', 'MPI_Win_unlock_all',
        'MPI_File_open', 'MPI_File_write_at', 'MPI_File_iwrite_at',
        'MPI_File_read_at', 'MPI_File_close', 'MPI_Sendrecv_replace', 'MPI_Mprobe', 'MPI_Mrecv',
        'MPI_Improbe', 'MPI_Imrecv', 'MPI_Comm_split_type', 'MPI_Comm_idup',
        'MPI_Intercomm_create', 'MPI_Intercomm_merge', 'MPI_Graph_create',
        'MPI_Ineighbor_allgatherv', 'MPI_Ineighbor_alltoallv', 'MPI_Ineighbor_alltoall',
        'MPI_Iallgatherv', 'MPI_Ialltoallv', 'MPI_Igatherv', 'MPI_Iscatterv', 'MPI_Ireduce_scatter',
        'MPI_Win_post', 'MPI_Win_start', 'MPI_Rput', 'MPI_Rget', 'MPI_Get_accumulate',
        'MPI_Win_complete', 'MPI_Win_wait', 'MPI_File_write_at_all', 'MPI_File_read_at_all',
        'MPI_File_iread_at', 'MPI_File_write', 'MPI_File_iwrite', 'MPI_File_write_all',
        'MPI_File_read', 'MPI_File_iread', 'MPI_File_read_all', 'MPI_Dist_graph_create']
for t in range(1, 5):
    got = {n: len(entries(t, n)) for n in once}
    more = ['MPI_Win_fence', 'MPI_Win_create', 'MPI_Win_allocate', 'MPI_Win_free', 'MPI_Comm_create_group']
    got.update({n: len(entries(t, n)) for n in more})
    want = dict({n: 1 for n in once}, MPI_Win_fence=3, MPI_Win_create=2, MPI_Win_allocate=2, MPI_Win_free=4,
                MPI_Comm_create_group=1 if t <= 3 else 0)
    checks.append(('task %d calls' % t, got, want))
    r = t - 1
    prev, nxt = (r + 3) % 4, (r + 1) % 4
    coll = lambda n: [(e.get(50100001), e.get(50100002), e.get(COMM)) for e in entries(t, n)]
    world = (1, 2, 3, 4)
    ind, outd = int(r > 0), int(r < 3)
    checks.append(('task %d neighbourhood bytes' % t,
                   [coll(n)[0] for n in ['MPI_Neighbor_allgather', 'MPI_Neighbor_alltoallw', 'MPI_Ineighbor_alltoallw']],
                   [(I, 2 * I, world), (2 * D * outd, 2 * D * ind, world), (2 * D * outd, 2 * D * ind, world)]))
    checks.append(('task %d collective bytes' % t,
                   [coll(n)[0] for n in ['MPI_Ialltoall', 'MPI_Igather', 'MPI_Alltoallw', 'MPI_Reduce_scatter_block',
                                         'MPI_Iallgatherv', 'MPI_Iscatterv', 'MPI_Ireduce_scatter']],
                   [(8 * I, 8 * I, world), (I, 4 * I if r == 0 else 0, world), (4 * I, 4 * I, world),
                    (4 * I, I, world), (I, 4 * I, world), (4 * I if r == 0 else 0, I, world),
                    (4 * I, I, world)]))
    rma = lambda n: [(e.get(50001000), e.get(50001001)) for e in entries(t, n)]
    checks.append(('task %d one-sided bytes and targets' % t,
                   [rma(n)[0] for n in ['MPI_Put', 'MPI_Get', 'MPI_Accumulate', 'MPI_Fetch_and_op',
                                        'MPI_Compare_and_swap', 'MPI_Rput', 'MPI_Rget', 'MPI_Get_accumulate']],
                   [(2 * I, nxt), (I, prev), (I, 0), (I, 0), (I, 0), (2 * I, nxt), (I, prev), (I, nxt)]))
    checks.append(('task %d I/O bytes' % t,
                   [entries(t, n)[0].get(50001100) for n in
                    ['MPI_File_write_at', 'MPI_File_iwrite_at', 'MPI_File_read_at', 'MPI_File_write_at_all',
                     'MPI_File_read_at_all', 'MPI_File_iread_at', 'MPI_File_write', 'MPI_File_iwrite',
                     'MPI_File_write_all', 'MPI_File_read', 'MPI_File_iread', 'MPI_File_read_all']],
                   [4 * I, 2 * I, 4 * I, 4 * I, 4 * I, 2 * I, 2 * I, 2 * I, 2 * I, 2 * I, I, I]))
want_comms = sorted([(t, t % 4 + 1, s, tag) for t in range(1, 5) for s, tag in [(3 * I, 5), (2 * I, 6), (I, 8)]])
checks.append(('messages', comms, want_comms))
checks.append(('report', 'unmatched' in report or 'lost' in report or 'warning' in report, False))

# The Fortran traces: the records of the C one.
for prog in progs[1:]:
    _, f_tasks, f_comms, f_lines, f_report = records(prog)
    for t in range(1, 5):
        a, b = per_task[t], f_tasks[t]
        first = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), None)
        if first is None and len(a) == len(b):
            continue
        i = first if first is not None else min(len(a), len(b))
        checks.append(('%s task %d events (first difference at event %d)' % (prog, t, i),
                       b[i:i + 4], a[i:i + 4]))
    checks.append(('%s messages' % prog, f_comms, comms))
    checks.append(('%s communicator lines' % prog, f_lines, lines))
    checks.append(('%s report' % prog, 'unmatched' in f_report or 'lost' in f_report or 'warning' in f_report, False))

bad = [(n, g, w) for n, g, w in checks if g != w]
for b in bad: print('tracing_mpi_fortran_more: %s:\n  got      %r\n  expected %r' % b)
if not bad:
    print('ok %s: the records of %s (%d MPI events on task 1, %d messages)' %
          (', '.join(progs[1:]), progs[0], len(per_task[1]), len(comms)))
sys.exit(1 if bad else 0)
PY
