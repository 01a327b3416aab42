#include "src/io/prv/prv_body_parser.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "src/io/prv/prv_checks.h"

namespace parallax::io::prv_internal {

namespace {

using model::Time;

struct Field {
  uint64_t value;
  bool negative;
};

// Why a record line was rejected.
struct LineError {
  DiagKind kind = DiagKind::kSyntax;
  const char* at = nullptr;
  std::string detail;
};

// Reads one field: an optional '-' and decimal digits, then ':' or the end of the line.
// Returns false with `err` filled on a malformed field. The checked one-digit-at-a-time path:
// numbers of 16 digits or more, fields near the end of the chunk, and every error.
[[gnu::noinline]] bool ReadFieldSlow(const char*& p, const char* e, Field& f, LineError& err) {
  const char* start = p;
  f.negative = p < e && *p == '-';
  if (f.negative) ++p;
  const char* digits = p;
  uint64_t v = 0;
  while (p < e && static_cast<unsigned>(*p - '0') < 10u) {
    if (__builtin_mul_overflow(v, 10u, &v) ||
        __builtin_add_overflow(v, static_cast<uint64_t>(*p - '0'), &v)) {
      err = {DiagKind::kNumberTooLarge, start, "number does not fit in 64 bits"};
      return false;
    }
    ++p;
  }
  if (p == digits) {
    err = {DiagKind::kSyntax, p, p < e ? fmt::format("expected a number, found '{}'", *p)
                                       : std::string("expected a number, found end of line")};
    return false;
  }
  if (p < e) {
    if (*p != ':') {
      err = {DiagKind::kSyntax, p, fmt::format("expected ':' after a number, found '{}'", *p)};
      return false;
    }
    ++p;
  }
  f.value = v;
  return true;
}

// Eight bytes at p, each XORed with '0': a digit becomes its value 0-9.
inline uint64_t DigitWord(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, sizeof w);
  return w ^ 0x3030303030303030ull;
}

// How many of the word's bytes, from its first (lowest) one, are digits (0-8). A byte is not a
// digit when its high nibble is set or when adding 6 carries into bit 4 (0x0a-0x0f); a carry out
// of a non-digit byte can only flag bytes after it, which do not count.
inline int LeadingDigits(uint64_t x) {
  const uint64_t flags = (x & 0xf0f0f0f0f0f0f0f0ull) | ((x + 0x0606060606060606ull) & 0x1010101010101010ull);
  return flags == 0 ? 8 : __builtin_ctzll(flags) >> 3;
}

// The value of the first n (1-8) digits of a digit word: shifted so that they are its last bytes
// (the bytes before them are leading zeros), then pairs, quads and octets combined by multiplies.
inline uint64_t DigitsValue(uint64_t x, int n) {
  x <<= 8 * (8 - n);
  x = (x * 2561) >> 8;  // 10 * 256 + 1
  x = ((x & 0x00ff00ff00ff00ffull) * 6553601) >> 16;  // 100 * 65536 + 1
  return ((x & 0x0000ffff0000ffffull) * 42949672960001ull) >> 32;  // 10000 * 2^32 + 1
}

constexpr uint64_t kPow10[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};

// ReadFieldSlow's result, read eight digits at a time. `limit` is the end of the readable
// text (the chunk), which may lie beyond the line's end `e`: the byte at `e` is never a digit
// (a newline or a trimmed blank), so the digits stop at the line's end by themselves.
inline bool ReadField(const char*& p, const char* e, const char* limit, Field& f, LineError& err) {
  const char* q = p;
  const bool negative = q < e && *q == '-';
  q += negative;
  if (limit - q < 16) return ReadFieldSlow(p, e, f, err);
  const uint64_t x = DigitWord(q);
  int n = LeadingDigits(x);
  uint64_t v;
  if (n < 8) {
    if (n == 0) return ReadFieldSlow(p, e, f, err);
    v = DigitsValue(x, n);
  } else {
    const uint64_t y = DigitWord(q + 8);
    const int m = LeadingDigits(y);
    if (m == 8) return ReadFieldSlow(p, e, f, err);  // 16 digits or more: checked
    v = DigitsValue(x, 8) * kPow10[m] + (m ? DigitsValue(y, m) : 0);
    n += m;
  }
  q += n;
  if (q < e) {
    if (*q != ':') return ReadFieldSlow(p, e, f, err);
    ++q;
  }
  f.negative = negative;
  f.value = v;
  p = q;
  return true;
}

// Reads exactly n fields; `names` say what each is for error messages.
inline bool ReadFields(const char*& p, const char* e, const char* limit, Field* out, int n,
                       const char* const* names, LineError& err) {
  for (int i = 0; i < n; ++i) {
    if (p >= e) {
      err = {DiagKind::kTooFewFields, p, fmt::format("line ends before field '{}'", names[i])};
      return false;
    }
    if (!ReadField(p, e, limit, out[i], err)) return false;
  }
  return true;
}

constexpr const char* kStateFields[] = {"cpu", "appl", "task", "thread", "begin", "end", "state"};
constexpr const char* kEventFields[] = {"cpu", "appl", "task", "thread", "time", "type", "value"};
constexpr const char* kCommFields[] = {
    "sender cpu",   "sender appl", "sender task", "sender thread", "logical send",
    "physical send", "receiver cpu", "receiver appl", "receiver task", "receiver thread",
    "logical receive", "physical receive", "size", "tag"};

// Resolves cpu and (appl, task, thread) to a global thread (trace-format.md §3.2). `error` may
// be null when the caller only needs the answer (pass 1).
bool LocateThread(const model::TraceHeader& h, const Field* f, const char* at, uint32_t* thread,
                  LineError* error) {
  LineError scratch;
  LineError& err = error ? *error : scratch;
  if (f[0].negative || f[1].negative || f[2].negative || f[3].negative) {
    err = {DiagKind::kSyntax, at, "negative cpu, application, task or thread"};
    return false;
  }
  model::ThreadIndex t;
  if (f[1].value > UINT32_MAX || f[2].value > UINT32_MAX || f[3].value > UINT32_MAX ||
      !h.processes.FindThread(static_cast<uint32_t>(f[1].value), static_cast<uint32_t>(f[2].value),
                               static_cast<uint32_t>(f[3].value), &t)) {
    err = {DiagKind::kUnknownObject, at,
           fmt::format("thread {}.{}.{} is not declared in the header", f[1].value, f[2].value,
                       f[3].value)};
    return false;
  }
  if (auto problem = CheckRecordCpu(h, f[0].value, t)) {
    err = {problem->kind, at, std::move(problem->detail)};
    return false;
  }
  *thread = t.value;
  return true;
}

// LocateThread's answers for the (cpu, appl, task, thread) fields seen last, in a small
// direct-mapped table: a chunk's lines name a few threads over and over. Only valid locations
// are kept, so every error is still found and worded by LocateThread.
class ThreadLocations {
 public:
  explicit ThreadLocations(const model::TraceHeader& h) : h_(h) {}

