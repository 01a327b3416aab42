#!/usr/bin/env bash
# The standard views (views/, docs/views.md) on real traces: every view draws on the traces it is
# for; the histogram views agree with independent answers: mpi-profile with BSC's own
# mpi_stats.cfg (checked against the real paramedir), state-profile and mpi-call-count with a
# reading of the .prv text in Python, openmp-profile's rows add up to the whole; pthread-waits
# shows the waits of a program traced by Parallax's own tracer. Unknown names fail with a hint.
set -euo pipefail
BIN=$(realpath "$1")
DATA=$(realpath "$2")
BUILD=$(cd "$(dirname "$BIN")/.." && pwd)
EPOCH=$DATA/epoch/epoch_4proc.prv.gz
OMP=$DATA/omp/omp2.prv.gz
[ -f "$EPOCH" ] && [ -f "$OMP" ] || { echo "skipped: no epoch or omp2 trace"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
check() { if eval "$2"; then echo "ok $1"; else echo "FAIL $1"; fail=1; fi; }

"$BIN" views > "$T/list.txt"
"$BIN" views --json > "$T/list.json"
names=$(python3 -c 'import json,sys; print(" ".join(v["name"] for v in json.load(open(sys.argv[1]))))' "$T/list.json")
check "parallax views lists at least 12 views, each described" \
  "[ \$(echo $names | wc -w) -ge 12 ] && grep -q '^mpi-profile  *histogram  needs MPI' '$T/list.txt'"

# Every view draws on a trace it is for (OpenMP views on omp2, the others on epoch_4proc).
for v in $names; do
  case $v in openmp-*) trace=$OMP ;; *) trace=$EPOCH ;; esac
  [ "$v" = pthread-waits ] && continue  # below, on a trace of Parallax's tracer
  check "view $v draws" "'$BIN' timeline '$trace' --view $v -o '$T/$v.png' > /dev/null && head -c 4 '$T/$v.png' | grep -q PNG"
done

# mpi-profile: the same table as BSC's mpi_stats.cfg (% Time of each MPI call per thread).
"$BIN" analyze "$EPOCH" --view mpi-profile > "$T/mpi-profile.tsv"
"$BIN" analyze "$EPOCH" --cfg "$DATA/cfg/bsc/mpi/analysis/mpi_stats.cfg" > "$T/mpi_stats.tsv"
check "mpi-profile equals BSC's mpi_stats.cfg" "cmp -s '$T/mpi-profile.tsv' '$T/mpi_stats.tsv'"

# state-profile and mpi-call-count against the .prv text.
"$BIN" analyze "$EPOCH" --view state-profile --precision 4 > "$T/state-profile.tsv"
"$BIN" analyze "$EPOCH" --view mpi-call-count --precision 0 > "$T/mpi-call-count.tsv"
check "state-profile's Running and mpi-call-count's MPI_Sendrecv are the .prv's" "python3 - '$EPOCH' '$T' <<'PY'
import gzip, re, sys
trace, out = sys.argv[1], sys.argv[2]
running, sendrecv, end = {}, {}, None
with gzip.open(trace, 'rt') as f:
    for line in f:
        if line.startswith('#'):
            end = int(re.search(r'\):(\d+)', line).group(1)) if end is None else end
            continue
        p = line.rstrip('\n').split(':')
        if p[0] == '1' and p[7] == '1':
            running[p[3]] = running.get(p[3], 0) + int(p[6]) - int(p[5])
        elif p[0] == '2':
            for i in range(6, len(p), 2):
                if p[i] == '50000001' and p[i + 1] == '41':
                    sendrecv[p[3]] = sendrecv.get(p[3], 0) + 1
def table(name):
    rows = [l.rstrip('\n').split('\t') for l in open(out + '/' + name)]
    head = rows[0]
    return {r[0]: dict(zip(head[1:], r[1:])) for r in rows[1:] if r[0].startswith('THREAD')}
states, calls = table('state-profile.tsv'), table('mpi-call-count.tsv')
ok = len(states) == 4
for task in '1234':
    want = 100.0 * running[task] / end
    got = float(states['THREAD 1.%s.1' % task]['Running'])
    ok = ok and abs(got - want) < 5e-5
    ok = ok and int(calls['THREAD 1.%s.1' % task]['MPI_Sendrecv']) == sendrecv[task]
sys.exit(0 if ok and sum(sendrecv.values()) > 0 else 1)
PY"

# openmp-profile: each thread's shares of the parallel functions add up to 100 %.
"$BIN" analyze "$OMP" --view openmp-profile > "$T/openmp-profile.tsv"
check "openmp-profile rows add up to 100 %" "python3 -c '
import sys
rows = [l.rstrip(\"\\n\").split(\"\\t\") for l in open(sys.argv[1])]
threads = [r for r in rows if r[0].startswith(\"THREAD\")]
sys.exit(0 if threads and all(abs(sum(map(float, r[1:])) - 100) < 0.05 for r in threads) and \"GetPixelBlue\" in rows[0] else 1)' '$T/openmp-profile.tsv'"

# pthread-waits on a program traced by Parallax's tracer (its pthread wrappers).
LIB=$BUILD/lib/libparallax-pthread.so
PROG=$BUILD/bin/pxt_example_sync
if [ -f "$LIB" ] && [ -x "$PROG" ]; then
  ASAN_LIB=$(ldd "$PROG" 2>/dev/null | awk '/libasan/ {print $3}')
  ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0 PXT_COUNTERS=none PXT_VERBOSE=0 PXT_OUTPUT_DIR="$T" PXT_OUTPUT_NAME=sync \
    LD_PRELOAD="${ASAN_LIB:+$ASAN_LIB:}$LIB" "$PROG" > /dev/null
  "$BIN" views pthread-waits > "$T/pthread.cfg"
  waits() {  # the barrier waits (value 6) the window shows on the program's threads
    for t in 1 2 3 4; do "$BIN" text "$T/sync.prv" --cfg "$T/pthread.cfg" --object "THREAD 1.1.$t" --json; done |
      grep -c '"value": 6,' || true
  }
  check "pthread-waits draws the waits of a traced program" \
    "'$BIN' timeline '$T/sync.prv' --view pthread-waits -o '$T/pthread.json' > /dev/null && [ \$(waits) -gt 0 ]"
else
  echo "skipped pthread-waits: no $LIB or $PROG"
fi

# Mistakes.
check "an unknown view fails with the closest names" \
  "! '$BIN' analyze '$EPOCH' --view mpi-profil 2> '$T/err.txt' && grep -q 'the closest: mpi-profile' '$T/err.txt'"
check "analyze needs a cfg or a view" "! '$BIN' analyze '$EPOCH' 2> '$T/err2.txt' && grep -q 'standard view (--view NAME)' '$T/err2.txt'"
exit $fail
