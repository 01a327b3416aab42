// Compose, aggregation, cpu and derived kernels (semantics.md §5, §6.2, §7, §8.2).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>

#include "src/semantic/kernels.h"

namespace parallax::semantic::kernels {

namespace {

double First(const Params& p, size_t i, double fallback = 0) {
  return i < p.size() && !p[i].empty() ? p[i][0] : fallback;
}

bool InList(const Params& p, size_t i, double x) {
  if (i >= p.size()) return false;
  return std::find(p[i].begin(), p[i].end(), x) != p[i].end();
}

// Select Range family: pairs (min_i, max_i) taken index-wise from max list p[0] and min list p[1].
bool InRanges(const Params& p, double x, bool closed) {
  if (p.size() < 2) return false;
  size_t n = std::min(p[0].size(), p[1].size());
  for (size_t i = 0; i < n; ++i) {
    double hi = p[0][i], lo = p[1][i];
    if (lo <= x && (closed ? x <= hi : x < hi)) return true;
  }
  return false;
}

}  // namespace

double AsIs(ComposeCall& c) { return c.x; }
double Sign(ComposeCall& c) { return c.x != 0 ? 1 : 0; }
double OneMinusSign(ComposeCall& c) { return c.x != 0 ? 0 : 1; }
double Mod(ComposeCall& c) {
  double d = First(c.params, 0, 1);
  return std::fmod(c.x, d == 0 ? 1 : d);
}
double ModPlus1(ComposeCall& c) { return Mod(c) + 1; }
double Div(ComposeCall& c) {
  double d = First(c.params, 0, 1);
  return d == 0 ? std::fmod(c.x, 1) : c.x / d;
}
double Prod(ComposeCall& c) { return c.x * First(c.params, 0, 0); }
double Add(ComposeCall& c) { return c.x + First(c.params, 0, 0); }
double Subs(ComposeCall& c) { return c.x - First(c.params, 0, 0); }
double Complement(ComposeCall& c) { return First(c.params, 0, 0) - c.x; }
double InverseDiv(ComposeCall& c) { return c.x == 0 ? 0 : First(c.params, 0, 1) / c.x; }
double SelectRange(ComposeCall& c) { return InRanges(c.params, c.x, true) ? c.x : 0; }
double SelectRangeOpen(ComposeCall& c) { return InRanges(c.params, c.x, false) ? c.x : 0; }
double IsInRange(ComposeCall& c) { return InRanges(c.params, c.x, true) ? 1 : 0; }
double IsInRangeOpen(ComposeCall& c) { return InRanges(c.params, c.x, false) ? 1 : 0; }
double IsEqual(ComposeCall& c) { return InList(c.params, 0, c.x) ? c.x : 0; }
double IsEqualSign(ComposeCall& c) { return InList(c.params, 0, c.x) ? 1 : 0; }
double Floor(ComposeCall& c) { return std::floor(c.x); }
double Ceil(ComposeCall& c) { return std::ceil(c.x); }
double Round(ComposeCall& c) { return std::nearbyint(c.x); }
double Abs(ComposeCall& c) { return std::fabs(c.x); }

double StackedVal(ComposeCall& c) {
  auto& s = c.state.stack;
  if (c.x != 0) {
    s.push_back(c.x);
  } else if (!s.empty()) {
    s.pop_back();
  }
  return s.empty() ? 0 : s.back();
}

double InStackedVal(ComposeCall& c) {
  double top = StackedVal(c);
  return top == First(c.params, 0, 1) ? top : 0;
}

double NestingLevel(ComposeCall& c) {
  if (c.x != 0) {
    c.state.counter += 1;
  } else if (c.state.counter > 0) {
    c.state.counter -= 1;
  }
  return c.state.counter;
}

double LruDepth(ComposeCall& c) {
  if (c.x == 0) return 0;
  double size = First(c.params, 0, 256);
  auto& l = c.state.lru;
  auto it = std::find(l.begin(), l.end(), c.x);
  if (it != l.end()) {
    double k = static_cast<double>(it - l.begin()) + 1;
    l.erase(it);
    l.push_front(c.x);
    return k;
  }
  l.push_front(c.x);
  if (static_cast<double>(l.size()) > size) l.pop_back();
  return size + 1;
}

double Enumerate(ComposeCall& c) {
  double v = static_cast<double>(static_cast<uint16_t>(static_cast<int64_t>(c.state.counter)));
  if (c.x != 0) v += 1;
  c.state.counter = v;
  return v;
}

double Accumulate(ComposeCall& c) {
  c.state.counter += c.x;
  return c.state.counter;
}

double Delta(ComposeCall& c) {
  double r = c.x != c.state.last_input ? c.x - c.state.last_input : 0;
  c.state.last_input = c.x;
  return r;
}

double BurstTime(ComposeCall& c) { return c.env.ToWindow(static_cast<double>(c.end - c.begin)); }
double DivideByBurstTime(ComposeCall& c) {
  double d = BurstTime(c);
  return d == 0 ? 0 : c.x / d;
}
double BeginTime(ComposeCall& c) { return c.env.ToWindow(static_cast<double>(c.begin)); }
double EndTime(ComposeCall& c) { return c.env.ToWindow(static_cast<double>(c.end)); }

double Translate(ComposeCall& c) {
  if (c.params.empty()) return c.x;
  const auto& l = c.params[0];
  for (size_t i = 0; i + 1 < l.size(); i += 2)
    if (l[i] == c.x) return l[i + 1];
  return c.x;
}

double Sin(ComposeCall& c) { return std::sin(c.x); }
double Cos(ComposeCall& c) { return std::cos(c.x); }
double ArcTan(ComposeCall& c) { return std::atan(c.x); }
double SqrtAbs(ComposeCall& c) { return std::sqrt(std::fabs(c.x)); }
double LogN(ComposeCall& c) {
  if (c.x <= 0) return 0;
  double r = std::log(c.x) / std::log(First(c.params, 0, 2.718281828459045));
  return r < 0 || std::isnan(r) ? 0 : r;
}
double Exp(ComposeCall& c) {
  double r = std::pow(First(c.params, 0, 2.718281828459045), c.x);
  return std::isnan(r) || std::isinf(r) ? 0 : r;
}

double Adding(AggregateCall& c) {
  double s = 0;
  for (double v : c.v) s += v;
  return s;
}
double AddingSign(AggregateCall& c) { return Adding(c) > 0 ? 1 : 0; }
double Average(AggregateCall& c) { return c.v.empty() ? 0 : Adding(c) / static_cast<double>(c.v.size()); }
double Maximum(AggregateCall& c) {
  double m = 0;
  for (double v : c.v) m = std::max(m, v);
  return m;
}
double Minimum(AggregateCall& c) {
  double m = 0;
  for (double v : c.v)
    if (m == 0 || v < m) m = v;
  return m;
}

namespace {
bool ActivityHolds(const AggregateCall& c) {
  if (c.v.empty() || c.v[0] == 0 || !InList(c.params, 0, c.v[0])) return false;
  return std::all_of(c.v.begin(), c.v.end(), [&](double x) { return x == c.v[0]; });
}
}  // namespace

double Activity(AggregateCall& c) { return ActivityHolds(c) ? c.v[0] : 0; }
double InActivity(AggregateCall& c) { return ActivityHolds(c) ? 1 : 0; }

double Mode(AggregateCall& c) {
  std::map<double, int> count;
  double best = 0;
  int best_count = 0;
  for (double v : c.v) {
    int n = ++count[v];
    if (n > best_count) {
      best_count = n;
      best = v;
    }
  }
  return best;
}

double ThreadI(AggregateCall& c) {
  double i = First(c.params, 0, 1);
  if (!(i >= 1 && i <= static_cast<double>(c.v.size()))) return 0;  // NaN included
  return c.v[static_cast<size_t>(i) - 1];
}

double AddTasks(AggregateCall& c) {
  double s = 0;
  if (c.params.empty()) return 0;
  for (double k : c.params[0])
    if (k >= 0 && k < static_cast<double>(c.v.size())) s += c.v[static_cast<size_t>(k)];
  return s;
}

double ChangedValue(AggregateCall& c) { return c.changed < c.v.size() ? c.v[c.changed] : 0; }

double ActiveThd(AggregateCall& c) { return c.v.empty() ? 0 : c.v[0]; }
double ActiveThdSign(AggregateCall& c) { return ActiveThd(c) != 0 ? 1 : 0; }
double ActiveThdVal(AggregateCall& c) { return InList(c.params, 0, ActiveThd(c)) ? ActiveThd(c) : 0; }
double ActiveThdValSign(AggregateCall& c) { return InList(c.params, 0, ActiveThd(c)) ? 1 : 0; }

double DerivedAdd(DerivedCall& c) { return c.a + c.b; }
double DerivedProduct(DerivedCall& c) { return c.a * c.b; }
double DerivedSubstract(DerivedCall& c) { return c.a - c.b; }
double DerivedDivide(DerivedCall& c) { return c.b == 0 ? 0 : c.a / c.b; }
double DerivedMaximum(DerivedCall& c) { return std::max(c.a, c.b); }
double DerivedMinimum(DerivedCall& c) { return std::min(c.a, c.b); }
double DerivedDifferent(DerivedCall& c) { return c.a != c.b ? 1 : 0; }

double ControlledClearBy(DerivedCall& c) {
  DerivedState& s = c.state;
  double r;
  if (c.b < s.prev_b) {
    r = 0;
    s.remembered_begin = c.a_begin;
  } else {
    r = (c.a_begin != s.remembered_begin || s.remembered_begin == 0) ? c.a : 0;
  }
  s.prev_b = c.b;
  return r;
}

double ControlledEnumerate(DerivedCall& c) {
  DerivedState& s = c.state;
  if (c.b < s.prev_b) {
    s.count = 0;
  } else if (s.prev_data_begin == 0 || (c.a_begin != s.prev_data_begin && c.a != 0)) {
    s.count += 1;
  }
  s.have_prev = true;
  s.prev_b = c.b;
  s.prev_data_begin = c.a_begin;
  return s.count;
}

}  // namespace parallax::semantic::kernels