  bool Find(const Field* f, const char* at, uint32_t* thread, LineError* error) {
    const bool small = (f[0].value | f[1].value | f[2].value | f[3].value) < (1u << 16) &&
                       !(f[0].negative | f[1].negative | f[2].negative | f[3].negative);
    const uint64_t key = small ? f[0].value | f[1].value << 16 | f[2].value << 32 | f[3].value << 48 : 0;
    Slot& slot = slots_[(key * 0x9e3779b97f4a7c15ull) >> (64 - kBits)];
    if (small && slot.used && slot.key == key) {
      *thread = slot.thread;
      return true;
    }
    if (!LocateThread(h_, f, at, thread, error)) return false;
    if (small) slot = {key, *thread, true};
    return true;
  }

 private:
  static constexpr int kBits = 6;
  struct Slot {
    uint64_t key = 0;
    uint32_t thread = 0;
    bool used = false;
  };
  const model::TraceHeader& h_;
  std::array<Slot, size_t{1} << kBits> slots_{};
};

// How many ':' are in [p, e); `limit` (>= e) is the end of the readable text.
inline uint64_t CountColons(const char* p, const char* e, const char* limit) {
  uint64_t n = 0;
#if defined(__SSE2__)
  // Sixteen bytes at a time: each ':' lane adds one to its byte counter (a compare gives -1),
  // at most 255 blocks before the counters are summed.
  const __m128i colon = _mm_set1_epi8(':');
  const __m128i lane = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  while (p < e && limit - p >= 16) {
    __m128i counts = _mm_setzero_si128();
    for (int blocks = 0; blocks < 255 && p < e && limit - p >= 16; ++blocks, p += 16) {
      __m128i hit = _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), colon);
      if (e - p < 16)  // only the lanes before the line's end
        hit = _mm_and_si128(hit, _mm_cmplt_epi8(lane, _mm_set1_epi8(static_cast<char>(e - p))));
      counts = _mm_sub_epi8(counts, hit);
    }
    const __m128i sums = _mm_sad_epu8(counts, _mm_setzero_si128());
    n += static_cast<uint64_t>(_mm_cvtsi128_si32(sums)) + static_cast<uint64_t>(_mm_extract_epi16(sums, 4));
  }
  if (p >= e) return n;
