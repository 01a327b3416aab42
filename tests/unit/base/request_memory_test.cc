// RequestMemory and ChargeBatch: the per-request memory account (src/base/request_memory.h).

#include "src/base/request_memory.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace parallax::base {
namespace {

TEST(RequestMemory, ChargesUpToTheLimitThenThrows) {
  RequestMemory m(1000);
  m.Charge(600);
  m.Charge(400);  // exactly the limit is allowed
  EXPECT_EQ(m.used(), 1000u);
  try {
    m.Charge(1);
    FAIL() << "no exception past the limit";
  } catch (const RequestMemoryExceeded& e) {
    EXPECT_EQ(e.limit_bytes(), 1000u);
    EXPECT_EQ(std::string(e.what()), "the request needs more than its memory limit of 1000 bytes");
  }
}

TEST(RequestMemory, NoLimitNeverThrows) {
  RequestMemory m;
  EXPECT_FALSE(m.limited());
  m.Charge(UINT64_MAX);
  m.Charge(UINT64_MAX);
  EXPECT_EQ(m.used(), 0u);  // not even counted
}

TEST(RequestMemory, AChargeThatWrapsAroundThrows) {
  RequestMemory m(uint64_t{1} << 40);
  m.Charge(10);
  EXPECT_THROW(m.Charge(UINT64_MAX - 5), RequestMemoryExceeded);
}

TEST(ChargeBatch, ChargesInStepsAndTheRestOnFlush) {
  RequestMemory m(1 << 20);
  ChargeBatch b(&m, 100);
  for (int i = 0; i < 9; ++i) b.Add(10);
  EXPECT_EQ(m.used(), 0u);  // 90 bytes: below the step
  b.Add(10);
  EXPECT_EQ(m.used(), 100u);
  b.Add(5);
  b.Flush();
  EXPECT_EQ(m.used(), 105u);
  b.Flush();  // nothing pending
  EXPECT_EQ(m.used(), 105u);
}

TEST(ChargeBatch, ThrowsWhenTheStepPassesTheLimit) {
  RequestMemory m(150);
  ChargeBatch b(&m, 100);
  for (int i = 0; i < 10; ++i) b.Add(10);
  EXPECT_THROW(
      {
        for (int i = 0; i < 10; ++i) b.Add(10);
      },
      RequestMemoryExceeded);
}

TEST(ChargeBatch, WithoutABudgetDoesNothing) {
  ChargeBatch none(nullptr);
  none.Add(UINT64_MAX);
  none.Flush();
  RequestMemory unlimited;
  ChargeBatch b(&unlimited, 1);
  b.Add(UINT64_MAX);
  b.Flush();
  EXPECT_EQ(unlimited.used(), 0u);
}

}  // namespace
}  // namespace parallax::base
