// PMPI wrappers of collectives (blocking, v- and w-, non-blocking) and of communicator creation:
// Extrae's bytes sent / received, root and communicator events at the entry of each collective;
// created communicators are registered for the .prv communicator lines.

#include <mpi.h>

#include "tracing/src/mpi/mpi_wrapper_util.h"

using namespace parallax::tracing;
using namespace parallax::tracing::mpi;

extern "C" {

// ---- collectives: Extrae's byte counts, root and communicator at the entry ----

int MPI_Barrier(MPI_Comm comm) {
  PXT_CALL("MPI_Barrier");
  CallScope s(kCall);
  RecordCollective(s, comm, 0, 0);
  return PMPI_Barrier(comm);
}

int MPI_Ibarrier(MPI_Comm comm, MPI_Request* request) {
  PXT_CALL("MPI_Ibarrier");
  CallScope s(kCall);
  RecordCollective(s, comm, 0, 0);
  return PMPI_Ibarrier(comm, request);
}
int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  PXT_CALL("MPI_Bcast");
  CallScope s(kCall);
  if (s.buffer()) {
    bool here = IsRoot(comm, root);
    RecordCollective(s, comm, here ? Bytes(count, type) : 0,
                     here || InRootGroup(root) ? 0 : Bytes(count, type), root);
  }
  return PMPI_Bcast(buf, count, type, root, comm);
}
int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
               int root, MPI_Comm comm) {
  PXT_CALL("MPI_Reduce");
  CallScope s(kCall);
  if (s.buffer())
    // The root sends nothing, as Extrae writes it (BSC's cfgs read its 0): it receives.
    RecordCollective(s, comm, InRootGroup(root) || IsRoot(comm, root) ? 0 : Bytes(count, type),
                     IsRoot(comm, root) ? Bytes(count, type) : 0, root);
  return PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
}
int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm) {
  PXT_CALL("MPI_Allreduce");
  CallScope s(kCall);
  if (s.buffer()) RecordCollective(s, comm, Bytes(count, type), Bytes(count, type));
  return PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
}
int MPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
             MPI_Comm comm) {
  PXT_CALL("MPI_Scan");
  CallScope s(kCall);
  if (s.buffer()) RecordCollective(s, comm, Bytes(count, type), Bytes(count, type));
  return PMPI_Scan(sendbuf, recvbuf, count, type, op, comm);
}
int MPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
               MPI_Comm comm) {
  PXT_CALL("MPI_Exscan");
  CallScope s(kCall);
  if (s.buffer()) RecordCollective(s, comm, Bytes(count, type), Bytes(count, type));
  return PMPI_Exscan(sendbuf, recvbuf, count, type, op, comm);
}
int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  PXT_CALL("MPI_Gather");
  CallScope s(kCall);
  if (s.buffer())
    RecordCollective(s, comm, InRootGroup(root) ? 0 : Bytes(sendcount, sendtype),
                     IsRoot(comm, root) ? Bytes(recvcount, recvtype) * PeerSize(comm) : 0, root);
  return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}
int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                MPI_Comm comm) {
  PXT_CALL("MPI_Gatherv");
  CallScope s(kCall);
  if (s.buffer())
    RecordCollective(s, comm, InRootGroup(root) ? 0 : Bytes(sendcount, sendtype),
                     IsRoot(comm, root) ? SumBytes(PeerSize(comm), recvcounts, recvtype) : 0, root);
  return PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                      comm);
}
int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  PXT_CALL("MPI_Scatter");
  CallScope s(kCall);
  if (s.buffer())
    RecordCollective(s, comm, IsRoot(comm, root) ? Bytes(sendcount, sendtype) * PeerSize(comm) : 0,
                     InRootGroup(root) ? 0 : Bytes(recvcount, recvtype), root);
  return PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}
int MPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                 MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                 int root, MPI_Comm comm) {
  PXT_CALL("MPI_Scatterv");
  CallScope s(kCall);
  if (s.buffer())
    RecordCollective(s, comm,
                     IsRoot(comm, root) ? SumBytes(PeerSize(comm), sendcounts, sendtype) : 0,
                     InRootGroup(root) ? 0 : Bytes(recvcount, recvtype), root);
  return PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                       comm);
}
int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  PXT_CALL("MPI_Allgather");
  CallScope s(kCall);
  if (s.buffer())
    RecordCollective(s, comm, Bytes(sendcount, sendtype),
                     Bytes(recvcount, recvtype) * PeerSize(comm));
  return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}
