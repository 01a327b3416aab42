#include "src/analysis/histogram.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <string_view>
#include <unordered_map>

#include <fmt/format.h>

#include "src/analysis/histogram_comm.h"
#include "src/base/parallel.h"
#include "src/base/wire.h"
#include "src/semantic/fast_rows.h"
#include "src/semantic/row_cost.h"

namespace parallax::analysis {

namespace {

using model::Level;
using model::Time;
using semantic::Interval;
using semantic::WindowEvaluator;

bool IsResource(Level l) { return l >= Level::kSystem; }

// Per-cell sums of analysis.md §6.1.
struct Acc {
  double t = 0, sx = 0, sxd = 0, sabs = 0, sdc = 0, sdc2 = 0, tnz = 0, tcnz = 0, mx = 0, mn = 0;
  uint64_t n = 0, nnz = 0;
};
// Per (row, plane): all leaves of the row.
struct RowTotals {
  double r = 0, rc = 0;
  uint64_t rn = 0;
};

enum class Role : uint8_t { kControl, kExtra, kData };

}  // namespace

int64_t Bins::Of(double v) const {
  if (!(v >= min) || v > max) return -1;
  double c = std::floor((v - min) / delta);
  // NaN (a zero delta at v == min) counts like +inf (a zero delta above min): the last bin.
  if (!(c < count - 1.0)) return count - 1;
  if (c < 0) return -1;  // a negative delta: no bin
  return static_cast<int64_t>(c);
}

int SemanticStatisticIndex(std::string_view name) {
  for (size_t i = 0; i < std::size(cfg::kSemanticStatistics); ++i)
    if (name == cfg::kSemanticStatistics[i]) return static_cast<int>(i);
  return -1;
}

int CommStatisticIndex(std::string_view name) {
  for (size_t i = 0; i < std::size(cfg::kCommStatistics); ++i)
    if (name == cfg::kCommStatistics[i]) return static_cast<int>(i);
  return -1;
}

namespace {

// Column translator (analysis.md §2.1).
// Counts saturate at UINT32_MAX (CheckSize refuses them).
Bins MakeBins(double min, double max, double delta, bool fixed, uint32_t n) {
  Bins b{min, max, delta, 1};
  if (fixed) {
    b.count = static_cast<uint32_t>(cfg::FixedBinCount(min, max, delta));
  } else {
    b.count = std::max<uint32_t>(n, 1);
    b.delta = (max - min) / b.count;
  }
  return b;
}

struct ScanResult {
  double max = 0, min = 0;
  bool zero = false, any_nonzero = false, any = false;
};

// The auto-scale scan of analysis.md §2.2 over some rows of a window.
ScanResult Scan(const WindowEvaluator& w, const store::TraceStore* store,
                const std::vector<uint32_t>& rows, Time b, Time e) {
  ScanResult s;
  const Time trace_end = w.trace_end();
  for (uint32_t r : rows) {
    auto row = semantic::MakeFastRow(w, store, r, b, e);
    row->Init(b);
    while (row->current().end <= b && row->current().end < trace_end) row->Next();
    for (;;) {
      const Interval& iv = row->current();
      double v = iv.value;
      s.max = s.any ? std::max(s.max, v) : v;
      s.any = true;
      if (v != 0) {
        s.min = s.any_nonzero ? std::min(s.min, v) : v;
        s.any_nonzero = true;
      } else {
        s.zero = true;
      }
      // The first interval beginning at or after E is seen too (kernel quirk), even the empty
      // one at the trace end (oracle epoch_2proc, General/analysis/mapping.cfg).
      if (iv.begin >= e || iv.begin >= trace_end) break;
      row->Next();
    }
  }
  s.max = std::max(0.0, s.max);
  if (!s.any_nonzero) s.min = 0;
  return s;
}

// Objects selected at a window's own level, restricted to its object zoom.
std::vector<uint32_t> Selected(const semantic::WindowSpec& w, uint32_t count,
                               const HistogramWindowInfo& info) {
  const std::vector<bool>& sel = w.selected[static_cast<size_t>(w.level)];
  std::vector<uint32_t> out;
  for (uint32_t o = 0; o < count; ++o) {
    if (!sel.empty() && (o >= sel.size() || !sel[o])) continue;
    if (info.zoom_objects && (o < info.zoom_objects->first || o > info.zoom_objects->second))
      continue;
    out.push_back(o);
  }
  return out;
}

// The children of object `o` of level `from` in level `to` (analysis.md §5.4), as [first, last).
std::pair<uint32_t, uint32_t> ChildObjects(const model::TraceHeader& h, Level from, uint32_t o,
                                           Level to) {
  uint32_t nf = semantic::ObjectCount(h, from), nt = semantic::ObjectCount(h, to);
  if (nf == nt) return {o, o + 1};
  if (IsResource(from) != IsResource(to) || from > to) return {0, 1};
  if (from == Level::kWorkload || from == Level::kSystem) return {0, nt};
  const model::ProcessModel& p = h.processes;
  if (from == Level::kNode) {
    uint32_t first = h.resources.FirstCpuOfNode(model::NodeIndex(o)).value - 1;
    return {first, first + h.resources.cpus_per_node()[o]};
  }
  if (from == Level::kTask) {
    const model::TaskInfo& t = p.task(model::TaskIndex(o));
    return {t.first_thread.value, t.first_thread.value + t.threads};
  }
  const model::ApplInfo& a = p.appl(model::ApplIndex(o));  // appl
  if (to == Level::kTask) return {a.first_task.value, a.first_task.value + a.tasks};
  uint32_t first = p.task(a.first_task).first_thread.value;
  const model::TaskInfo& last = p.task(model::TaskIndex(a.first_task.value + a.tasks - 1));
  return {first, last.first_thread.value + last.threads};
}

// Everything fixed before the rows are computed.
struct Setup {
  const HistogramInput* in = nullptr;
  std::vector<std::unique_ptr<WindowEvaluator>> owned;
  std::vector<const WindowEvaluator*> w;  // iteration order (analysis.md §5.1)
  std::vector<Role> role;
  const WindowEvaluator* control = nullptr;
  const WindowEvaluator* data = nullptr;
  Bins columns, planes;
  bool three_d = false;
  Time b = 0, e = 0, trace_end = 0;
  model::TimeUnit trace_unit{}, control_unit{}, data_unit{};
};

// One row of a semantic histogram (analysis.md §5.2–§6).
class RowPass {
 public:
  RowPass(const Setup& s, uint32_t object) : s_(s), object_(object), charge_(s.in->trace.memory) {}
  std::vector<Cell> Run();

