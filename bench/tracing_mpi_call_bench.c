/* Cost of the MPI wrappers of libparallax-mpi.so per call and per trace event, measured in the
 * thread's cpu time (CLOCK_THREAD_CPUTIME_ID), which a loaded machine disturbs far less than wall
 * time: one rank runs ITERATIONS rounds of calls that never wait (MPI_Isend to itself, MPI_Recv
 * of that message, MPI_Wait, MPI_Iprobe that finds nothing, MPI_Allreduce on MPI_COMM_WORLD of one
 * rank), so the loop is the MPI library's own cost plus, when preloaded, the tracer's. Prints the
 * cpu ns per round; bench/tracing_mpi_overhead.sh runs it untraced and traced (with and without
 * call sites) and divides the difference by the events the trace holds per round.
 * Usage: mpirun -np 1 parallax_tracing_mpi_call_bench [ITERATIONS] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double ThreadCpuNs(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  long iterations = argc > 1 ? atol(argv[1]) : 100000;
  int rank, flag;
  double out = 1, in = 0, sum = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Request r;
  double t0 = ThreadCpuNs();
  for (long i = 0; i < iterations; ++i) {
    MPI_Isend(&out, 1, MPI_DOUBLE, rank, 1, MPI_COMM_WORLD, &r);
    MPI_Recv(&in, 1, MPI_DOUBLE, rank, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Iprobe(rank, 2, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    MPI_Allreduce(&in, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  double t1 = ThreadCpuNs();
  printf("cpu ns per round %.1f (%ld rounds of 5 MPI calls)\n", (t1 - t0) / (double)iterations,
         iterations);
  MPI_Finalize();
  return 0;
}
