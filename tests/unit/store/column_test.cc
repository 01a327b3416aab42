// store::Column: an owned vector or a view of memory kept alive by a shared pointer; every
// mutation of a view copies it first, so a mapped cache is never written.

#include "src/store/column.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

namespace parallax::store {
namespace {

// Values in a buffer that counts how long it is kept alive.
struct Backing {
  std::vector<int64_t> values{10, 20, 30, 40};
};

Column<int64_t> ViewOf(const std::shared_ptr<Backing>& b) {
  return Column<int64_t>::View(b->values.data(), b->values.size(), b);
}

TEST(Column, OwnedBehavesAsAVector) {
  Column<uint32_t> c;
  EXPECT_TRUE(c.empty());
  for (uint32_t i = 0; i < 1000; ++i) c.push_back(i * 3);
  EXPECT_EQ(c.size(), 1000u);
  EXPECT_EQ(c[999], 2997u);
  EXPECT_EQ(c.back(), 2997u);
  EXPECT_FALSE(c.is_view());
  EXPECT_GE(c.capacity(), 1000u);
  c.resize(2);
  EXPECT_EQ(c, (std::vector<uint32_t>{0, 3}));
  c.insert(c.end(), c.begin(), c.end());  // from itself
  EXPECT_EQ(c, (std::vector<uint32_t>{0, 3, 0, 3}));
  c.erase(c.begin() + 1, c.begin() + 3);
  EXPECT_EQ(c, (std::vector<uint32_t>{0, 3}));
}

TEST(Column, ViewReadsWithoutCopyingAndKeepsItsBackingAlive) {
  auto b = std::make_shared<Backing>();
  std::weak_ptr<Backing> alive = b;
  const int64_t* where = b->values.data();
  Column<int64_t> c = ViewOf(b);
  b.reset();  // the column alone keeps the buffer
  ASSERT_FALSE(alive.expired());
  EXPECT_TRUE(c.is_view());
  EXPECT_EQ(std::as_const(c).data(), where);  // no copy
  EXPECT_EQ(std::as_const(c)[2], 30);
  EXPECT_EQ(c.capacity(), 0u);  // a view holds no heap memory of its own
  Column<int64_t> copy = c;     // copies of a view are views of the same bytes
  EXPECT_TRUE(copy.is_view());
  EXPECT_EQ(std::as_const(copy).data(), where);
  c = Column<int64_t>();
  EXPECT_FALSE(alive.expired());
  copy.clear();
  EXPECT_TRUE(alive.expired());
}

TEST(Column, MutatingAViewCopiesItFirst) {
  auto b = std::make_shared<Backing>();
  Column<int64_t> c = ViewOf(b);
  Column<int64_t> other = c;
  c[1] = 99;  // non-const access: the column owns a copy now
  EXPECT_FALSE(c.is_view());
  EXPECT_EQ(c, (std::vector<int64_t>{10, 99, 30, 40}));
  EXPECT_EQ(b->values, (std::vector<int64_t>{10, 20, 30, 40}));  // the backing is untouched
  EXPECT_EQ(other, (std::vector<int64_t>{10, 20, 30, 40}));
  other.push_back(50);
  EXPECT_FALSE(other.is_view());
  EXPECT_EQ(other, (std::vector<int64_t>{10, 20, 30, 40, 50}));
  EXPECT_EQ(b->values.size(), 4u);
  Column<int64_t> sorted = ViewOf(b);
  std::sort(sorted.begin(), sorted.end(), [](int64_t x, int64_t y) { return x > y; });
  EXPECT_EQ(sorted, (std::vector<int64_t>{40, 30, 20, 10}));
  EXPECT_EQ(b->values, (std::vector<int64_t>{10, 20, 30, 40}));
}

TEST(Column, MovesTransferTheViewOrTheVector) {
  auto b = std::make_shared<Backing>();
  Column<int64_t> v = ViewOf(b);
  Column<int64_t> moved = std::move(v);
  EXPECT_TRUE(moved.is_view());
  EXPECT_EQ(moved.size(), 4u);
  Column<int64_t> owned{1, 2, 3};
  const int64_t* where = owned.data();
  Column<int64_t> m2 = std::move(owned);
  EXPECT_EQ(m2.data(), where);  // the vector's buffer moved, not copied
  EXPECT_EQ(m2, (std::vector<int64_t>{1, 2, 3}));
  m2.swap(moved);
  EXPECT_TRUE(m2.is_view());
  EXPECT_EQ(moved, (std::vector<int64_t>{1, 2, 3}));
}

// The trace cache's parse writes the columns in place through writable views; sizes only
// shrink in place, a copy is read-only, and Freeze ends the writing.
TEST(Column, AWritableViewIsWrittenInPlaceUntilFrozen) {
  auto b = std::make_shared<Backing>();
  auto c = Column<int64_t>::WritableView(b->values.data(), b->values.size(), b);
  EXPECT_TRUE(c.is_view());
  EXPECT_TRUE(c.is_writable_view());
  c[1] = 21;
  std::sort(c.begin(), c.end(), [](int64_t x, int64_t y) { return x > y; });
  EXPECT_TRUE(c.is_writable_view());
  EXPECT_EQ(b->values, (std::vector<int64_t>{40, 30, 21, 10}));  // written in place
  c.resize(3);  // a record the second pass rejected: the slot stays unused
  c.shrink_to_fit();
  EXPECT_TRUE(c.is_writable_view());
  EXPECT_EQ(c.size(), 3u);
  EXPECT_EQ(std::as_const(c).data(), b->values.data());
  Column<int64_t> copy = c;  // a copy reads the same bytes but never writes them
  EXPECT_TRUE(copy.is_view());
  EXPECT_FALSE(copy.is_writable_view());
  copy[0] = 7;
  EXPECT_FALSE(copy.is_view());
  EXPECT_EQ(b->values[0], 40);
  Column<int64_t> grown = c;
  grown = std::move(c);  // a move keeps the writable view
  EXPECT_TRUE(grown.is_writable_view());
  grown.push_back(5);  // growing cannot stay in place: an owned copy
  EXPECT_FALSE(grown.is_view());
  EXPECT_EQ(grown, (std::vector<int64_t>{40, 30, 21, 5}));
  EXPECT_EQ(b->values, (std::vector<int64_t>{40, 30, 21, 10}));
  auto frozen = Column<int64_t>::WritableView(b->values.data(), b->values.size(), b);
  frozen.Freeze();
  EXPECT_TRUE(frozen.is_view());
  EXPECT_FALSE(frozen.is_writable_view());
  frozen[0] = 1;
  EXPECT_FALSE(frozen.is_view());
  EXPECT_EQ(b->values[0], 40);
}

}  // namespace
}  // namespace parallax::store
