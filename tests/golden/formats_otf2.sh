#!/usr/bin/env bash
# OTF2 on the command line: pipit's Score-P ping-pong archive analysed with BSC's MPI cfg (the
# MPI_Send and MPI_Recv percentages checked against sums computed from otf2-print's listing),
# prv -> otf2 -> prv through `convert`, otf2-print on Parallax's archive, and the errors.
# Skips when Parallax was built without libotf2.
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
PP="$DATA/otf2/ping-pong-otf2"
if ! "$BIN" convert "$PP/traces.otf2" -o pp.prv 2>err; then
  if grep -q "built without OTF2 support" err; then echo "skip: built without libotf2"; exit 0; fi
  cat err; exit 1
fi

# The folder names the archive too; info sees 2 threads and 16 messages.
got=$("$BIN" info --json "$PP" | python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["threads"], j["comms"])')
check info "2 16" "$got"

# % of time in MPI_Send / MPI_Recv per rank (mpi_stats.cfg), and the same from otf2-print:
# the sum of each call's Leave - Enter over the time from the clock offset to the last event.
"$BIN" analyze --cfg "$DATA/cfg/bsc/mpi/analysis/mpi_stats.cfg" pp.prv --format csv > stats.csv
got=$(python3 -c '
import csv
rows = list(csv.reader(open("stats.csv")))
h = rows[0]
print(" ".join(f"{rows[r][h.index(c)]}" for r in (1, 2) for c in ("MPI_Send", "MPI_Recv")))')
if command -v otf2-print >/dev/null; then
  want=$(otf2-print "$PP/traces.otf2" | awk '
    $1 == "ENTER" || $1 == "LEAVE" || $1 == "PROGRAM_END" { if ($3 > last) last = $3 }
    $1 == "ENTER" && /"MPI_(Send|Recv)"/ { begin[$2] = $3 }
    $1 == "LEAVE" && /"MPI_Send"/ { send[$2] += $3 - begin[$2] }
    $1 == "LEAVE" && /"MPI_Recv"/ { recv[$2] += $3 - begin[$2] }
    END { span = last - 7397466976977800
          printf "%.2f %.2f %.2f %.2f", 100 * send[0] / span, 100 * recv[0] / span, 100 * send[1] / span, 100 * recv[1] / span }')
  check mpi-stats "$want" "$got"

  # Parallax's archive opens in otf2-print: one MPI_SEND per message of the input.
  "$BIN" convert "$DATA/epoch/epoch_2proc.prv.gz" -o e.otf2
  comms=$("$BIN" info --json "$DATA/epoch/epoch_2proc.prv.gz" | python3 -c 'import json,sys; print(json.load(sys.stdin)["comms"])')
  check otf2-print "$comms" "$(otf2-print e.otf2 | grep -c '^MPI_SEND ')"
else
  check mpi-stats "0.89 0.86 0.86 0.60" "$got"
  "$BIN" convert "$DATA/epoch/epoch_2proc.prv.gz" -o e.otf2
fi

# prv -> otf2 -> prv gives the same .prv bytes (the archive keeps Parallax's header and labels).
"$BIN" convert "$DATA/epoch/epoch_2proc.prv.gz" -o a.prv
"$BIN" convert e.otf2 -o b.prv
check otf2-round-trip "$(md5sum < a.prv)" "$(md5sum < b.prv)"
check otf2-round-trip-pcf "$(md5sum < a.pcf)" "$(md5sum < b.pcf)"

# Errors: an existing archive, a truncated anchor file.
if "$BIN" convert "$DATA/epoch/epoch_2proc.prv.gz" -o e.otf2 2>err; then echo "FAIL existing archive replaced"; fail=1; fi
check existing-archive "e.otf2: error: output exists" "$(grep -v '^\[OTF2\]' err | head -1)"
"$BIN" convert "$DATA/epoch/epoch_2proc.prv.gz" -o e.otf2 --force
cp -r "$PP" broken && truncate -s 40 broken/traces.otf2
if "$BIN" info broken/traces.otf2 >/dev/null 2>err; then echo "FAIL truncated anchor accepted"; fail=1; fi
check truncated-anchor "1" "$(grep -v '^\[OTF2\]' err | grep -c 'broken/traces.otf2: error: ')"
exit $fail
