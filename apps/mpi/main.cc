// `mpirun -np N parallax-mpi paramedir [OPTIONS] TRACE CFG [OUT] ...`: paramedir's batch mode
// spread over MPI ranks (docs/scale.md); `parallax-mpi analyze TRACE --cfg CFG` likewise, rank 0
// printing the tables. Every rank opens the trace (rank 0 first, so the
// others read the cache it writes), computes its share of each histogram's rows, and the
// shares meet on every rank through MPI_Allgatherv; rank 0 writes the same files, byte for
// byte, as `parallax paramedir` does. Timeline dumps are computed and written by rank 0 alone.
// `parallax-mpi pop TRACE...` shares one trace's threads among the ranks (or deals several
// traces out) and rank 0 prints `parallax pop`'s report; `parallax-mpi timeline` deals each
// window's rows out and rank 0 draws and writes the images `parallax timeline` writes.
// `parallax-mpi check` and `parallax-mpi report` compute their POP factors, histograms and
// timelines that way; rank 0 computes the rest (diagnosis, structure) and prints or writes.
// Built only when Open MPI is found; the `parallax` binary does not need MPI.

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>

#include "apps/cli/commands.h"
#include "include/parallax/trace.h"

namespace {

// Waits for a non-blocking collective, sleeping between tests: a blocking MPI call spins on
// its core while the other ranks still compute, and on a node whose cores the ranks share
// (ranks x threads = cores) that spinning takes the time the other ranks need. The pause grows
// from 1 to 256 microseconds, so a short wait stays short.
void Wait(MPI_Request* request) {
  int done = 0;
  MPI_Test(request, &done, MPI_STATUS_IGNORE);
  for (int pause = 1; !done; pause = std::min(pause * 2, 256)) {
    std::this_thread::sleep_for(std::chrono::microseconds(pause));
    MPI_Test(request, &done, MPI_STATUS_IGNORE);
  }
}

// MPI_Allgatherv of one byte string per rank.
std::vector<std::string> Allgather(const std::string& mine, int ranks) {
  if (mine.size() > static_cast<size_t>(INT32_MAX)) {
    std::fputs("parallax-mpi: error: a histogram share above 2 GiB cannot be sent\n", stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  int size = static_cast<int>(mine.size());
  std::vector<int> sizes(static_cast<size_t>(ranks));
  MPI_Request request;
  MPI_Iallgather(&size, 1, MPI_INT, sizes.data(), 1, MPI_INT, MPI_COMM_WORLD, &request);
  Wait(&request);
  std::vector<int> offsets(static_cast<size_t>(ranks));
  long long total = 0;
  for (int r = 0; r < ranks; ++r) {
    offsets[static_cast<size_t>(r)] = static_cast<int>(total);
    total += sizes[static_cast<size_t>(r)];
    if (total > INT32_MAX) {
      std::fputs("parallax-mpi: error: the histogram shares exceed 2 GiB together\n", stderr);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
  std::string all(static_cast<size_t>(total), '\0');
  MPI_Iallgatherv(mine.data(), size, MPI_CHAR, all.data(), sizes.data(), offsets.data(), MPI_CHAR,
                  MPI_COMM_WORLD, &request);
  Wait(&request);
  std::vector<std::string> parts;
  for (int r = 0; r < ranks; ++r)
    parts.push_back(all.substr(static_cast<size_t>(offsets[static_cast<size_t>(r)]),
                               static_cast<size_t>(sizes[static_cast<size_t>(r)])));
  return parts;
}

int Run(int argc, char** argv, parallax::Distribution& dist) {
  CLI::App app{"Parallax over MPI ranks: mpirun -np N parallax-mpi paramedir TRACE CFG [OUT] ... | "
               "analyze TRACE --cfg CFG | pop TRACE... | timeline TRACE --cfg CFG -o PNG | check TRACE --assert F | "
               "report TRACE... -o R.html"};
  app.require_subcommand(1);
  bool no_cache = false;
  std::string cache_dir;
  app.add_flag("--no-cache", no_cache,
               "neither read nor write the trace cache (every rank then parses the trace)");
  app.add_option("--cache-dir", cache_dir, "keep trace caches in DIR instead of next to the trace");
  unsigned threads = 0;
  app.add_option("--threads", threads,
                 "worker threads per rank (default: the node's cores shared among its ranks)");
  parallax::cli::Command paramedir = parallax::cli::AddParamedirCommand(app, &dist);
  parallax::cli::Command analyze = parallax::cli::AddAnalyzeCommand(app, &dist);
  parallax::cli::Command pop = parallax::cli::AddPopCommand(app, &dist);
  parallax::cli::Command timeline = parallax::cli::AddTimelineCommand(app, &dist);
  parallax::cli::Command check = parallax::cli::AddCheckCommand(app, &dist);
  parallax::cli::Command report = parallax::cli::AddReportCommand(app, &dist);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return dist.rank == 0 ? app.exit(e) : (e.get_exit_code() == 0 ? 0 : 2);
  }
  if (threads > 0) dist.threads = threads;
  if (no_cache) setenv("PARALLAX_CACHE", "off", 1);
  if (!cache_dir.empty()) setenv("PARALLAX_CACHE_DIR", cache_dir.c_str(), 1);
  for (const parallax::cli::Command* c : {&analyze, &pop, &timeline, &check, &report})
    if (app.got_subcommand(c->sub)) return c->run();
  return paramedir.run();
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  parallax::Distribution dist;
  dist.rank = static_cast<unsigned>(rank);
  dist.ranks = static_cast<unsigned>(ranks);
  dist.allgather = [ranks](const std::string& mine) { return Allgather(mine, ranks); };
  // The ranks of one node share its cores.
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int local = 1;
  MPI_Comm_size(node, &local);
  MPI_Comm_free(&node);
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  dist.threads = std::max(1u, cores / static_cast<unsigned>(std::max(local, 1)));
  int status = 70;
  try {
    status = Run(argc, argv, dist);
  } catch (const std::exception& e) {
    // Another rank may be waiting in a collective: stop them all.
    std::fprintf(stderr, "parallax-mpi: [rank %d] internal error: %s\n", rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 70);
  }
  // The exit status of rank 0 is the run's (mpirun reports a non-zero status of any rank).
  // Ranks that finish first wait for the others asleep, not spinning in MPI_Finalize.
  MPI_Request request;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  Wait(&request);
  MPI_Finalize();
  return status;
}
