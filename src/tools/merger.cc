// `parallax merge` of Paraver traces (prvmerger -merge / -concat): several .prv streamed at
// once into one. Merge puts the applications of the inputs side by side (renumbering
// applications and cpus) and interleaves the bodies by time; concat appends inputs of the same
// structure one after the other in time. The .pcf files are merged label by label and the .row
// files object by object.

#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <functional>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "include/parallax/tools.h"
#include "src/base/regular_file.h"
#include "src/io/pcf/pcf_reader.h"
#include "src/io/pcf/pcf_writer.h"
#include "src/io/prv/prv_writer.h"
#include "src/io/row/row_reader.h"
#include "src/io/row/row_writer.h"
#include "src/tools/output_file.h"
#include "src/tools/prv_record.h"
#include "src/tools/trace_stream.h"

namespace parallax {

bool IsParaverTrace(const std::string& path) {
  auto fd = base::OpenRegularFile(path);
  if (!fd.ok()) return false;
  gzFile f = gzdopen(fd.value(), "rb");  // reads plain files as they are
  if (!f) {
    ::close(fd.value());
    return false;
  }
  char buf[8] = {};
  int n = gzread(f, buf, sizeof buf);
  gzclose(f);
  return n == 8 && std::string_view(buf, 8) == "#Paraver";
}

namespace {

using tools::InputTrace;
using tools::OutputFile;
using tools::PrvRecord;

// How the records of one input are renumbered and moved.
struct Renumber {
  uint32_t appl = 0, cpu = 0;  // added to application and (non-zero) cpu numbers
  uint64_t time = 0;           // added to every time (concat)
};

struct Source {
  std::string path;
  InputTrace in;
  std::unique_ptr<tools::RecordStream> stream;  // over in.lines, from the first record read
  Renumber move;
  PrvRecord rec;
  bool live = false;
};

constexpr size_t kMaxConflicts = 20;

Status CheckObjects(const Source& s, uint32_t cpu, uint32_t appl, uint32_t task, uint32_t thread) {
  const model::TraceHeader& h = s.in.header;
  model::ThreadIndex th;
  Location at{s.path, s.stream->line_number(), 1};
  if (!h.processes.FindThread(appl, task, thread, &th))
    return Status::Error("thread " + std::to_string(appl) + ":" + std::to_string(task) + ":" +
                             std::to_string(thread) + " is not in the header",
                         at, "fix the record or the header's process model");
  if (cpu > h.resources.cpus() && !h.resources.empty())
    return Status::Error("cpu " + std::to_string(cpu) + " is not in the header (" +
                             std::to_string(h.resources.cpus()) + " cpus)",
                         at, "fix the record or the header's resource model");
  return Status::Ok();
}

// Reads the next body record of `s` (a state, event, communication or type-4 global operation;
// other lines are skipped and counted in *others); false at the end. Comment lines are written at once: they stay after what preceded them in their input.
Status Advance(Source& s, OutputFile& out, uint64_t* others, uint64_t* records,
               unsigned threads) {
  // Event pairs are copied as text: checked, not kept.
  if (s.stream == nullptr)
    s.stream = std::make_unique<tools::RecordStream>(
        *s.in.lines, tools::RecordParse{tools::Pairs::kCheck, true}, threads);
  const PrvRecord* rec = nullptr;
  while (s.stream->Next(&rec)) {
    ++*records;
    if (rec->kind == '#') {
      out.Text(rec->line);
      out.Char('\n');
      continue;
    }
    if (rec->kind == 'o') {
      if (!rec->line.empty()) ++*others;
      continue;
    }
    s.rec = *rec;
    // Renumbering moves objects into the ranges of the other inputs: one outside its own
    // header would land on another input's thread or cpu.
    Status st = CheckObjects(s, s.rec.cpu, s.rec.appl, s.rec.task, s.rec.thread);
    if (st.ok() && s.rec.kind == '3')
      st = CheckObjects(s, s.rec.cpu2, s.rec.appl2, s.rec.task2, s.rec.thread2);
    if (!st.ok()) return st;
    s.live = true;
    return Status::Ok();
  }
  s.live = false;
  return s.stream->status();
}

void Ids(OutputFile& out, const Renumber& m, uint32_t cpu, uint32_t appl, uint32_t task,
         uint32_t thread) {
  out.Num(cpu ? cpu + m.cpu : 0);
  out.Char(':');
  out.Num(appl + m.appl);
  out.Char(':');
  out.Num(task);
  out.Char(':');
  out.Num(thread);
  out.Char(':');
}

// Writes a state, event, communication or global operation record renumbered and moved by
// `m`. A global operation's fields after its time (communicator, sizes, operation, ...) need no
// renumbering: communicator ids are per application and stay valid as their `c:` lines move
// with it.
uint64_t WriteRecord(OutputFile& out, const PrvRecord& r, const Renumber& m) {
  out.Char(r.kind);
  out.Char(':');
  Ids(out, m, r.cpu, r.appl, r.task, r.thread);
  out.Num(r.t1 + m.time);
  uint64_t last = r.t1 + m.time;
  if (r.kind == '1') {
    out.Char(':');
    out.Num(r.t2 + m.time);
    out.Char(':');
    out.Num(r.state);
    last = r.t2 + m.time;
  } else if (r.kind == '2' || r.kind == '4') {
    out.Text(r.line.substr(r.pairs_at - 1));
  } else {
    out.Char(':');
    out.Num(r.t2 + m.time);
    out.Char(':');
    Ids(out, m, r.cpu2, r.appl2, r.task2, r.thread2);
    out.Num(r.t3 + m.time);
    out.Char(':');
    out.Num(r.t4 + m.time);
    out.Char(':');
    out.Text(r.size_text);
    out.Char(':');
    out.Text(r.tag_text);
    last = std::max({r.t2, r.t3, r.t4}) + m.time;
  }
  out.Char('\n');
  return last;
}

// "c:APPL:..." with APPL renumbered.
std::string RenumberCommunicator(const std::string& line, uint32_t appl_offset) {
  if (appl_offset == 0 || line.size() < 3 || line[0] != 'c' || line[1] != ':') return line;
  size_t end = line.find(':', 2);
  uint32_t appl = 0;
  auto r = std::from_chars(line.data() + 2, line.data() + (end == std::string::npos ? line.size() : end),
                           appl);
  if (r.ec != std::errc()) return line;
  return "c:" + std::to_string(appl + appl_offset) + line.substr(r.ptr - line.data());
}

bool SameStructure(const model::TraceHeader& a, const model::TraceHeader& b) {
  const auto &p = a.processes, &q = b.processes;
  if (p.appls() != q.appls() || p.tasks() != q.tasks() || p.threads() != q.threads()) return false;
  for (uint32_t t = 0; t < p.tasks(); ++t)
    if (p.task(model::TaskIndex(t)).threads != q.task(model::TaskIndex(t)).threads ||
        p.task(model::TaskIndex(t)).appl.value != q.task(model::TaskIndex(t)).appl.value)
      return false;
  return a.resources.cpus_per_node() == b.resources.cpus_per_node();
}

// The header of the result: merge stacks the applications, nodes and cpus of the inputs;
// concat keeps the first input's structure. Fills each source's renumbering.
Result<model::TraceHeader> MergedHeader(std::vector<Source>& sources, bool concat) {
  const model::TraceHeader& first = sources[0].in.header;
  model::TraceHeader h = first;
  h.communicators.clear();
  uint64_t end = 0;
  std::vector<uint32_t> cpus_per_node;
  model::ProcessModel processes;
  uint32_t appls = 0, nodes = 0, cpus = 0;
  for (Source& s : sources) {
    const model::TraceHeader& x = s.in.header;
    if (x.unit != first.unit)
      return Status::Error(s.path + " is in " + std::string(model::TimeUnitName(x.unit)) + ", " +
                               sources[0].path + " in " +
                               std::string(model::TimeUnitName(first.unit)),
                           {s.path, 1, 1},
                           "merge traces of the same time unit (no unit translation is done)");
    if (concat) {
      if (!SameStructure(first, x))
        return Status::Error(
            s.path + " does not have the applications, tasks, threads and cpus of " +
                sources[0].path,
            {s.path, 1, 1},
            "--concat needs traces of the same structure; without it the applications are "
            "put side by side");
      s.move.time = end;
      end += x.end_time;
      if (&s == &sources[0]) h.communicators = x.communicators;
      continue;
    }
    s.move.appl = appls;
    s.move.cpu = cpus;
    end = std::max<uint64_t>(end, x.end_time);
    for (uint32_t a = 0; a < x.processes.appls(); ++a) {
      const model::ApplInfo& ai = x.processes.appl(model::ApplIndex(a));
      std::vector<std::pair<uint32_t, uint32_t>> tasks;
      for (uint32_t t = 0; t < ai.tasks; ++t) {
        const model::TaskInfo& ti = x.processes.task(model::TaskIndex(ai.first_task.value + t));
        tasks.emplace_back(ti.threads, ti.node ? ti.node + nodes : 0);
      }
      processes.AddAppl(tasks);
    }
    for (const std::string& c : x.communicators) h.communicators.push_back(RenumberCommunicator(c, appls));
    cpus_per_node.insert(cpus_per_node.end(), x.resources.cpus_per_node().begin(),
                         x.resources.cpus_per_node().end());
    appls += x.processes.appls();
    nodes += x.resources.nodes();
    cpus += x.resources.cpus();
  }
  h.end_time = end;
  if (!concat) {
    h.processes = std::move(processes);
    h.resources = model::ResourceModel(std::move(cpus_per_node));
    h.resources_bare = false;
  }
  if (!h.communicators.empty()) h.has_comm_count = true;
  return h;
}

// --- .pcf ---------------------------------------------------------------------------------

struct PcfMerge {
  model::PcfCatalog catalog;
  bool any = false;
  std::vector<std::string> conflicts;
  uint64_t more_conflicts = 0;

