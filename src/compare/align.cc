#include "src/compare/align.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace parallax::compare {

RankStats StatsOf(const std::vector<double>& by_rank) {
  RankStats s;
  s.ranks = by_rank.size();
  if (by_rank.empty()) return s;
  double sum = 0;
  for (double v : by_rank) {
    sum += v;
    s.max = std::max(s.max, v);
  }
  s.mean = sum / double(by_rank.size());
  s.imbalance = s.mean > 0 ? s.max / s.mean - 1 : 0;
  return s;
}

std::vector<Row> Align(const std::vector<Unit>& a, const std::vector<Unit>& b) {
  std::unordered_map<std::string, size_t> in_b;
  for (size_t i = 0; i < b.size(); ++i) in_b.emplace(b[i].key, i);
  std::vector<Row> rows;
  std::vector<bool> used(b.size(), false);
  auto finish = [&](Row& r) {
    r.diff = r.b - r.a;
    r.ratio = r.in_a && r.a > 0 && r.in_b ? r.b / r.a : std::numeric_limits<double>::quiet_NaN();
    r.order = rows.size();
    rows.push_back(r);
  };
  for (const Unit& u : a) {
    Row r;
    r.key = u.key;
    r.in_a = true;
    r.a = u.value;
    r.a_ranks = StatsOf(u.by_rank);
    auto it = in_b.find(u.key);
    if (it != in_b.end() && !used[it->second]) {
      used[it->second] = true;
      r.in_b = true;
      r.b = b[it->second].value;
      r.b_ranks = StatsOf(b[it->second].by_rank);
    }
    finish(r);
  }
  for (size_t i = 0; i < b.size(); ++i) {
    if (used[i]) continue;
    Row r;
    r.key = b[i].key;
    r.in_b = true;
    r.b = b[i].value;
    r.b_ranks = StatsOf(b[i].by_rank);
    finish(r);
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const Row& x, const Row& y) { return std::fabs(x.diff) > std::fabs(y.diff); });
  return rows;
}

}  // namespace parallax::compare
