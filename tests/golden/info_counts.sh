#!/usr/bin/env bash
# `parallax info --json` on every real trace agrees with an independent count of the file
# (count_prv.py), and the broken ones give the expected diagnostics.
set -euo pipefail
BIN=$1
DATA=$2
HERE=$(cd "$(dirname "$0")" && pwd)
fail=0
for trace in epoch/epoch_1proc.prv.gz epoch/epoch_2proc.prv.gz epoch/epoch_4proc.prv.gz \
             omp/omp2.prv.gz qsort_beo3/qsort_beo3.prv compss_cholesky/cholesky_autoparallel.prv \
             "profet/lulesh_7+1_with_uncores_sockets1+2.chop8.prv" profet/test1.prv profet/test2.prv \
             profet/test3.prv; do
  expected=$(python3 "$HERE/count_prv.py" "$DATA/$trace")
  actual=$("$BIN" info --json "$DATA/$trace")
  if ! python3 - "$trace" "$expected" "$actual" <<'PY'
import json, sys
name, exp, act = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
diag = {d['kind']: d['count'] for d in act['diagnostics']}
bad = []
for k in ('states', 'events', 'event_pairs', 'comms', 'global_comms', 'records',
          'backward_physical', 'backward_logical'):
    if exp[k] != act[k]:
        bad.append(f'{k}: expected {exp[k]}, got {act[k]}')
for k in ('blank_line', 'comment_line', 'state_end_before_begin', 'out_of_order'):
    if exp[k] != diag.get(k, 0):
        bad.append(f'diagnostic {k}: expected {exp[k]}, got {diag.get(k, 0)}')
skipped = sum(d['count'] for d in act['diagnostics'] if d['severity'] == 'error')
if skipped:
    bad.append(f'{skipped} records skipped')
for b in bad:
    print(f'{name}: {b}')
sys.exit(1 if bad else 0)
PY
  then fail=1; else echo "ok $trace"; fi
done

# Header facts checked by hand against the files' first lines.
"$BIN" info --json "$DATA/qsort_beo3/qsort_beo3.prv" | python3 -c '
import json, sys
i = json.load(sys.stdin)
assert (i["end_time"], i["time_unit"], i["nodes"], i["cpus"], i["appls"], i["tasks"], i["threads"]) == (260199, "us", 4, 4, 1, 4, 4), i
assert i["communicators"] == 8 and not i["has_row"] and i["has_pcf"], i
' || fail=1
"$BIN" info --json "$DATA/profet/lulesh_7+1_with_uncores_sockets1+2.chop8.prv" | python3 -c '
import json, sys
i = json.load(sys.stdin)
assert (i["time_unit"], i["nodes"], i["cpus"], i["appls"], i["tasks"], i["threads"]) == ("ns", 1, 20, 2, 20, 20), i
' || fail=1

# The header-only trace announces two communicator lines it does not have: fatal, located.
if out=$("$BIN" info "$DATA/bigdft_headeronly/bigdft.extrae.128.small.clustered.codeblocks.fused.prv" 2>&1); then
  echo "bigdft: expected a failure"; fail=1
elif [[ "$out" != *"fused.prv:2:1: error: expected communicator line 1 of 2, found end of file"* ]]; then
  echo "bigdft: unexpected message: $out"; fail=1
else
  echo "ok bigdft (fatal as expected)"
fi
exit $fail
