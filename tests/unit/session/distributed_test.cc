// One paramedir run spread over several processes (ParamedirOptions::distribution), simulated
// with threads sharing one trace and an in-process allgather: every share together gives
// rank 0 exactly the single-process output, for 2D, 3D and communication histograms and a
// timeline dump; a process that fails stops the others with a message instead of leaving them
// waiting.

#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "include/parallax/trace.h"

namespace parallax {
namespace {

const std::string kData = PARALLAX_TEST_DATA;

// An allgather among `ranks` threads: each call blocks until every rank has called.
class ThreadAllgather {
 public:
  explicit ThreadAllgather(unsigned ranks) : parts_(ranks), ranks_(ranks) {}
  std::vector<std::string> operator()(unsigned rank, const std::string& mine) {
    std::unique_lock<std::mutex> lock(mutex_);
    const uint64_t round = round_;
    parts_[rank] = mine;
    if (++arrived_ == ranks_) {
      result_ = parts_;
      arrived_ = 0;
      ++round_;
      changed_.notify_all();
    } else {
      changed_.wait(lock, [&] { return round_ != round; });
    }
    return result_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::string> parts_, result_;
  unsigned ranks_;
  unsigned arrived_ = 0;
  uint64_t round_ = 0;
};

// Runs `cfgs[rank]` on every rank at once; returns each rank's results.
std::vector<Result<std::vector<ParamedirOutput>>> RunRanks(const Trace& trace, unsigned ranks,
                                                           const std::vector<std::string>& cfgs) {
  ThreadAllgather gather(ranks);
  std::vector<Distribution> dist(ranks);
  std::vector<Result<std::vector<ParamedirOutput>>> results(ranks, Status::Error("not run"));
  std::vector<std::thread> threads;
  for (unsigned r = 0; r < ranks; ++r) {
    dist[r].rank = r;
    dist[r].ranks = ranks;
    dist[r].allgather = [&gather, r](const std::string& mine) { return gather(r, mine); };
    threads.emplace_back([&, r] {
      ParamedirOptions o;
      o.distribution = &dist[r];
      results[r] = trace.Paramedir(cfgs[r], "", o);
    });
  }
  for (auto& t : threads) t.join();
  return results;
}

class Distributed : public ::testing::TestWithParam<std::string> {};

TEST_P(Distributed, RankZeroWritesTheSingleProcessOutput) {
  auto trace = Trace::Open(kData + "/epoch/epoch_4proc.prv.gz");
  ASSERT_TRUE(trace.ok()) << trace.status().ToString();
  const std::string cfg = kData + "/cfg/bsc/" + GetParam();
  auto single = trace.value()->Paramedir(cfg, "", ParamedirOptions{});
  ASSERT_TRUE(single.ok()) << single.status().ToString();
  ASSERT_EQ(single->size(), 1u);
  ASSERT_FALSE(single->front().content.empty());
  for (unsigned ranks : {2u, 3u, 5u}) {  // 5 ranks for 4 tasks: one rank has no row
    auto results = RunRanks(*trace.value(), ranks, std::vector<std::string>(ranks, cfg));
    for (unsigned r = 0; r < ranks; ++r) {
      ASSERT_TRUE(results[r].ok()) << ranks << " ranks, rank " << r << ": " << results[r].status().ToString();
      ASSERT_EQ(results[r]->size(), 1u);
    }
    const ParamedirOutput& out = results[0]->front();
    EXPECT_TRUE(out.write);
    EXPECT_EQ(out.file_name, single->front().file_name);
    EXPECT_EQ(out.content, single->front().content) << ranks << " ranks";
  }
}

INSTANTIATE_TEST_SUITE_P(Cfgs, Distributed,
                         ::testing::Values("mpi/analysis/mpi_stats.cfg",             // 2D, thread rows
                                           "mpi/analysis/3dh_duration_MPIcall.cfg",  // 3D
                                           "mpi/analysis/connectivity.cfg",          // communications
                                           "General/analysis/2dh_useful_duration.cfg",
                                           "General/views/state_as_is.cfg"));        // a timeline dump

TEST(DistributedFailure, AFailingProcessStopsTheOthersWithAMessage) {
  auto trace = Trace::Open(kData + "/epoch/epoch_4proc.prv.gz");
  ASSERT_TRUE(trace.ok());
  const std::string good = kData + "/cfg/bsc/mpi/analysis/mpi_stats.cfg";
  auto results = RunRanks(*trace.value(), 3, {good, kData + "/no/such.cfg", good});
  ASSERT_FALSE(results[1].ok());
  for (unsigned r : {0u, 2u}) {
    ASSERT_FALSE(results[r].ok()) << r;
    EXPECT_NE(results[r].status().message().find("process 1 of 3 failed; this one stops too"),
              std::string::npos)
        << results[r].status().ToString();
  }
  // The same trace serves the next call normally.
  auto again = RunRanks(*trace.value(), 2, {good, good});
  EXPECT_TRUE(again[0].ok() && again[1].ok());
}

}  // namespace
}  // namespace parallax
