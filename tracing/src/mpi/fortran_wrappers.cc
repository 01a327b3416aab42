// Fortran bindings of libparallax-mpi.so: Open MPI's Fortran library (`mpif.h`, `use mpi`)
// implements mpi_send_ and friends by calling PMPI_Send directly, so the C wrappers never see a
// Fortran program's calls. These wrappers take the gfortran symbols (lower case, one trailing
// underscore; the other compilers' names are aliases, listed at the end of each file), convert
// the handles and call the library's own C wrappers, so a Fortran program gets exactly the
// records of the same C program. The mpi_f08 routines (`use mpi_f08`) are
// wrapped at the end, over the mpif.h ones. This file: start-up, point-to-point, probes,
// completion, the first collectives and the communicator constructors; the other collectives
// are in fortran_wrappers_coll.cc, one-sided and MPI-IO in fortran_wrappers_rma_io.cc, the
// shared conversions in fortran_util.h.

#include <mpi.h>

#include <memory>

#include "tracing/src/mpi/fortran_util.h"

using namespace parallax::tracing::mpi::fortran;

extern "C" {

void mpi_init_(F* ierr) { *ierr = MPI_Init(nullptr, nullptr); }

void mpi_init_thread_(F* required, F* provided, F* ierr) {
  int p = 0;
  *ierr = MPI_Init_thread(nullptr, nullptr, *required, &p);
  *provided = p;
}

void mpi_finalize_(F* ierr) { *ierr = MPI_Finalize(); }

void mpi_abort_(F* comm, F* errorcode, F* ierr) { *ierr = MPI_Abort(C(comm), *errorcode); }

void mpi_comm_rank_(F* comm, F* rank, F* ierr) {
  int r = 0;
  *ierr = MPI_Comm_rank(C(comm), &r);
  *rank = r;
}

void mpi_comm_size_(F* comm, F* size, F* ierr) {
  int n = 0;
  *ierr = MPI_Comm_size(C(comm), &n);
  *size = n;
}

void mpi_comm_split_(F* comm, F* color, F* key, F* newcomm, F* ierr) {
  MPI_Comm c;
  *ierr = MPI_Comm_split(C(comm), *color, *key, &c);
  if (*ierr == MPI_SUCCESS) *newcomm = PMPI_Comm_c2f(c);
}

void mpi_comm_dup_(F* comm, F* newcomm, F* ierr) {
  MPI_Comm c;
  *ierr = MPI_Comm_dup(C(comm), &c);
  if (*ierr == MPI_SUCCESS) *newcomm = PMPI_Comm_c2f(c);
}

void mpi_comm_free_(F* comm, F* ierr) {
  MPI_Comm c = C(comm);
  *ierr = MPI_Comm_free(&c);
  if (*ierr == MPI_SUCCESS) *comm = PMPI_Comm_c2f(c);
}

void mpi_send_(void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* ierr) {
  *ierr = MPI_Send(Buf(buf), *count, T(type), *dest, *tag, C(comm));
}

void mpi_ssend_(void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* ierr) {
  *ierr = MPI_Ssend(Buf(buf), *count, T(type), *dest, *tag, C(comm));
}

void mpi_bsend_(void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* ierr) {
  *ierr = MPI_Bsend(Buf(buf), *count, T(type), *dest, *tag, C(comm));
}

void mpi_rsend_(void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* ierr) {
  *ierr = MPI_Rsend(Buf(buf), *count, T(type), *dest, *tag, C(comm));
}

void mpi_isend_(void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* request, F* ierr) {
  MPI_Request r;
  *ierr = MPI_Isend(Buf(buf), *count, T(type), *dest, *tag, C(comm), &r);
  if (*ierr == MPI_SUCCESS) *request = PMPI_Request_c2f(r);
}

void mpi_issend_(void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* request, F* ierr) {
  MPI_Request r;
  *ierr = MPI_Issend(Buf(buf), *count, T(type), *dest, *tag, C(comm), &r);
  if (*ierr == MPI_SUCCESS) *request = PMPI_Request_c2f(r);
}

void mpi_ibsend_(void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* request, F* ierr) {
  MPI_Request r;
  *ierr = MPI_Ibsend(Buf(buf), *count, T(type), *dest, *tag, C(comm), &r);
  if (*ierr == MPI_SUCCESS) *request = PMPI_Request_c2f(r);
}

void mpi_irsend_(void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* request, F* ierr) {
  MPI_Request r;
  *ierr = MPI_Irsend(Buf(buf), *count, T(type), *dest, *tag, C(comm), &r);
  if (*ierr == MPI_SUCCESS) *request = PMPI_Request_c2f(r);
}

void mpi_send_init_(void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* request, F* ierr) {
  MPI_Request r;
  *ierr = MPI_Send_init(Buf(buf), *count, T(type), *dest, *tag, C(comm), &r);
  if (*ierr == MPI_SUCCESS) *request = PMPI_Request_c2f(r);
}

void mpi_ssend_init_(void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* request, F* ierr) {
  MPI_Request r;
  *ierr = MPI_Ssend_init(Buf(buf), *count, T(type), *dest, *tag, C(comm), &r);
  if (*ierr == MPI_SUCCESS) *request = PMPI_Request_c2f(r);
}

void mpi_bsend_init_(void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* request, F* ierr) {
  MPI_Request r;
  *ierr = MPI_Bsend_init(Buf(buf), *count, T(type), *dest, *tag, C(comm), &r);
  if (*ierr == MPI_SUCCESS) *request = PMPI_Request_c2f(r);
}

void mpi_rsend_init_(void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* request, F* ierr) {
  MPI_Request r;
  *ierr = MPI_Rsend_init(Buf(buf), *count, T(type), *dest, *tag, C(comm), &r);
  if (*ierr == MPI_SUCCESS) *request = PMPI_Request_c2f(r);
}

void mpi_irecv_(void* buf, F* count, F* type, F* source, F* tag, F* comm, F* request, F* ierr) {
  MPI_Request r;
  *ierr = MPI_Irecv(Buf(buf), *count, T(type), *source, *tag, C(comm), &r);
  if (*ierr == MPI_SUCCESS) *request = PMPI_Request_c2f(r);
}

void mpi_recv_init_(void* buf, F* count, F* type, F* source, F* tag, F* comm, F* request, F* ierr) {
  MPI_Request r;
  *ierr = MPI_Recv_init(Buf(buf), *count, T(type), *source, *tag, C(comm), &r);
  if (*ierr == MPI_SUCCESS) *request = PMPI_Request_c2f(r);
}

void mpi_recv_(void* buf, F* count, F* type, F* source, F* tag, F* comm, F* status, F* ierr) {
  StatusArg s(status);
  *ierr = MPI_Recv(Buf(buf), *count, T(type), *source, *tag, C(comm), s.c());
  s.Done(*ierr);
}

void mpi_sendrecv_(void* sbuf, F* scount, F* stype, F* dest, F* stag, void* rbuf, F* rcount,
                   F* rtype, F* source, F* rtag, F* comm, F* status, F* ierr) {
  StatusArg s(status);
  *ierr = MPI_Sendrecv(Buf(sbuf), *scount, T(stype), *dest, *stag, Buf(rbuf), *rcount, T(rtype),
                       *source, *rtag, C(comm), s.c());
  s.Done(*ierr);
}

void mpi_probe_(F* source, F* tag, F* comm, F* status, F* ierr) {
  StatusArg s(status);
  *ierr = MPI_Probe(*source, *tag, C(comm), s.c());
  s.Done(*ierr);
}

void mpi_iprobe_(F* source, F* tag, F* comm, F* flag, F* status, F* ierr) {
  StatusArg s(status);
  int f = 0;
  *ierr = MPI_Iprobe(*source, *tag, C(comm), &f, s.c());
  *flag = f;
  s.Done(*ierr);
}

void mpi_start_(F* request, F* ierr) {
  MPI_Request r = PMPI_Request_f2c(*request);
  *ierr = MPI_Start(&r);
  *request = PMPI_Request_c2f(r);
}

void mpi_startall_(F* count, F* requests, F* ierr) {
  RequestArray r(*count, requests, reinterpret_cast<F*>(mpi_fortran_statuses_ignore_));
  *ierr = MPI_Startall(*count, r.c());
  r.Done(*ierr, 0);
}

void mpi_request_free_(F* request, F* ierr) {
  MPI_Request r = PMPI_Request_f2c(*request);
  *ierr = MPI_Request_free(&r);
  *request = PMPI_Request_c2f(r);
}

void mpi_wait_(F* request, F* status, F* ierr) {
  MPI_Request r = PMPI_Request_f2c(*request);
  StatusArg s(status);
  *ierr = MPI_Wait(&r, s.c());
  *request = PMPI_Request_c2f(r);
  s.Done(*ierr);
}

void mpi_test_(F* request, F* flag, F* status, F* ierr) {
  MPI_Request r = PMPI_Request_f2c(*request);
  StatusArg s(status);
  int f = 0;
  *ierr = MPI_Test(&r, &f, s.c());
  *request = PMPI_Request_c2f(r);
  *flag = f;
  if (f) s.Done(*ierr);
}

void mpi_waitall_(F* count, F* requests, F* statuses, F* ierr) {
  RequestArray r(*count, requests, statuses);
  *ierr = MPI_Waitall(*count, r.c(), r.statuses());
  r.Done(*ierr, static_cast<size_t>(*count));
}

void mpi_testall_(F* count, F* requests, F* flag, F* statuses, F* ierr) {
  RequestArray r(*count, requests, statuses);
  int f = 0;
  *ierr = MPI_Testall(*count, r.c(), &f, r.statuses());
  *flag = f;
  r.Done(*ierr, f ? static_cast<size_t>(*count) : 0);
}

void mpi_waitany_(F* count, F* requests, F* index, F* status, F* ierr) {
  RequestArray r(*count, requests, reinterpret_cast<F*>(mpi_fortran_statuses_ignore_));
  StatusArg s(status);
  int i = 0;
  *ierr = MPI_Waitany(*count, r.c(), &i, s.c());
  r.Done(*ierr, 0);
  *index = i == MPI_UNDEFINED ? i : i + 1;  // Fortran indices start at 1
  s.Done(*ierr);
}

void mpi_testany_(F* count, F* requests, F* index, F* flag, F* status, F* ierr) {
  RequestArray r(*count, requests, reinterpret_cast<F*>(mpi_fortran_statuses_ignore_));
  StatusArg s(status);
  int i = 0, f = 0;
  *ierr = MPI_Testany(*count, r.c(), &i, &f, s.c());
  r.Done(*ierr, 0);
  *index = i == MPI_UNDEFINED ? i : i + 1;
  *flag = f;
  if (f) s.Done(*ierr);
}

void mpi_waitsome_(F* incount, F* requests, F* outcount, F* indices, F* statuses, F* ierr) {
  RequestArray r(*incount, requests, statuses);
  SmallArray<int> idx(Count(*incount));
  int out = 0;
  *ierr = MPI_Waitsome(*incount, r.c(), &out, idx.get(), r.statuses());
  *outcount = out;
  for (int k = 0; *ierr == MPI_SUCCESS && out != MPI_UNDEFINED && k < out; ++k)
    indices[k] = idx[k] + 1;
  r.Done(*ierr, out == MPI_UNDEFINED ? 0 : static_cast<size_t>(out));
}

void mpi_testsome_(F* incount, F* requests, F* outcount, F* indices, F* statuses, F* ierr) {
  RequestArray r(*incount, requests, statuses);
  SmallArray<int> idx(Count(*incount));
  int out = 0;
  *ierr = MPI_Testsome(*incount, r.c(), &out, idx.get(), r.statuses());
  *outcount = out;
  for (int k = 0; *ierr == MPI_SUCCESS && out != MPI_UNDEFINED && k < out; ++k)
    indices[k] = idx[k] + 1;
  r.Done(*ierr, out == MPI_UNDEFINED ? 0 : static_cast<size_t>(out));
}

void mpi_barrier_(F* comm, F* ierr) { *ierr = MPI_Barrier(C(comm)); }

void mpi_bcast_(void* buf, F* count, F* type, F* root, F* comm, F* ierr) {
  *ierr = MPI_Bcast(Buf(buf), *count, T(type), *root, C(comm));
}

void mpi_reduce_(void* sbuf, void* rbuf, F* count, F* type, F* op, F* root, F* comm, F* ierr) {
  *ierr = MPI_Reduce(Buf(sbuf), Buf(rbuf), *count, T(type), O(op), *root, C(comm));
}

void mpi_allreduce_(void* sbuf, void* rbuf, F* count, F* type, F* op, F* comm, F* ierr) {
  *ierr = MPI_Allreduce(Buf(sbuf), Buf(rbuf), *count, T(type), O(op), C(comm));
}

void mpi_scan_(void* sbuf, void* rbuf, F* count, F* type, F* op, F* comm, F* ierr) {
  *ierr = MPI_Scan(Buf(sbuf), Buf(rbuf), *count, T(type), O(op), C(comm));
}

void mpi_gather_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcount, F* rtype, F* root, F* comm,
                 F* ierr) {
  *ierr = MPI_Gather(Buf(sbuf), *scount, T(stype), Buf(rbuf), *rcount, T(rtype), *root, C(comm));
}

