// Fortran bindings of libparallax-mpi.so (see fortran_wrappers.cc): the w-, non-blocking and
// neighbourhood collectives the first file does not hold, for `mpif.h` / `use mpi` (mpi_<name>_)
// and `use mpi_f08` (mpi_<name>_f08_, at the end, over the former).

#include <mpi.h>

#include "tracing/src/mpi/fortran_util.h"
#include "tracing/src/mpi/mpi_wrapper_util.h"

using namespace parallax::tracing;
using namespace parallax::tracing::mpi;
using namespace parallax::tracing::mpi::fortran;

extern "C" {

// Open MPI's own Fortran bindings (libmpi_mpifh) of the two non-blocking w-collectives: weak,
// because a C program does not load libmpi_mpifh (nor calls these wrappers).
__attribute__((weak)) void pmpi_ialltoallw_(void* sbuf, F* scounts, F* sdispls, F* stypes,
                                            void* rbuf, F* rcounts, F* rdispls, F* rtypes, F* comm,
                                            F* request, F* ierr);
__attribute__((weak)) void pmpi_ineighbor_alltoallw_(void* sbuf, F* scounts, Aint* sdispls,
                                                     F* stypes, void* rbuf, F* rcounts,
                                                     Aint* rdispls, F* rtypes, F* comm, F* request,
                                                     F* ierr);

// ---- w-collectives: the datatype arrays are converted (one entry per process the call
// exchanges with; none on an MPI_IN_PLACE send side) ----

void mpi_alltoallw_(void* sbuf, F* scounts, F* sdispls, F* stypes, void* rbuf, F* rcounts,
                    F* rdispls, F* rtypes, F* comm, F* ierr) {
  int n = PeerSize(C(comm));
  void* send = Buf(sbuf);
  TypeArray st(send == MPI_IN_PLACE ? 0 : n, stypes), rt(n, rtypes);
  *ierr =
      MPI_Alltoallw(send, scounts, sdispls, st.c(), Buf(rbuf), rcounts, rdispls, rt.c(), C(comm));
}

// Open MPI may read the datatype arrays of a non-blocking w-collective until it completes (its own
// Fortran binding keeps its converted copies with the request), so the two non-blocking
// w-collectives record the call here as the C wrappers do, then hand the Fortran arguments to
// Open MPI's own Fortran binding (pmpi_<name>_), whose copies live as long as the operation.
void mpi_ialltoallw_(void* sbuf, F* scounts, F* sdispls, F* stypes, void* rbuf, F* rcounts,
                     F* rdispls, F* rtypes, F* comm, F* request, F* ierr) {
  PXT_CALL("MPI_Ialltoallw");
  CallScope s(kCall);
  if (s.buffer()) {
    int n = PeerSize(C(comm));
    TypeArray st(Buf(sbuf) == MPI_IN_PLACE ? 0 : n, stypes), rt(n, rtypes);
    RecordCollective(s, C(comm), SumBytesW(n, scounts, st.c()), SumBytesW(n, rcounts, rt.c()));
  }
  if (!pmpi_ialltoallw_) {  // not a program of Open MPI's Fortran library
    *ierr = MPI_ERR_INTERN;
    return;
  }
  pmpi_ialltoallw_(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm, request,
                   ierr);
}

void mpi_reduce_scatter_block_(void* sbuf, void* rbuf, F* rcount, F* type, F* op, F* comm,
                               F* ierr) {
  *ierr = MPI_Reduce_scatter_block(Buf(sbuf), Buf(rbuf), *rcount, T(type), O(op), C(comm));
}

// ---- non-blocking collectives ----

void mpi_iscan_(void* sbuf, void* rbuf, F* count, F* type, F* op, F* comm, F* request, F* ierr) {
  MPI_Request r;
  *ierr = MPI_Iscan(Buf(sbuf), Buf(rbuf), *count, T(type), O(op), C(comm), &r);
  SetRequest(*ierr, r, request);
}

void mpi_iexscan_(void* sbuf, void* rbuf, F* count, F* type, F* op, F* comm, F* request, F* ierr) {
  MPI_Request r;
  *ierr = MPI_Iexscan(Buf(sbuf), Buf(rbuf), *count, T(type), O(op), C(comm), &r);
  SetRequest(*ierr, r, request);
}

void mpi_ireduce_scatter_(void* sbuf, void* rbuf, F* rcounts, F* type, F* op, F* comm, F* request,
                          F* ierr) {
  MPI_Request r;
  *ierr = MPI_Ireduce_scatter(Buf(sbuf), Buf(rbuf), rcounts, T(type), O(op), C(comm), &r);
  SetRequest(*ierr, r, request);
}

void mpi_ireduce_scatter_block_(void* sbuf, void* rbuf, F* rcount, F* type, F* op, F* comm,
                                F* request, F* ierr) {
  MPI_Request r;
  *ierr = MPI_Ireduce_scatter_block(Buf(sbuf), Buf(rbuf), *rcount, T(type), O(op), C(comm), &r);
  SetRequest(*ierr, r, request);
}

void mpi_igather_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcount, F* rtype, F* root,
                  F* comm, F* request, F* ierr) {
  MPI_Request r;
  *ierr =
      MPI_Igather(Buf(sbuf), *scount, T(stype), Buf(rbuf), *rcount, T(rtype), *root, C(comm), &r);
  SetRequest(*ierr, r, request);
}

