// Row costs for dealing a window's rows out among processes (src/semantic/row_cost.h), counted
// by hand on a small trace: 1 application of 2 tasks (2 threads and 1 thread), 2 cpus.

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "src/base/wire.h"
#include "src/semantic/row_cost.h"
#include "tests/unit/semantic/semantic_test_util.h"

namespace parallax::semantic {
namespace {

using model::Level;

// Thread 1.1.1: 3 states and 2 events (one line of 2 events counts 2); thread 1.1.2: 1 state;
// thread 1.2.1: 1 state and 1 event.
constexpr char kTrace[] =
    "#Paraver (01/01/2024 at 00:00):100_ns:1(2):1:2(2:1,1:1)\n"
    "1:1:1:1:1:0:10:1\n"
    "1:1:1:1:1:10:20:2\n"
    "1:1:1:1:1:20:100:1\n"
    "2:1:1:1:1:5:7:1:8:2\n"
    "1:2:1:1:2:0:100:1\n"
    "1:1:1:2:1:0:50:3\n"
    "2:2:1:2:1:50:7:4\n";

TEST(RowCosts, CountTheRecordsOfTheThreadsUnderEachRow) {
  testing::Loaded t = testing::Load(kTrace);
  const auto& h = t.prv.header;
  const auto& s = t.prv.store;
  EXPECT_EQ(RowCosts(h, s, Level::kThread, {0, 1, 2}), (std::vector<uint64_t>{5, 1, 2}));
  EXPECT_EQ(RowCosts(h, s, Level::kTask, {0, 1}), (std::vector<uint64_t>{6, 2}));
  EXPECT_EQ(RowCosts(h, s, Level::kAppl, {0}), (std::vector<uint64_t>{8}));
  EXPECT_EQ(RowCosts(h, s, Level::kWorkload, {0}), (std::vector<uint64_t>{8}));
  // Resource rows: 1 each (round-robin once dealt); objects beyond the trace: 0.
  EXPECT_EQ(RowCosts(h, s, Level::kCpu, {0, 1}), (std::vector<uint64_t>{1, 1}));
  EXPECT_EQ(RowCosts(h, s, Level::kThread, {7}), (std::vector<uint64_t>{0}));
  EXPECT_EQ(RowCosts(h, s, Level::kTask, {9}), (std::vector<uint64_t>{0}));
  // Two processes: the heavy thread alone, the two light ones together.
  EXPECT_EQ(base::BalanceByCost(RowCosts(h, s, Level::kThread, {0, 1, 2}), 2),
            (std::vector<uint32_t>{0, 1, 1}));
}

}  // namespace
}  // namespace parallax::semantic
