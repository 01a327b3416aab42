#!/usr/bin/env bash
# A trace from every run that dies (tracing/README.md, "When a run dies"): tests/tracing/crash.c
# ended by SIGTERM, a segfault, abort() and SIGKILL, and tests/tracing/mpi_crash.c with one rank
# segfaulting, one calling MPI_Abort, and the whole job sent SIGTERM: `parallax merge` of the
# folder each leaves gives a trace that loads without errors, whose records are a prefix of a
# clean run's (the step events 1, 2, ... k of every thread), every thread of a process that
# died ends with event 40000099 saying how (the signal, 1000 for MPI_Abort, 0 for SIGKILL), and
# the merge report says it; a child of fork() leaves no file and does not disturb its parent's;
# the merge writes gzip for NAME.prv.gz.
set -euo pipefail
BIN=$1
BUILD=$(cd "$(dirname "$BIN")/.." && pwd)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
fail=0
# Sanitizer builds: AddressSanitizer keeps SIGSEGV to itself unless told to let a program's
# handler in (tracing/README.md); its leak check would report the launcher's allocations.
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:allow_user_segv_handler=1:detect_leaks=0"
check() { if eval "$2"; then echo "ok $1"; else echo "FAIL $1"; fail=1; fi; }

# "task.thread:type -> [values]" of the chosen event types, from the .prv text.
cat > "$OUT/events.py" <<'PY'
import collections, json, sys
prv, types = sys.argv[1], {int(t) for t in sys.argv[2].split(',')}
seen = collections.defaultdict(list)
for line in open(prv):
    f = line.rstrip('\n').split(':')
    if f[0] != '2':
        continue
    for i in range(6, len(f) - 1, 2):
        if int(f[i]) in types:
            seen['%s.%s:%s' % (f[3], f[4], f[i])].append(int(f[i + 1]))
