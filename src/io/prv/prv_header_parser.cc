#include "src/io/prv/prv_header_parser.h"

#include <fmt/format.h>

#include <limits>
#include <vector>

#include "src/io/prv/prv_checks.h"

namespace parallax::io {

namespace {

constexpr uint64_t kMaxObjects = kMaxHeaderObjects;

// A cursor over the header with error reporting at the current column.
class HeaderCursor {
 public:
  HeaderCursor(std::string_view s, const std::string& file) : s_(s), file_(file) {}

  size_t pos() const { return pos_; }
  bool AtEnd() const { return pos_ >= s_.size(); }
  char Peek() const { return AtEnd() ? '\0' : s_[pos_]; }
  void Skip(size_t n = 1) { pos_ = std::min(s_.size(), pos_ + n); }
  std::string_view Rest() const { return s_.substr(pos_); }

  Status Error(std::string expected, std::string hint) const {
    return ErrorAt(pos_, std::move(expected), std::move(hint));
  }
  Status ErrorAt(size_t at, std::string expected, std::string hint) const {
    std::string found = at >= s_.size() ? "end of line" : fmt::format("'{}'", s_.substr(at, 12));
    return Status::Error(fmt::format("bad .prv header: expected {}, found {}", expected, found),
                         Location{file_, 1, at + 1}, std::move(hint));
  }

  Status Expect(char c, std::string_view what) {
    if (Peek() != c) return Error(fmt::format("'{}' {}", c, what), kHeaderHint);
    Skip();
    return Status::Ok();
  }

  // The ')' closing a list, after an optional ',': Dimemas writes "2(1,1,)" and Paraver reads
  // it (it takes the last item up to the ')').
  Status CloseList(std::string_view what) {
    if (Peek() == ',' && pos_ + 1 < s_.size() && s_[pos_ + 1] == ')') Skip();
    return Expect(')', what);
  }

  // Reads an unsigned decimal number (after any blanks, which Paraver's reader skips too).
  Status Number(uint64_t* out, std::string_view what, uint64_t max) {
    while (!AtEnd() && (s_[pos_] == ' ' || s_[pos_] == '\t')) ++pos_;
    size_t start = pos_;
    uint64_t v = 0;
    while (!AtEnd() && s_[pos_] >= '0' && s_[pos_] <= '9') {
      uint64_t d = static_cast<uint64_t>(s_[pos_] - '0');
      if (v > (std::numeric_limits<uint64_t>::max() - d) / 10) {
        pos_ = start;
        return Error(fmt::format("{} (a number that fits in 64 bits)", what), kHeaderHint);
      }
      v = v * 10 + d;
      ++pos_;
    }
    if (pos_ == start) return Error(fmt::format("{} (a number)", what), kHeaderHint);
    if (v > max) {
      pos_ = start;
      return Error(fmt::format("{} of at most {}", what, max), kHeaderHint);
    }
    *out = v;
    return Status::Ok();
  }

  static constexpr const char* kHeaderHint =
      "a Paraver header looks like #Paraver (dd/mm/yyyy at hh:mm):END_ns:NODES(CPUS,...):"
      "NAPPL:NTASKS(THREADS:NODE,...),NCOMM";

