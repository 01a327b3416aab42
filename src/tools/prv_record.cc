#include "src/tools/prv_record.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>

namespace parallax::tools {

namespace {

// Decimal digits 8 bytes at a time (SWAR, little-endian): the hot loop of every tool is reading
// numbers, and event values are often 10 to 19 digits long.

// The value of 8 ASCII digits loaded as a word (the first digit in the lowest byte).
inline uint64_t EightOf(uint64_t v) {
  v -= 0x3030303030303030ull;
  v = v * 10 + (v >> 8);  // each even byte: two digits
  return (((v & 0x000000FF000000FFull) * (100 + (1000000ull << 32))) +
          (((v >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32)))) >>
         32;
}

inline uint64_t Eight(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return EightOf(v);
}

// Counts the ASCII digits at the start of [p, end) and reads their value (modulo 2^64, exact up
// to 19 digits) in the same pass, each word loaded once. A byte is a digit when its high nibble is
// 3 both before and after adding 6 (0x30-0x39); carries out of a non-digit byte only reach the
// bytes after it, which are not looked at.
inline size_t ReadDigits(const char* p, const char* end, uint64_t* value) {
  static constexpr uint64_t kPow10[8] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000};
  constexpr uint64_t kHigh = 0xF0F0F0F0F0F0F0F0ull, kThree = 0x3030303030303030ull;
  const char* q = p;
  uint64_t x = 0;
  while (end - q >= 8) {
    uint64_t v;
    std::memcpy(&v, q, 8);
    const uint64_t bad = ((v & kHigh) ^ kThree) | (((v + 0x0606060606060606ull) & kHigh) ^ kThree);
    if (bad != 0) {
      const unsigned n = static_cast<unsigned>(std::countr_zero(bad)) / 8;  // 0..7 digits
      if (n > 0) {
        // The n digits moved to the last bytes, '0's before them: an 8-digit number.
        const unsigned pad = 8 * (8 - n);
        x = x * kPow10[n] + EightOf((v << pad) | (kThree & ((uint64_t{1} << pad) - 1)));
      }
      *value = x;
      return static_cast<size_t>(q - p) + n;
    }
    x = x * 100000000ull + EightOf(v);
    q += 8;
  }
  while (q < end && static_cast<unsigned char>(*q - '0') <= 9)
    x = x * 10 + static_cast<uint64_t>(*q++ - '0');
  *value = x;
  return static_cast<size_t>(q - p);
}

// The value of `n` digits at p, modulo 2^64 (exact up to 19 digits).
inline uint64_t Digits(const char* p, size_t n) {
  uint64_t x = 0;
  for (; n >= 8; n -= 8, p += 8) x = x * 100000000ull + Eight(p);
  for (; n > 0; --n) x = x * 10 + static_cast<uint64_t>(*p++ - '0');
  return x;
}

// Reads fields separated by ':' from a line, remembering the column for error messages.
class FieldReader {
 public:
  FieldReader(std::string_view line, const std::string& file, uint64_t line_no)
      : line_(line), file_(file), line_no_(line_no) {}

