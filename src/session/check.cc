// parallax::RunChecks (include/parallax/check.h): the assertions parsed by src/check, their
// metrics computed on demand from the trace (POP, diagnosis, structure, a cfg's histograms),
// each once, and the results as text, JSON and JUnit XML.

#include "include/parallax/check.h"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <pugixml.hpp>

#include "include/parallax/diagnose.h"
#include "include/parallax/pop.h"
#include "include/parallax/structure.h"
#include "src/base/regular_file.h"
#include "src/check/expression.h"
#include "src/session/trace_impl.h"

namespace parallax {

namespace {

// pop.* lines that are percentages in the POP table: fractions here (0.85 is 85%).
const char* const kPopFactors[] = {"parallel_efficiency",     "load_balance",           "communication_efficiency",
                                   "serialization_efficiency", "transfer_efficiency",    "computation_scalability",
                                   "global_efficiency",        "ipc_scalability",        "instruction_scalability",
                                   "frequency_scalability"};
const char* const kPatterns[] = {"late_sender",    "late_receiver", "wait_at_barrier", "wait_at_nxn",
                                 "late_broadcast", "early_reduce",  "wait_at_finalize"};

std::vector<CheckMetric> BuildCatalogue() {
  std::vector<CheckMetric> m = {
      {"trace.duration_s", "s", "the trace's end time"},
      {"trace.ranks", "count", "tasks (MPI ranks)"},
      {"trace.threads", "count", "threads of all tasks"},
      {"trace.records", "count", "states, event pairs and communications"},
  };
  for (const char* f : kPopFactors)
    m.push_back({fmt::format("pop.{}", f), "fraction", "POP factor (parallax pop), 0.85 is 85%"});
  m.push_back({"pop.speedup", "ratio", "POP speedup (1 for one trace)"});
  m.push_back({"pop.average_ipc", "IPC", "useful instructions per useful cycle (needs counters)"});
  m.push_back({"pop.average_frequency_ghz", "GHz", "useful cycles per useful time (needs counters)"});
  for (const char* r : {"runtime_us", "runtime_ideal_us", "useful_average_us", "useful_maximum_us", "useful_total_us",
                        "useful_ideal_maximum_us"})
    m.push_back({fmt::format("pop.{}", r), "us", "POP raw value, as modelfactors' # line"});
  m.push_back({"pop.useful_instructions", "count", "POP raw value (needs counters)"});
  m.push_back({"pop.useful_cycles", "count", "POP raw value (needs counters)"});
  m.push_back({"diagnose.wait_s", "s", "time in wait states, summed over ranks (parallax diagnose)"});
  m.push_back({"diagnose.wait_share", "fraction", "wait_s over the ranks' time (ranks x the range)"});
  m.push_back({"diagnose.mpi_s", "s", "time in MPI calls, summed over ranks"});
  for (const char* p : kPatterns) {
    m.push_back({fmt::format("diagnose.{}_s", p), "s", "time in this wait state, summed over ranks"});
    m.push_back({fmt::format("diagnose.{}_count", p), "count", "instances of this wait state"});
  }
  m.push_back({"diagnose.critical_path_s", "s", "length of the critical path"});
  m.push_back({"diagnose.root_cause_s", "s", "the largest long-term cost of one rank's activity"});
  m.push_back({"structure.iterations", "count", "iterations of the main loop (parallax structure)"});
  m.push_back({"structure.iteration_s", "s", "median iteration time"});
  m.push_back({"structure.iteration_mean_s", "s", "mean iteration time"});
  m.push_back({"structure.iteration_min_s", "s", "shortest iteration"});
  m.push_back({"structure.iteration_max_s", "s", "longest iteration"});
  m.push_back({"structure.iteration_variation", "fraction",
               "the largest coefficient of variation of a rank's iteration times"});
  m.push_back({"structure.loop_s", "s", "from the first iteration's begin to the last one's end"});
  m.push_back({"structure.startup_s", "s", "before the loop"});
  m.push_back({"structure.teardown_s", "s", "after the loop"});
  m.push_back({"structure.phases", "count", "phases of an iteration"});
  m.push_back({"structure.clusters", "count", "burst clusters"});
  return m;
}

check::Names CatalogueNames() {
  check::Names n;
  n.known = [](const std::string& name) {
    for (const CheckMetric& m : CheckMetrics())
      if (m.name == name) return true;
    return false;
  };
  n.hint = [](const std::string& name) {
    const std::string ns = name.substr(0, name.find('.') + 1);
    std::string same;
    for (const CheckMetric& m : CheckMetrics())
      if (!ns.empty() && m.name.rfind(ns, 0) == 0) same += (same.empty() ? "" : ", ") + m.name;
    if (!same.empty() && name.find('.') != std::string::npos) return "the " + ns.substr(0, ns.size() - 1) + " metrics: " + same;
    return std::string("metrics: trace.*, pop.*, diagnose.*, structure.* (parallax check --list names them all); "
                       "functions: hist(\"CFG\", \"COLUMN\", \"STATISTIC\"), cell(\"CFG\", \"ROW\", \"COLUMN\"), "
                       "baseline(EXPR), abs, min, max");
  };
  return n;
}

std::string Dir(const std::string& file) {
  if (file.empty()) return {};
  return std::filesystem::path(file).parent_path().string();
}

// The metrics of one trace, each computed when first read.
class TraceMetrics {
 public:
  TraceMetrics(const session::TraceImpl& t, const Distribution* dist) : t_(t), dist_(dist) {}

