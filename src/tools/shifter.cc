// `parallax shift` (paramedir -t/-tt/-ta): adds a time offset per application, task or thread
// to every time of its records (a communication's send times take the sender's offset, its
// receive times the receiver's), then sorts the result (the offsets reorder the body) with
// the bounded-memory sort. The offsets file holds one integer per line, the i-th for the i-th
// object of the level in the header's order; '#' starts a comment, blank lines are skipped.

#include <unistd.h>

#include <charconv>
#include <cstdio>

#include "include/parallax/tools.h"
#include "src/io/prv/prv_writer.h"
#include "src/tools/prv_record.h"
#include "src/tools/sorter.h"
#include "src/tools/trace_stream.h"

namespace parallax {

namespace {

const char* LevelWord(ShiftOptions::Level level) {
  switch (level) {
    case ShiftOptions::Level::kApplication:
      return "application";
    case ShiftOptions::Level::kTask:
      return "task";
    case ShiftOptions::Level::kThread:
      return "thread";
    case ShiftOptions::Level::kWorkload:
      return "trace";
  }
  return "object";
}

class ShiftEngine {
 public:
  ShiftEngine(const model::ProcessModel& p, const ShiftOptions& o, const std::string& file,
              tools::OutputFile* out)
      : p_(p), o_(o), file_(file), out_(out) {}

  Status Process(const tools::PrvRecord& r, uint64_t line_no) {
    if (r.kind == '#') {
      out_->Text(r.line);
      out_->Char('\n');
      return Status::Ok();
    }
    if (r.kind == 'o') {
      if (!r.line.empty()) ++others_;
      return Status::Ok();
    }
    int64_t d1 = 0, d2 = 0;
    Status s = Offset(r.appl, r.task, r.thread, line_no, &d1);
    if (!s.ok()) return s;
    if (r.kind == '3') {
      s = Offset(r.appl2, r.task2, r.thread2, line_no, &d2);
      if (!s.ok()) return s;
    }
    uint64_t t[4];
    s = Move(r.t1, d1, line_no, &t[0]);
    if (s.ok() && r.kind != '2') s = Move(r.t2, d1, line_no, &t[1]);
    if (s.ok() && r.kind == '3') s = Move(r.t3, d2, line_no, &t[2]);
    if (s.ok() && r.kind == '3') s = Move(r.t4, d2, line_no, &t[3]);
    if (!s.ok()) return s;
    out_->Text(r.line.substr(0, r.times_at));
    out_->Num(t[0]);
    if (r.kind == '1') {
      out_->Char(':');
      out_->Num(t[1]);
      out_->Char(':');
      out_->Num(r.state);
      end_ = std::max(end_, t[1]);
    } else if (r.kind == '2') {
      out_->Text(r.line.substr(r.pairs_at - 1));
      end_ = std::max(end_, t[0]);
    } else {
      out_->Char(':');
      out_->Num(t[1]);
      for (uint32_t v : {r.cpu2, r.appl2, r.task2, r.thread2}) {
        out_->Char(':');
        out_->Num(v);
      }
      for (uint64_t v : {t[2], t[3]}) {
        out_->Char(':');
        out_->Num(v);
      }
      out_->Char(':');
      out_->Text(r.size_text);
      out_->Char(':');
      out_->Text(r.tag_text);
      end_ = std::max({end_, t[1], t[3]});
    }
    out_->Char('\n');
    ++written_;
    return Status::Ok();
  }
  uint64_t end() const { return end_; }
  uint64_t written() const { return written_; }
  uint64_t others() const { return others_; }

 private:
  Status Offset(uint32_t appl, uint32_t task, uint32_t thread, uint64_t line_no, int64_t* d) {
    model::ThreadIndex th;
    if (!p_.FindThread(appl, task, thread, &th)) {
      return Status::Error("thread " + std::to_string(appl) + ":" + std::to_string(task) + ":" +
                               std::to_string(thread) + " is not in the header",
                           {file_, line_no, 1}, "fix the record or the header's process model");
    }
    size_t i = th.value;
    if (o_.level == ShiftOptions::Level::kTask) i = p_.thread(th).task.value;
    if (o_.level == ShiftOptions::Level::kApplication) i = p_.thread(th).appl.value;
    if (o_.level == ShiftOptions::Level::kWorkload) i = 0;
    *d = o_.offsets[i];
    return Status::Ok();
  }
  Status Move(uint64_t t, int64_t d, uint64_t line_no, uint64_t* out) {
    if (d < 0 && t < static_cast<uint64_t>(-(d + 1)) + 1) {
      return Status::Error(
          "the offset " + std::to_string(d) + " moves time " + std::to_string(t) + " before 0",
          {file_, line_no, 1}, "use smaller negative offsets, or add a constant to every offset");
    }
    *out = t + static_cast<uint64_t>(d);
    return Status::Ok();
  }