int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                   MPI_Comm comm) {
  PXT_CALL("MPI_Allgatherv");
  CallScope s(kCall);
  if (s.buffer())
    RecordCollective(s, comm, Bytes(sendcount, sendtype),
                     SumBytes(PeerSize(comm), recvcounts, recvtype));
  return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
}
int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  PXT_CALL("MPI_Alltoall");
  CallScope s(kCall);
  if (s.buffer())
    RecordCollective(s, comm, Bytes(sendcount, sendtype) * PeerSize(comm),
                     Bytes(recvcount, recvtype) * PeerSize(comm));
  return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}
int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                  MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                  MPI_Datatype recvtype, MPI_Comm comm) {
  PXT_CALL("MPI_Alltoallv");
  CallScope s(kCall);
  if (s.buffer())
    RecordCollective(s, comm, SumBytes(PeerSize(comm), sendcounts, sendtype),
                     SumBytes(PeerSize(comm), recvcounts, recvtype));
  return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                        recvtype, comm);
}
int MPI_Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                  const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                  const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  PXT_CALL("MPI_Alltoallw");
  CallScope s(kCall);
  if (s.buffer())
    RecordCollective(s, comm, SumBytesW(PeerSize(comm), sendcounts, sendtypes),
                     SumBytesW(PeerSize(comm), recvcounts, recvtypes));
  return PMPI_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                        recvtypes, comm);
}
// Reduce_scatter(_block) and their I- forms: each process contributes a vector of
// sum(recvcounts) elements (recvcount * group size) and receives its block recvcounts[rank].
// On an inter-communicator too, as MPI 3.1 (5.10) defines it there: the vector and recvcounts are
// the local group's (CommSize and CommRank are local), the block comes from the remote group's
// result (tests/golden/tracing_mpi_topo.sh).
int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                       MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  PXT_CALL("MPI_Reduce_scatter");
  CallScope s(kCall);
  if (s.buffer())
    RecordCollective(s, comm, SumBytes(CommSize(comm), recvcounts, type),
                     Bytes(recvcounts[CommRank(comm)], type));
  return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, type, op, comm);
}
int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype type,
                             MPI_Op op, MPI_Comm comm) {
  PXT_CALL("MPI_Reduce_scatter_block");
  CallScope s(kCall);
  if (s.buffer())
    RecordCollective(s, comm, Bytes(recvcount, type) * CommSize(comm), Bytes(recvcount, type));
  return PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, type, op, comm);
}
int MPI_Ibcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm,
               MPI_Request* request) {
  PXT_CALL("MPI_Ibcast");
  CallScope s(kCall);
  if (s.buffer()) {
    bool here = IsRoot(comm, root);
    RecordCollective(s, comm, here ? Bytes(count, type) : 0,
                     here || InRootGroup(root) ? 0 : Bytes(count, type), root);
  }
  return PMPI_Ibcast(buf, count, type, root, comm, request);
}
int MPI_Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                int root, MPI_Comm comm, MPI_Request* request) {
  PXT_CALL("MPI_Ireduce");
  CallScope s(kCall);
  if (s.buffer())
    RecordCollective(s, comm, InRootGroup(root) || IsRoot(comm, root) ? 0 : Bytes(count, type),
                     IsRoot(comm, root) ? Bytes(count, type) : 0, root);
  return PMPI_Ireduce(sendbuf, recvbuf, count, type, op, root, comm, request);
}
int MPI_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                   MPI_Comm comm, MPI_Request* request) {
  PXT_CALL("MPI_Iallreduce");
  CallScope s(kCall);
  if (s.buffer()) RecordCollective(s, comm, Bytes(count, type), Bytes(count, type));
  return PMPI_Iallreduce(sendbuf, recvbuf, count, type, op, comm, request);
}
int MPI_Iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
              MPI_Comm comm, MPI_Request* request) {
  PXT_CALL("MPI_Iscan");
  CallScope s(kCall);
  if (s.buffer()) RecordCollective(s, comm, Bytes(count, type), Bytes(count, type));
  return PMPI_Iscan(sendbuf, recvbuf, count, type, op, comm, request);
}
int MPI_Iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op,
                MPI_Comm comm, MPI_Request* request) {
  PXT_CALL("MPI_Iexscan");
  CallScope s(kCall);
  if (s.buffer()) RecordCollective(s, comm, Bytes(count, type), Bytes(count, type));
  return PMPI_Iexscan(sendbuf, recvbuf, count, type, op, comm, request);
}
int MPI_Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                MPI_Request* request) {
  PXT_CALL("MPI_Igather");
  CallScope s(kCall);
  if (s.buffer())
    RecordCollective(s, comm, InRootGroup(root) ? 0 : Bytes(sendcount, sendtype),
                     IsRoot(comm, root) ? Bytes(recvcount, recvtype) * PeerSize(comm) : 0, root);
  return PMPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                      request);
}
int MPI_Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm, MPI_Request* request) {
  PXT_CALL("MPI_Igatherv");
  CallScope s(kCall);
  if (s.buffer())
    RecordCollective(s, comm, InRootGroup(root) ? 0 : Bytes(sendcount, sendtype),
                     IsRoot(comm, root) ? SumBytes(PeerSize(comm), recvcounts, recvtype) : 0, root);
  return PMPI_Igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                       comm, request);
}
int MPI_Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request* request) {
  PXT_CALL("MPI_Iscatter");
  CallScope s(kCall);
  if (s.buffer())
    RecordCollective(s, comm, IsRoot(comm, root) ? Bytes(sendcount, sendtype) * PeerSize(comm) : 0,
                     InRootGroup(root) ? 0 : Bytes(recvcount, recvtype), root);
  return PMPI_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                       request);
}
int MPI_Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm, MPI_Request* request) {
  PXT_CALL("MPI_Iscatterv");
  CallScope s(kCall);
  if (s.buffer())
    RecordCollective(s, comm,
                     IsRoot(comm, root) ? SumBytes(PeerSize(comm), sendcounts, sendtype) : 0,
                     InRootGroup(root) ? 0 : Bytes(recvcount, recvtype), root);
  return PMPI_Iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                        comm, request);
}
int MPI_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  PXT_CALL("MPI_Iallgather");
  CallScope s(kCall);
  if (s.buffer())
    RecordCollective(s, comm, Bytes(sendcount, sendtype),
                     Bytes(recvcount, recvtype) * PeerSize(comm));
  return PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
}
int MPI_Iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm, MPI_Request* request) {
  PXT_CALL("MPI_Iallgatherv");
  CallScope s(kCall);
  if (s.buffer())
    RecordCollective(s, comm, Bytes(sendcount, sendtype),
                     SumBytes(PeerSize(comm), recvcounts, recvtype));
  return PMPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,
                          request);
}
int MPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  PXT_CALL("MPI_Ialltoall");
  CallScope s(kCall);
  if (s.buffer())
    RecordCollective(s, comm, Bytes(sendcount, sendtype) * PeerSize(comm),
                     Bytes(recvcount, recvtype) * PeerSize(comm));
  return PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
}
int MPI_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                   MPI_Request* request) {
  PXT_CALL("MPI_Ialltoallv");
  CallScope s(kCall);
  if (s.buffer())
    RecordCollective(s, comm, SumBytes(PeerSize(comm), sendcounts, sendtype),
                     SumBytes(PeerSize(comm), recvcounts, recvtype));
  return PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                         recvtype, comm, request);
}
int MPI_Ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                   MPI_Request* request) {
  PXT_CALL("MPI_Ialltoallw");
  CallScope s(kCall);
  if (s.buffer())
    RecordCollective(s, comm, SumBytesW(PeerSize(comm), sendcounts, sendtypes),
                     SumBytesW(PeerSize(comm), recvcounts, recvtypes));
  return PMPI_Ialltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                         recvtypes, comm, request);
}
int MPI_Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                        MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  PXT_CALL("MPI_Ireduce_scatter");
  CallScope s(kCall);
  if (s.buffer())
    RecordCollective(s, comm, SumBytes(CommSize(comm), recvcounts, type),
                     Bytes(recvcounts[CommRank(comm)], type));
  return PMPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts, type, op, comm, request);
}
int MPI_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype type,
                              MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  PXT_CALL("MPI_Ireduce_scatter_block");
  CallScope s(kCall);
  if (s.buffer())
    RecordCollective(s, comm, Bytes(recvcount, type) * CommSize(comm), Bytes(recvcount, type));
  return PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, type, op, comm, request);
}