void mpi_scatter_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcount, F* rtype, F* root,
                  F* comm, F* ierr) {
  *ierr = MPI_Scatter(Buf(sbuf), *scount, T(stype), Buf(rbuf), *rcount, T(rtype), *root, C(comm));
}

void mpi_allgather_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcount, F* rtype, F* comm,
                    F* ierr) {
  *ierr = MPI_Allgather(Buf(sbuf), *scount, T(stype), Buf(rbuf), *rcount, T(rtype), C(comm));
}

void mpi_alltoall_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcount, F* rtype, F* comm,
                   F* ierr) {
  *ierr = MPI_Alltoall(Buf(sbuf), *scount, T(stype), Buf(rbuf), *rcount, T(rtype), C(comm));
}

void mpi_exscan_(void* sbuf, void* rbuf, F* count, F* type, F* op, F* comm, F* ierr) {
  *ierr = MPI_Exscan(Buf(sbuf), Buf(rbuf), *count, T(type), O(op), C(comm));
}

void mpi_gatherv_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcounts, F* displs, F* rtype,
                  F* root, F* comm, F* ierr) {
  *ierr = MPI_Gatherv(Buf(sbuf), *scount, T(stype), Buf(rbuf), rcounts, displs, T(rtype), *root,
                      C(comm));
}

void mpi_scatterv_(void* sbuf, F* scounts, F* displs, F* stype, void* rbuf, F* rcount, F* rtype,
                   F* root, F* comm, F* ierr) {
  *ierr = MPI_Scatterv(Buf(sbuf), scounts, displs, T(stype), Buf(rbuf), *rcount, T(rtype), *root,
                       C(comm));
}