print(json.dumps(seen, sort_keys=True))
PY
events() { python3 "$OUT/events.py" "$1" "$2"; }
prefix() {  # JSON of events, type, min count: every thread's values of that type are 1..k, k >= min
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); t=sys.argv[2]; m=int(sys.argv[3]); v=[x for k,x in d.items() if k.endswith(":"+t)]; sys.exit(0 if v and all(x == list(range(1, len(x) + 1)) and len(x) >= m for x in v) else 1)' "$@"
}
ends() {  # JSON, expected "task:value" list for event 40000099 (one per thread)
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); got=sorted("%s:%s" % (k.split(".")[0], v) for k, x in d.items() if k.endswith(":40000099") for v in x); print(" ".join(got))' "$1"
}
loads() { "$BIN" info --json "$1" | python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(0 if not [x for x in d["diagnostics"] if x["severity"] == "error"] else 1)'; }

run_seq() {  # mode
  mkdir -p "$OUT/$1"
  set +e
  PXT_OUTPUT_DIR="$OUT/$1" PXT_BUFFER_SIZE=4096 PXT_VERBOSE=0 "$BUILD/bin/pxt_test_crash" "$1" 300 > /dev/null 2>&1
  set -e
}
run_seq clean
events "$OUT/clean/pxt_test_crash.prv" 1000,1001,40000099 > "$OUT/clean.json"
check "a clean run: 300 steps on each thread, no end mark" \
  "prefix '$OUT/clean.json' 1000 300 && prefix '$OUT/clean.json' 1001 300 && [ -z \"\$(ends '$OUT/clean.json')\" ]"
for spec in term:15:300 segv:11:300 abort:6:300 kill9:0:1; do
  IFS=: read -r mode code least <<< "$spec"
  run_seq "$mode"
  "$BIN" merge "$OUT/$mode/pxt_test_crash.pxt.d" -o "$OUT/$mode/m.prv" > "$OUT/$mode/merge.txt" 2>&1 || true
  events "$OUT/$mode/m.prv" 1000,1001,40000099 > "$OUT/$mode.json" 2>/dev/null || echo '{}' > "$OUT/$mode.json"
  check "$mode: the merged trace loads, both threads' steps are a prefix (>= $least), each ends with $code" \
    "loads '$OUT/$mode/m.prv' && prefix '$OUT/$mode.json' 1000 $least && prefix '$OUT/$mode.json' 1001 $least && [ \"\$(ends '$OUT/$mode.json')\" = '1:$code 1:$code' ] && grep -q 'ended abnormally: pid ' '$OUT/$mode/merge.txt'"
done
run_seq fork
events "$OUT/fork/pxt_test_crash.prv" 1000,1001,40000099 > "$OUT/fork.json"
check "fork() without exec: one process file, the parent's 300 steps, nothing of the child's" \
  "[ \$(ls '$OUT/fork/pxt_test_crash.pxt.d' | wc -l) = 1 ] && prefix '$OUT/fork.json' 1000 300 && [ -z \"\$(ends '$OUT/fork.json')\" ]"

# A traced shell that records nothing, killed: no file, as at a normal end.
SEQ_ASAN=$(ldd "$BUILD/bin/pxt_test_crash" | awk '/libasan/ {print $3}')
mkdir -p "$OUT/shell"
PXT_OUTPUT_DIR="$OUT/shell" ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0 \
  LD_PRELOAD="${SEQ_ASAN:+$SEQ_ASAN:}$BUILD/lib/libparallax-pthread.so" bash -c 'kill -TERM $$' > /dev/null 2>&1 || true
check "a traced shell that recorded nothing and is killed leaves no file" "[ -z \"\$(find '$OUT/shell' -name '*.pxt')\" ]"

# `merge -o NAME.prv.gz`: gzip, with NAME.pcf and NAME.row beside it, the same records.
"$BIN" merge "$OUT/term/pxt_test_crash.pxt.d" -o "$OUT/term/z.prv.gz" > /dev/null 2>&1
check "merge -o NAME.prv.gz writes gzip and NAME.pcf, NAME.row; the same records as the .prv" \
  "head -c 2 '$OUT/term/z.prv.gz' | od -An -tx1 | grep -q '1f 8b' && [ -f '$OUT/term/z.pcf' ] && [ -f '$OUT/term/z.row' ] && cmp -s <(zcat '$OUT/term/z.prv.gz' | tail -n +2) <(tail -n +2 '$OUT/term/m.prv')"

# MPI jobs (skipped without MPI).
if [ ! -f "$BUILD/lib/libparallax-mpi.so" ] || ! command -v mpirun > /dev/null || [ ! -x "$BUILD/bin/pxt_test_mpi_crash" ]; then
  echo "skipped: the MPI part (libparallax-mpi.so, mpirun or pxt_test_mpi_crash missing)"; exit $fail
fi
ASAN_LIB=$(ldd "$BUILD/bin/pxt_test_mpi_crash" | awk '/libasan/ {print $3}')
PRELOAD="${ASAN_LIB:+$ASAN_LIB:}$BUILD/lib/libparallax-mpi.so"
mpi() {  # folder, mode, steps, stop
  set +e
  mpirun --allow-run-as-root --oversubscribe --mca orte_tmpdir_base "$OUT" -np 4 -x LD_PRELOAD="$PRELOAD" \
    -x PXT_OUTPUT_DIR="$OUT/$1" -x PXT_BUFFER_SIZE=4096 -x PXT_VERBOSE=0 -x ASAN_OPTIONS \
    "$BUILD/bin/pxt_test_mpi_crash" "$2" "$3" "$4" > "$OUT/$1.out" 2>&1
  set -e
  "$BIN" merge "$OUT/$1/pxt_test_mpi_crash.pxt.d" -o "$OUT/$1/m.prv" > "$OUT/$1/merge.txt" 2>&1 || true
  events "$OUT/$1/m.prv" 1000,40000099 > "$OUT/$1.json" 2>/dev/null || echo '{}' > "$OUT/$1.json"
}
# The other ranks are ended by the launcher: SIGTERM (15), then SIGKILL (0) if it comes before
# the flush. A rank that said how it ended has every step it made (>= LEAST); one killed without
# a word has what its full buffers wrote (a prefix, maybe empty).
ranks() {  # json, task that crashed, its code, least steps
  python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); who, code, least = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
ends = {int(k.split(".")[0]): x for k, x in d.items() if k.endswith(":40000099")}
steps = {int(k.split(".")[0]): x for k, x in d.items() if k.endswith(":1000")}
ok = len(ends) == 4 and ends.get(who) == [code]
for t, x in ends.items():
    ok = ok and (x == [code] if t == who else x in ([15], [0]))
    s = steps.get(t, [])
    ok = ok and s == list(range(1, len(s) + 1)) and (x == [0] or len(s) >= least)
sys.exit(0 if ok else 1)
PY
}
mpi mpi_segv segv 200 100
check "one rank segfaults: 4 ranks, task 2 ends with SIGSEGV after 99 steps, the others by the launcher, prefixes" \
  "loads '$OUT/mpi_segv/m.prv' && ranks '$OUT/mpi_segv.json' 2 11 98 && grep -q 'ended abnormally: rank 1: SIGSEGV' '$OUT/mpi_segv/merge.txt'"
