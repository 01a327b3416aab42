#!/usr/bin/env bash
# libparallax-mpi.so with libparallax-pthread.so on 2 MPI ranks: Open MPI's own helper threads
# (progress, PMIx, libevent) are hidden, so each task has only the program's thread; with
# PXT_SHOW_RUNTIME_THREADS=1 they are traced (the run proves they exist, so the first check can
# fail). Skipped when MPI is not built.
set -euo pipefail
BIN=$1
source "$(dirname "$0")/lib/mpi_env.bash"
BOTH="$PRELOAD:$BUILD/lib/libparallax-pthread.so"
for show in 0 1; do
  mpirun --allow-run-as-root --oversubscribe -np 2 -x LD_PRELOAD="$BOTH" -x PXT_SHOW_RUNTIME_THREADS=$show \
    -x PXT_OUTPUT_DIR="$OUT" -x PXT_OUTPUT_NAME=show$show "$BUILD/bin/pxt_example_mpi" 2 100 \
    >/dev/null 2>"$OUT/stderr$show"
done
hidden=$(sed -n 's/.*merged 2 processes, \([0-9]*\) threads.*/\1/p' "$OUT/stderr0")
shown=$(sed -n 's/.*merged 2 processes, \([0-9]*\) threads.*/\1/p' "$OUT/stderr1")
[ "$hidden" = 2 ] || { echo "tracing_mpi_helpers: $hidden threads with helpers hidden, expected 2"; cat "$OUT/stderr0"; exit 1; }
[ "${shown:-0}" -gt 2 ] || { echo "tracing_mpi_helpers: helper threads not visible when asked ($shown threads)"; exit 1; }
echo "ok MPI runtime threads: hidden ($hidden threads), shown on request ($shown threads)"
