#!/usr/bin/env bash
# Commands ended by a signal (SIGTERM, SIGINT) while writing leave no temporary file and no
# partial output: each is stopped as soon as its temporary output appears (here or in a folder
# of its own; no timing involved), then the folder (also their TMPDIR) must hold nothing but the
# input.
set -euo pipefail
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
GEN=$(dirname "$BIN")/parallax-gen
WORK=$(mktemp -d /tmp/parallax_signals.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
fail=0
"$GEN" --size 64M --out "$WORK/g" > /dev/null
export PARALLAX_CACHE=off
export TMPDIR=$WORK  # a temporary folder a command makes for itself must not be left either

# Runs `parallax ARGS...`, sends SIG once a file matching the temporary pattern appears, and
# checks that the process ended by that signal and left only g.*.
stop_when_writing() {
  local sig=$1 name=$2; shift 2
  # Started with every signal at its default action (a background job of a script has SIGINT
  # ignored, and an ignored signal stays ignored).
  python3 -c 'import os, signal, sys
for s in (signal.SIGINT, signal.SIGTERM): signal.signal(s, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$BIN" "$@" > /dev/null 2>&1 &
  local pid=$! seen=0
  for _ in $(seq 1 3000); do
    if compgen -G '.*.tmp*' > /dev/null || compgen -G '*.tmp*' > /dev/null || compgen -G '*/.*.tmp*' > /dev/null; then
      seen=1; break
    fi
    kill -0 "$pid" 2> /dev/null || break
    sleep 0.01
  done
  kill -"$sig" "$pid" 2> /dev/null || true
  local status=0
  wait "$pid" || status=$?
  local left
  left=$(ls -A | grep -v '^g\.' | tr '\n' ' ' || true)
  if [ "$seen" = 1 ] && [ -z "$left" ] && [ "$status" -gt 128 ]; then
    echo "ok $name: stopped by SIG$sig while writing, nothing left"
  else
    echo "FAIL $name: seen=$seen status=$status left=[$left]"; fail=1
  fi
  rm -rf -- $(ls -A | grep -v '^g\.') 2> /dev/null || true
}

stop_when_writing TERM cut cut g.prv --from 0% --to 90% -o c.prv.gz
stop_when_writing INT filter filter g.prv --types 50000001 -o f.prv.gz
stop_when_writing TERM softcounters softcounters g.prv --interval 1000000 -o s.prv.gz
stop_when_writing TERM sort sort g.prv -o o.prv.gz
stop_when_writing TERM convert convert g.prv -o x.json
# A cut before the conversion is written into a folder of its own under TMPDIR: stopped while
# the cut is written there, the folder goes too.
stop_when_writing TERM convert-cut convert g.prv --from 10% --to 80% -o x.json
exit $fail
