// include/parallax/replay.h over src/replay: load, build the program, simulate, write the
// predicted trace through a temporary file renamed into place.

#include "include/parallax/replay.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "src/base/input_buffer.h"
#include "src/io/pcf/pcf_writer.h"
#include "src/io/prv/prv_writer.h"
#include "src/io/row/row_writer.h"
#include "src/io/text_file.h"
#include "src/replay/dimemas_config.h"
#include "src/replay/predicted_trace.h"
#include "src/session/replay_session.h"

namespace parallax {

namespace session {

Result<LoadedReplay> ReplayLoaded(const TraceImpl& trace, const std::string& path,
                                  const replay::MachineModel& model, unsigned threads,
                                  bool anchors) {
  replay::ProgramOptions po;
  po.init_barrier = model.add_init_barrier;
  po.worker_threads = threads;
  po.keep_anchors = anchors;
  LoadedReplay out;
  out.program = replay::BuildProgram(trace.header(), trace.store(), trace.pcf(), po);
  if (out.program.processes.empty())
    return Status::Error(
        "the trace has no MPI calls (events 50000001-50000005), so there is nothing to replay",
        Location{path, 0, 0},
        "replay needs an MPI trace made by Extrae or a tracer that writes the same events");
  const double ups = model::ConvertTime(1, model::TimeUnit::kS, trace.header().unit);
  auto sim = replay::Simulate(out.program, model, ups, trace.header());
  if (!sim.ok())
    return Status::Error(sim.status().message(), Location{path, 0, 0}, sim.status().hint());
  out.simulation = std::move(sim.value());
  const double to_us = model::ConvertTime(1, trace.header().unit, model::TimeUnit::kUs);
  out.runtime_us = out.simulation.runtime * to_us;
  for (double c : out.simulation.compute)
    out.useful_max_us = std::max(out.useful_max_us, c * to_us);
  return out;
}

}  // namespace session

namespace {

bool Exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

// Writes the predicted trace and its companions to temporary names, then renames them into
// place: a failure leaves no partial output and never touches an existing file without
// `overwrite`.
Status WritePredicted(const session::TraceImpl& t, const replay::PredictedTrace& pt,
                      const std::string& output, bool overwrite) {
  if (!base::EndsWith(output, ".prv") && !base::EndsWith(output, ".prv.gz"))
    return Status::Error("output name must end in .prv or .prv.gz", Location{output, 0, 0},
                         "the .pcf and .row names are derived from it, as Paraver does");
  std::vector<std::string> finals = {output};
  if (t.pcf()) finals.push_back(CompanionPath(output, "pcf"));
  if (t.row()) finals.push_back(CompanionPath(output, "row"));
  if (Status s = session::CheckOutputsAreNotTheInput(t.path(), finals); !s.ok()) return s;
  if (!overwrite)
    for (const std::string& f : finals)
      if (Exists(f))
        return Status::Error("the output file exists", Location{f, 0, 0},
                             "choose another name or pass --force");
  const std::string suffix = fmt::format(".tmp{}", ::getpid());
  auto tmp_of = [&](const std::string& f) {
    // keep the .gz ending so the writer compresses
    return base::EndsWith(f, ".gz") ? f.substr(0, f.size() - 3) + suffix + ".gz" : f + suffix;
  };
  std::vector<std::string> temps;
  auto cleanup = [&] {
    for (const std::string& x : temps) std::remove(x.c_str());
  };
  io::PrvWriteInput in{&pt.header, &t.store(), &t.prv().unsigned_value_types};
  in.times = &pt.times;
  temps.push_back(tmp_of(output));
  Status s = io::WritePrvFile(in, temps.back(), false);
  if (s.ok() && t.pcf()) {
    temps.push_back(tmp_of(finals[1]));
    s = io::WriteTextFile(temps.back(), io::WritePcf(*t.pcf()), false);
  }
  if (s.ok() && t.row()) {
    temps.push_back(tmp_of(finals.back()));
    s = io::WriteTextFile(temps.back(), io::WriteRow(*t.row()), false);
  }
  if (!s.ok()) {
    cleanup();
    return s;
  }
  for (size_t i = 0; i < temps.size(); ++i)
    if (std::rename(temps[i].c_str(), finals[i].c_str()) != 0) {
      cleanup();
      return Status::Error("cannot rename the temporary output into place",
                           Location{finals[i], 0, 0}, "check the folder is writable");
    }
  return Status::Ok();
}

Result<replay::MachineModel> ModelOf(const ReplayOptions& o) {
  replay::MachineModel m = replay::IdealMachine();
  if (!o.config_path.empty()) {
    auto r = replay::ReadDimemasConfig(o.config_path);
    if (!r.ok()) return r.status();
    m = std::move(r.value());
  }
  auto bad = [](const char* what, const char* hint) { return Status::Error(what, {}, hint); };
  if (o.latency_s) {
    if (!(*o.latency_s >= 0))
      return bad("--latency must be zero or positive", "give seconds, e.g. 5e-6");
    m.inter_node.latency_s = m.intra_node.latency_s = *o.latency_s;
  }
  if (o.bandwidth_MBps) {
    if (!(*o.bandwidth_MBps >= 0))
      return bad("--bandwidth must be zero or positive", "0 means infinite");
    m.inter_node.bandwidth_Bps = m.intra_node.bandwidth_Bps =
        *o.bandwidth_MBps * replay::kBytesPerMB;
  }
  if (o.eager_bytes) {
    if (*o.eager_bytes < 0) return bad("--eager must be zero or positive", "bytes, e.g. 32768");
    m.eager_limit = *o.eager_bytes;
  }
  if (o.cpu_ratio) {
    if (!(*o.cpu_ratio > 0)) return bad("--cpu-ratio must be positive", "2 halves every burst");
    m.cpu_ratio = *o.cpu_ratio;
  }
  if (o.tasks_per_node) {
    if (*o.tasks_per_node == 0)
      return bad("--tasks-per-node must be at least 1", "1 puts each task on its node");
    m.tasks_per_node = *o.tasks_per_node;
  }
  if (o.links) {
    if (*o.links > replay::kMaxLinks)
      return bad("--links must be at most 4096", "0 means no link contention");
    m.inter_node.links = m.intra_node.links = *o.links;
  }
  m.add_init_barrier = o.init_barrier;
  return m;
}

std::string Describe(const replay::MachineModel& m) {
  auto link = [](const replay::LinkModel& l) {
    return fmt::format(
        "latency {} us, bandwidth {}, {}", l.latency_s * 1e6,
        l.bandwidth_Bps > 0 ? fmt::format("{} MB/s", l.bandwidth_Bps / replay::kBytesPerMB)
                            : std::string("infinite"),
        l.links ? fmt::format("{} link(s) per node", l.links) : std::string("no link contention"));
  };
  return fmt::format(
      "between nodes: {}; within a node: {}; eager limit {} bytes; cpu ratio {}; {} task(s) per "
      "node",
      link(m.inter_node), link(m.intra_node), m.eager_limit, m.cpu_ratio, m.tasks_per_node);
}

}  // namespace

Result<ReplayReport> ReplayTrace(const std::string& trace, const ReplayOptions& options,
                                 const std::string& output, bool overwrite) {
  if (!output.empty() && !base::EndsWith(output, ".prv") && !base::EndsWith(output, ".prv.gz"))
    return Status::Error("output name must end in .prv or .prv.gz", Location{output, 0, 0},
                         "the .pcf and .row names are derived from it, as Paraver does");
  if (!output.empty()) {
    Status s = session::CheckOutputsAreNotTheInput(
        trace, {output, CompanionPath(output, "pcf"), CompanionPath(output, "row")});
    if (!s.ok()) return s;
  }
  auto model = ModelOf(options);
  if (!model.ok()) return model.status();
  if (!output.empty() && !overwrite && Exists(output))
    return Status::Error("the output file exists", Location{output, 0, 0},
                         "choose another name or pass --force");
  auto loaded = session::OpenTrace(trace, options.load);
  if (!loaded.ok()) return loaded.status();
  const session::TraceImpl& t = *loaded.value();
  const auto start = std::chrono::steady_clock::now();
  auto r = session::ReplayLoaded(t, trace, model.value(), options.load.threads, !output.empty());
  if (!r.ok()) return r.status();
  ReplayReport rep;
  rep.replay_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  rep.trace = trace;
  rep.machine = Describe(model.value());
  const double to_us = model::ConvertTime(1, t.header().unit, model::TimeUnit::kUs);
  rep.original_runtime_us =
      static_cast<double>(std::max(t.store().end_time(), t.header().end_time)) * to_us;
  rep.predicted_runtime_us = r->runtime_us;
  rep.predicted_useful_max_us = r->useful_max_us;
  rep.mpi_events = r->program.mpi_events;
  rep.messages = r->program.messages;
  for (size_t p = 0; p < r->program.processes.size(); ++p)
    rep.tasks.push_back(
        {model::DefaultThreadLabel(t.header().processes,
                                   model::ThreadIndex(r->program.processes[p].thread)),
         r->simulation.end[p] * to_us, r->simulation.compute[p] * to_us});
  for (const replay::DiagnosticEntry& e : r->simulation.diagnostics.entries())
    rep.diagnostics.push_back({e.kind, "warning", e.description, e.count, e.examples});
  if (model.value().Ideal()) {
    rep.ideal_runtime_us = rep.predicted_runtime_us;
    rep.ideal_useful_max_us = rep.predicted_useful_max_us;
  } else {
    replay::MachineModel ideal = replay::IdealMachine();
    ideal.add_init_barrier = model.value().add_init_barrier;
    ideal.eager_limit = model.value().eager_limit;
    auto i = session::ReplayLoaded(t, trace, ideal, options.load.threads, false);
    if (!i.ok()) return i.status();
    rep.ideal_runtime_us = i->runtime_us;
    rep.ideal_useful_max_us = i->useful_max_us;
  }
  if (!output.empty()) {
    replay::PredictedTrace pt =
        replay::BuildPredictedTrace(t.header(), t.store(), r->program, options.load.threads);
    if (Status s = WritePredicted(t, pt, output, overwrite); !s.ok()) return s;
    rep.output = output;
  }
  return rep;
}

std::string FormatReplayText(const ReplayReport& r) {
  std::string out;
  auto add = [&](const std::string& s) { out += s; };
  add(fmt::format("trace              {}\n", r.trace));
  add(fmt::format("machine            {}\n", r.machine));
  add(fmt::format("original runtime   {:.2f} us\n", r.original_runtime_us));
  add(fmt::format("predicted runtime  {:.2f} us ({:+.2f}%)\n", r.predicted_runtime_us,
                  r.original_runtime_us > 0
                      ? (r.predicted_runtime_us / r.original_runtime_us - 1) * 100
                      : 0.0));
  add(fmt::format("useful (max)       {:.2f} us\n", r.predicted_useful_max_us));
  add(fmt::format("ideal network      runtime {:.2f} us, useful (max) {:.2f} us\n",
                  r.ideal_runtime_us, r.ideal_useful_max_us));
  if (r.ideal_runtime_us > 0)
    add(fmt::format("                   serialization efficiency {:.2f}%\n",
                    r.ideal_useful_max_us / r.ideal_runtime_us * 100));
  add(fmt::format("replayed           {} MPI call events, {} messages, {} tasks in {:.3f} s\n",
                  r.mpi_events, r.messages, r.tasks.size(), r.replay_seconds));
  add("\nthread   end (us)          computation (us)\n");
  for (const ReplayTaskResult& t : r.tasks)
    add(fmt::format("{:<8} {:<17.2f} {:.2f}\n", t.thread, t.end_us, t.compute_us));
  if (!r.output.empty()) add(fmt::format("\npredicted trace    {}\n", r.output));
  for (const DiagnosticInfo& d : r.diagnostics) {
    add(fmt::format("\nwarning: {} ({}): {}\n", d.description, d.count, d.kind));
    for (const std::string& e : d.examples) add(fmt::format("  {}\n", e));
  }
  return out;
}

std::string FormatReplayJson(const ReplayReport& r) {
  nlohmann::json j;
  j["trace"] = r.trace;
  j["machine"] = r.machine;
  j["original_runtime_us"] = r.original_runtime_us;
  j["predicted_runtime_us"] = r.predicted_runtime_us;
  j["predicted_useful_max_us"] = r.predicted_useful_max_us;
  j["ideal_runtime_us"] = r.ideal_runtime_us;
  j["ideal_useful_max_us"] = r.ideal_useful_max_us;
  j["mpi_events"] = r.mpi_events;
  j["messages"] = r.messages;
  j["tasks"] = nlohmann::json::array();
  for (const ReplayTaskResult& t : r.tasks)
    j["tasks"].push_back(
        {{"thread", t.thread}, {"end_us", t.end_us}, {"compute_us", t.compute_us}});
  j["diagnostics"] = nlohmann::json::array();
  for (const DiagnosticInfo& d : r.diagnostics)
    j["diagnostics"].push_back({{"kind", d.kind},
                                {"description", d.description},
                                {"count", d.count},
                                {"examples", d.examples}});
  if (!r.output.empty()) j["output"] = r.output;
  return j.dump(2) + "\n";
}

}  // namespace parallax