void mpi_igatherv_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcounts, F* displs, F* rtype,
                   F* root, F* comm, F* request, F* ierr) {
  MPI_Request r;
  *ierr = MPI_Igatherv(Buf(sbuf), *scount, T(stype), Buf(rbuf), rcounts, displs, T(rtype), *root,
                       C(comm), &r);
  SetRequest(*ierr, r, request);
}

void mpi_iscatter_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcount, F* rtype, F* root,
                   F* comm, F* request, F* ierr) {
  MPI_Request r;
  *ierr =
      MPI_Iscatter(Buf(sbuf), *scount, T(stype), Buf(rbuf), *rcount, T(rtype), *root, C(comm), &r);
  SetRequest(*ierr, r, request);
}

void mpi_iscatterv_(void* sbuf, F* scounts, F* displs, F* stype, void* rbuf, F* rcount, F* rtype,
                    F* root, F* comm, F* request, F* ierr) {
  MPI_Request r;
  *ierr = MPI_Iscatterv(Buf(sbuf), scounts, displs, T(stype), Buf(rbuf), *rcount, T(rtype), *root,
                        C(comm), &r);
  SetRequest(*ierr, r, request);
}

void mpi_iallgather_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcount, F* rtype, F* comm,
                     F* request, F* ierr) {
  MPI_Request r;
  *ierr = MPI_Iallgather(Buf(sbuf), *scount, T(stype), Buf(rbuf), *rcount, T(rtype), C(comm), &r);
  SetRequest(*ierr, r, request);
}

void mpi_iallgatherv_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcounts, F* displs, F* rtype,
                      F* comm, F* request, F* ierr) {
  MPI_Request r;
  *ierr = MPI_Iallgatherv(Buf(sbuf), *scount, T(stype), Buf(rbuf), rcounts, displs, T(rtype),
                          C(comm), &r);
  SetRequest(*ierr, r, request);
}

void mpi_ialltoall_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcount, F* rtype, F* comm,
                    F* request, F* ierr) {
  MPI_Request r;
  *ierr = MPI_Ialltoall(Buf(sbuf), *scount, T(stype), Buf(rbuf), *rcount, T(rtype), C(comm), &r);
  SetRequest(*ierr, r, request);
}

void mpi_ialltoallv_(void* sbuf, F* scounts, F* sdispls, F* stype, void* rbuf, F* rcounts,
                     F* rdispls, F* rtype, F* comm, F* request, F* ierr) {
  MPI_Request r;
  *ierr = MPI_Ialltoallv(Buf(sbuf), scounts, sdispls, T(stype), Buf(rbuf), rcounts, rdispls,
                         T(rtype), C(comm), &r);
  SetRequest(*ierr, r, request);
}

// ---- neighbourhood collectives (the w-variants' displacements are INTEGER(MPI_ADDRESS_KIND)
// arrays, their datatype arrays have one entry per out- / in-neighbour) ----

void mpi_neighbor_allgather_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcount, F* rtype,
                             F* comm, F* ierr) {
  *ierr =
      MPI_Neighbor_allgather(Buf(sbuf), *scount, T(stype), Buf(rbuf), *rcount, T(rtype), C(comm));
}

void mpi_ineighbor_allgather_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcount, F* rtype,
                              F* comm, F* request, F* ierr) {
  MPI_Request r;
  *ierr = MPI_Ineighbor_allgather(Buf(sbuf), *scount, T(stype), Buf(rbuf), *rcount, T(rtype),
                                  C(comm), &r);
  SetRequest(*ierr, r, request);
}

