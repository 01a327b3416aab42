#!/usr/bin/env bash
# Plug-ins (docs/plugins.md): the example plug-in's functions are listed, used from cfgs with
# values worked out by hand on a small trace, and broken plug-ins are refused with a message
# naming the library.
set -euo pipefail
BIN=$(realpath "$1")
PLUGINS=$(realpath "$(dirname "$BIN")/../plugins")
EX="$PLUGINS/libparallax_example.so"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0
check() {  # name, expected, actual
  if [[ "$2" != "$3" ]]; then echo "FAIL $1: expected [$2] got [$3]"; fail=1; else echo "ok $1"; fi
}
unset PARALLAX_PLUGINS

# A trace of one task with two threads (ns).
#   THREAD 1.1.1: states 1 [0,100), 2 [100,300), 1 [300,1000); events 10:3 at 150, 10:5 at 400, 20:9 at 700
#   THREAD 1.1.2: states 3 [0,500), 1 [500,1000); event 10:4 at 200
cat > "$TMP/t.prv" <<'PRV'
#Paraver (01/01/2024 at 00:00):1000_ns:1(2):1:1(2:1)
1:1:1:1:1:0:100:1
1:2:1:1:2:0:500:3
1:1:1:1:1:100:300:2
2:1:1:1:1:150:10:3
2:2:1:1:2:200:10:4
1:1:1:1:1:300:1000:1
2:1:1:1:1:400:10:5
1:2:1:1:2:500:1000:1
2:1:1:1:1:700:20:9
PRV
cfg() {  # file, window lines...
  local f=$1; shift
  { printf '#ParaverCFG\nConfigFile.Version: 3.4\nConfigFile.NumWindows: 1\n'; printf '%s\n' "$@"; } > "$f"
}
intervals() {  # cfg, object
  "$BIN" --plugin "$EX" text "$TMP/t.prv" --cfg "$1" --object "$2" --json |
    python3 -c 'import json,sys; print(" ".join("%d-%d=%g" % (i["begin"], i["end"], i["value"]) for i in json.load(sys.stdin)["intervals"]))'
}

# Listed, with the library they come from.
list=$("$BIN" --plugin "$EX" functions)
check listed-compose "compose        Value squared                x² [$EX]" "$(grep 'Value squared' <<<"$list")"
check listed-thread "event          Events so far                events (of the listed types) up to the interval's start [$EX]" "$(grep 'Events so far' <<<"$list")"
check listed-derived "derived        Weighted sum                 weight a × a + weight b × b [$EX]" "$(grep 'Weighted sum' <<<"$list")"
check env-listed "1" "$(PARALLAX_PLUGINS="$EX" "$BIN" functions --json | grep -c '"name": "Value squared"')"
check not-listed-without "0" "$("$BIN" functions | grep -c 'Value squared' || true)"

# The server lists them for the properties dialog (/api/functions), with their origin.
"$BIN" --plugin "$EX" serve --root "$TMP" > "$TMP/serve.out" 2>&1 &
server=$!
for _ in $(seq 100); do grep -q 'token=' "$TMP/serve.out" && break; sleep 0.1; done
url=$(grep -o 'http://[^ ]*token=[0-9a-f]*' "$TMP/serve.out")
got=$(curl -s "${url%%/\?*}/api/functions?token=${url##*token=}" |
      python3 -c 'import json,sys; print(",".join(f["name"] for f in json.load(sys.stdin)["functions"] if f.get("origin")))')
kill $server; wait $server 2>/dev/null || true
check serve-functions "Value squared,Events so far,Weighted sum" "$got"

# Value squared over State As Is: 1, 2, 1 -> 1, 4, 1 and 3, 1 -> 9, 1.
cfg "$TMP/sq.cfg" "window_name squared" "window_type single" "window_level thread" \
  "window_selected_functions { 1, { {thread, State As Is} } }" \
  "window_compose_functions { 1, { {compose_thread, Value squared} } }"
