// `parallax sort`: a trace's body in the canonical writer's order (src/io/prv/prv_writer.h):
// by time, then thread (application, task, thread), then kind (state < event <
// communication), then file order; a communication is placed at its logical send time on the
// sender. Lines are copied as read (an event line is not merged with others). The input is
// read once in runs of bounded size, each sorted in memory; when the whole body fits in one
// run it is written directly, otherwise each sorted run is written to a temporary file beside
// the output and the runs are merged (a k-way merge over a heap).

#include <unistd.h>

#include <algorithm>
#include <queue>

#include "include/parallax/tools.h"
#include "src/io/prv/prv_writer.h"
#include "src/tools/order_window.h"
#include "src/tools/prv_record.h"
#include "src/tools/sorter.h"
#include "src/tools/trace_stream.h"

namespace parallax {

namespace {

using tools::OutputFile;
using tools::PrvRecord;

using tools::KeyOf;
using tools::SortKey;

// One run: lines copied into an arena, with their keys.
class Run {
 public:
  struct Entry {
    SortKey key;
    uint64_t offset;
    uint32_t length;
  };
  void Add(const SortKey& k, std::string_view line) {
    entries_.push_back({k, arena_.size(), static_cast<uint32_t>(line.size())});
    arena_.insert(arena_.end(), line.begin(), line.end());
  }
  size_t bytes() const { return arena_.size() + entries_.size() * sizeof(Entry); }
  bool empty() const { return entries_.empty(); }
  // Reserves the budget once (at most the input's size): the arena does not double past it,
  // so memory stays near the budget.
  explicit Run(size_t reserve) {
    arena_.reserve(reserve);
    entries_.reserve(reserve / 48 + 1);
  }
  // In place (no merge buffer); ties keep file order through the arena offset.
  void Sort() {
    std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
      if (a.key < b.key) return true;
      if (b.key < a.key) return false;
      return a.offset < b.offset;
    });
  }
  void WriteTo(OutputFile& out) const {
    for (const Entry& e : entries_) {
      out.Text(std::string_view(arena_.data() + e.offset, e.length));
      out.Char('\n');
    }
  }
  void Clear() {
    entries_.clear();
    arena_.clear();
  }

 private:
  std::vector<Entry> entries_;
  std::vector<char> arena_;
};

// Removes the run files when the sort ends, however it ends.
struct RunFiles {
  std::vector<std::string> paths;
  ~RunFiles() {
    for (const std::string& p : paths) unlink(p.c_str());
  }
};

std::string RunPath(const std::string& output, size_t n) {
  size_t slash = output.find_last_of('/');
  std::string dir = slash == std::string::npos ? std::string() : output.substr(0, slash + 1);
  std::string base = slash == std::string::npos ? output : output.substr(slash + 1);
  return dir + "." + base + ".run" + std::to_string(n);
}

}  // namespace

// Merges the sorted run files into `out` (ties go to the earlier run: file order is kept).
Status tools::MergeRuns(const std::vector<std::string>& runs, OutputFile& out, uint64_t* written) {
  struct Source {
    std::unique_ptr<tools::LineSource> lines;
    std::unique_ptr<tools::RecordStream> stream;  // runs are parsed ahead when they are few
    const PrvRecord* rec = nullptr;
    SortKey key;
  };
  std::vector<Source> sources(runs.size());
  const unsigned threads = runs.size() <= 8 ? 1 : 0;
  auto advance = [&](size_t i) -> Result<bool> {
    Source& s = sources[i];
    if (!s.stream->Next(&s.rec)) {
      if (!s.stream->status().ok()) return s.stream->status();
      return false;
    }
    s.key = KeyOf(*s.rec);
    return true;
  };
  using Item = std::pair<SortKey, size_t>;
  auto later = [](const Item& a, const Item& b) {
    if (a.first < b.first) return false;
    if (b.first < a.first) return true;
    return a.second > b.second;
  };
  std::priority_queue<Item, std::vector<Item>, decltype(later)> heap(later);
  for (size_t i = 0; i < runs.size(); ++i) {
    auto src = tools::LineSource::Open(runs[i], 1u << 20);
    if (!src.ok()) return src.status();
    sources[i].lines = std::move(src).value();
    sources[i].stream = std::make_unique<tools::RecordStream>(
        *sources[i].lines, tools::RecordParse{tools::Pairs::kSkip, false}, threads);
    auto more = advance(i);
    if (!more.ok()) return more.status();
    if (more.value()) heap.push({sources[i].key, i});
  }
  while (!heap.empty()) {
    size_t i = heap.top().second;
    heap.pop();
    out.Text(sources[i].rec->line);
    out.Char('\n');
    ++*written;
    auto more = advance(i);
    if (!more.ok()) return more.status();
    if (more.value()) heap.push({sources[i].key, i});
  }
  return Status::Ok();
}

Result<ToolReport> SortTrace(const ToolRun& run, const SortOptions& options) {
  return tools::SortWithEnd(run, options, std::nullopt);
}