void mpi_neighbor_allgatherv_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcounts, F* displs,
                              F* rtype, F* comm, F* ierr) {
  *ierr = MPI_Neighbor_allgatherv(Buf(sbuf), *scount, T(stype), Buf(rbuf), rcounts, displs,
                                  T(rtype), C(comm));
}

void mpi_ineighbor_allgatherv_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcounts, F* displs,
                               F* rtype, F* comm, F* request, F* ierr) {
  MPI_Request r;
  *ierr = MPI_Ineighbor_allgatherv(Buf(sbuf), *scount, T(stype), Buf(rbuf), rcounts, displs,
                                   T(rtype), C(comm), &r);
  SetRequest(*ierr, r, request);
}

void mpi_neighbor_alltoall_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcount, F* rtype,
                            F* comm, F* ierr) {
  *ierr =
      MPI_Neighbor_alltoall(Buf(sbuf), *scount, T(stype), Buf(rbuf), *rcount, T(rtype), C(comm));
}

void mpi_ineighbor_alltoall_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcount, F* rtype,
                             F* comm, F* request, F* ierr) {
  MPI_Request r;
  *ierr = MPI_Ineighbor_alltoall(Buf(sbuf), *scount, T(stype), Buf(rbuf), *rcount, T(rtype),
                                 C(comm), &r);
  SetRequest(*ierr, r, request);
}

void mpi_neighbor_alltoallv_(void* sbuf, F* scounts, F* sdispls, F* stype, void* rbuf, F* rcounts,
                             F* rdispls, F* rtype, F* comm, F* ierr) {
  *ierr = MPI_Neighbor_alltoallv(Buf(sbuf), scounts, sdispls, T(stype), Buf(rbuf), rcounts, rdispls,
                                 T(rtype), C(comm));
}

void mpi_ineighbor_alltoallv_(void* sbuf, F* scounts, F* sdispls, F* stype, void* rbuf, F* rcounts,
                              F* rdispls, F* rtype, F* comm, F* request, F* ierr) {
  MPI_Request r;
  *ierr = MPI_Ineighbor_alltoallv(Buf(sbuf), scounts, sdispls, T(stype), Buf(rbuf), rcounts,
                                  rdispls, T(rtype), C(comm), &r);
  SetRequest(*ierr, r, request);
}

void mpi_neighbor_alltoallw_(void* sbuf, F* scounts, Aint* sdispls, F* stypes, void* rbuf,
                             F* rcounts, Aint* rdispls, F* rtypes, F* comm, F* ierr) {
  Degrees d = NeighborDegrees(C(comm));
  TypeArray st(d.out, stypes), rt(d.in, rtypes);
  *ierr = MPI_Neighbor_alltoallw(Buf(sbuf), scounts, sdispls, st.c(), Buf(rbuf), rcounts, rdispls,
                                 rt.c(), C(comm));
}

// See mpi_ialltoallw_.
void mpi_ineighbor_alltoallw_(void* sbuf, F* scounts, Aint* sdispls, F* stypes, void* rbuf,
                              F* rcounts, Aint* rdispls, F* rtypes, F* comm, F* request, F* ierr) {
  PXT_CALL("MPI_Ineighbor_alltoallw");
  CallScope s(kCall);
  if (s.buffer()) {
    Degrees d = NeighborDegrees(C(comm));
    TypeArray st(d.out, stypes), rt(d.in, rtypes);
    RecordCollective(s, C(comm), SumBytesW(d.out, scounts, st.c()),
                     SumBytesW(d.in, rcounts, rt.c()));
  }
  if (!pmpi_ineighbor_alltoallw_) {
    *ierr = MPI_ERR_INTERN;
    return;
  }
  pmpi_ineighbor_alltoallw_(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm,
                            request, ierr);
}

// ---- mpi_f08: the routines above with an OPTIONAL ierror (null when left out) ----

void mpi_alltoallw_f08_(void* sbuf, F* scounts, F* sdispls, F* stypes, void* rbuf, F* rcounts,
                        F* rdispls, F* rtypes, F* comm, F* ierr) {
  mpi_alltoallw_(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm,
                 Ierror(ierr));
}

void mpi_ialltoallw_f08_(void* sbuf, F* scounts, F* sdispls, F* stypes, void* rbuf, F* rcounts,
                         F* rdispls, F* rtypes, F* comm, F* request, F* ierr) {
  mpi_ialltoallw_(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm, request,
                  Ierror(ierr));
}