  bool Unsigned(uint64_t* v, const char* what) {
    size_t start = pos_;
    // 19 digits always fit in 64 bits: only longer numbers need the overflow check.
    uint64_t x = 0;
    size_t fast = ReadDigits(line_.data() + pos_, line_.data() + line_.size(), &x);
    if (fast > 19) {  // the first 19 only: the rest is read with the overflow check
      fast = 19;
      x = Digits(line_.data() + pos_, fast);
    }
    pos_ += fast;
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
    const size_t n = ReadDigits(line_.data() + pos_, line_.data() + line_.size(), &x);
    pos_ += n;
    if (pos_ == digits) return Fail(start, what, "an integer");
    *text = line_.substr(start, pos_ - start);
    if (value != nullptr) *value = neg ? -static_cast<int64_t>(x) : static_cast<int64_t>(x);
    return Separator(what);
  }
  // Reads event pairs in their common form (a type of at most 19 digits, ':', an optional '-'
  // and digits, then ':' and the next pair or the end of the line) in one tight loop; stops
  // before the first pair in any other form (blanks, a trailing ':', an error), which the
  // general reader then reads or reports exactly as it would have.
  // With `kStore` false the pairs are only checked. Returns the number of pairs read.
  template <bool kStore>
  size_t FastPairs(std::vector<EventPair>* out) {
    const char* const b = line_.data();
    const size_t n = line_.size();
    size_t p = pos_, count = 0;
    while (p < n) {
      uint64_t type = 0, x = 0;
      const size_t type_digits = ReadDigits(b + p, b + n, &type);
      size_t q = p + type_digits;
      if (type_digits == 0 || type_digits > 19 || q >= n || b[q] != ':') return count;
      const size_t value_at = ++q;
      const bool neg = q < n && b[q] == '-';
      if (neg) ++q;
      const size_t value_digits = ReadDigits(b + q, b + n, &x);
      q += value_digits;
      if (value_digits == 0 || (q < n && (b[q] != ':' || q + 1 == n))) return count;
      if constexpr (kStore) {
        out->push_back({type, neg ? -static_cast<int64_t>(x) : static_cast<int64_t>(x),
                        std::string_view(b + value_at, q - value_at)});
      }
      ++count;
      p = pos_ = q < n ? q + 1 : q;
    }
    return count;
  }
  bool AtEnd() const { return pos_ >= line_.size(); }
  size_t pos() const { return pos_; }
  bool ExpectEnd() {
    if (AtEnd()) return true;
    return Fail(pos_, "end of line", "no more fields");
  }
  // The error of the first failed read (only called after one failed).
  Status status() const {
    return Status::Error(std::string("bad ") + fail_what_ + ": expected " + fail_expected_,
                         {file_, line_no_, fail_col_ + 1},
                         "each record is fields separated by ':' (trace-format.md §3)");
  }

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
  // Remembers what failed; the Status is built only when asked for (none on the hot path).
  bool Fail(size_t col, const char* what, const char* expected) {
    fail_col_ = col;
    fail_what_ = what;
    fail_expected_ = expected;
    return false;
  }

  std::string_view line_;
  const std::string& file_;
  uint64_t line_no_;
  size_t pos_ = 0;
  size_t fail_col_ = 0;
  const char* fail_what_ = "";
  const char* fail_expected_ = "";
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
  Status error;
  ReadPrvRecord(line, file, line_no, rec, &error, skip_pairs ? Pairs::kSkip : Pairs::kRead);
  return error;
}

bool ReadPrvRecord(std::string_view line, const std::string& file, uint64_t line_no,
                   PrvRecord* rec, Status* error, Pairs pairs) {
  rec->line = line;
  rec->events.clear();
  if (line.empty() || (line[0] != '1' && line[0] != '2' && line[0] != '3') || line.size() < 2 ||
      line[1] != ':') {
    rec->kind = (!line.empty() && line[0] == '#') ? '#' : 'o';
    return true;
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
    const bool skip_pairs = pairs == Pairs::kSkip;
    size_t n = 0;
    if (ok && pairs == Pairs::kRead) n = f.FastPairs<true>(&rec->events);
    if (ok && pairs == Pairs::kCheck) n = f.FastPairs<false>(&rec->events);
    while (ok && !skip_pairs && !f.AtEnd()) {
      EventPair p;
      ok = f.Unsigned(&p.type, "event type") && f.Signed(&p.value_text, &p.value, "event value");
      if (ok && pairs == Pairs::kRead) rec->events.push_back(p);
      ++n;
    }
    if (ok && !skip_pairs && n == 0) {
      *error = Status::Error("event record without type and value",
                             {file, line_no, line.size() + 1},
                             "write 2:cpu:appl:task:thread:time:type:value");
      return false;
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
  if (!ok) *error = Relocated(f.status());
  return ok;
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
