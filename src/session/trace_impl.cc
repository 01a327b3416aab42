#include "src/session/trace_impl.h"
#include "src/structure/iterations.h"
#include "src/session/functions_impl.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <unordered_map>

#include "src/base/input_buffer.h"
#include "src/base/memory_budget.h"
#include "src/io/cache/trace_cache.h"
#include "src/io/prv/prv_compact_reader.h"
#include "src/base/parallel.h"
#include "src/io/ksr/ksr_reader.h"
#include "src/io/pcf/pcf_reader.h"
#include "src/io/pcf/pcf_writer.h"
#include "src/io/prv/prv_writer.h"
#include "src/io/row/row_reader.h"
#include "src/io/row/row_writer.h"
#include "src/io/sddf/sddf_trace.h"
#include "src/io/text_file.h"
#include "src/semantic/evaluator.h"
#include "src/session/distributed.h"
#include "src/session/guard.h"
#include "src/io/import/trace_import.h"
#include "src/io/otf2/otf2_trace.h"

namespace parallax {

std::string CompanionPath(const std::string& prv_path, const std::string& extension) {
  std::string base = prv_path;
  if (base::EndsWith(base, ".gz")) base.resize(base.size() - 3);
  if (base::EndsWith(base, "prv")) base.resize(base.size() - 3);
  else base += '.';
  return base + extension;
}

std::vector<std::string> TraceInputFiles(const std::string& path) {
  std::vector<std::string> files{path, CompanionPath(path, "pcf"), CompanionPath(path, "row")};
  // By name: libotf2 refuses an anchor whose name does not end in .otf2.
  const std::string anchor = io::Otf2AnchorOf(path);
  if (base::EndsWith(anchor, ".otf2"))
    for (std::string& f : io::Otf2ArchiveFiles(anchor)) files.push_back(std::move(f));
  return files;
}

Result<std::unique_ptr<Trace>> Trace::Open(const std::string& path, const LoadOptions& options) {
  // No exception leaves the API: running out of memory (or a bug that throws) becomes an error
  // naming the file.
  try {
    auto t = session::OpenTrace(path, options);
    if (!t.ok()) return t.status();
    return std::unique_ptr<Trace>(std::move(t.value()));
  } catch (const std::bad_alloc&) {
    return Status::Error("out of memory while loading the trace", Location{path, 0, 0},
                         "use a machine with more memory, a lower memory limit (to be refused "
                         "early), or cut the trace to a time range or a subset of threads first");
  } catch (const std::exception& e) {
    return Status::Error(fmt::format("internal error while loading the trace: {}", e.what()),
                         Location{path, 0, 0}, "please report this with the file that causes it");
  }
}

namespace session {

std::string PathOf(const Trace& trace) {
  const auto* t = dynamic_cast<const TraceImpl*>(&trace);
  return t != nullptr ? t->path() : std::string();
}

Status ChangedError(const Trace& trace) {
  const auto* t = dynamic_cast<const TraceImpl*>(&trace);
  const base::MappingStatus* cut = t != nullptr ? t->store().TruncatedFile() : nullptr;
  if (cut == nullptr) return Status::Ok();
  return Status::Error(fmt::format("the trace changed while in use: {} became shorter while its records were "
                                   "read from it (truncated or rewritten in place); results computed from it "
                                   "are not given",
                                   cut->path()),
                       Location{t->path(), 0, 0},
                       "something rewrote it (rsync --inplace, cp onto it, another program): open the trace again");
}

namespace {

struct Counts {
  std::unordered_map<uint32_t, uint64_t> states, types;
  model::Time first = model::kNoEnd, last = 0;
};

Counts CountThread(const store::ThreadRecords& tr) {
  Counts c;
  for (uint32_t s : tr.states.state) ++c.states[s];
  for (uint32_t t : tr.events.type) ++c.types[t];
  if (tr.states.size() > 0) c.first = tr.states.begin.front();
  if (tr.events.size() > 0) c.first = std::min(c.first, tr.events.time.front());
  for (model::Time e : tr.states.end)
    if (e != model::kNoEnd) c.last = std::max(c.last, e);
  if (tr.states.size() > 0) c.last = std::max(c.last, tr.states.begin.back());
  if (tr.events.size() > 0) c.last = std::max(c.last, tr.events.time.back());
  return c;
}

std::vector<LabelCount> Sorted(const std::map<int64_t, uint64_t>& m,
                               const std::function<const std::string*(int64_t)>& label) {
  std::vector<LabelCount> out;
  for (const auto& [id, n] : m) {
    const std::string* l = label(id);
    out.push_back(LabelCount{id, l ? *l : std::string(), n});
  }
  return out;
}

void AddDiagnostics(const io::Diagnostics& d, const std::string& file, std::vector<DiagnosticInfo>& out) {
  for (size_t k = 0; k < static_cast<size_t>(io::DiagKind::kCount); ++k) {
    auto kind = static_cast<io::DiagKind>(k);
    if (d.count(kind) == 0) continue;
    DiagnosticInfo info{std::string(io::DiagKindName(kind)),
                        std::string(io::SeverityName(io::DiagKindSeverity(kind))),
                        std::string(io::DiagKindDescription(kind)), d.count(kind), {}};
    for (const auto& e : d.examples(kind)) {
      std::string where = e.line ? fmt::format("{}:{}", file, e.line) : file;
      if (e.column) where += fmt::format(":{}", e.column);
      info.examples.push_back(fmt::format("{}: {}", where, e.detail));
    }
    out.push_back(std::move(info));
  }
}

}  // namespace

TraceInfo TraceImpl::Summary() const {
  const auto& h = prv_.header;
  const auto& st = prv_.store;
  TraceInfo info;
  info.path = path_;
  info.date = h.date;
  info.end_time = h.end_time;
  info.trace_end = st.end_time();
  info.time_unit = std::string(model::TimeUnitName(h.unit));
  info.nodes = h.resources.nodes();
  info.cpus = h.resources.cpus();
  info.appls = h.processes.appls();
  info.tasks = h.processes.tasks();
  info.threads = h.processes.threads();
  info.communicators = h.communicators.size();
  info.states = st.state_records();
  info.events = prv_.event_lines;
  info.event_pairs = st.event_records();
  info.comms = st.comms().rows();
  info.global_comms = prv_.global_comm_lines;
  for (size_t c = 0; c < st.comms().rows(); ++c) {
    info.backward_physical += st.comms().phy_recv[c] < st.comms().phy_send[c];
    info.backward_logical += st.comms().log_recv[c] < st.comms().log_send[c];
  }
  info.records = info.states + info.event_pairs + info.comms;
  info.file_bytes = prv_.file_bytes;
  info.store_bytes = st.RecordBytes();
  info.load_seconds = load_seconds_;
  info.cache_path = cache_path_;
  info.cache_use = cache_use_;
  info.has_pcf = pcf_.has_value();
  info.has_row = row_.has_value();
  AddDiagnostics(prv_.diagnostics, path_, info.diagnostics);
  if (prv_.passed_over_lines > 0)
    info.diagnostics.push_back(DiagnosticInfo{
        "passed_over", "info",
        "event and communication lines passed over unread (a load for analyses of states alone)",
        prv_.passed_over_lines, {}});
  for (const auto& d : companion_diagnostics_) info.diagnostics.push_back(d);
  info.scanned = false;
  return info;
}

TraceInfo TraceImpl::Info() const {
  TraceInfo info = Summary();
  info.scanned = true;
  const auto& st = prv_.store;
  std::vector<Counts> per_thread(st.threads());
  base::ParallelFor(st.threads(), base::DefaultThreads(), [&](size_t t) {
    per_thread[t] = CountThread(*st.Pin(model::ThreadIndex(static_cast<uint32_t>(t))));
  });
  std::map<int64_t, uint64_t> states, types;
  model::Time first = model::kNoEnd, last = 0;
  for (const auto& c : per_thread) {
    for (const auto& [k, n] : c.states) states[k] += n;
    for (const auto& [k, n] : c.types) types[k] += n;
    first = std::min(first, c.first);
    last = std::max(last, c.last);
  }
  const auto& cm = st.comms();
  for (size_t i = 0; i < cm.rows(); ++i) {
    first = std::min({first, cm.log_send[i], cm.phy_send[i]});
    last = std::max({last, cm.log_recv[i], cm.phy_recv[i]});
  }
  info.first_time = first == model::kNoEnd ? 0 : first;
  info.last_time = last;
  const model::PcfCatalog* pcf = this->pcf();
  info.state_values = Sorted(states, [&](int64_t s) { return pcf ? pcf->StateLabel(s) : nullptr; });
  info.event_types = Sorted(types, [&](int64_t t) {
    return pcf ? pcf->EventTypeLabel(static_cast<uint32_t>(t)) : nullptr;
  });
  return info;
}

Status CheckOutputsAreNotTheInput(const std::string& input, const std::vector<std::string>& outputs) {
  std::vector<std::string> inputs = {input, CompanionPath(input, "pcf"), CompanionPath(input, "row")};
  for (const std::string& out : outputs)
    for (const std::string& in : inputs)
      if (base::SameFile(out, in))
        return Status::Error(fmt::format("the output is the input itself ({})", in), Location{out, 0, 0},
                             "write to another name: the input would be destroyed");
  return Status::Ok();
}

Status TraceImpl::WriteUnguarded(const std::string& prv_path, bool overwrite) const {
  if (Status s = CheckOutputsAreNotTheInput(
          path_, {prv_path, CompanionPath(prv_path, "pcf"), CompanionPath(prv_path, "row")});
      !s.ok())
    return s;
  if (io::OutputFormatOf(prv_path) != io::TraceFormat::kPrv)
    return io::ExportTrace(io::TraceView{&prv_.header, &prv_.store, pcf(), row(), &prv_.unsigned_value_types}, prv_path, overwrite);
  if (!base::EndsWith(prv_path, ".prv") && !base::EndsWith(prv_path, ".prv.gz"))
    return Status::Error("output name must end in .prv or .prv.gz", Location{prv_path, 0, 0},
                         "the .pcf and .row names are derived from it, as Paraver does");
  io::PrvWriteInput in{&prv_.header, &prv_.store, &prv_.unsigned_value_types,
                       prv_.open_end_as_number};
  Status s = io::WritePrvFile(in, prv_path, overwrite);
  if (!s.ok()) return s;
  auto write_text = [&](const std::string& path, const std::string& text) {
    return io::WriteTextFile(path, text, overwrite);
  };
  if (pcf_) {
    s = write_text(CompanionPath(prv_path, "pcf"), io::WritePcf(*pcf_));
    if (!s.ok()) return s;
  }
  if (row_) {
    s = write_text(CompanionPath(prv_path, "row"), io::WriteRow(*row_));
    if (!s.ok()) return s;
  }
  return Status::Ok();
}

Status TraceImpl::WriteSddf(const std::string& path, bool binary, bool overwrite) const {
  return session::GuardedOn(*this, path, [&] {
    return io::WriteSddfTrace(io::TraceView{&prv_.header, &prv_.store, pcf(), row(), &prv_.unsigned_value_types}, path,
                              binary, overwrite);
  });
}

Status TraceImpl::Write(const std::string& prv_path, bool overwrite) const {
  return session::GuardedOn(*this, prv_path, [&] { return WriteUnguarded(prv_path, overwrite); });
}

namespace {

// Turns the issues a .pcf/.row reader counted into one diagnostic line of `info`.
template <typename Issues>
void AddCompanionIssues(const Issues& d, const std::string& kind, const std::string& path,
                        std::vector<DiagnosticInfo>& out) {
  if (d.count == 0) return;
  DiagnosticInfo info{kind, "warning", "lines of " + path + " that were ignored", d.count, {}};
  for (const auto& i : d.first)
    info.examples.push_back(fmt::format("{}:{}:{}: {}", path, i.line, i.column, i.reason));
  out.push_back(std::move(info));
}

// An unreadable (not absent) .pcf/.row is reported; an absent one is normal.
void AddUnreadable(const Status& s, bool absent, const std::string& kind, std::vector<DiagnosticInfo>& out) {
  if (s.ok() || absent) return;
  out.push_back(DiagnosticInfo{kind, "warning", "companion file not readable", 1, {s.ToString()}});
}

// A .row level whose SIZE (label count) differs from the trace's object count at that level:
// Paraver names objects by position, so names past the trace's objects are never shown and
// objects past the names get default names. Reported, not refused.
void AddRowSizeMismatches(const model::RowNames& row, const model::TraceHeader& header,
                          const std::string& path, std::vector<DiagnosticInfo>& out) {
  DiagnosticInfo info{"row_size_mismatch", "warning",
                      "levels of " + path + " that name another number of objects than the trace has",
                      0, {}};
  for (model::Level level : {model::Level::kWorkload, model::Level::kAppl, model::Level::kTask,
                             model::Level::kThread, model::Level::kSystem, model::Level::kNode,
                             model::Level::kCpu}) {
    const std::vector<std::string>* labels = row.Labels(level);
    if (labels == nullptr) continue;
    uint64_t objects = semantic::ObjectCount(header, level);
    if (labels->size() == objects) continue;
    ++info.count;
    info.examples.push_back(fmt::format(
        "{}: LEVEL {} SIZE {}, the trace has {}: {}", path, model::LevelName(level),
        labels->size(), objects,
        labels->size() > objects ? "the extra names are unused"
                                 : "the objects without a name get Paraver's default names"));
  }
  if (info.count > 0) out.push_back(std::move(info));
}

// Loads the .pcf/.row beside the trace; absence is normal, problems become diagnostics.
void LoadCompanions(TraceImpl& t, const std::string& path) {
  std::string pcf_path = CompanionPath(path, "pcf");
  io::PcfDiagnostics pd;
  bool absent = false;
  auto pcf = io::ReadPcf(pcf_path, &pd, &absent);
  if (pcf.ok()) t.set_pcf(std::move(pcf.value()));
  AddUnreadable(pcf.status(), absent, "pcf_unreadable", t.companion_diagnostics());
  AddCompanionIssues(pd, "pcf_lines_ignored", pcf_path, t.companion_diagnostics());
  std::string row_path = CompanionPath(path, "row");
  io::RowDiagnostics rd;
  absent = false;
  auto row = io::ReadRow(row_path, &rd, &absent);
  if (row.ok()) {
    AddRowSizeMismatches(row.value(), t.header(), row_path, t.companion_diagnostics());
    t.set_row(std::move(row.value()));
  }
  AddUnreadable(row.status(), absent, "row_unreadable", t.companion_diagnostics());
  AddCompanionIssues(rd, "row_lines_ignored", row_path, t.companion_diagnostics());
}

void Notice(const LoadOptions& options, const std::string& text) {
  if (options.notice) {
    options.notice(text);
  } else {
    std::fprintf(stderr, "%s\n", text.c_str());
  }
}

// Decoded threads a compact store keeps for later readers: by default a quarter of the memory
// limit.
uint64_t ResidentBudget(const LoadOptions& options) {
  if (options.compact_resident >= 0) return static_cast<uint64_t>(options.compact_resident);
  return base::EffectiveMemoryBudget(options.memory_limit) / 4;
}

// Whether the plain columns of a trace would take more than half the memory budget (about 1.3
// bytes per byte of text, a .prv.gz inflating about 8 times): its cache would not stay in the
// page cache, and without a cache they might not fit at all, so it is loaded with compact
// records (a quarter of the size) even when they were not asked for.
bool PlainCacheTooLarge(const std::string& path, uint64_t file_bytes, const LoadOptions& options) {
  const double text = static_cast<double>(file_bytes) * (base::EndsWith(path, ".gz") ? 8 : 1);
  return text * 1.3 > static_cast<double>(base::EffectiveMemoryBudget(options.memory_limit)) / 2;
}

uint64_t FileBytes(const std::string& path) {
  std::error_code ec;
  const uint64_t n = std::filesystem::file_size(path, ec);
  return ec ? 0 : n;
}

// How a first open writes the trace's cache: compact records when asked for or when plain
// ones would be too large.
io::cache::WriteOptions CacheWriteOptions(const std::string& path, const LoadOptions& options) {
  io::cache::WriteOptions w;
  w.compact = options.compact || PlainCacheTooLarge(path, FileBytes(path), options);
  w.resident_budget = ResidentBudget(options);
  return w;
}

// What an open does with the trace cache: where it is, whether it may be written, whether its
// folder is the user's cache folder (kept within LoadOptions::cache_max_bytes).
static_assert(std::string_view(kCacheBeside) == io::cache::kCacheBesideTrace);

struct CachePlan {
  std::string path;   // "" when no cache is used
  std::string use;    // TraceInfo::cache_use, until the open says what happened
  bool exists = false, write = false, managed = false;
};

// With the cache on (LoadOptions::use_cache).
CachePlan PlanCache(const std::string& path, const LoadOptions& options, const io::cache::SourceStamp& stamp) {
  CachePlan plan;
  const std::string cache_path = io::cache::CachePathFor(path, options.cache_dir);
  const std::string folder = std::filesystem::path(cache_path).parent_path().string();
  const uint64_t text_bytes = stamp.size * (base::EndsWith(path, ".gz") ? 8 : 1);
  plan.write = text_bytes >= options.cache_min_bytes;
  std::error_code ec;
  plan.managed = folder == io::cache::UserCacheFolder();
  // The user's cache folder is made only to write a cache into it; another user must not be
  // able to plant or replace the caches read from it.
  if (plan.managed && (plan.write || std::filesystem::exists(folder, ec))) {
    if (Status st = io::cache::EnsurePrivateFolder(folder); !st.ok()) {
      Notice(options, fmt::format("parallax: note: {}: {}", folder, st.message()));
      plan.use = "not used: " + st.message();
      return plan;
    }
  }
  plan.path = cache_path;
  plan.exists = std::filesystem::is_regular_file(cache_path, ec);
  if (!plan.write)
    plan.use = fmt::format("not written: the trace has about {:.1f} MB of text, under the {} MB worth a cache",
                           static_cast<double>(text_bytes) / (1 << 20), options.cache_min_bytes >> 20);
  return plan;
}

// Reads the trace's cache when it is valid for the trace as it is now, else parses the trace
// and writes the cache (when the plan allows). A damaged or stale cache, or one that cannot be
// written, gives one notice; the result is the same either way. `write`: how the cache is written.
Result<io::PrvTrace> ReadPrvCached(const std::string& path, const LoadOptions& options, CachePlan& plan,
                                   const io::cache::SourceStamp& stamp, const io::PrvReadOptions& ro,
                                   const io::cache::WriteOptions& write) {
  const std::string& cache_path = plan.path;
  // The cache is mapped, not copied: its columns are the kernel's page cache, dropped under
  // pressure, so a cache larger than the memory budget is read too (the budget bounds what the
  // process allocates; parsing the trace is what needs it).
  if (plan.exists) {
    io::cache::DecodeOptions d;
    d.expect = &stamp;
    d.threads = options.threads;
    d.resident_budget = ResidentBudget(options);
    auto cached = io::cache::ReadCache(cache_path, d);
    if (cached.ok() && !(options.strict && cached->diagnostics.problems() > 0)) {
      io::cache::TouchCache(cache_path);
      plan.use = "read";
      return cached;
    }
    if (!cached.ok())
      Notice(options, fmt::format("parallax: note: {}: {}; rebuilding it", cache_path, cached.status().message()));
  }
  if (!plan.write)
    return write.compact ? io::ReadPrvCompact(path, ro, write.resident_budget) : io::ReadPrv(path, ro);
  // Parsed straight into the new cache: its columns are written in place, not copied (or, for
  // compact records, coded from there).
  Status written;
  auto prv = io::cache::ParsePrvIntoCache(path, stamp, cache_path, ro, &written, write);
  if (!prv.ok()) return prv;
  if (!written.ok()) {
    Notice(options, fmt::format("parallax: note: {}: {} (the trace is loaded without it)",
                                cache_path, written.message()));
    plan.use = "not written: " + written.message();
    return prv;
  }
  plan.use = "written";
  if (plan.managed && options.cache_max_bytes > 0) {
    const std::string folder = std::filesystem::path(cache_path).parent_path().string();
    if (uint64_t n = io::cache::EvictCaches(folder, options.cache_max_bytes, cache_path); n > 0)
      Notice(options, fmt::format("parallax: note: {}: removed the {} least recently used caches (the folder "
                                  "keeps at most {} MB of them)",
                                  folder, n, options.cache_max_bytes >> 20));
  }
  return prv;
}

}  // namespace

const diagnose::LazyDiagnosis& TraceImpl::diagnosis() const {
  std::call_once(diagnosis_once_, [this] {
    diagnosis_ = std::make_unique<diagnose::LazyDiagnosis>(&header(), &store(), pcf());
  });
  return *diagnosis_;
}

const calls::CallTable& TraceImpl::CallTable(calls::CallTable* own) const {
  if (const diagnose::TraceDiagnosis* ready = diagnosis().IfReady()) return ready->table();
  // With the markers the structure analysis reads (one pass over the events for both).
  *own = calls::BuildCallTable(header(), store(), pcf(), {0, structure::MarkerTypes()});
  return *own;
}

const semantic::FunctionRegistry& TraceImpl::functions() const {
  return semantic::RegistryOr(SemanticRegistry(functions_.get()));
}

namespace {

// `call`: this process' part of a distributed open (options.distribution), or null.
Result<std::unique_ptr<TraceImpl>> OpenTraceWith(const std::string& path, const LoadOptions& options,
                                                 DistributedCall* call) {
  auto start = std::chrono::steady_clock::now();
  // Other formats are imported into the same model; their labels come from the file itself.
  if (io::TraceFormat f = io::DetectTraceFormatOfFile(path); f != io::TraceFormat::kPrv && f != io::TraceFormat::kUnknown) {
    auto imported = io::ImportTrace(path, f, options.memory_limit);
    if (!imported.ok()) return imported.status();
    if (options.strict && imported->prv.diagnostics.problems() > 0) {
      // The first problem, located, as for a .prv.
      if (Status s = io::StrictCheck(imported->prv.diagnostics, path); !s.ok()) return s;
      return Status::Error("the trace has malformed or unbalanced records (--strict)", Location{path, 0, 0},
                           "run `parallax info` without --strict to see them");
    }
    if (options.compact) imported->prv.store.Compact(ResidentBudget(options), options.threads);
    auto t = std::make_unique<TraceImpl>(path, std::move(imported->prv));
    t->set_pcf(std::move(imported->pcf));
    if (imported->row) t->set_row(std::move(*imported->row));
    t->set_functions(options.functions);
    t->set_load_seconds(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    return t;
  }
  io::PrvReadOptions ro;
  ro.strict = options.strict;
  ro.threads = options.threads;
  ro.chunk_bytes = options.chunk_bytes;
  ro.progress = options.progress;
  ro.memory_budget = options.memory_limit;
  // Compact records, with or without a cache, when asked for or when plain ones are too large.
  const io::cache::WriteOptions compact = CacheWriteOptions(path, options);
  // The ranks of a distributed open share the trace through its cache, which they must all
  // see: next to the trace unless a folder is given, whatever the size.
  CachePlan plan;
  plan.use = "off";
  std::optional<io::cache::SourceStamp> stamp;  // read once, when a cache may be used
  if (call != nullptr && options.use_cache) {
    plan.path = io::cache::CachePathFor(path, options.cache_dir.empty() ? std::string(kCacheBeside) : options.cache_dir);
    plan.use = "shared by the ranks";
  } else if (options.use_cache) {
    // A trace that cannot be stamped goes to the reader, which reports why.
    if (auto s = io::cache::StampOf(path); s.ok()) {
      stamp = s.value();
      plan = PlanCache(path, options, *stamp);
    }
  }
  const bool cached = !plan.path.empty() && (plan.exists || plan.write || call != nullptr);
  ro.states_only = options.states_only && !cached;  // a cache has every record
  auto prv = !cached ? (compact.compact ? io::ReadPrvCompact(path, ro, compact.resident_budget)
                                        : io::ReadPrv(path, ro))
             : call != nullptr
                 ? ReadPrvDistributed(path, plan.path, ro, compact, *call,
                                      [&](const std::string& text) { Notice(options, text); })
                 : ReadPrvCached(path, options, plan, *stamp, ro, compact);
  if (!prv.ok()) return prv.status();
  if (options.compact) prv->store.Compact(ResidentBudget(options), options.threads);
  auto t = std::make_unique<TraceImpl>(path, std::move(prv.value()));
  t->set_cache(plan.path, plan.use);
  LoadCompanions(*t, path);
  t->set_functions(options.functions);
  t->set_load_seconds(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return t;
}

}  // namespace

Result<std::unique_ptr<TraceImpl>> OpenTrace(const std::string& path, const LoadOptions& options) {
  if (options.distribution == nullptr) return OpenTraceWith(path, options, nullptr);
  DistributedCall call(*options.distribution);
  LoadOptions o = options;
  if (call.rank() != 0) {  // notices and progress from rank 0 only
    o.notice = [](const std::string&) {};
    o.progress = nullptr;
  }
  try {
    auto t = OpenTraceWith(path, o, &call);
    if (!t.ok()) {
      call.Finish(true);
      return t;
    }
    auto types = ShareEventTypes(t.value()->prv(), call);
    if (!types.ok()) return types.status();
    t.value()->SetEventTypes(std::move(types.value()));
    return t;
  } catch (...) {  // the others must not wait for this process
    call.Finish(true);
    throw;
  }
}

}  // namespace session

std::vector<std::string> LoadWarnings(const TraceInfo& info) {
  std::vector<std::string> lines;
  for (const DiagnosticInfo& d : info.diagnostics) {
    if (d.severity == "info") continue;
    std::string line = fmt::format("{}: {}", info.path, d.description);
    if (d.count > 1) line += fmt::format(" ({} times)", d.count);
    if (!d.examples.empty()) line += fmt::format(" (first: {})", d.examples.front());
    lines.push_back(std::move(line));
  }
  return lines;
}

void LeaveDistributedOpen(const Distribution& distribution) {
  session::DistributedCall(distribution).Finish(true);
}

Status WriteSddf(const Trace& trace, const std::string& path, bool binary, bool overwrite) {
  const auto* impl = dynamic_cast<const session::TraceImpl*>(&trace);
  if (!impl) return Status::Error("not a loaded trace", Location{path, 0, 0});
  return impl->WriteSddf(path, binary, overwrite);
}

bool IsKsrLog(const std::string& path) { return io::DetectTraceFormatOfFile(path) == io::TraceFormat::kKsr; }

Status ConvertKsrLogToSddf(const std::string& log, const std::string& sddf, bool binary, bool overwrite) {
  return session::Guarded(sddf, [&] { return io::ConvertKsrToSddf(log, sddf, binary, overwrite); });
}

}  // namespace parallax
