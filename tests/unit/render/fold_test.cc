// The fold walks each row once along the columns (rendering.md §1–§2): a row is positioned
// (Init) once, plus once more for a last column moved back to the trace end. Before, a column
// whose p0 = begin + j·step came out one ulp below the previous p1 = p0 + step re-positioned
// the row, and a stateful function re-walks from time 0 on every Init: frames of omp2.prv with
// states_only_openmp.cfg cost seconds at 1193 px and a fraction of that at 1000 px.

#include <gtest/gtest.h>

#include <algorithm>

#include "src/render/fold.h"

namespace parallax::render {
namespace {

// Intervals of `len` ns from 0 to `end`, value = index; counts how often it is positioned.
class CountingRow : public semantic::Row {
 public:
  CountingRow(model::Time len, model::Time end) : len_(len), end_(end) {}
  void Init(model::Time t) override {
    ++inits;
    Set(std::min(t, end_ - 1) / len_);
  }
  void Next() override {
    if (cur_.end < end_) Set(cur_.begin / len_ + 1);
  }
  int inits = 0;

 private:
  void Set(model::Time i) {
    cur_.begin = i * len_;
    cur_.end = std::min(end_, (i + 1) * len_);
    cur_.value = static_cast<double>(i);
  }
  model::Time len_, end_;
};

TEST(Fold, PositionsEachRowOnceAtEveryWidth) {
  // omp2.prv's end time, and a few other ranges, at widths around the ones reported.
  const model::Time ends[] = {10380609993, 1000000007, 123456789};
  int overlapping = 0;
  for (model::Time end : ends) {
    for (uint32_t width = 980; width <= 1220; ++width) {
      Columns c = MakeColumns(0, end, end, width, 1);
      for (uint32_t j = 1; j < c.count(); ++j) overlapping += c.p0[j] < c.p1[j - 1];
      CountingRow row(end / 50000, end);
      FoldedRow out = FoldRow(row, c, FoldOptions{}, 0, end);
      ASSERT_EQ(out.values.size(), c.count());
      EXPECT_LE(row.inits, 2) << "end " << end << " width " << width;
      // Every column still sees its own intervals: the value drawn (maximum) is the index of
      // the last interval that begins before p1.
      for (uint32_t j = 0; j + 1 < c.count(); ++j) {
        auto last = static_cast<double>(static_cast<model::Time>(c.p1[j]) / (end / 50000));
        ASSERT_NEAR(out.values[j], last, 1) << "column " << j << " width " << width;
      }
    }
  }
  // The case that made the fold re-position rows does occur at these widths.
  EXPECT_GT(overlapping, 0);
}

// Intervals of `len` ns from `base` to `end`, value = their index from `base` (small values,
// exact as doubles, whatever `base` is).
class EpochRow : public semantic::Row {
 public:
  EpochRow(model::Time base, model::Time len, model::Time end) : base_(base), len_(len), end_(end) {}
  void Init(model::Time t) override { Set((std::clamp(t, base_, end_ - 1) - base_) / len_); }
  void Next() override {
    if (cur_.end < end_) Set((cur_.begin - base_) / len_ + 1);
  }

 private:
  void Set(model::Time i) {
    cur_.begin = base_ + i * len_;
    cur_.end = std::min(end_, base_ + (i + 1) * len_);
    cur_.value = static_cast<double>(i);
  }
  model::Time base_, len_, end_;
};

// Absolute nanosecond times of today (1.7e18) are past 2^53: a double's step there is 256 ns.
// The columns' boundaries were absolute doubles, so a range of a few hundred ns had columns
// that all rounded onto two or three times, and the intervals under them merged (the image was
// wrong). They are offsets from the range's start now, exact in this range.
TEST(Fold, ColumnsOfAFewHundredNanosecondsAtEpochTimesAreExact) {
  const model::Time base = 1'700'000'000'000'000'000, end = base + 1000;
  // 300 ns over 301 pixels: one column per ns.
  const Columns c = MakeColumns(base + 100, base + 400, end, 301, 1);
  ASSERT_EQ(c.count(), 300u);
  for (uint32_t j = 0; j < c.count(); ++j) {
    ASSERT_EQ(c.p0[j], j);
    ASSERT_EQ(c.p1[j], j + 1);
    ASSERT_EQ(c.ColumnOf(base + 100 + j), j);
    ASSERT_EQ(c.X(base + 100 + j), j);
  }
  EpochRow row(base, 7, end);  // intervals of 7 ns: boundaries off every power of two
  const FoldedRow out = FoldRow(row, c, FoldOptions{}, 0, end);
  ASSERT_EQ(out.values.size(), 300u);
  for (uint32_t j = 0; j < 300; ++j)
    EXPECT_EQ(out.values[j], static_cast<double>((100 + j) / 7)) << "column " << j;
  // Sub-nanosecond columns (more pixels than ns) each show the interval that covers them.
  const Columns fine = MakeColumns(base + 100, base + 110, end, 41, 1);
  ASSERT_EQ(fine.count(), 40u);
  const FoldedRow fine_out = FoldRow(row, fine, FoldOptions{}, 0, end);
  for (uint32_t j = 0; j < 40; ++j)
    EXPECT_EQ(fine_out.values[j], static_cast<double>((100 + j / 4) / 7)) << "column " << j;
  // A time before the range has a negative offset, not a wrapped one.
  EXPECT_EQ(c.Offset(base), -100);
  EXPECT_EQ(c.ColumnOf(base), -1);
}

}  // namespace
}  // namespace parallax::render
