# Sourced by golden tests after TMP is set: `check NAME EXPECTED ACTUAL` prints ok or FAIL (and
# sets fail=1); `refused NAME WANT COMMAND...` runs a command that must fail and compares the
# first line of its stderr that is not a hint with WANT. End the script with `exit $fail`.
fail=0
check() {
  if [[ "$2" != "$3" ]]; then echo "FAIL $1: expected [$2] got [$3]"; fail=1; else echo "ok $1"; fi
}
refused() {
  local name=$1 want=$2
  shift 2
  if "$@" >"$TMP/out" 2>"$TMP/err"; then echo "FAIL $name: accepted"; fail=1; return; fi
  check "$name" "$want" "$(grep -v '^  hint' "$TMP/err" | head -1)"
}
