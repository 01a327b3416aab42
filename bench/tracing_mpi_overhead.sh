#!/usr/bin/env bash
# Overhead of libparallax-mpi.so on the MPI example (pxt_example_mpi), measured so that the
# <= 3 % goal at 10 k events/s/rank can be decided: 2 ranks (one per core, not oversubscribed),
# runs of several seconds, the three variants interleaved round by round (untraced, traced
# without call sites (PXT_CALLERS=0), traced with them; the order reversed every other round, so
# a slow drift of the machine's load hits all three alike), hardware counters off
# (PXT_COUNTERS=none) and the merge excluded (PXT_MERGE=0; timed apart at the end).
#
# A calibration run first chooses the work per iteration that gives RATE trace events per second
# per rank with call sites on (the events are the type:value pairs of the merged trace, counted
# per task), and the number of iterations that makes a run last SECONDS. Each run prints, per rank,
# the wall and cpu (user + system) time of its loop (`pxt_example_mpi ITER WORK timing`); the
# event rate is printed from the traces. For each variant: median, min and max of the loop wall
# time, of the ranks' cpu time and of the whole mpirun; the overhead is the median of the
# per-round ratios traced / untraced (rounds are paired: their runs are adjacent in time) with a
# 95 % bootstrap confidence interval; the cost per event is the median per-round difference
# divided by the events of a rank (wall: on the critical path) or of all ranks (cpu).
# Then the cost per MPI call and per event in thread cpu time (parallax_tracing_mpi_call_bench),
# which a loaded machine hardly disturbs, and the share of a core it takes at RATE events/s/rank.
# Usage: bash bench/tracing_mpi_overhead.sh BUILD_DIR [SECONDS] [ROUNDS] [RATE]
set -euo pipefail
BUILD=${1:-build}
SECONDS_PER_RUN=${2:-4}
ROUNDS=${3:-7}
RATE=${4:-10000}
EXAMPLE=$BUILD/bin/pxt_example_mpi
LIB=$BUILD/lib/libparallax-mpi.so
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
MPIRUN=(mpirun --allow-run-as-root -np 2)

# run VARIANT ITER WORK: one run; appends "variant wall loop0 loop1 cpu0 cpu1" to $OUT/runs.
run() {
  local variant=$1 dir="$OUT/$1" env=()
  rm -rf "$dir"
  case $variant in
    plain) ;;
    nocallers) env=(-x LD_PRELOAD="$LIB" -x PXT_OUTPUT_DIR="$dir" -x PXT_MERGE=0 -x PXT_CALLERS=0
                    -x PXT_COUNTERS=none) ;;
    callers) env=(-x LD_PRELOAD="$LIB" -x PXT_OUTPUT_DIR="$dir" -x PXT_MERGE=0
                  -x PXT_COUNTERS=none) ;;
  esac
  local t0 t1
  t0=$(date +%s.%N)
  "${MPIRUN[@]}" "${env[@]}" "$EXAMPLE" "$2" "$3" timing >"$OUT/stdout"
  t1=$(date +%s.%N)
  python3 - "$variant" "$t0" "$t1" "$OUT/stdout" >>"$OUT/runs" <<'PY'
import re, sys
variant, t0, t1, out = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), open(sys.argv[4]).read()
t = {int(r): (float(l), float(c)) for r, l, c in re.findall(r'timing rank (\d) loop (\S+) s cpu (\S+) s', out)}
print(variant, t1 - t0, t[0][0], t[1][0], t[0][1], t[1][1])
PY
}

# events DIR: trace events (type:value pairs) and MPI calls per rank, "e0 e1 c0 c1".
events() {
  "$BUILD/bin/parallax" merge "$1/pxt_example_mpi.pxt.d" -o "$1/m.prv" --force >/dev/null 2>&1
  python3 - "$1/m.prv" <<'PY'
import collections, sys
ev, calls = collections.Counter(), collections.Counter()
for line in open(sys.argv[1]):
    f = line.split(':')
    if f[0] != '2': continue
    pairs = list(zip(f[6::2], f[7::2]))
    ev[f[3]] += len(pairs)
    calls[f[3]] += sum(1 for t, v in pairs if t.startswith('5000000') and v.strip() != '0')
print(ev['1'], ev['2'], calls['1'], calls['2'])
PY
}

