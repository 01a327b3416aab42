#!/usr/bin/env bash
# Trace-processing tools benchmark: throughput and peak memory of `parallax cut`, `filter` and
# `softcounters`, `sort`, `shift`, `merge` of two traces (and `clocks --correct`) on a
# generated trace.
#
#   bash bench/tools_bench.sh [BUILD_DIR] [SIZE]        (defaults: build 100M)
#
# Environment: SEED (generator seed, default 1), OUT_DIR (where the trace and the outputs go,
# default /tmp/parallax_tools_bench; the trace, and a copy with its body reversed, are made
# once and reused). Prints, per
# command: wall seconds, CPU seconds (user + system), input MiB/s against both, peak RSS.
# On a busy machine the wall time includes waiting for a core; the CPU figure does not.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-build}
size=${2:-100M}
[[ $build = /* ]] || build=$repo/$build
parallax=$build/bin/parallax
gen=$build/bin/parallax-gen
seed=${SEED:-1}
out_dir=${OUT_DIR:-/tmp/parallax_tools_bench}

die() { echo "tools_bench: $*" >&2; exit 1; }
[[ -x $parallax ]] || die "no parallax at $parallax (build it first)"
[[ -x /usr/bin/time ]] || die "GNU time (/usr/bin/time, Debian package 'time') is needed"
mkdir -p "$out_dir"
base=$out_dir/synth_${size}_s${seed}
if [[ ! -s $base.prv ]]; then
  [[ -x $gen ]] || die "no generator at $gen"
  echo "generating $base.prv ..." >&2
  "$gen" --size "$size" --seed "$seed" --out "$base" >&2
fi
cat "$base.prv" >/dev/null  # warm the page cache: we measure the tools, not the disk
mib=$(python3 -c "import os; print(os.path.getsize('$base.prv') / 2**20)")
in_mib=$mib  # the input of the command (twice the trace for a merge of it with itself)

run() {  # label, then the parallax arguments (without the output)
  local label=$1
  shift
  rm -f "$out_dir/out.prv" "$out_dir/out.pcf" "$out_dir/out.row"
  /usr/bin/time -f '%e %U %S %M' -o "$out_dir/time" "$parallax" "$@" -o "$out_dir/out.prv" --force \
    2>"$out_dir/stderr" >/dev/null || { cat "$out_dir/stderr" >&2; die "failed: $label"; }
  read -r wall user sys rss < "$out_dir/time"
  python3 - "$label" "$in_mib" "$wall" "$user" "$sys" "$rss" "$(stat -c %s "$out_dir/out.prv")" <<'PY'
import sys
label, mib, wall, user, sys_, rss, out = sys.argv[1], *map(float, sys.argv[2:])
cpu = user + sys_
print(f"{label:<34} {wall:7.2f} {cpu:7.2f} {mib / wall:9.0f} {mib / cpu:9.0f} {rss / 1024:8.1f} {out / 2**20:8.1f}")
PY
}

printf '%s: %.1f MiB\n' "$base.prv" "$mib"
printf '%-34s %7s %7s %9s %9s %8s %8s\n' command wall_s cpu_s MiB/s_wall MiB/s_cpu rss_MiB out_MiB
run "cut 0%..100% (whole trace)" cut "$base.prv" --from 0% --to 100%
run "cut 40%..60%" cut "$base.prv" --from 40% --to 60%
run "filter MPI events, no comms" filter "$base.prv" --types 50000001,50000002,50000003 --no-comms
run "filter states >= 10 us only" filter "$base.prv" --no-events --no-comms --min-state-time 10000
run "softcounters MPI per 1 ms" softcounters "$base.prv" --interval 1000000 --count 50000001,50000002,50000003
run "softcounters MPI per burst" softcounters "$base.prv" --bursts 10000 --count 50000001,50000002,50000003
run "clocks --correct (two passes)" clocks "$base.prv" --correct
run "cut --between 50000001 (1st..10th)" cut "$base.prv" --between 50000001 --occurrences 1..10
run "filter comms tag 1-9, <= 4 KiB" filter "$base.prv" --comm-tags 1,2,3,4,5,6,7,8,9 --max-comm-size 4096
run "sort (sorted: one pass)" sort "$base.prv"
# The same body reversed: too much disorder for the one-pass window, so 64 MB runs are merged.
reversed=${base}_reversed
if [[ ! -s $reversed.prv ]]; then
  head_lines=$(awk '!/^[#cCiI]/ { print NR - 1; exit }' "$base.prv")
  { head -n "$head_lines" "$base.prv"; tail -n +"$((head_lines + 1))" "$base.prv" | tac; } > "$reversed.prv"
  cp "$base.pcf" "$reversed.pcf"
  cp "$base.row" "$reversed.row"
fi
cat "$reversed.prv" >/dev/null
run "sort (reversed: 64 MB runs, merged)" sort "$reversed.prv"
tasks=$(head -1 "$base.prv" | python3 -c "import re, sys; print(re.match(r'#Paraver ?\([^)]*\):[^:]*:[^:]*:\d+:(\d+)\(', sys.stdin.read()).group(1))")
seq 0 $((tasks - 1)) | sed 's/$/000/' > "$out_dir/offsets"
run "shift per task (0, 1000, 2000 ...)" shift "$base.prv" --offsets "$out_dir/offsets" --level task
in_mib=$(python3 -c "print(2 * $mib)")
run "merge with itself (side by side)" merge "$base.prv" "$base.prv"
run "merge --concat with itself" merge "$base.prv" "$base.prv" --concat
in_mib=$mib

rm -f "$out_dir/out.prv" "$out_dir/out.pcf" "$out_dir/out.row" "$out_dir/time" "$out_dir/stderr" "$out_dir/offsets"
