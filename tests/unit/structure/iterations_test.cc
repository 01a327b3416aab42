// The rules of FindIterations (docs/structure.md) on small traces written here: the start-up
// and tear-down, iterations whose durations legitimately vary, a call made twice per step, a
// checkpoint every few steps, and the iteration after an MPI anchor's last occurrence.

#include "src/structure/iterations.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "src/io/prv/prv_reader.h"

namespace parallax::structure {
namespace {

// Two ranks with the same calls. `events` per rank: (time, type, value), in time order.
struct TwoRanks {
  std::vector<std::tuple<uint64_t, uint32_t, int64_t>> events;
  uint64_t end = 0;

  // An MPI call of Extrae's value `call` (type 50000001 point-to-point, 50000002 collective).
  void Call(uint64_t at, uint64_t length, uint32_t type, int64_t call) {
    events.push_back({at, type, call});
    events.push_back({at + length, type, 0});
    end = std::max(end, at + length + 1);
  }
  void Marker(uint64_t at, uint64_t length) {
    events.push_back({at, 60000019, 3});
    events.push_back({at + length, 60000019, 0});
    end = std::max(end, at + length + 1);
  }
  Iterations Find() const {
    std::string text = "#Paraver (01/01/26 at 00:00):" + std::to_string(end) + "_ns:2(1,1):1:2(1:1,1:2)\n";
    for (int t = 1; t <= 2; ++t)
      for (const auto& [at, type, value] : events)
        text += "2:" + std::to_string(t) + ":1:" + std::to_string(t) + ":1:" + std::to_string(at) + ":" +
                std::to_string(type) + ":" + std::to_string(value) + "\n";
    io::PrvReadOptions o;
    o.threads = 1;
    auto t = io::ParsePrv(text, "test.prv", o);
    EXPECT_TRUE(t.ok());
    trace_ = std::make_unique<io::PrvTrace>(std::move(t).value());
    calls::CallTable table = calls::BuildCallTable(trace_->header, trace_->store, nullptr, {1});
    Iterations read = FindIterations(trace_->header, trace_->store, nullptr, table);
    // The markers kept by the call table's pass give the same iterations as a pass of their own.
    calls::CallTable with = calls::BuildCallTable(trace_->header, trace_->store, nullptr, {1, MarkerTypes()});
    Iterations kept = FindIterations(trace_->header, trace_->store, nullptr, with);
    EXPECT_EQ(kept.found, read.found);
    EXPECT_EQ(kept.anchor.name, read.anchor.name);
    EXPECT_EQ(kept.begins, read.begins);
    EXPECT_EQ(kept.last_end, read.last_end);
    EXPECT_EQ(kept.tried.size(), read.tried.size());
    return read;
  }
  mutable std::unique_ptr<io::PrvTrace> trace_;
};

constexpr uint32_t kP2p = 50000001, kCollective = 50000002;
constexpr int64_t kSend = 1, kAllreduce = 10, kReduce = 9, kInit = 31, kFinalize = 32;

TEST(IterationsTest, ShortAndLongIterationsAtTheEndsAreIterationsWhenTheLoopVariesAsMuch) {
  // Durations vary by a factor 3 inside the loop (its spread stays moderate); the first is under
  // a third of the median (the old rule, a fixed factor 3, called it start-up).
  const std::vector<uint64_t> d = {250, 700, 1400, 600, 1000, 1500, 650, 1200, 1600, 550, 900, 1450};
  TwoRanks r;
  uint64_t t = 100;
  for (uint64_t x : d) {
    r.Marker(t, x / 2);
    t += x;
  }
  const Iterations its = r.Find();
  ASSERT_TRUE(its.found) << its.why_none;
  EXPECT_EQ(its.count(), d.size());
  EXPECT_EQ(its.startup_iterations, 0u);
  EXPECT_EQ(its.Begin(0, 0), 100u);
  EXPECT_EQ(its.End(d.size() - 1, 1), t - d.back() + d.back() / 2);  // the last marker's exit
}

TEST(IterationsTest, AFarOutIterationBeforeARegularLoopIsStartUp) {
  TwoRanks r;
  r.Call(10, 40, 50000003, kInit);
  uint64_t t = 100;
  r.Call(t, 5, kCollective, kAllreduce);  // a start-up reduction 20 ns before the loop's
  t += 20;
  for (int i = 0; i < 10; ++i) {
    r.Call(t, 5, kCollective, kAllreduce);
    t += 1000 + 10 * (i % 3);
  }
  r.Call(t, 5, kCollective, kAllreduce);
  r.Call(t + 100, 50, 50000003, kFinalize);
  const Iterations its = r.Find();
  ASSERT_TRUE(its.found) << its.why_none;
  EXPECT_EQ(its.anchor.name, "MPI_Allreduce");
  EXPECT_EQ(its.count(), 10u);
  EXPECT_EQ(its.startup_iterations, 1u);
  EXPECT_EQ(its.SpanBegin(0), 120u);
}

TEST(IterationsTest, ACallMadeTwicePerStepGroupsTwoIntervals) {
  // Per step: 900 ns of work, MPI_Allreduce, 100 ns, MPI_Allreduce: intervals alternate.
  TwoRanks r;
  uint64_t t = 100;
  for (int i = 0; i < 8; ++i) {
    r.Call(t, 5, kCollective, kAllreduce);
    r.Call(t + 100, 5, kCollective, kAllreduce);
    r.Call(t + 500, 5, kP2p, kSend);  // makes the two intervals' calls differ
    t += 1000;
  }
  r.Call(t, 5, kCollective, kAllreduce);
  const Iterations its = r.Find();
  ASSERT_TRUE(its.found) << its.why_none;
  EXPECT_EQ(its.anchor.group, 2u);
  EXPECT_EQ(its.count(), 8u);
}

TEST(IterationsTest, ACheckpointEveryFewStepsKeepsSingleSteps) {
  TwoRanks r;
  uint64_t t = 100;
  for (int i = 0; i < 20; ++i) {
    r.Call(t, 5, kCollective, kAllreduce);
    if (i % 5 == 4) r.Call(t + 50, 5, kCollective, kReduce);
    t += 1000;
  }
  r.Call(t, 5, kCollective, kAllreduce);
  const Iterations its = r.Find();
  ASSERT_TRUE(its.found) << its.why_none;
  EXPECT_EQ(its.anchor.name, "MPI_Allreduce");
  EXPECT_EQ(its.anchor.group, 1u);
  EXPECT_EQ(its.count(), 20u);
}

// Steps whose durations alone are too spread (a loaded machine: median absolute deviation 55% of
// the median, at every position between two checkpoints), with a checkpoint MPI_Reduce after
// the `period[g]`-th step of group g; the steps of a group last 5000 ns (6300 with 6 steps).
Iterations NoisyStepsWithCheckpoints(const std::vector<int>& period) {
  const std::vector<uint64_t> noise = {300, 1700, 400, 1500, 1100, 1300};
  TwoRanks r;
  uint64_t t = 100;
  for (size_t g = 0; g < period.size(); ++g) {
    const int p = period[g];
    for (int i = 0; i < p; ++i) {
      r.Call(t, 5, kCollective, kAllreduce);
      if (i == p - 1) r.Call(t + 50, 5, kCollective, kReduce);
      t += noise[(static_cast<size_t>(i) + 2 * g) % static_cast<size_t>(p)];
    }
  }
  r.Call(t, 5, kCollective, kAllreduce);
  return r.Find();
}

TEST(IterationsTest, NoisyStepsNestedEvenlyInARegularLoopAreTheIterations) {
  const Iterations its = NoisyStepsWithCheckpoints({5, 5, 5, 5, 5, 5});
  ASSERT_TRUE(its.found) << its.why_none;
  EXPECT_EQ(its.anchor.name, "MPI_Allreduce");
  EXPECT_EQ(its.anchor.nested_in, "MPI_Reduce");
  EXPECT_GT(its.anchor.spread, 0.5);  // alone, its durations would reject it
  EXPECT_EQ(its.count(), 30u);
}

TEST(IterationsTest, NoisyStepsNestedUnevenlyAreNotRescued) {
  // Checkpoints after 5 or 6 steps: the coarse loop holds no fixed number of steps.
  const Iterations its = NoisyStepsWithCheckpoints({5, 6, 5, 6, 5, 6});
  ASSERT_TRUE(its.found) << its.why_none;
  EXPECT_EQ(its.anchor.name, "MPI_Reduce");
  for (const Candidate& c : its.tried)
    if (c.name == "MPI_Allreduce") EXPECT_NE(c.rejected.find("too spread"), std::string::npos) << c.rejected;
}

TEST(IterationsTest, NothingRegularIsSaidWithWhatWasTried) {
  TwoRanks r;
  const std::vector<uint64_t> gaps = {10, 5000, 20, 30, 9000, 15, 40, 7000};
  uint64_t t = 100;
  for (uint64_t g : gaps) {
    r.Call(t, 5, kCollective, kAllreduce);
    t += g;
  }
  const Iterations its = r.Find();
  EXPECT_FALSE(its.found);
  EXPECT_FALSE(its.why_none.empty());
  ASSERT_FALSE(its.tried.empty());
  EXPECT_FALSE(its.tried[0].rejected.empty());
}

}  // namespace
}  // namespace parallax::structure
