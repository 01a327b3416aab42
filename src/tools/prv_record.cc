#include "src/tools/prv_record.h"

#include <string>

namespace parallax::tools {

namespace {

// Reads fields separated by ':' from a line, remembering the column for error messages.
class FieldReader {
 public:
  FieldReader(std::string_view line, const std::string& file, uint64_t line_no)
      : line_(line), file_(file), line_no_(line_no) {}

  bool Unsigned(uint64_t* v, const char* what) {
    size_t start = pos_;
    uint64_t x = 0;
    while (pos_ < line_.size() && line_[pos_] >= '0' && line_[pos_] <= '9') {
      uint64_t d = static_cast<uint64_t>(line_[pos_] - '0');
      if (x > (UINT64_MAX - d) / 10) return Fail(start, what, "a number that fits in 64 bits");
      x = x * 10 + d;
      ++pos_;
    }
    if (pos_ == start) return Fail(start, what, "a non-negative integer");
    *v = x;
    return Separator(what);
  }
  bool Small(uint32_t* v, const char* what) {
    uint64_t x = 0;
    if (!Unsigned(&x, what)) return false;
    if (x > UINT32_MAX) return Fail(pos_, what, "a smaller number");
    *v = static_cast<uint32_t>(x);
    return true;
  }
  // A signed integer kept as text; `value` receives it when it fits in int64.
  bool Signed(std::string_view* text, int64_t* value, const char* what) {
    size_t start = pos_;
    bool neg = pos_ < line_.size() && line_[pos_] == '-';
    if (neg) ++pos_;
    size_t digits = pos_;
    uint64_t x = 0;
    while (pos_ < line_.size() && line_[pos_] >= '0' && line_[pos_] <= '9') {
      x = x * 10 + static_cast<uint64_t>(line_[pos_] - '0');
      ++pos_;
    }
    if (pos_ == digits) return Fail(start, what, "an integer");
    *text = line_.substr(start, pos_ - start);
    if (value != nullptr) *value = neg ? -static_cast<int64_t>(x) : static_cast<int64_t>(x);
    return Separator(what);
  }
  bool AtEnd() const { return pos_ >= line_.size(); }
  size_t pos() const { return pos_; }
  bool ExpectEnd() {
    if (AtEnd()) return true;
    return Fail(pos_, "end of line", "no more fields");
  }
  Status status() const { return status_; }

 private:
  bool Separator(const char* what) {
    // Blanks at the end of a line are accepted.
    if (pos_ < line_.size() && line_[pos_] == ':') {
      ++pos_;
      if (pos_ == line_.size()) return Fail(pos_, "field", "a value after ':'");
      return true;
    }
    size_t p = pos_;
    while (p < line_.size() && (line_[p] == ' ' || line_[p] == '\t')) ++p;
    if (p == line_.size()) {
      pos_ = p;
      return true;
    }
    return Fail(pos_, what, "':' or the end of the line");
  }
  bool Fail(size_t col, const char* what, const char* expected) {
    status_ = Status::Error(std::string("bad ") + what + ": expected " + expected,
                            {file_, line_no_, col + 1},
                            "each record is fields separated by ':' (trace-format.md §3)");
    return false;
  }

  std::string_view line_;
  const std::string& file_;
  uint64_t line_no_;
  size_t pos_ = 0;
  Status status_;
};

// Columns are counted from the start of the line (a reader starts after "k:").
Status Relocated(const Status& s) {
  Location where = s.where();
  where.column += 2;
  return Status::Error(s.message(), where, s.hint());
}

}  // namespace

Status ParsePrvRecord(std::string_view line, const std::string& file, uint64_t line_no,
                      PrvRecord* rec, bool skip_pairs) {
  rec->line = line;
  rec->events.clear();
  if (line.empty() || (line[0] != '1' && line[0] != '2' && line[0] != '3') || line.size() < 2 ||
      line[1] != ':') {
    rec->kind = (!line.empty() && line[0] == '#') ? '#' : 'o';
    return Status::Ok();
  }
  rec->kind = line[0];
  FieldReader f(line.substr(2), file, line_no);
  bool ok = f.Small(&rec->cpu, "cpu") && f.Small(&rec->appl, "application") &&
            f.Small(&rec->task, "task") && f.Small(&rec->thread, "thread");
  rec->times_at = static_cast<uint32_t>(f.pos() + 2);
  if (ok && rec->kind == '1') {
    ok = f.Unsigned(&rec->t1, "begin time") && f.Unsigned(&rec->t2, "end time") &&
         f.Small(&rec->state, "state") && f.ExpectEnd();
  } else if (ok && rec->kind == '2') {
    ok = f.Unsigned(&rec->t1, "time");
    rec->pairs_at = static_cast<uint32_t>(f.pos() + 2);  // one past the ':' after the time
    while (ok && !skip_pairs && !f.AtEnd()) {
      EventPair p;
      ok = f.Unsigned(&p.type, "event type") && f.Signed(&p.value_text, &p.value, "event value");
      if (ok) rec->events.push_back(p);
    }
    if (ok && !skip_pairs && rec->events.empty()) {
      return Status::Error("event record without type and value", {file, line_no, line.size() + 1},
                           "write 2:cpu:appl:task:thread:time:type:value");
    }
  } else if (ok) {
    ok = f.Unsigned(&rec->t1, "logical send time") && f.Unsigned(&rec->t2, "physical send time") &&
         f.Small(&rec->cpu2, "receiver cpu") && f.Small(&rec->appl2, "receiver application") &&
         f.Small(&rec->task2, "receiver task") && f.Small(&rec->thread2, "receiver thread") &&
         f.Unsigned(&rec->t3, "logical receive time") &&
         f.Unsigned(&rec->t4, "physical receive time") &&
         f.Signed(&rec->size_text, nullptr, "size") && f.Signed(&rec->tag_text, nullptr, "tag") &&
         f.ExpectEnd();
  }
  return ok ? Status::Ok() : Relocated(f.status());
}

Status ParseGlobalOp(std::string_view line, const std::string& file, uint64_t line_no,
                     PrvRecord* rec) {
  rec->line = line;
  rec->events.clear();
  rec->kind = '4';
  FieldReader f(line.substr(2), file, line_no);
  bool ok = f.Small(&rec->cpu, "cpu") && f.Small(&rec->appl, "application") &&
            f.Small(&rec->task, "task") && f.Small(&rec->thread, "thread");
  rec->times_at = static_cast<uint32_t>(f.pos() + 2);
  ok = ok && f.Unsigned(&rec->t1, "time");
  rec->pairs_at = static_cast<uint32_t>(f.pos() + 2);
  if (ok && f.AtEnd())
    return Status::Error("global operation without fields after its time",
                         {file, line_no, line.size() + 1},
                         "write 4:cpu:appl:task:thread:time:communicator:...");
  std::string_view text;
  while (ok && !f.AtEnd()) ok = f.Signed(&text, nullptr, "global operation field");
  return ok ? Status::Ok() : Relocated(f.status());
}

}  // namespace parallax::tools