// ---- neighbourhood collectives (Extrae's values 174-183): bytes to the out-neighbours and
// from the in-neighbours of the calling process in the topology of `comm` ----

int MPI_Neighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  PXT_CALL("MPI_Neighbor_allgather");
  CallScope s(kCall);
  if (s.buffer())
    RecordCollective(s, comm, Bytes(sendcount, sendtype),
                     Bytes(recvcount, recvtype) * NeighborDegrees(comm).in);
  return PMPI_Neighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}
int MPI_Ineighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request* request) {
  PXT_CALL("MPI_Ineighbor_allgather");
  CallScope s(kCall);
  if (s.buffer())
    RecordCollective(s, comm, Bytes(sendcount, sendtype),
                     Bytes(recvcount, recvtype) * NeighborDegrees(comm).in);
  return PMPI_Ineighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                  request);
}
int MPI_Neighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, const int recvcounts[], const int displs[],
                            MPI_Datatype recvtype, MPI_Comm comm) {
  PXT_CALL("MPI_Neighbor_allgatherv");
  CallScope s(kCall);
  if (s.buffer())
    RecordCollective(s, comm, Bytes(sendcount, sendtype),
                     SumBytes(NeighborDegrees(comm).in, recvcounts, recvtype));
  return PMPI_Neighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                  recvtype, comm);
}
int MPI_Ineighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                             void* recvbuf, const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  PXT_CALL("MPI_Ineighbor_allgatherv");
  CallScope s(kCall);
  if (s.buffer())
    RecordCollective(s, comm, Bytes(sendcount, sendtype),
                     SumBytes(NeighborDegrees(comm).in, recvcounts, recvtype));
  return PMPI_Ineighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                   recvtype, comm, request);
}
int MPI_Neighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                          int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  PXT_CALL("MPI_Neighbor_alltoall");
  CallScope s(kCall);
  if (s.buffer()) {
    Degrees d = NeighborDegrees(comm);
    RecordCollective(s, comm, Bytes(sendcount, sendtype) * d.out,
                     Bytes(recvcount, recvtype) * d.in);
  }
  return PMPI_Neighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}