  const model::ProcessModel& p_;
  const ShiftOptions& o_;
  std::string file_;
  tools::OutputFile* out_;
  uint64_t end_ = 0, written_ = 0, others_ = 0;
};

}  // namespace

Result<std::vector<int64_t>> ParseShiftOffsets(std::string_view text, const std::string& name) {
  std::vector<int64_t> offsets;
  uint64_t line_no = 0;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++line_no;
    size_t hash = line.find('#');
    if (hash != std::string_view::npos) line = line.substr(0, hash);
    size_t b = line.find_first_not_of(" \t\r");
    if (b == std::string_view::npos) continue;
    size_t e = line.find_last_not_of(" \t\r") + 1;
    std::string_view num = line.substr(b, e - b);
    const char* first = num.data();
    if (num[0] == '+') ++first;
    int64_t v = 0;
    auto r = std::from_chars(first, num.data() + num.size(), v);
    if (r.ec != std::errc() || r.ptr != num.data() + num.size()) {
      return Status::Error("bad offset \"" + std::string(num) + "\"", {name, line_no, b + 1},
                           "one integer per line (trace units, may be negative); '#' comments");
    }
    offsets.push_back(v);
  }
  return offsets;
}

Result<std::vector<int64_t>> ReadShiftOffsets(const std::string& path) {
  auto src = tools::LineSource::Open(path, 1u << 16);
  if (!src.ok()) return src.status();
  std::string text;
  std::string_view line;
  while (src.value()->Next(&line)) {
    if (text.size() + line.size() > (64u << 20)) {
      return Status::Error(path + " is larger than 64 MB", {path, src.value()->line_number(), 1},
                           "an offsets file has one short line per task, thread or application");
    }
    text.append(line);
    text.push_back('\n');
  }
  if (!src.value()->status().ok()) return src.value()->status();
  return ParseShiftOffsets(text, path);
}

Result<ToolReport> ShiftTrace(const ToolRun& run, const ShiftOptions& options) {
  Status s = tools::CheckOutputs(run);
  if (!s.ok()) return s;
  auto opened = tools::OpenInputTrace(run.input);
  if (!opened.ok()) return opened.status();
  tools::InputTrace in = std::move(opened).value();
  const model::ProcessModel& p = in.header.processes;
  size_t objects = options.level == ShiftOptions::Level::kThread        ? p.threads()
                   : options.level == ShiftOptions::Level::kTask        ? p.tasks()
                   : options.level == ShiftOptions::Level::kApplication ? p.appls()
                                                                        : 1;
  if (options.offsets.size() != objects) {
    return Status::Error(
        std::to_string(options.offsets.size()) + " offsets for " + std::to_string(objects) + " " +
            LevelWord(options.level) + (objects == 1 ? "" : "s"),
        {options.offsets_file.empty() ? run.input : options.offsets_file},
        std::string("give one offset per ") + LevelWord(options.level) + ", in the header's order");
  }
  // The shifted body, unsorted, in a hidden file beside the output; then sorted into place.
  ToolRun sort_run = run;
  size_t slash = run.output.find_last_of('/');
  sort_run.input = run.output.substr(0, slash == std::string::npos ? 0 : slash + 1) + "." +
                   run.output.substr(slash == std::string::npos ? 0 : slash + 1) + ".shifted.prv";
  struct Remove {
    std::string path;
    ~Remove() { unlink(path.c_str()); }
  } remove{sort_run.input};
  auto tmp = tools::OutputFile::Create(sort_run.input, true);
  if (!tmp.ok()) return tmp.status();
  model::TraceHeader header = in.header;
  header.resources_bare = false;
  tmp.value()->Text(io::FormatPrvHeader(header));
  ShiftEngine engine(p, options, run.input, tmp.value().get());
  ToolReport report;
  report.input_bytes = in.lines->bytes_total();
  tools::PrvRecord rec;
  std::string_view line;
  tools::ProgressTicker ticker(run.progress);
  while (in.lines->Next(&line)) {
    ++report.input_records;
    s = tools::ParsePrvRecord(line, run.input, in.lines->line_number(), &rec);
    if (!s.ok()) return s;
    s = engine.Process(rec, in.lines->line_number());
    if (!s.ok()) return s;
    ticker.Tick(*in.lines);
  }
  if (!in.lines->status().ok()) return in.lines->status();
  ticker.Done(*in.lines);
  s = tmp.value()->Commit();
  if (!s.ok()) return s;
  SortOptions so;
  so.memory_bytes = options.memory_bytes;
  sort_run.progress = nullptr;
  auto sorted = tools::SortWithEnd(sort_run, so, std::max(in.header.end_time, engine.end()));
  if (!sorted.ok()) return sorted.status();
  // The .pcf and .row come from the real input, not the hidden file.
  s = tools::CopyPcfAndRow(run);
  if (!s.ok()) return s;
  report.output_records = sorted.value().output_records;
  report.output_bytes = sorted.value().output_bytes;
  if (engine.others() > 0) {
    report.notes.push_back(std::to_string(engine.others()) +
                           " lines that are neither states, events, communications nor "
                           "comments (e.g. global communications) were not copied");
  }
  return report;
}

}  // namespace parallax