# Calibration: events per iteration and loop time per iteration with call sites on.
CAL_ITER=400 CAL_WORK=100000
: >"$OUT/runs"
run callers $CAL_ITER $CAL_WORK
read -r _ _ l0 l1 _ _ < <(tail -1 "$OUT/runs")
read -r e0 e1 _ _ < <(events "$OUT/callers")
read -r WORK ITER < <(python3 - "$l0" "$l1" "$e0" "$e1" "$CAL_ITER" "$CAL_WORK" "$RATE" "$SECONDS_PER_RUN" <<'PY'
import sys
l0, l1, e0, e1, it, work, rate, secs = map(float, sys.argv[1:])
per_iter = max(e0, e1) / it            # events per rank per iteration
t_iter = max(l0, l1) / it              # seconds per iteration
want = per_iter / rate                 # seconds per iteration at the wanted rate
new_work = max(1000, int(work * want / t_iter))   # time is about proportional to the work
print(new_work, max(10, int(secs / want)))
PY
)
echo "calibration: $ITER iterations of work $WORK per run (aiming at $RATE events/s/rank, ${SECONDS_PER_RUN} s)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

: >"$OUT/runs"
for r in $(seq "$ROUNDS"); do
  if [ $((r % 2)) -eq 1 ]; then order="plain nocallers callers"; else order="callers nocallers plain"; fi
  for v in $order; do run "$v" "$ITER" "$WORK"; done
done
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
read -r ce0 ce1 cc0 cc1 < <(events "$OUT/callers")
read -r ne0 ne1 nc0 nc1 < <(events "$OUT/nocallers")
t0=$(date +%s.%N)
"$BUILD/bin/parallax" merge "$OUT/callers/pxt_example_mpi.pxt.d" -o "$OUT/m2.prv" --force >/dev/null 2>&1
t1=$(date +%s.%N)

python3 - "$OUT/runs" "$ITER" "$WORK" "$ce0 $ce1 $cc0 $cc1" "$ne0 $ne1 $nc0 $nc1" \
  "$(python3 -c "print($t1-$t0)")" <<'PY'
import random, statistics as st, sys
runs_path, iters, work = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
counts = {'callers': list(map(int, sys.argv[4].split())), 'nocallers': list(map(int, sys.argv[5].split()))}
merge = float(sys.argv[6])
rows = [l.split() for l in open(runs_path) if l.strip()]
runs = {v: [] for v in ('plain', 'nocallers', 'callers')}
for v, wall, l0, l1, c0, c1 in rows:
    runs[v].append(dict(wall=float(wall), loop=max(float(l0), float(l1)), cpu=float(c0) + float(c1)))
n = len(runs['plain'])
def summary(xs): return '%8.3f  [%.3f .. %.3f]' % (st.median(xs), min(xs), max(xs))
print('MPI example, 2 ranks, %d iterations, work %d, %d rounds interleaved' % (iters, work, n))
print('%-22s %-30s %-30s %s' % ('', 'loop wall s (median [min..max])', 'ranks cpu s (user+sys)', 'mpirun wall s'))
for v in runs:
    print('%-22s %-30s %-30s %s' % (v, summary([r['loop'] for r in runs[v]]), summary([r['cpu'] for r in runs[v]]),
                                     summary([r['wall'] for r in runs[v]])))
for v, (e0, e1, c0, c1) in counts.items():
    loop = st.median(r['loop'] for r in runs[v])
    print('%-22s events per rank %d / %d, %.0f events/s/rank, %.0f MPI calls/s/rank' %
          (v, e0, e1, max(e0, e1) / loop, max(c0, c1) / loop))
rng = random.Random(1)
def ci(ratios):
    boot = sorted(st.median(rng.choice(ratios) for _ in ratios) for _ in range(2000))
    return boot[50], boot[1949]
