// libparallax-mpi.so: the PMPI interposition layer (LD_PRELOAD=libparallax-mpi.so, or link it
// before -lmpi). Every wrapped call is recorded as Extrae records it: the state of the call
// (mpi_calls.h) and an event of type 50000001-50000005 with the call's value at entry, 0 at
// exit. This file: initialisation, point-to-point calls, probes and the completion families;
// collectives and communicators are in mpi_wrappers_coll.cc, one-sided and MPI-IO in
// mpi_wrappers_rma_io.cc. Messages are recorded on both sides with the fields the merge matches
// on; no data is piggybacked on the application's messages.

#include <mpi.h>

#include "tracing/src/mpi/mpi_wrapper_util.h"

using namespace parallax::tracing;
using namespace parallax::tracing::mpi;

extern "C" {

int MPI_Init(int* argc, char*** argv) {
  pxt_start();
  PXT_CALL("MPI_Init");
  CallScope s(kCall);
  int rc = PMPI_Init(argc, argv);
  InitProcess();
  return rc;
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  pxt_start();
  PXT_CALL("MPI_Init_thread");
  CallScope s(kCall);
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  InitProcess();
  return rc;
}

int MPI_Finalize(void) {
  {
    PXT_CALL("MPI_Finalize");
    CallScope s(kCall);
  }
  FinishProcess();
  return PMPI_Finalize();
}

// The job ends here without MPI_Finalize: the process's trace is finished now, marked as ended
// by MPI_Abort (the other ranks, killed by the launcher, flush from their signal handlers).
// (Extrae has no value for MPI_Abort: the call itself is not recorded.)
int MPI_Abort(MPI_Comm comm, int errorcode) {
  Runtime::Get().FinishProcess(kAbnormalMpiAbort);
  return PMPI_Abort(comm, errorcode);
}

// Extrae's convention: level 0 stops recording, any other level resumes it.
int MPI_Pcontrol(const int level, ...) {
  if (level == 0) {
    Runtime::Get().Pause();
  } else {
    Runtime::Get().Resume();
  }
  return PMPI_Pcontrol(level);
}

int MPI_Comm_rank(MPI_Comm comm, int* rank) {
  PXT_CALL("MPI_Comm_rank");
  CallScope s(kCall);
  return PMPI_Comm_rank(comm, rank);
}

int MPI_Comm_size(MPI_Comm comm, int* size) {
  PXT_CALL("MPI_Comm_size");
  CallScope s(kCall);
  return PMPI_Comm_size(comm, size);
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  PXT_CALL("MPI_Comm_dup");
  CallScope s(kCall);
  int rc = PMPI_Comm_dup(comm, newcomm);
  if (rc == MPI_SUCCESS) RegisterComm(*newcomm);
  return rc;
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  PXT_CALL("MPI_Comm_split");
  CallScope s(kCall);
  int rc = PMPI_Comm_split(comm, color, key, newcomm);
  if (rc == MPI_SUCCESS) RegisterComm(*newcomm);
  return rc;
}

int MPI_Comm_free(MPI_Comm* comm) {
  PXT_CALL("MPI_Comm_free");
  CallScope s(kCall);
  ForgetComm(*comm);
  return PMPI_Comm_free(comm);
}

// ---- point-to-point: a send is recorded at the entry of its call, a receive at its completion
int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  PXT_CALL("MPI_Send");
  CallScope s(kCall);
  RecordSendTo(s, comm, dest, tag, count, type);
  return PMPI_Send(buf, count, type, dest, tag, comm);
}
int MPI_Bsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  PXT_CALL("MPI_Bsend");
  CallScope s(kCall);
  RecordSendTo(s, comm, dest, tag, count, type);
  return PMPI_Bsend(buf, count, type, dest, tag, comm);
}
int MPI_Ssend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  PXT_CALL("MPI_Ssend");
  CallScope s(kCall);
  RecordSendTo(s, comm, dest, tag, count, type);
  return PMPI_Ssend(buf, count, type, dest, tag, comm);
}
int MPI_Rsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  PXT_CALL("MPI_Rsend");
  CallScope s(kCall);
  RecordSendTo(s, comm, dest, tag, count, type);
  return PMPI_Rsend(buf, count, type, dest, tag, comm);
}
int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request* request) {
  PXT_CALL("MPI_Isend");
  CallScope s(kCall);
  RecordSendTo(s, comm, dest, tag, count, type);
  return PMPI_Isend(buf, count, type, dest, tag, comm, request);
}
int MPI_Ibsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  PXT_CALL("MPI_Ibsend");
  CallScope s(kCall);
  RecordSendTo(s, comm, dest, tag, count, type);
  return PMPI_Ibsend(buf, count, type, dest, tag, comm, request);
}
int MPI_Issend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  PXT_CALL("MPI_Issend");
  CallScope s(kCall);
  RecordSendTo(s, comm, dest, tag, count, type);
  return PMPI_Issend(buf, count, type, dest, tag, comm, request);
}
int MPI_Irsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request* request) {
  PXT_CALL("MPI_Irsend");
  CallScope s(kCall);
  RecordSendTo(s, comm, dest, tag, count, type);
  return PMPI_Irsend(buf, count, type, dest, tag, comm, request);
}
int MPI_Send_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                  MPI_Request* request) {
  PXT_CALL("MPI_Send_init");
  CallScope s(kCall);
  int rc = PMPI_Send_init(buf, count, type, dest, tag, comm, request);
  if (rc == MPI_SUCCESS && s.buffer())
    AddPersistentSend(*request, comm, dest, tag, count, type, kCall.value);
  return rc;
}
int MPI_Bsend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                   MPI_Request* request) {
  PXT_CALL("MPI_Bsend_init");
  CallScope s(kCall);
  int rc = PMPI_Bsend_init(buf, count, type, dest, tag, comm, request);
  if (rc == MPI_SUCCESS && s.buffer())
    AddPersistentSend(*request, comm, dest, tag, count, type, kCall.value);
  return rc;
}
int MPI_Ssend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                   MPI_Request* request) {
  PXT_CALL("MPI_Ssend_init");
  CallScope s(kCall);
  int rc = PMPI_Ssend_init(buf, count, type, dest, tag, comm, request);
  if (rc == MPI_SUCCESS && s.buffer())
    AddPersistentSend(*request, comm, dest, tag, count, type, kCall.value);
  return rc;
}
int MPI_Rsend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                   MPI_Request* request) {
  PXT_CALL("MPI_Rsend_init");
  CallScope s(kCall);
  int rc = PMPI_Rsend_init(buf, count, type, dest, tag, comm, request);
  if (rc == MPI_SUCCESS && s.buffer())
    AddPersistentSend(*request, comm, dest, tag, count, type, kCall.value);
  return rc;
}
int MPI_Recv_init(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                  MPI_Request* request) {
  PXT_CALL("MPI_Recv_init");
  CallScope s(kCall);
  int rc = PMPI_Recv_init(buf, count, type, source, tag, comm, request);
  if (rc == MPI_SUCCESS && s.buffer()) AddPersistentRecv(*request, comm, kCall.value);
  return rc;
}

