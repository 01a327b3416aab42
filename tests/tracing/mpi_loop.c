/* A time-stepping MPI program for tests/golden/tracing_structure.sh: `pxt_test_mpi_loop N`
 * runs an irregular start-up (a broadcast, a barrier, two reductions around uneven work), then
 * N time steps of { computation (uneven across ranks), halo exchange with both ring neighbours
 * by Irecv/Isend/Waitall, MPI_Allreduce of the time step }, with an extra MPI_Reduce (a
 * "checkpoint") every 5th step, then a barrier and MPI_Finalize. The number of time steps is
 * what `parallax structure` must find in its trace. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static volatile double sink;

/* About `units` thousand floating-point operations. */
static void Compute(long units) {
  double x = 1.0;
  for (long i = 0; i < units * 1000; ++i) x = x * 1.0000001 + 1e-9;
  sink = x;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int steps = argc > 1 ? atoi(argv[1]) : 20;
  int config = 0;
  if (rank == 0) config = steps;
  MPI_Bcast(&config, 1, MPI_INT, 0, MPI_COMM_WORLD);
  Compute(2000 + 500 * rank);
  MPI_Barrier(MPI_COMM_WORLD);
  double local = rank, total = 0;
  MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  Compute(200);
  MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  double halo_out[2][256], halo_in[2][256];
  for (int i = 0; i < 256; ++i) halo_out[0][i] = halo_out[1][i] = rank;
  for (int step = 0; step < config; ++step) {
    Compute(3000 + 600 * rank + 400 * (step % 3));
    MPI_Request req[4];
    MPI_Irecv(halo_in[0], 256, MPI_DOUBLE, prev, 1, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(halo_in[1], 256, MPI_DOUBLE, next, 2, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(halo_out[0], 256, MPI_DOUBLE, next, 1, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(halo_out[1], 256, MPI_DOUBLE, prev, 2, MPI_COMM_WORLD, &req[3]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    double dt = 1.0 / (1 + step + rank), min_dt = 0;
    MPI_Allreduce(&dt, &min_dt, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    if (step % 5 == 4) {
      double energy = step, sum = 0;
      MPI_Reduce(&energy, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("%d steps\n", config);
  MPI_Finalize();
  return 0;
}
