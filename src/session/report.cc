// parallax::BuildReport (include/parallax/report.h): the facts, POP, timelines, diagnosis and
// structure of a run or a series put into a report::Document, written as HTML or Markdown.

#include "include/parallax/report.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>

#include "include/parallax/diagnose.h"
#include "include/parallax/pop.h"
#include "include/parallax/render.h"
#include "include/parallax/structure.h"
#include "src/base/regular_file.h"
#include "src/render/encoders.h"
#include "src/report/charts.h"
#include "src/report/document.h"
#include "src/report/report_cfgs.h"

namespace parallax {

namespace {

using report::Cell;

struct Run {
  std::string path;
  std::unique_ptr<Trace> trace;
  TraceInfo info;
  uint64_t file_size = 0;
  std::string hash;
};

// XXH3-128 of the file's bytes as they are on disk (the .prv.gz compressed).
Result<std::string> HashFile(const std::string& path, uint64_t* size) {
  struct stat st {};
  auto fd = base::OpenRegularFile(path, &st);
  if (!fd.ok()) return fd.status();
  *size = uint64_t(st.st_size);
  XXH3_state_t* state = XXH3_createState();
  if (state == nullptr) {
    close(fd.value());
    return Status::Error("out of memory");
  }
  XXH3_128bits_reset(state);
  std::string buffer(size_t{1} << 20, '\0');
  Status status;
  for (;;) {
    const ssize_t n = read(fd.value(), buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      status = Status::Error(fmt::format("cannot read: {}", std::strerror(errno)), Location{path, 0, 0});
      break;
    }
    if (n == 0) break;
    XXH3_128bits_update(state, buffer.data(), size_t(n));
  }
  const XXH128_hash_t h = XXH3_128bits_digest(state);
  XXH3_freeState(state);
  close(fd.value());
  if (!status.ok()) return status;
  return fmt::format("xxh3-128:{:016x}{:016x}", h.high64, h.low64);
}

std::string Seconds(double s) {
  const double a = std::fabs(s);
  if (a >= 1) return fmt::format("{:.3f} s", s);
  if (a >= 1e-3) return fmt::format("{:.3f} ms", s * 1e3);
  if (a >= 1e-6 || a == 0) return fmt::format("{:.3f} us", s * 1e6);
  return fmt::format("{:.1f} ns", s * 1e9);
}

std::string Count(double v) { return fmt::format("{:.0f}", v); }

Cell Text(std::string t, int indent = 0) {
  Cell c;
  c.text = std::move(t);
  c.indent = indent;
  return c;
}

// A number from a command's JSON: `text` shows it, `value` is it exactly as the JSON has it.
Cell Number(std::string text, const char* source, int run, std::string path, double value) {
  Cell c;
  c.text = std::move(text);
  c.number = true;
  if (std::isfinite(value)) {
    c.source = source;
    c.run = run;
    c.path = std::move(path);
    c.value = value;
  }
  return c;
}

std::string Quote(const std::string& path) {
  if (path.find_first_of(" '\"$`\\") == std::string::npos) return path;
  std::string q = "'";
  for (char c : path) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string Basename(const std::string& path) { return std::filesystem::path(path).filename().string(); }

class Builder {
 public:
  Builder(const ReportRequest& req, std::vector<Run>& runs) : req_(req), runs_(runs) {}

  bool lead() const { return req_.distribution == nullptr || req_.distribution->rank == 0; }

  Result<Report> Build() {
    focus_ = 0;
    for (size_t i = 0; i < runs_.size(); ++i)
      if (runs_[i].info.tasks >= runs_[focus_].info.tasks) focus_ = i;
    std::string names;
    for (const Run& r : runs_) names += (names.empty() ? "" : ", ") + Basename(r.path);
    doc_.title = req_.title.empty() ? "Performance report: " + names : req_.title;
    doc_.Heading(1, doc_.title);
    char stamp[64];
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    std::strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M UTC", &tm);
    doc_.Paragraph(fmt::format("Written by Parallax on {}. Every number comes from a Parallax command, named in "
                               "its section; the timelines come with the cfg that draws them.",
                               stamp));
    Facts();
    Pop();
    Timelines();
    Diagnosis();
    Structure();
    if (!notes_.empty()) {
      doc_.Heading(2, "Notes", "notes");
      for (const std::string& n : notes_) doc_.Paragraph(n);
    }
    Report out;
    if (!lead()) return out;
    out.notes = notes_;
    if (req_.format == "md") {
      std::vector<report::File> files;
      out.text = report::WriteMarkdown(doc_, req_.files_folder, &files);
      for (auto& f : files) out.files.push_back({f.name, std::move(f.data)});
      for (auto& f : cfg_files_) out.files.push_back(std::move(f));
    } else {
      out.text = report::WriteHtml(doc_);
    }
    return out;
  }

 private:
  std::string TracesArgs() const {
    std::string s;
    for (const Run& r : runs_) s += " " + Quote(r.path);
    return s;
  }
  const Run& focus() const { return runs_[focus_]; }
  std::string FocusName() const {
    return runs_.size() == 1 ? "the run"
                             : fmt::format("{} ({} ranks, the largest run)", Basename(focus().path), focus().info.tasks);
  }

  void Facts() {
    doc_.Heading(2, runs_.size() == 1 ? "The run" : "The runs", "facts");
    std::vector<std::vector<Cell>> rows;
    auto row = [&](const std::string& what, auto cell) {
      std::vector<Cell> r{Text(what)};
      for (size_t i = 0; i < runs_.size(); ++i) r.push_back(cell(int(i), runs_[i]));
      rows.push_back(std::move(r));
    };
    row("trace", [](int, const Run& r) { return Text(r.path); });
    row("recorded", [](int, const Run& r) { return Text(r.info.date.empty() ? "-" : r.info.date); });
    row("ranks (tasks)", [](int i, const Run& r) {
      return Number(Count(r.info.tasks), "info", i, "tasks", double(r.info.tasks));
    });
    row("threads", [](int i, const Run& r) {
      return Number(Count(r.info.threads), "info", i, "threads", double(r.info.threads));
    });
    row("nodes, cpus", [](int, const Run& r) { return Text(fmt::format("{}, {}", r.info.nodes, r.info.cpus)); });
    row("duration", [](int i, const Run& r) {
      const double unit = r.info.time_unit == "ns" ? 1e-9 : r.info.time_unit == "us" ? 1e-6 : 1e-3;
      return Number(fmt::format("{} ({} {})", Seconds(double(r.info.trace_end) * unit), r.info.trace_end,
                                r.info.time_unit),
                    "info", i, "trace_end", double(r.info.trace_end));
    });
    row("records", [](int i, const Run& r) {
      return Number(fmt::format("{} ({} states, {} events, {} messages)", r.info.records, r.info.states,
                                r.info.event_pairs, r.info.comms),
                    "info", i, "records", double(r.info.records));
    });
    row("file", [](int, const Run& r) { return Text(fmt::format("{} bytes, {}", r.file_size, r.hash)); });
    std::vector<std::string> header{""};
    for (const Run& r : runs_) header.push_back(Basename(r.path));
    doc_.Table(header, std::move(rows));
    for (const Run& r : runs_)
      for (const DiagnosticInfo& d : r.info.diagnostics)
        if (d.severity != "info")
          notes_.push_back(fmt::format("{}: the load reported {} ({}): {}", Basename(r.path), d.kind, d.count,
                                       d.description));
    doc_.Paragraph("Reproduce: `parallax info " + Quote(runs_[0].path) +
                   " --json` (per trace); the hash is XXH3-128 of the file as it is on disk.");
  }

  void Pop() {
    doc_.Heading(2, "Efficiency (POP)", "pop");
    PopOptions o;
    o.load = req_.load;
    o.distribution = req_.distribution;
    auto pop = ComputePop([&] {
      std::vector<std::string> p;
      for (const Run& r : runs_) p.push_back(r.path);
      return p;
    }(), o);
    if (!pop.ok()) {
      doc_.Paragraph("The POP factors could not be computed: " + pop.status().message());
      notes_.push_back("POP: " + pop.status().message());
      return;
    }
    pop_ = std::move(pop.value());
    const PopReport& p = *pop_;
    std::vector<std::string> header{"factor"};
    auto ranks = [](uint32_t n) { return fmt::format("{} rank{}", n, n == 1 ? "" : "s"); };
    for (const PopTraceInfo& t : p.traces) header.push_back(fmt::format("{} ({})", Basename(t.path), ranks(t.processes)));
    std::vector<std::vector<Cell>> rows;
    std::vector<report::ChartFactor> chart;
    std::map<std::string, std::vector<std::string>> unavailable;  // why -> the lines
    auto lines = [&](const std::vector<PopLine>& ls, const char* group) {
      for (const PopLine& l : ls) {
        std::vector<Cell> r{Text(l.name, l.depth)};
        for (size_t i = 0; i < l.values.size(); ++i) {
          const double v = l.values[i];
          std::string text = std::isnan(v) ? "n/a" : l.percent ? fmt::format("{:.2f}%", v) : fmt::format("{:.6g}", v);
          r.push_back(Number(text, "pop", int(i), fmt::format("{}/key={}/values/{}", group, l.key, i), v));
        }
        rows.push_back(std::move(r));
        if (l.percent) chart.push_back({l.name, l.depth, l.values});
        if (!l.unavailable.empty()) unavailable[l.unavailable].push_back(l.name);
      }
    };
    lines(p.factors, "factors");
    lines(p.raw, "raw");
    for (const auto& [why, names] : unavailable) {
      std::string list;
      for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
      notes_.push_back(fmt::format("POP {}: not available: {}", list, why));
    }
    doc_.Table(header, std::move(rows));
    std::vector<std::string> labels;
    for (const PopTraceInfo& t : p.traces) labels.push_back(ranks(t.processes));
    const render::DrawList list = report::EfficiencyChart(chart, labels, int(req_.width));
    auto png = render::EncodePng(list);
    if (png.ok())
      doc_.Figure("pop.png", png.value(), req_.format == "html" ? render::EncodeSvg(list) : "",
                  "POP efficiency factors",
                  "POP's factors as bars (green 80% and up, orange 60% and up, red below). Parallel efficiency is "
                  "load balance × communication efficiency; communication efficiency is serialization × transfer "
                  "efficiency (the ideal-network replay tells them apart).");
    doc_.Paragraph(
        "Load balance: the mean useful computation over the largest (1 when every rank computes as long). "
        "Communication efficiency: the largest useful computation over the run time (what MPI costs). "
        "Serialization: what is lost to waiting even on an ideal network (dependencies, late senders). "
        "Transfer: what the network adds. Computation scalability (a series): useful work compared with the "
        "reference run, split into IPC, instructions and frequency.");
    for (const std::string& w : p.warnings) notes_.push_back("POP: " + w);
    doc_.Paragraph("Reproduce: `parallax pop" + TracesArgs() + " --format json`.");
  }

  void Timeline(const std::string& id, const std::string& title, const char* cfg, const std::string& caption) {
    TimelineRequest r;
    r.cfg_text = cfg;
    r.format = "png";
    r.width = req_.width;
    r.background = "white";
    r.zero_as_background = true;
    r.flags = false;
    r.comms = false;
    r.distribution = req_.distribution;
    auto images = RenderTimeline(*focus().trace, r);
    if (!lead()) return;  // process 0 has the images
    if (!images.ok() || images.value().empty()) {
      notes_.push_back(fmt::format("{} timeline: {}", title, images.ok() ? "no image" : images.status().message()));
      return;
    }
    doc_.Heading(3, title, id);
    doc_.Figure(id + ".png", images.value().back().data, "", title + " of " + FocusName(), caption);
    const std::string file = id + ".cfg";
    doc_.Details(fmt::format("The cfg (`{}`); reproduce: `parallax timeline {} --cfg {} --background white -o {}.png`",
                             file, Quote(focus().path), file, id),
                 cfg);
    if (req_.format == "md") cfg_files_.push_back({file, cfg});
  }

  bool HasEventType(uint32_t low, uint32_t high) const {
    for (const LabelCount& e : focus().info.event_types)
      if (e.id >= low && e.id <= high && e.count > 0) return true;
    return false;
  }

  std::string PopValue(const char* key) const {
    if (!pop_) return {};
    for (const PopLine& l : pop_->factors)
      if (l.key == key && focus_ < l.values.size() && !std::isnan(l.values[focus_]))
        return fmt::format(" ({:.2f}% here)", l.values[focus_]);
    return {};
  }

  void Timelines() {
    doc_.Heading(2, "Where the efficiency is lost", "timelines");
    doc_.Paragraph(fmt::format("Timelines of {}, one line per thread, time left to right; white where the value is "
                               "0.",
                               FocusName()));
    Timeline("useful_duration", "Useful duration", report::UsefulDurationCfg(),
             "Each computation burst coloured by its length (legend). Ranks whose bursts are longer than the "
             "others' make those wait: load balance" +
                 PopValue("load_balance") + ".");
    if (HasEventType(50000001, 50000005)) {
      Timeline("mpi_call", "MPI call", report::MpiCallCfg(),
               "The MPI call each thread is in (legend); white outside MPI. Time in MPI is the communication "
               "efficiency's loss" +
                   PopValue("communication_efficiency") + ".");
    } else {
      notes_.push_back("No MPI call events (types 50000001-50000005): no MPI call timeline.");
    }
    if (HasEventType(42000050, 42000050) && HasEventType(42000059, 42000059)) {
      Timeline("useful_ipc", "Useful IPC", report::UsefulIpcCfg(),
               "Instructions per cycle of each computation burst (legend). Low or uneven IPC lowers the "
               "computation's efficiency; in a series, IPC scalability compares it with the reference run.");
    } else {
      notes_.push_back("No PAPI_TOT_INS and PAPI_TOT_CYC counters (event types 42000050, 42000059): no IPC "
                       "timeline.");
    }
  }

  void Diagnosis() {
    if (!lead()) return;
    doc_.Heading(2, "Wait states and their causes", "diagnosis");
    DiagnoseOptions o;
    o.instances = false;
    auto d = Diagnose(*focus().trace, o);
    if (!d.ok()) {
      doc_.Paragraph("The diagnosis could not be computed: " + d.status().message());
      return;
    }
    const parallax::Diagnosis& x = d.value();
    if (x.ranks.empty()) {
      doc_.Paragraph("No MPI calls in " + FocusName() + ": no wait states." +
                     (x.notes.empty() ? std::string() : " " + x.notes.front()));
      return;
    }
    const int run = int(focus_);
    double mpi = 0;
    for (double v : x.mpi_s) mpi += v;
    doc_.Paragraph(fmt::format("In {}, {} ranks spent {} in MPI calls in all; the wait states below are the part "
                               "of it spent waiting for another rank (Scalasca's patterns, docs/diagnose.md).",
                               FocusName(), x.ranks.size(), Seconds(mpi)));
    std::vector<std::vector<Cell>> rows;
    for (const PatternSummary& p : x.patterns) {
      rows.push_back({Text(p.name), Number(Seconds(p.time_s), "diagnose", run, "patterns/" + p.key + "/time_s", p.time_s),
                      Text(mpi > 0 ? fmt::format("{:.1f}%", 100 * p.time_s / mpi) : "-"),
                      Number(Count(double(p.count)), "diagnose", run, "patterns/" + p.key + "/count", double(p.count)),
                      Text(p.description)});
    }
    doc_.Table({"wait state", "time (all ranks)", "of MPI time", "instances", "what it is"}, std::move(rows));
    if (!x.root_causes.empty()) {
      doc_.Heading(3, "Root causes", "root-causes");
      doc_.Paragraph("Who made the others wait: each rank's excess activity since the ranks last synchronised, "
                     "with the waiting it caused directly (short term) and through the waits it propagated "
                     "(long term).");
      std::vector<std::vector<Cell>> rc;
      for (size_t i = 0; i < x.root_causes.size() && i < 5; ++i) {
        const RootCause& c = x.root_causes[i];
        rc.push_back({Text(c.rank < x.ranks.size() ? x.ranks[c.rank] : std::to_string(c.rank)),
                      Text(c.phase.empty() ? c.activity : c.activity + " in " + c.phase),
                      Number(Seconds(c.short_term_s), "diagnose", run, fmt::format("root_causes/{}/short_term_s", i),
                             c.short_term_s),
                      Number(Seconds(c.long_term_s), "diagnose", run, fmt::format("root_causes/{}/long_term_s", i),
                             c.long_term_s)});
      }
      doc_.Table({"rank", "activity", "short term", "long term"}, std::move(rc));
    }
    const CriticalPathInfo& cp = x.critical_path;
    if (cp.length_s > 0) {
      doc_.Heading(3, "Critical path", "critical-path");
      doc_.Paragraph("The chain of computation and communication that decides the run's length: shortening "
                     "anything off it does not shorten the run.");
      std::vector<std::vector<Cell>> rows2;
      rows2.push_back({Text("length"), Number(Seconds(cp.length_s), "diagnose", run, "critical_path/length_s", cp.length_s)});
      for (size_t i = 0; i < cp.activities.size() && i < 6; ++i) {
        const ActivityOnPath& a = cp.activities[i];
        rows2.push_back({Text(a.name, 1), Number(Seconds(a.path_s), "diagnose", run,
                                                 "critical_path/by_activity_s/" + a.name, a.path_s)});
      }
      doc_.Table({"on the path", "time"}, std::move(rows2));
      const PerformanceImpact& pi = cp.impact;
      if (pi.waiting_s > 0) {
        doc_.Paragraph("Performance impact: the waiting of all ranks, charged to the activities that are longer "
                       "on the critical path than on an average rank (within the ranks that run them: "
                       "intra-partition; because some ranks do not run them: inter-partition).");
        auto cell = [&](const char* key, double v) {
          return Number(Seconds(v), "diagnose", run, std::string("critical_path/performance_impact/") + key, v);
        };
        std::vector<std::vector<Cell>> rows3;
        rows3.push_back({Text("all ranks' time over the path's span"), cell("total_s", pi.total_s)});
        rows3.push_back({Text("waiting, charged to imbalance"), cell("imbalance_impact_s", pi.imbalance_impact_s)});
        rows3.push_back({Text("intra-partition", 1), cell("intra_partition_s", pi.intra_partition_s)});
        rows3.push_back({Text("inter-partition", 1), cell("inter_partition_s", pi.inter_partition_s)});
        for (size_t i = 0, shown = 0; i < pi.activities.size() && shown < 4; ++i) {
          const ActivityImpact& a = pi.activities[i];
          if (a.imbalance_impact_s <= 0) continue;
          ++shown;
          rows3.push_back({Text("charged to " + a.name, 1),
                           Number(Seconds(a.imbalance_impact_s), "diagnose", run,
                                  "critical_path/performance_impact/by_activity/" + a.name + "/imbalance_impact_s",
                                  a.imbalance_impact_s)});
        }
        doc_.Table({"performance impact", "rank-seconds"}, std::move(rows3));
      }
    }
    doc_.Paragraph("Reproduce: `parallax diagnose " + Quote(focus().path) + " --format json`.");
  }

  void Structure() {
    if (!lead()) return;
    doc_.Heading(2, "Structure", "structure");
    auto s = AnalyzeStructure(*focus().trace);
    if (!s.ok()) {
      doc_.Paragraph("The structure could not be computed: " + s.status().message());
      return;
    }
    const ProgramStructure& x = s.value();
    const int run = int(focus_);
    const IterationsInfo& it = x.iterations;
    if (it.found) {
      doc_.Paragraph(fmt::format("The main loop of {}: {} iterations found by {}, from {} to {}.", FocusName(),
                                 it.count, it.anchor, Seconds(it.loop_begin_s), Seconds(it.loop_end_s)));
      doc_.Table({"iterations", "median", "mean", "shortest", "longest"},
                 {{Number(Count(double(it.count)), "structure", run, "iterations/count", double(it.count)),
                   Number(Seconds(it.median_s), "structure", run, "iterations/median_s", it.median_s),
                   Number(Seconds(it.mean_s), "structure", run, "iterations/mean_s", it.mean_s),
                   Number(Seconds(it.min_s), "structure", run, "iterations/min_s", it.min_s),
                   Number(Seconds(it.max_s), "structure", run, "iterations/max_s", it.max_s)}});
    } else {
      doc_.Paragraph("No main loop found: " + it.why_none + ".");
    }
    if (!x.phases.empty()) {
      doc_.Heading(3, "Phases of an iteration", "phases");
      std::vector<std::vector<Cell>> rows;
      for (size_t i = 0; i < x.phases.size() && i < 12; ++i) {
        const StructurePhase& p = x.phases[i];
        rows.push_back({Text(std::to_string(p.position)),
                        Text(p.after_call + " → " + (p.before_call.empty() ? "(next iteration)" : p.before_call)),
                        Number(Seconds(p.mean_s), "structure", run, fmt::format("phases/{}/mean_s", i), p.mean_s),
                        Number(fmt::format("{:.1f}%", 100 * p.share), "structure", run, fmt::format("phases/{}/share", i),
                               p.share),
                        Number(fmt::format("{:.1f}%", 100 * p.imbalance), "structure", run,
                               fmt::format("phases/{}/imbalance", i), p.imbalance)});
      }
      doc_.Table({"phase", "between", "mean", "of the iteration", "imbalance"}, std::move(rows));
    }
    if (!x.clusters.empty()) {
      doc_.Heading(3, "Computation burst clusters", "clusters");
      doc_.Paragraph(fmt::format("Bursts of computation grouped by {} (DBSCAN): each cluster is one kind of "
                                 "computation; its imbalance is the largest rank's time over the mean.",
                                 x.features.empty() ? "their duration" : x.features));
      std::vector<std::vector<Cell>> rows;
      for (size_t i = 0; i < x.clusters.size() && i < 12; ++i) {
        const BurstCluster& c = x.clusters[i];
        rows.push_back({Text(std::to_string(c.id)),
                        Number(Count(double(c.bursts)), "structure", run, fmt::format("clusters/{}/bursts", i),
                               double(c.bursts)),
                        Number(Seconds(c.time_s), "structure", run, fmt::format("clusters/{}/time_s", i), c.time_s),
                        Number(Seconds(c.mean_duration_s), "structure", run,
                               fmt::format("clusters/{}/mean_duration_s", i), c.mean_duration_s),
                        c.mean_ipc < 0 ? Text("-")
                                       : Number(fmt::format("{:.2f}", c.mean_ipc), "structure", run,
                                                fmt::format("clusters/{}/mean_ipc", i), c.mean_ipc),
                        Number(fmt::format("{:.1f}%", 100 * c.imbalance), "structure", run,
                               fmt::format("clusters/{}/imbalance", i), c.imbalance)});
      }
      doc_.Table({"cluster", "bursts", "time", "mean duration", "IPC", "imbalance"}, std::move(rows));
    }
    doc_.Paragraph("Reproduce: `parallax structure " + Quote(focus().path) + " --format json`.");
  }

  const ReportRequest& req_;
  std::vector<Run>& runs_;
  size_t focus_ = 0;
  report::Document doc_;
  std::optional<PopReport> pop_;
  std::vector<std::string> notes_;
  std::vector<ReportFile> cfg_files_;
};

}  // namespace

Result<Report> BuildReport(const ReportRequest& req) {
  if (req.traces.empty()) return Status::Error("no trace to report on", {}, "give one trace, or a scaling series");
  if (req.format != "html" && req.format != "md")
    return Status::Error(fmt::format("unknown report format '{}'", req.format), {}, "use html or md");
  if (req.width < 400 || req.width > 4000)
    return Status::Error(fmt::format("image width {} is not between 400 and 4000 pixels", req.width));
  std::vector<Run> runs;
  LoadOptions load = req.load;
  load.distribution = req.distribution;
  for (const std::string& path : req.traces) {
    Run r;
    r.path = path;
    auto t = Trace::Open(path, load);
    if (!t.ok()) return t.status();
    r.trace = std::move(t.value());
    r.info = r.trace->Info();
    if (req.distribution == nullptr || req.distribution->rank == 0) {
      auto hash = HashFile(path, &r.file_size);
      if (!hash.ok()) return hash.status();
      r.hash = hash.value();
    }
    runs.push_back(std::move(r));
  }
  return Builder(req, runs).Build();
}

}  // namespace parallax