void mpi_allgatherv_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcounts, F* displs, F* rtype,
                     F* comm, F* ierr) {
  *ierr =
      MPI_Allgatherv(Buf(sbuf), *scount, T(stype), Buf(rbuf), rcounts, displs, T(rtype), C(comm));
}

void mpi_alltoallv_(void* sbuf, F* scounts, F* sdispls, F* stype, void* rbuf, F* rcounts,
                    F* rdispls, F* rtype, F* comm, F* ierr) {
  *ierr = MPI_Alltoallv(Buf(sbuf), scounts, sdispls, T(stype), Buf(rbuf), rcounts, rdispls,
                        T(rtype), C(comm));
}

void mpi_reduce_scatter_(void* sbuf, void* rbuf, F* rcounts, F* type, F* op, F* comm, F* ierr) {
  *ierr = MPI_Reduce_scatter(Buf(sbuf), Buf(rbuf), rcounts, T(type), O(op), C(comm));
}

void mpi_ibarrier_(F* comm, F* request, F* ierr) {
  MPI_Request r;
  *ierr = MPI_Ibarrier(C(comm), &r);
  if (*ierr == MPI_SUCCESS) *request = PMPI_Request_c2f(r);
}

void mpi_ibcast_(void* buf, F* count, F* type, F* root, F* comm, F* request, F* ierr) {
  MPI_Request r;
  *ierr = MPI_Ibcast(Buf(buf), *count, T(type), *root, C(comm), &r);
  if (*ierr == MPI_SUCCESS) *request = PMPI_Request_c2f(r);
}

void mpi_iallreduce_(void* sbuf, void* rbuf, F* count, F* type, F* op, F* comm, F* request,
                     F* ierr) {
  MPI_Request r;
  *ierr = MPI_Iallreduce(Buf(sbuf), Buf(rbuf), *count, T(type), O(op), C(comm), &r);
  if (*ierr == MPI_SUCCESS) *request = PMPI_Request_c2f(r);
}

void mpi_ireduce_(void* sbuf, void* rbuf, F* count, F* type, F* op, F* root, F* comm, F* request,
                  F* ierr) {
  MPI_Request r;
  *ierr = MPI_Ireduce(Buf(sbuf), Buf(rbuf), *count, T(type), O(op), *root, C(comm), &r);
  if (*ierr == MPI_SUCCESS) *request = PMPI_Request_c2f(r);
}

