#!/usr/bin/env bash
# `parallax merge` of Paraver traces (prvmerger -merge / -concat): tiny traces merged with the
# answers worked out by hand (header, renumbered records, .pcf and .row), the errors, and
# qsort_beo3 merged with itself checked by `parallax info` and `parallax analyze`.
set -euo pipefail
BIN=$(realpath "$1")
DATA=$(realpath "$2")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# shellcheck source=lib/check.bash
source "$(dirname "${BASH_SOURCE[0]}")/lib/check.bash"
cd "$TMP"

# A: 1 node of 2 cpus, one application of 2 tasks, a communicator; B: 1 node of 1 cpu, one
# application of one task with 2 threads, in the same unit (ns).
cat >a.prv <<'PRV'
#Paraver (01/01/2024 at 00:00):1000_ns:1(2):1:2(1:1,1:1),1
c:1:1:2:1:2
1:1:1:1:1:0:500:1
2:2:1:2:1:100:50000001:3
3:1:1:1:1:200:210:2:1:2:1:300:310:64:7
1:1:1:1:1:500:1000:3
PRV
printf 'STATES\n0    Idle\n1    Running\n3    Waiting\n\nEVENT_TYPE\n0    50000001    MPI Point-to-point\nVALUES\n3   MPI_Send\n' >a.pcf
cat >b.prv <<'PRV'
#Paraver (02/01/2024 at 00:00):800_ns:1(1):1:1(2:1)
1:1:1:1:1:0:150:1
2:1:1:1:2:150:50000001:3:60000000:5
1:1:1:1:1:150:800:2
PRV
printf 'STATES\n1    Running\n2    Not created\n\nEVENT_TYPE\n0    50000001    MPI Point-to-point\nVALUES\n3   MPI_Isend\n4   MPI_Recv\n\nEVENT_TYPE\n0    60000000    Loop\n' >b.pcf
printf 'LEVEL NODE SIZE 1\nnodeB\n\nLEVEL THREAD SIZE 2\nb.1\nb.2\n' >b.row

"$BIN" merge a.prv b.prv -o m.prv >out 2>err
# B's application becomes application 2 on node 2 (cpu 3); the end is the later one (1000);
# the bodies interleave by time, A's record first on a tie.
check merge-prv "$(cat <<'PRV'
#Paraver (01/01/2024 at 00:00):1000_ns:2(2,1):2:2(1:1,1:1):1(2:2),1
c:1:1:2:1:2
1:1:1:1:1:0:500:1
1:3:2:1:1:0:150:1
2:2:1:2:1:100:50000001:3
2:3:2:1:2:150:50000001:3:60000000:5
1:3:2:1:1:150:800:2
3:1:1:1:1:200:210:2:1:2:1:300:310:64:7
1:1:1:1:1:500:1000:3
PRV
)" "$(cat m.prv)"
check merge-out "m.prv: 7 records from 2 traces" "$(cat out)"
check merge-conflict 'parallax merge: warning: conflicting .pcf label: event type 50000001 value 3: "MPI_Isend" in b.prv, "MPI_Send" kept' "$(cat err)"
# .pcf: A's labels, then what only B has (state 2, value 4, type 60000000).
labels() { awk '/^[0-9]/ { $1 = $1; print }' "$1" | paste -sd'|'; }
check merge-pcf "0 Idle|1 Running|3 Waiting|2 Not created|0 50000001 MPI Point-to-point|3 MPI_Send|4 MPI_Recv|0 60000000 Loop" \
  "$(labels m.pcf)"
# .row: A has none, so its objects get default labels in the merged numbering.
check merge-row "LEVEL NODE SIZE 2|1|nodeB||LEVEL THREAD SIZE 4|1.1.1|1.2.1|b.1|b.2" "$(paste -sd'|' m.row)"
# Compressed output: the same trace.
"$BIN" merge a.prv b.prv -o mz.prv.gz >/dev/null 2>&1
check merge-gz "$(cat m.prv)" "$(zcat mz.prv.gz)"