  void Conflict(std::string text) {
    if (conflicts.size() < kMaxConflicts) conflicts.push_back(std::move(text));
    else ++more_conflicts;
  }

  // Block index of `type` in the catalog (the last block naming it), or -1.
  int BlockOf(uint32_t type) const {
    for (size_t b = catalog.event_blocks.size(); b-- > 0;)
      for (const model::PcfEventType& t : catalog.event_blocks[b].types)
        if (t.type == type) return static_cast<int>(b);
    return -1;
  }

  template <typename T, typename Key, typename Label>
  void AddLabels(std::vector<T>& into, const std::vector<T>& from, const std::string& what,
                 const std::string& path, Key key, Label label) {
    for (const T& x : from) {
      auto it = std::find_if(into.begin(), into.end(), [&](const T& y) { return key(y) == key(x); });
      if (it == into.end()) into.push_back(x);
      else if (!(label(*it) == label(x)))
        Conflict(what + " " + std::to_string(key(x)) + ": \"" + label(x) + "\" in " + path +
                 ", \"" + label(*it) + "\" kept");
    }
  }

  void Add(const model::PcfCatalog& c, const std::string& path) {
    if (!any) {
      catalog = c;
      catalog.layout.clear();  // written canonically once changed
      any = true;
      return;
    }
    auto num = [](const auto& x) { return static_cast<int64_t>(x.number); };
    auto text = [](const auto& x) { return x.label; };
    AddLabels(catalog.states, c.states, "state", path, num, text);
    AddLabels(catalog.gradient_names, c.gradient_names, "gradient", path, num, text);
    auto val = [](const auto& x) { return static_cast<int64_t>(x.value); };
    auto rgb = [](const model::PcfColor& x) {
      return std::to_string(x.rgb.r) + "," + std::to_string(x.rgb.g) + "," + std::to_string(x.rgb.b);
    };
    AddLabels(catalog.states_color, c.states_color, "state colour", path, val, rgb);
    AddLabels(catalog.gradient_color, c.gradient_color, "gradient colour", path, val, rgb);
    for (const model::PcfEventBlock& b : c.event_blocks) AddBlock(b, path);
    catalog.Finalize();
  }

