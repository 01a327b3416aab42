#include "src/calls/mpi_names.h"

#include <array>
#include <string>
#include <utility>

namespace parallax::calls {

namespace {

// Extrae's values of the MPI call event types (its MPI event encoding), for traces without a
// .pcf label for a value. Only the calls the analyses distinguish, and the common local ones.
constexpr std::pair<int64_t, const char*> kExtraeNames[] = {
    {1, "MPI_Send"},          {2, "MPI_Recv"},           {3, "MPI_Isend"},
    {4, "MPI_Irecv"},         {5, "MPI_Wait"},           {6, "MPI_Waitall"},
    {7, "MPI_Bcast"},         {8, "MPI_Barrier"},        {9, "MPI_Reduce"},
    {10, "MPI_Allreduce"},    {11, "MPI_Alltoall"},      {12, "MPI_Alltoallv"},
    {13, "MPI_Gather"},       {14, "MPI_Gatherv"},       {15, "MPI_Scatter"},
    {16, "MPI_Scatterv"},     {17, "MPI_Allgather"},     {18, "MPI_Allgatherv"},
    {19, "MPI_Comm_rank"},    {20, "MPI_Comm_size"},     {21, "MPI_Comm_create"},
    {22, "MPI_Comm_dup"},     {23, "MPI_Comm_split"},    {25, "MPI_Comm_free"},
    {30, "MPI_Scan"},         {31, "MPI_Init"},          {32, "MPI_Finalize"},
    {33, "MPI_Bsend"},        {34, "MPI_Ssend"},         {35, "MPI_Rsend"},
    {36, "MPI_Ibsend"},       {37, "MPI_Issend"},        {38, "MPI_Irsend"},
    {39, "MPI_Test"},         {40, "MPI_Cancel"},        {41, "MPI_Sendrecv"},
    {42, "MPI_Sendrecv_replace"}, {43, "MPI_Cart_create"}, {59, "MPI_Waitany"},
    {60, "MPI_Waitsome"},     {61, "MPI_Probe"},         {62, "MPI_Iprobe"},
    {80, "MPI_Reduce_scatter"}, {100, "MPI_Abort"},      {125, "MPI_Testall"},
    {126, "MPI_Testany"},     {128, "MPI_Testsome"},
};

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

constexpr std::pair<std::string_view, Op> kOps[] = {
    {"MPI_Init", Op::kInit},
    {"MPI_Init_thread", Op::kInit},
    {"MPI_Finalize", Op::kFinalize},
    {"MPI_Send", Op::kSend},
    {"MPI_Bsend", Op::kSend},
    {"MPI_Rsend", Op::kSend},
    {"MPI_Ssend", Op::kSsend},
    {"MPI_Isend", Op::kIsend},
    {"MPI_Ibsend", Op::kIsend},
    {"MPI_Issend", Op::kIsend},
    {"MPI_Irsend", Op::kIsend},
    {"MPI_Recv", Op::kRecv},
    {"MPI_Mrecv", Op::kRecv},
    {"MPI_Irecv", Op::kIrecv},
    {"MPI_Imrecv", Op::kIrecv},
    {"MPI_Sendrecv", Op::kSendrecv},
    {"MPI_Sendrecv_replace", Op::kSendrecv},
    {"MPI_Wait", Op::kWait},
    {"MPI_Waitany", Op::kWaitany},
    {"MPI_Waitall", Op::kWaitall},
    {"MPI_Waitsome", Op::kWaitsome},
    {"MPI_Test", Op::kTest},
    {"MPI_Testany", Op::kTest},
    {"MPI_Testall", Op::kTest},
    {"MPI_Testsome", Op::kTest},
    {"MPI_Probe", Op::kProbe},
    {"MPI_Iprobe", Op::kProbe},
    {"MPI_Mprobe", Op::kProbe},
    {"MPI_Improbe", Op::kProbe},
    {"MPI_Barrier", Op::kBarrier},
    {"MPI_Allreduce", Op::kNxN},
    {"MPI_Allgather", Op::kNxN},
    {"MPI_Allgatherv", Op::kNxN},
    {"MPI_Alltoall", Op::kNxN},
    {"MPI_Reduce_scatter", Op::kNxN},
    {"MPI_Reduce_scatter_block", Op::kNxN},
    {"MPI_Bcast", Op::kOneToN},
    {"MPI_Scatter", Op::kOneToN},
    {"MPI_Scatterv", Op::kOneToN},
    {"MPI_Reduce", Op::kNToOne},
    {"MPI_Gather", Op::kNToOne},
    {"MPI_Gatherv", Op::kNToOne},
    {"MPI_Scan", Op::kScan},
    {"MPI_Exscan", Op::kScan},
    {"MPI_Alltoallv", Op::kAlltoallv},
    {"MPI_Alltoallw", Op::kAlltoallv},
    {"MPI_Comm_create", Op::kCommCreate},
    {"MPI_Comm_dup", Op::kCommCreate},
    {"MPI_Comm_split", Op::kCommCreate},
    {"MPI_Cart_create", Op::kCommCreate},
};

}  // namespace

Op OpOfName(std::string_view name) {
  for (const auto& [n, op] : kOps)
    if (n == name) return op;
  // Non-blocking collectives (MPI_Ibarrier, MPI_Iallreduce, ...) and neighbourhood ones.
  if (StartsWith(name, "MPI_Neighbor_")) return Op::kCollectiveOther;
  if (StartsWith(name, "MPI_I") && name.size() > 5) {
    std::string blocking_name = std::string("MPI_").append(name.substr(5));  // MPI_Iallreduce
    blocking_name[4] = static_cast<char>(blocking_name[4] - 'a' + 'A');     // -> MPI_Allreduce
    Op blocking = blocking_name[4] >= 'A' && blocking_name[4] <= 'Z' ? OpOfName(blocking_name)
                                                                     : Op::kOther;
    if (IsCollective(blocking)) return Op::kCollectiveOther;
  }
  return Op::kOther;
}

const char* ExtraeCallName(int64_t value) {
  for (const auto& [v, name] : kExtraeNames)
    if (v == value) return name;
  return nullptr;
}

bool IsCollective(Op op) { return op >= Op::kBarrier; }

bool CompletesReceive(Op op) {
  switch (op) {
    case Op::kRecv:
    case Op::kSendrecv:
    case Op::kWait:
    case Op::kWaitany:
    case Op::kWaitall:
    case Op::kWaitsome:
    case Op::kTest:
      return true;
    default:
      return false;
  }
}

bool PostsReceive(Op op) { return op == Op::kRecv || op == Op::kIrecv || op == Op::kSendrecv; }

bool StartsSend(Op op) {
  return op == Op::kSend || op == Op::kSsend || op == Op::kIsend || op == Op::kSendrecv;
}

bool IsBlockingSend(Op op) { return op == Op::kSend || op == Op::kSsend; }

}  // namespace parallax::calls