namespace tools {

namespace {

void AddSortNotes(bool in_order, size_t comments, uint64_t others, ToolReport* report) {
  if (in_order) report->notes.push_back("the input was already in canonical order");
  if (comments > 0) {
    report->notes.push_back(std::to_string(comments) +
                            " comment lines were moved after the header");
  }
  if (others > 0) {
    report->notes.push_back(std::to_string(others) +
                            " lines that are neither states, events, communications nor comments "
                            "(e.g. global communications) were not copied");
  }
}

model::TraceHeader SortedHeader(const model::TraceHeader& in, std::optional<uint64_t> end_time) {
  model::TraceHeader header = in;
  header.resources_bare = false;
  if (end_time) header.end_time = *end_time;
  return header;
}

// The one-pass sort (OrderWindow), for input that is nearly in order. Ok(false), having
// committed nothing, when a line sorts before one already written or a comment comes after
// body lines were written: the disorder is larger than the window.
Result<bool> SortThroughWindow(const ToolRun& run, size_t budget, std::optional<uint64_t> end_time,
                               ToolReport* report) {
  auto opened = tools::OpenInputTrace(run.input);
  if (!opened.ok()) return opened.status();
  tools::InputTrace in = std::move(opened).value();
  report->input_bytes = in.lines->bytes_total();
  auto out = tools::CreateTraceOutput(run);
  if (!out.ok()) return out.status();
  out.value()->WriteBehind();
  out.value()->Text(io::FormatPrvHeader(SortedHeader(in.header, end_time)));
  OrderWindow window(*out.value(), budget);
  tools::RecordStream stream(*in.lines, {tools::Pairs::kSkip, false});
  const PrvRecord* rec = nullptr;
  tools::ProgressTicker ticker(run.progress);
  uint64_t others = 0, body = 0;
  size_t comments = 0;
  while (stream.Next(&rec)) {
    ++report->input_records;
    if (rec->kind == '#') {
      if (window.started()) return false;  // it belongs before the lines written
      out.value()->Text(rec->line);
      out.value()->Char('\n');
      ++comments;
      continue;
    }
    if (rec->kind == 'o') {
      if (!rec->line.empty()) ++others;
      continue;
    }
    if (!window.Add(KeyOf(*rec), rec->line)) return false;
    ++body;
    ticker.Tick(stream);
  }
  if (!stream.status().ok()) return stream.status();
  ticker.Done(stream);
  window.Finish();
  report->output_records = body + comments;
  report->output_bytes = out.value()->bytes_written();
  AddSortNotes(window.sorted_input(), comments, others, report);
  Status s = tools::CommitTrace(run, *out.value());
  if (!s.ok()) return s;
  return true;
}

}  // namespace

Result<ToolReport> SortWithEnd(const ToolRun& run, const SortOptions& options,
                               std::optional<uint64_t> end_time) {
  Status s = tools::CheckOutputs(run);
  if (!s.ok()) return s;
  const size_t budget = std::max<size_t>(options.memory_bytes, 1);
  {
    ToolReport report;
    auto one_pass = SortThroughWindow(run, budget, end_time, &report);
    if (!one_pass.ok()) return one_pass.status();
    if (one_pass.value()) return report;
  }
  // Too much disorder for one pass: sorted runs, merged.
  auto opened = tools::OpenInputTrace(run.input);
  if (!opened.ok()) return opened.status();
  tools::InputTrace in = std::move(opened).value();
  ToolReport report;
  report.input_bytes = in.lines->bytes_total();
  std::vector<std::string> comments;
  uint64_t others = 0, out_of_order = 0, body = 0;
  SortKey previous;
  Run current(std::min<uint64_t>(budget, in.lines->bytes_total() + (1u << 20)));
  RunFiles files;
  tools::RecordStream stream(*in.lines, {tools::Pairs::kSkip, false});
  const PrvRecord* rec = nullptr;
  tools::ProgressTicker ticker(run.progress);
  auto spill = [&]() -> Status {
    current.Sort();
    std::string path = RunPath(run.output, files.paths.size());
    auto f = OutputFile::Create(path, true);
    if (!f.ok()) return f.status();
    files.paths.push_back(path);
    current.WriteTo(*f.value());
    current.Clear();
    return f.value()->Commit();
  };
  while (stream.Next(&rec)) {
    ++report.input_records;
    if (rec->kind == '#') {
      comments.emplace_back(rec->line);
      continue;
    }
    if (rec->kind == 'o') {
      if (!rec->line.empty()) ++others;
      continue;
    }
    SortKey k = KeyOf(*rec);
    if (k < previous) ++out_of_order;
    previous = k;
    current.Add(k, rec->line);
    ++body;
    if (current.bytes() >= budget) {
      s = spill();
      if (!s.ok()) return s;
    }
    ticker.Tick(stream);
  }
  if (!stream.status().ok()) return stream.status();
  ticker.Done(stream);
  if (!files.paths.empty() && !current.empty()) {
    s = spill();
    if (!s.ok()) return s;
  }

  auto out = tools::CreateTraceOutput(run);
  if (!out.ok()) return out.status();
  out.value()->WriteBehind();
  out.value()->Text(io::FormatPrvHeader(SortedHeader(in.header, end_time)));
  for (const std::string& c : comments) {
    out.value()->Text(c);
    out.value()->Char('\n');
  }
  if (files.paths.empty()) {
    current.Sort();
    current.WriteTo(*out.value());
    report.output_records = body;
  } else {
    s = tools::MergeRuns(files.paths, *out.value(), &report.output_records);
    if (!s.ok()) return s;
  }
  report.output_records += comments.size();
  report.output_bytes = out.value()->bytes_written();
  AddSortNotes(out_of_order == 0, comments.size(), others, &report);
  s = tools::CommitTrace(run, *out.value());
  if (!s.ok()) return s;
  return report;
}

}  // namespace tools
}  // namespace parallax