void mpi_cancel_(F* request, F* ierr) {
  MPI_Request r = PMPI_Request_f2c(*request);
  *ierr = MPI_Cancel(&r);
}

void mpi_comm_create_(F* comm, F* group, F* newcomm, F* ierr) {
  MPI_Comm c;
  *ierr = MPI_Comm_create(C(comm), PMPI_Group_f2c(*group), &c);
  if (*ierr == MPI_SUCCESS) *newcomm = PMPI_Comm_c2f(c);
}

void mpi_cart_create_(F* comm, F* ndims, F* dims, F* periods, F* reorder, F* newcomm, F* ierr) {
  // Fortran LOGICAL periods and reorder: gfortran stores .true. as 1, .false. as 0.
  MPI_Comm c;
  *ierr = MPI_Cart_create(C(comm), *ndims, dims, periods, *reorder, &c);
  if (*ierr == MPI_SUCCESS) *newcomm = PMPI_Comm_c2f(c);
}

void mpi_cart_sub_(F* comm, F* remain_dims, F* newcomm, F* ierr) {
  MPI_Comm c;
  *ierr = MPI_Cart_sub(C(comm), remain_dims, &c);
  if (*ierr == MPI_SUCCESS) *newcomm = PMPI_Comm_c2f(c);
}

void mpi_sendrecv_replace_(void* buf, F* count, F* type, F* dest, F* stag, F* source, F* rtag,
                           F* comm, F* status, F* ierr) {
  StatusArg s(status);
  *ierr =
      MPI_Sendrecv_replace(Buf(buf), *count, T(type), *dest, *stag, *source, *rtag, C(comm), s.c());
  s.Done(*ierr);
}

// ---- matched probes: the MPI_Message handle is converted both ways ----

void mpi_mprobe_(F* source, F* tag, F* comm, F* message, F* status, F* ierr) {
  StatusArg s(status);
  MPI_Message m;
  *ierr = MPI_Mprobe(*source, *tag, C(comm), &m, s.c());
  if (*ierr == MPI_SUCCESS) *message = PMPI_Message_c2f(m);
  s.Done(*ierr);
}

void mpi_improbe_(F* source, F* tag, F* comm, F* flag, F* message, F* status, F* ierr) {
  StatusArg s(status);
  MPI_Message m = MPI_MESSAGE_NULL;
  int f = 0;
  *ierr = MPI_Improbe(*source, *tag, C(comm), &f, &m, s.c());
  *flag = f;
  if (*ierr == MPI_SUCCESS) *message = PMPI_Message_c2f(m);  // MPI_MESSAGE_NULL without a match
  if (f) s.Done(*ierr);
}

void mpi_mrecv_(void* buf, F* count, F* type, F* message, F* status, F* ierr) {
  StatusArg s(status);
  MPI_Message m = PMPI_Message_f2c(*message);
  *ierr = MPI_Mrecv(Buf(buf), *count, T(type), &m, s.c());
  *message = PMPI_Message_c2f(m);
  s.Done(*ierr);
}

void mpi_imrecv_(void* buf, F* count, F* type, F* message, F* request, F* ierr) {
  MPI_Message m = PMPI_Message_f2c(*message);
  MPI_Request r;
  *ierr = MPI_Imrecv(Buf(buf), *count, T(type), &m, &r);
  *message = PMPI_Message_c2f(m);
  SetRequest(*ierr, r, request);
}

// ---- communicator constructors (LOGICAL reorder / high: gfortran's .true. is 1) ----

void mpi_comm_create_group_(F* comm, F* group, F* tag, F* newcomm, F* ierr) {
  MPI_Comm c;
  *ierr = MPI_Comm_create_group(C(comm), G(group), *tag, &c);
  SetComm(*ierr, c, newcomm);
}

void mpi_comm_split_type_(F* comm, F* split_type, F* key, F* info, F* newcomm, F* ierr) {
  MPI_Comm c;
  *ierr = MPI_Comm_split_type(C(comm), *split_type, *key, I(info), &c);
  SetComm(*ierr, c, newcomm);
}

// Open MPI creates the communicator object at the call (usable once the request completes), so
// its handle is converted now, as Open MPI's own Fortran binding does.
void mpi_comm_idup_(F* comm, F* newcomm, F* request, F* ierr) {
  MPI_Comm c;
  MPI_Request r;
  *ierr = MPI_Comm_idup(C(comm), &c, &r);
  SetComm(*ierr, c, newcomm);
  SetRequest(*ierr, r, request);
}

void mpi_graph_create_(F* comm, F* nnodes, F* index, F* edges, F* reorder, F* newcomm, F* ierr) {
  MPI_Comm c;
  *ierr = MPI_Graph_create(C(comm), *nnodes, index, edges, *reorder != 0, &c);
  SetComm(*ierr, c, newcomm);
}

void mpi_dist_graph_create_(F* comm, F* n, F* sources, F* degrees, F* destinations, F* weights,
                            F* info, F* reorder, F* newcomm, F* ierr) {
  MPI_Comm c;
  *ierr = MPI_Dist_graph_create(C(comm), *n, sources, degrees, destinations, Weights(weights),
                                I(info), *reorder != 0, &c);
  SetComm(*ierr, c, newcomm);
}

void mpi_dist_graph_create_adjacent_(F* comm, F* indegree, F* sources, F* sourceweights,
                                     F* outdegree, F* destinations, F* destweights, F* info,
                                     F* reorder, F* newcomm, F* ierr) {
  MPI_Comm c;
  *ierr = MPI_Dist_graph_create_adjacent(C(comm), *indegree, sources, Weights(sourceweights),
                                         *outdegree, destinations, Weights(destweights), I(info),
                                         *reorder != 0, &c);
  SetComm(*ierr, c, newcomm);
}

