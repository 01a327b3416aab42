#!/usr/bin/env bash
# libparallax-omp.so traces an uninstrumented OpenMP program through OMPT (LLVM's libomp):
# parallel regions, worksharing loops, barriers, critical sections and tasks appear with
# Extrae's OpenMP event types, so BSC's OpenMP cfgs of tests/data show them. The same program
# built with GCC (libgomp, no OMPT) gets no OpenMP events and a notice says why.
# Skipped when the OMPT tool or the clang-built example was not built.
set -euo pipefail
BIN=$1
DATA=$(realpath "$2")
BUILD=$(cd "$(dirname "$BIN")/.." && pwd)
LIB=$BUILD/lib/libparallax-omp.so
EXAMPLE=$BUILD/bin/pxt_example_omp
if [ ! -f "$LIB" ] || [ ! -x "$EXAMPLE" ]; then
  echo "skipped: libparallax-omp.so or pxt_example_omp missing (install clang libomp-dev)"; exit 0
fi
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
ASAN_LIB=$(ldd "$BUILD/bin/pxt_example_threads" | awk '/libasan/ {print $3}')
PRELOAD="${ASAN_LIB:+$ASAN_LIB:}$LIB"
export ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0
R=3
out=$(OMP_NUM_THREADS=2 PXT_COUNTERS=none PXT_VERBOSE=0 PXT_OUTPUT_DIR=$OUT LD_PRELOAD="$PRELOAD" "$EXAMPLE" $R)
case "$out" in "regions 3 threads 2 tasks 12 "*) ;; *) echo "tracing_omp: program output: $out"; exit 1 ;; esac
python3 - "$OUT/pxt_example_omp.prv" "$OUT/pxt_example_omp.pcf" $R \
  "$(dirname "$0")/../../tracing/examples/omp_example.c" <<'PY'
import collections, re, sys
prv, pcf, R = sys.argv[1], open(sys.argv[2]).read(), int(sys.argv[3])
# Source lines of the constructs (clang's line tables: no .debug_aranges, libdw must still
# find them).
pragma = {}
for n, text in enumerate(open(sys.argv[4]), 1):
    m = re.match(r'#pragma omp (\w+)', text.strip())
    if m: pragma.setdefault(m.group(1), n)
def labels(t):
    m = re.search(r'\n0\s+%d\s+[^\n]*\nVALUES\n(.*?)\n\n' % t, pcf, re.S)
    return {v: l.split(None, 1)[1].strip() for v, l in ((l.split()[0], l) for l in m.group(1).splitlines())} if m else {}
line_labels = {t: labels(t) for t in (60000118, 60000123, 60000124)}
used = collections.defaultdict(set)  # line type -> labels of its non-zero values in the trace
T = 2
ev = collections.Counter(); per_thread = collections.Counter(); idle = 0; sync = 0
last = {}; opened = 0  # regions: 60000001 going from closed (0 or none) to 3 on a thread
for line in open(prv):
    f = line.rstrip('\n').split(':')
    if f[0] == '1':
        if f[7] == '0': idle += 1
        if f[7] == '5': sync += 1
    if f[0] != '2': continue
    for t, v in zip(f[6::2], f[7::2]):
        ev[(t, v)] += 1
        if int(t) in line_labels and v != '0': used[int(t)].add(line_labels[int(t)].get(v))
        if t == '60000001':
            if v == '3' and last.get(f[4], '0') == '0': opened += 1
            last[f[4]] = v
        if v != '0': per_thread[(t, f[4])] += 1
def nonzero(t): return sum(c for (tt, v), c in ev.items() if tt == t and v != '0')
m = re.search(r'\n0\s+60000018\s+[^\n]*\nVALUES\n(.*?)\n\n', pcf, re.S)
functions = set(l.split(None, 1)[1].strip() for l in m.group(1).splitlines()) if m else set()
checks = [
    ('regions opened', opened, R),
    ('loops (DO) per thread', ev[('60000001', '1')], R * T),
    ('parallel function on every thread of every region', nonzero('60000018'), R * T),
    # The outlined body, from __kmpc_fork_call (clang names it .omp_outlined..N), not main.
    ('parallel function is the outlined body', any('omp_outlined' in f for f in functions) and 'main' not in functions, True),
    ('parallel function line (60000118)', used[60000118],
     {'%d (omp_example.c, pxt_example_omp)' % pragma['parallel']}),
    ('task function lines (60000123, 60000124)', (used[60000123], used[60000124]),
     ({'%d (omp_example.c, pxt_example_omp)' % pragma['task']},) * 2),
    ('critical sections held', ev[('60000006', '6')], R * T),
    ('tasks instantiated', nonzero('60000024'), 4 * R),
    ('tasks executed', nonzero('60000023'), 4 * R),
    ('barrier waits (explicit at least)', nonzero('60000005') >= R * T, True),
    ('worker idle outside regions', idle >= 1, True),
    ('barrier and lock waits are Synchronization', sync >= R * T, True),
    ('labels', all(s in pcf for s in ('Parallel (OMP)', 'OpenMP barrier', 'Executed OpenMP task function')), True),
]
bad = [(n, got, want) for n, got, want in checks if got != want]
for b in bad: print('tracing_omp: %s: got %r, expected %r' % b)
if not bad: print('ok OpenMP trace: %d regions, %d tasks' % (opened, nonzero('60000023')))
sys.exit(1 if bad else 0)
PY
# BSC's OpenMP cfgs work on it: the parallel functions view names the outlined body on a worker.
"$BIN" text "$OUT/pxt_example_omp.prv" --cfg "$DATA/cfg/bsc/OpenMP/views/parallel_functions.cfg" \
  --object 1.1.2 > "$OUT/text.txt"
grep -q "omp_outlined" "$OUT/text.txt" || { echo "tracing_omp: parallel_functions.cfg:"; head "$OUT/text.txt"; exit 1; }
"$BIN" timeline "$OUT/pxt_example_omp.prv" --cfg "$DATA/cfg/bsc/OpenMP/views/states_only_openmp.cfg" \
  -o "$OUT/states.png" >/dev/null
echo "ok BSC OpenMP cfgs"

# GCC's libgomp: no OMPT, a notice, still a trace.
if command -v gcc >/dev/null; then
  gcc -fopenmp -O1 "$(dirname "$0")/../../tracing/examples/omp_example.c" -o "$OUT/gomp_example"
  OMP_NUM_THREADS=2 PXT_COUNTERS=none PXT_OUTPUT_DIR=$OUT/g LD_PRELOAD="$PRELOAD" "$OUT/gomp_example" 1 \
    >/dev/null 2>"$OUT/gomp.err"
  grep -q "uses GCC's libgomp, which has no OMPT" "$OUT/gomp.err" || { echo "tracing_omp: no libgomp notice"; cat "$OUT/gomp.err"; exit 1; }
  # Nothing else records in this program: there may be no trace at all, never OpenMP events.
  if [ -f "$OUT/g/gomp_example.prv" ] && grep -qE '^2(:[^:]*){5}(:[^:]*:[^:]*)*:60000001:' "$OUT/g/gomp_example.prv"; then
    echo "tracing_omp: libgomp trace has OpenMP events"; exit 1
  fi
  echo "ok libgomp: a notice, no OpenMP events"
fi
