/* Call stacks of MPI calls (tests/golden/tracing_callers.sh): rank 0 sends through the chain
 * main -> a -> b -> MPI_Send, rank 1 receives in main. Built with -O0 -g so that every call is
 * a real call (no inlining, no tail calls) and each has its line; the test's expected lines are
 * the ones marked here. */
#include <mpi.h>

static int payload[4] = {1, 2, 3, 4};

__attribute__((noinline)) void b(int peer) {
  MPI_Send(payload, 4, MPI_INT, peer, 7, MPI_COMM_WORLD); /* line 10: level 1 of MPI_Send */
}

__attribute__((noinline)) void a(int peer) {
  b(peer); /* line 14: level 2 of MPI_Send */
}

int main(int argc, char** argv) {
  int rank;
  MPI_Init(&argc, &argv); /* line 19 */
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    a(1); /* line 22: level 3 of MPI_Send */
  else
    MPI_Recv(payload, 4, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* line 24 */
  MPI_Finalize(); /* line 25 */
  return 0;
}