void mpi_intercomm_create_(F* local_comm, F* local_leader, F* peer_comm, F* remote_leader, F* tag,
                           F* newcomm, F* ierr) {
  MPI_Comm c;
  *ierr =
      MPI_Intercomm_create(C(local_comm), *local_leader, C(peer_comm), *remote_leader, *tag, &c);
  SetComm(*ierr, c, newcomm);
}

void mpi_intercomm_merge_(F* intercomm, F* high, F* newcomm, F* ierr) {
  MPI_Comm c;
  *ierr = MPI_Intercomm_merge(C(intercomm), *high != 0, &c);
  SetComm(*ierr, c, newcomm);
}

// ---- mpi_f08 (`use mpi_f08`): Open MPI's mpi_<name>_f08_ routines (libmpi_usempif08) call its
// mpif.h layer's ompi_<name>_f, which calls PMPI_<Name>: neither the C nor the mpif.h wrappers
// above see them. Their arguments are those of the mpif.h routines (a TYPE(MPI_Comm) & co. is one
// INTEGER, TYPE(MPI_Status) is Open MPI's Fortran status, the choice buffers are addresses)
// except that ierror is OPTIONAL: absent, its address is null. ----

void mpi_init_f08_(F* ierr) { mpi_init_(Ierror(ierr)); }

void mpi_init_thread_f08_(F* required, F* provided, F* ierr) {
  mpi_init_thread_(required, provided, Ierror(ierr));
}

void mpi_finalize_f08_(F* ierr) { mpi_finalize_(Ierror(ierr)); }

void mpi_abort_f08_(F* comm, F* errorcode, F* ierr) { mpi_abort_(comm, errorcode, Ierror(ierr)); }

void mpi_comm_rank_f08_(F* comm, F* rank, F* ierr) { mpi_comm_rank_(comm, rank, Ierror(ierr)); }

void mpi_comm_size_f08_(F* comm, F* size, F* ierr) { mpi_comm_size_(comm, size, Ierror(ierr)); }

void mpi_comm_split_f08_(F* comm, F* color, F* key, F* newcomm, F* ierr) {
  mpi_comm_split_(comm, color, key, newcomm, Ierror(ierr));
}

void mpi_comm_dup_f08_(F* comm, F* newcomm, F* ierr) { mpi_comm_dup_(comm, newcomm, Ierror(ierr)); }

void mpi_comm_free_f08_(F* comm, F* ierr) { mpi_comm_free_(comm, Ierror(ierr)); }

void mpi_send_f08_(void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* ierr) {
  mpi_send_(buf, count, type, dest, tag, comm, Ierror(ierr));
}

void mpi_ssend_f08_(void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* ierr) {
  mpi_ssend_(buf, count, type, dest, tag, comm, Ierror(ierr));
}

void mpi_bsend_f08_(void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* ierr) {
  mpi_bsend_(buf, count, type, dest, tag, comm, Ierror(ierr));
}

void mpi_rsend_f08_(void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* ierr) {
  mpi_rsend_(buf, count, type, dest, tag, comm, Ierror(ierr));
}

void mpi_isend_f08_(void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* request, F* ierr) {
  mpi_isend_(buf, count, type, dest, tag, comm, request, Ierror(ierr));
}

void mpi_issend_f08_(void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* request, F* ierr) {
  mpi_issend_(buf, count, type, dest, tag, comm, request, Ierror(ierr));
}

void mpi_ibsend_f08_(void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* request, F* ierr) {
  mpi_ibsend_(buf, count, type, dest, tag, comm, request, Ierror(ierr));
}

void mpi_irsend_f08_(void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* request, F* ierr) {
  mpi_irsend_(buf, count, type, dest, tag, comm, request, Ierror(ierr));
}

void mpi_send_init_f08_(void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* request,
                        F* ierr) {
  mpi_send_init_(buf, count, type, dest, tag, comm, request, Ierror(ierr));
}

void mpi_ssend_init_f08_(void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* request,
                         F* ierr) {
  mpi_ssend_init_(buf, count, type, dest, tag, comm, request, Ierror(ierr));
}

void mpi_bsend_init_f08_(void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* request,
                         F* ierr) {
  mpi_bsend_init_(buf, count, type, dest, tag, comm, request, Ierror(ierr));
}

void mpi_rsend_init_f08_(void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* request,
                         F* ierr) {
  mpi_rsend_init_(buf, count, type, dest, tag, comm, request, Ierror(ierr));
}

void mpi_irecv_f08_(void* buf, F* count, F* type, F* source, F* tag, F* comm, F* request, F* ierr) {
  mpi_irecv_(buf, count, type, source, tag, comm, request, Ierror(ierr));
}

void mpi_recv_init_f08_(void* buf, F* count, F* type, F* source, F* tag, F* comm, F* request,
                        F* ierr) {
  mpi_recv_init_(buf, count, type, source, tag, comm, request, Ierror(ierr));
}

void mpi_recv_f08_(void* buf, F* count, F* type, F* source, F* tag, F* comm, F* status, F* ierr) {
  mpi_recv_(buf, count, type, source, tag, comm, status, Ierror(ierr));
}

void mpi_sendrecv_f08_(void* sbuf, F* scount, F* stype, F* dest, F* stag, void* rbuf, F* rcount,
                       F* rtype, F* source, F* rtag, F* comm, F* status, F* ierr) {
  mpi_sendrecv_(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm, status,
                Ierror(ierr));
}

void mpi_probe_f08_(F* source, F* tag, F* comm, F* status, F* ierr) {
  mpi_probe_(source, tag, comm, status, Ierror(ierr));
}

