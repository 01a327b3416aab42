#include "src/render/fold.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "src/semantic/fast_rows.h"
#include "src/semantic/row_cost.h"

namespace parallax::render {

model::Time Columns::Limit(double offset) const {
  if (!(offset > 0)) return begin;
  const double whole = std::ceil(offset);
  if (whole >= 0x1p64 || static_cast<model::Time>(whole) > model::kNoEnd - begin) return model::kNoEnd;
  return begin + static_cast<model::Time>(whole);
}

int64_t Columns::ColumnOf(model::Time time) const {
  const double t = Offset(time);
  if (p0.empty() || t < p0.front() || t > p1.back()) return -1;
  auto j = static_cast<int64_t>(t / step);
  j = std::clamp<int64_t>(j, 0, static_cast<int64_t>(p0.size()) - 1);
  // The last column may have been moved back to end at the trace end.
  while (j > 0 && t < p0[static_cast<size_t>(j)]) --j;
  return j;
}

Columns MakeColumns(model::Time begin, model::Time end, model::Time trace_end, uint32_t width,
                    uint32_t pixel_size) {
  Columns c;
  c.begin = begin;
  c.end = end;
  c.pixel_size = std::max<uint32_t>(pixel_size, 1);
  double span = static_cast<double>(end > begin ? end - begin : 1);
  c.step = width > c.pixel_size ? span * c.pixel_size / (width - c.pixel_size) : span;
  const double tolerance = c.step * 1e-9;  // j * step may land a hair past the end
  const double te = c.Offset(trace_end), e = c.Offset(end);
  for (uint32_t j = 0; j < width / c.pixel_size; ++j) {
    double p0 = j * c.step;
    double p1 = p0 + c.step;
    if (p1 > te + tolerance || (p1 > te && e >= te)) {
      if (p0 < te) {
        c.p0.push_back(std::max(te - c.step, 0.0));
        c.p1.push_back(te);
      }
      break;
    }
    if (p1 > e + tolerance) break;
    c.p0.push_back(p0);
    c.p1.push_back(std::min(p1, e));
  }
  return c;
}

namespace {

// A run of states a column takes whole (their values follow values[at - 1] in the column's list).
struct Bulk {
  size_t at = 0;
  size_t first = 0;  // state index
  store::StateSummary summary;
};

// Fewer states than this in a column are taken one by one.
constexpr size_t kMinBulk = 16;

// Reduce(mode, list) for the list `values` with `bulk`'s states inserted at bulk.at: the same
// value, from the summary where the mode allows (the values of a State As Is row are
// non-negative integers, so the absolute modes are the plain ones and sums below 2^53 are exact
// in any order).
class BulkReducer {
 public:
  BulkReducer(const std::vector<double>& values, const Bulk& bulk, const store::StateColumns& s,
              const store::StateBlocks& blocks)
      : v_(values), b_(bulk), s_(s), blocks_(blocks), n_(values.size() + bulk.summary.count) {}

  double Reduce(DrawMode mode, double random) const {
    switch (mode) {
      case DrawMode::kLast:
        return At(n_ - 1);
      case DrawMode::kMaximum:
      case DrawMode::kAbsoluteMaximum:
        return std::max(*std::max_element(v_.begin(), v_.end()), static_cast<double>(b_.summary.max));
      case DrawMode::kMinNotZero:
      case DrawMode::kAbsoluteMinimum: {
        double m = std::numeric_limits<double>::infinity();
        for (double x : v_)
          if (x != 0 && x < m) m = x;
        if (b_.summary.non_zero > 0) m = std::min(m, static_cast<double>(b_.summary.min_non_zero));
        return std::isinf(m) ? 0 : m;
      }
      case DrawMode::kRandom:
        return At(RandomIndex(n_, random));
      case DrawMode::kRandNotZero: {
        const size_t start = RandomIndex(n_, random);
        if (auto x = FirstNonZero(start, n_)) return *x;
        return FirstNonZero(0, start).value_or(0);
      }
      case DrawMode::kAverage:
      case DrawMode::kAverageNotZero: {
        const bool not_zero = mode == DrawMode::kAverageNotZero;
        uint64_t sum = b_.summary.sum;
        uint64_t count = not_zero ? b_.summary.non_zero : b_.summary.count;
        for (double x : v_) {
          if (__builtin_add_overflow(sum, static_cast<uint64_t>(x), &sum)) sum = UINT64_MAX;
          count += !not_zero || x != 0;
        }
        if (sum > (uint64_t{1} << 53)) return render::Reduce(mode, Materialize(), random);
        return count == 0 ? 0 : static_cast<double>(sum) / static_cast<double>(count);
      }
      case DrawMode::kMode:
        break;
    }
    return render::Reduce(mode, Materialize(), random);
  }