# Concat: the second copy of A shifted by A's end (1000); end = 2000; A's header and communicators.
"$BIN" merge a.prv a.prv -o c.prv --concat >/dev/null
check concat "$(cat <<'PRV'
#Paraver (01/01/2024 at 00:00):2000_ns:1(2):1:2(1:1,1:1),1
c:1:1:2:1:2
1:1:1:1:1:0:500:1
2:2:1:2:1:100:50000001:3
3:1:1:1:1:200:210:2:1:2:1:300:310:64:7
1:1:1:1:1:500:1000:3
1:1:1:1:1:1000:1500:1
2:2:1:2:1:1100:50000001:3
3:1:1:1:1:1200:1210:2:1:2:1:1300:1310:64:7
1:1:1:1:1:1500:2000:3
PRV
)" "$(cat c.prv)"
check concat-pcf "$(grep -v '^$' a.pcf)" "$(grep -v '^$' c.pcf)"

# Errors: nothing is replaced or left behind.
refused exists "parallax merge: m.prv: error: m.prv exists" "$BIN" merge a.prv b.prv -o m.prv
refused concat-structure "parallax merge: b.prv:1:1: error: b.prv does not have the applications, tasks, threads and cpus of a.prv" \
  "$BIN" merge a.prv b.prv -o c2.prv --concat
sed 's/_ns:/:/' b.prv >us.prv
refused unit "parallax merge: us.prv:1:1: error: us.prv is in us, a.prv in ns" "$BIN" merge a.prv us.prv -o u.prv
printf '1:1:1:1:1:0:x:1\n' >>b.prv
refused malformed "parallax merge: b.prv:5:13: error: bad end time: expected a non-negative integer" \
  "$BIN" merge a.prv b.prv -o bad.prv
# A record outside its header would be renumbered onto another input's objects: refused.
printf '#Paraver (02/01/2024 at 00:00):800_ns:1(1):1:1(2:1)\n1:1:1:2:1:0:10:1\n' >task2.prv
refused bad-thread "parallax merge: task2.prv:2:1: error: thread 1:2:1 is not in the header" \
  "$BIN" merge a.prv task2.prv -o bad.prv
printf '#Paraver (02/01/2024 at 00:00):800_ns:1(1):1:1(2:1)\n3:1:1:1:1:0:5:4:1:1:2:9:9:8:1\n' >cpu4.prv
refused bad-cpu "parallax merge: cpu4.prv:2:1: error: cpu 4 is not in the header (1 cpus)" \
  "$BIN" merge a.prv cpu4.prv -o bad.prv
check nothing-left "" "$(ls c2.prv* u.prv* bad.prv* .*.tmp* 2>/dev/null || true)"
echo 'not a trace' >x.pxt
refused mixed "parallax merge: some inputs are Paraver traces and some are not" "$BIN" merge a.prv x.pxt -o y.prv
refused one "parallax merge: error: merge needs at least two traces" "$BIN" merge a.prv -o y.prv
refused pxt-options "parallax merge: --session and --no-clock-correction apply to the tracing library's .pxt files, not to Paraver traces" \
  "$BIN" merge a.prv a.prv -o y.prv --no-clock-correction

# Type-4 global operations (the layout of qsort_beo3's: communicator, bytes sent, bytes
# received, operation, flag) are renumbered as the other records, application and cpu (0 stays
# 0), and placed by their time; the fields after the time are copied.
cat >g1.prv <<'PRV'
#Paraver (01/01/2024 at 00:00):1000_ns:1(2):1:2(1:1,1:1),1
c:1:1:2:1:2
1:1:1:1:1:0:500:1
4:1:1:1:1:100:1:4:0:10:0
4:2:1:2:1:120:1:0:4:10:0
PRV
cat >g2.prv <<'PRV'
#Paraver (02/01/2024 at 00:00):800_ns:1(1):1:1(2:1),1
c:1:1:1:1
4:1:1:1:2:110:1:8:8:11:0
2:1:1:1:1:130:50000002:11
4:0:1:1:1:500:1:8:8:11:0
PRV
"$BIN" merge g1.prv g2.prv -o g.prv >out 2>err
check globalop-merge "$(cat <<'PRV'
#Paraver (01/01/2024 at 00:00):1000_ns:2(2,1):2:2(1:1,1:1):1(2:2),2
c:1:1:2:1:2
c:2:1:1:1
1:1:1:1:1:0:500:1
4:1:1:1:1:100:1:4:0:10:0
4:3:2:1:2:110:1:8:8:11:0
4:2:1:2:1:120:1:0:4:10:0
2:3:2:1:1:130:50000002:11
4:0:2:1:1:500:1:8:8:11:0
PRV
)" "$(cat g.prv)"
check globalop-out "g.prv: 6 records from 2 traces" "$(cat out)"
check globalop-no-warning "" "$(cat err)"
"$BIN" merge g1.prv g1.prv -o gc.prv --concat >/dev/null 2>&1
check globalop-concat "4:1:1:1:1:100:1:4:0:10:0|4:2:1:2:1:120:1:0:4:10:0|4:1:1:1:1:1100:1:4:0:10:0|4:2:1:2:1:1120:1:0:4:10:0" \
  "$(grep '^4:' gc.prv | paste -sd'|')"
