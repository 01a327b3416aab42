#!/usr/bin/env bash
# Other formats on the command line: detection by content (whatever the name), convert to and
# from Chrome/Perfetto JSON, paramedir on a Pajé trace, and the errors a user can act on.
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

# Detection by content: a Pajé trace under a .prv name still loads as Pajé.
cp "$DATA/paje/states.trace" disguised.prv
got=$("$BIN" info --json disguised.prv | python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["states"], j["threads"], j["trace_end"])')
check detect-paje "5 1 1340000000" "$got"

# paramedir on the Pajé trace: time in each state of p1 (0.32+0.33+0.35 s of Inicio in 1.34 s).
"$BIN" paramedir "$DATA/paje/states.trace" "$DATA/../../bench/states_profile.cfg" profile.txt >/dev/null
check paje-paramedir "p1	74.63	15.67	9.70	" "$(sed -n 2p profile.txt)"

# prv -> json -> prv gives the same .prv bytes.
"$BIN" convert "$DATA/profet/lulesh_7+1_with_uncores_sockets1+2.chop8.prv" -o a.prv
"$BIN" convert "$DATA/profet/lulesh_7+1_with_uncores_sockets1+2.chop8.prv" -o a.json
"$BIN" convert a.json -o b.prv
check json-round-trip "$(md5sum < a.prv)" "$(md5sum < b.prv)"

# Unbalanced JSON input loads, and info shows what was skipped, with file:line:column.
got=$("$BIN" info "$DATA/json/too-many-end-events.json" | grep -c 'too-many-end-events.json:[67]:3: end')
check json-diagnostics "2" "$got"

# Errors: an unknown output extension, an existing output, --strict on unbalanced input.
if "$BIN" convert "$DATA/json/simple.json" -o out.xyz 2>err; then echo "FAIL unknown extension accepted"; fail=1; fi
check unknown-output "out.xyz: error: unknown output format" "$(grep -v '^parallax: warning:' err | head -1)"
if "$BIN" convert "$DATA/json/simple.json" -o a.json 2>err; then echo "FAIL existing output replaced"; fail=1; fi
check existing-output "a.json: error: output file exists" "$(grep -v '^parallax: warning:' err | head -1)"
# The event simple.json skips (a complete event without "dur") is said on every command.
check skipped-said "parallax: warning: $DATA/json/simple.json: records with a malformed field or separator (skipped)" \
  "$(grep -o '^parallax: warning: .*(skipped)' err | head -1)"
if "$BIN" info --strict "$DATA/json/too-many-end-events.json" >/dev/null 2>err; then echo "FAIL --strict accepted"; fail=1; fi
exit $fail