 private:
  double At(size_t i) const {
    if (i < b_.at) return v_[i];
    if (i - b_.at < b_.summary.count) return static_cast<double>(s_.state[b_.first + (i - b_.at)]);
    return v_[i - b_.summary.count];
  }
  // The first value that is not zero at list positions [from, to).
  std::optional<double> FirstNonZero(size_t from, size_t to) const {
    const size_t bulk_end = b_.at + b_.summary.count;
    for (size_t i = from; i < to;) {
      if (i >= b_.at && i < bulk_end) {
        const size_t stop = std::min(to, bulk_end);
        const size_t k = blocks_.FirstNonZero(s_, b_.first + (i - b_.at), b_.first + (stop - b_.at));
        if (k < b_.first + (stop - b_.at)) return static_cast<double>(s_.state[k]);
        i = stop;
      } else {
        if (double x = At(i); x != 0) return x;
        ++i;
      }
    }
    return std::nullopt;
  }
  std::vector<double> Materialize() const {
    std::vector<double> all;
    all.reserve(n_);
    for (size_t i = 0; i < n_; ++i) all.push_back(At(i));
    return all;
  }

  const std::vector<double>& v_;
  const Bulk& b_;
  const store::StateColumns& s_;
  const store::StateBlocks& blocks_;
  const size_t n_;
};

// Walks one row along the columns, collecting the values of every column (§2 steps 1–2).
// A template so that the fast StateRow (final) is called without virtual dispatch.
template <typename RowT>
class RowFolder {
 public:
  RowFolder(RowT& row, const FoldOptions& o, const Columns& columns, model::Time trace_end)
      : row_(row), options_(o), columns_(columns), trace_end_(trace_end) {
    if constexpr (std::is_same_v<RowT, semantic::StateRow>)
      bulk_allowed_ = row.blocks() != nullptr && !o.highlight && !o.punctual && o.time_mode != DrawMode::kMode;
  }

  // Positions the row at begin + `offset` (offsets are those of the columns).
  void Start(double offset) {
    row_.Init(columns_.begin + static_cast<model::Time>(std::max(offset, 0.0)));
    Observe();
  }

  // Collects the values of [p0, p1) (offsets from the columns' begin) into values_ (and
  // starts_ for the punctual mode).
  void Collect(double p0, double p1) {
    values_.clear();
    starts_.clear();
    bulk_.summary = {};
    while (columns_.Offset(cur().end) <= p0 && Advance()) {
    }
    Take(p0, p1);
    if constexpr (std::is_same_v<RowT, semantic::StateRow>) TakeDenseRun(p1);
    while (columns_.Offset(cur().end) < p1 && Advance()) Take(p0, p1);
  }

  // The column's value (its values, reduced).
  double Reduce(DrawMode mode, double random) const {
    if constexpr (std::is_same_v<RowT, semantic::StateRow>) {
      if (bulk_.summary.count > 0)
        return BulkReducer(values_, bulk_, row_.states(), *row_.blocks()).Reduce(mode, random);
    }
    return render::Reduce(mode, values_, random);
  }

  bool empty() const { return values_.empty() && bulk_.summary.count == 0; }
  const std::vector<double>& starts() const { return starts_; }
  FoldedRow& out() { return out_; }

