// `parallax shift` (paramedir -t/-tt/-ta): adds a time offset per application, task or thread
// to every time of its records (a communication's send times take the sender's offset, its
// receive times the receiver's), then sorts the result (the offsets reorder the body) with
// the bounded-memory sort. The offsets file holds one integer per line, the i-th for the i-th
// object of the level in the header's order; '#' starts a comment, blank lines are skipped.

#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <string>

#include "include/parallax/tools.h"
#include "src/io/prv/prv_writer.h"
#include "src/tools/order_window.h"
#include "src/tools/prv_record.h"
#include "src/tools/sorter.h"
#include "src/tools/trace_stream.h"

namespace parallax {

namespace {

std::string SkippedNote(uint64_t n) {
  return std::to_string(n) +
         " lines that are neither states, events, communications nor comments (e.g. global "
         "communications) were not copied";
}

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

// The shifted times of a record: t[0..1] the sender's (or the state's, or the event's), t[2..3]
// a communication's receive times, and the latest of them. No state: the parse workers use it
// at once (ShiftRewrite).
class ShiftTimes {
 public:
  ShiftTimes(const model::ProcessModel& p, const ShiftOptions& o) : p_(p), o_(o) {}
  // False, with *error located at `file`:`line_no`, for a thread not in the header or a time
  // moved before 0. *object: the sender's object of the level.
  bool Of(const tools::PrvRecord& r, const std::string& file, uint64_t line_no, uint64_t* t,
          uint64_t* end, size_t* object, Status* error) const {
    int64_t d1 = 0, d2 = 0;
    size_t object2 = 0;
    if (!Offset(r.appl, r.task, r.thread, &d1, object))
      return NotInHeader(r, false, file, line_no, error);
    if (r.kind == '3' && !Offset(r.appl2, r.task2, r.thread2, &d2, &object2))
      return NotInHeader(r, true, file, line_no, error);
    uint64_t bad_time = 0;
    int64_t bad_offset = 0;
    auto move = [&](uint64_t v, int64_t d, uint64_t* out) {
      if (d < 0 && v < static_cast<uint64_t>(-(d + 1)) + 1) {
        bad_time = v;
        bad_offset = d;
        return false;
      }
      *out = v + static_cast<uint64_t>(d);
      return true;
    };
    const bool moved = move(r.t1, d1, &t[0]) && (r.kind == '2' || move(r.t2, d1, &t[1])) &&
                       (r.kind != '3' || (move(r.t3, d2, &t[2]) && move(r.t4, d2, &t[3])));
    if (!moved) {
      *error = Status::Error("the offset " + std::to_string(bad_offset) + " moves time " +
                                 std::to_string(bad_time) + " before 0",
                             {file, line_no, 1},
                             "use smaller negative offsets, or add a constant to every offset");
      return false;
    }
    *end = r.kind == '1' ? t[1] : r.kind == '2' ? t[0] : std::max(t[1], t[3]);
    return true;
  }

 private:
  bool Offset(uint32_t appl, uint32_t task, uint32_t thread, int64_t* d, size_t* object) const {
    model::ThreadIndex th;
    if (!p_.FindThread(appl, task, thread, &th)) return false;
    size_t i = th.value;
    if (o_.level == ShiftOptions::Level::kTask) i = p_.thread(th).task.value;
    if (o_.level == ShiftOptions::Level::kApplication) i = p_.thread(th).appl.value;
    if (o_.level == ShiftOptions::Level::kWorkload) i = 0;
    *d = o_.offsets[i];
    *object = i;
    return true;
  }
  static bool NotInHeader(const tools::PrvRecord& r, bool receiver, const std::string& file,
                          uint64_t line_no, Status* error) {
    const uint32_t a = receiver ? r.appl2 : r.appl, t = receiver ? r.task2 : r.task,
                   th = receiver ? r.thread2 : r.thread;
    *error = Status::Error("thread " + std::to_string(a) + ":" + std::to_string(t) + ":" +
                               std::to_string(th) + " is not in the header",
                           {file, line_no, 1}, "fix the record or the header's process model");
    return false;
  }

