#!/usr/bin/env bash
# Every case of ../shared/testdata/oracles/paramedir-tools-r3: what the real paramedir wrote for
# 23 parameter files (the cutter at every option combination, a cut by percentage, two
# filters, software counters) on 7 real traces. Each case runs the same command line the
# oracle was made with (`paramedir -c|-f|-s t.prv CASE.xml -o out.prv`, in a folder holding the
# trace as t.prv with its .pcf and .row) and compares the .prv (without the provenance line),
# the .pcf and the .row. The documented differences (docs/compatibility.md, "Trace tools") are
# checked here as what Parallax writes instead.
#
# Usage: paramedir_tools_r3.sh PARALLAX TESTDATA [CASE-FILTER]
# TESTDATA is tests/data (the traces); the oracles are in the shared test data beside the clone
# (../shared/testdata, or $PARALLAX_SHARED_TESTDATA); without them the test is skipped (exit
# 77). With VERBOSE=1 each failing case prints the first lines of its diff, KEEP=1 keeps the
# work folder.
set -euo pipefail
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
PARAMEDIR=$(dirname "$BIN")/paramedir
DATA=$(cd "$2" && pwd)
only=${3:-}
SHARED=${PARALLAX_SHARED_TESTDATA:-$DATA/../../../shared/testdata}
ORACLES=$SHARED/oracles/paramedir-tools-r3
if [ ! -d "$ORACLES" ]; then echo "SKIP: no $ORACLES"; exit 77; fi
ORACLES=$(cd "$ORACLES" && pwd)
WORK=$(mktemp -d /tmp/parallax_tools_r3.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT

trace_of() {  # oracle folder -> trace path without its .prv[.gz]
  case $1 in
    compss_cholesky) echo "$DATA/compss_cholesky/cholesky_autoparallel" ;;
    epoch_*) echo "$DATA/epoch/$1" ;;
    lulesh_7p1) echo "$DATA/profet/lulesh_7+1_with_uncores_sockets1+2.chop8" ;;
    omp2) echo "$DATA/omp/omp2" ;;
    profet_test1) echo "$DATA/profet/test1" ;;
    *) echo "unknown oracle folder $1" >&2; return 1 ;;
  esac
}
# The provenance line of this run holds a date and a path (compared without it, as the oracles'
# README says; the provenance lines of the input are kept).
norm() { sed -E '/^#[0-9]+:CUTTER:ORIGINAL:"[^"]*\/t\.prv":/d'; }
# Documented: software counters write the input's '#' lines with their newline, the reference
# without (the next line is glued to them).
glue_comments() { awk '/^#/ && NR > 1 { printf "%s", $0; next } { print }'; }

pass=0 failed=0 documented=0
for dir in "$ORACLES"/*/; do
  name=$(basename "$dir")
  base=$(trace_of "$name")
  run=$WORK/$name
  mkdir -p "$run"
  if [ -f "$base.prv" ]; then cp "$base.prv" "$run/t.prv"; else zcat "$base.prv.gz" > "$run/t.prv"; fi
  cp "$base.pcf" "$run/t.pcf"
  [ -f "$base.row" ] && cp "$base.row" "$run/t.row"
  for xml in "$dir"*.xml; do
    case=$(basename "$xml" .xml)
    [ -n "$only" ] && [[ "$name/$case" != *$only* ]] && continue
    case $case in cut.*) flag=-c ;; filter.*) flag=-f ;; sc.*) flag=-s ;; esac
    out=$run/$case
    mkdir -p "$out"
    rc=0
    ( cd "$run" && "$PARAMEDIR" "$flag" t.prv "$xml" -o "$out/out.prv" ) > "$out/log" 2>&1 || rc=$?
    why="" doc=""
    [ "$rc" = "$(cat "$dir$case.rc")" ] || why="exit $rc"
    expected=$out/expected.prv
    zcat "$dir$case.prv.gz" | norm > "$expected"
    # Documented: a cut holding no record gets the end time 0, where the reference writes the
    # difference of two unset times (a wrapped negative number).
    if [[ $case == cut.* ]] && head -1 "$expected" | grep -qE '^#Paraver \([^)]*\):1[0-9]{19}(_ns)?:'; then
      sed -i -E '1s/^(#Paraver \([^)]*\)):[0-9]+/\1:0/' "$expected"
      doc="empty cut"
    fi
    if [ "$case" = cut.pct ]; then
      # Documented: the reference writes the header's end time with the percentage applied
      # twice; Parallax writes the cut's length (the body's times are the reference's).
      head -1 "$expected" | grep -qE '^#Paraver \(.*\):[0-9]+(_ns)?:' || why="$why header"
      sed -i -E '1s/^(#Paraver \([^)]*\)):[0-9]+/\1:END/' "$expected"
      doc="$doc percentage header"
    fi
    if [ -f "$out/out.prv" ]; then
      actual=$out/actual.prv
      norm < "$out/out.prv" > "$actual"
      if [[ $case == sc.* ]]; then
        glue_comments < "$actual" > "$actual.g"
        cmp -s "$actual" "$actual.g" || doc="$doc comment newlines"
        mv "$actual.g" "$actual"
      fi
      [ "$case" = cut.pct ] && sed -i -E '1s/^(#Paraver \([^)]*\)):[0-9]+/\1:END/' "$actual"
      cmp -s "$expected" "$actual" || why="$why prv"
    else
      why="$why no-output"
    fi
    cmp -s "$dir$case.pcf" "$out/out.pcf" || why="$why pcf"
    if [ -f "$dir$case.row" ]; then cmp -s "$dir$case.row" "$out/out.row" || why="$why row"
    elif [ -f "$out/out.row" ]; then why="$why extra-row"; fi
    if [ -z "$why" ]; then
      pass=$((pass + 1))
      if [ -n "$doc" ]; then
        documented=$((documented + 1))
        [ "${VERBOSE:-0}" = 1 ] && echo "ok $name/$case (documented:$doc)"
      fi
      rm -rf "$out"
    else
      failed=$((failed + 1))
      echo "FAIL $name/$case:$why"
      if [ "${VERBOSE:-0}" = 1 ] && [ -f "$out/out.prv" ]; then
        diff "$expected" "$actual" | head -${DIFFLINES:-8} || true
      fi
    fi
  done
  rm -f "$run/t.prv"
done
echo "paramedir-tools-r3: $pass identical ($documented of them with a documented difference), $failed different"
[ "$failed" = 0 ]