void mpi_iprobe_f08_(F* source, F* tag, F* comm, F* flag, F* status, F* ierr) {
  mpi_iprobe_(source, tag, comm, flag, status, Ierror(ierr));
}

void mpi_start_f08_(F* request, F* ierr) { mpi_start_(request, Ierror(ierr)); }

void mpi_startall_f08_(F* count, F* requests, F* ierr) {
  mpi_startall_(count, requests, Ierror(ierr));
}

void mpi_request_free_f08_(F* request, F* ierr) { mpi_request_free_(request, Ierror(ierr)); }

void mpi_wait_f08_(F* request, F* status, F* ierr) { mpi_wait_(request, status, Ierror(ierr)); }

void mpi_test_f08_(F* request, F* flag, F* status, F* ierr) {
  mpi_test_(request, flag, status, Ierror(ierr));
}

void mpi_waitall_f08_(F* count, F* requests, F* statuses, F* ierr) {
  mpi_waitall_(count, requests, statuses, Ierror(ierr));
}

void mpi_testall_f08_(F* count, F* requests, F* flag, F* statuses, F* ierr) {
  mpi_testall_(count, requests, flag, statuses, Ierror(ierr));
}

void mpi_waitany_f08_(F* count, F* requests, F* index, F* status, F* ierr) {
  mpi_waitany_(count, requests, index, status, Ierror(ierr));
}

void mpi_testany_f08_(F* count, F* requests, F* index, F* flag, F* status, F* ierr) {
  mpi_testany_(count, requests, index, flag, status, Ierror(ierr));
}

void mpi_waitsome_f08_(F* incount, F* requests, F* outcount, F* indices, F* statuses, F* ierr) {
  mpi_waitsome_(incount, requests, outcount, indices, statuses, Ierror(ierr));
}

void mpi_testsome_f08_(F* incount, F* requests, F* outcount, F* indices, F* statuses, F* ierr) {
  mpi_testsome_(incount, requests, outcount, indices, statuses, Ierror(ierr));
}

void mpi_barrier_f08_(F* comm, F* ierr) { mpi_barrier_(comm, Ierror(ierr)); }

void mpi_bcast_f08_(void* buf, F* count, F* type, F* root, F* comm, F* ierr) {
  mpi_bcast_(buf, count, type, root, comm, Ierror(ierr));
}

void mpi_reduce_f08_(void* sbuf, void* rbuf, F* count, F* type, F* op, F* root, F* comm, F* ierr) {
  mpi_reduce_(sbuf, rbuf, count, type, op, root, comm, Ierror(ierr));
}

void mpi_allreduce_f08_(void* sbuf, void* rbuf, F* count, F* type, F* op, F* comm, F* ierr) {
  mpi_allreduce_(sbuf, rbuf, count, type, op, comm, Ierror(ierr));
}

void mpi_scan_f08_(void* sbuf, void* rbuf, F* count, F* type, F* op, F* comm, F* ierr) {
  mpi_scan_(sbuf, rbuf, count, type, op, comm, Ierror(ierr));
}

void mpi_gather_f08_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcount, F* rtype, F* root,
                     F* comm, F* ierr) {
  mpi_gather_(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, Ierror(ierr));
}

void mpi_scatter_f08_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcount, F* rtype, F* root,
                      F* comm, F* ierr) {
  mpi_scatter_(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, Ierror(ierr));
}

void mpi_allgather_f08_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcount, F* rtype, F* comm,
                        F* ierr) {
  mpi_allgather_(sbuf, scount, stype, rbuf, rcount, rtype, comm, Ierror(ierr));
}

void mpi_alltoall_f08_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcount, F* rtype, F* comm,
                       F* ierr) {
  mpi_alltoall_(sbuf, scount, stype, rbuf, rcount, rtype, comm, Ierror(ierr));
}

void mpi_exscan_f08_(void* sbuf, void* rbuf, F* count, F* type, F* op, F* comm, F* ierr) {
  mpi_exscan_(sbuf, rbuf, count, type, op, comm, Ierror(ierr));
}

void mpi_gatherv_f08_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcounts, F* displs, F* rtype,
                      F* root, F* comm, F* ierr) {
  mpi_gatherv_(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm, Ierror(ierr));
}

void mpi_scatterv_f08_(void* sbuf, F* scounts, F* displs, F* stype, void* rbuf, F* rcount, F* rtype,
                       F* root, F* comm, F* ierr) {
  mpi_scatterv_(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm, Ierror(ierr));
}

void mpi_allgatherv_f08_(void* sbuf, F* scount, F* stype, void* rbuf, F* rcounts, F* displs,
                         F* rtype, F* comm, F* ierr) {
  mpi_allgatherv_(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, Ierror(ierr));
}

void mpi_alltoallv_f08_(void* sbuf, F* scounts, F* sdispls, F* stype, void* rbuf, F* rcounts,
                        F* rdispls, F* rtype, F* comm, F* ierr) {
  mpi_alltoallv_(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, Ierror(ierr));
}

void mpi_reduce_scatter_f08_(void* sbuf, void* rbuf, F* rcounts, F* type, F* op, F* comm, F* ierr) {
  mpi_reduce_scatter_(sbuf, rbuf, rcounts, type, op, comm, Ierror(ierr));
}

void mpi_ibarrier_f08_(F* comm, F* request, F* ierr) { mpi_ibarrier_(comm, request, Ierror(ierr)); }

void mpi_ibcast_f08_(void* buf, F* count, F* type, F* root, F* comm, F* request, F* ierr) {
  mpi_ibcast_(buf, count, type, root, comm, request, Ierror(ierr));
}

void mpi_iallreduce_f08_(void* sbuf, void* rbuf, F* count, F* type, F* op, F* comm, F* request,
                         F* ierr) {
  mpi_iallreduce_(sbuf, rbuf, count, type, op, comm, request, Ierror(ierr));
}