int MPI_Ineighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                           MPI_Request* request) {
  PXT_CALL("MPI_Ineighbor_alltoall");
  CallScope s(kCall);
  if (s.buffer()) {
    Degrees d = NeighborDegrees(comm);
    RecordCollective(s, comm, Bytes(sendcount, sendtype) * d.out,
                     Bytes(recvcount, recvtype) * d.in);
  }
  return PMPI_Ineighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                 request);
}
int MPI_Neighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                           MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                           const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  PXT_CALL("MPI_Neighbor_alltoallv");
  CallScope s(kCall);
  if (s.buffer()) {
    Degrees d = NeighborDegrees(comm);
    RecordCollective(s, comm, SumBytes(d.out, sendcounts, sendtype),
                     SumBytes(d.in, recvcounts, recvtype));
  }
  return PMPI_Neighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                 rdispls, recvtype, comm);
}
int MPI_Ineighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request* request) {
  PXT_CALL("MPI_Ineighbor_alltoallv");
  CallScope s(kCall);
  if (s.buffer()) {
    Degrees d = NeighborDegrees(comm);
    RecordCollective(s, comm, SumBytes(d.out, sendcounts, sendtype),
                     SumBytes(d.in, recvcounts, recvtype));
  }
  return PMPI_Ineighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                  rdispls, recvtype, comm, request);
}
int MPI_Neighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                           const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                           const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                           MPI_Comm comm) {
  PXT_CALL("MPI_Neighbor_alltoallw");
  CallScope s(kCall);
  if (s.buffer()) {
    Degrees d = NeighborDegrees(comm);
    RecordCollective(s, comm, SumBytesW(d.out, sendcounts, sendtypes),
                     SumBytesW(d.in, recvcounts, recvtypes));
  }
  return PMPI_Neighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                                 rdispls, recvtypes, comm);
}
int MPI_Ineighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                            MPI_Request* request) {
  PXT_CALL("MPI_Ineighbor_alltoallw");
  CallScope s(kCall);
  if (s.buffer()) {
    Degrees d = NeighborDegrees(comm);
    RecordCollective(s, comm, SumBytesW(d.out, sendcounts, sendtypes),
                     SumBytesW(d.in, recvcounts, recvtypes));
  }
  return PMPI_Ineighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                                  rdispls, recvtypes, comm, request);
}

