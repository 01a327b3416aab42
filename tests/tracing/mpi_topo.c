/* Neighbourhood collectives (on a periodic Cartesian ring and on a distributed-graph chain) and
 * inter-communicator traffic (point-to-point, collectives, the Reduce_scatter family,
 * Intercomm_merge), for the golden test tests/golden/tracing_mpi_topo.sh, which knows the bytes,
 * partners and communicator members each rank must show. Run on exactly 4 ranks. Wrong
 * reduction results print "bad data". */
#include <mpi.h>
#include <stdio.h>

static int a[64], b[64];

static void Check(int ok, int rank, const char* what) {
  if (!ok) printf("bad data: rank %d: %s\n", rank, what);
}

/* Reduce_scatter on the inter-communicator of the evens {0, 2} and the odds {1, 3}: each group's
 * sum is scattered over the other group by that group's recvcounts ({1, 3} for the evens, {2, 2}
 * for the odds; 4 elements in both groups, as MPI requires). World rank w contributes 10 w + j at
 * index j, so element k of the odds' sum (received by the evens) is 10 + 30 + 2 k and of the
 * evens' sum (received by the odds) 0 + 20 + 2 k. `me` is the rank in the local group. */
static void InterReduceScatter(int rank, int me, MPI_Comm inter) {
  int even = rank % 2 == 0, send[4], got[4] = {0}, j;
  int counts[2] = {even ? 1 : 2, even ? 3 : 2}, first = me == 0 ? 0 : counts[0];
  int other = even ? 10 + 30 : 0 + 20;
  MPI_Request r;
  for (j = 0; j < 4; ++j) send[j] = 10 * rank + j;
  MPI_Reduce_scatter(send, got, counts, MPI_INT, MPI_SUM, inter);
  for (j = 0; j < counts[me]; ++j) Check(got[j] == other + 2 * (first + j), rank, "reduce_scatter");
  MPI_Ireduce_scatter(send, got, counts, MPI_INT, MPI_SUM, inter, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  for (j = 0; j < counts[me]; ++j) Check(got[j] == other + 2 * (first + j), rank, "ireduce_scatter");
  /* Blocks of 2 elements in both groups. */
  MPI_Reduce_scatter_block(send, got, 2, MPI_INT, MPI_SUM, inter);
  Check(got[0] == other + 2 * (2 * me) && got[1] == other + 2 * (2 * me + 1), rank,
        "reduce_scatter_block");
  MPI_Ireduce_scatter_block(send, got, 2, MPI_INT, MPI_SUM, inter, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  Check(got[0] == other + 2 * (2 * me) && got[1] == other + 2 * (2 * me + 1), rank,
        "ireduce_scatter_block");
}

static void Neighbors(int rank) {
  MPI_Request r;
  int dims[1] = {4}, periods[1] = {1};
  MPI_Comm ring, chain;
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring); /* 2 neighbours each */
  MPI_Neighbor_allgather(a, 1, MPI_INT, b, 1, MPI_INT, ring);
  MPI_Neighbor_alltoall(a, 1, MPI_INT, b, 1, MPI_INT, ring);
  MPI_Ineighbor_allgather(a, 2, MPI_INT, b, 2, MPI_INT, ring, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Ineighbor_alltoall(a, 2, MPI_INT, b, 2, MPI_INT, ring, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);

  /* The chain 0 -> 1 -> 2 -> 3: one in-neighbour except rank 0, one out-neighbour except 3. */
  int src = rank - 1, dst = rank + 1, weight = 1, three[1] = {3}, two[1] = {2}, zero[1] = {0};
  MPI_Aint zero_bytes[1] = {0};
  MPI_Datatype dbl[1] = {MPI_DOUBLE};
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, rank > 0, &src, &weight, rank < 3, &dst, &weight,
                                 MPI_INFO_NULL, 0, &chain);
  MPI_Neighbor_allgatherv(a, 3, MPI_INT, b, three, zero, MPI_INT, chain);
  MPI_Neighbor_alltoallv(a, three, zero, MPI_INT, b, three, zero, MPI_INT, chain);
  MPI_Neighbor_alltoallw(a, two, zero_bytes, dbl, b, two, zero_bytes, dbl, chain);
  MPI_Ineighbor_allgatherv(a, 3, MPI_INT, b, three, zero, MPI_INT, chain, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Ineighbor_alltoallv(a, three, zero, MPI_INT, b, three, zero, MPI_INT, chain, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Ineighbor_alltoallw(a, two, zero_bytes, dbl, b, two, zero_bytes, dbl, chain, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Comm_free(&chain);
  MPI_Comm_free(&ring);
}

static void Inter(int rank) {
  MPI_Comm half, inter, merged;
  MPI_Request r;
  int even = rank % 2 == 0, me;
  MPI_Comm_split(MPI_COMM_WORLD, !even, rank, &half); /* {0, 2} and {1, 3} */
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, even ? 1 : 0, 7, &inter);
  MPI_Comm_rank(inter, &me); /* rank in the local group: world rank / 2 */
  /* Local rank i of the evens sends to remote rank i: world 0 -> 1, 2 -> 3. */
  if (even)
    MPI_Send(a, 5, MPI_INT, me, 3, inter);
  else
    MPI_Recv(b, 5, MPI_INT, me, 3, inter, MPI_STATUS_IGNORE);
  /* Back, crossed: world 1 -> remote rank 1 (world 2), world 3 -> remote rank 0 (world 0). */
  if (even)
    MPI_Irecv(b, 2, MPI_INT, MPI_ANY_SOURCE, 4, inter, &r);
  else
    MPI_Isend(a, 2, MPI_INT, 1 - me, 4, inter, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Barrier(inter);
  MPI_Bcast(a, 6, MPI_INT, rank == 0 ? MPI_ROOT : even ? MPI_PROC_NULL : 0, inter);
  MPI_Allreduce(a, b, 3, MPI_INT, MPI_SUM, inter);
  MPI_Gather(a, 2, MPI_INT, b, 2, MPI_INT, rank == 0 ? MPI_ROOT : even ? MPI_PROC_NULL : 0, inter);
  MPI_Allgather(a, 1, MPI_INT, b, 1, MPI_INT, inter); /* from the 2 processes of the other group */
  InterReduceScatter(rank, me, inter);
  MPI_Intercomm_merge(inter, !even, &merged);         /* evens first: world 0, 2, 1, 3 */
  MPI_Allreduce(a, b, 1, MPI_INT, MPI_SUM, merged);
  /* Merged rank 1 (world 2) sends to merged rank 2 (world 1). */
  MPI_Comm_rank(merged, &me);
  if (me == 1) MPI_Send(a, 7, MPI_INT, 2, 9, merged);
  if (me == 2) MPI_Recv(b, 7, MPI_INT, 1, 9, merged, MPI_STATUS_IGNORE);
  MPI_Comm_free(&merged);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&half);
}

int main(int argc, char** argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 4) MPI_Abort(MPI_COMM_WORLD, 2);
  Neighbors(rank);
  Inter(rank);
  MPI_Finalize();
  return 0;
}
