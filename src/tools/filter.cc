// Paraver's trace filter, streamed: keeps or drops states (all, or by .pcf name or number, with
// a minimum duration), events (all, or the selected types and values, possibly discarding them
// instead) and communications (by size range, tag and partner task or thread), line by line in
// file order. Kept records
// are written as read; an event line keeps only its selected type:value pairs.

#include <algorithm>
#include <charconv>
#include <unordered_set>

#include "include/parallax/tools.h"
#include "src/io/pcf/pcf_reader.h"
#include "src/io/prv/prv_writer.h"
#include "src/tools/prv_record.h"
#include "src/tools/trace_stream.h"

namespace parallax {

namespace {

// True when `sel` selects (type, value).
bool Matches(const EventTypeSelector& sel, uint64_t type, int64_t value) {
  if (sel.last_type > sel.type) return type >= sel.type && type <= sel.last_type;
  if (type != sel.type) return false;
  return sel.values.empty() ||
         std::find(sel.values.begin(), sel.values.end(), value) != sel.values.end();
}

Result<std::unordered_set<uint32_t>> StateIds(const ToolRun& run, const FilterOptions& o) {
  std::unordered_set<uint32_t> ids;
  if (!o.keep_states || o.all_states) return ids;
  std::vector<std::string> by_name;
  for (const std::string& name : o.state_names) {
    uint32_t id = 0;
    auto r = std::from_chars(name.data(), name.data() + name.size(), id);
    if (r.ec == std::errc() && r.ptr == name.data() + name.size()) {
      ids.insert(id);
    } else {
      by_name.push_back(name);
    }
  }
  if (by_name.empty()) return ids;
  const std::string pcf_path = TraceCompanion(run.input, ".pcf");
  auto pcf = io::ReadPcf(pcf_path, nullptr);
  if (!pcf.ok()) {
    return Status::Error(
        "state \"" + by_name[0] + "\" is named but " + pcf_path + " cannot be read", {pcf_path},
        "give state numbers instead of names, or put the trace's .pcf beside it");
  }
  for (const std::string& name : by_name) {
    bool found = false;
    for (const model::PcfLabel& s : pcf.value().states) {
      if (s.label == name) {
        ids.insert(static_cast<uint32_t>(s.number));
        found = true;
      }
    }
    if (!found) {
      return Status::Error("state \"" + name + "\" is not in " + pcf_path, {pcf_path},
                           "use a label of the STATES section of the .pcf, or a state number");
    }
  }
  return ids;
}

class FilterEngine {
 public:
  FilterEngine(const FilterOptions& o, std::unordered_set<uint32_t> states, tools::OutputFile* out)
      : o_(o), states_(std::move(states)), out_(out) {}

  void Process(const tools::PrvRecord& r) {
    switch (r.kind) {
      case '1':
        if (!o_.keep_states) return;
        if (!o_.all_states && states_.count(r.state) == 0) return;
        // The duration is unsigned, as Paraver's: a state that ends before it begins (a broken
        // record real traces have) is longer than any minimum, and kept.
        if (o_.min_state_time != 0 && r.t2 >= r.t1 && r.t2 - r.t1 < o_.min_state_time) return;
        Line(r.line);
        return;
      case '2':
        if (!o_.keep_events) return;
        if (o_.types.empty()) {
          Line(r.line);
          return;
        }
        Events(r);
        return;
      case '3':
        if (!o_.keep_comms) return;
        if (!CommKept(r)) return;
        Line(r.line);
        return;
      case '#':
        out_->Text(r.line);
        out_->Char('\n');
        return;
      default:
        ++others_;
        return;
    }
  }
  uint64_t written() const { return written_; }
  uint64_t others() const { return others_; }
  uint64_t pairs_kept() const { return pairs_kept_; }

 private:
  static int64_t Number(std::string_view text) {
    int64_t v = 0;
    std::from_chars(text.data(), text.data() + text.size(), v);
    return v;
  }
  bool Partner(uint32_t task, uint32_t thread) const {
    for (const CommPartner& p : o_.comm_partners)
      if (p.task == task && (p.thread == 0 || p.thread == thread)) return true;
    return false;
  }
  bool CommKept(const tools::PrvRecord& r) const {
    if (o_.min_comm_size > 0 || o_.max_comm_size >= 0) {
      int64_t size = Number(r.size_text);
      if (size < o_.min_comm_size) return false;
      if (o_.max_comm_size >= 0 && size > o_.max_comm_size) return false;
    }
    if (!o_.comm_tags.empty() && std::find(o_.comm_tags.begin(), o_.comm_tags.end(),
                                           Number(r.tag_text)) == o_.comm_tags.end())
      return false;
    return o_.comm_partners.empty() || Partner(r.task, r.thread) || Partner(r.task2, r.thread2);
  }
  void Line(std::string_view line) {
    out_->Text(line);
    out_->Char('\n');
    ++written_;
  }
  void Events(const tools::PrvRecord& r) {
    bool any = false;
    for (const tools::EventPair& p : r.events) {
      bool matched = false;
      for (const EventTypeSelector& sel : o_.types) {
        if (Matches(sel, p.type, p.value)) {
          matched = true;
          break;
        }
      }
      if (matched == o_.discard_given_types) continue;
      if (!any) {
        out_->Char('2');
        for (uint32_t v : {r.cpu, r.appl, r.task, r.thread}) {
          out_->Char(':');
          out_->Num(v);
        }
        out_->Char(':');
        out_->Num(r.t1);
        any = true;
      }
      out_->Char(':');
      out_->Num(p.type);
      out_->Char(':');
      out_->Text(p.value_text);
      ++pairs_kept_;
    }
    if (any) {
      out_->Char('\n');
      ++written_;
    }
  }

  const FilterOptions& o_;
  std::unordered_set<uint32_t> states_;
  tools::OutputFile* out_;
  uint64_t written_ = 0, others_ = 0, pairs_kept_ = 0;
};

}  // namespace

Result<ToolReport> FilterTrace(const ToolRun& run, const FilterOptions& options) {
  Status s = tools::CheckOutputs(run);
  if (!s.ok()) return s;
  auto ids = StateIds(run, options);
  if (!ids.ok()) return ids.status();
  auto opened = tools::OpenInputTrace(run.input);
  if (!opened.ok()) return opened.status();
  tools::InputTrace in = std::move(opened).value();
  auto out = tools::CreateTraceOutput(run);
  if (!out.ok()) return out.status();
  out.value()->WriteBehind();
  out.value()->Text(tools::ParaverToolHeader(in.header));
  FilterEngine engine(options, std::move(ids).value(), out.value().get());
  ToolReport report;
  s = tools::ProcessRecords(run, in, engine, report);
  if (!s.ok()) return s;
  report.output_records = engine.written();
  report.output_bytes = out.value()->bytes_written();
  if (engine.written() == 0)
    report.notes.push_back("the filter keeps no record: the output has none");
  if (options.keep_events && !options.types.empty() && !options.discard_given_types &&
      engine.pairs_kept() == 0) {
    report.notes.push_back("none of the selected event types occurs in " + run.input);
  }
  if (engine.others() > 0) {
    report.notes.push_back(
        std::to_string(engine.others()) +
        " lines that are neither states, events, communications nor comments (e.g. global "
        "communications, empty lines) were not copied, as paramedir's filter does");
  }
  s = tools::CommitTrace(run, *out.value());
  if (!s.ok()) return s;
  return report;
}

}  // namespace parallax
