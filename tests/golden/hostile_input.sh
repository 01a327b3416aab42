#!/usr/bin/env bash
# The CLI on damaged or hostile inputs: every case ends with a located message and a non-zero
# exit (or loads with the right diagnostic), never with an abort.
set -euo pipefail
BIN=$(realpath "$1")
DATA=$(realpath "$2")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0
check() {  # name, expected, actual
  if [[ "$2" != "$3" ]]; then echo "FAIL $1: expected [$2] got [$3]"; fail=1; else echo "ok $1"; fi
}
# Runs the CLI; prints its exit status (so an abort, 134, is visible), stderr goes to $TMP/err.
run() {
  set +e
  "$BIN" "$@" >"$TMP/out" 2>"$TMP/err"
  echo $?
  set -e
}
cd "$TMP"
cp "$DATA/profet/test1.prv" t.prv

# A .pcf colour with an empty component used to abort every command (std::out_of_range).
printf 'STATES_COLOR\n0 { ,0,0}\n' > t.pcf
check pcf-empty-colour-status 0 "$(run info t.prv)"
check pcf-empty-colour-diag "           t.pcf:2:5: colour '{ ,0,0}' is not {r,g,b} with r, g, b in 0..255; line ignored" \
  "$(grep 't.pcf:2' out)"
rm t.pcf

# A .row announcing 4294967295 labels used to abort (bad_alloc).
printf 'LEVEL THREAD SIZE 4294967295\nt1\n' > t.row
check row-huge-size-status 0 "$(run info t.prv)"
check row-huge-size-diag "           t.row:1:19: LEVEL THREAD announces 4294967295 labels but the file ends after 1" \
  "$(grep 't.row:1' out)"
rm t.row

# A .row whose SIZE differs from the trace's object count is reported (names are positional).
printf 'LEVEL THREAD SIZE 1\nonly\n' > t.row
check row-size-mismatch-status 0 "$(run info t.prv)"
check row-size-mismatch-diag "           t.row: LEVEL THREAD SIZE 1, the trace has 20: the objects without a name get Paraver's default names" \
  "$(grep 't.row: LEVEL THREAD' out)"
rm t.row

# Text named .gz is read as text (paramedir writes its outputs so); NUL bytes stop the load at once.
cp t.prv text.prv.gz
check text-named-gz-status 0 "$(run info text.prv.gz)"
head -c 100000 /dev/zero > zeros.prv
check nul-status 1 "$(run info zeros.prv)"
check nul-message "zeros.prv:1:1: error: binary data: a NUL byte at byte offset 0; a .prv trace is text" "$(head -1 err)"

# A truncated .gz loads with a diagnostic naming the byte; --strict refuses it.
gzip -nc t.prv | head -c 400 > cut.prv.gz
run info cut.prv.gz >/dev/null
# (the inflated offset depends on the deflate implementation; the compressed one does not)
check truncated-diag "           cut.prv.gz: the compressed data stops at byte 400 inside a gzip member" \
  "$(grep -o '.*inside a gzip member' out)"
check truncated-strict-status 1 "$(run info --strict cut.prv.gz)"
check truncated-strict-message "cut.prv.gz: error: compressed input cut short (the text after the cut is missing) (1 in all): the compressed data stops at byte 400 inside a gzip member" \
  "$(head -1 err | grep -o '.*inside a gzip member')"

# A memory limit too small to parse the trace: refused with both numbers; a bad size is a usage
# error. (--no-cache: a trace cache is mapped, not allocated, so it opens within any budget.)
check budget-status 1 "$(run --no-cache info t.prv --memory-limit 1K)"
# (the need depends on the size of the store's structures; the budget is what was asked)
check budget-message "t.prv: error: the trace does not fit in the memory budget: its records need about N KiB, the budget is 1.0 KiB" \
  "$(head -1 err | sed -E 's/about [0-9.]+ KiB/about N KiB/')"
check budget-env-status 1 "$(PARALLAX_MEMORY_LIMIT=1k run --no-cache info t.prv)"
check budget-bad-size "2" "$(run --memory-limit 2x info t.prv)"

# Every record rejected: the message names the first reason and its line.
printf '#Paraver (x):100:1(1):1:1(1:1)\n1:1:9:1:1:0:10:1\n' > rejected.prv
check rejected-status 1 "$(run info rejected.prv)"
check rejected-message "rejected.prv:2:3: error: empty body: every record was rejected (1 skipped); the first: records naming an application, task or thread not in the header (skipped): thread 9.1.1 is not declared in the header" "$(head -1 err)"

# Control bytes in quoted input are escaped.
printf '#Paraver (x):100:1(1):1:1(1:1)\n1:1:1:1:1:0:10:1\n1:1:1:1:1:0:10:\033[31m\n' > ctl.prv
run info ctl.prv >/dev/null
check escaped "           ctl.prv:3:16: expected a number, found '\\x1b'" "$(grep 'ctl.prv:3' out)"

