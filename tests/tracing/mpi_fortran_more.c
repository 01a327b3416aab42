/* The C twin of tests/tracing/mpi_fortran_more.f90 (`use mpi`) and mpi_fortran_more08.f90
 * (`use mpi_f08`), for tests/golden/tracing_mpi_fortran_more.sh: the same MPI calls in the same
 * order, so the three traces must hold the same records. Run on exactly 4 ranks with a folder
 * argument (MPI-IO file). Covers neighbourhood collectives, non-blocking, v- and w-collectives,
 * one-sided (fence epoch with Put/Get, lock/unlock with Accumulate, lock_all with Fetch_and_op
 * and Compare_and_swap, Win_allocate, a post/start/complete/wait epoch with Rput, Rget and
 * Get_accumulate), MPI-IO (explicit offsets and the individual file pointer, blocking,
 * collective and non-blocking), matched probes, Sendrecv_replace and the communicator
 * constructors: every call the Fortran bindings wrap beyond tests/tracing/mpi_fortran.f90, except
 * MPI_Win_test (whose number of calls depends on timing: tests/golden/tracing_mpi_win_test.sh).
 * Received data are checked ("bad data" on stdout). */
#include <mpi.h>
#include <stdio.h>

enum { N = 4 };
static int rank, errors;
static int a[64], b[64];

static void Check(int ok, const char* what) {
  if (!ok) {
    printf("bad data: rank %d: %s\n", rank, what);
    ++errors;
  }
}

