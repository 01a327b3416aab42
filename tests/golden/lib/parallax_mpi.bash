# Sourced by the parallax-mpi golden tests. `mpi_setup "$@"` (the script's arguments: the
# parallax binary and the test data folder) sets BIN and DATA (absolute), MPI_BIN
# (parallax-mpi beside BIN) and OUT (a temporary folder removed at exit).
# `mpi N COMMAND...` runs COMMAND on N ranks
# (oversubscribed, allowed as root), passing ASAN_OPTIONS and the variables named in MPI_PASS.
# Under ASan, LeakSanitizer would report Open MPI's own allocations left at MPI_Finalize: leaks
# are not checked in the ranks (the single-process runs still are). Each run keeps its session
# folder in the test's OUT: two mpiruns starting at once in /tmp race to create the same
# /tmp/ompi.HOST.UID and one fails ("A call to mkdir was unable to create ...: File exists").
mpi() {
  local pass=(-x ASAN_OPTIONS) v
  for v in ${MPI_PASS:-}; do pass+=(-x "$v"); done
  ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" mpirun --allow-run-as-root --oversubscribe \
    --mca orte_tmpdir_base "${OUT:?}" "${pass[@]}" -np "$1" "${@:2}"
}

# `for n in $(mpi_ranks 1 2 3)`: the numbers of ranks a check runs with. In the cached and
# compact variants of a test (PARALLAX_TEST_VARIANT, each run twice) the last alone: what they
# add is ranks reading cached or compact records, which the largest number does with every
# rank reading a part; how threads and traces are dealt among 1, 2 and 3 ranks is the plain
# run's to check.
mpi_ranks() {
  if [[ -n ${PARALLAX_TEST_VARIANT:-} ]]; then echo "${@: -1}"; else echo "$@"; fi
}

mpi_setup() {
  BIN=$(realpath "$1")
  DATA=$(realpath "$2")
  MPI_BIN="$(dirname "$BIN")/parallax-mpi"
  OUT=$(mktemp -d)
  trap 'rm -rf "$OUT"' EXIT
}