// ---- communicators: recorded so that the merge writes them as Paraver communicator lines ----

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm) {
  PXT_CALL("MPI_Comm_create");
  CallScope s(kCall);
  int rc = PMPI_Comm_create(comm, group, newcomm);
  if (rc == MPI_SUCCESS) RegisterComm(*newcomm);
  return rc;
}

int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm* newcomm) {
  PXT_CALL("MPI_Comm_create_group");
  CallScope s(kCall);
  int rc = PMPI_Comm_create_group(comm, group, tag, newcomm);
  if (rc == MPI_SUCCESS) RegisterComm(*newcomm);
  return rc;
}

int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm* newcomm) {
  PXT_CALL("MPI_Comm_split_type");
  CallScope s(kCall);
  int rc = PMPI_Comm_split_type(comm, split_type, key, info, newcomm);
  if (rc == MPI_SUCCESS) RegisterComm(*newcomm);
  return rc;
}

int MPI_Comm_idup(MPI_Comm comm, MPI_Comm* newcomm, MPI_Request* request) {
  PXT_CALL("MPI_Comm_idup");
  CallScope s(kCall);
  // The new communicator is usable only after the request completes; it has comm's group.
  return PMPI_Comm_idup(comm, newcomm, request);
}

int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder,
                    MPI_Comm* newcomm) {
  PXT_CALL("MPI_Cart_create");
  CallScope s(kCall);
  int rc = PMPI_Cart_create(comm, ndims, dims, periods, reorder, newcomm);
  if (rc == MPI_SUCCESS) RegisterComm(*newcomm);
  return rc;
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm) {
  PXT_CALL("MPI_Cart_sub");
  CallScope s(kCall);
  int rc = PMPI_Cart_sub(comm, remain_dims, newcomm);
  if (rc == MPI_SUCCESS) RegisterComm(*newcomm);
  return rc;
}

int MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[], int reorder,
                     MPI_Comm* newcomm) {
  PXT_CALL("MPI_Graph_create");
  CallScope s(kCall);
  int rc = PMPI_Graph_create(comm, nnodes, index, edges, reorder, newcomm);
  if (rc == MPI_SUCCESS) RegisterComm(*newcomm);
  return rc;
}

int MPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[], const int degrees[],
                          const int destinations[], const int weights[], MPI_Info info, int reorder,
                          MPI_Comm* newcomm) {
  PXT_CALL("MPI_Dist_graph_create");
  CallScope s(kCall);
  int rc = PMPI_Dist_graph_create(comm, n, sources, degrees, destinations, weights, info, reorder,
                                  newcomm);
  if (rc == MPI_SUCCESS) RegisterComm(*newcomm);
  return rc;
}

int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[],
                                   const int sourceweights[], int outdegree,
                                   const int destinations[], const int destweights[], MPI_Info info,
                                   int reorder, MPI_Comm* newcomm) {
  PXT_CALL("MPI_Dist_graph_create_adjacent");
  CallScope s(kCall);
  int rc = PMPI_Dist_graph_create_adjacent(comm, indegree, sources, sourceweights, outdegree,
                                           destinations, destweights, info, reorder, newcomm);
  if (rc == MPI_SUCCESS) RegisterComm(*newcomm);
  return rc;
}

int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                         int remote_leader, int tag, MPI_Comm* newcomm) {
  PXT_CALL("MPI_Intercomm_create");
  CallScope s(kCall);
  int rc =
      PMPI_Intercomm_create(local_comm, local_leader, peer_comm, remote_leader, tag, newcomm);
  if (rc == MPI_SUCCESS) RegisterComm(*newcomm);
  return rc;
}

int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm* newcomm) {
  PXT_CALL("MPI_Intercomm_merge");
  CallScope s(kCall);
  int rc = PMPI_Intercomm_merge(intercomm, high, newcomm);
  if (rc == MPI_SUCCESS) RegisterComm(*newcomm);
  return rc;
}

}  // extern "C"