  const model::ProcessModel& p_;
  const ShiftOptions& o_;
};

// Text appended to a string, for ShiftEngine::Format.
struct StringSink {
  std::string& s;
  void Text(std::string_view v) { s.append(v); }
  void Char(char c) { s.push_back(c); }
  template <typename T>
  void Num(T v) {
    char buf[24];
    s.append(buf, static_cast<size_t>(std::to_chars(buf, buf + sizeof buf, v).ptr - buf));
  }
};

// Shifts records one by one. Either every line goes to one file in input order (WriteTo), or
// the lines the parse workers shifted (ShiftRewrite) go through a window that writes them in
// the canonical order (WindowTo: comments go to the file before the first body line, or the
// window fails), or each record goes to the file of its group (SplitTo: the threads whose
// records get the same offset where they sort, the sender's for a communication), comments are
// kept aside, and the engine notes whether each group's records stay in the canonical order.
class ShiftEngine {
 public:
  ShiftEngine(const model::ProcessModel& p, const ShiftOptions& o, const std::string& file)
      : times_(p, o), file_(file) {}
  void WriteTo(tools::OutputFile* out) { single_ = out; }
  // The records must come with their lines rewritten by a ShiftRewrite.
  void WindowTo(tools::OrderWindow* window, tools::OutputFile* out) {
    window_ = window;
    single_ = out;
  }
  void SplitTo(std::vector<tools::OutputFile*> outs, std::vector<uint32_t> group_of_object) {
    outs_ = std::move(outs);
    group_of_ = std::move(group_of_object);
    last_.assign(outs_.size(), tools::SortKey());
  }

  Status Process(const tools::PrvRecord& r, uint64_t line_no) {
    if (r.kind == '#') {
      ++comment_lines_;
      if (window_ != nullptr && window_->started()) {
        in_order_ = false;  // it belongs before the body lines written
      } else if (single_ != nullptr) {
        single_->Text(r.line);
        single_->Char('\n');
      } else {
        comments_.emplace_back(r.line);
      }
      return Status::Ok();
    }
    if (r.kind == 'o') {
      if (!r.line.empty()) ++others_;
      return Status::Ok();
    }
    ++written_;
    if (window_ != nullptr) {  // shifted and formatted by the parse workers (ShiftRewrite)
      end_ = std::max(end_, r.rewritten_end);
      tools::SortKey k = tools::KeyOf(r);
      k.time = r.rewritten_time;
      if (!window_->Add(k, r.rewritten)) in_order_ = false;
      return Status::Ok();
    }
    uint64_t t[4], end = 0;
    size_t object = 0;
    Status error;
    if (!times_.Of(r, file_, line_no, t, &end, &object, &error)) return error;
    end_ = std::max(end_, end);
    tools::OutputFile* out = single_;
    if (out == nullptr) {
      const uint32_t g = group_of_[object];
      tools::SortKey k = tools::KeyOf(r);
      k.time = t[0];
      if (k < last_[g]) in_order_ = false;
      last_[g] = k;
      out = outs_[g];
    }
    Format(*out, r, t);
    out->Char('\n');
    return Status::Ok();
  }
  // The record with its times t (without the end of line).
  template <typename Sink>
  static void Format(Sink& out, const tools::PrvRecord& r, const uint64_t* t) {
    out.Text(r.line.substr(0, r.times_at));
    out.Num(t[0]);
    if (r.kind == '1') {
      out.Char(':');
      out.Num(t[1]);
      out.Char(':');
      out.Num(r.state);
    } else if (r.kind == '2') {
      out.Text(r.line.substr(r.pairs_at - 1));
    } else {
      out.Char(':');
      out.Num(t[1]);
      for (uint32_t v : {r.cpu2, r.appl2, r.task2, r.thread2}) {
        out.Char(':');
        out.Num(v);
      }
      for (uint64_t v : {t[2], t[3]}) {
        out.Char(':');
        out.Num(v);
      }
      out.Char(':');
      out.Text(r.size_text);
      out.Char(':');
      out.Text(r.tag_text);
    }
  }
  uint64_t end() const { return end_; }
  uint64_t comment_lines() const { return comment_lines_; }
  uint64_t written() const { return written_; }
  uint64_t others() const { return others_; }
  bool in_order() const { return in_order_; }
  const std::vector<std::string>& comments() const { return comments_; }