void mpi_reduce_scatter_block_f08_(void* sbuf, void* rbuf, F* rcount, F* type, F* op, F* comm,
                                   F* ierr) {
  mpi_reduce_scatter_block_(sbuf, rbuf, rcount, type, op, comm, Ierror(ierr));
}

void mpi_iscan_f08_(void* sbuf, void* rbuf, F* count, F* type, F* op, F* comm, F* request,
                    F* ierr) {
  mpi_iscan_(sbuf, rbuf, count, type, op, comm, request, Ierror(ierr));
}

void mpi_iexscan_f08_(void* sbuf, void* rbuf, F* count, F* type, F* op, F* comm, F* request,
                      F* ierr) {
  mpi_iexscan_(sbuf, rbuf, count, type, op, comm, request, Ierror(ierr));
}

void mpi_ireduce_scatter_f08_(void* sbuf, void* rbuf, F* rcounts, F* type, F* op, F* comm,
                              F* request, F* ierr) {
  mpi_ireduce_scatter_(sbuf, rbuf, rcounts, type, op, comm, request, Ierror(ierr));
}

void mpi_ireduce_scatter_block_f08_(void* sbuf, void* rbuf, F* rcount, F* type, F* op, F* comm,
                                    F* request, F* ierr) {
  mpi_ireduce_scatter_block_(sbuf, rbuf, rcount, type, op, comm, request, Ierror(ierr));
}

void mpi_igather_f08_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcount, F* rtype, F* root,
                      F* comm, F* request, F* ierr) {
  mpi_igather_(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, request, Ierror(ierr));
}

void mpi_igatherv_f08_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcounts, F* displs, F* rtype,
                       F* root, F* comm, F* request, F* ierr) {
  mpi_igatherv_(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm, request,
                Ierror(ierr));
}

void mpi_iscatter_f08_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcount, F* rtype, F* root,
                       F* comm, F* request, F* ierr) {
  mpi_iscatter_(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, request, Ierror(ierr));
}

void mpi_iscatterv_f08_(void* sbuf, F* scounts, F* displs, F* stype, void* rbuf, F* rcount,
                        F* rtype, F* root, F* comm, F* request, F* ierr) {
  mpi_iscatterv_(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm, request,
                 Ierror(ierr));
}

void mpi_iallgather_f08_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcount, F* rtype, F* comm,
                         F* request, F* ierr) {
  mpi_iallgather_(sbuf, scount, stype, rbuf, rcount, rtype, comm, request, Ierror(ierr));
}

void mpi_iallgatherv_f08_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcounts, F* displs,
                          F* rtype, F* comm, F* request, F* ierr) {
  mpi_iallgatherv_(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, request, Ierror(ierr));
}

void mpi_ialltoall_f08_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcount, F* rtype, F* comm,
                        F* request, F* ierr) {
  mpi_ialltoall_(sbuf, scount, stype, rbuf, rcount, rtype, comm, request, Ierror(ierr));
}

void mpi_ialltoallv_f08_(void* sbuf, F* scounts, F* sdispls, F* stype, void* rbuf, F* rcounts,
                         F* rdispls, F* rtype, F* comm, F* request, F* ierr) {
  mpi_ialltoallv_(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, request,
                  Ierror(ierr));
}

void mpi_neighbor_allgather_f08_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcount, F* rtype,
                                 F* comm, F* ierr) {
  mpi_neighbor_allgather_(sbuf, scount, stype, rbuf, rcount, rtype, comm, Ierror(ierr));
}

void mpi_ineighbor_allgather_f08_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcount, F* rtype,
                                  F* comm, F* request, F* ierr) {
  mpi_ineighbor_allgather_(sbuf, scount, stype, rbuf, rcount, rtype, comm, request, Ierror(ierr));
}

void mpi_neighbor_allgatherv_f08_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcounts,
                                  F* displs, F* rtype, F* comm, F* ierr) {
  mpi_neighbor_allgatherv_(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, Ierror(ierr));
}

void mpi_ineighbor_allgatherv_f08_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcounts,
                                   F* displs, F* rtype, F* comm, F* request, F* ierr) {
  mpi_ineighbor_allgatherv_(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, request,
                            Ierror(ierr));
}

void mpi_neighbor_alltoall_f08_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcount, F* rtype,
                                F* comm, F* ierr) {
  mpi_neighbor_alltoall_(sbuf, scount, stype, rbuf, rcount, rtype, comm, Ierror(ierr));
}

void mpi_ineighbor_alltoall_f08_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcount, F* rtype,
                                 F* comm, F* request, F* ierr) {
  mpi_ineighbor_alltoall_(sbuf, scount, stype, rbuf, rcount, rtype, comm, request, Ierror(ierr));
}