# Output that cannot be written is an error, and nothing partial is left under a final name:
# the standard output on a full disk (/dev/full), and a file past the size limit (ulimit -f, the
# signal ignored, so that writes fail with EFBIG as on a full file system).
set +e
"$BIN" info t.prv > /dev/full 2> err; status=$?
set -e
check stdout-full-status 1 "$status"
check stdout-full-message "parallax: <stdout>: error: cannot write the standard output" "$(grep -o 'parallax: <stdout>: error: cannot write the standard output' err)"
cat > big.prv <<'PRV'
#Paraver (x):100000:1(1):1:1(1:1)
PRV
for i in $(seq 0 2000); do echo "1:1:1:1:1:$((i * 10)):$((i * 10 + 10)):$((i % 3))"; done >> big.prv
set +e
( ulimit -f 4; trap '' XFSZ; "$BIN" convert big.prv -o big.json ) 2> err; status=$?
set -e
check fsize-status 1 "$status"
check fsize-message "big.json: error: cannot write the output" "$(grep -o 'big.json: error: cannot write the output' err)"
check fsize-nothing-left "" "$(ls -A | grep -E '^big\.json|^\.big\.json' || true)"
set +e
( ulimit -f 4; trap '' XFSZ; "$BIN" convert big.prv -o bigout.prv ) 2> err; status=$?
set -e
check fsize-prv-status 1 "$status"
check fsize-prv-nothing-left "" "$(ls -A | grep -E 'bigout' || true)"
# The input itself as the output (any spelling of it) is refused, even with --force, and kept.
cp big.prv keep.prv
before=$(md5sum < keep.prv)
for cmd in "convert keep.prv -o ./keep.prv --force" "replay keep.prv -o keep.prv --force"; do
  set +e
  "$BIN" $cmd > /dev/null 2> err; status=$?
  set -e
  check "self-output-status ($cmd)" 1 "$status"
  check "self-output-message ($cmd)" "error: the output is the input itself" "$(grep -o 'error: the output is the input itself' err | head -1)"
done
check self-output-kept "$before" "$(md5sum < keep.prv)"

# A Latin-1 label (older Paraver setups) goes into JSON as UTF-8, not an internal error.
cp big.prv lat.prv
printf 'STATES\n0 Idle\n1 Ejecuci\xf3n\n' > lat.pcf
set +e
"$BIN" info --json lat.prv > out 2> err; status=$?
set -e
check latin1-json-status 0 "$status"
check latin1-json-label "Ejecución" "$(python3 -c 'import json,sys; print([s["label"] for s in json.load(open("out"))["state_values"] if s["id"] == 1][0])')"
# A 508-byte .json.gz whose otherData nests 200,000 arrays: the importer's DOM recursed once
# per level and every command died of a stack overflow (139). Now a located error.
{ printf '{"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":2}],"otherData":{"parallax":'
  head -c 200000 /dev/zero | tr '\0' '['; head -c 200000 /dev/zero | tr '\0' ']'; printf '}}'; } | gzip -9 > deep.json.gz
check deep-json-status 1 "$(run info deep.json.gz)"
check deep-json-message "deep.json.gz:1:294: error: otherData nests more than 200 arrays or objects in one another; expected at most 200 levels of nesting" \
  "$(head -1 err)"

# A JSON trace carrying Parallax's header (otherData.parallax) is checked like a .prv: a task on
# node 0 and records on cpu 65000 of a 1-cpu trace were loaded as they were, and a member of the
# wrong type was an "internal error".
pax() {  # header members, then the state's cpu
  printf '{"otherData":{"parallax":{%s}},\n"traceEvents":[\n{"ph":"X","pid":1,"tid":1,"name":"s","ts":0,"dur":0.01,"args":{"state":1,"cpu":%s}}\n]}\n' "$1" "$2"
}
pax '"appls":[[[1,0]]],"cpus_per_node":[1]' 1 > node0.json
check json-pax-node-status 1 "$(run info node0.json)"
check json-pax-node-message "node0.json:1:14: error: bad header in otherData.parallax.appls[0][0][1]: task 1.1 runs on node 0, but the header declares 1 nodes" \
  "$(head -1 err)"
pax '"appls":[[[1,1]]],"cpus_per_node":[1]' 65000 > cpu.json
check json-pax-cpu-status 1 "$(run info cpu.json)"
check json-pax-cpu-message "cpu.json:3:1: error: empty body: every record was rejected (1 skipped); the first: records naming a cpu not in the header (skipped): cpu 65000 does not exist (the header declares 1)" \
  "$(head -1 err)"
