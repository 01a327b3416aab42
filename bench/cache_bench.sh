#!/usr/bin/env bash
# First load versus reopen from the trace cache (.pxc) on a generated trace: wall seconds and
# peak RSS of a paramedir-mode states %Time profile (bench/states_profile.cfg) without the
# cache, while writing it, and reading it; then the cache's size in bytes per record.
# Usage: bash bench/cache_bench.sh [BUILD_DIR] [SIZE]   (default: build 200M)
# The trace and its cache go to a temporary folder, removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=$(realpath "${1:-build}")
SIZE=${2:-200M}
TMP=$(mktemp -d /tmp/parallax-cache-bench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
CFG=$(realpath bench/states_profile.cfg)
nice "$BUILD/bin/parallax-gen" --size "$SIZE" --out "$TMP/synth" >/dev/null
cat "$TMP/synth.prv" >/dev/null
run() {  # label, extra options
  local label=$1
  shift
  local res
  res=$(cd "$TMP" && /usr/bin/time -f '%e %U %S %M' nice "$BUILD/bin/parallax" "$@" paramedir --force \
        "$TMP/synth.prv" "$CFG" 2>&1 >/dev/null | tail -1)
  read -r wall user sys rss <<<"$res"
  printf '%-24s %8s s wall %6.2f s cpu %8s MiB\n' "$label" "$wall" "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" "$(( rss / 1024 ))"
}
printf 'trace %s: %d MiB\n' "$SIZE" "$(( $(stat -c %s "$TMP/synth.prv") / 1048576 ))"
run "parse (--no-cache)" --no-cache
run "parse + write cache" --cache-dir "$TMP/cache"
run "reopen from cache" --cache-dir "$TMP/cache"
"$BUILD/bin/parallax" --cache-dir "$TMP/cache" cache info "$TMP/synth.prv" | sed -n 's/^size *//p;s/^records *//p'