void mpi_neighbor_alltoallv_f08_(void* sbuf, F* scounts, F* sdispls, F* stype, void* rbuf,
                                 F* rcounts, F* rdispls, F* rtype, F* comm, F* ierr) {
  mpi_neighbor_alltoallv_(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm,
                          Ierror(ierr));
}

void mpi_ineighbor_alltoallv_f08_(void* sbuf, F* scounts, F* sdispls, F* stype, void* rbuf,
                                  F* rcounts, F* rdispls, F* rtype, F* comm, F* request, F* ierr) {
  mpi_ineighbor_alltoallv_(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm,
                           request, Ierror(ierr));
}

void mpi_neighbor_alltoallw_f08_(void* sbuf, F* scounts, Aint* sdispls, F* stypes, void* rbuf,
                                 F* rcounts, Aint* rdispls, F* rtypes, F* comm, F* ierr) {
  mpi_neighbor_alltoallw_(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm,
                          Ierror(ierr));
}

void mpi_ineighbor_alltoallw_f08_(void* sbuf, F* scounts, Aint* sdispls, F* stypes, void* rbuf,
                                  F* rcounts, Aint* rdispls, F* rtypes, F* comm, F* request,
                                  F* ierr) {
  mpi_ineighbor_alltoallw_(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm,
                           request, Ierror(ierr));
}

}  // extern "C"

// The routines above under the other compilers' names (fortran_util.h).
PXT_FORTRAN_ALIASES(mpi_alltoallw, MPI_ALLTOALLW)
PXT_FORTRAN_ALIASES(mpi_ialltoallw, MPI_IALLTOALLW)
PXT_FORTRAN_ALIASES(mpi_reduce_scatter_block, MPI_REDUCE_SCATTER_BLOCK)
PXT_FORTRAN_ALIASES(mpi_iscan, MPI_ISCAN)
PXT_FORTRAN_ALIASES(mpi_iexscan, MPI_IEXSCAN)
PXT_FORTRAN_ALIASES(mpi_ireduce_scatter, MPI_IREDUCE_SCATTER)
PXT_FORTRAN_ALIASES(mpi_ireduce_scatter_block, MPI_IREDUCE_SCATTER_BLOCK)
PXT_FORTRAN_ALIASES(mpi_igather, MPI_IGATHER)
PXT_FORTRAN_ALIASES(mpi_igatherv, MPI_IGATHERV)
PXT_FORTRAN_ALIASES(mpi_iscatter, MPI_ISCATTER)
PXT_FORTRAN_ALIASES(mpi_iscatterv, MPI_ISCATTERV)
PXT_FORTRAN_ALIASES(mpi_iallgather, MPI_IALLGATHER)
PXT_FORTRAN_ALIASES(mpi_iallgatherv, MPI_IALLGATHERV)
PXT_FORTRAN_ALIASES(mpi_ialltoall, MPI_IALLTOALL)
PXT_FORTRAN_ALIASES(mpi_ialltoallv, MPI_IALLTOALLV)
PXT_FORTRAN_ALIASES(mpi_neighbor_allgather, MPI_NEIGHBOR_ALLGATHER)
PXT_FORTRAN_ALIASES(mpi_ineighbor_allgather, MPI_INEIGHBOR_ALLGATHER)
PXT_FORTRAN_ALIASES(mpi_neighbor_allgatherv, MPI_NEIGHBOR_ALLGATHERV)
PXT_FORTRAN_ALIASES(mpi_ineighbor_allgatherv, MPI_INEIGHBOR_ALLGATHERV)
PXT_FORTRAN_ALIASES(mpi_neighbor_alltoall, MPI_NEIGHBOR_ALLTOALL)
PXT_FORTRAN_ALIASES(mpi_ineighbor_alltoall, MPI_INEIGHBOR_ALLTOALL)
PXT_FORTRAN_ALIASES(mpi_neighbor_alltoallv, MPI_NEIGHBOR_ALLTOALLV)
PXT_FORTRAN_ALIASES(mpi_ineighbor_alltoallv, MPI_INEIGHBOR_ALLTOALLV)
PXT_FORTRAN_ALIASES(mpi_neighbor_alltoallw, MPI_NEIGHBOR_ALLTOALLW)
PXT_FORTRAN_ALIASES(mpi_ineighbor_alltoallw, MPI_INEIGHBOR_ALLTOALLW)
