#include "src/render/fold.h"

#include <algorithm>
#include <cmath>

#include "src/semantic/fast_rows.h"
#include "src/semantic/row_cost.h"

namespace parallax::render {

int64_t Columns::ColumnOf(double t) const {
  if (p0.empty() || t < p0.front() || t > p1.back()) return -1;
  auto j = static_cast<int64_t>((t - static_cast<double>(begin)) / step);
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
  const auto te = static_cast<double>(trace_end);
  for (uint32_t j = 0; j < width / c.pixel_size; ++j) {
    double p0 = static_cast<double>(begin) + j * c.step;
    double p1 = p0 + c.step;
    if (p1 > te + tolerance || (p1 > te && static_cast<double>(end) >= te)) {
      if (p0 < te) {
        c.p0.push_back(std::max(te - c.step, static_cast<double>(begin)));
        c.p1.push_back(te);
      }
      break;
    }
    if (p1 > static_cast<double>(end) + tolerance) break;
    c.p0.push_back(p0);
    c.p1.push_back(std::min(p1, static_cast<double>(end)));
  }
  return c;
}

namespace {

// Walks one row along the columns, collecting the values of every column (§2 steps 1–2).
// A template so that the fast StateRow (final) is called without virtual dispatch.
template <typename RowT>
class RowFolder {
 public:
  RowFolder(RowT& row, const FoldOptions& o, model::Time trace_end)
      : row_(row), options_(o), trace_end_(trace_end) {}

  void Start(double t) {
    row_.Init(static_cast<model::Time>(t));
    Observe();
  }

  // Collects the values of [p0, p1) into values_ (and starts_ for the punctual mode).
  void Collect(double p0, double p1) {
    values_.clear();
    starts_.clear();
    while (static_cast<double>(cur().end) <= p0 && Advance()) {
    }
    Take(p0, p1);
    while (static_cast<double>(cur().end) < p1 && Advance()) Take(p0, p1);
  }

  const std::vector<double>& values() const { return values_; }
  const std::vector<double>& starts() const { return starts_; }
  FoldedRow& out() { return out_; }

 private:
  const semantic::Interval& cur() const { return row_.current(); }

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
    auto b = static_cast<double>(cur().begin);
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
  model::Time trace_end_;
  std::vector<double> values_;
  std::vector<double> starts_;
  FoldedRow out_;
};

template <typename RowT>
FoldedRow Fold(RowT& row, const Columns& columns, const FoldOptions& options, uint64_t row_id,
               model::Time trace_end) {
  RowFolder<RowT> folder(row, options, trace_end);
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
    out.values[j] =
        folder.values().empty() ? kNoValue : Reduce(options.time_mode, folder.values(), r);
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
    auto row = semantic::MakeFastRow(window, options.store, objects[i], columns.begin, columns.end);
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