pax '"appls":[[[1,1]]],"cpus_per_node":[1],"unit":5' 1 > unit.json
check json-pax-type-status 1 "$(run info unit.json)"
check json-pax-type-message "unit.json:1:14: error: otherData.parallax.unit must be a string, not 5" "$(head -1 err)"

# A tracer file (.pxt) whose data chunk names thread 0xFFFFFFFF: merge sized its thread table
# with thread + 1, which wrapped to 0, and wrote past it (139). Ids are bounded now.
{ printf 'PXT1\0\0\0\0\377\377\377\377\0\0\0\0\0\0\0\0\0\0\0\0\3\0\0\0\0\0\0\0\2\0\1'
  printf 'PXT1\1\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\25\0\0\0\0\0\0\0process 0 1 1 1 0 10\n'; } > wrap.pxt
check pxt-thread-status 1 "$(run merge wrap.pxt -o wrap.prv)"
check pxt-thread-message "parallax merge: wrap.pxt: the chunk at byte 0 names thread 4294967295; a process has at most 1048576 threads (the file is damaged: trace the program again)" \
  "$(head -1 err)"

# Image sizes beyond int32 wrapped (--height 2147483648 gave an empty 83-byte image).
check height-status 1 "$(run timeline t.prv --height 2147483648 -o tall.png)"
check height-message "error: image height 2147483648 is beyond the maximum of 65535 pixels" "$(head -1 err | sed 's/^.*prv: //')"
check height-no-file 0 "$(ls tall.png 2>/dev/null | wc -l)"

# Named pipes (FIFOs) where a file is expected blocked the load forever in open(2): as the trace,
# beside it (.pcf, .row, the cache's seal), in an OTF2 archive, as a cfg. Only regular files are
# read now; each case must end within the timeout (124: it hung).
bounded() {  # runs the CLI under a timeout, like run
  set +e
  timeout 30 "$BIN" "$@" >"$TMP/out" 2>"$TMP/err"
  echo $?
  set -e
}
not_regular="error: is a named pipe (FIFO), not a regular file: not read"
for name in pipe.prv pipe.prv.gz pipe.json; do
  mkfifo "$name"
  check "fifo-trace-$name-status" 1 "$(bounded info "$name")"
  check "fifo-trace-$name-message" "$name: $not_regular" "$(head -1 err)"
done
mkfifo t.pcf t.row
check fifo-companions-status 0 "$(bounded info t.prv)"
check fifo-companions-labels "labels       .pcf no, .row no" "$(grep '^labels' out)"
check fifo-companions-warning "parallax: warning: t.prv: companion file not readable (first: t.pcf: $not_regular" \
  "$(head -1 err)"
rm t.pcf t.row
mkfifo pipe.cfg
check fifo-cfg-status 1 "$(bounded timeline t.prv --cfg pipe.cfg -o x.png)"
check fifo-cfg-message "pipe.cfg: $not_regular" "$(head -1 err)"
mkdir seal && cp t.prv seal/
check fifo-seal-first 0 "$(bounded --cache --cache-dir beside info seal/t.prv)"
rm seal/t.prv.pxc.ok && mkfifo seal/t.prv.pxc.ok
check fifo-seal-status 0 "$(bounded --cache --cache-dir beside info seal/t.prv)"
check fifo-seal-cache "cache        $TMP/seal/t.prv.pxc (read)" "$(grep '^cache' out)"
mkfifo pipe.pxt
check fifo-pxt-status 1 "$(bounded merge pipe.pxt -o merged.prv)"
check fifo-pxt-message "parallax merge: pipe.pxt: cannot open: not a regular file (a pipe or a device?)" "$(head -1 err)"
# A tracer file whose module map names a pipe: the merge's symbolizer opened it (libdw) to
# resolve a code address and blocked there. Objects are opened as regular files only now.
mkfifo pipe.so
meta="process 0 1 1 1 0 10
module 4096 8192 0 $TMP/pipe.so
"
{ printf 'PXT1\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\6\0\0\0\0\0\0\0\012\005\350\007\200\040'
  printf 'PXT1\1\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0'
  printf "$(printf '\\%03o' "${#meta}")\0\0\0\0\0\0\0"; printf '%s' "$meta"; } > module.pxt
check fifo-module-status 0 "$(bounded merge module.pxt -o module.prv)"
if [[ -d "$DATA/otf2/ping-pong-otf2" ]] && "$BIN" info "$DATA/otf2/ping-pong-otf2/traces.otf2" >/dev/null 2>&1; then
  cp -r "$DATA/otf2/ping-pong-otf2" pp
  rm pp/traces/1.evt && mkfifo pp/traces/1.evt
  check fifo-otf2-status 1 "$(bounded info pp/traces.otf2)"
  check fifo-otf2-message "pp/traces/1.evt: error: is a named pipe (FIFO), not a regular file: the OTF2 archive is not read" \
    "$(head -1 err)"
fi

exit $fail
