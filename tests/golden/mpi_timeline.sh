#!/usr/bin/env bash
# `mpirun -np N parallax-mpi timeline TRACE --cfg CFG -o OUT.png`: the ranks fold their share of
# the rows and rank 0 writes the same image, byte for byte, as `parallax timeline` (plain and
# derived windows, task and thread levels, communication lines, flags, a fitted gradient, a
# portion, SVG), with 1, 2 and 3 ranks (oversubscribed); the other ranks write nothing. A
# missing cfg fails the run with a message instead of hanging. Runs with the trace cache off and
# on (golden_cached.*).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib/parallax_mpi.bash"
mpi_setup "$@"
EPOCH=$DATA/epoch/epoch_4proc.prv.gz
VIEWS=$DATA/cfg/bsc

check() {  # name, extension, trace, timeline arguments...
  local name=$1 ext=$2 trace=$3 n
  shift 3
  mkdir -p "$OUT/$name"
  "$BIN" timeline "$trace" "$@" -o "$OUT/$name/single.$ext" >/dev/null 2>&1
  [[ $(stat -c %s "$OUT/$name/single.$ext") -gt 500 ]] || { echo "FAIL $name: the single run wrote too little"; exit 1; }
  for n in $(mpi_ranks 1 2 3); do
    (cd "$OUT/$name" && mpi "$n" "$MPI_BIN" timeline "$trace" "$@" -o "np$n.$ext" >"np$n.out" 2>"np$n.err") ||
      { echo "FAIL $name: $n ranks exited non-zero"; cat "$OUT/$name/np$n.err"; exit 1; }
    cmp -s "$OUT/$name/single.$ext" "$OUT/$name/np$n.$ext" ||
      { echo "FAIL $name: $n ranks' image differs from the single process'"; exit 1; }
    [[ $(wc -l <"$OUT/$name/np$n.out") -eq 1 ]] || { echo "FAIL $name: $n ranks printed more than rank 0's line"; cat "$OUT/$name/np$n.out"; exit 1; }
  done
  local runs=($(mpi_ranks 1 2 3))
  [[ $(find "$OUT/$name" -name "*.$ext" | wc -l) -eq $((1 + ${#runs[@]})) ]] || { echo "FAIL $name: other files written"; ls "$OUT/$name"; exit 1; }
  echo "ok $name: identical with $(mpi_ranks 1 2 3 | sed "s/ /, /g") ranks"
}

check mpi-call png "$EPOCH" --cfg "$VIEWS/mpi/views/MPI_call.cfg"
# Derived windows (composed of two), gradient colours, at thread and task level.
check derived-duration png "$EPOCH" --cfg "$VIEWS/mpi/views/MPI_call_duration.cfg"
check derived-task png "$EPOCH" --cfg "$VIEWS/General/views/User_function_excl_MPI.cfg" --width 700
# Communication lines from the cfg, and flags with lines on the default State As Is window.
check comm-lines png "$EPOCH" --cfg "$VIEWS/mpi/views/mpi_msg_size.cfg"
check states-comms-flags png "$EPOCH" --comms --flags --from 20% --to 45%
# More rows than ranks on the OpenMP trace: a fitted gradient, fewer pixels than rows.
check omp-fit png "$DATA/omp/omp2.prv.gz" --thread-function "Useful" --color-mode gradient --fit --height 120
check svg svg "$EPOCH" --cfg "$VIEWS/mpi/views/MPI_call.cfg" --background white

if (cd "$OUT" && mpi 2 "$MPI_BIN" timeline "$EPOCH" --cfg "$OUT/missing.cfg" -o bad.png >/dev/null 2>"$OUT/bad.err"); then
  echo "FAIL bad: a missing cfg did not fail the run"; exit 1
fi
grep -q "missing.cfg" "$OUT/bad.err" || { echo "FAIL bad: no message naming the cfg"; cat "$OUT/bad.err"; exit 1; }
[[ ! -e "$OUT/bad.png" ]] || { echo "FAIL bad: an image was written"; exit 1; }
# An existing image is not replaced without --force (rank 0 says so).
if (cd "$OUT/mpi-call" && mpi 2 "$MPI_BIN" timeline "$EPOCH" --cfg "$VIEWS/mpi/views/MPI_call.cfg" -o single.png >/dev/null 2>"$OUT/exists.err"); then
  echo "FAIL exists: an existing image was replaced"; exit 1
fi
grep -q "exists (use --force" "$OUT/exists.err" || { echo "FAIL exists: no message"; cat "$OUT/exists.err"; exit 1; }
echo "ok bad cfg and existing image: exit status non-zero with a message"
