#pragma once
// Shared by the PMPI wrapper files (mpi_wrappers*.cc): the scope of one recorded MPI call and
// the helpers that record messages, collective byte counts, one-sided and I/O sizes, and request
// completions. Internal to libparallax-mpi.so.

#include <mpi.h>

#include <memory>

#include "parallax/trace.h"
#include "tracing/src/mpi/mpi_support.h"
#include "tracing/src/mpi_calls.h"

namespace parallax::tracing::mpi {

// The state and event of one MPI call, from entry to exit, and its call site. `caller` defaults
// to the return address of the wrapper that declares the scope (a default argument is evaluated
// there): the program's call site, or a place in this library (a Fortran wrapper calling the C
// one), which CallerOutsideLibrary looks past.
class CallScope {
 public:
  explicit CallScope(const MpiCall& call, void* caller = __builtin_return_address(0))
      : call_(call), b_(CurrentBuffer()) {
    if (!b_) return;
    t0_ = Now();
    const int levels = Runtime::Get().options().callers;
    if (levels == 1)
      RecordCaller(b_, t0_, CallerOutsideLibrary(reinterpret_cast<uintptr_t>(caller)));
    else if (levels > 1)
      RecordCallStack(b_, t0_, levels);
    RecordStateEnter(b_, t0_, call_.state);
    RecordEvent(b_, t0_, call_.type, call_.value);
  }
  ~CallScope() {
    if (!b_) return;
    uint64_t t = Now();
    RecordEvent(b_, t, call_.type, 0);
    RecordStateLeave(b_, t);
  }
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;

  ThreadBuffer* buffer() const { return b_; }
  uint64_t entry() const { return t0_; }

 private:
  const MpiCall& call_;
  ThreadBuffer* b_;
  uint64_t t0_ = 0;
};

#define PXT_CALL(name) static constexpr const MpiCall& kCall = FindMpiCall(name)

inline void RecordSendTo(const CallScope& s, MPI_Comm comm, int dest, int tag, int count,
                         MPI_Datatype type) {
  if (!s.buffer() || dest == MPI_PROC_NULL) return;
  RecordSend(s.buffer(), SendInfo(comm, dest, tag, count, type), s.entry(), s.entry());
}

inline void RecordRecvFrom(const CallScope& s, MPI_Comm comm, const MPI_Status& status,
                           uint64_t ordinal) {
  if (!s.buffer() || status.MPI_SOURCE < 0) return;
  int cancelled = 0;
  PMPI_Test_cancelled(&status, &cancelled);
  if (!cancelled) RecordRecv(s.buffer(), RecvInfo(comm, status, ordinal), s.entry(), Now());
}

inline int64_t TypeBytes(MPI_Datatype type) {
  int size = 0;
  if (type != MPI_DATATYPE_NULL) PMPI_Type_size(type, &size);
  return size;
}

inline int64_t Bytes(int count, MPI_Datatype type) { return count * TypeBytes(type); }

inline int64_t SumBytes(int n, const int counts[], MPI_Datatype type) {
  int64_t sum = 0;
  for (int i = 0; counts && i < n; ++i) sum += counts[i];
  return sum * TypeBytes(type);
}

inline int64_t SumBytesW(int n, const int counts[], const MPI_Datatype types[]) {
  int64_t sum = 0;
  for (int i = 0; counts && types && i < n; ++i) sum += Bytes(counts[i], types[i]);
  return sum;
}

inline int CommSize(MPI_Comm comm) {
  int n = 0;
  PMPI_Comm_size(comm, &n);
  return n;
}

inline int CommRank(MPI_Comm comm) {
  int r = 0;
  PMPI_Comm_rank(comm, &r);
  return r;
}

// The number of processes a collective on `comm` exchanges with: the remote group of an
// inter-communicator, all of an intra-communicator.
inline int PeerSize(MPI_Comm comm) {
  int inter = 0, n = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter)
    PMPI_Comm_remote_size(comm, &n);
  else
    PMPI_Comm_size(comm, &n);
  return n;
}

struct Degrees {
  int in = 0, out = 0;
};

// In- and out-degree of this process in the virtual topology of `comm` (a Cartesian process has
// 2 * ndims neighbours, counting MPI_PROC_NULL ones, as MPI's neighbourhood collectives do).
inline Degrees NeighborDegrees(MPI_Comm comm) {
  Degrees d;
  int kind = MPI_UNDEFINED;
  PMPI_Topo_test(comm, &kind);
  if (kind == MPI_CART) {
    int ndims = 0;
    PMPI_Cartdim_get(comm, &ndims);
    d.in = d.out = 2 * ndims;
  } else if (kind == MPI_GRAPH) {
    PMPI_Graph_neighbors_count(comm, CommRank(comm), &d.in);
    d.out = d.in;
  } else if (kind == MPI_DIST_GRAPH) {
    int weighted = 0;
    PMPI_Dist_graph_neighbors_count(comm, &d.in, &d.out, &weighted);
  }
  return d;
}

