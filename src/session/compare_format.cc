// The text, csv and json renderings of a CompareReport.

#include <fmt/format.h>

#include <nlohmann/json.hpp>

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

std::string FormatCompareJson(const CompareReport& r) {
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
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace parallax
