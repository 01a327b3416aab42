#!/usr/bin/env bash
# SDDF, KSR and PICL on the command line: ksr2sddf's conversion of the Pablo report's logs,
# --binary, prv -> sddf -> prv and prv -> trf, `info` on an SDDF file with no time field, and
# the errors a user can act on.
set -euo pipefail
BIN=$(realpath "$1")
DATA=$(realpath "$2")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0
check() {  # name, expected, actual
  if [[ "$2" != "$3" ]]; then echo "FAIL $1: expected [$2] got [$3]"; fail=1; else echo "ok $1"; fi
}
cd "$TMP"

# The report's gist log -> the report's SDDF (braces restored, the log's data).
"$BIN" convert "$DATA/ksr/pablo_example.gist" -o k.sddf
check ksr2sddf-golden same "$(cmp -s k.sddf "$DATA/ksr/pablo_example.sddf" && echo same || echo differs)"
# An existing output is kept without --force.
set +e
"$BIN" convert "$DATA/ksr/pablo_example.gist" -o k.sddf 2>err.txt; rc=$?
set -e
check keep-existing "1 output file exists" "$rc $(grep -o 'output file exists' err.txt)"
# Binary form: the machine's byte order marker, the same states when read.
"$BIN" convert "$DATA/ksr/pablo_example.brief" -o kb.sddf --binary
check binary-magic SDDF "$(head -c 4 kb.sddf)"
got=$("$BIN" info --json kb.sddf | python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["states"], j["threads"])')
check ksr-states "14 5" "$got"
# --binary needs an SDDF output.
set +e
"$BIN" convert "$DATA/ksr/pablo_example.gist" -o k.prv --binary 2>err.txt; rc=$?
set -e
check binary-needs-sddf "1" "$rc"

# prv -> sddf (ASCII and binary) -> prv gives the same .prv bytes; prv -> trf reads back.
"$BIN" convert "$DATA/epoch/epoch_2proc.prv.gz" -o a.prv
for flag in "" --binary; do
  "$BIN" convert "$DATA/epoch/epoch_2proc.prv.gz" -o e.sddf --force $flag
  "$BIN" convert e.sddf -o b.prv --force
  check "prv-sddf-prv$flag" same "$(cmp -s a.prv b.prv && echo same || echo differs)"
done
"$BIN" convert "$DATA/epoch/epoch_2proc.prv.gz" -o e.trf
got=$("$BIN" info --json e.trf | python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["threads"], j["comms"] > 0)')
check picl-write "2 True" "$got"

# An SDDF file with no time field is summarised, not refused.
printf 'SDDFA\n#1:\n"Concessions" {\n\tint "Inning";\n\tint "Hot Dogs Sold";\n};;\n"Concessions" { 1, 100 };;\n"Concessions" { 2, 300 };;\n' > c.sddf
check sddf-summary 1 "$("$BIN" info c.sddf | grep -c 'SDDF #1 "Concessions" (Inning, Hot Dogs Sold): 2 records')"

exit $fail