check squared-1 "0-100=1 100-300=4 300-1000=1" "$(intervals "$TMP/sq.cfg" "THREAD 1.1.1")"
check squared-2 "0-500=9 500-1000=1" "$(intervals "$TMP/sq.cfg" "THREAD 1.1.2")"

# Events so far (all types): one interval per event, counting 1, 2, 3.
cfg "$TMP/ev.cfg" "window_name events" "window_type single" "window_level thread" \
  "window_selected_functions { 1, { {thread, Events so far} } }"
check events-all "0-150=0 150-400=1 400-700=2 700-1000=3" "$(intervals "$TMP/ev.cfg" "THREAD 1.1.1")"
# Only type 10: the type-20 event still starts an interval, the count stays 2.
cfg "$TMP/ev10.cfg" "window_name events10" "window_type single" "window_level thread" \
  "window_selected_functions { 1, { {thread, Events so far} } }" \
  "window_semantic_module thread Events so far { 1, { 1 10.0 } }"
check events-type10 "0-150=0 150-400=1 400-700=2 700-1000=2" "$(intervals "$TMP/ev10.cfg" "THREAD 1.1.1")"
# At task level (Adding over the two threads): 0, +1 at 150, +1 at 200, +1 at 400, +1 at 700.
cfg "$TMP/evtask.cfg" "window_name events" "window_type single" "window_level task" \
  "window_selected_functions { 2, { {task, Adding}, {thread, Events so far} } }"
check events-task "0-150=0 150-200=1 200-400=2 400-700=3 700-1000=4" "$(intervals "$TMP/evtask.cfg" "TASK 1.1")"

# Weighted sum of the two (default weights 1 and 1; the window's factors 2 and 10) on THREAD 1.1.1:
# squared 1,4,1 on [0,100),[100,300),[300,1000); events 0,1,2,3 on [0,150),[150,400),[400,700),[700,1000)
#   [0,100) 2*1+10*0=2; [100,150) 2*4=8; [150,300) 8+10=18; [300,400) 2+10=12; [400,700) 2+20=22; [700,1000) 2+30=32
{ printf '#ParaverCFG\nConfigFile.Version: 3.4\nConfigFile.NumWindows: 3\n'
  tail -n +4 "$TMP/sq.cfg"; tail -n +4 "$TMP/ev.cfg"
  printf '%s\n' "window_name weighted" "window_type composed" "window_identifiers 1 2" \
    "window_operation Weighted sum" "window_factors 2.0 10.0"
} > "$TMP/sum.cfg"
check weighted "0-100=2 100-150=8 150-300=18 300-400=12 400-700=22 700-1000=32" "$(intervals "$TMP/sum.cfg" "THREAD 1.1.1")"

# paramedir and analyze see the same functions.
(cd "$TMP" && "$BIN" --plugin "$EX" paramedir t.prv sq.cfg sq.csv >/dev/null)
# (object, begin, duration, value in microseconds)
check paramedir "$(printf '1.1.1\t0.00\t0.10\t1.00\n1.1.1\t0.10\t0.20\t4.00\n1.1.1\t0.30\t0.70\t1.00')" \
  "$(grep '^1.1.1' "$TMP/sq.csv")"

# A histogram over a window with a plug-in function (Time per value of State As Is squared,
# worked by hand: THREAD 1.1.1 has 1 on [0,100) and [300,1000), 4 on [100,300); THREAD 1.1.2 has
# 9 on [0,500), 1 on [500,1000); in microseconds).
{ cat "$TMP/sq.cfg"; printf '\n< NEW ANALYZER2D >\nAnalyzer2D.Name: hist\nAnalyzer2D.ControlWindow: 1\nAnalyzer2D.DataWindow: 1\nAnalyzer2D.Statistic: Time\nAnalyzer2D.Minimum: 0\nAnalyzer2D.Maximum: 10\nAnalyzer2D.Delta: 1\n'; } > "$TMP/sqh.cfg"
check histogram-plugin "$(printf 'THREAD 1.1.1\t0.80\t0.00\t0.00\t0.20\t0.00\t0.00\t0.00\t0.00\t0.00\nTHREAD 1.1.2\t0.50\t0.00\t0.00\t0.00\t0.00\t0.00\t0.00\t0.00\t0.50')" \
  "$("$BIN" --plugin "$EX" analyze "$TMP/t.prv" --cfg "$TMP/sqh.cfg" 2>&1 | grep '^THREAD')"

