// `parallax structure TRACE -o OUT.prv`: the input with new events merged in by time (the
// iterations and burst clusters found, as events every cfg can use), and their types appended
// to the .pcf. Streamed: the input is copied line by line; the new events wait in a sorted list.

#include <fmt/format.h>

#include <algorithm>

#include "include/parallax/tools.h"
#include "src/io/line_issues.h"
#include "src/io/pcf/pcf_reader.h"
#include "src/io/prv/prv_writer.h"
#include "src/io/text_file.h"
#include "src/tools/prv_record.h"
#include "src/tools/trace_stream.h"

namespace parallax {

namespace {

class AnnotateEngine {
 public:
  static constexpr tools::Pairs kPairs = tools::Pairs::kSkip;

  AnnotateEngine(const std::vector<AddedEvent>& events, tools::OutputFile* out) : events_(events), out_(out) {}

  void Process(const tools::PrvRecord& r) {
    if (r.kind == '1' || r.kind == '2' || r.kind == '3') {
      WriteBefore(r.t1);
      ++records_;
    }
    out_->Text(r.line);
    out_->Char('\n');
  }
  // The events at or after every record.
  void Finish() { WriteBefore(UINT64_MAX, true); }
  uint64_t records() const { return records_; }
  uint64_t added() const { return next_; }

 private:
  // Writes the new events before time t (all of them when `all`).
  void WriteBefore(uint64_t t, bool all = false) {
    while (next_ < events_.size() && (all || events_[next_].time < t)) {
      const AddedEvent& e = events_[next_++];
      out_->Text("2:");
      out_->Num(e.cpu);
      out_->Char(':');
      out_->Num(e.appl);
      out_->Char(':');
      out_->Num(e.task);
      out_->Char(':');
      out_->Num(e.thread);
      out_->Char(':');
      out_->Num(e.time);
      out_->Char(':');
      out_->Num(e.type);
      out_->Char(':');
      out_->Num(e.value);
      out_->Char('\n');
      ++records_;
    }
  }

  const std::vector<AddedEvent>& events_;
  tools::OutputFile* out_;
  size_t next_ = 0;
  uint64_t records_ = 0;
};

}  // namespace

Result<ToolReport> AnnotateTrace(const ToolRun& run, const AnnotateOptions& options) {
  Status s = tools::CheckOutputs(run);
  if (!s.ok()) return s;
  if (!std::is_sorted(options.events.begin(), options.events.end(),
                      [](const AddedEvent& a, const AddedEvent& b) { return a.time < b.time; }))
    return Status::Error("annotate: the added events are not in time order");
  auto opened = tools::OpenInputTrace(run.input);
  if (!opened.ok()) return opened.status();
  tools::InputTrace in = std::move(opened).value();
  const model::ProcessModel& p = in.header.processes;
  for (const AddedEvent& e : options.events) {
    model::ThreadIndex t;
    if (!p.FindThread(e.appl, e.task, e.thread, &t))
      return Status::Error(fmt::format("annotate: thread {}:{}:{} is not in the trace", e.appl, e.task, e.thread),
                           {run.input});
  }
  auto out = tools::CreateTraceOutput(run);
  if (!out.ok()) return out.status();
  tools::OutputFile& file = *out.value();
  file.WriteBehind();
  model::TraceHeader header = in.header;
  header.end_time = std::max(header.end_time, options.events.empty() ? 0 : options.events.back().time);
  file.Text(io::FormatPrvHeader(header));
  AnnotateEngine engine(options.events, &file);
  ToolReport report;
  s = tools::ProcessRecords(run, in, engine, report);
  if (!s.ok()) return s;
  engine.Finish();
  report.output_records = engine.records();
  report.output_bytes = file.bytes_written();
  s = file.Commit();
  bool copied = false;
  if (s.ok()) s = tools::CopyCompanion(TraceCompanion(run.input, ".row"), TraceCompanion(run.output, ".row"), run.force, &copied);
  if (!s.ok()) return s;
  // The .pcf: the input's, read once, with the new types' sections after it (a type it
  // describes already keeps its labels).
  std::string pcf;
  bool absent = false;
  auto in_pcf = io::OpenCompanionFile(TraceCompanion(run.input, ".pcf"), &absent, "no .pcf file",
                                      "labels come from the .pcf next to the trace");
  if (!in_pcf.ok() && !absent) return in_pcf.status();
  model::PcfCatalog catalog;
  if (in_pcf.ok()) {
    pcf = std::string(in_pcf.value().view());
    auto parsed = io::ParsePcf(pcf, TraceCompanion(run.input, ".pcf"), nullptr);
    if (!parsed.ok()) return parsed.status();
    catalog = std::move(parsed).value();
  }
  for (const AnnotateOptions::PcfSection& section : options.pcf_sections) {
    if (catalog.EventTypeLabel(section.type) != nullptr) {
      report.notes.push_back(fmt::format("the input's .pcf already describes event type {}: its labels are kept",
                                         section.type));
      continue;
    }
    if (!pcf.empty() && pcf.back() != '\n') pcf += '\n';
    pcf += "\n" + section.text;
  }
  s = io::WriteTextFile(TraceCompanion(run.output, ".pcf"), pcf, run.force);
  if (!s.ok()) return s;
  report.notes.push_back(fmt::format("{} events added", engine.added()));
  return report;
}

}  // namespace parallax
