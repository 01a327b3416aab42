# Sourced by the parallax-mpi golden tests: `mpi N COMMAND...` runs COMMAND on N ranks
# (oversubscribed, allowed as root), passing ASAN_OPTIONS and the variables named in MPI_PASS.
# Under ASan, LeakSanitizer would report Open MPI's own allocations left at MPI_Finalize: leaks
# are not checked in the ranks (the single-process runs still are).
mpi() {
  local pass=(-x ASAN_OPTIONS) v
  for v in ${MPI_PASS:-}; do pass+=(-x "$v"); done
  ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" mpirun --allow-run-as-root --oversubscribe \
    "${pass[@]}" -np "$1" "${@:2}"
}