#endif
  for (; p < e; ++p) n += *p == ':';
  return n;
}

// Parses the body lines of one chunk.
class ChunkParser {
 public:
  ChunkParser(const model::TraceHeader& h, store::TraceStore& st, ChunkResult& out,
              const ChunkOptions& options)
      : store_(st), out_(out), locations_(h), states_only_(options.states_only) {
    out_.first_state_line.assign(h.processes.threads(), 0);
    out_.first_event_line.assign(h.processes.threads(), 0);
  }

  void Parse(std::string_view text, bool last_chunk) {
    const char* p = text.data();
    const char* end = p + text.size();
    limit_ = end;
    while (p < end) {
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
      const char* line_end = nl ? nl : end;
      ++line_;
      truncated_ = nl == nullptr && last_chunk;
      ParseLine(p, line_end);
      p = nl ? nl + 1 : end;
    }
    out_.lines = line_;
  }

 private:
  void ParseLine(const char* s, const char* e) {
    while (e > s && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t')) --e;
    if (truncated_ && e > s) out_.diags.Count(DiagKind::kMissingFinalNewline);
    if (e == s) {
      out_.diags.Count(DiagKind::kBlankLine);
      return;
    }
    line_start_ = s;
    LineError err;
    bool ok = true;
    switch (*s) {
      case '1': ok = Record(s, e, err, &ChunkParser::State); break;
      case '2':
        if (states_only_) {
          EventTime(s, e);
          return;
        }
        ok = Record(s, e, err, &ChunkParser::Event);
        break;
      case '3':
        if (states_only_) {
          ++out_.passed_over;
          return;
        }
        ok = Record(s, e, err, &ChunkParser::Comm);
        break;
      case '4': ++out_.global_comms; out_.diags.Count(DiagKind::kGlobalCommSkipped); return;
      case '#': out_.diags.Count(DiagKind::kCommentLine); return;
      default:
        err = {DiagKind::kUnknownRecordType, s,
               fmt::format("unknown record type '{}' (expected 1, 2, 3, 4 or #)", *s)};
        ok = false;
    }
    if (!ok) Report(err);
  }

  void Report(const LineError& err) {
    DiagKind kind = err.kind;
    std::string detail = err.detail;
    if (truncated_ && kind != DiagKind::kUnknownRecordType) {
      detail = "incomplete last line: " + detail;
      kind = DiagKind::kTruncatedLastLine;
    }
    uint64_t col = err.at ? static_cast<uint64_t>(err.at - line_start_) + 1 : 0;
    out_.diags.Add(kind, line_, col, detail);
  }

  using Handler = bool (ChunkParser::*)(const char*&, const char*, LineError&);

  bool Record(const char* s, const char* e, LineError& err, Handler h) {
    const char* p = s + 1;
    if (p >= e || *p != ':') {
      err = {DiagKind::kSyntax, p, "expected ':' after the record type"};
      return false;
    }
    ++p;
    return (this->*h)(p, e, err);
  }

  bool Locate(const Field* f, const char* at, uint32_t* thread, LineError& err) {
    return locations_.Find(f, at, thread, &err);
  }


  bool CheckTime(const Field& f, const char* at, LineError& err) {
    if (!f.negative) return true;
    err = {DiagKind::kNegativeTime, at, "negative time"};
    return false;
  }

  void NoteExtra(const char* p, const char* e) {
    if (p < e) out_.diags.Add(DiagKind::kExtraFields, line_, static_cast<uint64_t>(p - line_start_) + 1,
                             "trailing fields ignored");
  }

  bool State(const char*& p, const char* e, LineError& err) {
    const char* fields_at = p;
    Field f[7];
    if (!ReadFields(p, e, limit_, f, 7, kStateFields, err)) return false;
    if (!Locate(f, fields_at, &thread_, err) || !CheckTime(f[4], fields_at, err)) return false;
    Time end = f[5].value;
    if (f[5].negative) {
      if (f[5].value != 1) return CheckTime(f[5], fields_at, err);
      end = model::kNoEnd;
      ++out_.open_end_dash;
    } else if (end == model::kNoEnd) {
      ++out_.open_end_number;
    }
    if (f[6].negative || f[6].value > UINT32_MAX) {
      err = {DiagKind::kNumberTooLarge, fields_at, kStateRangeProblem};
      return false;
    }
    NoteExtra(p, e);
    Time begin = f[4].value;
    if (end != model::kNoEnd && end < begin)
      out_.diags.Add(DiagKind::kStateEndBeforeBegin, line_, 0,
                     fmt::format("state ends at {} before it begins at {}", end, begin));
    store::StateColumns& cols = store_.thread(model::ThreadIndex(thread_)).states;
    uint64_t& i = out_.state_cursor[thread_];
    Track(begin, cols.begin, i, out_.state_begin[thread_], out_.first_state_line[thread_]);
    cols.begin[i] = begin;
    cols.end[i] = end;
    cols.state[i] = static_cast<uint32_t>(f[6].value);
    cols.cpu[i] = static_cast<uint16_t>(f[0].value);
    ++i;
    out_.max_time = std::max(out_.max_time, begin);
    if (end != model::kNoEnd) out_.max_time = std::max(out_.max_time, end);
    return true;
  }

  // Notes the first line of a thread's records in this chunk and reports a record earlier than
  // the previous one (slots [begin, next) are this chunk's so far).
  void Track(Time t, const store::Column<Time>& times, uint64_t next, uint64_t begin, uint64_t& first_line) {
    if (next == begin) {
      if (first_line == 0) first_line = line_;
    } else if (t < times[next - 1]) {
      out_.any_out_of_order = true;
      out_.diags.Add(DiagKind::kOutOfOrder, line_, 0,
                     fmt::format("time {} comes after {} on the same thread", t, times[next - 1]));
    }
  }

  bool Event(const char*& p, const char* e, LineError& err) {
    const char* fields_at = p;
    Field f[5];
    if (!ReadFields(p, e, limit_, f, 5, kEventFields, err)) return false;
    if (!Locate(f, fields_at, &thread_, err) || !CheckTime(f[4], fields_at, err)) return false;
    if (p >= e) {
      err = {DiagKind::kTooFewFields, p, "event record without any type:value pair"};
      return false;
    }
    Time t = f[4].value;
    uint16_t cpu = static_cast<uint16_t>(f[0].value);
    store::EventColumns& cols = store_.thread(model::ThreadIndex(thread_)).events;
    uint64_t& i = out_.event_cursor[thread_];
    const uint64_t first_pair = i;
    while (p < e) {
      Field type, value;
      const char* pair_at = p;
      bool ok = ReadField(p, e, limit_, type, err);
      if (ok && p >= e) {
        err = {DiagKind::kOddEventPairs, pair_at, "event type without a value"};
        ok = false;
      }
      if (ok) ok = ReadField(p, e, limit_, value, err);
      if (ok && (type.negative || type.value > UINT32_MAX)) {
        err = {DiagKind::kNumberTooLarge, pair_at, kEventTypeRangeProblem};
        ok = false;
      }
      if (ok && value.negative && value.value > uint64_t{1} << 63) {
        err = {DiagKind::kNumberTooLarge, pair_at, "event value below the 64-bit minimum"};
        ok = false;
      }
      if (!ok) {
        if (err.kind == DiagKind::kOddEventPairs && i > first_pair) {
          Report(err);  // the complete pairs before it are kept
          break;
        }
        i = first_pair;
        return false;
      }
      int64_t v = value.negative ? static_cast<int64_t>(~value.value + 1) : static_cast<int64_t>(value.value);
      if (!value.negative && value.value > static_cast<uint64_t>(INT64_MAX)) NoteUnsigned(static_cast<uint32_t>(type.value));
      cols.time[i] = t;
      cols.type[i] = static_cast<uint32_t>(type.value);
      cols.value[i] = v;
      cols.cpu[i] = cpu;
      ++i;
    }
    // Only a record that is kept can be out of order (a rejected line is one problem, not two).
    Track(t, cols.time, first_pair, out_.event_begin[thread_], out_.first_event_line[thread_]);
    ++out_.event_lines;
    out_.max_time = std::max(out_.max_time, t);
    return true;
  }

  // States only: an event line gives its time to the trace end when a full parse would keep
  // it (Event); its pairs are read only when the time is later than any so far. Nothing is
  // reported.
  void EventTime(const char* s, const char* e) {
    ++out_.passed_over;
    if (e - s < 2 || s[1] != ':') return;
    const char* p = s + 2;
    Field f[5];
    LineError err;
    uint32_t thread = 0;
    if (!ReadFields(p, e, limit_, f, 5, kEventFields, err) || p >= e || f[4].negative ||
        f[4].value <= out_.max_time || !locations_.Find(f, s, &thread, nullptr) || !PairsKept(p, e))
      return;
    out_.max_time = f[4].value;
  }

  // Whether Event keeps a line whose pairs begin at p: every pair reads and fits, or only a
  // last type lacks its value after complete pairs.
  bool PairsKept(const char* p, const char* e) const {
    LineError err;
    bool any = false;
    while (p < e) {
      Field type, value;
      if (!ReadField(p, e, limit_, type, err)) return false;
      if (p >= e) return any;
      if (!ReadField(p, e, limit_, value, err)) return false;
      if (type.negative || type.value > UINT32_MAX) return false;
      if (value.negative && value.value > uint64_t{1} << 63) return false;
      any = true;
    }
    return true;
  }

  void NoteUnsigned(uint32_t type) {
    auto& u = out_.unsigned_types;
    if (std::find(u.begin(), u.end(), type) == u.end()) u.push_back(type);
  }

  bool Comm(const char*& p, const char* e, LineError& err) {
    const char* fields_at = p;
    Field f[14];
    if (!ReadFields(p, e, limit_, f, 14, kCommFields, err)) return false;
    uint32_t sender = 0, receiver = 0;
    if (!Locate(f, fields_at, &sender, err) || !Locate(f + 6, fields_at, &receiver, err)) return false;
    for (int i : {4, 5, 10, 11})
      if (!CheckTime(f[i], fields_at, err)) return false;
    for (int i : {12, 13}) {
      if (f[i].value > static_cast<uint64_t>(INT64_MAX)) {
        err = {DiagKind::kNumberTooLarge, fields_at, "communication size and tag must fit in 63 bits"};
        return false;
      }
    }
    NoteExtra(p, e);
    auto sgn = [](const Field& x) {
      return x.negative ? -static_cast<int64_t>(x.value) : static_cast<int64_t>(x.value);
    };
    out_.comms.push_back({f[4].value, f[5].value, f[10].value, f[11].value, sgn(f[12]), sgn(f[13]),
                          sender, receiver, static_cast<uint16_t>(f[0].value),
                          static_cast<uint16_t>(f[6].value)});
    return true;
  }

  store::TraceStore& store_;
  ChunkResult& out_;
  uint64_t line_ = 0;
  const char* line_start_ = nullptr;
  const char* limit_ = nullptr;  // the chunk's end: fields may be read in words up to it
  ThreadLocations locations_;
  uint32_t thread_ = 0;
  bool truncated_ = false;
  bool states_only_ = false;
};

// Pass 1 over one chunk: counts, per thread, the state records and an upper bound of the event
// pairs of the lines whose location is valid.
class ChunkCounter {
 public:
  ChunkCounter(const model::TraceHeader& h, ChunkResult& out, const ChunkOptions& options)
      : out_(out), locations_(h), states_only_(options.states_only) {
    out_.state_count.assign(h.processes.threads(), 0);
    out_.event_count.assign(h.processes.threads(), 0);
  }