int MPI_Start(MPI_Request* request) {
  PXT_CALL("MPI_Start");
  CallScope s(kCall);
  int rc = PMPI_Start(request);
  if (rc == MPI_SUCCESS) StartAll(s, 1, request);
  return rc;
}

int MPI_Startall(int count, MPI_Request requests[]) {
  PXT_CALL("MPI_Startall");
  CallScope s(kCall);
  int rc = PMPI_Startall(count, requests);
  if (rc == MPI_SUCCESS) StartAll(s, count, requests);
  return rc;
}

int MPI_Request_free(MPI_Request* request) {
  PXT_CALL("MPI_Request_free");
  CallScope s(kCall);
  FreeRequest(*request);
  return PMPI_Request_free(request);
}

int MPI_Cancel(MPI_Request* request) {
  PXT_CALL("MPI_Cancel");
  CallScope s(kCall);
  return PMPI_Cancel(request);
}

int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status* status) {
  PXT_CALL("MPI_Recv");
  CallScope s(kCall);
  uint64_t ordinal = NextRecvOrdinal();
  MPI_Status local;
  MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
  int rc = PMPI_Recv(buf, count, type, source, tag, comm, st);
  if (rc == MPI_SUCCESS) RecordRecvFrom(s, comm, *st, ordinal);
  return rc;
}

int MPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
              MPI_Request* request) {
  PXT_CALL("MPI_Irecv");
  CallScope s(kCall);
  uint64_t ordinal = NextRecvOrdinal();
  int rc = PMPI_Irecv(buf, count, type, source, tag, comm, request);
  if (rc == MPI_SUCCESS && s.buffer())
    AddPendingRecv(*request, comm, s.entry(), ordinal, kCall.value);
  return rc;
}

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status* status) {
  PXT_CALL("MPI_Sendrecv");
  CallScope s(kCall);
  RecordSendTo(s, comm, dest, sendtag, sendcount, sendtype);
  uint64_t ordinal = NextRecvOrdinal();
  MPI_Status local;
  MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
  int rc = PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                         source, recvtag, comm, st);
  if (rc == MPI_SUCCESS) RecordRecvFrom(s, comm, *st, ordinal);
  return rc;
}

int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype type, int dest, int sendtag, int source,
                         int recvtag, MPI_Comm comm, MPI_Status* status) {
  PXT_CALL("MPI_Sendrecv_replace");
  CallScope s(kCall);
  RecordSendTo(s, comm, dest, sendtag, count, type);
  uint64_t ordinal = NextRecvOrdinal();
  MPI_Status local;
  MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
  int rc = PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm, st);
  if (rc == MPI_SUCCESS) RecordRecvFrom(s, comm, *st, ordinal);
  return rc;
}

// ---- probes: Mprobe/Improbe match the message, Mrecv/Imrecv receive it later ----

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  PXT_CALL("MPI_Probe");
  CallScope s(kCall);
  return PMPI_Probe(source, tag, comm, status);
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
  PXT_CALL("MPI_Iprobe");
  CallScope s(kCall);
  return PMPI_Iprobe(source, tag, comm, flag, status);
}

int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status) {
  PXT_CALL("MPI_Mprobe");
  CallScope s(kCall);
  uint64_t ordinal = NextRecvOrdinal();
  int rc = PMPI_Mprobe(source, tag, comm, message, status);
  if (rc == MPI_SUCCESS && s.buffer() && *message != MPI_MESSAGE_NO_PROC)
    AddMatchedMessage(*message, comm, s.entry(), ordinal);
  return rc;
}

int MPI_Improbe(int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message,
                MPI_Status* status) {
  PXT_CALL("MPI_Improbe");
  CallScope s(kCall);
  uint64_t ordinal = NextRecvOrdinal();
  int rc = PMPI_Improbe(source, tag, comm, flag, message, status);
  if (rc == MPI_SUCCESS && *flag && s.buffer() && *message != MPI_MESSAGE_NO_PROC)
    AddMatchedMessage(*message, comm, s.entry(), ordinal);
  return rc;
}

int MPI_Mrecv(void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Status* status) {
  PXT_CALL("MPI_Mrecv");
  CallScope s(kCall);
  MatchedMessage m;
  bool tracked = TakeMatchedMessage(*message, &m);
  MPI_Status local;
  MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
  int rc = PMPI_Mrecv(buf, count, type, message, st);
  if (rc == MPI_SUCCESS && tracked) RecordRecvFrom(s, m.comm, *st, m.ordinal);
  return rc;
}

