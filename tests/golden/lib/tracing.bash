# Sourced by the tracing golden scripts (tests/golden/tracing_*.sh) once BIN and BUILD are set.
# Its `check NAME GOT EXPECTED` (got first: these scripts print what they measured) prints ok or
# FAIL and sets fail=1; end the script with `exit $fail`. `preload LIB` is what LD_PRELOAD takes
# for LIB (AddressSanitizer's runtime first in a sanitizer build). `events TRACE TYPE...` gives
# thread 1's events of those types as TYPE=VALUE words in time order; `values TRACE CFG
# [WINDOW]` the non-zero values of a cfg window's intervals on thread 1.
export ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0
fail=0
check() {
  if [ "$2" = "$3" ]; then echo "ok $1: $2"; else echo "FAIL $1: got '$2', expected '$3'"; fail=1; fi
}
preload() {
  local asan
  asan=$(ldd "$BUILD/bin/pxt_example_threads" 2>/dev/null | awk '/libasan/ {print $3}')
  echo "${asan:+$asan:}$1"
}
events() {
  "$BIN" text "$1" --thread-function "State As Is" --json | python3 -c '
import json, sys
types = set(int(t) for t in sys.argv[1:])
d = json.load(sys.stdin)
print(" ".join("%d=%d" % (e["type"], e["value"]) for e in d["events"] if e["type"] in types))' "${@:2}"
}
values() {
  "$BIN" text "$1" --cfg "$2" ${3:+--window "$3"} --json | python3 -c '
import json, sys
print(" ".join("%g" % iv["value"] for iv in json.load(sys.stdin)["intervals"] if iv["value"] != 0))'
}
