#include "src/base/parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <new>
#include <stdexcept>
#include <vector>

namespace parallax::base {
namespace {

TEST(ParallelFor, CallsEveryIndexOnce) {
  std::vector<std::atomic<int>> calls(1000);
  ParallelFor(calls.size(), 4, [&](size_t i) { calls[i].fetch_add(1); });
  for (auto& c : calls) EXPECT_EQ(c.load(), 1);
}

// Before: an exception in a worker thread reached std::terminate and killed the process (and
// with it `parallax serve`). Now the first one reaches the caller and the workers are joined.
TEST(ParallelFor, WorkerExceptionReachesTheCaller) {
  for (unsigned threads : {1u, 2u, 8u}) {
    std::atomic<int> started{0};
    EXPECT_THROW(ParallelFor(10000, threads,
                             [&](size_t i) {
                               started.fetch_add(1);
                               if (i == 7) throw std::runtime_error("row 7 failed");
                             }),
                 std::runtime_error)
        << threads << " threads";
    // The loop stops early: calls not started when the failure was seen are skipped.
    EXPECT_LT(started.load(), 10000) << threads << " threads";
  }
}

TEST(ParallelFor, BadAllocInAWorkerIsRethrownAsBadAlloc) {
  EXPECT_THROW(ParallelFor(64, 4, [](size_t i) { if (i % 16 == 3) throw std::bad_alloc(); }),
               std::bad_alloc);
}

TEST(ParallelFor, ExceptionFromPollStopsTheWorkers) {
  std::atomic<bool> stop{false};
  std::atomic<size_t> done{0};
  EXPECT_THROW(ParallelFor(
                   1u << 20, 2,
                   [&](size_t) {
                     // Slow enough that poll runs before the loop ends.
                     volatile double x = 0;
                     for (int k = 0; k < 2000; ++k) x = x + k;
                     done.fetch_add(1);
                   },
                   [&] {
                     if (!stop.exchange(true)) throw std::runtime_error("deadline");
                   }),
               std::runtime_error);
  EXPECT_LT(done.load(), size_t{1} << 20);
}

TEST(ParallelFor, TheFirstOfSeveralFailuresWins) {
  try {
    ParallelFor(100, 1, [](size_t i) { throw std::runtime_error("call " + std::to_string(i)); });
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "call 0");
  }
}

}  // namespace
}  // namespace parallax::base
