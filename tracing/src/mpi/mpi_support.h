#pragma once
// Bookkeeping of the PMPI wrappers: world ranks of communicator ranks, communicator keys,
// message sequence numbers, the requests whose completion records a message (receives,
// persistent requests), and the clock synchronisation with rank 0.
// Everything here is process-wide and locked: MPI calls are not the library's hot path.
//
// Matching without piggybacking: a send is numbered in its (comm, destination, tag) stream when
// it is posted; a receive carries the process-wide ordinal of its post (MPI_Recv entry,
// MPI_Irecv, MPI_Start of a persistent receive, MPI_Mprobe). MPI's non-overtaking rule makes
// the n-th message of a stream go to the n-th posted receive that takes a message of that
// stream, so the merge numbers the receives of each stream in ordinal order, whatever order
// they completed in.

#include <mpi.h>

#include <cstdint>

#include "tracing/src/runtime.h"

namespace parallax::tracing::mpi {

// `address` when it is outside libparallax-mpi.so, else the first return address of the
// calling stack that is (0 when there is none).
uintptr_t CallerOutsideLibrary(uintptr_t address);
// PXT_CALLERS > 1: records the return addresses of the `levels` innermost frames outside this
// library (level 1 as kCaller, the others as kCallerAt), unwinding with libgcc's unwinder.
void RecordCallStack(ThreadBuffer* b, uint64_t t, int levels);

// The world rank of a peer's `rank` in `comm` (MPI_COMM_WORLD ranks pass through; for an
// inter-communicator, a rank of its remote group).
int WorldRank(MPI_Comm comm, int rank);
// Identifies a communicator the same way in every member process: 0 for MPI_COMM_WORLD, else
// a hash of its members' world ranks (two communicators over the same group share a key; an
// inter-communicator hashes both groups, so both sides agree on its key).
uint64_t CommKey(MPI_Comm comm);
void ForgetComm(MPI_Comm comm);
// A communicator created by the program: its members are written to the process file (the
// merge's communicator lines; both groups of an inter-communicator). MPI_COMM_NULL (a process
// left out by a split) is ignored.
void RegisterComm(MPI_Comm comm);

// Describes a message sent to comm rank `peer`, numbering it in its (comm, peer, tag) stream.
MessageInfo SendInfo(MPI_Comm comm, int peer, int tag, int count, MPI_Datatype type);
// A receive posted now: its ordinal (see above).
uint64_t NextRecvOrdinal();
// Describes a received message; `ordinal` from NextRecvOrdinal at the post.
MessageInfo RecvInfo(MPI_Comm comm, const MPI_Status& status, uint64_t ordinal);

// Irecv (or Imrecv) requests waiting for completion, posted at `post_time` by call `call`
// (Extrae value, for the report of receives never completed).
void AddPendingRecv(MPI_Request request, MPI_Comm comm, uint64_t post_time, uint64_t ordinal,
                    int call);
// Persistent requests (MPI_*send_init, MPI_Recv_init): inactive until MPI_Start.
void AddPersistentSend(MPI_Request request, MPI_Comm comm, int dest, int tag, int count,
                       MPI_Datatype type, int call);
void AddPersistentRecv(MPI_Request request, MPI_Comm comm, int call);
// MPI_Start(all) of `request`: a persistent send records its message now; a persistent
// receive is posted now.
void StartRequest(ThreadBuffer* b, MPI_Request request, uint64_t now);
// Records the receive of a completed request, if it was a pending receive; a persistent request
// becomes inactive. Cancelled receives are counted, not recorded.
void CompleteRequest(ThreadBuffer* b, MPI_Request request, const MPI_Status& status, uint64_t now);
// MPI_Request_free: forgets the request; an active receive freed before completion is
// counted as lost (its message can never be recorded).
void FreeRequest(MPI_Request request);

// Mprobe/Improbe: the matched message is received later by Mrecv/Imrecv with the ordinal of
// the probe (MPI matched it then).
struct MatchedMessage {
  MPI_Comm comm;
  uint64_t post_time, ordinal;
};
void AddMatchedMessage(MPI_Message message, MPI_Comm comm, uint64_t post_time, uint64_t ordinal);
bool TakeMatchedMessage(MPI_Message message, MatchedMessage* out);

// After PMPI_Init: identity, session shared with rank 0, first clock measurement.
void InitProcess();
// In MPI_Finalize before PMPI_Finalize: receives never completed are reported, last clock
// measurement, process file, merge on rank 0.
void FinishProcess();
// Writes, as notes of the process file, the receives that could not be recorded (never
// completed, freed while active, cancelled) and the communicators the program created.
void WriteMpiNotes();

}  // namespace parallax::tracing::mpi
