#!/usr/bin/env bash
# `parallax replay` and `parallax pop --no-replay` on the epoch traces: the predicted runtime
# Dimemas gives, the predicted trace written once and loaded back, exit status 1 with a located
# message on bad input.
set -euo pipefail
BIN=$(realpath "$1")
DATA=$(realpath "$2")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0
check() {  # name, expected, actual
  if [[ "$2" != "$3" ]]; then echo "FAIL $1: expected [$2] got [$3]"; fail=1; else echo "ok $1"; fi
}
field() {  # json, python expression on j
  python3 -c 'import json,sys; j=json.loads(sys.argv[1]); print(eval(sys.argv[2]))' "$1" "$2"
}

json=$("$BIN" replay "$DATA/epoch/epoch_4proc.prv.gz" --format json -o "$TMP/p.prv.gz" 2>/dev/null)
check ideal-runtime "6051059.08 6002862.00" "$(field "$json" '"%.2f %.2f" % (j["predicted_runtime_us"], j["predicted_useful_max_us"])')"
check predicted-end "6051059081" "$("$BIN" info --json "$TMP/p.prv.gz" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["trace_end"])')"
[[ -f "$TMP/p.pcf" && -f "$TMP/p.row" ]] && echo "ok companions" || { echo "FAIL no .pcf/.row"; fail=1; }

json=$("$BIN" replay "$DATA/epoch/epoch_4proc.prv.gz" --config "$DATA/oracles/dimemas/lat5us_bw1000.cfg" --format json 2>/dev/null)
check network-runtime "6098328" "$(field "$json" '"%.0f" % j["predicted_runtime_us"]')"

if "$BIN" replay "$DATA/epoch/epoch_4proc.prv.gz" -o "$TMP/p.prv.gz" >/dev/null 2>"$TMP/err"; then
  echo "FAIL an existing predicted trace was replaced"; fail=1
fi
check no-overwrite "$TMP/p.prv.gz: error: the output file exists" "$(head -1 "$TMP/err")"

printf '"environment information" {"", 0, "", 4, fast, 0, 1};;\n' > "$TMP/bad.cfg"
if "$BIN" replay "$DATA/epoch/epoch_2proc.prv.gz" --config "$TMP/bad.cfg" >/dev/null 2>"$TMP/err"; then
  echo "FAIL a bad configuration was accepted"; fail=1
fi
check bad-config "$TMP/bad.cfg:1:42: error: field 5 of \"environment information\" (inter-node bandwidth) must be a number, found fast" "$(head -1 "$TMP/err")"

if "$BIN" replay "$DATA/omp/omp2.prv.gz" >/dev/null 2>"$TMP/err"; then
  echo "FAIL a trace without MPI was replayed"; fail=1
fi
grep -q "no MPI calls" "$TMP/err" && echo "ok no-mpi" || { echo "FAIL no-mpi: $(cat "$TMP/err")"; fail=1; }

csv=$("$BIN" pop "$DATA/epoch/epoch_2proc.prv.gz" --format csv 2>/dev/null)
check pop-serialization "Serialization efficiency;99.842359" "$(grep '^Serialization' <<<"$csv")"
csv=$("$BIN" pop "$DATA/epoch/epoch_2proc.prv.gz" --format csv --no-replay 2>"$TMP/err")
check pop-no-replay "Serialization efficiency;NaN" "$(grep '^Serialization' <<<"$csv")"
grep -q -- "--no-replay" "$TMP/err" && echo "ok pop-no-replay-note" || { echo "FAIL no note"; fail=1; }
exit $fail