printf '4:1:1:1:1:600\n' >>g2.prv
refused globalop-short "parallax merge: g2.prv:6:14: error: global operation without fields after its time" \
  "$BIN" merge g1.prv g2.prv -o bad.prv
printf '4:1:1:1:1:600:1:x\n' >g3.prv.body
{ head -2 g1.prv; cat g3.prv.body; } >g3.prv
refused globalop-bad-field "parallax merge: g3.prv:3:17: error: bad global operation field: expected an integer" \
  "$BIN" merge g1.prv g3.prv -o bad.prv
printf '#Paraver (02/01/2024 at 00:00):800_ns:1(1):1:1(2:1)\n4:1:1:2:1:0:1:0:0:0:0\n' >g4.prv
refused globalop-bad-thread "parallax merge: g4.prv:2:1: error: thread 1:2:1 is not in the header" \
  "$BIN" merge g1.prv g4.prv -o bad.prv
check globalop-nothing-left "" "$(ls bad.prv* .*.tmp* 2>/dev/null || true)"

# qsort_beo3 with itself: twice the records, type-4 lines included, two applications whose
# per-thread state profile is the original's.
Q=$DATA/qsort_beo3/qsort_beo3.prv
"$BIN" merge "$Q" "$Q" -o qq.prv >/dev/null 2>err
check qsort-no-warning "" "$(cat err)"
# Application 2's global operations are application 1's with cpus 1-4 moved to 5-8.
check qsort-globalops "$(grep '^4:' "$Q")" \
  "$(awk -F: -v OFS=: '/^4:/ && $3 == 2 { $2 -= 4; $3 = 1; print }' qq.prv)"
check qsort-records "records      584 states, 844 event lines (844 pairs), 66 comms; 90 type-4 skipped" \
  "$("$BIN" info qq.prv | grep '^records')"
check qsort-processes "processes    2 appls, 8 tasks, 8 threads; 16 communicators" \
  "$("$BIN" info qq.prv | grep '^processes')"
cat >st.cfg <<'CFG'
#ParaverCFG
ConfigFile.Version: 3.4
ConfigFile.NumWindows: 1

window_name states
window_type single
window_level thread
window_units Nanoseconds
window_selected_functions { 1, { {thread, State As Is} } }
< NEW ANALYZER2D >
Analyzer2D.Name: profile
Analyzer2D.ControlWindow: 1
Analyzer2D.Statistic: Time
Analyzer2D.ComputeYScale: False
Analyzer2D.Minimum: 0
Analyzer2D.Maximum: 20
Analyzer2D.Delta: 1
Analyzer2D.UseFixedDelta: True
CFG
orig=$("$BIN" analyze "$Q" --cfg st.cfg | grep '^THREAD 1\.')
check qsort-appl1 "$orig" "$("$BIN" analyze qq.prv --cfg st.cfg | grep '^THREAD 1\.')"
check qsort-appl2 "$orig" "$("$BIN" analyze qq.prv --cfg st.cfg | grep '^THREAD 2\.' | sed 's/^THREAD 2\./THREAD 1./')"
# Concatenated with itself: each thread's profile doubles.
"$BIN" merge "$Q" "$Q" -o qc.prv --concat >/dev/null 2>&1
check qsort-concat-records "records      584 states, 844 event lines (844 pairs), 66 comms; 90 type-4 skipped" \
  "$("$BIN" info qc.prv | grep '^records')"
check qsort-concat-running "$("$BIN" analyze "$Q" --cfg st.cfg | awk -F'\t' '$1 == "THREAD 1.1.1" { printf "%.2f", $3 * 2 }')" \
  "$("$BIN" analyze qc.prv --cfg st.cfg | awk -F'\t' '$1 == "THREAD 1.1.1" { print $3 }')"
exit $fail