static void Neighbors(void) {
  MPI_Request r;
  int dims[1] = {N}, periods[1] = {1}, left = (rank + N - 1) % N, right = (rank + 1) % N;
  MPI_Comm ring, chain;
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  MPI_Neighbor_allgather(&rank, 1, MPI_INT, b, 1, MPI_INT, ring);
  Check(b[0] == left && b[1] == right, "neighbor_allgather");
  MPI_Neighbor_alltoall(a, 1, MPI_INT, b, 1, MPI_INT, ring);
  MPI_Ineighbor_allgather(a, 2, MPI_INT, b, 2, MPI_INT, ring, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  /* The chain 0 -> 1 -> 2 -> 3 (the Fortran twins pass MPI_UNWEIGHTED: same records). */
  int src = rank - 1, dst = rank + 1, three[1] = {3}, two[1] = {2}, zero[1] = {0}, one[1] = {1};
  MPI_Aint zero_bytes[1] = {0};
  MPI_Datatype dbl[1] = {MPI_DOUBLE};
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, rank > 0, &src, one, rank < 3, &dst, one,
                                 MPI_INFO_NULL, 0, &chain);
  MPI_Neighbor_allgatherv(a, 3, MPI_INT, b, three, zero, MPI_INT, chain);
  if (rank > 0) Check(b[0] == 100 * (rank - 1), "neighbor_allgatherv");
  MPI_Neighbor_alltoallv(a, three, zero, MPI_INT, b, three, zero, MPI_INT, chain);
  MPI_Neighbor_alltoallw(a, two, zero_bytes, dbl, b, two, zero_bytes, dbl, chain);
  MPI_Ineighbor_alltoallw(a, two, zero_bytes, dbl, b, two, zero_bytes, dbl, chain, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Ineighbor_allgatherv(a, 3, MPI_INT, b, three, zero, MPI_INT, chain, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Ineighbor_alltoallv(a, three, zero, MPI_INT, b, three, zero, MPI_INT, chain, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Ineighbor_alltoall(a, 2, MPI_INT, b, 2, MPI_INT, ring, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Comm_free(&chain);
  MPI_Comm_free(&ring);
}

static void Collectives(void) {
  MPI_Request r[7];
  int counts[N], displs[N], sum = 0, before = 0, x = rank + 1, y = 0, z = 0, i;
  int gathered[N], scattered = -1, all[N], blocks[N];
  MPI_Datatype types[N];
  for (i = 0; i < N; ++i) counts[i] = 1, displs[i] = i * (int)sizeof(int), types[i] = MPI_INT;
  MPI_Iallgather(&x, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD, &r[0]);
  MPI_Ialltoall(a, 2, MPI_INT, b, 2, MPI_INT, MPI_COMM_WORLD, &r[1]);
  MPI_Igather(&x, 1, MPI_INT, gathered, 1, MPI_INT, 0, MPI_COMM_WORLD, &r[2]);
  MPI_Iscatter(a, 1, MPI_INT, &scattered, 1, MPI_INT, 1, MPI_COMM_WORLD, &r[3]);
  MPI_Iscan(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[4]);
  MPI_Iexscan(&x, &before, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[5]);
  for (i = 0; i < N; ++i) blocks[i] = rank + i;
  MPI_Ireduce_scatter_block(blocks, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[6]);
  MPI_Waitall(7, r, MPI_STATUSES_IGNORE);
  Check(all[N - 1] == N && sum == (rank + 1) * (rank + 2) / 2 && scattered == 100 + rank,
        "non-blocking collectives");
  Check(rank == 0 || before == rank * (rank + 1) / 2, "iexscan");
  Check(y == 6 + N * rank, "ireduce_scatter_block");
  MPI_Reduce_scatter_block(blocks, &z, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  Check(z == y, "reduce_scatter_block");
  MPI_Alltoallw(a, counts, displs, types, b, counts, displs, types, MPI_COMM_WORLD);
  Check(b[0] == 100 * 0 + rank && b[N - 1] == 100 * (N - 1) + rank, "alltoallw");
  MPI_Ialltoallw(a, counts, displs, types, b, counts, displs, types, MPI_COMM_WORLD, &r[0]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  for (i = 0; i < N; ++i) displs[i] = i; /* in elements from here on */
  MPI_Iallgatherv(&x, 1, MPI_INT, all, counts, displs, MPI_INT, MPI_COMM_WORLD, &r[0]);
  MPI_Ialltoallv(a, counts, displs, MPI_INT, b, counts, displs, MPI_INT, MPI_COMM_WORLD, &r[1]);
  MPI_Igatherv(&x, 1, MPI_INT, gathered, counts, displs, MPI_INT, 0, MPI_COMM_WORLD, &r[2]);
  MPI_Iscatterv(a, counts, displs, MPI_INT, &scattered, 1, MPI_INT, 0, MPI_COMM_WORLD, &r[3]);
  MPI_Ireduce_scatter(blocks, &y, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[4]);
  MPI_Waitall(5, r, MPI_STATUSES_IGNORE);
  Check(all[N - 1] == N && scattered == rank && y == 6 + N * rank, "non-blocking v-collectives");
  Check(rank != 0 || gathered[N - 1] == N, "igatherv");
}

static void OneSided(void) {
  MPI_Win win, win2;
  int next = (rank + 1) % N, prev = (rank + N - 1) % N, one = 1, fetched = -1, swapped = -1, cmp = 0;
  int got = -1;
  int* mem = NULL;
  int i;
  for (i = 0; i < 64; ++i) b[i] = 0;
  MPI_Win_create(b, 64 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_fence(0, win);
  MPI_Put(a, 2, MPI_INT, next, 0, 2, MPI_INT, win);
  MPI_Win_fence(0, win);
  MPI_Get(&got, 1, MPI_INT, prev, 0, 1, MPI_INT, win);
  MPI_Win_fence(0, win);
  Check(b[0] == 100 * prev && b[1] == 100 * prev + 1, "put");
  Check(got == 100 * ((prev + N - 1) % N), "get");
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
  MPI_Accumulate(&one, 1, MPI_INT, 0, 8, 1, MPI_INT, MPI_SUM, win);
  MPI_Win_unlock(0, win);
  MPI_Win_lock_all(0, win);
  MPI_Fetch_and_op(&one, &fetched, MPI_INT, 0, 9, MPI_SUM, win);
  MPI_Compare_and_swap(&one, &cmp, &swapped, MPI_INT, 0, 10, win);
  MPI_Win_flush(0, win);
  MPI_Win_unlock_all(win);
  MPI_Win_free(&win);
  if (rank == 0) Check(b[8] == N && b[9] == N && b[10] == 1, "accumulate / fetch_and_op / cas");
  MPI_Win_allocate(16 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win2);
  Check(mem != NULL, "win_allocate");
  MPI_Win_free(&win2);
  mem = NULL; /* the Fortran twin with `use mpi` passes a TYPE(C_PTR) here */
  MPI_Win_allocate(16 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win2);
  Check(mem != NULL, "win_allocate");
  MPI_Win_free(&win2);
}

/* A post/start/complete/wait epoch between each rank and its two ring neighbours, with Rput,
 * Rget and Get_accumulate. */
static void Pscw(void) {
  MPI_Win win;
  MPI_Group world, peers;
  MPI_Request r[2];
  int next = (rank + 1) % N, prev = (rank + N - 1) % N, pair[2], one = 1, old = -1, got = -1, i;
  pair[0] = prev;
  pair[1] = next;
  for (i = 0; i < 64; ++i) b[i] = 0;
  MPI_Win_create(b, 64 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_incl(world, 2, pair, &peers);
  MPI_Win_post(peers, 0, win);
  MPI_Win_start(peers, 0, win);
  MPI_Rput(a, 2, MPI_INT, next, 4, 2, MPI_INT, win, &r[0]);
  MPI_Rget(&got, 1, MPI_INT, prev, 20, 1, MPI_INT, win, &r[1]);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  MPI_Get_accumulate(&one, 1, MPI_INT, &old, 1, MPI_INT, next, 30, 1, MPI_INT, MPI_SUM, win);
  MPI_Win_complete(win);
  MPI_Win_wait(win);
  Check(b[4] == 100 * prev && b[5] == 100 * prev + 1 && b[30] == 1 && got == 0 && old == 0,
        "rput / rget / get_accumulate");
  MPI_Group_free(&peers);
  MPI_Group_free(&world);
  MPI_Win_free(&win);
}

static void FileIo(const char* folder) {
  char path[4096];
  MPI_File fh;
  MPI_Request r;
  int back[4] = {0};
  snprintf(path, sizeof path, "%s/fortran_more.dat", folder);
  MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
  MPI_File_write_at(fh, (MPI_Offset)rank * 16, a, 4, MPI_INT, MPI_STATUS_IGNORE);
  MPI_File_iwrite_at(fh, 64 + (MPI_Offset)rank * 8, a, 2, MPI_INT, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_File_read_at(fh, (MPI_Offset)rank * 16, back, 4, MPI_INT, MPI_STATUS_IGNORE);
  Check(back[0] == 100 * rank && back[3] == 100 * rank + 3, "file_read_at");
  MPI_File_write_at_all(fh, 128 + (MPI_Offset)rank * 16, a + 4, 4, MPI_INT, MPI_STATUS_IGNORE);
  MPI_File_read_at_all(fh, 128 + (MPI_Offset)rank * 16, back, 4, MPI_INT, MPI_STATUS_IGNORE);
  Check(back[0] == 100 * rank + 4, "file_read_at_all");
  MPI_File_iread_at(fh, (MPI_Offset)rank * 16, back, 2, MPI_INT, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  Check(back[1] == 100 * rank + 1, "file_iread_at");
  /* The individual file pointer (MPI_File_seek is not traced, in C as in Fortran). */
  MPI_File_seek(fh, 256 + (MPI_Offset)rank * 32, MPI_SEEK_SET);
  MPI_File_write(fh, a, 2, MPI_INT, MPI_STATUS_IGNORE);
  MPI_File_iwrite(fh, a + 2, 2, MPI_INT, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_File_write_all(fh, a + 4, 2, MPI_INT, MPI_STATUS_IGNORE);
  MPI_File_seek(fh, 256 + (MPI_Offset)rank * 32, MPI_SEEK_SET);
  MPI_File_read(fh, back, 2, MPI_INT, MPI_STATUS_IGNORE);
  MPI_File_iread(fh, back + 2, 1, MPI_INT, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_File_read_all(fh, back + 3, 1, MPI_INT, MPI_STATUS_IGNORE);
  Check(back[0] == 100 * rank && back[2] == 100 * rank + 2 && back[3] == 100 * rank + 3,
        "file_read / iread / read_all");
  MPI_File_close(&fh);
}

static void PointToPoint(void) {
  MPI_Message m;
  MPI_Status status;
  MPI_Request r;
  int next = (rank + 1) % N, prev = (rank + N - 1) % N, flag = 0, buf[3] = {rank, rank, rank};
  MPI_Sendrecv_replace(buf, 3, MPI_INT, next, 5, prev, 5, MPI_COMM_WORLD, &status);
  Check(buf[0] == prev && status.MPI_SOURCE == prev, "sendrecv_replace");
  MPI_Send(a, 2, MPI_INT, next, 6, MPI_COMM_WORLD); /* eager: does not wait for the receive */
  MPI_Mprobe(prev, 6, MPI_COMM_WORLD, &m, &status);
  MPI_Mrecv(b, 2, MPI_INT, &m, MPI_STATUS_IGNORE);
  Check(b[1] == 100 * prev + 1, "mrecv");
  MPI_Send(a, 1, MPI_INT, next, 8, MPI_COMM_WORLD);
  MPI_Probe(prev, 8, MPI_COMM_WORLD, &status); /* the message is there: Improbe finds it */
  MPI_Improbe(prev, 8, MPI_COMM_WORLD, &flag, &m, &status);
  Check(flag && status.MPI_TAG == 8, "improbe");
  MPI_Imrecv(b, 1, MPI_INT, &m, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  Check(b[0] == 100 * prev, "imrecv");
}

static void Communicators(void) {
  MPI_Comm shared, dup, half, inter, merged, graph, first3;
  MPI_Group world, three;
  MPI_Request r;
  int even = rank % 2 == 0, size = 0, ranks[3] = {0, 1, 2};
  int degree = rank < N - 1, dest = rank + 1, weight = 1;
  int index[N] = {2, 4, 6, 8}, edges[2 * N] = {1, 3, 0, 2, 1, 3, 2, 0};
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shared);
  MPI_Comm_idup(MPI_COMM_WORLD, &dup, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Comm_size(dup, &size);
  Check(size == N, "comm_idup");
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_incl(world, 3, ranks, &three);
  if (rank < 3) {
    MPI_Comm_create_group(MPI_COMM_WORLD, three, 4, &first3);
    MPI_Comm_free(&first3);
  }
  MPI_Comm_split(MPI_COMM_WORLD, !even, rank, &half);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, even ? 1 : 0, 7, &inter);
  MPI_Intercomm_merge(inter, !even, &merged);
  MPI_Comm_rank(merged, &size);
  Check(size == (even ? rank / 2 : 2 + rank / 2), "intercomm_merge");
  MPI_Graph_create(MPI_COMM_WORLD, N, index, edges, 0, &graph);
  MPI_Comm_free(&graph);
  MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &rank, &degree, &dest, &weight, MPI_INFO_NULL, 0, &graph);
  MPI_Comm_free(&graph);
  MPI_Comm_free(&merged);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&half);
  MPI_Group_free(&three);
  MPI_Group_free(&world);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&shared);
}

int main(int argc, char** argv) {
  int i, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != N || argc < 2) {
    if (rank == 0) fprintf(stderr, "mpi_fortran_more: run on %d ranks with a folder argument\n", N);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  for (i = 0; i < 64; ++i) a[i] = 100 * rank + i;
  Neighbors();
  Collectives();
  OneSided();
  Pscw();
  FileIo(argv[1]);
  PointToPoint();
  Communicators();
  if (rank == 0) printf("mpi_fortran_more: done\n");
  MPI_Finalize();
  return errors != 0;
}