# Without the plug-in, a cfg naming its functions is unsupported.
if "$BIN" text "$TMP/t.prv" --cfg "$TMP/sq.cfg" --object "THREAD 1.1.1" 2>"$TMP/err" >/dev/null; then
  echo "FAIL a cfg with a plug-in function worked without the plug-in"; fail=1; fi
check unsupported-without "$TMP/sq.cfg:8:50: error: unsupported: Value squared at line 8" "$(head -1 "$TMP/err")"

# Broken plug-ins: refused before any command runs, exit 1, naming the library, with a hint.
refused() {  # name, library, expected first line
  local rc=0
  "$BIN" --plugin "$2" functions >/dev/null 2>"$TMP/err" || rc=$?
  check "$1-exit" 1 "$rc"
  check "$1-message" "$3" "$(head -1 "$TMP/err")"
  if ! grep -q '  hint: ' "$TMP/err"; then echo "FAIL $1: no hint"; fail=1; fi
}
refused version "$PLUGINS/libbad_version.so" \
  "parallax: error: cannot load plug-in $PLUGINS/libbad_version.so: it was built for plug-in ABI version 999, this Parallax has version 1"
refused no-entry "$PLUGINS/libbad_no_entry.so" \
  "parallax: error: cannot load plug-in $PLUGINS/libbad_no_entry.so: the library does not export parallax_plugin_register"
refused builtin "$PLUGINS/libbad_builtin.so" \
  "parallax: error: cannot load plug-in $PLUGINS/libbad_builtin.so: cannot add function 'As Is' (from $PLUGINS/libbad_builtin.so): a built-in function has this name"
refused latin1 "$PLUGINS/libbad_latin1.so" \
  "parallax: error: cannot load plug-in $PLUGINS/libbad_latin1.so: a function name is not UTF-8 ('Función')"
rc=0; PARALLAX_PLUGINS="$EX" "$BIN" --plugin "$PLUGINS/libbad_duplicate.so" functions >/dev/null 2>"$TMP/err" || rc=$?
check duplicate-exit 1 "$rc"
check duplicate-message "parallax: error: cannot load plug-in $PLUGINS/libbad_duplicate.so: cannot add function 'Value squared' (from $PLUGINS/libbad_duplicate.so): a function of $EX already has this name" "$(head -1 "$TMP/err")"
head -c 4096 /dev/zero > "$TMP/junk.so"
refused dlopen "$TMP/junk.so" \
  "parallax: error: cannot load plug-in $TMP/junk.so: $TMP/junk.so: invalid ELF header"
refused missing "$TMP/none.so" \
  "parallax: error: cannot load plug-in $TMP/none.so: $TMP/none.so: cannot open shared object file: No such file or directory"

# A kernel that fails makes the request fail with the function's name, not a crash.
cfg "$TMP/fails.cfg" "window_name fails" "window_type single" "window_level thread" \
  "window_selected_functions { 1, { {thread, State As Is} } }" \
  "window_compose_functions { 1, { {compose_thread, Always fails} } }"
rc=0; "$BIN" --plugin "$PLUGINS/libbad_kernel.so" text "$TMP/t.prv" --cfg "$TMP/fails.cfg" --object "THREAD 1.1.1" >/dev/null 2>"$TMP/err" || rc=$?
check kernel-exit 1 "$rc"
check kernel-message "$TMP/t.prv: error: plug-in function 'Always fails' ($PLUGINS/libbad_kernel.so) failed with code 7" "$(head -1 "$TMP/err")"
exit $fail
