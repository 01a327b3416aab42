// One paramedir run spread over several processes (ParamedirOptions::distribution), simulated
// with threads sharing one trace and an in-process allgather: every share together gives
// rank 0 exactly the single-process output, for 2D, 3D and communication histograms and a
// timeline dump; a process that fails stops the others with a message instead of leaving them
// waiting. The same for the POP metrics (PopOptions::distribution) and timeline images
// (TimelineRequest::distribution).

#include <gtest/gtest.h>

#include <cmath>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "include/parallax/pop.h"
#include "include/parallax/render.h"
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

// Runs body(rank, its Distribution) on `ranks` threads at once; returns each rank's result.
template <typename T>
std::vector<T> OnRanks(unsigned ranks, const std::function<T(unsigned, const Distribution&)>& body) {
  ThreadAllgather gather(ranks);
  std::vector<Distribution> dist(ranks);
  std::vector<std::optional<T>> results(ranks);
  std::vector<std::thread> threads;
  for (unsigned r = 0; r < ranks; ++r) {
    dist[r].rank = r;
    dist[r].ranks = ranks;
    dist[r].threads = 1;
    dist[r].allgather = [&gather, r](const std::string& mine) { return gather(r, mine); };
    threads.emplace_back([&, r] { results[r].emplace(body(r, dist[r])); });
  }
  for (auto& t : threads) t.join();
  std::vector<T> out;
  for (auto& r : results) out.push_back(std::move(*r));
  return out;
}

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

// Every process gets the single-process report: one trace's threads dealt out (5 ranks for 4
// threads: one has none), and a series dealt out by trace (4 ranks for 3 traces).
TEST(DistributedPop, EveryProcessGetsTheSingleProcessReport) {
  const std::vector<std::vector<std::string>> cases = {
      {kData + "/epoch/epoch_4proc.prv.gz"},
      {kData + "/epoch/epoch_1proc.prv.gz", kData + "/epoch/epoch_2proc.prv.gz",
       kData + "/epoch/epoch_4proc.prv.gz"}};
  for (const auto& traces : cases) {
    auto single = ComputePop(traces);
    ASSERT_TRUE(single.ok()) << single.status().ToString();
    const std::string want = FormatPopCsv(single.value()) + FormatPopJson(single.value());
    ASSERT_FALSE(std::isnan(single->raw[1].values[0])) << "the ideal replay ran";
    for (unsigned ranks : {2u, 3u, 4u, 5u}) {
      auto got = OnRanks<Result<PopReport>>(ranks, [&](unsigned, const Distribution& d) {
        PopOptions o;
        o.distribution = &d;
        return ComputePop(traces, o);
      });
      for (unsigned r = 0; r < ranks; ++r) {
        ASSERT_TRUE(got[r].ok()) << ranks << " ranks, rank " << r << ": " << got[r].status().ToString();
        EXPECT_EQ(FormatPopCsv(got[r].value()) + FormatPopJson(got[r].value()), want)
            << traces.size() << " traces, " << ranks << " ranks, rank " << r;
      }
    }
  }
}

// A trace that cannot be loaded, on whichever process: every process returns the
// single-process error (the first failing trace in the order given).
TEST(DistributedPop, AMissingTraceIsEveryProcessError) {
  const std::vector<std::string> traces = {kData + "/epoch/epoch_1proc.prv.gz", kData + "/no/such.prv",
                                           kData + "/epoch/epoch_2proc.prv.gz", kData + "/no/other.prv"};
  auto single = ComputePop(traces);
  ASSERT_FALSE(single.ok());
  for (unsigned ranks : {2u, 3u}) {
    auto got = OnRanks<Result<PopReport>>(ranks, [&](unsigned, const Distribution& d) {
      PopOptions o;
      o.distribution = &d;
      return ComputePop(traces, o);
    });
    for (unsigned r = 0; r < ranks; ++r) {
      ASSERT_FALSE(got[r].ok()) << r;
      EXPECT_EQ(got[r].status().ToString(), single.status().ToString()) << ranks << " ranks, rank " << r;
    }
  }
}

// Rank 0's images are the single process' bytes (a derived window, communication lines and
// flags); the others' are empty.
TEST(DistributedTimeline, RankZeroDrawsTheSingleProcessImage) {
  auto trace = Trace::Open(kData + "/epoch/epoch_4proc.prv.gz");
  ASSERT_TRUE(trace.ok());
  std::vector<TimelineRequest> requests(4);
  requests[0].cfg_path = kData + "/cfg/bsc/mpi/views/MPI_call_duration.cfg";
  requests[1].comms = true;
  requests[1].flags = true;
  requests[2].cfg_path = kData + "/cfg/bsc/General/views/User_function_excl_MPI.cfg";
  requests[2].format = "svg";
  // Flags and lines found by every process and drawn by process 0: in SVG, in the order one
  // process draws them.
  requests[3].comms = true;
  requests[3].flags = true;
  requests[3].format = "svg";
  for (const TimelineRequest& req : requests) {
    auto single = RenderTimeline(*trace.value(), req);
    ASSERT_TRUE(single.ok()) << single.status().ToString();
    ASSERT_EQ(single->size(), 1u);
    for (unsigned ranks : {2u, 3u, 5u}) {
      auto got = OnRanks<Result<std::vector<TimelineImage>>>(ranks, [&](unsigned, const Distribution& d) {
        TimelineRequest mine = req;
        mine.distribution = &d;
        return RenderTimeline(*trace.value(), mine);
      });
      for (unsigned r = 0; r < ranks; ++r) {
        ASSERT_TRUE(got[r].ok()) << got[r].status().ToString();
        ASSERT_EQ(got[r]->size(), 1u);
        EXPECT_EQ(got[r]->front().window, single->front().window);
        if (r == 0) {
          EXPECT_TRUE(got[r]->front().data == single->front().data) << ranks << " ranks";
          EXPECT_EQ(got[r]->front().layout, single->front().layout);
        } else {
          EXPECT_TRUE(got[r]->front().data.empty());
        }
      }
    }
  }
}

TEST(DistributedTimeline, AFailingProcessStopsTheOthersWithAMessage) {
  auto trace = Trace::Open(kData + "/epoch/epoch_4proc.prv.gz");
  ASSERT_TRUE(trace.ok());
  auto got = OnRanks<Result<std::vector<TimelineImage>>>(3, [&](unsigned r, const Distribution& d) {
    TimelineRequest req;
    req.distribution = &d;
    if (r == 1) req.objects = "9";  // 4 threads: this process fails before folding
    return RenderTimeline(*trace.value(), req);
  });
  ASSERT_FALSE(got[1].ok());
  EXPECT_NE(got[1].status().message().find("object 9 does not exist"), std::string::npos);
  for (unsigned r : {0u, 2u}) {
    ASSERT_FALSE(got[r].ok()) << r;
    EXPECT_NE(got[r].status().message().find("process 1 of 3 failed; this one stops too"),
              std::string::npos)
        << got[r].status().ToString();
  }
}

}  // namespace
}  // namespace parallax
