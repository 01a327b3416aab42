/* An MPI program with no tracing calls, traced with LD_PRELOAD=libparallax-mpi.so: a ring of
 * ping-pongs (blocking and non-blocking) between neighbours, then an allreduce per iteration.
 * Usage: mpirun -np 4 pxt_example_mpi [iterations] [work] [timing]. With N ranks and I
 * iterations it sends exactly 2*N*I point-to-point messages (N*I Send/Recv pairs and N*I
 * Isend/Irecv pairs) and calls MPI_Allreduce I times on every rank. With a third argument
 * `timing`, every rank prints the wall and cpu (user + system) time of its loop
 * (bench/tracing_mpi_overhead.sh). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static double CpuSeconds(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

static double Work(long n) {
  double x = 0;
  for (long i = 1; i <= n; ++i) x += 1.0 / ((double)i * (double)i);
  return x;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int iterations = argc > 1 ? atoi(argv[1]) : 10;
  long work = argc > 2 ? atol(argv[2]) : 100000;
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  double local = 0, global = 0, token[16] = {0}, incoming[16];
  int timing = argc > 3 && strcmp(argv[3], "timing") == 0;
  double wall0 = MPI_Wtime(), cpu0 = CpuSeconds();
  for (int it = 0; it < iterations; ++it) {
    local += Work(work * (rank + 1));
    /* Blocking ping-pong along the ring: even ranks send first. */
    if (rank % 2 == 0) {
      MPI_Send(token, 16, MPI_DOUBLE, next, 1, MPI_COMM_WORLD);
      MPI_Recv(incoming, 16, MPI_DOUBLE, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(incoming, 16, MPI_DOUBLE, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(token, 16, MPI_DOUBLE, next, 1, MPI_COMM_WORLD);
    }
    /* Non-blocking exchange the other way round. */
    MPI_Request req[2];
    MPI_Irecv(incoming, 8, MPI_DOUBLE, next, 2, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(token, 8, MPI_DOUBLE, prev, 2, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  if (timing)
    printf("timing rank %d loop %.6f s cpu %.6f s\n", rank, MPI_Wtime() - wall0,
           CpuSeconds() - cpu0);
  if (rank == 0) printf("global %.6f over %d ranks\n", global, size);
  MPI_Finalize();
  return 0;
}