mpi mpi_abort abort 200 100
check "one rank calls MPI_Abort: task 3 ends with 1000 (MPI_Abort), the others by the launcher, prefixes" \
  "loads '$OUT/mpi_abort/m.prv' && ranks '$OUT/mpi_abort.json' 3 1000 98 && grep -q 'ended abnormally: rank 2: MPI_Abort' '$OUT/mpi_abort/merge.txt'"
# A traced helper started by rank 1 with system() inherits the launcher's rank variables: it
# must not claim rank 1 (its own trace has one process, not an MPI rank).
set +e
mpirun --allow-run-as-root --oversubscribe --mca orte_tmpdir_base "$OUT" -np 4 -x LD_PRELOAD="$PRELOAD" \
  -x PXT_OUTPUT_DIR="$OUT/system" -x PXT_VERBOSE=0 -x ASAN_OPTIONS \
  "$BUILD/bin/pxt_test_mpi_crash" system 20 0 "$BUILD/bin/pxt_test_crash clean 3 > /dev/null" > "$OUT/system.out" 2>&1
set -e
check "a helper started with system() in an MPI job: the job's trace has its 4 ranks, the helper its own trace" \
  "[ \"\$(\"\$BIN\" info --json '$OUT/system/pxt_test_mpi_crash.prv' | python3 -c 'import json,sys; print(json.load(sys.stdin)[\"tasks\"])')\" = 4 ] && [ -f '$OUT/system/pxt_test_crash.prv' ] && grep -aq '^process -1 ' '$OUT/system/pxt_test_crash.pxt.d/'*.pxt"
# The job killed from outside (a walltime limit): mpirun gets SIGTERM and passes it on.
mpirun --allow-run-as-root --oversubscribe --mca orte_tmpdir_base "$OUT" -np 4 -x LD_PRELOAD="$PRELOAD" \
  -x PXT_OUTPUT_DIR="$OUT/killed" -x PXT_BUFFER_SIZE=4096 -x PXT_VERBOSE=0 -x ASAN_OPTIONS \
  "$BUILD/bin/pxt_test_mpi_crash" clean 1000000 0 > "$OUT/killed.out" 2>&1 &
job=$!
for _ in $(seq 1 600); do  # until every rank has flushed something (a minute at most)
  [ "$(find "$OUT/killed" -name '*.pxt' -size +8k 2>/dev/null | wc -l)" -ge 4 ] && break
  sleep 0.1
done
kill -TERM $job
wait $job || true
"$BIN" merge "$OUT/killed/pxt_test_mpi_crash.pxt.d" -o "$OUT/killed/m.prv" > "$OUT/killed/merge.txt" 2>&1 || true
events "$OUT/killed/m.prv" 1000,40000099 > "$OUT/killed.json" 2>/dev/null || echo '{}' > "$OUT/killed.json"
check "the job sent SIGTERM: 4 ranks, each a prefix, each ended by SIGTERM or SIGKILL" \
  "loads '$OUT/killed/m.prv' && prefix '$OUT/killed.json' 1000 1 && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); e=[x for k, x in d.items() if k.endswith(\":40000099\")]; sys.exit(0 if len(e) == 4 and all(x in ([15], [0]) for x in e) else 1)' '$OUT/killed.json'"
if [ $fail = 1 ]; then  # what the merge saw, for the record
  grep -E 'ended|unmatched:|warning|error' "$OUT/killed/merge.txt" | head -20
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print({k: (len(v), v[:3], v[-3:]) for k, v in d.items()})' "$OUT/killed.json"
fi
exit $fail
