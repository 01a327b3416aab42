#include "src/io/picl/picl_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <map>
#include <tuple>

#include "src/base/input_buffer.h"

namespace parallax::io {

namespace {

constexpr int64_t kOpen = kPiclOpen;
constexpr int64_t kClose = kPiclClose;
constexpr int64_t kSend = -21;
constexpr int64_t kRecv = -52;

struct Rec {
  int64_t time = 0;  // ns
  int64_t record = 0, event = 0;
  int64_t node = 0, process = 0;
  int64_t items[4] = {0, 0, 0, 0};
  uint32_t nitems = 0;
  uint64_t line = 0;
};

bool ParseInt(std::string_view s, int64_t* out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && p == s.data() + s.size();
}

bool ParseSeconds(std::string_view s, int64_t* out) {
  std::string tmp(s);
  char* end = nullptr;
  double v = std::strtod(tmp.c_str(), &end);
  if (tmp.empty() || *end != '\0' || !std::isfinite(v) || v < 0 || v > 9.0e9) return false;
  *out = std::llround(v * 1e9);
  return true;
}

std::string EventLabel(int64_t e) {
  if (e == kSend) return "send";
  if (e == kRecv) return "receive";
  return fmt::format("PICL event {}", e);
}

}  // namespace

Result<ImportedTrace> ParsePiclTrace(std::string_view text, const std::string& file) {
  Diagnostics diags;
  std::vector<Rec> recs;
  std::vector<std::string_view> f;
  uint64_t line_no = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    ++line_no;
    SplitBlankFields(line, &f);
    if (f.empty()) {
      diags.Count(DiagKind::kBlankLine);
      continue;
    }
    if (f[0][0] == '#') {
      diags.Count(DiagKind::kCommentLine);
      continue;
    }
    Rec r;
    r.line = line_no;
    int64_t n = 0;
    if (f.size() < 6) {
      diags.Add(DiagKind::kTooFewFields, line_no, 0, "expected RECORD EVENT TIME NODE PROCESS N [DATATYPE ITEM...]");
      continue;
    }
    if (!ParseInt(f[0], &r.record) || !ParseInt(f[1], &r.event) || !ParseInt(f[3], &r.node) ||
        !ParseInt(f[4], &r.process) || !ParseInt(f[5], &n) || n < 0 || r.node < 0 || r.process < 0 ||
        r.node > 1000000 || r.process > 1000000) {
      diags.Add(DiagKind::kSyntax, line_no, 0, "expected integers for record, event, node, process and item count");
      continue;
    }
    if (!ParseSeconds(f[2], &r.time)) {
      diags.Add(DiagKind::kSyntax, line_no, 0, fmt::format("expected a time in seconds, got \"{}\"", f[2]));
      continue;
    }
    size_t want = n == 0 ? 6 : 7 + static_cast<size_t>(n);
    if (f.size() < want) {
      diags.Add(DiagKind::kTooFewFields, line_no, 0, fmt::format("{} data items announced, {} present", n, f.size() > 7 ? f.size() - 7 : 0));
      continue;
    }
    if (f.size() > want) diags.Add(DiagKind::kExtraFields, line_no, 0, "fields after the announced data items");
    bool items_ok = true;
    for (size_t i = 0; i < 4 && i < static_cast<size_t>(n); ++i) items_ok &= ParseInt(f[7 + i], &r.items[i]);
    if (!items_ok) {
      diags.Add(DiagKind::kSyntax, line_no, 0, "expected integer data items");
      continue;
    }
    r.nitems = static_cast<uint32_t>(std::min<int64_t>(n, 4));
    recs.push_back(r);
  }
  // Threads: (node, process), nodes as tasks in numeric order.
  std::map<int64_t, std::map<int64_t, uint32_t>> threads;
  for (const Rec& r : recs) threads[r.node][r.process] = 0;
  if (threads.empty())
    return Status::Error("no PICL record in the file", Location{file, 0, 0},
                         "PICL lines are `RECORD EVENT TIME NODE PROCESS N [DATATYPE ITEM...]`");
  model::TraceHeader header;
  header.unit = model::TimeUnit::kNs;
  header.unit_suffix = "_ns";
  std::vector<std::pair<uint32_t, uint32_t>> tasks;
  std::vector<std::string> task_labels, thread_labels;
  uint32_t next = 0;
  for (auto& [node, procs] : threads) {
    tasks.emplace_back(static_cast<uint32_t>(procs.size()), 0);
    task_labels.push_back(fmt::format("node {}", node));
    for (auto& [proc, id] : procs) {
      id = next++;
      thread_labels.push_back(fmt::format("node {} process {}", node, proc));
    }
  }
  header.processes.AddAppl(tasks);
  std::stable_sort(recs.begin(), recs.end(), [](const Rec& a, const Rec& b) { return a.time < b.time; });

