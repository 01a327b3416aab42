#pragma once
// MPI calls as Extrae numbers them (event values of types 50000001-50000005 and the Paraver
// state each call is shown in; 173-193 as the newest Extrae numbers them, 195-209 are calls
// Extrae does not name, see docs/compatibility.md), so Paraver configuration files written for
// Extrae traces work on ours. Shared by the PMPI wrappers and the .pcf writer; no dependency on
// mpi.h.

#include <cstdint>

#include "parallax/trace.h"

namespace parallax::tracing {

struct MpiCall {
  const char* name;
  int value;       // Extrae's value of the call
  uint32_t type;   // PXT_TYPE_MPI_P2P / _COLLECTIVE / _OTHER / _RMA / _IO
  uint32_t state;  // Paraver state while inside the call
};

inline constexpr MpiCall kMpiCalls[] = {
    {"MPI_Send", 1, PXT_TYPE_MPI_P2P, PXT_STATE_BLOCKING_SEND},
    {"MPI_Recv", 2, PXT_TYPE_MPI_P2P, PXT_STATE_WAITING_MESSAGE},
    {"MPI_Isend", 3, PXT_TYPE_MPI_P2P, PXT_STATE_IMMEDIATE_SEND},
    {"MPI_Irecv", 4, PXT_TYPE_MPI_P2P, PXT_STATE_IMMEDIATE_RECEIVE},
    {"MPI_Wait", 5, PXT_TYPE_MPI_P2P, PXT_STATE_WAIT_ALL},
    {"MPI_Waitall", 6, PXT_TYPE_MPI_P2P, PXT_STATE_WAIT_ALL},
    {"MPI_Bcast", 7, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Barrier", 8, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_SYNCHRONIZATION},
    {"MPI_Reduce", 9, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Allreduce", 10, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Alltoall", 11, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Alltoallv", 12, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Gather", 13, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Gatherv", 14, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Scatter", 15, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Scatterv", 16, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Allgather", 17, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Allgatherv", 18, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Comm_rank", 19, PXT_TYPE_MPI_OTHER, PXT_STATE_RUNNING},
    {"MPI_Comm_size", 20, PXT_TYPE_MPI_OTHER, PXT_STATE_RUNNING},
    {"MPI_Comm_create", 21, PXT_TYPE_MPI_OTHER, PXT_STATE_OTHERS},
    {"MPI_Comm_dup", 22, PXT_TYPE_MPI_OTHER, PXT_STATE_OTHERS},
    {"MPI_Comm_split", 23, PXT_TYPE_MPI_OTHER, PXT_STATE_OTHERS},
    {"MPI_Comm_free", 25, PXT_TYPE_MPI_OTHER, PXT_STATE_OTHERS},
    {"MPI_Scan", 30, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Init", 31, PXT_TYPE_MPI_OTHER, PXT_STATE_OTHERS},
    {"MPI_Finalize", 32, PXT_TYPE_MPI_OTHER, PXT_STATE_OTHERS},
    {"MPI_Bsend", 33, PXT_TYPE_MPI_P2P, PXT_STATE_BLOCKING_SEND},
    {"MPI_Ssend", 34, PXT_TYPE_MPI_P2P, PXT_STATE_BLOCKING_SEND},
    {"MPI_Rsend", 35, PXT_TYPE_MPI_P2P, PXT_STATE_BLOCKING_SEND},
    {"MPI_Ibsend", 36, PXT_TYPE_MPI_P2P, PXT_STATE_IMMEDIATE_SEND},
    {"MPI_Issend", 37, PXT_TYPE_MPI_P2P, PXT_STATE_IMMEDIATE_SEND},
    {"MPI_Irsend", 38, PXT_TYPE_MPI_P2P, PXT_STATE_IMMEDIATE_SEND},
    {"MPI_Test", 39, PXT_TYPE_MPI_OTHER, PXT_STATE_TEST_PROBE},
    {"MPI_Cancel", 40, PXT_TYPE_MPI_P2P, PXT_STATE_OTHERS},
    {"MPI_Sendrecv", 41, PXT_TYPE_MPI_P2P, PXT_STATE_SEND_RECEIVE},
    {"MPI_Sendrecv_replace", 42, PXT_TYPE_MPI_P2P, PXT_STATE_SEND_RECEIVE},
    {"MPI_Cart_create", 43, PXT_TYPE_MPI_OTHER, PXT_STATE_OTHERS},
    {"MPI_Cart_sub", 49, PXT_TYPE_MPI_OTHER, PXT_STATE_OTHERS},
    {"MPI_Graph_create", 54, PXT_TYPE_MPI_OTHER, PXT_STATE_OTHERS},
    {"MPI_Waitany", 59, PXT_TYPE_MPI_P2P, PXT_STATE_WAIT_ALL},
    {"MPI_Waitsome", 60, PXT_TYPE_MPI_P2P, PXT_STATE_WAIT_ALL},
    {"MPI_Probe", 61, PXT_TYPE_MPI_P2P, PXT_STATE_TEST_PROBE},
    {"MPI_Iprobe", 62, PXT_TYPE_MPI_P2P, PXT_STATE_TEST_PROBE},
    {"MPI_Win_create", 63, PXT_TYPE_MPI_RMA, PXT_STATE_OTHERS},
    {"MPI_Win_free", 64, PXT_TYPE_MPI_RMA, PXT_STATE_OTHERS},
    {"MPI_Put", 65, PXT_TYPE_MPI_RMA, PXT_STATE_REMOTE_MEMORY_ACCESS},
    {"MPI_Get", 66, PXT_TYPE_MPI_RMA, PXT_STATE_REMOTE_MEMORY_ACCESS},
    {"MPI_Accumulate", 67, PXT_TYPE_MPI_RMA, PXT_STATE_ATOMIC_MEMORY_OPERATION},
    {"MPI_Win_fence", 68, PXT_TYPE_MPI_RMA, PXT_STATE_MEMORY_ORDERING},
    {"MPI_Win_start", 69, PXT_TYPE_MPI_RMA, PXT_STATE_MEMORY_ORDERING},
    {"MPI_Win_complete", 70, PXT_TYPE_MPI_RMA, PXT_STATE_MEMORY_ORDERING},
    {"MPI_Win_post", 71, PXT_TYPE_MPI_RMA, PXT_STATE_MEMORY_ORDERING},
    {"MPI_Win_wait", 72, PXT_TYPE_MPI_RMA, PXT_STATE_MEMORY_ORDERING},
    {"MPI_Win_test", 73, PXT_TYPE_MPI_RMA, PXT_STATE_MEMORY_ORDERING},
    {"MPI_Win_lock", 74, PXT_TYPE_MPI_RMA, PXT_STATE_DISTRIBUTED_LOCKING},
    {"MPI_Win_unlock", 75, PXT_TYPE_MPI_RMA, PXT_STATE_DISTRIBUTED_LOCKING},
    {"MPI_Reduce_scatter", 80, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Intercomm_create", 96, PXT_TYPE_MPI_OTHER, PXT_STATE_OTHERS},
    {"MPI_Intercomm_merge", 97, PXT_TYPE_MPI_OTHER, PXT_STATE_OTHERS},
    {"MPI_Bsend_init", 112, PXT_TYPE_MPI_P2P, PXT_STATE_OTHERS},
    {"MPI_Request_free", 115, PXT_TYPE_MPI_OTHER, PXT_STATE_OTHERS},
    {"MPI_Recv_init", 116, PXT_TYPE_MPI_P2P, PXT_STATE_OTHERS},
    {"MPI_Send_init", 117, PXT_TYPE_MPI_P2P, PXT_STATE_OTHERS},
    {"MPI_Rsend_init", 121, PXT_TYPE_MPI_P2P, PXT_STATE_OTHERS},
    {"MPI_Ssend_init", 122, PXT_TYPE_MPI_P2P, PXT_STATE_OTHERS},
    {"MPI_Start", 123, PXT_TYPE_MPI_OTHER, PXT_STATE_OTHERS},
    {"MPI_Startall", 124, PXT_TYPE_MPI_OTHER, PXT_STATE_OTHERS},
    {"MPI_Testall", 125, PXT_TYPE_MPI_OTHER, PXT_STATE_TEST_PROBE},
    {"MPI_Testany", 126, PXT_TYPE_MPI_OTHER, PXT_STATE_TEST_PROBE},
    {"MPI_Testsome", 128, PXT_TYPE_MPI_OTHER, PXT_STATE_TEST_PROBE},
    {"MPI_File_open", 141, PXT_TYPE_MPI_IO, PXT_STATE_IO},
    {"MPI_File_close", 142, PXT_TYPE_MPI_IO, PXT_STATE_IO},
    {"MPI_File_read", 143, PXT_TYPE_MPI_IO, PXT_STATE_IO},
    {"MPI_File_read_all", 144, PXT_TYPE_MPI_IO, PXT_STATE_IO},
    {"MPI_File_write", 145, PXT_TYPE_MPI_IO, PXT_STATE_IO},
    {"MPI_File_write_all", 146, PXT_TYPE_MPI_IO, PXT_STATE_IO},
    {"MPI_File_read_at", 147, PXT_TYPE_MPI_IO, PXT_STATE_IO},
    {"MPI_File_read_at_all", 148, PXT_TYPE_MPI_IO, PXT_STATE_IO},
    {"MPI_File_write_at", 149, PXT_TYPE_MPI_IO, PXT_STATE_IO},
    {"MPI_File_write_at_all", 150, PXT_TYPE_MPI_IO, PXT_STATE_IO},
    {"MPI_Ireduce", 154, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Iallreduce", 155, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Ibarrier", 156, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_SYNCHRONIZATION},
    {"MPI_Ibcast", 157, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Ialltoall", 158, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Ialltoallv", 159, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Iallgather", 160, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Iallgatherv", 161, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Igather", 162, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Igatherv", 163, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Iscatter", 164, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Iscatterv", 165, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Ireduce_scatter", 166, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Iscan", 167, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Reduce_scatter_block", 168, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Ireduce_scatter_block", 169, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Alltoallw", 170, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Ialltoallw", 171, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Get_accumulate", 172, PXT_TYPE_MPI_RMA, PXT_STATE_ATOMIC_MEMORY_OPERATION},
    {"MPI_Dist_graph_create", 173, PXT_TYPE_MPI_OTHER, PXT_STATE_OTHERS},
    {"MPI_Neighbor_allgather", 174, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Ineighbor_allgather", 175, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Neighbor_allgatherv", 176, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Ineighbor_allgatherv", 177, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Neighbor_alltoall", 178, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Ineighbor_alltoall", 179, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Neighbor_alltoallv", 180, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Ineighbor_alltoallv", 181, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Neighbor_alltoallw", 182, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Ineighbor_alltoallw", 183, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Fetch_and_op", 184, PXT_TYPE_MPI_RMA, PXT_STATE_ATOMIC_MEMORY_OPERATION},
    {"MPI_Compare_and_swap", 185, PXT_TYPE_MPI_RMA, PXT_STATE_ATOMIC_MEMORY_OPERATION},
    {"MPI_Win_flush", 186, PXT_TYPE_MPI_RMA, PXT_STATE_MEMORY_ORDERING},
    {"MPI_Mprobe", 190, PXT_TYPE_MPI_P2P, PXT_STATE_TEST_PROBE},
    {"MPI_Improbe", 191, PXT_TYPE_MPI_P2P, PXT_STATE_TEST_PROBE},
    {"MPI_Mrecv", 192, PXT_TYPE_MPI_P2P, PXT_STATE_WAITING_MESSAGE},
    {"MPI_Imrecv", 193, PXT_TYPE_MPI_P2P, PXT_STATE_IMMEDIATE_RECEIVE},
    // Ours from here (Extrae names no value for these calls): 195-200 inside the 0-200 histogram
    // range of BSC's mpi_stats.cfg, the rest above it (see docs/compatibility.md).
    {"MPI_Exscan", 195, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Iexscan", 196, PXT_TYPE_MPI_COLLECTIVE, PXT_STATE_GROUP_COMMUNICATION},
    {"MPI_Dist_graph_create_adjacent", 197, PXT_TYPE_MPI_OTHER, PXT_STATE_OTHERS},
    {"MPI_Comm_split_type", 198, PXT_TYPE_MPI_OTHER, PXT_STATE_OTHERS},
    {"MPI_Comm_create_group", 199, PXT_TYPE_MPI_OTHER, PXT_STATE_OTHERS},
    {"MPI_Comm_idup", 200, PXT_TYPE_MPI_OTHER, PXT_STATE_OTHERS},
    {"MPI_Win_allocate", 201, PXT_TYPE_MPI_RMA, PXT_STATE_OTHERS},
    {"MPI_Win_lock_all", 202, PXT_TYPE_MPI_RMA, PXT_STATE_DISTRIBUTED_LOCKING},
    {"MPI_Win_unlock_all", 203, PXT_TYPE_MPI_RMA, PXT_STATE_DISTRIBUTED_LOCKING},
    {"MPI_Rput", 204, PXT_TYPE_MPI_RMA, PXT_STATE_REMOTE_MEMORY_ACCESS},
    {"MPI_Rget", 205, PXT_TYPE_MPI_RMA, PXT_STATE_REMOTE_MEMORY_ACCESS},
    {"MPI_File_iread", 206, PXT_TYPE_MPI_IO, PXT_STATE_IO},
    {"MPI_File_iwrite", 207, PXT_TYPE_MPI_IO, PXT_STATE_IO},
    {"MPI_File_iread_at", 208, PXT_TYPE_MPI_IO, PXT_STATE_IO},
    {"MPI_File_iwrite_at", 209, PXT_TYPE_MPI_IO, PXT_STATE_IO},
    {"MPI_Init_thread", 31, PXT_TYPE_MPI_OTHER, PXT_STATE_OTHERS},
};

// The name of the call with value `value` ("an unknown MPI call" for values not in the table).
inline const char* MpiCallName(int value) {
  for (const MpiCall& c : kMpiCalls)
    if (c.value == value) return c.name;
  return "an unknown MPI call";
}

// Index of a call in kMpiCalls by name, usable in constant expressions by the wrappers.
constexpr const MpiCall& FindMpiCall(const char* name) {
  for (const MpiCall& c : kMpiCalls) {
    const char* a = c.name;
    const char* b = name;
    while (*a && *a == *b) ++a, ++b;
    if (*a == *b) return c;
  }
  throw "FindMpiCall: no such call";  // a compile-time error in constant evaluation
}

// The pthread calls recorded by libparallax-pthread.so (type PXT_TYPE_PTHREAD).
enum PthreadCall : int {
  kPthreadCreate = 1,
  kPthreadJoin = 2,
  kPthreadMutexWait = 3,     // a contended pthread_mutex_lock
  kPthreadCondWait = 4,      // pthread_cond_wait (always a wait)
  kPthreadCondTimedWait = 5, // pthread_cond_timedwait
  kPthreadBarrierWait = 6,   // pthread_barrier_wait
  kPthreadRwlockRdWait = 7,  // a contended pthread_rwlock_rdlock
  kPthreadRwlockWrWait = 8,  // a contended pthread_rwlock_wrlock
  kPthreadSemWait = 9,       // a sem_wait that had to wait (the count was 0)
};

// The POSIX I/O calls recorded by libparallax-io.so (type PXT_TYPE_IO_CALL): Extrae's values
// where Extrae records the call (1-13), ours from 100 for the calls it does not wrap.
enum IoCall : int {
  kIoRead = 1,
  kIoWrite = 2,
  kIoPread = 5,
  kIoPwrite = 6,
  kIoReadv = 7,
  kIoWritev = 8,
  kIoPreadv = 9,
  kIoPwritev = 10,
  kIoOpen = 11,  // open, open64
  kIoOpenat = 100,
  kIoCreat = 101,
  kIoClose = 102,
  kIoLseek = 103,
  kIoFsync = 104,
  kIoFdatasync = 105,
};

// The dynamic-memory calls recorded with PXT_MALLOC=1 (type PXT_TYPE_DYNAMIC_MEMORY), Extrae's
// values where it has them (1-4), ours from 100.
enum MemoryCall : int {
  kMemMalloc = 1,
  kMemFree = 2,
  kMemRealloc = 3,
  kMemCalloc = 4,
  kMemPosixMemalign = 5,
  kMemAlignedAlloc = 100,
  kMemMemalign = 101,
};

}  // namespace parallax::tracing