int MPI_Imrecv(void* buf, int count, MPI_Datatype type, MPI_Message* message,
               MPI_Request* request) {
  PXT_CALL("MPI_Imrecv");
  CallScope s(kCall);
  MatchedMessage m;
  bool tracked = TakeMatchedMessage(*message, &m);
  int rc = PMPI_Imrecv(buf, count, type, message, request);
  if (rc == MPI_SUCCESS && tracked)
    AddPendingRecv(*request, m.comm, s.entry(), m.ordinal, kCall.value);
  return rc;
}

// ---- completion: every family records the receives it completes ----

int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  PXT_CALL("MPI_Wait");
  CallScope s(kCall);
  MPI_Request before = *request;
  MPI_Status local;
  MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
  int rc = PMPI_Wait(request, st);
  if (rc == MPI_SUCCESS && before != MPI_REQUEST_NULL)
    CompleteRequest(s.buffer(), before, *st, Now());
  return rc;
}

int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  PXT_CALL("MPI_Test");
  CallScope s(kCall);
  MPI_Request before = *request;
  MPI_Status local;
  MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
  int rc = PMPI_Test(request, flag, st);
  if (rc == MPI_SUCCESS && *flag && before != MPI_REQUEST_NULL)
    CompleteRequest(s.buffer(), before, *st, Now());
  return rc;
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  PXT_CALL("MPI_Waitall");
  CallScope s(kCall);
  RequestArrays r(count, requests, statuses);
  int rc = PMPI_Waitall(count, requests, r.statuses());
  if (rc == MPI_SUCCESS) CompleteAll(s, count, r);
  return rc;
}

int MPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  PXT_CALL("MPI_Testall");
  CallScope s(kCall);
  RequestArrays r(count, requests, statuses);
  int rc = PMPI_Testall(count, requests, flag, r.statuses());
  if (rc == MPI_SUCCESS && *flag) CompleteAll(s, count, r);
  return rc;
}

int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  PXT_CALL("MPI_Waitany");
  CallScope s(kCall);
  RequestArrays r(count, requests, MPI_STATUSES_IGNORE);
  MPI_Status local;
  MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
  int rc = PMPI_Waitany(count, requests, index, st);
  if (rc == MPI_SUCCESS && *index != MPI_UNDEFINED)
    CompleteRequest(s.buffer(), r.before(*index), *st, Now());
  return rc;
}

int MPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  PXT_CALL("MPI_Testany");
  CallScope s(kCall);
  RequestArrays r(count, requests, MPI_STATUSES_IGNORE);
  MPI_Status local;
  MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
  int rc = PMPI_Testany(count, requests, index, flag, st);
  if (rc == MPI_SUCCESS && *flag && *index != MPI_UNDEFINED)
    CompleteRequest(s.buffer(), r.before(*index), *st, Now());
  return rc;
}

int MPI_Waitsome(int incount, MPI_Request requests[], int* outcount, int indices[],
                 MPI_Status statuses[]) {
  PXT_CALL("MPI_Waitsome");
  CallScope s(kCall);
  RequestArrays r(incount, requests, statuses);
  int rc = PMPI_Waitsome(incount, requests, outcount, indices, r.statuses());
  if (rc == MPI_SUCCESS) CompleteSome(s, *outcount, indices, r);
  return rc;
}

int MPI_Testsome(int incount, MPI_Request requests[], int* outcount, int indices[],
                 MPI_Status statuses[]) {
  PXT_CALL("MPI_Testsome");
  CallScope s(kCall);
  RequestArrays r(incount, requests, statuses);
  int rc = PMPI_Testsome(incount, requests, outcount, indices, r.statuses());
  if (rc == MPI_SUCCESS) CompleteSome(s, *outcount, indices, r);
  return rc;
}

}  // extern "C"