// A process of the root group of an inter-communicator (`root` is MPI_ROOT or MPI_PROC_NULL):
// it neither contributes to a Reduce or Gather nor receives from a Bcast or Scatter.
inline bool InRootGroup(int root) { return root == MPI_ROOT || root == MPI_PROC_NULL; }

// Whether this process is the root of a rooted collective: MPI_ROOT in the root group of an
// inter-communicator (whose other members pass MPI_PROC_NULL, and the remote group the root's
// rank there), the root's rank in an intra-communicator.
inline bool IsRoot(MPI_Comm comm, int root) {
  if (root == MPI_ROOT) return true;
  if (root < 0) return false;
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  return !inter && CommRank(comm) == root;
}

// Extrae's collective events at the entry of the call: bytes sent and received by this
// process, the root (rooted collectives) and the communicator (its key; the merge turns keys
// into the ids of the .prv communicator lines).
inline void RecordCollective(const CallScope& s, MPI_Comm comm, int64_t sent, int64_t received,
                             int root = -1) {
  ThreadBuffer* b = s.buffer();
  if (!b) return;
  RecordEvent(b, s.entry(), PXT_TYPE_MPI_COLLECTIVE_SEND_BYTES, sent);
  RecordEvent(b, s.entry(), PXT_TYPE_MPI_COLLECTIVE_RECV_BYTES, received);
  if (root >= 0) RecordEvent(b, s.entry(), PXT_TYPE_MPI_COLLECTIVE_ROOT, root);
  RecordEvent(b, s.entry(), PXT_TYPE_MPI_COLLECTIVE_COMM, static_cast<int64_t>(CommKey(comm)));
}

inline void RecordRma(const CallScope& s, int count, MPI_Datatype type, int target) {
  if (!s.buffer()) return;
  RecordEvent(s.buffer(), s.entry(), PXT_TYPE_MPI_RMA_BYTES, Bytes(count, type));
  RecordEvent(s.buffer(), s.entry(), PXT_TYPE_MPI_RMA_TARGET, target);
}

inline void RecordIo(const CallScope& s, int count, MPI_Datatype type) {
  if (s.buffer()) RecordEvent(s.buffer(), s.entry(), PXT_TYPE_MPI_IO_BYTES, Bytes(count, type));
}

// A copy of the caller's request handles taken before the call (completion replaces them
// with MPI_REQUEST_NULL) and status storage when the caller ignores statuses; on the stack
// for the usual small counts.
class RequestArrays {
 public:
  RequestArrays(int count, const MPI_Request* requests, MPI_Status* statuses) {
    size_t n = count > 0 ? static_cast<size_t>(count) : 0;
    if (n > kInline) heap_requests_.reset(new MPI_Request[n]);
    before_ = n > kInline ? heap_requests_.get() : inline_requests_;
    for (size_t i = 0; i < n; ++i) before_[i] = requests[i];
    if (statuses == MPI_STATUSES_IGNORE) {
      if (n > kInline) heap_statuses_.reset(new MPI_Status[n]);
      statuses_ = n > kInline ? heap_statuses_.get() : inline_statuses_;
    } else {
      statuses_ = statuses;
    }
  }
  RequestArrays(const RequestArrays&) = delete;
  RequestArrays& operator=(const RequestArrays&) = delete;
  MPI_Request before(int i) const { return before_[i]; }
  MPI_Status* statuses() { return statuses_; }

 private:
  static constexpr size_t kInline = 16;
  MPI_Request inline_requests_[kInline];
  MPI_Status inline_statuses_[kInline];
  std::unique_ptr<MPI_Request[]> heap_requests_;
  std::unique_ptr<MPI_Status[]> heap_statuses_;
  MPI_Request* before_;
  MPI_Status* statuses_;
};

// Every request of the array completed (Waitall, Testall with flag set).
inline void CompleteAll(const CallScope& s, int count, RequestArrays& r) {
  uint64_t now = Now();
  for (int i = 0; i < count; ++i)
    if (r.before(i) != MPI_REQUEST_NULL)
      CompleteRequest(s.buffer(), r.before(i), r.statuses()[i], now);
}

// The requests listed in indices[0..outcount) completed (Waitsome, Testsome).
inline void CompleteSome(const CallScope& s, int outcount, const int indices[], RequestArrays& r) {
  if (outcount == MPI_UNDEFINED) return;
  uint64_t now = Now();
  for (int k = 0; k < outcount; ++k)
    CompleteRequest(s.buffer(), r.before(indices[k]), r.statuses()[k], now);
}

// Starts of persistent requests: sends record their message, receives are posted.
inline void StartAll(const CallScope& s, int count, const MPI_Request requests[]) {
  for (int i = 0; i < count; ++i) StartRequest(s.buffer(), requests[i], s.entry());
}

}  // namespace parallax::tracing::mpi
