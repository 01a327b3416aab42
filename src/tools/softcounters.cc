// Paraver's software counters, streamed: the events of the selected types are counted (one per
// occurrence, per value) or accumulated (sum of values) per thread, and the counts are written
// as new events — per interval of the running state (by intervals) or at the start of each
// long enough burst (by states) — in place of the original events. The rules follow the
// reference record by record; docs/tools.md and docs/compatibility.md list them and the few
// deliberate differences.
//
// Counter event types: counting type T value V gives ((T / 10000) + T % 10000 + 10000) * 1000 + V
// (e.g. 50000003 value 31 -> 15003031); global counters give T / 10000 + 20000 + T % 10000
// (50000003 -> 25003); accumulated values keep T.

#include <algorithm>
#include <map>
#include <set>

#include "include/parallax/tools.h"
#include "src/io/pcf/pcf_reader.h"
#include "src/io/prv/prv_writer.h"
#include "src/tools/prv_record.h"
#include "src/tools/trace_stream.h"

namespace parallax {

namespace {

uint64_t CountType(uint64_t type, uint64_t value, bool global) {
  if (global) return type / 10000 + 20000 + type % 10000;
  return ((type / 10000) + type % 10000 + 10000) * 1000 + value;
}

struct Counter {
  uint64_t type = 0;
  uint64_t value = 0;
  uint64_t num = 0;
};

struct ThreadCounters {
  uint32_t appl = 0, task = 0, thread = 0;
  std::vector<Counter> accum, count;  // in order of first occurrence
  uint64_t last_sc_time = 0;
  uint64_t burst_begin = 0, burst_end = 0;
  uint64_t total_burst_time = 0;
};

class SoftCountersEngine {
 public:
  SoftCountersEngine(const SoftCountersOptions& o, uint64_t trace_end, tools::OutputFile* out)
      : o_(o), trace_end_(trace_end), out_(out) {
    all_types_ = o.count_types.empty() && o.accum_types.empty();
    remove_states_ = o.remove_states || o.summarize_useful_states;
  }

  void Process(const tools::PrvRecord& r) {
    if (r.kind == '#') {
      out_->Text(r.line);
      out_->Char('\n');
      return;
    }
    if (r.kind != '1' && r.kind != '2' && r.kind != '3') return;
    ThreadCounters& t = Thread(r);
    if (o_.by_intervals) {
      if (r.kind == '1') IntervalState(r, t);
      if (r.kind == '2') IntervalEvents(r, t);
    } else {
      if (r.kind == '1') BurstState(r, t);
      if (r.kind == '2') BurstEvents(r, t);
    }
  }

  void Finish() {
    if (o_.by_intervals) {
      last_time_ = trace_end_ >= 10 ? trace_end_ - 10 : 0;
      for (auto& [key, t] : threads_) Dump(t, false);
    } else {
      for (const OpenBurst& b : open_states_) {
        last_time_ = b.end;
        Dump(*b.counters, true);
      }
      open_states_.clear();
    }
  }

  uint64_t events_written() const { return events_written_; }

 private:
  static uint64_t Key(uint32_t appl, uint32_t task, uint32_t thread) {
    return (uint64_t{appl} << 42) | (uint64_t{task} << 21) | uint64_t{thread};
  }
  ThreadCounters& Thread(const tools::PrvRecord& r) {
    uint64_t key = Key(r.appl, r.task, r.thread);
    if (cached_ != nullptr && cached_key_ == key) return *cached_;
    auto [it, inserted] = threads_.try_emplace(key);
    if (inserted) {
      it->second.appl = r.appl;
      it->second.task = r.task;
      it->second.thread = r.thread;
    }
    cached_key_ = key;
    cached_ = &it->second;
    return it->second;
  }

  static bool Allowed(const std::vector<EventTypeSelector>& list, uint64_t type, int64_t value) {
    if (value == 0) return false;
    for (const EventTypeSelector& s : list) {
      bool type_ok =
          s.last_type > s.type ? (type >= s.type && type <= s.last_type) : type == s.type;
      if (!type_ok) continue;
      if (s.values.empty() || std::find(s.values.begin(), s.values.end(), value) != s.values.end())
        return true;
    }
    return false;
  }

