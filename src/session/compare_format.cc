// The text, csv and json renderings of a CompareReport.

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

#include "include/parallax/compare.h"

namespace parallax {

namespace {

std::string Seconds(std::optional<double> s) {
  if (!s) return "-";
  const double a = std::abs(*s);
  if (a >= 1) return fmt::format("{:.3f} s", *s);
  if (a >= 1e-3) return fmt::format("{:.3f} ms", *s * 1e3);
  return fmt::format("{:.1f} us", *s * 1e6);
}

std::string Signed(double s) { return (s > 0 ? "+" : "") + Seconds(s); }

std::string Stats(const CompareRankStats& r) {
  if (r.ranks < 2) return "";
  return fmt::format("{}/{} {:.0f}%", Seconds(r.mean_s), Seconds(r.max_s), 100 * r.imbalance);
}

std::string Percent(std::optional<double> v) { return v ? fmt::format("{:.2f}", *v) : "-"; }

}  // namespace

nlohmann::ordered_json DifferenceJson(const DifferenceWindow& d);

std::string FormatCompareText(const CompareReport& r) {
  std::string o = fmt::format("A: {}\nB: {}\nby {}: {}\n", r.a, r.b, r.by, r.alignment);
  o += fmt::format("total: A {}, B {} ({})\n\n", Seconds(r.a_total_s), Seconds(r.b_total_s),
                   Signed(r.b_total_s - r.a_total_s));
  const bool stats = !r.rows.empty() && (r.rows.front().a_ranks.ranks > 1 || r.rows.front().b_ranks.ranks > 1);
  o += fmt::format("  {:<34} {:>12} {:>12} {:>12} {:>7}", r.by, "A", "B", "B - A", "B / A");
  if (stats) o += fmt::format("  {:>26} {:>26}", "A mean/max imbalance", "B mean/max imbalance");
  o += "\n";
  for (const CompareRow& x : r.rows) {
    o += fmt::format("  {:<34} {:>12} {:>12} {:>12} {:>7}", x.unit, Seconds(x.a_s), Seconds(x.b_s), Signed(x.diff_s),
                     x.ratio ? fmt::format("{:.3f}", *x.ratio) : (x.a_s ? "-" : "B only"));
    if (stats) o += fmt::format("  {:>26} {:>26}", Stats(x.a_ranks), Stats(x.b_ranks));
    o += "\n";
  }
  if (!r.pop.empty()) {
    o += "\nPOP factors and raw values          A            B        B - A\n";
    for (const CompareFactor& f : r.pop)
      o += fmt::format("  {:<32} {:>12} {:>12} {:>12}\n", f.name, Percent(f.a), Percent(f.b), Percent(f.diff));
  }
  for (const std::string& n : r.notes) o += "note: " + n + "\n";
  return o;
}

std::string FormatCompareCsv(const CompareReport& r) {
  std::string o = "by,unit,a_s,b_s,diff_s,ratio,a_mean_s,a_max_s,a_imbalance,b_mean_s,b_max_s,b_imbalance\n";
  auto opt = [](std::optional<double> v) { return v ? fmt::format("{:.9g}", *v) : std::string(); };
  auto quoted = [](const std::string& s) {
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  };
  for (const CompareRow& x : r.rows)
    o += fmt::format("{},{},{},{},{:.9g},{},{:.9g},{:.9g},{:.6g},{:.9g},{:.9g},{:.6g}\n", x.by, quoted(x.unit),
                     opt(x.a_s), opt(x.b_s), x.diff_s, opt(x.ratio), x.a_ranks.mean_s, x.a_ranks.max_s,
                     x.a_ranks.imbalance, x.b_ranks.mean_s, x.b_ranks.max_s, x.b_ranks.imbalance);
  return o;
}

std::string FormatCompareJson(const CompareReport& r, const std::vector<DifferenceWindow>& windows) {
  using nlohmann::ordered_json;
  auto opt = [](std::optional<double> v) { return v ? ordered_json(*v) : ordered_json(); };
  auto stats = [](const CompareRankStats& s) {
    return ordered_json{{"ranks", s.ranks}, {"mean_s", s.mean_s}, {"max_s", s.max_s}, {"imbalance", s.imbalance}};
  };
  ordered_json j;
  j["a"] = r.a;
  j["b"] = r.b;
  j["by"] = r.by;
  j["alignment"] = r.alignment;
  j["a_total_s"] = r.a_total_s;
  j["b_total_s"] = r.b_total_s;
  ordered_json rows = ordered_json::array();
  for (const CompareRow& x : r.rows)
    rows.push_back(ordered_json{{"by", x.by}, {"unit", x.unit}, {"a_s", opt(x.a_s)}, {"b_s", opt(x.b_s)},
                                {"diff_s", x.diff_s}, {"ratio", opt(x.ratio)}, {"a_ranks", stats(x.a_ranks)},
                                {"b_ranks", stats(x.b_ranks)}});
  j["rows"] = std::move(rows);
  ordered_json pop = ordered_json::array();
  for (const CompareFactor& f : r.pop)
    pop.push_back(ordered_json{{"key", f.key}, {"name", f.name}, {"a", opt(f.a)}, {"b", opt(f.b)}, {"diff", opt(f.diff)}});
  j["pop"] = std::move(pop);
  j["notes"] = r.notes;
  if (!windows.empty()) {
    ordered_json w = ordered_json::array();
    for (const DifferenceWindow& d : windows) w.push_back(DifferenceJson(d));
    j["windows"] = std::move(w);
  }
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

namespace {

std::string Number(std::optional<double> v) {
  if (!v) return "-";
  if (std::isnan(*v)) return "nan";
  return fmt::format("{:.6g}", *v);
}

std::optional<double> Ratio(std::optional<double> a, std::optional<double> b) {
  if (!a || !b || *b == 0) return std::nullopt;
  return *a / *b;
}

std::optional<double> Minus(std::optional<double> a, std::optional<double> b) {
  if (!a && !b) return std::nullopt;
  return a.value_or(0) - b.value_or(0);
}

}  // namespace

std::string FormatDifferenceText(const DifferenceWindow& d) {
  std::string o = fmt::format("A: {}\nB: {}\nwindow {} ({} level, {}), A - B and A / B\n", d.a, d.b, d.window,
                              d.level, d.info_type);
  o += fmt::format("A's range {} .. {} {}, B's {} .. {}; time aligned {}\n\n", d.from, d.to, d.time_unit, d.b_from,
                   d.b_to, d.alignment);
  o += fmt::format("  {:<24} {:>14} {:>14} {:>14} {:>9}  {}\n", "object", "A mean", "B mean", "A - B", "A / B",
                   "differs");
  for (const DifferenceObject& x : d.objects)
    o += fmt::format("  {:<24} {:>14} {:>14} {:>14} {:>9}  {:.0f}%\n", x.name, Number(x.a_mean), Number(x.b_mean),
                     Number(x.diff_mean), Number(Ratio(x.a_mean, x.b_mean)), 100 * x.differs_share);
  if (!d.iterations.empty()) {
    // The iterations whose mean differs most.
    std::vector<const DifferenceUnit*> units;
    for (const DifferenceUnit& u : d.iterations) units.push_back(&u);
    std::stable_sort(units.begin(), units.end(), [](const DifferenceUnit* x, const DifferenceUnit* y) {
      return std::fabs(x->a_mean - x->b_mean) > std::fabs(y->a_mean - y->b_mean);
    });
    o += fmt::format("\n  {:<24} {:>14} {:>14} {:>14} {:>9}   (mean over the objects; the {} largest of {})\n",
                     "iteration", "A mean", "B mean", "A - B", "A / B", std::min<size_t>(units.size(), 10), units.size());
    for (size_t i = 0; i < std::min<size_t>(units.size(), 10); ++i)
      o += fmt::format("  {:<24} {:>14} {:>14} {:>14} {:>9}\n", units[i]->unit, Number(units[i]->a_mean),
                       Number(units[i]->b_mean), Number(units[i]->a_mean - units[i]->b_mean),
                       Number(Ratio(units[i]->a_mean, units[i]->b_mean)));
  }
  for (const DifferenceHistogram& h : d.histograms) {
    o += fmt::format("\nhistogram {}{} ({}): totals per column\n", h.name, h.plane.empty() ? "" : " / " + h.plane,
                     h.statistic);
    o += fmt::format("  {:<28} {:>14} {:>14} {:>14} {:>9}\n", "column", "A", "B", "A - B", "A / B");
    for (size_t c = 0; c < h.columns.size(); ++c)
      o += fmt::format("  {:<28} {:>14} {:>14} {:>14} {:>9}\n", h.columns[c], Number(h.a_total[c]),
                       Number(h.b_total[c]), Number(Minus(h.a_total[c], h.b_total[c])),
                       Number(Ratio(h.a_total[c], h.b_total[c])));
    // The cells that differ most.
    struct Cell {
      size_t r, c;
      double diff;
    };
    std::vector<Cell> cells;
    for (size_t r = 0; r < h.rows.size(); ++r)
      for (size_t c = 0; c < h.columns.size(); ++c)
        if (auto m = Minus(h.a[r][c], h.b[r][c]); m && *m != 0 && !std::isnan(*m)) cells.push_back({r, c, *m});
    std::stable_sort(cells.begin(), cells.end(),
                     [](const Cell& x, const Cell& y) { return std::fabs(x.diff) > std::fabs(y.diff); });
    if (cells.empty()) {
      o += "  every cell is equal in both runs\n";
      continue;
    }
    o += fmt::format("  cells that differ most (of {}):\n", cells.size());
    for (size_t i = 0; i < std::min<size_t>(cells.size(), 10); ++i) {
      const Cell& x = cells[i];
      o += fmt::format("  {:<14} {:<13} {:>14} {:>14} {:>14} {:>9}\n", h.rows[x.r], h.columns[x.c],
                       Number(h.a[x.r][x.c]), Number(h.b[x.r][x.c]), Number(x.diff),
                       Number(Ratio(h.a[x.r][x.c], h.b[x.r][x.c])));
    }
  }
  for (const std::string& n : d.notes) o += "note: " + n + "\n";
  return o;
}

nlohmann::ordered_json DifferenceJson(const DifferenceWindow& d) {
  using nlohmann::ordered_json;
  auto opt = [](std::optional<double> v) {
    return v && std::isfinite(*v) ? ordered_json(*v) : ordered_json();
  };
  ordered_json j{{"a", d.a},           {"b", d.b},         {"window", d.window},   {"level", d.level},
                 {"info_type", d.info_type}, {"time_unit", d.time_unit}, {"alignment", d.alignment},
                 {"from", d.from},     {"to", d.to},       {"b_from", d.b_from},   {"b_to", d.b_to}};
  ordered_json objects = ordered_json::array();
  for (const DifferenceObject& x : d.objects)
    objects.push_back(ordered_json{{"name", x.name}, {"a_mean", opt(x.a_mean)}, {"b_mean", opt(x.b_mean)},
                                   {"diff_mean", opt(x.diff_mean)}, {"ratio", opt(Ratio(x.a_mean, x.b_mean))},
                                   {"differs_share", x.differs_share}});
  j["objects"] = std::move(objects);
  ordered_json iterations = ordered_json::array();
  for (const DifferenceUnit& u : d.iterations)
    iterations.push_back(ordered_json{{"unit", u.unit}, {"from", u.from}, {"to", u.to}, {"a_mean", opt(u.a_mean)},
                                      {"b_mean", opt(u.b_mean)}, {"diff_mean", opt(u.a_mean - u.b_mean)},
                                      {"ratio", opt(Ratio(u.a_mean, u.b_mean))}});
  j["iterations"] = std::move(iterations);
  ordered_json hists = ordered_json::array();
  for (const DifferenceHistogram& h : d.histograms) {
    auto grid = [&](const std::vector<std::vector<std::optional<double>>>& g) {
      ordered_json rows = ordered_json::array();
      for (const auto& row : g) {
        ordered_json r = ordered_json::array();
        for (const auto& v : row) r.push_back(opt(v));
        rows.push_back(std::move(r));
      }
      return rows;
    };
    auto line = [&](const std::vector<std::optional<double>>& v) {
      ordered_json r = ordered_json::array();
      for (const auto& x : v) r.push_back(opt(x));
      return r;
    };
    hists.push_back(ordered_json{{"name", h.name},       {"statistic", h.statistic}, {"plane", h.plane},
                                 {"columns", h.columns}, {"rows", h.rows},           {"a", grid(h.a)},
                                 {"b", grid(h.b)},       {"a_total", line(h.a_total)}, {"b_total", line(h.b_total)}});
  }
  j["histograms"] = std::move(hists);
  j["notes"] = d.notes;
  return j;
}

std::string FormatDifferenceJson(const DifferenceWindow& d) {
  return DifferenceJson(d).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace parallax