 private:
  struct Ctx {
    int64_t col = -2;  // -2: not known yet; -1: out of range
    double c = 0;
    int64_t plane = 0;
  };
  semantic::Row& Cursor(size_t k, uint32_t object);
  void Iterate(size_t k, Time f, Time t, uint32_t object, const Ctx& ctx);
  void Visit(size_t k, const Interval& iv, Time f, Time t, uint32_t object, Ctx ctx);
  void Leaf(Time lb, Time le, double x, const Ctx& ctx);
  CellStats Final(const Acc& a, const RowTotals& r) const;

  const Setup& s_;
  uint32_t object_;
  std::map<std::pair<size_t, uint32_t>, std::unique_ptr<semantic::Row>> cursors_;
  std::unordered_map<uint64_t, Acc> cells_;
  std::unordered_map<int64_t, RowTotals> totals_;
  base::ChargeBatch charge_;  // the request's memory: each new cell, then its final Cell
};

semantic::Row& RowPass::Cursor(size_t k, uint32_t object) {
  auto& slot = cursors_[{k, object}];
  if (!slot) {
    slot = semantic::MakeFastRow(*s_.w[k], s_.in->trace.store, object, s_.b, s_.e);
    slot->Init(s_.b);
  }
  return *slot;
}

void RowPass::Iterate(size_t k, Time f, Time t, uint32_t object, const Ctx& ctx) {
  if (object >= s_.w[k]->rows()) object = 0;
  semantic::Row& row = Cursor(k, object);
  while (row.current().end <= f && row.current().end < s_.trace_end) row.Next();
  for (;;) {
    const Interval iv = row.current();
    if (iv.end < t && iv.begin < s_.trace_end) {
      if (iv.begin != iv.end) Visit(k, iv, f, t, object, ctx);
      row.Next();
      continue;
    }
    if (iv.begin < t) Visit(k, iv, f, t, object, ctx);
    break;
  }
}

void RowPass::Visit(size_t k, const Interval& iv, Time f, Time t, uint32_t object, Ctx ctx) {
  if (s_.role[k] == Role::kControl && ctx.col == -2) {
    ctx.col = s_.columns.Of(iv.value);
    ctx.c = iv.value;
  }
  if (s_.role[k] == Role::kExtra) {
    ctx.plane = s_.planes.Of(iv.value);
    if (ctx.plane < 0) return;
  }
  Time lb = std::max(f, iv.begin), le = std::min(t, iv.end);
  if (k + 1 == s_.w.size()) {
    if (ctx.col >= 0) Leaf(lb, le, iv.value, ctx);
    return;
  }
  auto [first, last] =
      ChildObjects(*s_.in->trace.header, s_.w[k]->level(), object, s_.w[k + 1]->level());
  for (uint32_t c = first; c < last; ++c) Iterate(k + 1, lb, le, c, ctx);
}

void RowPass::Leaf(Time lb, Time le, double x, const Ctx& ctx) {
  double d = static_cast<double>(le - lb);
  uint64_t key =
      static_cast<uint64_t>(ctx.plane) * s_.columns.count + static_cast<uint64_t>(ctx.col);
  auto [it, added] = cells_.try_emplace(key);
  // A hash node (the Acc, its key, a link and the bucket) and the final Cell it becomes.
  if (added) charge_.Add(sizeof(Acc) + 4 * sizeof(void*) + sizeof(Cell));
  Acc& a = it->second;
  double dc = model::ConvertTime(d, s_.trace_unit, s_.control_unit);
  a.t += d;
  a.n += 1;
  a.sx += x;
  a.sxd += x * d;
  a.sabs += std::fabs(x) * model::ConvertTime(d, s_.trace_unit, s_.data_unit);
  a.sdc += dc;
  a.sdc2 += dc * dc;
  if (x != 0) {
    a.nnz += 1;
    a.tnz += d;
  }
  if (ctx.c != 0) a.tcnz += d;
  if (a.n == 1) {
    a.mx = std::max(0.0, x);
    a.mn = x;
  } else {
    a.mx = std::max(a.mx, x);
    if (a.mn == 0 || (x != 0 && x < a.mn)) a.mn = x;
  }
  RowTotals& r = totals_[ctx.plane];
  r.r += d;
  r.rn += 1;
  if (ctx.c != 0) r.rc += d;
}

CellStats RowPass::Final(const Acc& a, const RowTotals& r) const {
  const double nan = -std::numeric_limits<double>::quiet_NaN();
  double n = static_cast<double>(a.n);
  double tc = model::ConvertTime(a.t, s_.trace_unit, s_.control_unit);
  double window = static_cast<double>(s_.e - s_.b);
  CellStats st{};
  st[0] = tc;
  st[1] = r.r != 0 ? 100.0 * a.t / r.r : nan;
  st[2] = r.rc != 0 ? 100.0 * a.tcnz / r.rc : nan;
  st[3] = window != 0 ? 100.0 * a.t / window : nan;
  st[4] = n;
  st[5] = r.rn != 0 ? 100.0 * n / static_cast<double>(r.rn) : nan;
  st[6] = a.sabs;
  st[7] = a.t != 0 ? a.sxd / a.t : nan;
  st[8] = a.mx;
  st[9] = a.mn;
  st[10] = tc / n;
  st[11] = std::sqrt(std::fabs(a.sdc2 / n - (a.sdc / n) * (a.sdc / n)));
  st[12] = a.sx / n;
  st[13] = a.tnz != 0 ? a.sxd / a.tnz : 0.0;
  st[14] = a.nnz != 0 ? a.sx / static_cast<double>(a.nnz) : nan;
  st[15] = static_cast<double>(a.nnz);
  st[16] = a.sx;
  return st;
}

std::vector<Cell> RowPass::Run() {
  Iterate(0, s_.b, s_.e, object_, Ctx{});
  charge_.Flush();
  std::vector<Cell> out;
  out.reserve(cells_.size());
  for (const auto& [key, acc] : cells_) {
    Cell c;
    c.plane = static_cast<uint32_t>(key / s_.columns.count);
    c.column = static_cast<uint32_t>(key % s_.columns.count);
    c.stats = Final(acc, totals_[c.plane]);
    out.push_back(c);
  }
  std::sort(out.begin(), out.end(), [](const Cell& a, const Cell& b) {
    return std::pair(a.plane, a.column) < std::pair(b.plane, b.column);
  });
  return out;
}

const HistogramWindowInfo& InfoOf(const HistogramInput& in, int w) {
  static const HistogramWindowInfo kDefault;
  return static_cast<size_t>(w) < in.info.size() ? in.info[static_cast<size_t>(w)] : kDefault;
}

Result<std::unique_ptr<WindowEvaluator>> Evaluator(const HistogramInput& in, int index) {
  if (index < 0 || static_cast<size_t>(index) >= in.windows.size())
    return Status::Error(fmt::format("histogram: window {} does not exist", index + 1));
  return WindowEvaluator::Create(in.trace, in.windows, static_cast<size_t>(index));
}

}  // namespace

std::vector<uint32_t> ShareOwners(const HistogramInput& in, model::Level level,
                                  const std::vector<uint32_t>& objects) {
  if (in.share_count <= 1 || in.trace.header == nullptr || in.trace.store == nullptr) return {};
  return base::BalanceByCost(semantic::RowCosts(*in.trace.header, *in.trace.store, level, objects),
                             in.share_count);
}

namespace {

// A scan of `rows` spread over the processes of a distributed run (HistogramInput::share_*):
// each scans its share of the rows (dealt by ShareOwners), and the parts combine to the whole
// scan's result (max of the clamped maxima, min of the nonzero minima, or of the flags).
Result<ScanResult> SharedScan(const HistogramInput& in, const WindowEvaluator& w,
                              const std::vector<uint32_t>& rows, Time b, Time e) {
  if (in.share_count <= 1 || !in.exchange) return Scan(w, in.trace.store, rows, b, e);
  const std::vector<uint32_t> owner = ShareOwners(in, w.level(), rows);
  std::vector<uint32_t> mine;
  for (size_t i = 0; i < rows.size(); ++i)
    if ((owner.empty() ? i % in.share_count : owner[i]) == in.share_index) mine.push_back(rows[i]);
  ScanResult part = Scan(w, in.trace.store, mine, b, e);
  std::string bytes(reinterpret_cast<const char*>(&part), sizeof part);
  auto all = in.exchange(bytes);
  if (!all.ok()) return all.status();
  ScanResult r;
  for (const std::string& p : all.value()) {
    ScanResult x;
    if (p.size() != sizeof x) return Status::Error("a process sent a damaged automatic-scale scan");
    std::memcpy(&x, p.data(), sizeof x);
    r.max = r.any ? std::max(r.max, x.max) : x.max;
    if (x.any_nonzero) r.min = r.any_nonzero ? std::min(r.min, x.min) : x.min;
    r.any = r.any || x.any;
    r.any_nonzero = r.any_nonzero || x.any_nonzero;
    r.zero = r.zero || x.zero;
  }
  if (!r.any_nonzero) r.min = 0;
  return r;
}

// analysis.md §2.2: automatic columns.
Result<Bins> ControlBins(const Setup& s, const std::vector<uint32_t>& scan_rows) {
  const cfg::HistogramSpec& h = s.in->spec;
  if (!h.compute_y_scale)
    return MakeBins(h.minimum, h.maximum, h.delta, h.use_fixed_delta, h.num_columns.value_or(1));
  auto scanned = SharedScan(*s.in, *s.control, scan_rows, s.b, s.e);
  if (!scanned.ok()) return scanned.status();
  const ScanResult& r = scanned.value();
  double max_y = r.max, min_y = r.min;
  if (h.compute_y_scale_zero && r.zero && min_y > 0) min_y = 0;
  double cmin = min_y, cmax = max_y + 0.05 * (max_y - min_y), delta = h.delta;
  if (h.use_fixed_delta) return MakeBins(cmin, cmax, delta, true, 1);
  if (max_y == min_y) return MakeBins(cmin, cmax, 1, true, 1);
  if (InfoOf(*s.in, h.control).code_color && max_y - min_y <= 10000)
    return MakeBins(cmin, std::floor(cmax), 1, true, 1);
  return MakeBins(cmin, cmax, delta, false, 200);
}

Result<Bins> ExtraBins(const Setup& s, const WindowEvaluator& x) {
  const cfg::HistogramSpec& h = s.in->spec;
  if (!h.compute_3d_scale) return MakeBins(h.minimum_3d, h.maximum_3d, h.delta_3d, true, 1);
  const HistogramWindowInfo& info = InfoOf(*s.in, h.extra);
  std::vector<uint32_t> rows =
      Selected(s.in->windows[static_cast<size_t>(h.extra)], x.rows(), info);
  auto scanned = SharedScan(*s.in, x, rows, s.b, s.e);
  if (!scanned.ok()) return scanned.status();
  const ScanResult& r = scanned.value();
  double delta = (r.max == r.min || info.code_color) ? 1 : (r.max - r.min) / 200;
  return MakeBins(r.min, r.max, delta, true, 1);
}

std::vector<uint32_t> HistogramRows(const Setup& s) {
  const cfg::HistogramSpec& h = s.in->spec;
  const HistogramWindowInfo& info = InfoOf(*s.in, h.control);
  const semantic::WindowSpec& c = s.in->windows[static_cast<size_t>(h.control)];
  uint32_t n = s.control->rows();
  if (!h.compute_y_scale || !h.objects) return Selected(c, n, info);
  std::vector<uint32_t> rows;
  for (uint32_t o = 0; o < n; ++o) {
    if (std::find(h.objects->begin(), h.objects->end(), o) == h.objects->end()) continue;
    if (info.zoom_objects && (o < info.zoom_objects->first || o > info.zoom_objects->second))
      continue;
    rows.push_back(o);
  }
  return rows;
}

// The size limits of cfg/histogram_spec.h, on the bins as computed (automatic scales included).
Status CheckSize(const cfg::HistogramSpec& h, const Setup& s, size_t rows) {
  uint64_t columns = s.columns.count, planes = s.three_d ? s.planes.count : 1;
  if (columns > cfg::kMaxHistogramColumns)
    return Status::Error(
        fmt::format("histogram '{}': {} columns, more than the limit of {} (Analyzer2D.Minimum, "
                    "Analyzer2D.Maximum, Analyzer2D.Delta)",
                    h.name, columns, cfg::kMaxHistogramColumns),
        {}, "use a larger Analyzer2D.Delta or a narrower Minimum..Maximum range");
  if (planes > cfg::kMaxHistogramPlanes)
    return Status::Error(
        fmt::format("histogram '{}': {} planes, more than the limit of {} (Analyzer2D.3D_Minimum, "
                    "Analyzer2D.3D_Maximum, Analyzer2D.3D_Delta)",
                    h.name, planes, cfg::kMaxHistogramPlanes),
        {}, "use a larger Analyzer2D.3D_Delta, or a 3D control window with fewer distinct values");
  double cells = static_cast<double>(std::max<size_t>(rows, 1)) * static_cast<double>(columns) *
                 static_cast<double>(planes);
  if (cells > static_cast<double>(cfg::kMaxHistogramCells))
    return Status::Error(
        fmt::format("histogram '{}': {} rows x {} columns x {} planes = {:.0f} cells, more than "
                    "the limit of {}",
                    h.name, rows, columns, planes, cells, cfg::kMaxHistogramCells),
        {}, "select fewer objects (Analyzer2D.Objects) or use fewer columns or planes");
  return Status::Ok();
}

Status Prepare(const HistogramInput& in, Setup& s, HistogramResult& out) {
  const cfg::HistogramSpec& h = in.spec;
  s.in = &in;
  int data = h.data < 0 ? h.control : h.data;
  auto c = Evaluator(in, h.control);
  if (!c.ok()) return c.status();
  s.control = c->get();
  s.owned.push_back(std::move(c.value()));
  if (data != h.control) {
    auto d = Evaluator(in, data);
    if (!d.ok()) return d.status();
    s.owned.push_back(std::move(d.value()));
  }
  s.data = s.owned.back().get();
  s.trace_end = s.control->trace_end();
  if (in.range) {
    s.b = in.range->first;
    s.e = std::min(in.range->second, s.trace_end);
  } else {
    s.b = h.limits == cfg::AnalysisLimits::kAllwindow ? s.control->begin_time() : 0;
    s.e = std::min(
        h.limits == cfg::AnalysisLimits::kAllwindow ? s.control->end_time() : s.trace_end,
        s.trace_end);
  }
  s.trace_unit = in.trace.header->unit;
  s.control_unit = in.windows[static_cast<size_t>(h.control)].unit;
  s.data_unit = in.windows[static_cast<size_t>(data)].unit;
  out.level = s.control->level();
  out.rows = HistogramRows(s);
  const HistogramWindowInfo& info = InfoOf(in, h.control);
  auto columns =
      ControlBins(s, Selected(in.windows[static_cast<size_t>(h.control)], s.control->rows(), info));
  if (!columns.ok()) return columns.status();
  s.columns = columns.value();
  const WindowEvaluator* x = nullptr;
  if (h.extra >= 0) {
    auto e = Evaluator(in, h.extra);
    if (!e.ok()) return e.status();
    x = e->get();
    s.owned.push_back(std::move(e.value()));
    s.three_d = true;
    auto planes = ExtraBins(s, *x);
    if (!planes.ok()) return planes.status();
    s.planes = planes.value();
  }
  // analysis.md §5.1: window order.
  if (!x) {
    s.w = {s.control};
    s.role = {Role::kControl};
    if (data != h.control) {
      s.w.push_back(s.data);
      s.role.push_back(Role::kData);
    }
  } else if (data == h.control) {
    s.w = {x, s.control};
    s.role = {Role::kExtra, Role::kControl};
  } else if (s.control->level() >= x->level()) {
    s.w = {s.control, x, s.data};
    s.role = {Role::kControl, Role::kExtra, Role::kData};
  } else {
    s.w = {x, s.control, s.data};
    s.role = {Role::kExtra, Role::kControl, Role::kData};
  }
  if (Status st = CheckSize(h, s, out.rows.size()); !st.ok()) return st;
  out.columns = s.columns;
  out.three_d = s.three_d;
  out.planes = s.planes;
  out.begin = s.b;
  out.end = s.e;
  return Status::Ok();
}

}  // namespace

Result<HistogramResult> ComputeHistogram(const HistogramInput& in) {
  const cfg::HistogramSpec& h = in.spec;
  HistogramResult out;
  int sem = SemanticStatisticIndex(h.statistic), comm = CommStatisticIndex(h.statistic);
  if (sem < 0 && comm < 0)
    return Status::Error(fmt::format("histogram: unknown statistic '{}'", h.statistic));
  if (h.control < 0) return Status::Error("histogram: no control window");
  Setup s;
  if (Status st = Prepare(in, s, out); !st.ok()) return st;
  out.comm = comm >= 0;
  out.statistic = out.comm ? comm : sem;
  out.cells.resize(out.rows.size());
  unsigned threads = in.threads ? in.threads : base::DefaultThreads();
  if (out.comm) {
    if (Status st = CommRows(in, out, threads); !st.ok()) return st;
    return out;
  }
  const unsigned count = std::max(in.share_count, 1u);
  out.shared = count > 1;
  out.owner = ShareOwners(in, out.level, out.rows);
  std::vector<size_t> mine;
  for (size_t i = 0; i < out.rows.size(); ++i)
    if (out.OwnerOf(i, count) == in.share_index) mine.push_back(i);
  base::ParallelFor(mine.size(), threads,
                    [&](size_t k) { out.cells[mine[k]] = RowPass(s, out.rows[mine[k]]).Run(); });
  return out;
}

}  // namespace parallax::analysis