 private:
  std::string_view s_;
  const std::string& file_;
  size_t pos_ = 0;
};

#define PARALLAX_TRY(expr)         \
  do {                             \
    Status s_ = (expr);            \
    if (!s_.ok()) return s_;       \
  } while (0)

Status ParseDateAndTime(HeaderCursor& c, model::TraceHeader& h) {
  if (c.Rest().substr(0, 8) != "#Paraver")
    return c.Error("'#Paraver' at the start of the first line",
                   "this does not look like a Paraver trace; is it the .pcf or another format?");
  c.Skip(8);
  h.space_before_date = c.Peek() == ' ';
  if (h.space_before_date) c.Skip();
  PARALLAX_TRY(c.Expect('(', "before the date"));
  size_t close = c.Rest().find(')');
  if (close == std::string_view::npos) return c.Error("')' closing the date", HeaderCursor::kHeaderHint);
  h.date = std::string(c.Rest().substr(0, close));
  c.Skip(close + 1);
  PARALLAX_TRY(c.Expect(':', "after the date"));
  uint64_t end = 0;
  PARALLAX_TRY(c.Number(&end, "the trace end time", std::numeric_limits<uint64_t>::max()));
  h.end_time = end;
  if (c.Peek() == '_') {
    size_t colon = c.Rest().find(':');
    h.unit_suffix = std::string(c.Rest().substr(0, colon));
    c.Skip(h.unit_suffix.size());
    h.unit = h.unit_suffix == "_ns" ? model::TimeUnit::kNs
             : h.unit_suffix == "_ms" ? model::TimeUnit::kMs
                                      : model::TimeUnit::kUs;
  }
  return c.Expect(':', "after the end time");
}

Status ParseResources(HeaderCursor& c, model::TraceHeader& h) {
  if (c.Peek() == '0') {
    c.Skip();
    h.resources = model::ResourceModel();
    return c.Expect(':', "after the resource model '0'");
  }
  uint64_t nodes = 0;
  PARALLAX_TRY(c.Number(&nodes, "the number of nodes", kMaxObjects));
  std::vector<uint32_t> cpus;
  if (c.Peek() == '(') {
    c.Skip();
    for (uint64_t n = 0; n < nodes; ++n) {
      uint64_t k = 0;
      PARALLAX_TRY(c.Number(&k, fmt::format("the cpu count of node {}", n + 1), kMaxHeaderCpus));
      cpus.push_back(static_cast<uint32_t>(k));
      PARALLAX_TRY(n + 1 < nodes ? c.Expect(',', "between cpu counts")
                                 : c.CloseList("after the last cpu count"));
    }
  } else {
    h.resources_bare = true;
    cpus.assign(nodes, 1);
  }
  uint64_t total = 0;
  for (uint32_t k : cpus) total += k;
  if (std::string rule = CpuTotalRule(total); !rule.empty()) return c.Error(rule, "cpu ids are 16-bit in Paraver");
  h.resources = model::ResourceModel(std::move(cpus));
  return c.Expect(':', "after the resource model");
}

Status ParseAppl(HeaderCursor& c, model::TraceHeader& h, uint64_t appl) {
  uint64_t ntasks = 0;
  size_t at = c.pos();
  PARALLAX_TRY(c.Number(&ntasks, fmt::format("the task count of application {}", appl), kMaxObjects));
  if (std::string rule = TaskCountRule(appl, ntasks); !rule.empty()) return c.ErrorAt(at, rule, HeaderCursor::kHeaderHint);
  PARALLAX_TRY(c.Expect('(', "after the task count"));
  std::vector<std::pair<uint32_t, uint32_t>> tasks;
  for (uint64_t t = 1; t <= ntasks; ++t) {
    uint64_t nthreads = 0, node = 0;
    size_t threads_at = c.pos();
    PARALLAX_TRY(c.Number(&nthreads, fmt::format("the thread count of task {}.{}", appl, t), kMaxObjects));
    if (std::string rule = ThreadCountRule(appl, t, nthreads); !rule.empty())
      return c.ErrorAt(threads_at, rule, HeaderCursor::kHeaderHint);
    PARALLAX_TRY(c.Expect(':', "between the thread count and the node"));
    size_t node_col = c.pos();
    PARALLAX_TRY(c.Number(&node, fmt::format("the node of task {}.{}", appl, t), kMaxObjects));
    if (std::string rule = TaskNodeRule(h.resources, appl, t, node); !rule.empty())
      return Status::Error("bad .prv header: " + rule, Location{"", 1, node_col + 1},
                           "node numbers are 1-based and must exist in the resource model");
    tasks.emplace_back(static_cast<uint32_t>(nthreads), static_cast<uint32_t>(node));
    PARALLAX_TRY(t < ntasks ? c.Expect(',', "between tasks") : c.CloseList("after the last task"));
  }
  uint64_t threads_after = h.processes.threads();
  for (auto& [n, node] : tasks) threads_after += n;
  if (std::string rule = ThreadTotalRule(threads_after); !rule.empty())
    return c.Error(rule, "the trace declares too many threads");
  h.processes.AddAppl(tasks);
  return Status::Ok();
}

Status ParseProcesses(HeaderCursor& c, model::TraceHeader& h) {
  uint64_t nappl = 0;
  size_t at = c.pos();
  PARALLAX_TRY(c.Number(&nappl, "the number of applications", kMaxHeaderAppls));
  if (std::string rule = ApplCountRule(nappl); !rule.empty()) return c.ErrorAt(at, rule, HeaderCursor::kHeaderHint);
  PARALLAX_TRY(c.Expect(':', "after the number of applications"));
  for (uint64_t a = 1; a <= nappl; ++a) {
    PARALLAX_TRY(ParseAppl(c, h, a));
    if (a < nappl) {
      if (c.AtEnd()) return c.Error(fmt::format("application {}", a + 1), HeaderCursor::kHeaderHint);
      h.appl_separator = c.Peek();
      c.Skip();
    }
  }
  return Status::Ok();
}

}  // namespace

Result<model::TraceHeader> ParsePrvHeader(std::string_view line, const std::string& file) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
    line.remove_suffix(1);
  model::TraceHeader h;
  HeaderCursor c(line, file);
  PARALLAX_TRY(ParseDateAndTime(c, h));
  PARALLAX_TRY(ParseResources(c, h));
  Status s = ParseProcesses(c, h);
  if (!s.ok()) {
    if (s.where().file.empty())
      return Status::Error(s.message(), Location{file, s.where().line, s.where().column}, s.hint());
    return s;
  }
  h.has_comm_count = !c.AtEnd();
  if (h.has_comm_count) {
    PARALLAX_TRY(c.Expect(',', "before the communicator count"));
    if (c.AtEnd()) return h;  // "...)," : no count, as Paraver reads it (no communicator)
    uint64_t ncomm = 0;
    PARALLAX_TRY(c.Number(&ncomm, "the number of communicator lines", kMaxObjects));
    h.communicators.resize(ncomm);
    if (!c.AtEnd()) return c.Error("end of line after the communicator count", HeaderCursor::kHeaderHint);
  }
  return h;
}

Status CheckCommunicatorLine(std::string_view line, const std::string& file, uint64_t line_no) {
  char k = line.empty() ? '\0' : line[0];
  if (k == 'c' || k == 'C' || k == 'i' || k == 'I') return Status::Ok();
  return Status::Error(
      "bad communicator line: expected a line starting with 'c', 'C', 'i' or 'I'",
      Location{file, line_no, 1},
      "the header announces more communicator lines than the file has; fix the count after "
      "the last ',' of the header");
}

}  // namespace parallax::io
