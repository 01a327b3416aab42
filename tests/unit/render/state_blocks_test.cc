// The state summaries by blocks (src/store/state_blocks.h): every query against a walk of the
// states, and folds of State As Is rows with the summaries against folds without them (the
// same values, scale fit and marks, for every draw mode, width, range and option).

#include "src/store/state_blocks.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "src/render/fold.h"
#include "src/semantic/fast_rows.h"
#include "tests/unit/render/render_test_util.h"

namespace parallax::render::testing {
namespace {

using store::StateBlocks;
using store::StateColumns;

// `n` states from time 0: mostly dense runs with values drawn from `values` (0 among them),
// with gaps, zero-length states and states that end where a later one begins sprinkled in when
// `holes`.
StateColumns MakeStates(size_t n, uint32_t seed, bool holes, std::vector<uint32_t> values) {
  std::mt19937 rng(seed);
  StateColumns s;
  s.Resize(n);
  model::Time t = 0;
  for (size_t k = 0; k < n; ++k) {
    const uint32_t kind = holes ? rng() % 200 : 1;
    if (kind == 0) t += 1 + rng() % 5;  // a gap before this state
    s.begin[k] = t;
    model::Time len = 1 + rng() % 9;
    if (kind == 1 && rng() % 100 == 0) len = 1000;  // one long state among many short
    if (kind == 2) len = 0;                           // zero length
    s.end[k] = t + len;
    s.state[k] = values[rng() % values.size()];
    s.cpu[k] = 1;
    t += len;
  }
  return s;
}

bool SameDoubles(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

void ExpectSameFolded(const FoldedRow& a, const FoldedRow& b, const std::string& where) {
  EXPECT_TRUE(SameDoubles(a.values, b.values)) << where;
  EXPECT_EQ(a.has_start, b.has_start) << where;
  EXPECT_TRUE(SameDoubles(a.start_values, b.start_values)) << where;
  EXPECT_EQ(a.largest, b.largest) << where;
  EXPECT_EQ(a.smallest_non_zero, b.smallest_non_zero) << where;
  EXPECT_EQ(a.any_non_zero, b.any_non_zero) << where;
  EXPECT_EQ(a.exist_zero, b.exist_zero) << where;
}

TEST(StateBlocks, QueriesAgreeWithAWalkOfTheStates) {
  for (size_t n : {size_t{0}, size_t{1}, size_t{63}, size_t{64}, size_t{65}, size_t{4095}, size_t{4096},
                   size_t{4097}, size_t{9000}}) {
    for (bool holes : {false, true}) {
      const StateColumns s = MakeStates(n, static_cast<uint32_t>(n) + holes, holes, {0, 0, 1, 2, 7, 4000000000u});
      const StateBlocks blocks(s);
      std::mt19937 rng(7);
      for (int q = 0; q < 300; ++q) {
        size_t a = n ? rng() % (n + 1) : 0, b = n ? rng() % (n + 1) : 0;
        if (q % 3 == 0) a = (a / 64) * 64;  // block boundaries
        if (q % 5 == 0) b = std::min(n, (b / 4096) * 4096 + (q % 2));
        if (a > b) std::swap(a, b);
        store::StateSummary want;
        bool dense = true;
        size_t first_non_zero = b;
        for (size_t k = a; k < b; ++k) {
          want.Add(s.state[k]);
          dense = dense && StateBlocks::Dense(s, k);
          if (first_non_zero == b && s.state[k] != 0) first_non_zero = k;
        }
        const store::StateSummary got = blocks.Summarize(s, a, b);
        EXPECT_EQ(got.count, want.count);
        EXPECT_EQ(got.sum, want.sum);
        EXPECT_EQ(got.max, want.max);
        EXPECT_EQ(got.non_zero, want.non_zero);
        EXPECT_EQ(got.min_non_zero, want.min_non_zero);
        EXPECT_EQ(blocks.AllDense(s, a, b), dense) << a << " " << b;
        EXPECT_EQ(blocks.FirstNonZero(s, a, b), first_non_zero) << a << " " << b;
        const model::Time limit = n ? s.end[b == n ? n - 1 : b] + (q % 2) : 1;
        size_t run = a;
        while (run < n && StateBlocks::Dense(s, run) && s.end[run] < limit) ++run;
        EXPECT_EQ(blocks.DenseRunEnd(s, a, limit), run) << a << " " << limit;
      }
    }
  }
}

// Folds one thread's states with and without summaries over many columns and options.
void ExpectSameFoldsWithBlocks(const StateColumns& s, model::Time trace_end, const std::string& name) {
  const StateBlocks blocks(s);
  ASSERT_TRUE(semantic::StateRow::WellFormed(s, 0, trace_end));
  const std::pair<model::Time, model::Time> ranges[] = {
      {0, trace_end}, {trace_end / 3, trace_end / 3 + trace_end / 7}, {trace_end / 2, trace_end}};
  for (auto [from, to] : ranges) {
    for (uint32_t width : {1u, 7u, 300u, 2000u}) {
      for (uint32_t pixel : {1u, 3u}) {
        const Columns c = MakeColumns(from, to, trace_end, width, pixel);
        for (int m = 0; m <= static_cast<int>(DrawMode::kAbsoluteMinimum); ++m) {
          for (int variant = 0; variant < 3; ++variant) {
            FoldOptions o{static_cast<DrawMode>(m), variant == 1, 1, nullptr};
            if (variant == 2) o.highlight = Highlight{1, 3};
            semantic::StateRow plain(s, trace_end);
            semantic::StateRow summarised(s, trace_end, &blocks);
            ExpectSameFolded(FoldRow(summarised, c, o, 5, trace_end), FoldRow(plain, c, o, 5, trace_end),
                             name + " mode " + std::to_string(m) + " variant " + std::to_string(variant) +
                                 " width " + std::to_string(width) + " pixel " + std::to_string(pixel) +
                                 " from " + std::to_string(from));
          }
        }
      }
    }
  }
}

TEST(StateBlocks, FoldsAreTheSameWithAndWithoutThem) {
  // Dense, with zeros (exist_zero, not-zero modes), a sparse non-zero value among zeros (the
  // random-not-zero search across blocks), values near 2^32.
  for (uint32_t seed : {1u, 2u}) {
    const StateColumns dense = MakeStates(30000, seed, false, {0, 1, 1, 2, 5, 9});
    ExpectSameFoldsWithBlocks(dense, dense.end.back(), "dense");
    ExpectSameFoldsWithBlocks(dense, dense.end.back() + 100, "dense, then a gap to the end");
  }
  std::vector<uint32_t> mostly_zero(500, 0);
  mostly_zero.push_back(3);
  const StateColumns sparse = MakeStates(30000, 3, false, mostly_zero);
  ExpectSameFoldsWithBlocks(sparse, sparse.end.back(), "sparse");
  const StateColumns big = MakeStates(20000, 4, false, {4294967295u, 4294967294u, 1});
  ExpectSameFoldsWithBlocks(big, big.end.back(), "big values");
  // Gaps and zero-length states break the runs: the walk takes over around them.
  const StateColumns holes = MakeStates(30000, 5, true, {0, 1, 2, 3});
  ExpectSameFoldsWithBlocks(holes, holes.end.back() + 3, "holes");
}

TEST(StateBlocks, AveragesTooLargeToSumExactlyAreTakenOneByOne) {
  // 2^21 + 1000 states of 2^32 - 1 in one column: their sum passes 2^53, where adding doubles
  // one by one rounds; the summarised average must round the same way.
  const size_t n = (size_t{1} << 21) + 1000;
  StateColumns s;
  s.Resize(n);
  for (size_t k = 0; k < n; ++k) {
    s.begin[k] = k;
    s.end[k] = k + 1;
    s.state[k] = k % 3 == 0 ? 4294967295u : 4294967293u;
    s.cpu[k] = 1;
  }
  const StateBlocks blocks(s);
  const Columns c = MakeColumns(0, n, n, 1, 1);
  for (DrawMode m : {DrawMode::kAverage, DrawMode::kAverageNotZero}) {
    FoldOptions o{m, false, 1, nullptr};
    semantic::StateRow plain(s, n);
    semantic::StateRow summarised(s, n, &blocks);
    ExpectSameFolded(FoldRow(summarised, c, o, 0, n), FoldRow(plain, c, o, 0, n), "average");
  }
}

TEST(StateBlocks, RealTracesFoldTheSame) {
  for (const char* name : {"epoch/epoch_4proc.prv.gz", "omp/omp2.prv.gz"}) {
    io::PrvReadOptions ro;
    auto prv = io::ReadPrv(std::string(PARALLAX_TEST_DATA) + "/" + name, ro);
    ASSERT_TRUE(prv.ok()) << prv.status().ToString();
    const model::Time end = prv->store.end_time();
    size_t checked = 0;
    for (uint32_t t = 0; t < prv->store.threads(); ++t) {
      const auto& s = prv->store.thread(model::ThreadIndex(t)).states;
      if (s.size() == 0 || !semantic::StateRow::WellFormed(s, 0, end)) continue;
      ExpectSameFoldsWithBlocks(s, end, std::string(name) + " thread " + std::to_string(t));
      ++checked;
    }
    EXPECT_GT(checked, 0u) << name;
  }
}

}  // namespace
}  // namespace parallax::render::testing