print('overhead vs untraced (median of per-round ratios, 95 % bootstrap interval):')
for v in ('nocallers', 'callers'):
    e_rank, e_all = max(counts[v][:2]), sum(counts[v][:2])
    c_rank = max(counts[v][2:])
    for what in ('loop', 'cpu', 'wall'):
        ratios = [t[what] / p[what] - 1 for t, p in zip(runs[v], runs['plain'])]
        lo, hi = ci(ratios)
        diff = st.median(t[what] - p[what] for t, p in zip(runs[v], runs['plain']))
        per = e_all if what == 'cpu' else e_rank
        print('  %-10s %-5s %+6.2f %%  [%+6.2f %%, %+6.2f %%]   %+7.0f ns per event, %+7.0f ns per MPI call' %
              (v, what, 100 * st.median(ratios), 100 * lo, 100 * hi, diff / per * 1e9,
               diff / (sum(counts[v][2:]) if what == 'cpu' else c_rank) * 1e9))
print('merge of one traced run (parallax merge, resolves call sites): %.3f s' % merge)
PY

# Per-call cost in thread cpu time (parallax_tracing_mpi_call_bench, 1 rank, calls that never
# wait), the three variants interleaved as above; the events per round come from the difference
# between traces of 2000 and 1000 rounds (so MPI_Init and MPI_Finalize do not count).
CALLS=$BUILD/bin/parallax_tracing_mpi_call_bench
CALL_ITER=200000
call_run() {  # call_run VARIANT ROUNDS DIR: prints the cpu ns per round
  local env=()
  case $1 in
    nocallers) env=(-x LD_PRELOAD="$LIB" -x PXT_OUTPUT_DIR="$3" -x PXT_MERGE=0 -x PXT_CALLERS=0
                    -x PXT_COUNTERS=none) ;;
    callers) env=(-x LD_PRELOAD="$LIB" -x PXT_OUTPUT_DIR="$3" -x PXT_MERGE=0 -x PXT_COUNTERS=none) ;;
  esac
  rm -rf "$3"
  mpirun --allow-run-as-root -np 1 "${env[@]}" "$CALLS" "$2" | awk '/cpu ns per round/ {print $5}'
}
call_pairs() {  # call_pairs VARIANT ROUNDS: event pairs in the merged trace
  call_run "$1" "$2" "$OUT/ce" >/dev/null
  "$BUILD/bin/parallax" merge "$OUT/ce/parallax_tracing_mpi_call_bench.pxt.d" -o "$OUT/ce/m.prv" \
    --force >/dev/null 2>&1
  "$BUILD/bin/parallax" info --json "$OUT/ce/m.prv" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["event_pairs"])'
}
call_events() {  # call_events VARIANT: trace events per round
  echo $((($(call_pairs "$1" 2000) - $(call_pairs "$1" 1000)) / 1000))
}
: >"$OUT/calls"
if [ -x "$CALLS" ]; then
  for r in $(seq "$ROUNDS"); do
    if [ $((r % 2)) -eq 1 ]; then order="plain nocallers callers"; else order="callers nocallers plain"; fi
    for v in $order; do echo "$v $(call_run "$v" "$CALL_ITER" "$OUT/calls.d")" >>"$OUT/calls"; done
  done
  echo "events per round $(call_events nocallers) $(call_events callers)" >>"$OUT/calls"
fi

python3 - "$OUT/calls" "$RATE" <<'PY'
import statistics as st, sys
lines = [l.split() for l in open(sys.argv[1]) if l.strip()]
rate = float(sys.argv[2])
if not lines: sys.exit(0)
ev = {'nocallers': int(lines[-1][3]), 'callers': int(lines[-1][4])}
cpu = {v: [float(x) for w, x in lines[:-1] if w == v] for v in ('plain', 'nocallers', 'callers')}
print('per call, 1 rank, calls that never wait (thread cpu ns per round of 5 MPI calls, median [min..max]):')
for v, xs in cpu.items():
    print('  %-10s %8.1f  [%.1f .. %.1f]' % (v, st.median(xs), min(xs), max(xs)))
for v in ('nocallers', 'callers'):
    d = sorted(t - p for t, p in zip(cpu[v], cpu['plain']))
    per_event = st.median(d) / ev[v]
    print('  %-10s %+.0f ns per MPI call; %d events per round: %.1f ns per event [%.1f .. %.1f]; '
          'at %.0f events/s/rank %.2f %% of a core' %
          (v, st.median(d) / 5, ev[v], per_event, d[0] / ev[v], d[-1] / ev[v], rate,
           per_event * rate / 1e9 * 100))
PY