  TraceBuilder b(header);
  NameTable states(1);
  struct Open {
    int64_t event, begin;
    uint64_t line;
  };
  struct Stack {
    std::vector<Open> open;
  };
  std::vector<Stack> stacks(next);
  StateNester nester(b, next);
  struct Send {
    int64_t log, phy;
    uint32_t thread;
    int64_t size;
  };
  std::map<std::tuple<uint32_t, uint32_t, int64_t>, std::deque<Send>> sends;  // (from, to, tag)
  auto thread_of = [&](int64_t node, int64_t proc, uint32_t* out) {
    auto n = threads.find(node);
    if (n == threads.end()) return false;
    auto p = n->second.find(proc);
    if (p == n->second.end()) return false;
    *out = p->second;
    return true;
  };
  // Ends the current state at t; adjacent intervals of one event (split by an inner event of
  // zero duration) become one state.
  auto boundary = [&](uint32_t th, int64_t t) {
    const Stack& s = stacks[th];
    nester.Boundary(th, t, s.open.empty() ? std::nullopt
                                          : std::optional<uint32_t>(static_cast<uint32_t>(states.Id(EventLabel(s.open.back().event)))));
  };
  int64_t end = 0;
  for (const Rec& r : recs) end = std::max(end, r.time);
  for (const Rec& r : recs) {
    uint32_t th = 0;
    thread_of(r.node, r.process, &th);
    Stack& s = stacks[th];
    auto t = static_cast<model::Time>(r.time);
    if (r.record == kOpen) {
      boundary(th, r.time);
      s.open.push_back(Open{r.event, r.time, r.line});
      b.AddEvent(th, t, kPiclEventType, -r.event);
      if (r.event == kSend && r.nitems >= 4) {
        uint32_t to = 0;
        if (!thread_of(r.items[2], r.items[3], &to)) {
          diags.Add(DiagKind::kUnknownObject, r.line, 0, fmt::format("send to node {} process {}, which has no record", r.items[2], r.items[3]));
        } else {
          sends[{th, to, r.items[1]}].push_back(Send{r.time, r.time, th, r.items[0]});
        }
      }
    } else if (r.record == kClose) {
      size_t i = s.open.size();
      while (i > 0 && s.open[i - 1].event != r.event) --i;
      if (i == 0) {
        diags.Add(DiagKind::kUnmatchedEnd, r.line, 0, fmt::format("close of event {} that is not open", r.event));
        continue;
      }
      int64_t begin = s.open[i - 1].begin;
      if (i != s.open.size())
        diags.Add(DiagKind::kEndNotInnermost, r.line, 0, fmt::format("close of event {} with inner events open", r.event));
      boundary(th, r.time);
      s.open.erase(s.open.begin() + static_cast<ptrdiff_t>(i - 1));
      b.AddEvent(th, t, kPiclEventType, 0);
      if (r.event == kRecv && r.nitems >= 4) {
        uint32_t from = 0;
        auto q = thread_of(r.items[2], r.items[3], &from) ? sends.find({from, th, r.items[1]}) : sends.end();
        if (q == sends.end() || q->second.empty()) {
          diags.Add(DiagKind::kUnmatchedFlow, r.line, 0, "receive with no matching send");
        } else {
          Send snd = q->second.front();
          q->second.pop_front();
          TraceBuilder::Comm c;
          c.sender = snd.thread;
          c.receiver = th;
          c.log_send = static_cast<model::Time>(snd.log);
          c.phy_send = static_cast<model::Time>(snd.phy);
          c.log_recv = static_cast<model::Time>(begin);
          c.phy_recv = t;
          c.size = r.items[0];
          c.tag = r.items[1];
          b.AddComm(c);
        }
      }
    } else if (r.record == kPiclParaverEvent && r.nitems >= 1 && r.event >= 0 && r.event <= UINT32_MAX) {
      b.AddEvent(th, t, static_cast<uint32_t>(r.event), r.items[0]);
    } else {
      b.AddEvent(th, t, kPiclInstantType, r.event);
    }
  }
  for (uint32_t th = 0; th < next; ++th) {
    for (const Open& o : stacks[th].open)
      diags.Add(DiagKind::kUnclosedBegin, o.line, 0, fmt::format("event {} opened here is never closed", o.event));
    boundary(th, end);
    nester.Flush(th);
  }
  for (const auto& [key, q] : sends)
    if (!q.empty()) diags.Add(DiagKind::kUnmatchedFlow, 0, 0, fmt::format("{} send(s) never received", q.size()));

  ImportedTrace out;
  out.format = "picl";
  for (const auto& [id, name] : states.entries()) out.pcf.states.push_back(model::PcfLabel{static_cast<int32_t>(id), name, {}});
  AddEventTypeLabel(out.pcf, kPiclEventType, "PICL event (open: -event, close: 0)");
  AddEventTypeLabel(out.pcf, kPiclInstantType, "PICL instant record (event number)");
  out.pcf.Finalize();
  model::RowNames row;
  row.SetLabels(model::Level::kTask, std::move(task_labels));
  row.SetLabels(model::Level::kThread, std::move(thread_labels));
  out.row = std::move(row);
  out.prv = b.Finish(std::move(diags), text.size(), line_no);
  return out;
}

Result<ImportedTrace> ReadPiclTrace(const std::string& path) {
  auto buf = base::InputBuffer::Open(path);
  if (!buf.ok()) return buf.status();
  return buf->Parse([&](std::string_view text) { return ParsePiclTrace(text, path); });
}

}  // namespace parallax::io
