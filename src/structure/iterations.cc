#include "src/structure/iterations.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <unordered_map>

#include "src/base/parallel.h"
#include "src/store/block_reader.h"
#include "src/store/type_scan.h"
#include "src/structure/stats.h"

namespace parallax::structure {

namespace {

constexpr uint32_t kUserEventsBelow = 40000000;  // Extrae's own types start there
constexpr uint32_t kOmpParallelType = 60000001;
constexpr uint32_t kUserFunctionType = 60000019;
constexpr uint32_t kUserFunctionType2 = 60000023;  // Extrae's "User function" of some versions
constexpr uint64_t kMinOccurrences = 4;
constexpr uint64_t kMinSteady = 3;
constexpr double kMaxSpread = 0.5;
constexpr double kMinCoverage = 0.3;
constexpr uint32_t kMaxGroup = 8;
constexpr double kMinPositionShare = 0.5;  // of the durations' variance, for grouping

// What a symbol stands for: an MPI call (kind 0) or a marker event (kind 1).
struct SymbolKey {
  uint8_t kind = 0;
  uint32_t type = 0;
  int64_t value = 0;
  int64_t communicator = 0;
  auto operator<=>(const SymbolKey&) const = default;
};

struct Sequence {
  std::vector<uint32_t> symbol;  // dense symbol ids, in time order
  std::vector<Time> time;
};

// The marker events of one thread, as (time, key) in time order.
// Exits (value 0) of the marker types go to `exits` as (time, type).
// The event types read as markers.
std::vector<std::pair<uint32_t, uint32_t>> MarkerRanges(bool with_parallel, const IterationOptions& options) {
  if (options.marker) return {{options.marker->type, options.marker->type}};
  std::vector<std::pair<uint32_t, uint32_t>> ranges = MarkerTypes();
  if (with_parallel) ranges.push_back({kOmpParallelType, kOmpParallelType});
  return ranges;
}

// Whether every range of `need` lies within one of `have`.
bool Covers(const std::vector<std::pair<uint32_t, uint32_t>>& have,
            const std::vector<std::pair<uint32_t, uint32_t>>& need) {
  for (const auto& [lo, hi] : need) {
    bool in = false;
    for (const auto& [a, b] : have) in |= a <= lo && hi <= b;
    if (!in) return false;
  }
  return true;
}

// Adds one event of a wanted type to a unit's markers (its value) or their ends (0).
void AddMarker(Time time, uint32_t type, int64_t value, const IterationOptions& options,
               std::vector<std::pair<Time, SymbolKey>>* out, std::vector<std::pair<Time, uint32_t>>* exits) {
  if (value == 0) {
    exits->push_back({time, type});
    return;
  }
  if (options.marker && options.marker->value && *options.marker->value != value) return;
  SymbolKey key{1, type, value, 0};
  // User events and a marker given without a value: the type alone (values often count).
  if (type < kUserEventsBelow || (options.marker && !options.marker->value)) key.value = 0;
  out->push_back({time, key});
}

std::vector<std::pair<Time, SymbolKey>> ReadMarkers(const store::TraceStore& store, uint32_t thread,
                                                    bool with_parallel, const IterationOptions& options,
                                                    std::vector<std::pair<Time, uint32_t>>* exits) {
  std::vector<std::pair<Time, SymbolKey>> out;
  store::EventReader events(store, model::ThreadIndex(thread));
  const auto ranges = MarkerRanges(with_parallel, options);
  events.OnlyBlocksWith(ranges);
  const store::TypeScan wanted(ranges);
  while (events.Next()) {
    const store::EventColumns& ev = events.columns();
    wanted.ForEach(ev.type.data(), events.begin(), events.end(),
                   [&](size_t i) { AddMarker(ev.time[i], ev.type[i], ev.value[i], options, &out, exits); });
  }
  return out;
}

// The same from the events the call table's pass kept, when they cover the marker types.
std::vector<std::pair<Time, SymbolKey>> KeptMarkers(const calls::Rank& rank, const IterationOptions& options,
                                                    std::vector<std::pair<Time, uint32_t>>* exits) {
  std::vector<std::pair<Time, SymbolKey>> out;
  const store::TypeScan wanted(MarkerRanges(false, options));
  for (const calls::OtherEvent& e : rank.other)
    if (wanted.Contains(e.type)) AddMarker(e.time, e.type, e.value, options, &out, exits);
  return out;
}

double Median(std::vector<double> v) { return Quantile(std::move(v), 0.5); }

// The durations beyond which an iteration is far out (see the steady loop): in log space, 3
// interquartile ranges beyond the quartiles, but never within a factor 3 of the median m.
std::pair<double, double> FarOutFences(const std::vector<double>& d, double m) {
  std::vector<double> logs;
  logs.reserve(d.size());
  for (double x : d)
    if (x > 0) logs.push_back(std::log(x));
  if (logs.size() < 4) return {m / 3, m * 3};
  std::sort(logs.begin(), logs.end());
  const double q1 = logs[logs.size() / 4], q3 = logs[(3 * logs.size()) / 4], iqr = q3 - q1;
  return {std::min(m / 3, std::exp(q1 - 3 * iqr)), std::max(m * 3, std::exp(q3 + 3 * iqr))};
}

// The share of the variance of the durations `d` explained by their position modulo q (the
// between-position sum of squares over the total), over the first whole groups of q.
double ShareByPosition(const std::vector<double>& d, uint32_t q) {
  const size_t n = d.size() / q * q;
  if (n < 2 * static_cast<size_t>(q)) return 0;
  double mean = 0;
  for (size_t j = 0; j < n; ++j) mean += d[j];
  mean /= double(n);
  std::vector<double> pos(q, 0);
  double total = 0;
  for (size_t j = 0; j < n; ++j) {
    pos[j % q] += d[j];
    total += (d[j] - mean) * (d[j] - mean);
  }
  double between = 0;
  const double per = double(n / q);
  for (double sum : pos) between += per * (sum / per - mean) * (sum / per - mean);
  return total > 0 ? between / total : 0;
}

uint64_t Mix(uint64_t h, uint64_t x) {
  h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h;
}

// Whether `body` occurs in `symbols` at position `at`.
bool MatchesAt(const std::vector<uint32_t>& symbols, size_t at, const std::vector<uint32_t>& body) {
  if (at + body.size() > symbols.size()) return false;
  return std::equal(body.begin(), body.end(), symbols.begin() + static_cast<std::ptrdiff_t>(at));
}

struct Evaluation {
  Candidate c;
  uint32_t symbol = 0;
  bool by_durations = false;  // rejected for its durations only (spread, far from the median)
  double variation = 0;  // coefficient of variation of the steady durations
  IterationTimes steady;  // its steady iterations
  uint64_t startup = 0, teardown = 0;
};

// Per unit, the positions of each symbol in its sequence, grouped by symbol (symbol s's are
// [offset[s], offset[s + 1]) of `positions`, in order).
struct Positions {
  std::vector<uint32_t> offset, positions;
};

// How many times `symbol` occurs in every steady iteration of `a` on every unit: the same
// number everywhere, or 0.
uint64_t NestedTimes(const Evaluation& a, uint32_t symbol, const std::vector<Sequence>& seq,
                     const std::vector<Positions>& where) {
  uint64_t k = 0;
  for (size_t u = 0; u < seq.size(); ++u) {
    const auto first = where[u].positions.begin() + where[u].offset[symbol];
    const auto last = where[u].positions.begin() + where[u].offset[symbol + 1];
    auto from = [&](Time t) {  // the first occurrence at or after t
      return std::lower_bound(first, last, t, [&](uint32_t pos, Time v) { return seq[u].time[pos] < v; });
    };
    for (size_t j = 0; j < a.steady.count(); ++j) {
      const auto n = static_cast<uint64_t>(from(a.steady.End(j, u)) - from(a.steady.Begin(j, u)));
      if (n == 0 || (k != 0 && n != k)) return 0;
      k = n;
    }
  }
  return k;
}

}  // namespace

Time Iterations::SpanBegin(size_t i) const {
  Time t = UINT64_MAX;
  for (size_t u = 0; u < unit_threads.size(); ++u) t = std::min(t, Begin(i, u));
  return t;
}

Time Iterations::SpanEnd(size_t i) const {
  Time t = 0;
  for (size_t u = 0; u < unit_threads.size(); ++u) t = std::max(t, End(i, u));
  return t;
}

std::vector<std::pair<uint32_t, uint32_t>> MarkerTypes() {
  return {{1, kUserEventsBelow - 1}, {kUserFunctionType, kUserFunctionType}, {kUserFunctionType2, kUserFunctionType2}};
}

Iterations FindIterations(const model::TraceHeader& header, const store::TraceStore& store,
                          const model::PcfCatalog* pcf, const calls::CallTable& table,
                          const IterationOptions& options) {
  Iterations out;
  const bool mpi = !table.ranks.empty();
  if (mpi) {
    for (const calls::Rank& r : table.ranks) out.unit_threads.push_back(r.thread);
  } else {
    const model::ProcessModel& p = header.processes;
    for (uint32_t t = 0; t < p.threads() && t < store.threads(); ++t)
      if (p.thread(model::ThreadIndex(t)).number_in_task == 0) out.unit_threads.push_back(t);
  }
  const size_t units = out.unit_threads.size();
  if (units == 0) {
    out.why_none = "the trace has no thread";
    return out;
  }
  // The symbol sequences.
  std::vector<std::vector<std::pair<Time, SymbolKey>>> markers(units);
  std::vector<std::vector<std::pair<Time, uint32_t>>> exits(units);
  const bool kept = mpi && Covers(table.also_read, MarkerRanges(false, options));
  base::ParallelFor(units, options.worker_threads == 0 ? base::DefaultThreads() : options.worker_threads,
                    [&](size_t u) {
                      markers[u] = kept ? KeptMarkers(table.ranks[u], options, &exits[u])
                                        : ReadMarkers(store, out.unit_threads[u], !mpi, options, &exits[u]);
                    });
  struct KeyHash {
    size_t operator()(const SymbolKey& k) const {
      return Mix(Mix(Mix(k.kind, k.type), static_cast<uint64_t>(k.value)), static_cast<uint64_t>(k.communicator));
    }
  };
  std::unordered_map<SymbolKey, uint32_t, KeyHash> ids;
  std::vector<SymbolKey> keys;
  auto id_of = [&](const SymbolKey& k) {
    auto [it, added] = ids.try_emplace(k, static_cast<uint32_t>(keys.size()));
    if (added) keys.push_back(k);
    return it->second;
  };
  // Consecutive symbols repeat a few keys: a small direct-mapped cache before the map.
  struct Cached {
    SymbolKey key;
    uint32_t id = UINT32_MAX;
  };
  std::array<Cached, 32> recent{};
  auto cached_id_of = [&](const SymbolKey& k) {
    Cached& c = recent[KeyHash()(k) & (recent.size() - 1)];
    if (c.id == UINT32_MAX || !(c.key == k)) c = {k, id_of(k)};
    return c.id;
  };
  std::vector<Sequence> seq(units);
  for (size_t u = 0; u < units; ++u) {
    std::vector<std::pair<Time, SymbolKey>> all = std::move(markers[u]);
    // Markers in the store's time order, then calls by entry: a merge of the two sequences,
    // markers first among equal times (a stable sort of the two would give the same).
    auto by_time = [](const auto& a, const auto& b) { return a.first < b.first; };
    if (!std::is_sorted(all.begin(), all.end(), by_time)) std::stable_sort(all.begin(), all.end(), by_time);
    Sequence& out_seq = seq[u];
    auto push = [&](Time t, const SymbolKey& k) {
      out_seq.symbol.push_back(cached_id_of(k));
      out_seq.time.push_back(t);
    };
    size_t m = 0;
    if (mpi && !options.marker) {
      const std::vector<calls::Call>& rank_calls = table.ranks[u].calls;
      std::vector<uint32_t> order;  // the calls by entry, when they are not in that order
      auto by_entry = [](const calls::Call& a, const calls::Call& b) { return a.entry < b.entry; };
      if (!std::is_sorted(rank_calls.begin(), rank_calls.end(), by_entry)) {
        order.resize(rank_calls.size());
        for (uint32_t k = 0; k < order.size(); ++k) order[k] = k;
        std::stable_sort(order.begin(), order.end(),
                         [&](uint32_t a, uint32_t b) { return rank_calls[a].entry < rank_calls[b].entry; });
      }
      out_seq.symbol.reserve(all.size() + rank_calls.size());
      out_seq.time.reserve(all.size() + rank_calls.size());
      for (size_t k = 0; k < rank_calls.size(); ++k) {
        const calls::Call& c = order.empty() ? rank_calls[k] : rank_calls[order[k]];
        for (; m < all.size() && all[m].first <= c.entry; ++m) push(all[m].first, all[m].second);
        push(c.entry, SymbolKey{0, c.type, c.value, calls::IsCollective(c.op) ? c.communicator : 0});
      }
    }
    for (; m < all.size(); ++m) push(all[m].first, all[m].second);
  }
  // The run: from the first symbol to the last, but from the end of MPI_Init to the start of
  // MPI_Finalize on a rank that calls them (their own time, often long in a short run, is the
  // MPI library's, not the program's).
  Time run_begin = UINT64_MAX, run_end = 0;
  for (size_t u = 0; u < units; ++u) {
    const Sequence& s = seq[u];
    if (s.time.empty()) continue;
    Time b = s.time.front(), e = s.time.back();
    if (mpi)
      for (const calls::Call& c : table.ranks[u].calls) {
        if (c.op == calls::Op::kInit) b = std::max(b, c.exit);
        if (c.op == calls::Op::kFinalize) e = std::min(e, c.entry);
      }
    run_begin = std::min(run_begin, b);
    run_end = std::max(run_end, std::max(b, e));
  }
  out.run_begin = run_begin == UINT64_MAX ? 0 : run_begin;
  out.run_end = run_end;
  // Counts per symbol per unit.
  const size_t nsym = keys.size();
  std::vector<std::vector<uint64_t>> count(units, std::vector<uint64_t>(nsym, 0));
  for (size_t u = 0; u < units; ++u)
    for (uint32_t s : seq[u].symbol) ++count[u][s];
  // Per unit, the positions of each symbol: one pass instead of one per candidate.
  std::vector<Positions> where(units);
  for (size_t u = 0; u < units; ++u) {
    Positions& w = where[u];
    w.offset.assign(nsym + 1, 0);
    for (size_t s = 0; s < nsym; ++s) w.offset[s + 1] = w.offset[s] + static_cast<uint32_t>(count[u][s]);
    w.positions.resize(seq[u].symbol.size());
    std::vector<uint32_t> next(w.offset.begin(), w.offset.end() - 1);
    for (size_t i = 0; i < seq[u].symbol.size(); ++i) w.positions[next[seq[u].symbol[i]]++] = static_cast<uint32_t>(i);
  }
  auto name_of = [&](const SymbolKey& k) -> std::string {
    if (k.kind == 0) {
      calls::Call c;
      c.type = k.type;
      c.value = k.value;
      std::string n = calls::CallName(pcf, c);
      if (k.communicator != 0 && k.communicator != calls::kWorldCommunicator)
        n += fmt::format(" (communicator {})", k.communicator);
      return n;
    }
    const std::string* type_label = pcf != nullptr ? pcf->EventTypeLabel(k.type) : nullptr;
    std::string n = type_label != nullptr ? *type_label : fmt::format("event {}", k.type);
    if (k.value != 0) {
      const std::string* v = pcf != nullptr ? pcf->EventValueLabel(k.type, k.value) : nullptr;
      n += " " + (v != nullptr ? *v : std::to_string(k.value));
    }
    return n;
  };

  std::vector<Evaluation> evaluations;
  for (uint32_t s = 0; s < nsym; ++s) {
    Evaluation e;
    e.symbol = s;
    e.c.name = name_of(keys[s]);
    e.c.marker = keys[s].kind == 1;
    const uint64_t c0 = count[0][s];
    e.c.occurrences = c0;
    bool equal = true;
    for (size_t u = 1; u < units; ++u) equal &= count[u][s] == c0;
    if (c0 < kMinOccurrences) {
      if (c0 >= 2) {
        e.c.rejected = fmt::format("occurs {} times", c0);
        evaluations.push_back(std::move(e));
      }
      continue;
    }
    if (!equal) {
      e.c.rejected = "occurs a different number of times on different ranks";
      evaluations.push_back(std::move(e));
      continue;
    }
    // Occurrences per unit, and the signatures of unit 0's intervals (the calls between two).
    std::vector<const uint32_t*> at(units);
    for (size_t u = 0; u < units; ++u) at[u] = where[u].positions.data() + where[u].offset[s];
    std::vector<uint64_t> sig(c0 - 1);
    for (size_t j = 0; j + 1 < c0; ++j) {
      uint64_t h = 1469598103934665603ULL;
      for (size_t i = at[0][j] + 1; i < at[0][j + 1]; ++i) h = Mix(h, seq[0].symbol[i]);
      sig[j] = h;
    }
    auto match = [&](uint32_t q) {
      if (sig.size() <= q) return 0.0;
      size_t same = 0;
      for (size_t j = 0; j + q < sig.size(); ++j) same += sig[j] == sig[j + q];
      return double(same) / double(sig.size() - q);
    };
    // Iterations of q intervals each: their durations, the steady loop and the measures.
    // The durations of iterations of q intervals each, over all units.
    // Unit by unit: each unit's times are read in order (iteration by iteration, the reads
    // would jump between every unit's sequence).
    auto durations = [&](uint32_t q) {
      const size_t n = (c0 - 1) / q;
      std::vector<Time> lo(n, UINT64_MAX), hi(n, 0);
      for (size_t u = 0; u < units; ++u) {
        const Time* time = seq[u].time.data();
        const uint32_t* pos = at[u];
        for (size_t j = 0; j < n; ++j) {
          lo[j] = std::min(lo[j], time[pos[j * q]]);
          hi[j] = std::max(hi[j], time[pos[(j + 1) * q]]);
        }
      }
      std::vector<double> d(n);
      for (size_t j = 0; j < n; ++j) d[j] = double(hi[j] - lo[j]);
      return d;
    };
    auto evaluate = [&](uint32_t q, const std::vector<double>& d, Evaluation& ev) {
      ev.c.group = q;
      const size_t n = (c0 - 1) / q;
      ev.c.iterations = n;
      const double m = Median(d);
      // The steady loop: from the first to the last iteration whose duration is not far out
      // (slower or faster ones between them are iterations too); those before are start-up,
      // after tear-down. Far out: beyond 3 interquartile ranges of the log durations from the
      // quartiles, and at least a factor 3 from the median (iterations that legitimately vary
      // by more than that are not start-up).
      const auto [lo, hi] = FarOutFences(d, m);
      size_t first = n, last = 0;
      for (size_t j = 0; j < n; ++j)
        if (d[j] >= lo && d[j] <= hi) {
          first = std::min(first, j);
          last = j;
        }
      const size_t len = first < n ? last - first + 1 : 0;
      ev.c.steady = len;
      if (len < kMinSteady || !(m > 0)) {
        ev.c.rejected = fmt::format("fewer than {} regular iterations in a row", kMinSteady);
        return;
      }
      std::vector<double> steady(d.begin() + static_cast<std::ptrdiff_t>(first),
                                 d.begin() + static_cast<std::ptrdiff_t>(first + len));
      const double ms = Median(steady);
      std::vector<double> dev(steady.size());
      for (size_t j = 0; j < steady.size(); ++j) dev[j] = std::fabs(steady[j] - ms);
      ev.c.spread = ms > 0 ? Median(dev) / ms : 1;
      ev.variation = Variation(steady);
      Time span_lo = UINT64_MAX, span_hi = 0;
      for (size_t u = 0; u < units; ++u) {
        span_lo = std::min(span_lo, seq[u].time[at[u][first * q]]);
        span_hi = std::max(span_hi, seq[u].time[at[u][(first + len) * q]]);
      }
      ev.c.coverage = run_end > out.run_begin ? double(span_hi - span_lo) / double(run_end - out.run_begin) : 0;
      // Consistency: on unit 0, the set of symbols at least as frequent as the anchor in each
      // steady iteration; the share of iterations with the commonest set.
      std::map<uint64_t, size_t> sets;
      std::vector<uint32_t> present;
      for (size_t j = first; j < first + len; ++j) {
        present.clear();
        for (size_t i = at[0][j * q]; i < at[0][(j + 1) * q]; ++i)
          if (count[0][seq[0].symbol[i]] >= c0) present.push_back(seq[0].symbol[i]);
        std::sort(present.begin(), present.end());
        present.erase(std::unique(present.begin(), present.end()), present.end());
        uint64_t h = 1469598103934665603ULL;
        for (uint32_t p : present) h = Mix(h, p);
        ++sets[h];
      }
      size_t common = 0;
      for (const auto& [h, k] : sets) common = std::max(common, k);
      ev.c.consistency = double(common) / double(len);
      double typical = 0, all_time = 0;
      for (double x : steady) {
        all_time += x;
        if (x >= m / 3 && x <= m * 3) typical += x;
      }
      ev.by_durations = (all_time > 0 && typical < 0.5 * all_time) || ev.c.spread > kMaxSpread;
      if (all_time > 0 && typical < 0.5 * all_time)
        ev.c.rejected = fmt::format("most of the loop's time ({:.0f}%) is in iterations far from the median",
                                    100 * (1 - typical / all_time));
      else if (ev.c.spread > kMaxSpread)
        ev.c.rejected = fmt::format("iteration durations too spread (deviation {:.0f}% of the median)", 100 * ev.c.spread);
      else if (ev.c.coverage < kMinCoverage)
        ev.c.rejected = fmt::format("its iterations cover only {:.0f}% of the run", 100 * ev.c.coverage);
      ev.steady.begins.resize(len * units);
      for (size_t u = 0; u < units; ++u)
        for (size_t j = 0; j < len; ++j) ev.steady.begins[j * units + u] = seq[u].time[at[u][(first + j) * q]];
      ev.steady.last_end.resize(units);
      for (size_t u = 0; u < units; ++u) ev.steady.last_end[u] = seq[u].time[at[u][(first + len) * q]];
      ev.startup = first;
      ev.teardown = n - first - len;
    };
    // Single intervals are iterations unless their durations are irregular (not qualifying,
    // or varying by more than 30%) while groups of q whose calls repeat (90%, where single
    // intervals' do not) qualify and vary less than half as much, and the intervals' durations
    // depend on their position in the group: a call made q times per iteration. A checkpoint
    // every few steps keeps single steps: their durations are regular, or vary as much at every
    // position (noise, which grouping would only average out).
    Evaluation single = e;
    const std::vector<double> single_d = durations(1);
    evaluate(1, single_d, single);
    if (match(1) < 0.9 && (!single.c.rejected.empty() || single.variation > 0.3))
      for (uint32_t g = 2; g <= kMaxGroup && (c0 - 1) / g >= kMinSteady; ++g) {
        if (match(g) < 0.9 || ShareByPosition(single_d, g) < kMinPositionShare) continue;
        Evaluation grouped = e;
        evaluate(g, durations(g), grouped);
        if (grouped.c.rejected.empty() && (!single.c.rejected.empty() || grouped.variation < single.variation / 2)) {
          single = std::move(grouped);
          break;
        }
      }
    e = std::move(single);
    const uint32_t q = e.c.group;
    if (e.c.steady < kMinSteady) {
      evaluations.push_back(std::move(e));
      continue;
    }
    const size_t n = e.c.iterations;
    // The symbols of the commonest single interval (unit 0), for the iterations at the ends.
    std::vector<uint32_t> common_body;
    if (q == 1 && !sig.empty()) {
      std::map<uint64_t, size_t> freq;
      for (uint64_t h : sig) ++freq[h];
      uint64_t top = sig[0];
      size_t top_n = 0;
      for (size_t j = 0; j < sig.size(); ++j)
        if (freq[sig[j]] > top_n) {
          top_n = freq[sig[j]];
          top = sig[j];
        }
      for (size_t j = 0; j < sig.size(); ++j)
        if (sig[j] == top) {
          common_body.assign(seq[0].symbol.begin() + static_cast<std::ptrdiff_t>(at[0][j] + 1),
                             seq[0].symbol.begin() + static_cast<std::ptrdiff_t>(at[0][j + 1]));
          break;
        }
    }
    // An iteration after the last occurrence: a region marker's exit ends it; otherwise it
    // counts when the calls that follow are those of the commonest iteration (likewise one
    // before the first occurrence).
    if (e.teardown == 0 && n * q + 1 == c0) {
      std::vector<Time> ends(units, 0);
      bool all = true;
      for (size_t u = 0; u < units && all; ++u) {
        const size_t last = at[u][c0 - 1];
        const Time t = seq[u].time[last];
        const auto& ex = exits[u];
        auto it = std::lower_bound(ex.begin(), ex.end(), std::pair<Time, uint32_t>{t + 1, 0});
        while (it != ex.end() && it->second != keys[s].type) ++it;
        if (e.c.marker && it != ex.end()) {
          ends[u] = it->first;
          continue;
        }
        all = !common_body.empty() && MatchesAt(seq[u].symbol, last + 1, common_body);
        if (all) {
          const size_t after = last + 1 + common_body.size();
          ends[u] = after < seq[u].time.size() ? seq[u].time[after] : seq[u].time[after - 1];
        }
      }
      if (all) {
        e.steady.begins.insert(e.steady.begins.end(), e.steady.last_end.begin(), e.steady.last_end.end());
        e.steady.last_end = ends;
      }
    }
    if (e.startup == 0 && !common_body.empty()) {
      std::vector<Time> begins(units, 0);
      bool all = true;
      for (size_t u = 0; u < units && all; ++u) {
        const size_t first = at[u][0];
        all = first >= common_body.size() && MatchesAt(seq[u].symbol, first - common_body.size(), common_body);
        if (all) begins[u] = seq[u].time[first - common_body.size()];
      }
      if (all) e.steady.begins.insert(e.steady.begins.begin(), begins.begin(), begins.end());
    }
    evaluations.push_back(std::move(e));
  }
  // A loop nested in a qualifying one: a candidate rejected for its durations alone, whose
  // iterations hold the same calls, occurring the same number k >= 2 of times in every
  // iteration of a qualifying candidate on every rank, is a finer loop with a strict period
  // whose steps vary with the machine's noise (time steps with a checkpoint every k steps, on
  // a loaded machine): the coarse loop's regularity vouches for it.
  for (Evaluation& b : evaluations) {
    if (!b.by_durations || b.c.consistency < 0.9 || b.c.coverage < kMinCoverage) continue;
    for (const Evaluation& a : evaluations) {
      if (!a.c.rejected.empty() || a.steady.count() == 0) continue;
      const uint64_t k = NestedTimes(a, b.symbol, seq, where);
      if (k < 2) continue;
      b.c.rejected.clear();
      b.c.nested_in = a.c.name;
      break;
    }
  }
  // The best: qualified first, markers first, then consistency (by tenths), then iterations.
  auto better = [](const Evaluation& a, const Evaluation& b) {
    const bool qa = a.c.rejected.empty(), qb = b.c.rejected.empty();
    if (qa != qb) return qa;
    if (a.c.marker != b.c.marker) return a.c.marker;
    const int ca = static_cast<int>(std::floor(a.c.consistency * 10 + 1e-9));
    const int cb = static_cast<int>(std::floor(b.c.consistency * 10 + 1e-9));
    if (ca != cb) return ca > cb;
    // More iterations, those found at the ends included.
    if (a.steady.count() != b.steady.count()) return a.steady.count() > b.steady.count();
    if (a.c.spread != b.c.spread) return a.c.spread < b.c.spread;
    return a.c.occurrences > b.c.occurrences;
  };
  std::stable_sort(evaluations.begin(), evaluations.end(), better);
  for (const Evaluation& e : evaluations) out.tried.push_back(e.c);
  if (evaluations.empty() || !evaluations.front().c.rejected.empty()) {
    out.why_none = evaluations.empty()
                       ? (options.marker ? "the marker does not occur on every rank at least 4 times"
                                         : "no MPI call or marker event occurs at least 4 times on every rank")
                       : "no MPI call or marker event repeats regularly on every rank";
    return out;
  }
  Evaluation& best = evaluations.front();
  out.found = true;
  out.anchor = best.c;
  static_cast<IterationTimes&>(out) = std::move(best.steady);
  out.startup_iterations = best.startup;
  out.teardown_iterations = best.teardown;
  out.startup_end = out.SpanBegin(0);
  out.teardown_begin = out.SpanEnd(out.count() - 1);
  out.confidence = std::clamp(best.c.consistency * (1 - std::min(1.0, best.c.spread)) * std::sqrt(best.c.coverage), 0.0, 1.0);
  return out;
}

}  // namespace parallax::structure
