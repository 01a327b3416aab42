#!/usr/bin/env bash
# A trace larger than memory: runs parallax's commands on a generated trace inside a memory
# cgroup whose limit is below the trace's size, and prints each run's wall and CPU time, peak
# RSS and the cgroup's peak usage (bench/README.md, "Larger than memory").
#
#   bash bench/memory_limit.sh [BUILD_DIR] SIZE|TRACE LIMIT [DIR]
#   bash bench/memory_limit.sh build 8G 4G /work/big      # an 8 GiB trace in 4 GiB
#   PARALLAX_COMPACT=on bash bench/memory_limit.sh build /work/huge/big.prv.gz 12G
#
# SIZE is parallax-gen's --size (the .prv is written once to DIR and kept for later runs), or
# TRACE an existing trace (.prv or .prv.gz); its cache, TRACE.pxc, is removed first so the first
# run parses. The environment goes through (PARALLAX_COMPACT=on: a cache of compact records). LIMIT is the cgroup's memory
# limit (bytes, or with K/M/G). Needs a writable memory cgroup (root, or a delegated cgroup
# v2 subtree); the page cache is dropped before the first run when /proc/sys/vm/drop_caches
# is writable. Nothing here is a test: it prints numbers.
set -euo pipefail

build=build
if [[ $# -ge 3 && -d "$1" ]]; then build=$1; shift; fi
[[ $# -ge 2 ]] || { echo "usage: bash bench/memory_limit.sh [BUILD_DIR] SIZE|TRACE LIMIT [DIR]" >&2; exit 2; }
size=$1 limit=$2 dir=${3:-/tmp/parallax-memory-limit}
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$build" && pwd)
parallax=$build/bin/parallax
[[ -x $parallax ]] || { echo "no $parallax: build first" >&2; exit 2; }

bytes() {  # 4G -> 4294967296
  local v=${1^^}
  case $v in
    *K) echo $(( ${v%K} << 10 )) ;; *M) echo $(( ${v%M} << 20 )) ;;
    *G) echo $(( ${v%G} << 30 )) ;; *) echo "$v" ;;
  esac
}
limit_bytes=$(bytes "$limit")

# A child cgroup of this shell's, v2 (memory.max/memory.peak) or v1 (limit_in_bytes).
cg=""
if [[ -f /sys/fs/cgroup/cgroup.controllers ]]; then
  own=$(sed -n 's/^0:://p' /proc/self/cgroup)
  cg=/sys/fs/cgroup${own%/}/parallax-bench-$$
  mkdir "$cg" && echo "$limit_bytes" > "$cg/memory.max" && echo 0 > "$cg/memory.swap.max" 2>/dev/null || true
  peak_file=$cg/memory.peak
elif [[ -d /sys/fs/cgroup/memory ]]; then
  own=$(sed -n 's/^[0-9]*:memory://p' /proc/self/cgroup)
  cg=/sys/fs/cgroup/memory${own%/}/parallax-bench-$$
  mkdir "$cg" && echo "$limit_bytes" > "$cg/memory.limit_in_bytes"
  peak_file=$cg/memory.max_usage_in_bytes
fi
[[ -n $cg && -d $cg ]] || { echo "cannot create a memory cgroup (run as root, or delegate one)" >&2; exit 2; }
trap 'rmdir "$cg" 2>/dev/null || true' EXIT

mkdir -p "$dir"
trace=$dir/big_$size.prv
if [[ -f $size ]]; then dir=$(cd "$(dirname "$size")" && pwd); trace=$dir/$(basename "$size"); fi
if [[ ! -f $trace ]]; then
  echo "generating $trace ($size)"
  "$build/bin/parallax-gen" --size "$size" --out "$dir/big_$size" > /dev/null
fi
# Its cache next to it (the default is the user's cache folder, docs/formats.md "Trace cache").
export PARALLAX_CACHE_DIR=beside
rm -f "$trace.pxc" "$trace.pxc.ok"
sync
echo 3 > /proc/sys/vm/drop_caches 2>/dev/null || echo "(the page cache was not dropped: not root)"
out=$(mktemp -d)
trap 'rmdir "$cg" 2>/dev/null || true; rm -rf "$out"' EXIT

echo "trace $(du -h "$trace" | cut -f1), memory limit $limit ($(nproc) cores)"
run() {  # NAME COMMAND...: runs in the cgroup, prints wall, CPU, peak RSS, cgroup peak
  local name=$1; shift
  [[ -w $peak_file ]] && echo 0 > "$peak_file" 2>/dev/null || true
  local t0 t1
  t0=$(date +%s.%N)
  (echo $BASHPID > "$cg/cgroup.procs"; cd "$out" && exec /usr/bin/time -f "%U %S %M" -o "$out/time" "$@" > "$out/stdout" 2> "$out/stderr") \
    || { echo "$name: failed"; cat "$out/stderr"; return 1; }
  t1=$(date +%s.%N)
  read -r user sys rss < "$out/time"
  printf '%-34s %7.2f s wall %7.2f s CPU  peak RSS %6d MB  cgroup peak %6d MB\n' "$name" \
    "$(echo "$t1 - $t0" | bc)" "$(echo "$user + $sys" | bc)" $((rss / 1024)) $(( $(cat "$peak_file") >> 20 ))
}
run "paramedir, first open (parse)" "$parallax" paramedir --force "$trace" "$here/states_profile.cfg"
cp "$out/states_profile" "$out/first.txt"
run "paramedir, reopen (cache)" "$parallax" paramedir --force "$trace" "$here/states_profile.cfg"
cmp -s "$out/first.txt" "$out/states_profile" && echo "  same profile both times" || echo "  THE PROFILES DIFFER"
run "timeline, whole trace, 2000 px" "$parallax" timeline "$trace" --width 2000 -o "$out/t.png" --force
run "pop" "$parallax" pop "$trace"
run "info" "$parallax" info "$trace"

# The server, in the cgroup too: open the trace, a whole-trace frame, the states profile.
cp "$here/states_profile.cfg" "$dir/"
(echo $BASHPID > "$cg/cgroup.procs"; exec "$parallax" serve --root "$dir" > "$out/serve.log" 2>&1) &
server=$!
for _ in $(seq 100); do grep -q "token=" "$out/serve.log" && break; sleep 0.1; done
url=$(grep -o 'http://[^ ]*token=[0-9a-f]*' "$out/serve.log" | head -1)
base=${url%%/?token=*} token=${url##*token=}
name=$(basename "$trace")
request() {  # NAME PATH?QUERY: one request, its wall time and status
  local t
  t=$(curl -s -o "$out/reply" -w '%{http_code} %{time_total}' -H "X-Parallax-Token: $token" "$base$2")
  printf '%-34s %7.2f s wall  (HTTP %s, %d bytes)\n' "$1" "${t#* }" "${t% *}" "$(stat -c %s "$out/reply")"
}
request "serve: open" "/api/open?path=$name"
request "serve: whole-trace frame, 2000 px" "/api/timeline?trace=$name&function=State%20As%20Is&width=2000&format=png"
request "serve: states profile" "/api/analyze?trace=$name&cfg=states_profile.cfg"
kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true
echo "cgroup peak over the whole run: $(( $(cat "$peak_file") >> 20 )) MB (limit $limit)"
echo "cache: $(du -h "$trace.pxc" | cut -f1)"