void mpi_ireduce_f08_(void* sbuf, void* rbuf, F* count, F* type, F* op, F* root, F* comm,
                      F* request, F* ierr) {
  mpi_ireduce_(sbuf, rbuf, count, type, op, root, comm, request, Ierror(ierr));
}

void mpi_cancel_f08_(F* request, F* ierr) { mpi_cancel_(request, Ierror(ierr)); }

void mpi_comm_create_f08_(F* comm, F* group, F* newcomm, F* ierr) {
  mpi_comm_create_(comm, group, newcomm, Ierror(ierr));
}

void mpi_cart_create_f08_(F* comm, F* ndims, F* dims, F* periods, F* reorder, F* newcomm, F* ierr) {
  mpi_cart_create_(comm, ndims, dims, periods, reorder, newcomm, Ierror(ierr));
}

void mpi_cart_sub_f08_(F* comm, F* remain_dims, F* newcomm, F* ierr) {
  mpi_cart_sub_(comm, remain_dims, newcomm, Ierror(ierr));
}

void mpi_sendrecv_replace_f08_(void* buf, F* count, F* type, F* dest, F* stag, F* source, F* rtag,
                               F* comm, F* status, F* ierr) {
  mpi_sendrecv_replace_(buf, count, type, dest, stag, source, rtag, comm, status, Ierror(ierr));
}

void mpi_mprobe_f08_(F* source, F* tag, F* comm, F* message, F* status, F* ierr) {
  mpi_mprobe_(source, tag, comm, message, status, Ierror(ierr));
}

void mpi_improbe_f08_(F* source, F* tag, F* comm, F* flag, F* message, F* status, F* ierr) {
  mpi_improbe_(source, tag, comm, flag, message, status, Ierror(ierr));
}

void mpi_mrecv_f08_(void* buf, F* count, F* type, F* message, F* status, F* ierr) {
  mpi_mrecv_(buf, count, type, message, status, Ierror(ierr));
}

void mpi_imrecv_f08_(void* buf, F* count, F* type, F* message, F* request, F* ierr) {
  mpi_imrecv_(buf, count, type, message, request, Ierror(ierr));
}

void mpi_comm_create_group_f08_(F* comm, F* group, F* tag, F* newcomm, F* ierr) {
  mpi_comm_create_group_(comm, group, tag, newcomm, Ierror(ierr));
}

void mpi_comm_split_type_f08_(F* comm, F* split_type, F* key, F* info, F* newcomm, F* ierr) {
  mpi_comm_split_type_(comm, split_type, key, info, newcomm, Ierror(ierr));
}

void mpi_comm_idup_f08_(F* comm, F* newcomm, F* request, F* ierr) {
  mpi_comm_idup_(comm, newcomm, request, Ierror(ierr));
}

void mpi_graph_create_f08_(F* comm, F* nnodes, F* index, F* edges, F* reorder, F* newcomm,
                           F* ierr) {
  mpi_graph_create_(comm, nnodes, index, edges, reorder, newcomm, Ierror(ierr));
}

void mpi_dist_graph_create_f08_(F* comm, F* n, F* sources, F* degrees, F* destinations, F* weights,
                                F* info, F* reorder, F* newcomm, F* ierr) {
  mpi_dist_graph_create_(comm, n, sources, degrees, destinations, weights, info, reorder, newcomm,
                         Ierror(ierr));
}

void mpi_dist_graph_create_adjacent_f08_(F* comm, F* indegree, F* sources, F* sourceweights,
                                         F* outdegree, F* destinations, F* destweights, F* info,
                                         F* reorder, F* newcomm, F* ierr) {
  mpi_dist_graph_create_adjacent_(comm, indegree, sources, sourceweights, outdegree, destinations,
                                  destweights, info, reorder, newcomm, Ierror(ierr));
}

void mpi_intercomm_create_f08_(F* local_comm, F* local_leader, F* peer_comm, F* remote_leader,
                               F* tag, F* newcomm, F* ierr) {
  mpi_intercomm_create_(local_comm, local_leader, peer_comm, remote_leader, tag, newcomm,
                        Ierror(ierr));
}

void mpi_intercomm_merge_f08_(F* intercomm, F* high, F* newcomm, F* ierr) {
  mpi_intercomm_merge_(intercomm, high, newcomm, Ierror(ierr));
}

}  // extern "C"