 private:
  const semantic::Interval& cur() const { return row_.current(); }

  // From the current state k the walk visits states k + 1, ..., f one at a time (a Take and an
  // Observe each), f being the first state from k on that is not dense or ends at or after p1
  // (after the last state, the gap to the trace end). States k + 1 .. f - 1 are taken whole
  // from the summaries instead, and the row is moved to f - 1, from where the walk goes on.
  void TakeDenseRun(double p1) {
    if (!bulk_allowed_ || !row_.AtState()) return;
    const size_t k = row_.StateIndex();
    const store::StateColumns& s = row_.states();
    const size_t f = row_.blocks()->DenseRunEnd(s, k, columns_.Limit(p1));
    if (f < k + 1 + kMinBulk || s.begin[f - 1] >= trace_end_) return;
    bulk_.at = values_.size();
    bulk_.first = k + 1;
    bulk_.summary = row_.blocks()->Summarize(s, k + 1, f);
    const store::StateSummary& b = bulk_.summary;
    out_.largest = std::max(out_.largest, static_cast<double>(b.max));
    if (b.non_zero < b.count) out_.exist_zero = true;
    if (b.non_zero > 0) {
      const auto v = static_cast<double>(b.min_non_zero);
      if (!out_.any_non_zero || v < out_.smallest_non_zero) {
        out_.smallest_non_zero = v;
        out_.any_non_zero = true;
      }
    }
    row_.JumpToState(f - 1);
  }

  bool Advance() {
    semantic::Interval before = cur();
    if (before.begin >= trace_end_) return false;
    row_.Next();
    if (cur().begin == before.begin && cur().end == before.end) return false;
    Observe();
    return true;
  }

  void Take(double p0, double p1) {
    double v = cur().value;
    if (options_.highlight && !options_.highlight->Contains(v)) return;
    values_.push_back(v);
    const double b = columns_.Offset(cur().begin);
    if (options_.punctual && b >= p0 && b < p1) starts_.push_back(v);
  }

  void Observe() {
    double v = cur().value;
    out_.largest = std::max(out_.largest, v);
    if (v == 0) {
      out_.exist_zero = true;
    } else if (!out_.any_non_zero || v < out_.smallest_non_zero) {
      out_.smallest_non_zero = v;
      out_.any_non_zero = true;
    }
  }