  Result<double> Metric(const std::string& name) {
    const size_t dot = name.find('.');
    const std::string ns = name.substr(0, dot), key = name.substr(dot + 1);
    if (ns == "trace") return TraceMetric(key);
    if (ns == "pop") return Pop(key);
    if (ns == "diagnose") return Diagnosis(key);
    if (ns == "structure") return Structure(key);
    return Status::Error(fmt::format("unknown metric '{}'", name));
  }

  // A hist()/cell() cfg argument: CFG#NAME names one of the cfg's histograms, unless the whole
  // text is a file's name; relative to the assertion file's folder.
  static std::pair<std::string, std::string> CfgOf(const std::string& arg, const std::string& base_dir) {
    std::string cfg = arg, name;
    auto resolve = [&](const std::string& p) {
      std::filesystem::path path(p);
      if (path.is_relative() && !base_dir.empty()) path = std::filesystem::path(base_dir) / path;
      return path.string();
    };
    std::error_code ec;
    if (const size_t hash = cfg.rfind('#'); hash != std::string::npos && !std::filesystem::exists(resolve(cfg), ec)) {
      name = cfg.substr(hash + 1);
      cfg.resize(hash);
    }
    return {resolve(cfg), name};
  }

  // Computes what the processes of a distributed run compute together, in the order given.
  void Prepare(bool pop, const std::set<std::string>& cfgs) {
    if (pop) (void)Pop("parallel_efficiency");
    for (const std::string& cfg : cfgs) (void)Tables(cfg);
  }

  const Result<std::vector<AnalyzeTable>>& Tables(const std::string& key) {
    auto it = tables_.find(key);
    if (it == tables_.end()) {
      AnalyzeRequest req;
      req.cfg_path = key;
      req.distribution = dist_;
      it = tables_.emplace(key, Analyze(t_, req)).first;
    }
    return it->second;
  }

  Result<double> Histogram(const std::vector<std::string>& args, bool cell, const std::string& base_dir) {
    const auto [key, name] = CfgOf(args[0], base_dir);
    const std::string cfg = args[0];
    const Result<std::vector<AnalyzeTable>>& all = Tables(key);
    if (!all.ok()) return all.status();
    const std::vector<AnalyzeTable>& tables = all.value();
    const AnalyzeTable* table = nullptr;
    for (const AnalyzeTable& tb : tables)
      if (name.empty() || tb.name == name) table = &tb;  // the last one, as paramedir, or the named
    if (table == nullptr) {
      std::string names;
      for (const AnalyzeTable& tb : tables) names += (names.empty() ? "" : ", ") + tb.name;
      return Status::Error(fmt::format("{} has no histogram named '{}'", cfg, name), {}, "its histograms: " + names);
    }
    if (table->planes.size() != 1)
      return Status::Error(fmt::format("histogram '{}' of {} is 3D ({} planes)", table->name, cfg, table->planes.size()),
                           {}, "check a 2D histogram");
    const AnalyzePlane& p = table->planes[0];
    const std::string& column = cell ? args[2] : args[1];
    auto list = [](const std::vector<std::string>& v) {
      std::string s;
      for (size_t i = 0; i < v.size() && i < 12; ++i) s += (i ? ", " : "") + v[i];
      if (v.size() > 12) s += fmt::format(", ... ({} in all)", v.size());
      return s;
    };
    const auto c = std::find(p.columns.begin(), p.columns.end(), column);
    if (c == p.columns.end())
      return Status::Error(fmt::format("histogram '{}' has no column '{}' on this trace", table->name, column), {},
                           "its columns: " + list(p.columns));
    const size_t ci = size_t(c - p.columns.begin());
    if (cell) {
      const auto r = std::find(p.rows.begin(), p.rows.end(), args[1]);
      if (r == p.rows.end())
        return Status::Error(fmt::format("histogram '{}' has no row '{}'", table->name, args[1]), {},
                             "its rows: " + list(p.rows));
      return p.values[size_t(r - p.rows.begin())][ci];
    }
    const auto s = std::find(p.total_names.begin(), p.total_names.end(), args[2]);
    if (s == p.total_names.end()) return Status::Error(fmt::format("histogram '{}' has no '{}' line", table->name, args[2]));
    return p.totals[size_t(s - p.total_names.begin())][ci];
  }

