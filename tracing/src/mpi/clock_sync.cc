// Global clock: each rank measures its clock's offset against rank 0 with ping-pongs, keeping
// the exchange with the shortest round trip (the least queueing, so the tightest bound), once
// after MPI_Init and once before MPI_Finalize. The merge turns the two samples into an offset
// and a drift and corrects every timestamp of the rank (merge/merger.cc).

#include <cstdio>
#include <cstring>
#include <limits>

#include "tracing/src/mpi/mpi_support.h"

namespace parallax::tracing::mpi {

namespace {

constexpr int kSyncTag = 7001;
MPI_Comm g_sync_comm = MPI_COMM_NULL;  // private duplicate of MPI_COMM_WORLD

// Rank 0 answers `rounds` pings of every other rank, one rank at a time, with its clock.
void ServePings(int size, int rounds) {
  for (int r = 1; r < size; ++r) {
    for (int i = 0; i < rounds; ++i) {
      char ping;
      PMPI_Recv(&ping, 1, MPI_CHAR, r, kSyncTag, g_sync_comm, MPI_STATUS_IGNORE);
      uint64_t now = Now();
      PMPI_Send(&now, 1, MPI_UINT64_T, r, kSyncTag, g_sync_comm);
    }
  }
}

// offset = local - reference at the middle of the fastest round trip.
void MeasureOffset(int rounds) {
  uint64_t best_rtt = std::numeric_limits<uint64_t>::max(), best_mid = 0;
  int64_t best_offset = 0;
  for (int i = 0; i < rounds; ++i) {
    char ping = 0;
    uint64_t reference = 0;
    uint64_t t1 = Now();
    PMPI_Send(&ping, 1, MPI_CHAR, 0, kSyncTag, g_sync_comm);
    PMPI_Recv(&reference, 1, MPI_UINT64_T, 0, kSyncTag, g_sync_comm, MPI_STATUS_IGNORE);
    uint64_t t2 = Now();
    if (t2 - t1 < best_rtt) {
      best_rtt = t2 - t1;
      best_mid = t1 + (t2 - t1) / 2;
      best_offset = static_cast<int64_t>(best_mid - reference);
    }
  }
  Runtime::Get().AddClockSample(best_mid, best_offset, best_rtt);
}

void SyncClocks() {
  int rank = 0, size = 1;
  PMPI_Comm_rank(g_sync_comm, &rank);
  PMPI_Comm_size(g_sync_comm, &size);
  int rounds = std::max(1, Runtime::Get().options().sync_rounds);
  if (rank == 0) {
    ServePings(size, rounds);
    Runtime::Get().AddClockSample(Now(), 0, 0);
  } else {
    MeasureOffset(rounds);
  }
}

}  // namespace

void InitProcess() {
  TracerSection section;
  PMPI_Comm_dup(MPI_COMM_WORLD, &g_sync_comm);
  ProcessIdentity id;
  PMPI_Comm_rank(MPI_COMM_WORLD, &id.rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &id.size);
  // Every rank tags its file with rank 0's session, so a merge takes exactly this run's files.
  char session[256] = {};
  std::snprintf(session, sizeof session, "%s", Runtime::Get().identity().session.c_str());
  PMPI_Bcast(session, sizeof session, MPI_CHAR, 0, g_sync_comm);
  id.session = session;
  Runtime::Get().SetIdentity(id);
  // The MPI library installs its own fault handlers in MPI_Init: the crash flush goes first.
  if (Runtime::Get().active()) Runtime::Get().InstallCrashHandlers(true);
  if (Runtime::Get().active()) SyncClocks();
}

void FinishProcess() {
  TracerSection section;
  Runtime& rt = Runtime::Get();
  bool traced = rt.pending();  // recording, or paused by MPI_Pcontrol(0)
  if (traced) SyncClocks();
  if (traced) WriteMpiNotes();
  rt.FinishProcess();
  PMPI_Barrier(g_sync_comm);  // every process file is complete before rank 0 reads them
  if (traced && rt.identity().rank == 0 && rt.options().merge) MergeOwnSession();
  PMPI_Comm_free(&g_sync_comm);
}

}  // namespace parallax::tracing::mpi