 private:
  ShiftTimes times_;
  std::string file_;
  tools::OutputFile* single_ = nullptr;
  tools::OrderWindow* window_ = nullptr;
  std::vector<tools::OutputFile*> outs_;
  std::vector<uint32_t> group_of_;
  std::vector<tools::SortKey> last_;
  std::vector<std::string> comments_;
  bool in_order_ = true;
  uint64_t end_ = 0, written_ = 0, others_ = 0, comment_lines_ = 0;
};

// The shift done by the parse workers (RecordRewrite): each record's shifted line, so that the
// tool's thread only orders them.
class ShiftRewrite : public tools::RecordRewrite {
 public:
  ShiftRewrite(const model::ProcessModel& p, const ShiftOptions& o) : times_(p, o) {}
  bool Rewrite(tools::PrvRecord& r, const std::string& file, uint64_t line_no, std::string& out,
               Status* error) const override {
    uint64_t t[4], end = 0;
    size_t object = 0;
    if (!times_.Of(r, file, line_no, t, &end, &object, error)) return false;
    StringSink sink{out};
    ShiftEngine::Format(sink, r, t);
    r.rewritten_time = t[0];
    r.rewritten_end = end;
    return true;
  }

 private:
  ShiftTimes times_;
};

// Removes temporary files when the shift ends, however it ends.
struct TempFiles {
  std::vector<std::string> paths;
  ~TempFiles() {
    for (const std::string& p : paths) unlink(p.c_str());
  }
};

// A hidden name beside the output: ".OUT.SUFFIX".
std::string HiddenBeside(const std::string& output, const std::string& suffix) {
  size_t slash = output.find_last_of('/');
  return output.substr(0, slash == std::string::npos ? 0 : slash + 1) + "." +
         output.substr(slash == std::string::npos ? 0 : slash + 1) + suffix;
}

// Feeds the body of `in` to the engine; stops early (Ok) when `stop_when_unordered` and a
// group's order breaks.
Status ShiftBody(const ToolRun& run, tools::InputTrace& in, ShiftEngine& engine, ToolReport& report,
                 bool stop_when_unordered, const tools::RecordRewrite* rewrite = nullptr) {
  report.input_bytes = in.lines->bytes_total();
  // The pairs are copied as text: checked, not kept.
  tools::RecordStream stream(*in.lines, {tools::Pairs::kCheck, false, rewrite});
  const tools::PrvRecord* rec = nullptr;
  tools::ProgressTicker ticker(run.progress);
  while (stream.Next(&rec)) {
    ++report.input_records;
    Status s = engine.Process(*rec, stream.line_number());
    if (!s.ok()) return s;
    if (stop_when_unordered && !engine.in_order()) return Status::Ok();
    ticker.Tick(stream);
  }
  if (!stream.status().ok()) return stream.status();
  ticker.Done(stream);
  return Status::Ok();
}

// Objects (threads, tasks, applications) grouped by offset: group_of[object], and the number
// of groups.
size_t GroupByOffset(const std::vector<int64_t>& offsets, std::vector<uint32_t>* group_of) {
  std::vector<int64_t> distinct;
  for (int64_t d : offsets) {
    auto it = std::find(distinct.begin(), distinct.end(), d);
    group_of->push_back(static_cast<uint32_t>(it - distinct.begin()));
    if (it == distinct.end()) distinct.push_back(d);
  }
  return distinct.size();
}

// Commits the shifted trace and its companions; true (the shift is done).
Result<bool> Finish(const ToolRun& run, tools::OutputFile& out, const ShiftEngine& engine,
                    ToolReport* report) {
  report->output_bytes = out.bytes_written();
  Status s = tools::CommitTrace(run, out);
  if (!s.ok()) return s;
  if (engine.others() > 0) report->notes.push_back(SkippedNote(engine.others()));
  return true;
}

// At most this many group files are written at once (each has a 1 MB buffer, and the merge
// reads each through another).
constexpr size_t kMaxGroups = 32;

// The fast shift: when the records of each group of threads with one offset come in the
// canonical order (as in a sorted trace), shifting keeps that order, so each group's shifted
// records go to a file of their own and a k-way merge of those files is the sorted result (one
// read and write of the body less than sorting it). Returns false, having written nothing,
// when a group's order breaks: then the shifted body must be sorted.
Result<bool> ShiftByGroups(const ToolRun& run, const ShiftOptions& options, tools::InputTrace& in,
                           ToolReport* report) {
  std::vector<uint32_t> group_of;
  const size_t groups = GroupByOffset(options.offsets, &group_of);
  if (groups > kMaxGroups) return false;
  TempFiles files;
  std::vector<std::unique_ptr<tools::OutputFile>> outs;
  std::vector<tools::OutputFile*> raw;
  for (size_t g = 0; g < groups; ++g) {
    files.paths.push_back(HiddenBeside(run.output, ".shift" + std::to_string(g)));
    auto f = tools::OutputFile::Create(files.paths.back(), true);
    if (!f.ok()) return f.status();
    raw.push_back(f.value().get());
    outs.push_back(std::move(f).value());
  }
  ShiftEngine engine(in.header.processes, options, run.input);
  engine.SplitTo(raw, std::move(group_of));
  Status s = ShiftBody(run, in, engine, *report, true);
  if (!s.ok()) return s;
  if (!engine.in_order()) return false;
  for (auto& f : outs) {
    s = f->Commit();
    if (!s.ok()) return s;
  }
  outs.clear();
  auto out = tools::CreateTraceOutput(run);
  if (!out.ok()) return out.status();
  out.value()->WriteBehind();
  model::TraceHeader header = in.header;
  header.resources_bare = false;
  header.end_time = std::max(in.header.end_time, engine.end());
  out.value()->Text(io::FormatPrvHeader(header));
  for (const std::string& c : engine.comments()) {
    out.value()->Text(c);
    out.value()->Char('\n');
  }
  s = tools::MergeRuns(files.paths, *out.value(), &report->output_records);
  if (!s.ok()) return s;
  report->output_records += engine.comments().size();
  return Finish(run, *out.value(), engine, report);
}

// The one-pass shift: the shifted records go through an OrderWindow straight into the output,
// whose header, written first, gets the end time when it is known. Ok(false), having committed
// nothing, when the offsets reorder the body more than the window holds, a comment follows
// body lines, the output is compressed, or the end time gains a digit (the header must keep
// its length).
Result<bool> ShiftThroughWindow(const ToolRun& run, const ShiftOptions& options,
                                tools::InputTrace& in, ToolReport* report) {
  auto out = tools::CreateTraceOutput(run);
  if (!out.ok()) return out.status();
  if (out.value()->compressed()) return false;
  out.value()->WriteBehind();
  model::TraceHeader header = in.header;
  header.resources_bare = false;
  const std::string provisional = io::FormatPrvHeader(header);
  out.value()->Text(provisional);
  tools::OrderWindow window(*out.value(), std::max<uint64_t>(options.memory_bytes, 1));
  ShiftEngine engine(in.header.processes, options, run.input);
  engine.WindowTo(&window, out.value().get());
  const ShiftRewrite rewrite(in.header.processes, options);
  Status s = ShiftBody(run, in, engine, *report, true, &rewrite);
  if (!s.ok()) return s;
  if (!engine.in_order()) return false;
  window.Finish();
  header.end_time = std::max(in.header.end_time, engine.end());
  const std::string final_header = io::FormatPrvHeader(header);
  if (final_header.size() != provisional.size()) return false;
  if (final_header != provisional && !out.value()->RewriteStart(final_header)) return false;
  report->output_records = window.lines_written() + engine.comment_lines();
  return Finish(run, *out.value(), engine, report);
}

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
  // The faster ways first: each either shifts the whole trace or gives up having committed
  // nothing, and the next reads the input again from the start.
  for (auto way : {ShiftThroughWindow, ShiftByGroups}) {
    ToolReport report;
    auto done = way(run, options, in, &report);
    if (!done.ok()) return done.status();
    if (done.value()) return report;
    opened = tools::OpenInputTrace(run.input);
    if (!opened.ok()) return opened.status();
    in = std::move(opened).value();
  }
  // The shifted body, unsorted, in a hidden file beside the output; then sorted into place.
  ToolRun sort_run = run;
  sort_run.input = HiddenBeside(run.output, ".shifted.prv");
  TempFiles remove{{sort_run.input}};
  auto tmp = tools::OutputFile::Create(sort_run.input, true);
  if (!tmp.ok()) return tmp.status();
  tmp.value()->WriteBehind();
  model::TraceHeader header = in.header;
  header.resources_bare = false;
  tmp.value()->Text(io::FormatPrvHeader(header));
  ShiftEngine engine(in.header.processes, options, run.input);
  engine.WriteTo(tmp.value().get());
  ToolReport report;
  s = ShiftBody(run, in, engine, report, false);
  if (!s.ok()) return s;
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
  if (engine.others() > 0) report.notes.push_back(SkippedNote(engine.others()));
  return report;
}

}  // namespace parallax