  void Increment(std::vector<Counter>& counters, const std::vector<EventTypeSelector>& list,
                 uint64_t type, int64_t value, uint64_t amount, bool accumulate) {
    if (!((all_types_ && value != 0) || Allowed(list, type, value))) return;
    uint64_t v = static_cast<uint64_t>(value);
    for (Counter& c : counters) {
      if (c.type == type && (c.value == v || o_.global_counters || accumulate)) {
        c.num += amount;
        return;
      }
    }
    counters.push_back({type, v, amount});
  }

  void Count(ThreadCounters& t, const tools::EventPair& p) {
    Increment(t.accum, o_.accum_types, p.type, p.value, static_cast<uint64_t>(p.value), true);
    Increment(t.count, o_.count_types, p.type, p.value, 1, false);
  }

  void CounterLine(const ThreadCounters& t, uint64_t type, uint64_t num) {
    out_->Text("2:0");
    for (uint64_t v :
         {uint64_t{t.appl}, uint64_t{t.task}, uint64_t{t.thread}, last_time_, type, num}) {
      out_->Char(':');
      out_->Num(v);
    }
    out_->Char('\n');
    ++events_written_;
  }

  // Writes the thread's counters at last_time_; `reset` sets them back to 0.
  void Dump(ThreadCounters& t, bool reset) {
    for (Counter& c : t.accum) {
      CounterLine(t, c.type, c.num);
      if (reset) c.num = 0;
    }
    for (Counter& c : t.count) {
      CounterLine(t, CountType(c.type, c.value, o_.global_counters), c.num);
      if (reset) c.num = 0;
    }
  }

  void DumpOnState(ThreadCounters& t) {
    Dump(t, true);
    t.last_sc_time = last_time_;
    if (o_.summarize_useful_states) {
      CounterLine(t, 1, t.total_burst_time);
      t.total_burst_time = 0;
    }
  }

  void StateLine(const tools::PrvRecord& r) {
    out_->Char('1');
    for (uint64_t v : {uint64_t{r.cpu}, uint64_t{r.appl}, uint64_t{r.task}, uint64_t{r.thread},
                       r.t1, r.t2, uint64_t{r.state}}) {
      out_->Char(':');
      out_->Num(v);
    }
    out_->Char('\n');
  }

  // The kept events of a line, written when there is at least one.
  void KeptEvents(const tools::PrvRecord& r) {
    if (o_.keep_types.empty()) return;
    bool any = false;
    for (const tools::EventPair& p : r.events) {
      if (std::find(o_.keep_types.begin(), o_.keep_types.end(), p.type) == o_.keep_types.end())
        continue;
      if (!any) {
        out_->Char('2');
        for (uint64_t v :
             {uint64_t{r.cpu}, uint64_t{r.appl}, uint64_t{r.task}, uint64_t{r.thread}, r.t1}) {
          out_->Char(':');
          out_->Num(v);
        }
        any = true;
      }
      out_->Char(':');
      out_->Num(p.type);
      out_->Char(':');
      out_->Text(p.value_text);
    }
    if (any) out_->Char('\n');
  }

  void IntervalState(const tools::PrvRecord& r, ThreadCounters& t) {
    if (r.state != 1) return;
    t.burst_begin = r.t1;
    t.burst_end = r.t2;
    if (r.t2 >= t.last_sc_time + o_.sampling_interval) {
      last_time_ = r.t1;
      DumpOnState(t);
    }
    if (o_.summarize_useful_states) t.total_burst_time += r.t2 - r.t1;
    if (!remove_states_) StateLine(r);
  }

  void IntervalEvents(const tools::PrvRecord& r, ThreadCounters& t) {
    KeptEvents(r);
    bool inside = !o_.only_in_burst_counting || (r.t1 > t.burst_begin && r.t1 <= t.burst_end);
    if (!inside) return;
    for (const tools::EventPair& p : r.events) Count(t, p);
  }

  void BurstState(const tools::PrvRecord& r, ThreadCounters& t) {
    uint64_t min = o_.minimum_burst_time;
    bool take = min == 0 || (r.t2 >= r.t1 && r.t2 - r.t1 >= min && r.state == 1);
    if (!take) return;
    const uint64_t key = Key(r.appl, r.task, r.thread);
    auto at = std::lower_bound(open_states_.begin(), open_states_.end(), key,
                               [](const OpenBurst& b, uint64_t k) { return b.key < k; });
    if (at == open_states_.end() || at->key != key) {
      open_states_.insert(at, {key, r.t2, &t});
      earliest_end_ = std::min(earliest_end_, r.t2);
    }
    last_time_ = r.t1;
    DumpOnState(t);
    StateLine(r);
  }

