// parallax::CompareWindow and RenderDifference (include/parallax/compare.h): one cfg window on
// two runs over aligned time (src/compare/difference.h), with the cfg's histograms of both.

#include <fmt/format.h>

#include <algorithm>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>

#include "include/parallax/compare.h"
#include "include/parallax/structure.h"
#include "src/base/parallel.h"
#include "src/cfg/cfg_names.h"
#include "src/compare/difference.h"
#include "src/render/encoders.h"
#include "src/render/timeline.h"
#include "src/semantic/info_type.h"
#include "src/session/guard.h"
#include "src/session/trace_impl.h"

namespace parallax {

namespace {

using compare::TimeMap;

Status CannotCompare(const std::string& what, const std::string& hint) {
  return Status::Error("cannot compare windows: " + what, {}, hint);
}

// B's time mapped onto A's: through the boundaries of the iterations both runs have (found by
// the same anchor), else linearly from start to end.
struct Alignment {
  std::vector<std::pair<model::Time, model::Time>> points;
  std::string how;
  const IterationsInfo* a = nullptr;  // set when aligned by iterations
  const IterationsInfo* b = nullptr;
};

Alignment AlignTime(const Result<ProgramStructure>& sa, const Result<ProgramStructure>& sb) {
  Alignment al;
  std::string why;
  if (!sa.ok() || !sb.ok()) {
    why = (!sa.ok() ? sa.status() : sb.status()).message();
  } else if (!sa.value().iterations.found || !sb.value().iterations.found) {
    why = fmt::format("{} has no iterations", !sa.value().iterations.found ? "A" : "B");
  } else if (sa.value().iterations.anchor != sb.value().iterations.anchor) {
    why = fmt::format("A's iterations are found by {} and B's by {}", sa.value().iterations.anchor,
                      sb.value().iterations.anchor);
  } else {
    const IterationsInfo &ia = sa.value().iterations, &ib = sb.value().iterations;
    const size_t n = std::min(ia.items.size(), ib.items.size());
    for (size_t k = 0; k < n; ++k) {
      al.points.emplace_back(ia.items[k].begin, ib.items[k].begin);
      al.points.emplace_back(ia.items[k].end, ib.items[k].end);
    }
    al.a = &ia;
    al.b = &ib;
    al.how = fmt::format("at the boundaries of the {} iterations both runs have ({}), linearly between them", n,
                         ia.anchor);
    return al;
  }
  al.how = fmt::format("linearly from start to end ({})", why);
  return al;
}

struct Side {
  const session::TraceImpl* impl = nullptr;
  std::vector<semantic::WindowSpec> specs;
  size_t index = 0;
  std::unique_ptr<semantic::WindowEvaluator> window;
};

Status Prepare(const session::TraceImpl& t, const DifferenceRequest& req, const semantic::TraceView& view,
               Side& side) {
  side.impl = &t;
  TextRequest text;
  text.cfg_path = req.cfg_path;
  text.cfg_text = req.cfg_text;
  text.window = req.window;
  auto windows = t.TextWindows(text);
  if (!windows.ok()) return windows.status();
  side.specs = std::move(windows.value().first);
  side.index = windows.value().second;
  auto ev = semantic::WindowEvaluator::Create(view, side.specs, side.index);
  if (!ev.ok()) return ev.status();
  side.window = std::move(ev.value());
  return Status::Ok();
}

// The histograms of both runs matched by table and plane, their rows and columns by label.
std::vector<DifferenceHistogram> MatchHistograms(const std::vector<AnalyzeTable>& ta,
                                                 const std::vector<AnalyzeTable>& tb) {
  std::vector<DifferenceHistogram> out;
  for (size_t t = 0; t < std::min(ta.size(), tb.size()); ++t) {
    for (const AnalyzePlane& pa : ta[t].planes) {
      const AnalyzePlane* pb = nullptr;
      for (const AnalyzePlane& p : tb[t].planes)
        if (p.label == pa.label) pb = &p;
      static const AnalyzePlane kEmpty;
      if (pb == nullptr) pb = &kEmpty;
      DifferenceHistogram h;
      h.name = ta[t].name;
      h.statistic = ta[t].statistic;
      h.plane = pa.label;
      auto index = [](std::vector<std::string>& all, const std::vector<std::string>& labels) {
        std::vector<size_t> at;
        for (const std::string& l : labels) {
          auto it = std::find(all.begin(), all.end(), l);
          at.push_back(size_t(it - all.begin()));
          if (it == all.end()) all.push_back(l);
        }
        return at;
      };
      const std::vector<size_t> ca = index(h.columns, pa.columns), ra = index(h.rows, pa.rows);
      const std::vector<size_t> cb = index(h.columns, pb->columns), rb = index(h.rows, pb->rows);
      auto fill = [&](const AnalyzePlane& p, const std::vector<size_t>& rows, const std::vector<size_t>& cols,
                      std::vector<std::vector<std::optional<double>>>& cells, std::vector<std::optional<double>>& total) {
        cells.assign(h.rows.size(), std::vector<std::optional<double>>(h.columns.size()));
        total.assign(h.columns.size(), std::nullopt);
        for (size_t r = 0; r < p.values.size() && r < rows.size(); ++r)
          for (size_t c = 0; c < p.values[r].size() && c < cols.size(); ++c) cells[rows[r]][cols[c]] = p.values[r][c];
        for (size_t k = 0; k < p.total_names.size(); ++k)
          if (p.total_names[k] == "Total")
            for (size_t c = 0; c < p.totals[k].size() && c < cols.size(); ++c) total[cols[c]] = p.totals[k][c];
      };
      fill(pa, ra, ca, h.a, h.a_total);
      fill(*pb, rb, cb, h.b, h.b_total);
      out.push_back(std::move(h));
    }
  }
  return out;
}

Result<DifferenceWindow> CompareWindowUnguarded(const session::TraceImpl& ta, const session::TraceImpl& tb,
                                                const DifferenceRequest& req) {
  if (req.cfg_path.empty() && req.cfg_text.empty())
    return Status::Error("a difference window needs a cfg", {}, "give the cfg whose window to compare");
  const base::Deadline deadline(req.time_limit);
  const base::RequestMemory memory(req.memory_limit);
  semantic::TraceView va = ta.View(), vb = tb.View();
  va.deadline = vb.deadline = &deadline;
  va.memory = vb.memory = &memory;
  Side a, b;
  if (Status s = Prepare(ta, req, va, a); !s.ok()) return s;
  if (Status s = Prepare(tb, req, vb, b); !s.ok()) return s;
  const uint32_t objects = a.window->rows();
  if (a.window->level() != b.window->level() || objects != b.window->rows())
    return CannotCompare(
        fmt::format("window '{}' has {} {} objects in A and {} {} objects in B", a.window->spec().name, objects,
                    model::LevelName(a.window->level()), b.window->rows(), model::LevelName(b.window->level())),
        "compare runs of different sizes with a window at the application level (one object per run), or with "
        "compare --by iteration, phase or call");

  auto sa = AnalyzeStructure(ta), sb = AnalyzeStructure(tb);
  Alignment al = AlignTime(sa, sb);
  const model::Time a_end = a.window->trace_end(), b_end = b.window->trace_end();
  const TimeMap map(al.points, a_end, b_end);

  DifferenceWindow d;
  d.a = ta.path();
  d.b = tb.path();
  d.window = a.window->spec().name;
  d.level = std::string(model::LevelName(a.window->level()));
  d.info_type = std::string(semantic::InfoTypeName(semantic::WindowInfoType(a.specs, a.index, &ta.functions())));
  d.time_unit = std::string(model::TimeUnitName(ta.header().unit));
  d.alignment = al.how;
  if (req.iteration) {
    if (al.a == nullptr)
      return CannotCompare(fmt::format("iteration {} asked for, but the runs are not aligned by iterations: {}",
                                       *req.iteration, al.how),
                           "leave out the iteration, or give a time range of A");
    const uint64_t k = *req.iteration;
    if (k == 0 || k > al.a->items.size() || k > al.b->items.size())
      return CannotCompare(fmt::format("iteration {} is not in both runs: A has {} iterations and B {}", k,
                                       al.a->items.size(), al.b->items.size()),
                           "give an iteration from 1 to the smaller count");
    d.from = al.a->items[k - 1].begin;
    d.to = al.a->items[k - 1].end;
  } else {
    d.from = req.from.value_or(0);
    d.to = std::min<uint64_t>(req.to.value_or(a_end), a_end);
  }
  if (d.to <= d.from)
    return Status::Error(fmt::format("empty time range of A: {} .. {}", d.from, d.to), {},
                         fmt::format("give from < to, in A's trace units (its end is {})", a_end));
  d.b_from = map.ToB(d.from);
  d.b_to = map.ToB(d.to);

  std::vector<compare::DifferenceRow> rows(objects);
  base::ParallelFor(objects, req.threads ? req.threads : base::DefaultThreads(), [&](size_t o) {
    auto ra = a.window->MakeRow(uint32_t(o)), rb = b.window->MakeRow(uint32_t(o));
    rows[o] = compare::MergeRows(*ra, *rb, map, d.from, d.to, a_end, b_end);
    memory.Charge(rows[o].begin.size() * (2 * sizeof(uint64_t) + 2 * sizeof(double)));
  });
  if (al.a != nullptr && !req.iteration) {
    const size_t n = std::min(al.a->items.size(), al.b->items.size());
    for (size_t k = 0; k < n; ++k) {
      const model::Time from = std::max<model::Time>(al.a->items[k].begin, d.from);
      const model::Time to = std::min<model::Time>(al.a->items[k].end, d.to);
      if (to <= from) continue;
      DifferenceUnit u{std::to_string(k + 1), from, to, 0, 0};
      for (uint32_t o = 0; o < objects; ++o) {
        const compare::DifferenceMeans m = compare::MeansOf(rows[o], from, to);
        u.a_mean += m.a / objects;
        u.b_mean += m.b / objects;
      }
      d.iterations.push_back(std::move(u));
    }
  }
  const double span = double(d.to - d.from);
  for (uint32_t o = 0; o < objects; ++o) {
    const compare::DifferenceMeans m = compare::MeansOf(rows[o]);
    d.objects.push_back({semantic::ObjectName(ta.header(), a.window->level(), o), m.a, m.b, m.diff,
                         m.differs_s / span});
    d.object.insert(d.object.end(), rows[o].begin.size(), o);
    d.begin.insert(d.begin.end(), rows[o].begin.begin(), rows[o].begin.end());
    d.end.insert(d.end.end(), rows[o].end.begin(), rows[o].end.end());
    d.a_value.insert(d.a_value.end(), rows[o].a.begin(), rows[o].a.end());
    d.b_value.insert(d.b_value.end(), rows[o].b.begin(), rows[o].b.end());
    rows[o] = {};
  }
  auto cfg = ta.LoadRequestCfg(req.cfg_path, req.cfg_text);
  if (!cfg.ok()) return cfg.status();
  if (req.histograms && !cfg.value().histograms.empty()) {
    AnalyzeRequest ar;
    ar.cfg_path = req.cfg_path;
    ar.cfg_text = req.cfg_text;
    ar.time_limit = req.time_limit;
    ar.memory_limit = req.memory_limit;
    ar.from = d.from;
    ar.to = d.to;
    auto ha = Analyze(ta, ar);
    if (!ha.ok()) return ha.status();
    ar.from = d.b_from;
    ar.to = d.b_to;
    auto hb = Analyze(tb, ar);
    if (!hb.ok()) return hb.status();
    d.histograms = MatchHistograms(ha.value(), hb.value());
  }
  if (ta.header().unit != tb.header().unit)
    d.notes.push_back(fmt::format("A's times are in {} and B's in {}: B's are mapped onto A's axis",
                                  model::TimeUnitName(ta.header().unit), model::TimeUnitName(tb.header().unit)));
  return d;
}

}  // namespace

Result<DifferenceWindow> CompareWindow(const Trace& a, const Trace& b, const DifferenceRequest& request) {
  const auto* ia = dynamic_cast<const session::TraceImpl*>(&a);
  const auto* ib = dynamic_cast<const session::TraceImpl*>(&b);
  if (ia == nullptr || ib == nullptr)
    return Status::Error("compare: the traces were not opened by parallax::Trace::Open");
  return session::GuardedOn(a, ia->path(), [&]() -> Result<DifferenceWindow> {
    return session::GuardedOn(b, ib->path(),
                              [&]() -> Result<DifferenceWindow> { return CompareWindowUnguarded(*ia, *ib, request); });
  });
}

Result<TimelineImage> RenderDifference(const Trace& a, const DifferenceWindow& d, const DifferenceImageRequest& req) {
  const auto* t = dynamic_cast<const session::TraceImpl*>(&a);
  if (t == nullptr) return Status::Error("compare: the trace was not opened by parallax::Trace::Open");
  if (req.op != "diff" && req.op != "ratio")
    return Status::Error(fmt::format("unknown difference '{}'", req.op), {}, "use diff (A − B) or ratio (A / B)");
  if (req.format != "png" && req.format != "svg" && req.format != "json")
    return Status::Error(fmt::format("unknown image format '{}'", req.format), {}, "use png, svg or json");
  std::string lower = d.level;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  const std::optional<model::Level> level = cfg::ParseLevelName(lower);
  if (!level) return Status::Error(fmt::format("unknown level '{}'", d.level));
  const auto op = req.op == "diff" ? compare::DifferenceOp::kDiff : compare::DifferenceOp::kRatio;
  return session::GuardedOn(a, t->path(), [&]() -> Result<TimelineImage> {
    // Each object's intervals back as a row.
    std::vector<compare::DifferenceRow> rows(d.objects.size());
    for (size_t i = 0; i < d.object.size(); ++i) {
      if (d.object[i] >= rows.size()) return Status::Error("a difference interval of an object it does not list");
      compare::DifferenceRow& r = rows[d.object[i]];
      r.begin.push_back(d.begin[i]);
      r.end.push_back(d.end[i]);
      r.a.push_back(d.a_value[i]);
      r.b.push_back(d.b_value[i]);
    }
    render::RowsToDraw draw;
    draw.level = *level;
    draw.begin = d.from;
    draw.end = d.to;
    draw.trace_end = t->store().end_time();
    draw.unit = t->header().unit;
    double lo = 0, hi = 0;
    bool any = false;
    for (size_t i = 0; i < d.a_value.size(); ++i) {
      const double v = op == compare::DifferenceOp::kDiff ? d.a_value[i] - d.b_value[i]
                                                          : (d.b_value[i] != 0 ? d.a_value[i] / d.b_value[i] : NAN);
      if (!std::isfinite(v)) continue;
      lo = any ? std::min(lo, v) : v;
      hi = any ? std::max(hi, v) : v;
      any = true;
    }
    for (uint32_t o = 0; o < rows.size(); ++o) {
      draw.objects.push_back(o);
      draw.rows.push_back(compare::MakeDifferenceRow(rows[o], op, draw.trace_end));
    }
    render::TimelineOptions o;
    o.width = req.width;
    o.height = req.height;
    o.title = fmt::format("{}: {}", op == compare::DifferenceOp::kDiff ? "A - B" : "A / B", d.window);
    if (!req.background.empty() && req.background != "black") {
      if (req.background == "white") {
        o.prefs.background = {255, 255, 255};
      } else {
        unsigned v = 0;
        if (req.background.size() != 7 || req.background[0] != '#' ||
            std::sscanf(req.background.c_str() + 1, "%6x", &v) != 1)
          return Status::Error(fmt::format("bad colour '{}'", req.background), {}, "use black, white or #rrggbb");
        o.prefs.background = {uint8_t(v >> 16), uint8_t(v >> 8), uint8_t(v)};
      }
    }
    // Diverging colours: red where A is below B, blue where above, the stronger the further;
    // faint near equality (dark on a dark background, pale on a light one).
    const bool light = render::Luminance(o.prefs.background) > 128;
    if (light) o.prefs.foreground = {0, 0, 0};
    const model::Rgb red_faint = light ? model::Rgb{250, 200, 190} : model::Rgb{90, 25, 25};
    const model::Rgb blue_faint = light ? model::Rgb{195, 210, 245} : model::Rgb{25, 35, 100};
    const model::Rgb red{215, 40, 40}, blue{60, 110, 240};
    if (op == compare::DifferenceOp::kDiff) {
      // Centred on 0, which is drawn as the background: where the runs agree nothing shows.
      const double m = std::max({std::fabs(lo), std::fabs(hi), 1e-300});
      o.color = render::ColorMode::kNullGradient;
      o.min_y = -m;
      o.max_y = m;
      o.prefs.negative_begin = red_faint;
      o.prefs.negative_end = red;
      o.prefs.gradient_stops = {blue_faint, blue_faint, blue};  // 0..max is the upper half
      o.time_mode = render::DrawMode::kAbsoluteMaximum;
    } else {
      // 0 .. 2 with 1 (equal) in the middle; beyond 2 as 2.
      o.color = render::ColorMode::kGradient;
      o.min_y = 0;
      o.max_y = 2;
      o.prefs.gradient_stops = {red, light ? model::Rgb{235, 235, 235} : model::Rgb{70, 70, 70}, blue};
      o.prefs.above_max = blue;
      o.time_mode = render::DrawMode::kAverage;
    }
    o.object_mode = render::DrawMode::kAbsoluteMaximum;
    o.comms = false;
    render::TimelineContext ctx;
    ctx.header = &t->header();
    ctx.store = &t->store();
    ctx.pcf = t->pcf();
    ctx.row = t->row();
    auto list = render::RenderRows(draw, ctx, o);
    if (!list.ok()) return list.status();
    TimelineImage image;
    image.window = o.title;
    image.format = req.format;
    if (req.format == "svg") {
      image.data = render::EncodeSvg(list.value());
    } else if (req.format == "json") {
      image.data = render::EncodeJson(list.value());
    } else {
      auto png = render::EncodePng(list.value());
      if (!png.ok()) return png.status();
      image.data = std::move(png.value());
    }
    image.layout = render::EncodeLayoutJson(list.value());
    return image;
  });
}

}  // namespace parallax
