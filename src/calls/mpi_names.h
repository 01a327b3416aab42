#pragma once
// What an MPI call is, from its name: the one classification of MPI calls that the analyses of a
// trace's MPI structure share (the call table, wait states, the replay). Names come from the
// .pcf value labels of the MPI event types (50000001-50000005), else from Extrae's numbering.

#include <cstdint>
#include <string_view>

namespace parallax::calls {

inline constexpr uint32_t kMpiFirstType = 50000001;  // Extrae's MPI call groups
inline constexpr uint32_t kMpiLastType = 50000005;
inline constexpr uint32_t kCollectiveSendSizeType = 50100001;
inline constexpr uint32_t kCollectiveRecvSizeType = 50100002;
inline constexpr uint32_t kCollectiveRootType = 50100003;
inline constexpr uint32_t kCollectiveCommunicatorType = 50100004;

inline bool IsMpiCallType(uint32_t type) { return type >= kMpiFirstType && type <= kMpiLastType; }

// The MPI operation a call performs, as far as the analyses distinguish them.
enum class Op : uint8_t {
  kOther,      // local (MPI_Comm_rank, ...), one-sided, I/O, or not known
  kInit,       // MPI_Init, MPI_Init_thread
  kFinalize,   // MPI_Finalize
  kSend,       // blocking standard, buffered or ready send: MPI_Send, MPI_Bsend, MPI_Rsend
  kSsend,      // blocking synchronous send: MPI_Ssend
  kIsend,      // non-blocking sends: MPI_Isend, MPI_Ibsend, MPI_Issend, MPI_Irsend
  kRecv,       // blocking receive: MPI_Recv, MPI_Mrecv
  kIrecv,      // non-blocking receive: MPI_Irecv, MPI_Imrecv
  kSendrecv,   // MPI_Sendrecv, MPI_Sendrecv_replace
  kWait,       // MPI_Wait
  kWaitany,    // MPI_Waitany
  kWaitall,    // MPI_Waitall
  kWaitsome,   // MPI_Waitsome
  kTest,       // MPI_Test, MPI_Testany, MPI_Testall, MPI_Testsome
  kProbe,      // MPI_Probe, MPI_Iprobe, MPI_Mprobe, MPI_Improbe
  kCommCreate, // MPI_Comm_create, _dup, _split, MPI_Cart_create: not in the collectives' order
  kBarrier,    // MPI_Barrier
  kNxN,        // MPI_Allreduce, MPI_Allgather(v), MPI_Alltoall, MPI_Reduce_scatter(_block)
  kOneToN,     // MPI_Bcast, MPI_Scatter(v)
  kNToOne,     // MPI_Reduce, MPI_Gather(v)
  kScan,       // MPI_Scan, MPI_Exscan
  kAlltoallv,  // MPI_Alltoallv, MPI_Alltoallw
  kCollectiveOther,  // non-blocking and neighbourhood collectives
};

// The operation of a call named `name` ("MPI_Allreduce"); Op::kOther for any other name.
Op OpOfName(std::string_view name);

// Extrae's name of an MPI call event value (1 = MPI_Send, ...), or null when it has none.
const char* ExtraeCallName(int64_t value);

// Groups of operations.
bool IsCollective(Op op);          // kBarrier .. kCollectiveOther
bool CompletesReceive(Op op);      // a receive's data may arrive in it: Recv, Sendrecv, Wait*, Test*
bool PostsReceive(Op op);          // Recv, Irecv, Sendrecv
bool StartsSend(Op op);            // Send, Ssend, Isend, Sendrecv
bool IsBlockingSend(Op op);        // Send, Ssend

}  // namespace parallax::calls
