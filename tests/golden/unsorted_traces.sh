#!/usr/bin/env bash
# Extrae 5's unsorted traces (mpi2prv -no-sort-trace): the body written process by process, not
# in time order. Made here from epoch_4proc by grouping its body by task (each task's records
# keep their order). Analyses give what the sorted trace gives; filter and software counters
# write the same records; the cutter, which stops at the first record past the cut's end as
# paramedir's does, says the trace is not in time order, and `parallax sort` then cut gives the
# sorted trace's cut.
set -euo pipefail
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
DATA=$(cd "$2" && pwd)
PARAMEDIR=$(dirname "$BIN")/paramedir
WORK=$(mktemp -d /tmp/parallax_unsorted.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
fail=0
ok() { echo "ok $1"; }
bad() { echo "FAIL $1"; fail=1; }

zcat "$DATA/epoch/epoch_4proc.prv.gz" > sorted.prv
# The header and its 5 communicator lines, then the body grouped by task (field 4).
{ head -6 sorted.prv; tail -n +7 sorted.prv | awk -F: '{ print $4 "\t" NR "\t" $0 }' | sort -t$'\t' -k1,1n -k2,2n | cut -f3-; } > unsorted.prv
for f in sorted unsorted; do cp "$DATA/epoch/epoch_4proc.pcf" $f.pcf; cp "$DATA/epoch/epoch_4proc.row" $f.row; done
[ "$(sort sorted.prv | md5sum)" = "$(sort unsorted.prv | md5sum)" ] || bad "the unsorted trace has other lines"
first_tasks=$(awk -F: 'NR > 6 && NR <= 1006 { print $4 }' unsorted.prv | sort -u | tr '\n' ' ')
[ "$first_tasks" = "1 " ] && ok "the body starts with task 1 only" || bad "layout: $first_tasks"

# Loads and analyses: the same numbers, no warning (each thread's records are in order).
"$BIN" info --json sorted.prv | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["records"], d["comms"])' > a
"$BIN" info --json unsorted.prv 2> err | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["records"], d["comms"])' > b
cmp -s a b && ok "info counts" || bad "info counts: $(cat a) vs $(cat b)"
[ ! -s err ] && ok "no load warning" || bad "load warning: $(cat err)"
for cfg in "$DATA"/cfg/bsc/mpi/views/MPI_call.cfg "$DATA"/cfg/bsc/mpi/analysis/mpi_stats.cfg \
           "$DATA"/cfg/bsc/mpi/analysis/point2point/*.cfg; do
  for f in sorted unsorted; do "$PARAMEDIR" $f.prv "$cfg" $f.csv > /dev/null 2>&1 || bad "paramedir $cfg on $f"; done
  cmp -s sorted.csv unsorted.csv && ok "paramedir $(basename "$cfg")" || bad "paramedir $cfg differs"
done

# Filter and software counters: the same records (in the input's order).
for f in sorted unsorted; do
  "$BIN" filter $f.prv --types 50000001 -o $f.f.prv 2> /dev/null
  "$BIN" softcounters $f.prv --interval 100000000 --count 50000001 -o $f.sc.prv 2> /dev/null
done
for k in f sc; do
  [ "$(sort sorted.$k.prv | md5sum)" = "$(sort unsorted.$k.prv | md5sum)" ] && ok "$k: same records" || bad "$k records"
done

# The cut: a warning naming the problem and the remedy; sorted first, the sorted trace's cut.
"$BIN" cut sorted.prv --from 2000000000 --to 3000000000 -o sorted.cut.prv 2> err
[ ! -s err ] && ok "sorted cut: no warning" || bad "sorted cut warned: $(cat err)"
"$BIN" cut unsorted.prv --from 2000000000 --to 3000000000 -o unsorted.cut.prv 2> err
grep -q "unsorted.prv is not in time order.*parallax sort unsorted.prv" err && ok "unsorted cut: warned" \
  || bad "unsorted cut: $(cat err)"
"$BIN" sort unsorted.prv -o resorted.prv 2> /dev/null
"$BIN" cut resorted.prv --from 2000000000 --to 3000000000 -o resorted.cut.prv 2> /dev/null
[ "$(grep -v '^#' sorted.cut.prv | sort | md5sum)" = "$(grep -v '^#' resorted.cut.prv | sort | md5sum)" ] \
  && ok "sort then cut: the sorted trace's cut" || bad "sort then cut"
exit $fail
