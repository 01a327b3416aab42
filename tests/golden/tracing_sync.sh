#!/usr/bin/env bash
# libparallax-pthread.so records the waits of an uninstrumented program in the Synchronization
# state: every condition-variable and barrier wait (the program prints how many it made), and
# the read/write-lock and semaphore calls that had to wait (the program holds the lock or the
# semaphore 200 ms after the other thread started, three times: at least one of each is
# contended unless that thread is kept off the cpu for 200 ms three times in a row).
set -euo pipefail
BIN=$1
BUILD=$(cd "$(dirname "$BIN")/.." && pwd)
OUT=$(mktemp -d)
ASAN_LIB=$(ldd "$BUILD/bin/pxt_example_sync" | awk '/libasan/ {print $3}')
PRELOAD="${ASAN_LIB:+$ASAN_LIB:}$BUILD/lib/libparallax-pthread.so"
export ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0
trap 'rm -rf "$OUT"' EXIT

out=$(PXT_OUTPUT_DIR=$OUT PXT_VERBOSE=0 LD_PRELOAD="$PRELOAD" "$BUILD/bin/pxt_example_sync")
read -r _ barrier_waits _ cond_waits <<<"$out"
"$BIN" info --json "$OUT/pxt_example_sync.prv" > "$OUT/info.json"
python3 - "$OUT/info.json" "$OUT/pxt_example_sync.prv" "$OUT/pxt_example_sync.pcf" \
  "$barrier_waits" "$cond_waits" <<'PY'
import collections, json, sys
info = json.load(open(sys.argv[1])); pcf = open(sys.argv[3]).read()
barrier_waits, cond_waits = int(sys.argv[4]), int(sys.argv[5])
calls = collections.Counter()
sync_states = 0
for line in open(sys.argv[2]):
    f = line.rstrip('\n').split(':')
    if f[0] == '1' and f[7] == '5':
        sync_states += 1
    if f[0] == '2':
        for t, v in zip(f[6::2], f[7::2]):
            if t == '61000000': calls[int(v)] += 1
errors = [d for d in info['diagnostics'] if d['severity'] == 'error']
waits = sum(calls[v] for v in (3, 4, 5, 6, 7, 8, 9))
checks = [
    (errors, []),
    (calls[6], barrier_waits),          # pthread_barrier_wait, every one
    (calls[4], cond_waits),             # pthread_cond_wait, every one
    (calls[4] >= 1, True),
    (calls[7] >= 1, True),              # pthread_rwlock_rdlock that waited
    (calls[9] >= 1, True),              # sem_wait that waited
    (calls[0], sum(c for v, c in calls.items() if v != 0)),  # every call ends
    (sync_states >= waits, True),       # each wait is a Synchronization state
    (all(l in pcf for l in ('pthread_cond_wait', 'pthread_barrier_wait',
                             'pthread_rwlock_rdlock (wait)', 'sem_wait (wait)')), True),
]
bad = [(i, got, want) for i, (got, want) in enumerate(checks) if got != want]
for b in bad: print('tracing_sync: check %d: got %r, expected %r' % b)
if not bad:
    print('ok pthread waits: %d barrier, %d cond, %d rwlock, %d sem' %
          (calls[6], calls[4], calls[7] + calls[8], calls[9]))
sys.exit(1 if bad else 0)
PY
