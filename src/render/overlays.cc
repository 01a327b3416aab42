// Event flags and communication lines over the timeline (rendering.md §5).

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "src/filter/filter.h"
#include "src/render/frame.h"

namespace parallax::render {

namespace {

using model::Level;

constexpr double kCoordinateLimit = 10000;

// The window-level object of a record of thread t on cpu (1-based, 0 = none); -1 when none.
int64_t ObjectOf(const model::TraceHeader& h, Level level, uint32_t t, uint16_t cpu) {
  const auto& th = h.processes.thread(model::ThreadIndex(t));
  switch (level) {
    case Level::kWorkload:
    case Level::kSystem:
      return 0;
    case Level::kAppl:
      return th.appl.value;
    case Level::kTask:
      return th.task.value;
    case Level::kThread:
      return t;
    case Level::kNode:
      return cpu == 0 || h.resources.empty() ? -1 : h.resources.NodeOfCpu(model::CpuId(cpu)).value;
    case Level::kCpu:
      return cpu == 0 ? -1 : cpu - 1;
  }
  return -1;
}

// Group index of every window-level object drawn (-1: not drawn).
std::vector<int32_t> GroupOfObject(const Frame& f) {
  std::vector<int32_t> out(f.window->rows(), -1);
  for (size_t g = 0; g < f.groups.size(); ++g)
    for (uint32_t m : f.groups[g].members) out[f.objects[m]] = static_cast<int32_t>(g);
  return out;
}

filter::Filter WindowFilter(const Frame& f) {
  const auto& spec = f.window->spec();
  return filter::Filter(spec.filter, *f.ctx->header, *f.ctx->store, f.ctx->pcf, f.level, spec.unit);
}

void AddFlag(DrawList& l, int32_t x, int32_t top, Rgb color) {
  l.lines.push_back(Line{x, top - 5, x, top, color});
  l.rects.push_back(Rect{x + 1, top - 5, 4, 3, color});
}

}  // namespace

namespace {

std::vector<std::vector<uint32_t>> FlagMarks(const Frame& f, const base::WorkShare* share) {
  const auto& h = *f.ctx->header;
  const auto& store = *f.ctx->store;
  const std::vector<int32_t> group_of = GroupOfObject(f);
  const filter::Filter filter = WindowFilter(f);
  std::vector<std::vector<uint32_t>> marks(f.groups.size());
  base::ChargeBatch charge(f.ctx->memory);
  for (uint32_t t = 0; t < store.threads(); ++t) {
    if (share != nullptr && t % share->count != share->index) continue;
    const auto pin = store.Pin(model::ThreadIndex(t), store::RecordParts::kEvents);
    const auto& ev = pin->events;
    auto i = static_cast<size_t>(std::lower_bound(ev.time.begin(), ev.time.end(), f.columns.begin) -
                                 ev.time.begin());
    for (; i < ev.size() && ev.time[i] <= f.columns.end; ++i) {
      int64_t obj = ObjectOf(h, f.level, t, ev.cpu[i]);
      if (obj < 0 || group_of[static_cast<size_t>(obj)] < 0 ||
          !filter.PassEvent(ev.type[i], ev.value[i]))
        continue;
      int64_t j = f.columns.ColumnOf(ev.time[i]);
      if (j >= 0)
        charge.Add(sizeof(uint32_t)), marks[static_cast<size_t>(group_of[static_cast<size_t>(obj)])].push_back(
            static_cast<uint32_t>(j));
    }
  }
  return marks;
}

}  // namespace

void AddFlags(Frame& f, std::vector<std::vector<uint32_t>> marks) {
  const auto ps = static_cast<int32_t>(f.columns.pixel_size);
  for (size_t g = 0; g < marks.size(); ++g) {
    auto& m = marks[g];
    std::sort(m.begin(), m.end());
    m.erase(std::unique(m.begin(), m.end()), m.end());
    for (uint32_t j : m)
      AddFlag(f.list, f.list.area_x + static_cast<int32_t>(j) * ps, f.groups[g].y,
              f.options->prefs.flag);
  }
}

bool ClipToArea(const DrawList& l, double x0, double y0, double x1, double y1, Line* out) {
  // Liang–Barsky against the area (pixel centres inside it).
  const double xmin = l.area_x, xmax = l.area_x + l.area_w - 1, ymin = l.area_y,
               ymax = l.area_y + l.area_h - 1;
  double t0 = 0, t1 = 1, dx = x1 - x0, dy = y1 - y0;
  const double p[4] = {-dx, dx, -dy, dy};
  const double q[4] = {x0 - xmin, xmax - x0, y0 - ymin, ymax - y0};
  for (int k = 0; k < 4; ++k) {
    if (p[k] == 0) {
      if (q[k] < 0) return false;
      continue;
    }
    double r = q[k] / p[k];
    if (p[k] < 0)
      t0 = std::max(t0, r);
    else
      t1 = std::min(t1, r);
    if (t0 > t1) return false;
  }
  out->x0 = static_cast<int32_t>(std::lround(x0 + t0 * dx));
  out->y0 = static_cast<int32_t>(std::lround(y0 + t0 * dy));
  out->x1 = static_cast<int32_t>(std::lround(x0 + t1 * dx));
  out->y1 = static_cast<int32_t>(std::lround(y0 + t1 * dy));
  return true;
}

namespace {

struct CommEnd {
  model::Time time;
  int32_t group;
};

// One line per receive inside the range, and per send inside it whose receive is after it.
void AddComm(const Frame& f, const CommEnd& send, const CommEnd& recv, Rgb color, base::ChargeBatch& charge,
             std::vector<Line>& out) {
  const model::Time b = f.columns.begin, e = f.columns.end;
  const bool recv_in = recv.time >= b && recv.time <= e;
  const bool send_in = send.time >= b && send.time <= e;
  if (!recv_in && !(send_in && recv.time > e)) return;
  const RowGroup& gs = f.groups[static_cast<size_t>(send.group)];
  const RowGroup& gr = f.groups[static_cast<size_t>(recv.group)];
  double ys = gs.y, yr = gr.y;
  if (send.group == recv.group) ys = yr = gs.y + gs.h / 2.0;
  auto x_of = [&](model::Time t) {
    return std::clamp(f.list.area_x + f.columns.X(t), -kCoordinateLimit, kCoordinateLimit);
  };
  // The end whose record is inside the range is drawn at its column's x (§5).
  auto column_x = [&](model::Time t) {
    int64_t j = f.columns.ColumnOf(t);
    return j < 0 ? x_of(t) : f.list.area_x + static_cast<double>(j * f.columns.pixel_size);
  };
  double xs = recv_in ? x_of(send.time) : column_x(send.time);
  double xr = recv_in ? column_x(recv.time) : x_of(recv.time);
  Line line{0, 0, 0, 0, color};
  if (ClipToArea(f.list, xs, ys, xr, yr, &line)) {
    charge.Add(sizeof(Line));
    out.push_back(line);
  }
}

}  // namespace

Overlays ComputeOverlays(const Frame& f, const base::WorkShare* share) {
  Overlays o;
  if (f.options->flags) o.marks = FlagMarks(f, share);
  if (!f.options->comms) return o;
  const auto& h = *f.ctx->header;
  const auto& c = f.ctx->store->comms();
  const std::vector<int32_t> group_of = GroupOfObject(f);
  const filter::Filter filter = WindowFilter(f);
  base::ChargeBatch charge(f.ctx->memory);
  uint64_t first = 0, last = c.rows();
  if (share != nullptr) {  // contiguous blocks, in process order
    first = c.rows() * uint64_t{share->index} / share->count;
    last = c.rows() * (uint64_t{share->index} + 1) / share->count;
  }
  for (int pass = 0; pass < 2; ++pass) {
    const bool logical = pass == 0;
    if (logical ? !filter.logical() : !filter.physical()) continue;
    const Rgb color = logical ? f.options->prefs.logical_comm : f.options->prefs.physical_comm;
    for (auto id = static_cast<uint32_t>(first); id < last; ++id) {
      int64_t so = ObjectOf(h, f.level, c.sender[id], c.sender_cpu[id]);
      int64_t ro = ObjectOf(h, f.level, c.receiver[id], c.receiver_cpu[id]);
      if (so < 0 || ro < 0) continue;
      int32_t gs = group_of[static_cast<size_t>(so)], gr = group_of[static_cast<size_t>(ro)];
      if (gs < 0 || gr < 0 || !filter.PassComm(id, logical, true)) continue;
      const model::Time st = logical ? c.log_send[id] : c.phy_send[id];
      const model::Time rt = logical ? c.log_recv[id] : c.phy_recv[id];
      AddComm(f, CommEnd{st, gs}, CommEnd{rt, gr}, color, charge, o.lines[pass]);
    }
  }
  return o;
}

Result<Overlays> ShareOverlays(const Frame& f, const base::WorkShare& share) {
  Overlays mine = ComputeOverlays(f, &share);
  std::string bytes;
  base::WirePut(bytes, static_cast<uint32_t>(mine.marks.size()));
  for (const auto& m : mine.marks) base::WirePutVector(bytes, m);
  for (const auto& pass : mine.lines) base::WirePutVector(bytes, pass);
  auto all = share.exchange(bytes);
  if (!all.ok()) return all.status();
  Overlays joined;
  joined.marks.resize(mine.marks.size());
  for (unsigned p = 0; p < share.count; ++p) {
    if (p >= all->size()) return Status::Error("a process sent no flags and lines of the timeline");
    base::WireReader in(all.value()[p]);
    uint32_t groups = 0;
    bool ok = in.Get(&groups) && groups == joined.marks.size();
    std::vector<uint32_t> marks;
    for (uint32_t g = 0; ok && g < groups; ++g) {
      ok = in.GetVector(&marks);
      if (ok) joined.marks[g].insert(joined.marks[g].end(), marks.begin(), marks.end());
    }
    std::vector<Line> lines;
    for (auto& pass : joined.lines) {
      ok = ok && in.GetVector(&lines);
      if (ok) pass.insert(pass.end(), lines.begin(), lines.end());
    }
    if (!ok || !in.done())
      return Status::Error(fmt::format("process {} sent damaged flags and lines of the timeline", p), {},
                           "all processes must run the same Parallax on the same trace and cfg");
  }
  return joined;
}

void AddCommLines(Frame& f, const Overlays& o) {
  uint64_t count = 0;
  for (const auto& pass : o.lines) count += pass.size();
  if (f.options->max_comm_lines && count > *f.options->max_comm_lines) {
    f.list.lines_hidden = count;
    return;
  }
  for (const auto& pass : o.lines) f.list.lines.insert(f.list.lines.end(), pass.begin(), pass.end());
}

}  // namespace parallax::render
