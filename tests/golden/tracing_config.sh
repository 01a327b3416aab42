#!/usr/bin/env bash
# The tracing library's configuration file (PXT_CONFIG): `key = value` lines for every
# variable of tracing/README.md; the environment wins over the file; a bad file is reported with
# FILE:LINE:COL and turns tracing off (the program itself runs normally).
set -euo pipefail
BIN=$1
BUILD=$(cd "$(dirname "$BIN")/.." && pwd)
OUT=$(mktemp -d)
ASAN_LIB=$(ldd "$BUILD/bin/pxt_example_threads" | awk '/libasan/ {print $3}')
PRELOAD="${ASAN_LIB:+$ASAN_LIB:}$BUILD/lib/libparallax-pthread.so"
export ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0
trap 'rm -rf "$OUT"' EXIT
fail=0
check() {  # name, expected, actual
  if [[ "$2" != "$3" ]]; then echo "FAIL $1: expected [$2] got [$3]"; fail=1; else echo "ok $1"; fi
}
run() {  # config file, extra env...; prints the program's output, stderr in $OUT/err
  local cfg=$1; shift
  env PXT_CONFIG="$cfg" "$@" LD_PRELOAD="$PRELOAD" "$BUILD/bin/pxt_example_threads" 2 2>"$OUT/err"
}

cat > "$OUT/good.toml" <<TOML
# Parallax tracing settings
output_dir = "$OUT/traces"   # where the trace goes
output_name = "from_file"
counters = "none"
verbose = false
buffer_size = "64K"
TOML
check good-program "counter 4000" "$(run "$OUT/good.toml")"
check good-trace-named-by-file 1 "$([ -f "$OUT/traces/from_file.prv" ] && echo 1 || echo 0)"
check good-quiet "" "$(cat "$OUT/err")"
run "$OUT/good.toml" PXT_OUTPUT_NAME=from_env >/dev/null
check env-wins 1 "$([ -f "$OUT/traces/from_env.prv" ] && echo 1 || echo 0)"

printf 'output_name = "x"\n\noutptu_dir = "y"\n' > "$OUT/bad_key.toml"
check bad-key-program "counter 4000" "$(run "$OUT/bad_key.toml" PXT_OUTPUT_DIR="$OUT/bad")"
check bad-key-message "parallax-trace: $OUT/bad_key.toml:3:1: unknown key 'outptu_dir'" \
  "$(cut -d'(' -f1 "$OUT/err" | sed 's/ *$//')"
check bad-key-no-trace 0 "$(ls "$OUT/bad" 2>/dev/null | wc -l)"

printf 'output_name = "open\n' > "$OUT/bad_string.toml"
run "$OUT/bad_string.toml" >/dev/null
check bad-string "parallax-trace: $OUT/bad_string.toml:1:15: unterminated string; tracing disabled" "$(cat "$OUT/err")"
printf '[tracing]\n' > "$OUT/table.toml"
run "$OUT/table.toml" >/dev/null
check table "parallax-trace: $OUT/table.toml:1:1: tables ([section]) are not used: write \`key = value\` lines; tracing disabled" "$(cat "$OUT/err")"
printf 'merge = maybe\n' > "$OUT/bad_value.toml"
run "$OUT/bad_value.toml" >/dev/null
check bad-value "parallax-trace: $OUT/bad_value.toml:1:9: expected a \"string\", a number, true or false, not 'maybe'; tracing disabled" "$(cat "$OUT/err")"
run "$OUT/missing.toml" >/dev/null
check missing-file "parallax-trace: $OUT/missing.toml: cannot read the configuration file: No such file or directory; tracing disabled" "$(cat "$OUT/err")"
# A named pipe as the configuration file blocked the traced program at its start (open(2) waits
# for a writer): now it is refused at once (124: the timeout ended a hung program).
mkfifo "$OUT/pipe.toml"
set +e
timeout 30 env PXT_CONFIG="$OUT/pipe.toml" LD_PRELOAD="$PRELOAD" "$BUILD/bin/pxt_example_threads" 2 >/dev/null 2>"$OUT/err"
status=$?
set -e
check fifo-config-status 0 "$status"
check fifo-config-message "parallax-trace: $OUT/pipe.toml: cannot read the configuration file: not a regular file (a pipe or a device?); tracing disabled" "$(cat "$OUT/err")"
exit $fail
