#!/usr/bin/env bash
# The cache policy from the command line (docs/formats.md, "Trace cache"), in a private HOME: a
# small trace gets no cache and nothing appears anywhere; --cache and `parallax cache build`
# write it into ~/.cache/parallax (mode 0700), never beside the trace, and `info` says where
# it is and that the next open read it; --cache-dir beside puts TRACE.pxc next to the trace.
set -euo pipefail
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
DATA=$(cd "$2" && pwd)
WORK=$(mktemp -d /tmp/parallax_cache_policy.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
fail=0
check() {  # name, expected, actual
  if [[ "$2" != "$3" ]]; then echo "FAIL $1: expected [$2] got [$3]"; fail=1; else echo "ok $1"; fi
}
export HOME=$WORK/home
unset XDG_CACHE_HOME PARALLAX_CACHE PARALLAX_CACHE_DIR
mkdir -p "$HOME" "$WORK/traces"
cp "$DATA/qsort_beo3/qsort_beo3.prv" "$DATA/qsort_beo3/qsort_beo3.pcf" "$WORK/traces/"
cd "$WORK/traces"
listing() { (cd "$WORK" && find . -type f | sort | tr '\n' ' '); }
before=$(listing)

info_cache() { "$BIN" "$@" info qsort_beo3.prv | sed -n 's/^cache  *//p'; }
check small-not-cached "not written: the trace has about 0.0 MB of text, under the 64 MB worth a cache" \
  "$(info_cache | sed -E 's/.*\((.*)\)$/\1/')"
check small-nothing-written "$before" "$(listing)"
check cached-with-flag "written" "$(info_cache --cache | sed -E 's/.*\((.*)\)$/\1/')"
check read-next-time "read" "$(info_cache | sed -E 's/.*\((.*)\)$/\1/')"
check nothing-beside "qsort_beo3.pcf qsort_beo3.prv" "$(ls | tr '\n' ' ' | sed 's/ $//')"
check private-folder "700" "$(stat -c %a "$HOME/.cache/parallax")"
"$BIN" cache clear qsort_beo3.prv > /dev/null
"$BIN" cache build qsort_beo3.prv > /dev/null
check cache-build-small "read" "$(info_cache | sed -E 's/.*\((.*)\)$/\1/')"
check beside "$WORK/traces/qsort_beo3.prv.pxc (written)" "$(info_cache --cache --cache-dir beside)"
exit $fail
