#!/usr/bin/env bash
# Call sites of MPI calls (issue: click-back on uninstrumented programs): libparallax-mpi.so
# records the return address of every MPI call, and the merge resolves it with libdw to Extrae's
# caller types, 70000001 (function) and 80000001 ("LINE (FILE, MODULE)"), on the same event
# line as the call. Each call of the example, built with gcc and with clang, must point at the
# source line that makes it (found here by grepping the source), and `parallax text` shows the
# labels. With PXT_CALLERS=0 no call site is recorded. Skipped when MPI is not built.
set -euo pipefail
BIN=$1
source "$(dirname "$0")/lib/mpi_env.bash"
SRC=$(cd "$(dirname "$0")/../../tracing/examples" && pwd)/mpi_example.c

# check_sites PROGRAM: runs it (a build of mpi_example.c) on 2 ranks and checks its call sites.
check_sites() {
local prog=$1 name
name=$(basename "$prog")
mpirun --allow-run-as-root --oversubscribe -np 2 -x LD_PRELOAD="$PRELOAD" -x PXT_COUNTERS=none \
  -x PXT_OUTPUT_DIR="$OUT" "$prog" 3 2000 >"$OUT/stdout" 2>"$OUT/stderr"
python3 - "$OUT/$name.prv" "$OUT/$name.pcf" "$SRC" "$name" <<'PY'
import collections, re, sys
prv, pcf_path, src, name = sys.argv[1:5]
pcf = open(pcf_path).read()
# Value labels of a type in the .pcf.
def labels(t):
    m = re.search(r'\n0\s+%d\s+[^\n]*\nVALUES\n(.*?)\n\n' % t, pcf, re.S)
    return {int(v): l.strip() for v, l in (x.split(None, 1) for x in m.group(1).splitlines())}
p2p, coll, other = labels(50000001), labels(50000002), labels(50000003)
calls = {**p2p, **coll, **other}
lines = labels(80000001); funcs = labels(70000001)
# Source lines of each MPI call of the example.
where = collections.defaultdict(set)
for n, text in enumerate(open(src), 1):
    for m in re.finditer(r'\b(MPI_\w+)\(', text): where[m.group(1)].add(n)
seen = collections.Counter(); bad = []
for line in open(prv):
    f = line.rstrip('\n').split(':')
    if f[0] != '2': continue
    pairs = dict(zip(f[6::2], f[7::2]))
    call = next((calls.get(int(pairs[t])) for t in ('50000001', '50000002', '50000003')
                 if t in pairs and pairs[t] != '0'), None)
    if call is None: continue
    if '80000001' not in pairs: bad.append('%s without a call site' % call); continue
    label = lines[int(pairs['80000001'])]
    m = re.match(r'(\d+) \(mpi_example\.c, %s\)$' % re.escape(name), label)
    if not m or int(m.group(1)) not in where[call]:
        bad.append('%s at %r, expected one of lines %s' % (call, label, sorted(where[call])))
    if funcs[int(pairs['70000001'])] != 'main': bad.append('%s in %r' % (call, funcs[int(pairs['70000001'])]))
    seen[call] += 1
for c in ('MPI_Init', 'MPI_Send', 'MPI_Recv', 'MPI_Isend', 'MPI_Irecv', 'MPI_Waitall', 'MPI_Allreduce', 'MPI_Finalize'):
    if not seen[c]: bad.append('no %s seen' % c)
for b in bad[:10]: print('tracing_callsites:', b)
if not bad: print('ok call sites of %s: %d MPI calls, each at its source line' % (name, sum(seen.values())))
sys.exit(1 if bad else 0)
PY
}
check_sites "$BUILD/bin/pxt_example_mpi"
# clang's objects have no .debug_aranges (libdw then looks through the units' own ranges).
if command -v clang >/dev/null; then
  OMPI_CC=clang mpicc -g -O1 "$SRC" -o "$OUT/clang_example_mpi"
  check_sites "$OUT/clang_example_mpi"
fi
# The textual view labels the call site of a call.
"$BIN" text "$OUT/pxt_example_mpi.prv" --thread-function "Last Evt Val" --param 80000001 \
  --object 1.1.1 > "$OUT/text.txt" 2>&1 || { cat "$OUT/text.txt"; exit 1; }
grep -q "(mpi_example.c, pxt_example_mpi)" "$OUT/text.txt" || { echo "tracing_callsites: text view:"; head "$OUT/text.txt"; exit 1; }
echo "ok text view shows the call sites"

rm -rf "$OUT/off" && mkdir "$OUT/off"
mpirun --allow-run-as-root --oversubscribe -np 2 -x LD_PRELOAD="$PRELOAD" -x PXT_CALLERS=0 -x PXT_COUNTERS=none \
  -x PXT_OUTPUT_DIR="$OUT/off" "$BUILD/bin/pxt_example_mpi" 1 2000 >/dev/null 2>&1
if grep -qE '^2(:[^:]*){5}(:[^:]*:[^:]*)*:80000001:' "$OUT/off/pxt_example_mpi.prv"; then echo "tracing_callsites: PXT_CALLERS=0 still records"; exit 1; fi
echo "ok PXT_CALLERS=0 records none"