  void Count(std::string_view text) {
    const char* p = text.data();
    const char* end = p + text.size();
    limit_ = end;
    while (p < end) {
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
      const char* line_end = nl ? nl : end;
      CountLine(p, line_end);
      p = nl ? nl + 1 : end;
    }
  }

 private:
  void CountLine(const char* s, const char* e) {
    if (states_only_ && (e == s || s[0] != '1')) return;
    if (e - s >= 2 && s[0] == '3' && s[1] == ':') ++out_.comm_count;
    if (e - s < 2 || (s[0] != '1' && s[0] != '2') || s[1] != ':') return;
    const char* p = s + 2;
    Field f[4];
    LineError err;
    for (Field& x : f)
      if (p >= e || !ReadField(p, e, limit_, x, err)) return;
    uint32_t thread = 0;
    if (!locations_.Find(f, s, &thread, nullptr)) return;
    if (s[0] == '1') {
      ++out_.state_count[thread];
      return;
    }
    // Fields after the thread: time, then type:value pairs.
    const uint64_t fields = (p < e ? 1 : 0) + CountColons(p, e, limit_);
    if (fields > 1) out_.event_count[thread] += (fields - 1) / 2;
  }

  ChunkResult& out_;
  const char* limit_ = nullptr;
  ThreadLocations locations_;
  bool states_only_ = false;
};

}  // namespace

void CountChunk(const model::TraceHeader& h, std::string_view text, ChunkResult& result,
                const ChunkOptions& options) {
  ChunkCounter(h, result, options).Count(text);
}

void ParseChunk(const model::TraceHeader& h, std::string_view text, bool last_chunk,
                store::TraceStore& store, ChunkResult& result, const ChunkOptions& options) {
  ChunkParser(h, store, result, options).Parse(text, last_chunk);
}

}  // namespace parallax::io::prv_internal
