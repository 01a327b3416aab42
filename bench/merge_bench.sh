#!/usr/bin/env bash
# The merge of the tracing library's per-process files (`parallax merge DIR -o NAME.prv`) on a
# generated set of `*.pxt` files: MB/s of .prv written, records/s, peak memory (maximum resident
# size of /usr/bin/time -v). bench/README.md, "Merge", has the numbers.
#
#   bench/merge_bench.sh [BUILD_DIR=build] [SIZE_MB=1024] [PROCS=4] [THREADS=4] [CHUNK_KB=8192]
#
# Environment: MERGE_BENCH_DIR (default: a new folder under /tmp, removed at the end),
# MERGE_BENCH_GZ=1 also merges to NAME.prv.gz, MERGE_BENCH_KEEP=1 keeps the folder.
set -euo pipefail
build=${1:-build}
size=${2:-1024}
procs=${3:-4}
threads=${4:-4}
chunk=${5:-8192}
parallax=$build/bin/parallax
gen=$build/bin/parallax-merge-bench-gen
for b in "$parallax" "$gen"; do
  [[ -x $b ]] || { echo "merge_bench: $b missing (ninja -C $build parallax parallax-merge-bench-gen)" >&2; exit 1; }
done
[[ -x /usr/bin/time ]] || { echo "merge_bench: /usr/bin/time missing (Debian: apt-get install time)" >&2; exit 1; }
dir=${MERGE_BENCH_DIR:-$(mktemp -d /tmp/merge_bench.XXXXXX)}
mkdir -p "$dir/in"
cleanup() { [[ ${MERGE_BENCH_KEEP:-0} == 1 ]] || rm -rf "$dir"; }
trap cleanup EXIT

echo "load: $(uptime | sed 's/.*load average: //')  ($(nproc) cores)"
"$gen" "$dir/in" "$size" "$procs" "$threads" "$chunk" >/dev/null
in_bytes=$(du -cb "$dir"/in/*.pxt | tail -1 | cut -f1)
printf 'input: %d processes x %d threads, %.1f MB of .pxt in %d KB chunks\n' "$procs" "$threads" \
  "$(echo "$in_bytes / 1000000" | bc -l)" "$chunk"

run() {  # run NAME: merges to $dir/NAME, prints its figures
  local out=$dir/$1
  /usr/bin/time -v "$parallax" merge "$dir/in" -o "$out" >"$dir/report.txt" 2>"$dir/time.txt" || {
    cat "$dir/report.txt" "$dir/time.txt" >&2
    exit 1
  }
  local wall rss out_bytes lines
  wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$dir/time.txt" |
    awk -F: '{ s = 0; for (i = 1; i <= NF; ++i) s = s * 60 + $i; print s }')
  rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$dir/time.txt")
  user=$(sed -n 's/.*User time (seconds): //p' "$dir/time.txt")
  sys=$(sed -n 's/.*System time (seconds): //p' "$dir/time.txt")
  out_bytes=$(stat -c %s "$out")
  if [[ $out == *.gz ]]; then
    read -r lines prv_bytes < <(gzip -dc "$out" | wc -lc)
  else
    lines=$(wc -l <"$out")
    prv_bytes=$out_bytes
  fi
  awk -v name="$1" -v wall="$wall" -v rss="$rss" -v ob="$out_bytes" -v pb="$prv_bytes" -v ib="$in_bytes" \
    -v lines="$lines" -v user="$user" -v sys="$sys" 'BEGIN {
      printf "%-10s %7.2f s (user %.2f, sys %.2f)  %8.1f MB/s of .prv (%.0f MB, %.0f MB written)  %6.2f M records/s  %6.1f MB/s of .pxt  peak %7.1f MB (%.2fx the input)\n",
        name, wall, user, sys, pb / 1e6 / wall, pb / 1e6, ob / 1e6, (lines - 1) / 1e6 / wall, ib / 1e6 / wall, rss / 1024, rss * 1024 / ib
    }'
  rm -f "$out"
}
run merged.prv
[[ ${MERGE_BENCH_GZ:-0} == 1 ]] && run merged.prv.gz
sed -n '1,2p' "$dir/report.txt"