  void AddBlock(const model::PcfEventBlock& b, const std::string& path) {
    model::PcfEventBlock fresh;
    fresh.precision = b.precision;
    fresh.values = b.values;
    fresh.values_line = !b.values.empty();
    for (const model::PcfEventType& t : b.types) {
      int at = BlockOf(t.type);
      if (at < 0) {
        fresh.types.push_back(t);
        continue;
      }
      const std::string* label = catalog.EventTypeLabel(t.type);
      if (label && *label != t.label)
        Conflict("event type " + std::to_string(t.type) + ": \"" + t.label + "\" in " + path +
                 ", \"" + *label + "\" kept");
      std::vector<model::PcfEventValue> missing;
      for (const model::PcfEventValue& v : b.values) {
        const std::string* have = catalog.EventValueLabel(t.type, v.value);
        if (!have) missing.push_back(v);
        else if (*have != v.label)
          Conflict("event type " + std::to_string(t.type) + " value " + std::to_string(v.value) +
                   ": \"" + v.label + "\" in " + path + ", \"" + *have + "\" kept");
      }
      if (missing.empty()) continue;
      model::PcfEventBlock& own = catalog.event_blocks[static_cast<size_t>(at)];
      if (own.types.size() == 1) {
        own.values.insert(own.values.end(), missing.begin(), missing.end());
        own.values_line = true;
      } else {  // the values belong to this type only: a block of its own
        model::PcfEventBlock extra;
        extra.types.push_back(*std::find_if(own.types.begin(), own.types.end(),
                                            [&](const model::PcfEventType& x) { return x.type == t.type; }));
        extra.values = std::move(missing);
        extra.values_line = true;
        catalog.event_blocks.push_back(std::move(extra));
      }
      catalog.Finalize();
    }
    if (!fresh.types.empty()) catalog.event_blocks.push_back(std::move(fresh));
    catalog.Finalize();
  }
};

// --- .row ---------------------------------------------------------------------------------

// The labels of every object of `level` in the merged trace: each input's own labels, or the
// default label of the object in the merged numbering when an input names none.
std::vector<std::string> MergedLabels(model::Level level, const std::vector<Source>& sources,
                                      const std::vector<model::RowNames>& rows,
                                      const model::TraceHeader& merged) {
  std::vector<std::string> out;
  for (size_t i = 0; i < sources.size(); ++i) {
    const model::TraceHeader& x = sources[i].in.header;
    uint32_t n = 0;
    switch (level) {
      case model::Level::kAppl: n = x.processes.appls(); break;
      case model::Level::kTask: n = x.processes.tasks(); break;
      case model::Level::kThread: n = x.processes.threads(); break;
      case model::Level::kNode: n = x.resources.nodes(); break;
      case model::Level::kCpu: n = x.resources.cpus(); break;
      default: n = 1;
    }
    for (uint32_t k = 0; k < n; ++k) {
      const std::string* label = rows[i].Label(level, k);
      if (label) {
        out.push_back(*label);
        continue;
      }
      const uint32_t g = static_cast<uint32_t>(out.size());
      switch (level) {
        case model::Level::kAppl: out.push_back(model::DefaultApplLabel(model::ApplIndex(g))); break;
        case model::Level::kTask: out.push_back(model::DefaultTaskLabel(merged.processes, model::TaskIndex(g))); break;
        case model::Level::kThread: out.push_back(model::DefaultThreadLabel(merged.processes, model::ThreadIndex(g))); break;
        case model::Level::kNode: out.push_back(model::DefaultNodeLabel(model::NodeIndex(g))); break;
        case model::Level::kCpu: out.push_back(model::DefaultCpuLabel(merged.resources, model::CpuId(g + 1))); break;
        default: out.push_back(""); break;
      }
    }
    if (level == model::Level::kWorkload || level == model::Level::kSystem) break;
  }
  return out;
}

// Writes a small companion file (.pcf, .row) of the result under a temporary name.
Result<std::unique_ptr<OutputFile>> Companion(const std::string& path, const std::string& text,
                                              bool force) {
  auto f = OutputFile::Create(path, force);
  if (!f.ok()) return f.status();
  f.value()->Text(text);
  return f;
}

}  // namespace

Result<ToolReport> MergePrvTraces(const ToolRun& run, const MergeOptions& options) {
  if (options.inputs.size() < 2)
    return Status::Error("merge needs at least two traces", {}, "give two or more .prv files");
  for (const std::string& in : options.inputs) {
    ToolRun check = run;
    check.input = in;
    Status s = tools::CheckOutputs(check);
    if (!s.ok()) return s;
  }
  std::vector<Source> sources(options.inputs.size());
  ToolReport report;
  for (size_t i = 0; i < sources.size(); ++i) {
    sources[i].path = options.inputs[i];
    auto in = tools::OpenInputTrace(options.inputs[i]);
    if (!in.ok()) return in.status();
    sources[i].in = std::move(in).value();
    report.input_bytes += sources[i].in.lines->bytes_total();
  }
  auto header = MergedHeader(sources, options.concat);
  if (!header.ok()) return header.status();

  // Companions first (small): nothing is renamed into place before the body is complete.
  PcfMerge pcf;
  std::vector<model::RowNames> rows(sources.size());
  bool any_row = false;
  for (size_t i = 0; i < sources.size(); ++i) {
    bool absent = false;
    auto c = io::ReadPcf(TraceCompanion(sources[i].path, ".pcf"), nullptr, &absent);
    if (c.ok()) pcf.Add(c.value(), sources[i].path);
    else if (!absent) return c.status();
    auto r = io::ReadRow(TraceCompanion(sources[i].path, ".row"), nullptr, &absent);
    if (r.ok()) {
      rows[i] = std::move(r).value();
      any_row = true;
    } else if (!absent) {
      return r.status();
    }
  }
  std::unique_ptr<OutputFile> pcf_out, row_out;
  if (pcf.any) {
    auto f = Companion(TraceCompanion(run.output, ".pcf"), io::WritePcf(pcf.catalog), run.force);
    if (!f.ok()) return f.status();
    pcf_out = std::move(f).value();
  }
  if (any_row) {
    model::RowNames names;
    if (options.concat) {
      names = rows[0];
    } else {
      for (model::Level level : {model::Level::kCpu, model::Level::kNode, model::Level::kThread,
                                 model::Level::kTask, model::Level::kAppl}) {
        bool named = std::any_of(rows.begin(), rows.end(),
                                 [&](const model::RowNames& r) { return r.Labels(level); });
        if (named) names.SetLabels(level, MergedLabels(level, sources, rows, header.value()));
      }
    }
    auto f = Companion(TraceCompanion(run.output, ".row"), io::WriteRow(names), run.force);
    if (!f.ok()) return f.status();
    row_out = std::move(f).value();
  }

  auto out_r = tools::CreateTraceOutput(run);
  if (!out_r.ok()) return out_r.status();
  OutputFile& out = *out_r.value();
  out.WriteBehind();
  out.Text(io::FormatPrvHeader(header.value()));

  uint64_t others = 0, next_tick = 0, past_end = 0;
  // Inputs are parsed ahead on their own threads; with many inputs, fewer (or none) each.
  const unsigned threads = sources.size() <= 2   ? tools::DefaultParseThreads()
                           : sources.size() <= 8 ? 1
                                                 : 0;
  auto tick = [&] {
    if (!run.progress || (report.output_records & 4095) != 0) return;
    uint64_t done = 0;
    for (const Source& s : sources)
      if (s.stream != nullptr) done += s.stream->bytes_done();
    if (done < next_tick) return;
    next_tick = done + (16u << 20);
    run.progress(done, report.input_bytes);
  };
  auto emit = [&](Source& s) {
    uint64_t last = WriteRecord(out, s.rec, s.move);
    if (options.concat && last > s.move.time + s.in.header.end_time) ++past_end;
    ++report.output_records;
  };
  if (options.concat) {
    for (Source& s : sources) {
      for (;;) {
        Status st = Advance(s, out, &others, &report.input_records, threads);
        if (!st.ok()) return st;
        if (!s.live) break;
        emit(s);
        tick();
      }
    }
  } else {
    // k-way merge by the first time of each record; ties go to the earlier input.
    using Head = std::pair<uint64_t, size_t>;
    std::priority_queue<Head, std::vector<Head>, std::greater<Head>> heads;
    for (size_t i = 0; i < sources.size(); ++i) {
      Status st = Advance(sources[i], out, &others, &report.input_records, threads);
      if (!st.ok()) return st;
      if (sources[i].live) heads.emplace(sources[i].rec.t1, i);
    }
    while (!heads.empty()) {
      size_t i = heads.top().second;
      heads.pop();
      Source& s = sources[i];
      emit(s);
      Status st = Advance(s, out, &others, &report.input_records, threads);
      if (!st.ok()) return st;
      if (s.live) heads.emplace(s.rec.t1, i);
      tick();
    }
  }
  if (run.progress) run.progress(report.input_bytes, report.input_bytes);
  report.output_bytes = out.bytes_written();
  Status s = out.Commit();
  if (s.ok() && pcf_out) s = pcf_out->Commit();
  if (s.ok() && row_out) s = row_out->Commit();
  if (!s.ok()) return s;
  if (others) report.notes.push_back(tools::SkippedLinesNote(others));
  if (past_end)
    report.notes.push_back(std::to_string(past_end) +
                           " records end after their input's header end time, so they overlap "
                           "the next input in the concatenation");
  for (std::string& c : pcf.conflicts) report.notes.push_back("conflicting .pcf label: " + c);
  if (pcf.more_conflicts)
    report.notes.push_back("and " + std::to_string(pcf.more_conflicts) +
                           " more conflicting .pcf labels");
  if (report.output_records == 0) report.notes.push_back("the merged trace has no record");
  return report;
}

}  // namespace parallax