  void BurstEvents(const tools::PrvRecord& r, ThreadCounters& t) {
    // Only scan the pending bursts when one of them has ended (most events fall before that).
    if (r.t1 > earliest_end_) FlushEndedBursts(r.t1);
    KeptEvents(r);
    for (const tools::EventPair& p : r.events) Count(t, p);
  }

  void FlushEndedBursts(uint64_t time) {
    earliest_end_ = UINT64_MAX;
    size_t kept = 0;
    for (const OpenBurst& b : open_states_) {
      if (b.end < time) {
        // A burst's counters are written at the end of the burst.
        last_time_ = b.end;
        Dump(*b.counters, true);
      } else {
        earliest_end_ = std::min(earliest_end_, b.end);
        open_states_[kept++] = b;
      }
    }
    open_states_.resize(kept);
  }

  const SoftCountersOptions& o_;
  uint64_t trace_end_;
  tools::OutputFile* out_;
  bool all_types_ = true;
  bool remove_states_ = false;
  uint64_t last_time_ = 0;
  std::map<uint64_t, ThreadCounters> threads_;  // ordered: the final counters follow thread order
  // By states: the threads with a pending burst, in thread order (the order their counters
  // are written in when several bursts end together), with the burst's end.
  struct OpenBurst {
    uint64_t key;
    uint64_t end;
    ThreadCounters* counters;  // a node of threads_ (never moves)
  };
  std::vector<OpenBurst> open_states_;
  uint64_t earliest_end_ = UINT64_MAX;          // the smallest end in open_states_
  uint64_t cached_key_ = 0;
  ThreadCounters* cached_ = nullptr;
  uint64_t events_written_ = 0;
};

// The output .pcf: the input's options, states and colours, and one event type per counter.
std::string CountersPcf(const model::PcfCatalog& in, const SoftCountersOptions& o) {
  auto option = [&](const std::vector<model::PcfOption>& opts, const std::string& key,
                    const std::string& def) {
    for (const model::PcfOption& p : opts)
      if (p.key == key) return p.value;
    return def;
  };
  auto pad = [](const std::string& key) {
    return key + std::string(key.size() < 20 ? 20 - key.size() : 1, ' ');
  };
  std::string s = "DEFAULT_OPTIONS\n";
  s += pad("LEVEL") + option(in.default_options, "LEVEL", "THREAD") + "\n";
  s += pad("UNITS") + option(in.default_options, "UNITS", "NANOSEC") + "\n";
  s += pad("LOOK_BACK") + option(in.default_options, "LOOK_BACK", "100") + "\n";
  s += pad("SPEED") + option(in.default_options, "SPEED", "1") + "\n";
  s += pad("FLAG_ICONS") + option(in.default_options, "FLAG_ICONS", "ENABLED") + "\n";
  s += pad("NUM_OF_STATE_COLORS") + std::to_string(in.states_color.size()) + "\n";
  s += pad("YMAX_SCALE") + option(in.default_options, "YMAX_SCALE", "37") + "\n\n";
  s += "DEFAULT_SEMANTIC\n";
  s += pad("THREAD_FUNC") + option(in.default_semantic, "THREAD_FUNC", "State As Is") + "\n\n";
  s += "STATES\n";
  for (const model::PcfLabel& l : in.states) s += std::to_string(l.number) + "\t" + l.label + "\n";
  s += "\nSTATES_COLOR\n";
  for (const model::PcfColor& c : in.states_color) {
    s += std::to_string(c.value) + "\t{" + std::to_string(c.rgb.r) + "," + std::to_string(c.rgb.g) +
         "," + std::to_string(c.rgb.b) + "}\n";
  }
  s += "\n";
  std::map<uint64_t, std::pair<int, std::string>> types;  // type -> (precision, label)
  auto label = [&](uint64_t type) {
    const std::string* l =
        type <= UINT32_MAX ? in.EventTypeLabel(static_cast<uint32_t>(type)) : nullptr;
    return l;
  };
  std::vector<uint64_t> kept;
  for (uint64_t type : o.keep_types)
    if (label(type) != nullptr) kept.push_back(type);
  for (const EventTypeSelector& sel : o.accum_types) {
    if (const std::string* l = label(sel.type))
      types[sel.type] = {in.Precision(static_cast<uint32_t>(sel.type)), *l};
  }
  for (const EventTypeSelector& sel : o.count_types) {
    const std::string* l = label(sel.type);
    if (l == nullptr) continue;
    uint32_t t32 = static_cast<uint32_t>(sel.type);
    int precision = in.Precision(t32);
    if (o.global_counters) {
      types[CountType(sel.type, 0, true)] = {precision, *l + "_counter"};
      continue;
    }
    std::map<int64_t, std::string> values;
    for (const model::PcfEventBlock& b : in.event_blocks) {
      bool has = std::any_of(b.types.begin(), b.types.end(),
                             [&](const model::PcfEventType& e) { return e.type == t32; });
      if (!has) continue;
      for (const model::PcfEventValue& v : b.values) values[v.value] = v.label;
    }
    if (sel.values.empty()) {
      for (const auto& [v, name] : values)
        if (v > 0)
          types[CountType(sel.type, static_cast<uint64_t>(v), false)] = {precision,
                                                                         name + "_counter"};
    } else {
      for (int64_t v : sel.values) {
        auto it = values.find(v);
        if (v > 0 && it != values.end()) {
          types[CountType(sel.type, static_cast<uint64_t>(v), false)] = {precision,
                                                                         it->second + "_counter"};
        }
      }
    }
  }
  if (!types.empty()) {
    s += "EVENT_TYPE\n";
    for (const auto& [type, pl] : types)
      s += std::to_string(pl.first) + "   " + std::to_string(type) + "    " + pl.second + "\n";
    s += "\n";
  }
  for (uint64_t type : kept) {
    uint32_t t32 = static_cast<uint32_t>(type);
    s += "EVENT_TYPE\n" + std::to_string(in.Precision(t32)) + "   " + std::to_string(type) +
         "    " + *label(type) + "\n";
    std::map<int64_t, std::string> values;
    for (const model::PcfEventBlock& b : in.event_blocks) {
      bool has = std::any_of(b.types.begin(), b.types.end(),
                             [&](const model::PcfEventType& e) { return e.type == t32; });
      if (has)
        for (const model::PcfEventValue& v : b.values) values[v.value] = v.label;
    }
    if (!values.empty()) {
      s += "VALUES\n";
      for (const auto& [v, name] : values) s += std::to_string(v) + "   " + name + "\n";
    }
    s += "\n";
  }
  return s;
}

}  // namespace

Result<ToolReport> SoftwareCountersTrace(const ToolRun& run, const SoftCountersOptions& options) {
  if (options.by_intervals && options.sampling_interval == 0) {
    return Status::Error("software counters by intervals need a sampling interval above 0",
                         {run.input}, "set <sampling_interval> (trace units)");
  }
  Status s = tools::CheckOutputs(run);
  if (!s.ok()) return s;
  const std::string pcf_in = TraceCompanion(run.input, ".pcf");
  bool absent = false;
  auto pcf = io::ReadPcf(pcf_in, nullptr, &absent);
  if (!pcf.ok() && !absent) return pcf.status();
  auto opened = tools::OpenInputTrace(run.input);
  if (!opened.ok()) return opened.status();
  tools::InputTrace in = std::move(opened).value();
  auto out = tools::CreateTraceOutput(run);
  if (!out.ok()) return out.status();
  out.value()->WriteBehind();
  out.value()->Text(tools::ParaverToolHeader(in.header));
  SoftCountersEngine engine(options, in.header.end_time, out.value().get());
  ToolReport report;
  s = tools::ProcessRecords(run, in, engine, report);
  if (!s.ok()) return s;
  engine.Finish();
  report.output_bytes = out.value()->bytes_written();
  report.output_records = engine.events_written();
  if (engine.events_written() == 0)
    report.notes.push_back("no event was counted: the output has no counter");
  if (absent) report.notes.push_back(pcf_in + " does not exist: the output .pcf names no counter");
  auto pcf_out = tools::OutputFile::Create(TraceCompanion(run.output, ".pcf"), run.force);
  if (!pcf_out.ok()) return pcf_out.status();
  pcf_out.value()->Text(CountersPcf(pcf.ok() ? pcf.value() : model::PcfCatalog(), options));
  s = out.value()->Commit();
  if (!s.ok()) return s;
  s = pcf_out.value()->Commit();
  if (!s.ok()) return s;
  bool copied = false;
  s = tools::CopyCompanion(TraceCompanion(run.input, ".row"), TraceCompanion(run.output, ".row"),
                           run.force, &copied);
  if (!s.ok()) return s;
  return report;
}

}  // namespace parallax