  RowT& row_;
  const FoldOptions& options_;
  const Columns& columns_;
  model::Time trace_end_;
  bool bulk_allowed_ = false;
  Bulk bulk_;
  std::vector<double> values_;
  std::vector<double> starts_;
  FoldedRow out_;
};

template <typename RowT>
FoldedRow Fold(RowT& row, const Columns& columns, const FoldOptions& options, uint64_t row_id,
               model::Time trace_end) {
  RowFolder<RowT> folder(row, options, columns, trace_end);
  const uint32_t n = columns.count();
  FoldedRow& out = folder.out();
  out.values.assign(n, 0);
  if (options.punctual) {
    out.has_start.assign(n, 0);
    out.start_values.assign(n, 0);
  }
  if (n == 0) return std::move(out);
  folder.Start(columns.p0[0]);
  for (uint32_t j = 0; j < n; ++j) {
    // Only the last column can start before the previous one ended (moved back to the trace
    // end). Elsewhere p0[j] may sit one ulp below p1[j - 1] (j·step vs (j-1)·step + step): the
    // walk goes on, since re-positioning a stateful row re-walks it from time 0 (O(records)
    // per column).
    if (j > 0 && j + 1 == n && columns.p0[j] < columns.p1[j - 1]) folder.Start(columns.p0[j]);
    folder.Collect(columns.p0[j], columns.p1[j]);
    double r = PixelRandom(row_id, j);
    // Only a highlight range leaves a column without values.
    out.values[j] = folder.empty() ? kNoValue : folder.Reduce(options.time_mode, r);
    if (options.punctual && !folder.starts().empty()) {
      out.has_start[j] = 1;
      out.start_values[j] = Reduce(options.time_mode, folder.starts(), r);
    }
  }
  return std::move(out);
}

}  // namespace

FoldedRow FoldRow(semantic::Row& row, const Columns& columns, const FoldOptions& options,
                  uint64_t row_id, model::Time trace_end) {
  if (auto* fast = dynamic_cast<semantic::StateRow*>(&row))
    return Fold(*fast, columns, options, row_id, trace_end);
  if (auto* fast = dynamic_cast<semantic::EventRow*>(&row))
    return Fold(*fast, columns, options, row_id, trace_end);
  return Fold(row, columns, options, row_id, trace_end);
}

namespace {

// Folds the rows `mine` of `objects` into `rows`.
void FoldSome(const semantic::WindowEvaluator& window, const std::vector<uint32_t>& objects,
              const Columns& columns, const FoldOptions& options, const std::vector<size_t>& mine,
              std::vector<FoldedRow>& rows) {
  unsigned threads = options.threads == 0 ? base::DefaultThreads() : options.threads;
  base::ParallelFor(mine.size(), threads, [&](size_t k) {
    const size_t i = mine[k];
    auto row = semantic::MakeFastRow(window, options.store, objects[i], columns.begin, columns.end,
                                     options.state_blocks);
    rows[i] = FoldRow(*row, columns, options, objects[i], window.trace_end());
  });
}

// A folded row for another process: the three column vectors, the scale fit.
void PackRow(const FoldedRow& r, std::string& out) {
  base::WirePutVector(out, r.values);
  base::WirePutVector(out, r.has_start);
  base::WirePutVector(out, r.start_values);
  base::WirePut(out, r.largest);
  base::WirePut(out, r.smallest_non_zero);
  base::WirePut(out, static_cast<uint8_t>(r.any_non_zero));
  base::WirePut(out, static_cast<uint8_t>(r.exist_zero));
}

bool UnpackRow(base::WireReader& in, FoldedRow& row) {
  uint8_t any = 0, zero = 0;
  if (!in.GetVector(&row.values) || !in.GetVector(&row.has_start) ||
      !in.GetVector(&row.start_values) || !in.Get(&row.largest) ||
      !in.Get(&row.smallest_non_zero) || !in.Get(&any) || !in.Get(&zero))
    return false;
  row.any_non_zero = any != 0;
  row.exist_zero = zero != 0;
  return true;
}

}  // namespace

std::vector<FoldedRow> FoldRows(const semantic::WindowEvaluator& window,
                                const std::vector<uint32_t>& objects, const Columns& columns,
                                const FoldOptions& options) {
  std::vector<FoldedRow> rows(objects.size());
  std::vector<size_t> all(objects.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  FoldSome(window, objects, columns, options, all, rows);
  return rows;
}

Result<std::vector<FoldedRow>> FoldRowsShared(const semantic::WindowEvaluator& window,
                                              const std::vector<uint32_t>& objects,
                                              const Columns& columns, const FoldOptions& options,
                                              const base::WorkShare& share) {
  // Thread rows are dealt out by their records; rows of other levels round-robin.
  base::WorkShare dealt = share;
  const store::TraceStore* store = options.store;
  if (window.level() == model::Level::kThread && store != nullptr) {
    std::vector<uint64_t> cost(objects.size());
    for (size_t i = 0; i < objects.size(); ++i) cost[i] = semantic::ThreadCost(*store, objects[i]);
    dealt.owner = base::BalanceByCost(cost, dealt.count);
  }
  std::vector<FoldedRow> rows(objects.size());
  FoldSome(window, objects, columns, options, dealt.Mine(objects.size()), rows);
  Status s = base::ExchangeItems(
      dealt, rows.size(), [&](size_t i, std::string& out) { PackRow(rows[i], out); },
      [&](base::WireReader& in, size_t i) { return UnpackRow(in, rows[i]); }, "the timeline rows");
  if (!s.ok()) return s;
  return rows;
}

}  // namespace parallax::render