 private:
  Result<double> TraceMetric(const std::string& key) {
    const TraceInfo info = t_.Summary();
    if (key == "duration_s")
      return double(info.trace_end) * model::ConvertTime(1, t_.header().unit, model::TimeUnit::kS);
    if (key == "ranks") return double(info.tasks);
    if (key == "threads") return double(info.threads);
    return double(info.records);
  }

  Result<double> Pop(const std::string& key) {
    if (!pop_) {
      PopOptions o;
      o.distribution = dist_;
      pop_ = ComputePop({t_.path()}, o);
    }
    if (!pop_->ok()) return pop_->status();
    const PopReport& r = pop_->value();
    for (const auto* lines : {&r.factors, &r.raw})
      for (const PopLine& l : *lines) {
        if (l.key != key) continue;
        if (l.values.empty() || std::isnan(l.values[0]))
          return Status::Error(fmt::format("pop.{} is not available: {}", key,
                                           l.unavailable.empty() ? "not computed for this trace" : l.unavailable));
        return l.percent ? l.values[0] / 100 : l.values[0];
      }
    return Status::Error(fmt::format("pop.{} is not in the POP table", key));
  }

  Result<double> Diagnosis(const std::string& key) {
    if (!diagnosis_) {
      DiagnoseOptions o;
      o.instances = false;
      diagnosis_ = Diagnose(t_, o);
    }
    if (!diagnosis_->ok()) return diagnosis_->status();
    const parallax::Diagnosis& d = diagnosis_->value();
    if (d.ranks.empty() && key != "mpi_s")
      return Status::Error("the trace has no MPI calls: no wait states to measure",
                           {}, d.notes.empty() ? "" : d.notes.front());
    double wait = 0;
    for (const PatternSummary& p : d.patterns) {
      wait += p.time_s;
      if (key == p.key + "_s") return p.time_s;
      if (key == p.key + "_count") return double(p.count);
    }
    if (key == "wait_s") return wait;
    if (key == "wait_share") {
      const double all = double(d.ranks.size()) * (d.end_s - d.begin_s);
      return all > 0 ? wait / all : 0.0;
    }
    if (key == "mpi_s") {
      double s = 0;
      for (double v : d.mpi_s) s += v;
      return s;
    }
    if (key == "critical_path_s") return d.critical_path.length_s;
    if (key == "root_cause_s") return d.root_causes.empty() ? 0.0 : d.root_causes.front().long_term_s;
    // A pattern of the catalogue the diagnosis did not list: none of it.
    return 0.0;
  }

  Result<double> Structure(const std::string& key) {
    if (!structure_) structure_ = AnalyzeStructure(t_);
    if (!structure_->ok()) return structure_->status();
    const ProgramStructure& s = structure_->value();
    const IterationsInfo& it = s.iterations;
    if (key == "iterations") return double(it.found ? it.count : 0);
    if (key == "clusters") return double(s.clusters.size());
    if (key == "phases") return double(s.phases.size());
    if (!it.found) return Status::Error("structure." + key + " is not available: no iterations: " + it.why_none);
    if (key == "iteration_s") return it.median_s;
    if (key == "iteration_mean_s") return it.mean_s;
    if (key == "iteration_min_s") return it.min_s;
    if (key == "iteration_max_s") return it.max_s;
    if (key == "loop_s") return it.loop_end_s - it.loop_begin_s;
    if (key == "startup_s") return it.startup_s;
    if (key == "teardown_s") return it.teardown_s;
    double v = 0;
    for (double x : it.variability_by_rank) v = std::max(v, x);
    return v;
  }