// The routines above under the other compilers' names (fortran_util.h).
PXT_FORTRAN_ALIASES(mpi_init, MPI_INIT)
PXT_FORTRAN_ALIASES(mpi_init_thread, MPI_INIT_THREAD)
PXT_FORTRAN_ALIASES(mpi_finalize, MPI_FINALIZE)
PXT_FORTRAN_ALIASES(mpi_abort, MPI_ABORT)
PXT_FORTRAN_ALIASES(mpi_comm_rank, MPI_COMM_RANK)
PXT_FORTRAN_ALIASES(mpi_comm_size, MPI_COMM_SIZE)
PXT_FORTRAN_ALIASES(mpi_comm_split, MPI_COMM_SPLIT)
PXT_FORTRAN_ALIASES(mpi_comm_dup, MPI_COMM_DUP)
PXT_FORTRAN_ALIASES(mpi_comm_free, MPI_COMM_FREE)
PXT_FORTRAN_ALIASES(mpi_send, MPI_SEND)
PXT_FORTRAN_ALIASES(mpi_ssend, MPI_SSEND)
PXT_FORTRAN_ALIASES(mpi_bsend, MPI_BSEND)
PXT_FORTRAN_ALIASES(mpi_rsend, MPI_RSEND)
PXT_FORTRAN_ALIASES(mpi_isend, MPI_ISEND)
PXT_FORTRAN_ALIASES(mpi_issend, MPI_ISSEND)
PXT_FORTRAN_ALIASES(mpi_ibsend, MPI_IBSEND)
PXT_FORTRAN_ALIASES(mpi_irsend, MPI_IRSEND)
PXT_FORTRAN_ALIASES(mpi_send_init, MPI_SEND_INIT)
PXT_FORTRAN_ALIASES(mpi_ssend_init, MPI_SSEND_INIT)
PXT_FORTRAN_ALIASES(mpi_bsend_init, MPI_BSEND_INIT)
PXT_FORTRAN_ALIASES(mpi_rsend_init, MPI_RSEND_INIT)
PXT_FORTRAN_ALIASES(mpi_irecv, MPI_IRECV)
PXT_FORTRAN_ALIASES(mpi_recv_init, MPI_RECV_INIT)
PXT_FORTRAN_ALIASES(mpi_recv, MPI_RECV)
PXT_FORTRAN_ALIASES(mpi_sendrecv, MPI_SENDRECV)
PXT_FORTRAN_ALIASES(mpi_probe, MPI_PROBE)
PXT_FORTRAN_ALIASES(mpi_iprobe, MPI_IPROBE)
PXT_FORTRAN_ALIASES(mpi_start, MPI_START)
PXT_FORTRAN_ALIASES(mpi_startall, MPI_STARTALL)
PXT_FORTRAN_ALIASES(mpi_request_free, MPI_REQUEST_FREE)
PXT_FORTRAN_ALIASES(mpi_wait, MPI_WAIT)
PXT_FORTRAN_ALIASES(mpi_test, MPI_TEST)
PXT_FORTRAN_ALIASES(mpi_waitall, MPI_WAITALL)
PXT_FORTRAN_ALIASES(mpi_testall, MPI_TESTALL)
PXT_FORTRAN_ALIASES(mpi_waitany, MPI_WAITANY)
PXT_FORTRAN_ALIASES(mpi_testany, MPI_TESTANY)
PXT_FORTRAN_ALIASES(mpi_waitsome, MPI_WAITSOME)
PXT_FORTRAN_ALIASES(mpi_testsome, MPI_TESTSOME)
PXT_FORTRAN_ALIASES(mpi_barrier, MPI_BARRIER)
PXT_FORTRAN_ALIASES(mpi_bcast, MPI_BCAST)
PXT_FORTRAN_ALIASES(mpi_reduce, MPI_REDUCE)
PXT_FORTRAN_ALIASES(mpi_allreduce, MPI_ALLREDUCE)
PXT_FORTRAN_ALIASES(mpi_scan, MPI_SCAN)
PXT_FORTRAN_ALIASES(mpi_gather, MPI_GATHER)
PXT_FORTRAN_ALIASES(mpi_scatter, MPI_SCATTER)
PXT_FORTRAN_ALIASES(mpi_allgather, MPI_ALLGATHER)
PXT_FORTRAN_ALIASES(mpi_alltoall, MPI_ALLTOALL)
PXT_FORTRAN_ALIASES(mpi_exscan, MPI_EXSCAN)
PXT_FORTRAN_ALIASES(mpi_gatherv, MPI_GATHERV)
PXT_FORTRAN_ALIASES(mpi_scatterv, MPI_SCATTERV)
PXT_FORTRAN_ALIASES(mpi_allgatherv, MPI_ALLGATHERV)
PXT_FORTRAN_ALIASES(mpi_alltoallv, MPI_ALLTOALLV)
PXT_FORTRAN_ALIASES(mpi_reduce_scatter, MPI_REDUCE_SCATTER)
PXT_FORTRAN_ALIASES(mpi_ibarrier, MPI_IBARRIER)
PXT_FORTRAN_ALIASES(mpi_ibcast, MPI_IBCAST)
PXT_FORTRAN_ALIASES(mpi_iallreduce, MPI_IALLREDUCE)
PXT_FORTRAN_ALIASES(mpi_ireduce, MPI_IREDUCE)
PXT_FORTRAN_ALIASES(mpi_cancel, MPI_CANCEL)
PXT_FORTRAN_ALIASES(mpi_comm_create, MPI_COMM_CREATE)
PXT_FORTRAN_ALIASES(mpi_cart_create, MPI_CART_CREATE)
PXT_FORTRAN_ALIASES(mpi_cart_sub, MPI_CART_SUB)
PXT_FORTRAN_ALIASES(mpi_sendrecv_replace, MPI_SENDRECV_REPLACE)
PXT_FORTRAN_ALIASES(mpi_mprobe, MPI_MPROBE)
PXT_FORTRAN_ALIASES(mpi_improbe, MPI_IMPROBE)
PXT_FORTRAN_ALIASES(mpi_mrecv, MPI_MRECV)
PXT_FORTRAN_ALIASES(mpi_imrecv, MPI_IMRECV)
PXT_FORTRAN_ALIASES(mpi_comm_create_group, MPI_COMM_CREATE_GROUP)
PXT_FORTRAN_ALIASES(mpi_comm_split_type, MPI_COMM_SPLIT_TYPE)
PXT_FORTRAN_ALIASES(mpi_comm_idup, MPI_COMM_IDUP)
PXT_FORTRAN_ALIASES(mpi_graph_create, MPI_GRAPH_CREATE)
PXT_FORTRAN_ALIASES(mpi_dist_graph_create, MPI_DIST_GRAPH_CREATE)
PXT_FORTRAN_ALIASES(mpi_dist_graph_create_adjacent, MPI_DIST_GRAPH_CREATE_ADJACENT)
PXT_FORTRAN_ALIASES(mpi_intercomm_create, MPI_INTERCOMM_CREATE)
PXT_FORTRAN_ALIASES(mpi_intercomm_merge, MPI_INTERCOMM_MERGE)
