/* Collectives (blocking, v- and w-, reduce-scatter, scans, non-blocking ones completed by the
 * Wait/Test families), communicator creation, one-sided transfers and MPI-IO, for the golden
 * test tests/golden/tracing_mpi_coll.sh, which knows the bytes each rank must show for each
 * call. Run on exactly 4 ranks; argv[1] is a folder for the MPI-IO file. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define N 4 /* ranks */

static int rank, a[64], b[64];
static int counts[N], displs[N], ones[N], seq[N], byte_displs[N];
static MPI_Datatype types[N];

static void Blocking(MPI_Comm w) {
  MPI_Barrier(w);
  MPI_Bcast(a, 8, MPI_INT, 0, w);
  MPI_Reduce(a, b, 4, MPI_INT, MPI_SUM, 1, w);
  MPI_Allreduce(a, b, 2, MPI_INT, MPI_SUM, w);
  MPI_Gather(a, 1, MPI_INT, b, 1, MPI_INT, 0, w);
  MPI_Gatherv(a, rank + 1, MPI_INT, b, counts, displs, MPI_INT, 0, w);
  MPI_Scatter(a, 2, MPI_INT, b, 2, MPI_INT, 2, w);
  MPI_Scatterv(a, counts, displs, MPI_INT, b, rank + 1, MPI_INT, 0, w);
  MPI_Allgather(a, 3, MPI_INT, b, 3, MPI_INT, w);
  MPI_Allgatherv(a, rank + 1, MPI_INT, b, counts, displs, MPI_INT, w);
  MPI_Alltoall(a, 1, MPI_INT, b, 1, MPI_INT, w);
  MPI_Alltoallv(a, ones, seq, MPI_INT, b, ones, seq, MPI_INT, w);
  MPI_Alltoallw(a, ones, byte_displs, types, b, ones, byte_displs, types, w);
  MPI_Reduce_scatter(a, b, counts, MPI_INT, MPI_SUM, w);
  MPI_Reduce_scatter_block(a, b, 2, MPI_INT, MPI_SUM, w);
  MPI_Scan(a, b, 1, MPI_INT, MPI_SUM, w);
  MPI_Exscan(a, b, 1, MPI_INT, MPI_SUM, w);
}

static void NonBlocking(MPI_Comm w) {
  MPI_Request r[4];
  int flag = 0, index, out, indices[4], done = 0;
  MPI_Ibarrier(w, &r[0]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  MPI_Ibcast(a, 8, MPI_INT, 0, w, &r[0]);
  while (!flag) MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE);
  MPI_Iallreduce(a, b, 2, MPI_INT, MPI_SUM, w, &r[0]);
  MPI_Ireduce(a, b + 8, 4, MPI_INT, MPI_SUM, 1, w, &r[1]);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  MPI_Iallgather(a, 3, MPI_INT, b, 3, MPI_INT, w, &r[0]);
  MPI_Ialltoall(a, 1, MPI_INT, b + 16, 1, MPI_INT, w, &r[1]);
  while (done < 2) {
    MPI_Waitsome(2, r, &out, indices, MPI_STATUSES_IGNORE);
    done += out;
  }
  MPI_Igatherv(a, rank + 1, MPI_INT, b, counts, displs, MPI_INT, 0, w, &r[0]);
  MPI_Waitany(1, r, &index, MPI_STATUS_IGNORE);
  MPI_Iscan(a, b, 1, MPI_INT, MPI_SUM, w, &r[0]);
  for (flag = 0; !flag;) MPI_Testall(1, r, &flag, MPI_STATUSES_IGNORE);
  MPI_Iexscan(a, b, 1, MPI_INT, MPI_SUM, w, &r[0]);
  for (flag = 0; !flag;) MPI_Testany(1, r, &index, &flag, MPI_STATUS_IGNORE);
  MPI_Ireduce_scatter_block(a, b, 2, MPI_INT, MPI_SUM, w, &r[0]);
  for (out = 0; out == 0 || out == MPI_UNDEFINED;)
    MPI_Testsome(1, r, &out, indices, MPI_STATUSES_IGNORE);
}

/* One collective on each created communicator (sizes 4, 2, 3, 2, 4). */
static void Communicators(void) {
  MPI_Comm dup, half, three, cart, row, graph;
  MPI_Group world_group, first3;
  int ranks3[3] = {0, 1, 2}, dims[2] = {2, 2}, periods[2] = {0, 0}, keep[2] = {0, 1};
  int src = (rank + N - 1) % N, dst = (rank + 1) % N, weight = 1;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Allreduce(a, b, 1, MPI_INT, MPI_SUM, dup);
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Allreduce(a, b, 1, MPI_INT, MPI_SUM, half);
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  MPI_Group_incl(world_group, 3, ranks3, &first3);
  MPI_Comm_create(MPI_COMM_WORLD, first3, &three);
  if (three != MPI_COMM_NULL) {
    MPI_Barrier(three);
    MPI_Comm_free(&three);
  }
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  MPI_Cart_sub(cart, keep, &row);
  MPI_Bcast(a, 1, MPI_INT, 0, row);
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &src, &weight, 1, &dst, &weight, MPI_INFO_NULL,
                                 0, &graph);
  MPI_Barrier(graph);
  MPI_Comm_free(&graph);
  MPI_Comm_free(&row);
  MPI_Comm_free(&cart);
  MPI_Group_free(&first3);
  MPI_Group_free(&world_group);
  MPI_Comm_free(&half);
  MPI_Comm_free(&dup);
}

static void OneSided(void) {
  MPI_Win win;
  int target = (rank + 1) % N, source = (rank + N - 1) % N;
  MPI_Win_create(b, 64 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_fence(0, win);
  MPI_Put(a, 2, MPI_INT, target, 0, 2, MPI_INT, win);
  MPI_Win_fence(0, win);
  MPI_Get(a, 1, MPI_INT, source, 0, 1, MPI_INT, win);
  MPI_Win_fence(0, win);
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
  MPI_Accumulate(a, 1, MPI_INT, 0, 8, 1, MPI_INT, MPI_SUM, win);
  MPI_Win_unlock(0, win);
  MPI_Win_free(&win);
}

static void FileIo(const char* folder) {
  char path[4096];
  MPI_File fh;
  snprintf(path, sizeof path, "%s/mpi_coll.dat", folder);
  MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
  MPI_File_write_at(fh, rank * 16, a, 4, MPI_INT, MPI_STATUS_IGNORE);
  MPI_File_read_at_all(fh, rank * 16, b, 4, MPI_INT, MPI_STATUS_IGNORE);
  MPI_File_close(&fh);
}

int main(int argc, char** argv) {
  int i, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != N || argc < 2) {
    if (rank == 0) fprintf(stderr, "mpi_coll: run on %d ranks with a folder argument\n", N);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  for (i = 0; i < 64; ++i) a[i] = i;
  for (i = 0; i < N; ++i) {
    counts[i] = i + 1;
    displs[i] = i == 0 ? 0 : displs[i - 1] + counts[i - 1];
    ones[i] = 1;
    seq[i] = i;
    byte_displs[i] = i * (int)sizeof(int);
    types[i] = MPI_INT;
  }
  Blocking(MPI_COMM_WORLD);
  NonBlocking(MPI_COMM_WORLD);
  Communicators();
  OneSided();
  FileIo(argv[1]);
  if (rank == 0) printf("mpi_coll: done\n");
  MPI_Finalize();
  return 0;
}