  const session::TraceImpl& t_;
  const Distribution* dist_;
  std::optional<Result<PopReport>> pop_;
  std::optional<Result<parallax::Diagnosis>> diagnosis_;
  std::optional<Result<ProgramStructure>> structure_;
  std::map<std::string, Result<std::vector<AnalyzeTable>>> tables_;
};

class Sources : public check::Source {
 public:
  Sources(TraceMetrics& trace, TraceMetrics* baseline) : trace_(trace), baseline_(baseline) {}
  void SetDir(std::string dir) { dir_ = std::move(dir); }
  Result<double> Metric(const std::string& name, bool baseline) override {
    return Side(baseline).Metric(name);
  }
  Result<double> Histogram(const std::vector<std::string>& args, bool cell, bool baseline) override {
    return Side(baseline).Histogram(args, cell, dir_);
  }

 private:
  TraceMetrics& Side(bool baseline) { return baseline ? *baseline_ : trace_; }
  TraceMetrics& trace_;
  TraceMetrics* baseline_;
  std::string dir_;
};

Result<std::vector<check::Assertion>> ParseAll(const std::vector<CheckSource>& sources, std::vector<std::string>* dirs) {
  const check::Names names = CatalogueNames();
  std::vector<check::Assertion> all;
  for (const CheckSource& s : sources) {
    auto parsed = check::Parse(s.text, s.file, names);
    if (!parsed.ok()) return parsed.status();
    for (check::Assertion& a : parsed.value()) {
      all.push_back(std::move(a));
      if (dirs) dirs->push_back(Dir(s.file));
    }
  }
  if (all.empty())
    return Status::Error("no assertion to check", {}, "give --assert 'EXPR OP EXPR' or a file of assertions");
  return all;
}

std::string Value(double v) {
  if (std::isnan(v)) return "nan";
  return fmt::format("{:.6g}", v);
}

}  // namespace

Result<CheckSource> ReadCheckFile(const std::string& path) {
  auto text = base::ReadRegularFile(path, size_t{1} << 20);
  if (!text.ok()) return text.status();
  return CheckSource{std::move(text.value()), path};
}

const std::vector<CheckMetric>& CheckMetrics() {
  static const std::vector<CheckMetric> catalogue = BuildCatalogue();
  return catalogue;
}

Result<size_t> ValidateChecks(const std::vector<CheckSource>& sources) {
  auto all = ParseAll(sources, nullptr);
  if (!all.ok()) return all.status();
  return all.value().size();
}

// What an expression needs that processes compute together: POP, and the cfgs of its histograms
// (per side: 0 the trace, 1 the baseline).
void Needs(const check::Node& n, bool baseline, const std::string& dir, bool pop[2], std::set<std::string> cfgs[2]) {
  const int side = baseline ? 1 : 0;
  if (n.kind == check::Node::Kind::kMetric && n.name.rfind("pop.", 0) == 0) pop[side] = true;
  if (n.kind == check::Node::Kind::kHist || n.kind == check::Node::Kind::kCell)
    cfgs[side].insert(TraceMetrics::CfgOf(n.strings[0], dir).first);
  for (const auto& k : n.kids) Needs(*k, baseline || n.kind == check::Node::Kind::kBaseline, dir, pop, cfgs);
}

Result<CheckReport> RunChecks(const Trace& trace, const Trace* baseline, const std::vector<CheckSource>& sources,
                              const Distribution* distribution) {
  const auto* t = dynamic_cast<const session::TraceImpl*>(&trace);
  const auto* b = baseline ? dynamic_cast<const session::TraceImpl*>(baseline) : nullptr;
  if (t == nullptr || (baseline && b == nullptr))
    return Status::Error("check: the traces were not opened by parallax::Trace::Open");
  std::vector<std::string> dirs;
  auto all = ParseAll(sources, &dirs);
  if (!all.ok()) return all.status();
  if (b == nullptr)
    for (const check::Assertion& a : all.value())
      if (a.uses_baseline)
        return Status::Error("baseline() without a baseline trace", Location{a.file.empty() ? "--assert" : a.file, a.line, 1},
                             "give the baseline run with --baseline TRACE");
  TraceMetrics tm(*t, distribution);
  std::optional<TraceMetrics> bm;
  if (b) bm.emplace(*b, distribution);
  if (distribution != nullptr) {
    bool pop[2] = {false, false};
    std::set<std::string> cfgs[2];
    for (size_t i = 0; i < all.value().size(); ++i) {
      Needs(*all.value()[i].lhs, false, dirs[i], pop, cfgs);
      Needs(*all.value()[i].rhs, false, dirs[i], pop, cfgs);
    }
    tm.Prepare(pop[0], cfgs[0]);
    if (bm) bm->Prepare(pop[1], cfgs[1]);
  }
  Sources src(tm, bm ? &*bm : nullptr);
  CheckReport r;
  r.trace = t->path();
  if (b) r.baseline = b->path();
  const auto start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < all.value().size(); ++i) {
    const check::Assertion& a = all.value()[i];
    src.SetDir(dirs[i]);
    CheckResult c;
    c.assertion = a.text;
    c.file = a.file;
    c.line = a.line;
    const auto t0 = std::chrono::steady_clock::now();
    auto lhs = check::Evaluate(*a.lhs, src, false, &c.values);
    auto rhs = lhs.ok() ? check::Evaluate(*a.rhs, src, false, &c.values) : lhs;
    c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!lhs.ok() || !rhs.ok()) {
      const Status& s = !lhs.ok() ? lhs.status() : rhs.status();
      c.outcome = CheckResult::Outcome::kError;
      c.message = (s.where().file.empty() ? "" : s.where().file + ": ") + s.message() +
                  (s.hint().empty() ? "" : " (" + s.hint() + ")");
      ++r.errors;
    } else {
      c.lhs = lhs.value();
      c.rhs = rhs.value();
      const bool holds = check::Holds(a.compare, c.lhs, c.rhs);
      c.outcome = holds ? CheckResult::Outcome::kPass : CheckResult::Outcome::kFail;
      c.message = fmt::format("{} {} {} is {}", Value(c.lhs), check::CompareText(a.compare), Value(c.rhs),
                              holds ? "true" : "false");
      ++(holds ? r.passed : r.failed);
    }
    r.results.push_back(std::move(c));
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

namespace {

const char* OutcomeName(CheckResult::Outcome o) {
  switch (o) {
    case CheckResult::Outcome::kPass:
      return "pass";
    case CheckResult::Outcome::kFail:
      return "fail";
    case CheckResult::Outcome::kError:
      return "error";
  }
  return "error";
}

std::string Where(const CheckResult& c) {
  return c.file.empty() ? std::string("--assert") : fmt::format("{}:{}", c.file, c.line);
}

std::string ValuesLine(const CheckResult& c) {
  std::string s;
  for (const auto& [name, v] : c.values) s += (s.empty() ? "" : ", ") + name + " = " + Value(v);
  return s;
}

}  // namespace

std::string FormatCheckText(const CheckReport& r) {
  std::string o = fmt::format("parallax check: {}{}\n", r.trace, r.baseline.empty() ? "" : " (baseline " + r.baseline + ")");
  for (const CheckResult& c : r.results) {
    const char* tag = c.outcome == CheckResult::Outcome::kPass ? "PASS " : c.outcome == CheckResult::Outcome::kFail ? "FAIL " : "ERROR";
    o += fmt::format("{} {}   [{}]\n", tag, c.assertion, Where(c));
    o += fmt::format("      {}\n", c.message);
    if (!c.values.empty() && c.outcome != CheckResult::Outcome::kError) o += fmt::format("      {}\n", ValuesLine(c));
  }
  o += fmt::format("{} assertion{}: {} passed, {} failed, {} could not be evaluated ({:.2f} s)\n", r.results.size(),
                   r.results.size() == 1 ? "" : "s", r.passed, r.failed, r.errors, r.seconds);
  return o;
}

std::string FormatCheckJson(const CheckReport& r) {
  using nlohmann::ordered_json;
  ordered_json j{{"trace", r.trace}, {"baseline", r.baseline.empty() ? ordered_json() : ordered_json(r.baseline)},
                 {"passed", r.passed}, {"failed", r.failed}, {"errors", r.errors}, {"seconds", r.seconds}};
  ordered_json results = ordered_json::array();
  for (const CheckResult& c : r.results) {
    ordered_json values = ordered_json::object();
    for (const auto& [name, v] : c.values) values[name] = std::isfinite(v) ? ordered_json(v) : ordered_json();
    ordered_json x{{"assertion", c.assertion}, {"file", c.file.empty() ? ordered_json() : ordered_json(c.file)},
                   {"line", c.line},           {"outcome", OutcomeName(c.outcome)},
                   {"message", c.message},     {"values", std::move(values)},
                   {"seconds", c.seconds}};
    if (c.outcome != CheckResult::Outcome::kError) {
      x["lhs"] = std::isfinite(c.lhs) ? ordered_json(c.lhs) : ordered_json();
      x["rhs"] = std::isfinite(c.rhs) ? ordered_json(c.rhs) : ordered_json();
    }
    results.push_back(std::move(x));
  }
  j["results"] = std::move(results);
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string FormatCheckJunit(const CheckReport& r) {
  pugi::xml_document doc;
  auto decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  decl.append_attribute("encoding") = "UTF-8";
  const std::string time = fmt::format("{:.3f}", r.seconds);
  pugi::xml_node suites = doc.append_child("testsuites");
  suites.append_attribute("name") = "parallax check";
  suites.append_attribute("tests") = static_cast<unsigned long long>(r.results.size());
  suites.append_attribute("failures") = static_cast<unsigned long long>(r.failed);
  suites.append_attribute("errors") = static_cast<unsigned long long>(r.errors);
  suites.append_attribute("time") = time.c_str();
  pugi::xml_node suite = suites.append_child("testsuite");
  suite.append_attribute("id") = 0;
  suite.append_attribute("package") = "parallax.check";
  suite.append_attribute("name") = r.trace.c_str();
  char stamp[32];
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
  suite.append_attribute("timestamp") = stamp;
  char host[256] = "localhost";
  if (gethostname(host, sizeof host - 1) != 0 || host[0] == 0) std::snprintf(host, sizeof host, "localhost");
  host[sizeof host - 1] = 0;
  suite.append_attribute("hostname") = host;
  suite.append_attribute("tests") = static_cast<unsigned long long>(r.results.size());
  suite.append_attribute("failures") = static_cast<unsigned long long>(r.failed);
  suite.append_attribute("errors") = static_cast<unsigned long long>(r.errors);
  suite.append_attribute("skipped") = 0;
  suite.append_attribute("time") = time.c_str();
  pugi::xml_node props = suite.append_child("properties");
  auto prop = [&](const char* name, const std::string& value) {
    pugi::xml_node p = props.append_child("property");
    p.append_attribute("name") = name;
    p.append_attribute("value") = value.c_str();
  };
  prop("trace", r.trace);
  if (!r.baseline.empty()) prop("baseline", r.baseline);
  for (const CheckResult& c : r.results) {
    pugi::xml_node tc = suite.append_child("testcase");
    tc.append_attribute("name") = c.assertion.c_str();
    tc.append_attribute("classname") = (c.file.empty() ? std::string("parallax check") : Where(c)).c_str();
    tc.append_attribute("time") = fmt::format("{:.3f}", c.seconds).c_str();
    if (c.outcome == CheckResult::Outcome::kPass) continue;
    pugi::xml_node f = tc.append_child(c.outcome == CheckResult::Outcome::kFail ? "failure" : "error");
    f.append_attribute("message") = c.message.c_str();
    f.append_attribute("type") = c.outcome == CheckResult::Outcome::kFail ? "assertion" : "unavailable";
    const std::string body = c.values.empty() ? c.message : c.message + "\n" + ValuesLine(c);
    f.append_child(pugi::node_pcdata).set_value(body.c_str());
  }
  suite.append_child("system-out");
  suite.append_child("system-err");
  struct Writer : pugi::xml_writer {
    std::string out;
    void write(const void* data, size_t size) override { out.append(static_cast<const char*>(data), size); }
  } writer;
  doc.save(writer, "  ", pugi::format_default, pugi::encoding_utf8);
  return writer.out;
}

}  // namespace parallax
