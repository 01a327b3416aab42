// parallax::CompareRuns: two loaded traces' units (iterations and phases from their structure,
// MPI calls and ranks from their call tables) aligned by src/compare, with the POP factors of
// both side by side.

#include "include/parallax/compare.h"

#include <fmt/format.h>

#include <cmath>
#include <set>

#include "include/parallax/pop.h"
#include "include/parallax/structure.h"
#include "src/calls/call_table.h"
#include "src/compare/align.h"
#include "src/compare/profile.h"
#include "src/session/trace_impl.h"

namespace parallax {

namespace {

using compare::Unit;

struct Run {
  const session::TraceImpl* impl = nullptr;
  std::string name;  // "A" or "B"
  double unit = 1;   // seconds per trace unit
};

std::string Ranks(size_t n) { return fmt::format("{} rank{}", n, n == 1 ? "" : "s"); }

Status CannotAlign(const std::string& what, const std::string& hint) {
  return Status::Error("cannot compare: " + what, {}, hint);
}

// Iterations or phases of a run, from its structure.
Result<std::vector<Unit>> StructureUnits(const Run& run, const ProgramStructure& s, CompareBy by) {
  std::vector<Unit> out;
  const IterationsInfo& it = s.iterations;
  if (!it.found)
    return CannotAlign(fmt::format("{} ({}) has no iterations: {}", run.name, run.impl->path(), it.why_none),
                       "compare --by call or --by rank, which need no loop");
  if (by == CompareBy::kIteration) {
    for (size_t i = 0; i < it.items.size(); ++i) {
      Unit u{std::to_string(i + 1), it.items[i].end_s - it.items[i].begin_s, {}};
      for (size_t r = 0; r < it.items[i].begin_by_rank.size(); ++r)
        u.by_rank.push_back(double(it.items[i].end_by_rank[r] - it.items[i].begin_by_rank[r]) * run.unit);
      out.push_back(std::move(u));
    }
    return out;
  }
  for (const StructurePhase& p : s.phases)
    out.push_back({fmt::format("{}: {} -> {}", p.position, p.after_call,
                               p.before_call.empty() ? "(next iteration)" : p.before_call),
                   p.mean_s, p.mean_by_rank_s});
  return out;
}

// MPI calls (and computation) or ranks of a run, from its call table.
std::vector<Unit> CallUnits(const Run& run, const calls::CallTable& table, CompareBy by) {
  const compare::CallProfile p = compare::ProfileCalls(table, run.impl->pcf());
  std::vector<Unit> out;
  const double ranks = double(std::max<size_t>(1, table.ranks.size()));
  auto seconds = [&](const std::vector<model::Time>& v) {
    std::vector<double> s;
    for (model::Time t : v) s.push_back(double(t) * run.unit);
    return s;
  };
  auto mean = [&](const std::vector<double>& v) {
    double sum = 0;
    for (double x : v) sum += x;
    return sum / ranks;
  };
  if (by == CompareBy::kCall) {
    std::vector<double> c = seconds(p.computation);
    out.push_back({"computation", mean(c), c});
    for (const auto& [name, v] : p.by_call) {
      std::vector<double> s = seconds(v);
      out.push_back({name, mean(s), s});
    }
    return out;
  }
  const model::ProcessModel& pm = run.impl->header().processes;
  for (size_t r = 0; r < table.ranks.size(); ++r) {
    const std::string label = model::DefaultTaskLabel(pm, model::TaskIndex(table.ranks[r].task));
    out.push_back({label + " computation", double(p.computation[r]) * run.unit, {}});
    out.push_back({label + " MPI", double(p.mpi[r]) * run.unit, {}});
  }
  return out;
}

Result<CompareReport> Compare(const Run& a, const Run& b, const CompareOptions& options) {
  CompareReport r;
  r.a = a.impl->path();
  r.b = b.impl->path();
  r.by = CompareByName(options.by);
  std::vector<Unit> ua, ub;
  if (options.by == CompareBy::kIteration || options.by == CompareBy::kPhase) {
    auto sa = AnalyzeStructure(*a.impl), sb = AnalyzeStructure(*b.impl);
    if (!sa.ok()) return sa.status();
    if (!sb.ok()) return sb.status();
    auto xa = StructureUnits(a, sa.value(), options.by);
    if (!xa.ok()) return xa.status();
    auto xb = StructureUnits(b, sb.value(), options.by);
    if (!xb.ok()) return xb.status();
    const IterationsInfo &ia = sa.value().iterations, &ib = sb.value().iterations;
    if (ia.anchor != ib.anchor)
      return CannotAlign(fmt::format("A's iterations are found by {}, B's by {}: not the same loop", ia.anchor, ib.anchor),
                         "compare --by call, or give both runs the same iteration marker");
    if (options.by == CompareBy::kPhase && sa.value().calls_per_iteration != sb.value().calls_per_iteration)
      return CannotAlign(fmt::format("an iteration makes {} MPI calls in A and {} in B: its phases do not match",
                                     sa.value().calls_per_iteration, sb.value().calls_per_iteration),
                         "compare --by iteration or --by call");
    ua = std::move(xa).value();
    ub = std::move(xb).value();
    r.alignment = fmt::format("{} by position: iterations found by {} in both ({} in A, {} in B)",
                              options.by == CompareBy::kIteration ? "iterations" : "phases of an iteration",
                              ia.anchor, ia.count, ib.count);
    if (ia.count != ib.count)
      r.notes.push_back(fmt::format("A has {} iterations and B {}: the extra ones are in one run only", ia.count, ib.count));
  } else {
    calls::CallTable own_a, own_b;
    const calls::CallTable& ta = a.impl->CallTable(&own_a);
    const calls::CallTable& tb = b.impl->CallTable(&own_b);
    if (ta.ranks.empty() || tb.ranks.empty())
      return CannotAlign(fmt::format("{} has no MPI call events", ta.ranks.empty() ? "A" : "B"),
                         "compare --by iteration (from markers) instead");
    if (options.by == CompareBy::kRank && ta.ranks.size() != tb.ranks.size())
      return CannotAlign(fmt::format("A has {} ranks and B {}: ranks do not match one to one", ta.ranks.size(),
                                     tb.ranks.size()),
                         "compare --by iteration, --by phase or --by call, which compare per-rank statistics");
    ua = CallUnits(a, ta, options.by);
    ub = CallUnits(b, tb, options.by);
    if (options.by == CompareBy::kCall) {
      // The calls both runs make must hold most of each run's MPI time: setup calls every
      // program makes (MPI_Comm_rank) do not make two programs comparable.
      std::set<std::string> names_a, names_b;
      for (const Unit& u : ua) names_a.insert(u.key);
      for (const Unit& u : ub) names_b.insert(u.key);
      auto common_share = [](const std::vector<Unit>& units, const std::set<std::string>& other) {
        double all = 0, common = 0;
        for (const Unit& u : units) {
          if (u.key == "computation") continue;
          all += u.value;
          if (other.count(u.key)) common += u.value;
        }
        return all > 0 ? common / all : 1.0;
      };
      const double share_a = common_share(ua, names_b), share_b = common_share(ub, names_a);
      if (share_a < 0.5 || share_b < 0.5)
        return CannotAlign(fmt::format("the MPI calls both runs make hold only {:.0f}% of A's MPI time and {:.0f}% of "
                                       "B's: they look like different programs",
                                       100 * share_a, 100 * share_b),
                           "compare two runs of the same program");
      r.alignment = fmt::format("MPI calls by name, mean time per rank ({} in A, {} in B)", Ranks(ta.ranks.size()),
                                Ranks(tb.ranks.size()));
    } else {
      r.alignment = fmt::format("ranks by position ({} in both)", ta.ranks.size());
    }
  }
  for (const Unit& u : ua) r.a_total_s += u.value;
  for (const Unit& u : ub) r.b_total_s += u.value;
  for (const compare::Row& x : compare::Align(ua, ub)) {
    CompareRow row;
    row.by = r.by;
    row.unit = x.key;
    if (x.in_a) row.a_s = x.a;
    if (x.in_b) row.b_s = x.b;
    row.diff_s = x.diff;
    if (!std::isnan(x.ratio)) row.ratio = x.ratio;
    row.a_ranks = {x.a_ranks.mean, x.a_ranks.max, x.a_ranks.imbalance, x.a_ranks.ranks};
    row.b_ranks = {x.b_ranks.mean, x.b_ranks.max, x.b_ranks.imbalance, x.b_ranks.ranks};
    r.rows.push_back(std::move(row));
  }
  return r;
}

}  // namespace

const char* CompareByName(CompareBy by) {
  switch (by) {
    case CompareBy::kAuto:
      return "auto";
    case CompareBy::kIteration:
      return "iteration";
    case CompareBy::kPhase:
      return "phase";
    case CompareBy::kCall:
      return "call";
    case CompareBy::kRank:
      return "rank";
  }
  return "iteration";
}

std::optional<CompareBy> ParseCompareBy(const std::string& name) {
  for (CompareBy by : {CompareBy::kAuto, CompareBy::kIteration, CompareBy::kPhase, CompareBy::kCall, CompareBy::kRank})
    if (name == CompareByName(by)) return by;
  return std::nullopt;
}

Result<CompareReport> CompareRuns(const Trace& a, const Trace& b, const CompareOptions& options) {
  const auto* ia = dynamic_cast<const session::TraceImpl*>(&a);
  const auto* ib = dynamic_cast<const session::TraceImpl*>(&b);
  if (ia == nullptr || ib == nullptr) return Status::Error("compare: the traces were not opened by parallax::Trace::Open");
  const Run ra{ia, "A", model::ConvertTime(1, ia->header().unit, model::TimeUnit::kS)};
  const Run rb{ib, "B", model::ConvertTime(1, ib->header().unit, model::TimeUnit::kS)};
  auto report = session::GuardedOn(a, ia->path(), [&]() -> Result<CompareReport> {
    return session::GuardedOn(b, ib->path(), [&]() -> Result<CompareReport> {
      if (options.by != CompareBy::kAuto) return Compare(ra, rb, options);
      CompareOptions by_iteration = options;
      by_iteration.by = CompareBy::kIteration;
      auto r = Compare(ra, rb, by_iteration);
      if (r.ok()) return r;
      CompareOptions by_call = options;
      by_call.by = CompareBy::kCall;
      auto c = Compare(ra, rb, by_call);
      std::string why = r.status().message();
      if (why.rfind("cannot compare: ", 0) == 0) why = why.substr(16);
      if (c.ok()) c.value().notes.insert(c.value().notes.begin(), "compared by MPI call, not by iteration: " + why);
      return c;
    });
  });
  if (!report.ok() || !options.pop) return report;
  // The POP factors of both: the series' table, whose columns are the two runs.
  auto pop = ComputePop({ia->path(), ib->path()});
  if (!pop.ok()) {
    report.value().notes.push_back("POP factors unavailable: " + pop.status().message());
    return report;
  }
  auto add = [&](const PopLine& line) {
    CompareFactor f{line.key, line.name, {}, {}, {}};
    if (line.values.size() == 2 && !std::isnan(line.values[0])) f.a = line.values[0];
    if (line.values.size() == 2 && !std::isnan(line.values[1])) f.b = line.values[1];
    if (f.a && f.b) f.diff = *f.b - *f.a;
    report.value().pop.push_back(std::move(f));
  };
  for (const PopLine& line : pop.value().factors) add(line);
  for (const PopLine& line : pop.value().raw) add(line);
  return report;
}

}  // namespace parallax
