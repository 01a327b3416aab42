#!/usr/bin/env bash
# `parallax convert --from/--to/--records`: only a portion is converted, cut as `parallax cut`
# cuts it; the result equals cutting first and converting the cut, for a .prv input and for an
# input of another format (through .prv); bad ranges are refused.
set -euo pipefail
BIN=$(realpath "$1")
DATA=$(realpath "$2")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cd "$TMP"
fail=0
check() {  # name, expected, actual
  if [[ "$2" != "$3" ]]; then echo "FAIL $1: expected [$2] got [$3]"; fail=1; else echo "ok $1"; fi
}
Q=$DATA/qsort_beo3/qsort_beo3.prv
J=$DATA/json/simple.json

"$BIN" convert "$Q" --from 20% --to 60% -o a.json
"$BIN" cut "$Q" --from 20% --to 60% -o c.prv >/dev/null 2>&1
"$BIN" convert c.prv -o b.json
check prv-portion-equals-cut-then-convert same "$(cmp -s a.json b.json && echo same || echo differ)"

"$BIN" convert "$Q" --records 100..200 -o r.prv
"$BIN" cut "$Q" --records 100..200 -o rc.prv >/dev/null 2>&1
"$BIN" convert rc.prv -o rc2.prv
check records-equal-cut same "$(cmp -s r.prv rc2.prv && echo same || echo differ)"
check records-portion-is-smaller 1 "$(( $(wc -l <r.prv) < $(wc -l <"$Q") ))"

# simple.json ends at 14000 ns: 10% .. 90% is 1400 .. 12600, 11200 ns long.
"$BIN" convert "$J" --from 10% --to 90% -o j.prv
check other-format-portion-end "end time     11200 (header), 11200 (trace end)" "$("$BIN" info j.prv | grep '^end time')"

set +e
"$BIN" convert "$Q" --from 90% --to 10% -o x.json 2>err; rc=$?
set -e
check empty-range-status 1 "$rc"
check empty-range-message "error: empty range: begin 234090 us is not before end 26010 us" "$(grep -o 'error: .*' err)"
check empty-range-no-output 0 "$(ls x.json 2>/dev/null | wc -l)"
set +e
"$BIN" convert "$J" --records 1..2 -o z.prv 2>err; rc=$?
set -e
check records-other-format-status 1 "$rc"
check records-other-format-message "error: --records counts the body records of a .prv, and this trace is in another format" "$(grep -o 'error: .*' err)"
exit $fail
