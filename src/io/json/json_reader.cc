// Reader of trace-event JSON. The top-level array is split into elements by a bracket- and
// string-aware scanner, and each element is parsed on its own by nlohmann's SAX parser into one
// reused record, so a malformed event is located and skipped, memory per event is bounded and
// no DOM is built (but for otherData.parallax, built within the memory budget). The scanner
// also bounds the nesting of every value it hands on (kMaxJsonNesting). Events are kept compactly, sorted per thread by timestamp (stable: equal
// timestamps keep file order, as Perfetto's sorter does) and then replayed on a slice stack
// per thread.

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "src/base/input_buffer.h"
#include "src/base/memory_budget.h"
#include "src/io/json/json_trace.h"
#include "src/io/json/member_dom.h"
#include "src/io/json/pax_header.h"
#include "src/io/prv/prv_checks.h"
#include "src/io/pcf/pcf_reader.h"
#include "src/io/row/row_reader.h"

namespace parallax::io {

namespace {

using nlohmann::json;

// One event as parsed; strings are reused from event to event.
struct RawEvent {
  std::string ph, name, cat, id, bp, pid, tid;
  double ts = 0, dur = 0;
  bool has_ts = false, has_dur = false;
  // Flow binding of a slice (the newer flow form): bind_id, read as Perfetto reads it (a
  // number, or a string of hexadecimal digits), and the directions.
  bool has_bind_id = false, bind_id_ok = false, flow_in = false, flow_out = false;
  uint64_t bind_id = 0;
  std::string bind_id_text;  // as written, for messages
  struct Arg {
    std::string key, text;
    double number = 0;
    bool is_number = false;
  };
  std::vector<Arg> args;
  size_t nargs = 0;

  void Clear() {
    ph.clear(), name.clear(), cat.clear(), id.clear(), bp.clear(), pid.clear(), tid.clear();
    has_ts = has_dur = false;
    has_bind_id = bind_id_ok = flow_in = flow_out = false;
    nargs = 0;
  }
  const Arg* FindArg(std::string_view key) const {
    for (size_t i = 0; i < nargs; ++i)
      if (args[i].key == key) return &args[i];
    return nullptr;
  }
};

// nlohmann SAX handler filling a RawEvent: top-level scalar members and scalar members of
// "args"; deeper values are ignored.
class EventSax {
 public:
  explicit EventSax(RawEvent& e) : e_(e) {}
  bool null() { return Scalar(nullptr, 0, false); }
  bool boolean(bool b) { return Flag(b) || Scalar(nullptr, b ? 1 : 0, true); }
  // bind_id is kept exactly (a double would merge ids above 2^53); a negative or fractional one
  // names no flow.
  bool number_integer(json::number_integer_t v) {
    if (!Top("bind_id")) return Number(static_cast<double>(v));
    return BindId(v >= 0 ? static_cast<uint64_t>(v) : 0, v >= 0, std::to_string(v));
  }
  bool number_unsigned(json::number_unsigned_t v) {
    if (!Top("bind_id")) return Number(static_cast<double>(v));
    return BindId(v, true, std::to_string(v));
  }
  bool number_float(json::number_float_t v, const std::string& text) {
    if (!Top("bind_id")) return Number(v);
    bool whole = v >= 0 && v < 1.8e19 && v == std::floor(v);  // converts without loss
    return BindId(whole ? static_cast<uint64_t>(v) : 0, whole, text);
  }
  bool string(std::string& s) {
    if (!Top("bind_id")) return Scalar(&s, 0, false);
    std::optional<uint64_t> v = ParseHex(s);
    return BindId(v.value_or(0), v.has_value(), s);
  }
  bool binary(json::binary_t&) { return true; }
  bool start_object(size_t) { return Open(); }
  bool start_array(size_t) { return Open(); }
  bool end_object() { return Close(); }
  bool end_array() { return Close(); }
  bool key(std::string& k) {
    if (depth_ == 1) key1_ = k;
    else if (depth_ == 2 && key1_ == "args") key2_ = k;
    return true;
  }
  bool parse_error(size_t pos, const std::string&, const nlohmann::detail::exception& ex) {
    error_pos_ = pos;
    error_ = ex.what();
    return false;
  }
  size_t error_pos() const { return error_pos_; }
  const std::string& error() const { return error_; }

 private:
  bool Top(std::string_view key) const { return depth_ == 1 && key1_ == key; }
  bool BindId(uint64_t v, bool ok, std::string text) {
    e_.has_bind_id = true, e_.bind_id_ok = ok, e_.bind_id = v, e_.bind_id_text = std::move(text);
    return true;
  }
  // flow_in / flow_out given as booleans (or numbers, non-zero being true); false when the
  // value is not one of them.
  bool Flag(bool v) {
    if (Top("flow_in")) e_.flow_in = v;
    else if (Top("flow_out")) e_.flow_out = v;
    else return false;
    return true;
  }
  // Perfetto reads a string bind_id as hexadecimal digits (an optional 0x first).
  static std::optional<uint64_t> ParseHex(std::string_view s) {
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
    uint64_t v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 16);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return v;
  }
  bool Open() {
    ++depth_;
    return true;
  }
  bool Close() {
    if (depth_ == 2) key1_.clear();
    --depth_;
    return true;
  }
  bool Number(double v) {
    if (depth_ == 1) {
      if (Flag(v != 0)) return true;
      if (key1_ == "ts") e_.ts = v, e_.has_ts = true;
      else if (key1_ == "dur") e_.dur = v, e_.has_dur = true;
      else if (key1_ == "pid") SetNumber(e_.pid, v);
      else if (key1_ == "tid") SetNumber(e_.tid, v);
      else if (key1_ == "id") SetNumber(e_.id, v);
      return true;
    }
    return Scalar(nullptr, v, true);
  }
  // Writes a number as text into a reused string (no allocation once it has grown).
  static void SetNumber(std::string& out, double v) {
    char buf[32];
    auto end = fmt::format_to_n(buf, sizeof buf, "{}", v).out;
    out.assign(buf, end);
  }
  bool Scalar(std::string* s, double v, bool is_number) {
    if (depth_ == 1 && s) {
      if (key1_ == "ph") e_.ph = *s;
      else if (key1_ == "name") e_.name = *s;
      else if (key1_ == "cat") e_.cat = *s;
      else if (key1_ == "id") e_.id = *s;
      else if (key1_ == "bp") e_.bp = *s;
      else if (key1_ == "pid") e_.pid = *s;
      else if (key1_ == "tid") e_.tid = *s;
    } else if (depth_ == 2 && key1_ == "args") {
      if (e_.nargs == e_.args.size()) e_.args.emplace_back();
      RawEvent::Arg& a = e_.args[e_.nargs++];
      a.key = key2_;
      a.is_number = is_number;
      a.number = v;
      if (s) a.text = *s;
      else a.text.clear();
    }
    return true;
  }

  RawEvent& e_;
  int depth_ = 0;
  std::string key1_, key2_;
  size_t error_pos_ = 0;
  std::string error_;
};

// Compact form of an accepted event, replayed after sorting.
struct Rec {
  int64_t ts = 0;   // ns
  int64_t dur = 0;  // ns (X only)
  uint32_t thread = 0;  // index into the thread keys
  uint32_t name = 0;    // NameTable id (or flow key, counter series)
  uint64_t line = 0;
  uint32_t column = 0;
  char ph = 0;
  // Members the Parallax writer adds (used only for files it wrote).
  int64_t value = 0;
  int64_t a = 0, b = 0;  // state or type / cpu, or size / tag for flows
  int64_t c = 0;         // physical time for flows
  bool has_pax = false;
};

int64_t ToNs(double us) { return std::llround(us * 1000.0); }

class JsonImporter {
 public:
  // `budget`: bytes the records and the otherData.parallax DOM may take.
  JsonImporter(std::string_view text, const std::string& file, uint64_t budget)
      : text_(text), file_(file), lines_(text), budget_(budget) {}

  Result<ImportedTrace> Run();

 private:
  // Scanner.
  size_t SkipWs(size_t p) const {
    while (p < text_.size() && (text_[p] == ' ' || text_[p] == '\n' || text_[p] == '\r' || text_[p] == '\t')) ++p;
    return p;
  }
  // End of the value at p, or npos when the input ends first; `too_deep` (when given) gets the
  // offset of its first array or object nested deeper than kMaxJsonNesting, else npos.
  size_t ValueEnd(size_t p, size_t* too_deep = nullptr) const;
  Location Where(size_t offset) { return Location{file_, lines_.LineOf(offset), lines_.ColumnOf(offset)}; }
  Status TooDeep(size_t offset, std::string_view what);
  Status ReadOtherData(size_t begin, size_t end);
  void Keep(const Rec& r);
  void Diag(DiagKind kind, size_t offset, std::string_view detail) {
    uint64_t line = lines_.LineOf(offset);
    diags_.Add(kind, line, lines_.ColumnOf(offset), detail);
  }
  Status ScanObject(size_t p);
  void ScanArray(size_t p);
  void HandleElement(size_t begin, size_t end);
  void Accept(size_t offset);
  void BindFlow(const Rec& slice, size_t offset);
  uint32_t ThreadKey(const std::string& pid, const std::string& tid);
  uint32_t ThreadKeySlow(const std::string& pid, const std::string& tid);
  bool PaxRecordFits(const Rec& r, int64_t cpu, int64_t physical_time, const model::TraceHeader& h);
  uint32_t last_key_ = UINT32_MAX;
  std::string scratch_;  // reused for composite keys
  Result<ImportedTrace> Build();

  std::string_view text_;
  std::string file_;
  LineCounter lines_;
  Diagnostics diags_;
  RawEvent ev_;
  std::vector<Rec> recs_;
  NameTable names_{1};
  NameTable counters_{0};
  NameTable flows_{0};
  std::map<std::pair<std::string, std::string>, uint32_t> thread_keys_;
  std::vector<std::pair<std::string, std::string>> thread_key_list_;
  std::map<std::string, std::string> process_names_;
  std::map<std::pair<std::string, std::string>, std::string> thread_names_;
  json pax_;  // otherData.parallax, when the file was written by Parallax
  Location pax_where_;  // where otherData begins
  uint64_t events_seen_ = 0;
  uint64_t budget_;
  uint64_t dom_bytes_ = 0;  // what pax_ takes
  Status over_budget_;      // set when the records would exceed the budget: the scan stops
};

size_t JsonImporter::ValueEnd(size_t p, size_t* too_deep) const {
  if (too_deep != nullptr) *too_deep = std::string_view::npos;
  if (p >= text_.size()) return std::string_view::npos;
  char c = text_[p];
  if (c == '{' || c == '[') {
    int64_t depth = 0;
    for (size_t i = p; i < text_.size(); ++i) {
      char d = text_[i];
      if (d == '"') {
        for (++i; i < text_.size() && text_[i] != '"'; ++i)
          if (text_[i] == '\\') ++i;
        if (i >= text_.size()) return std::string_view::npos;
      } else if (d == '{' || d == '[') {
        if (++depth > kMaxJsonNesting && too_deep != nullptr && *too_deep == std::string_view::npos) *too_deep = i;
      } else if (d == '}' || d == ']') {
        if (--depth == 0) return i + 1;
      }
    }
    return std::string_view::npos;
  }
  if (c == '"') {
    for (size_t i = p + 1; i < text_.size(); ++i) {
      if (text_[i] == '\\') ++i;
      else if (text_[i] == '"') return i + 1;
    }
    return std::string_view::npos;
  }
  size_t i = p;
  while (i < text_.size() && text_[i] != ',' && text_[i] != '}' && text_[i] != ']' && text_[i] != ' ' &&
         text_[i] != '\n' && text_[i] != '\r' && text_[i] != '\t')
    ++i;
  return i;
}

Status JsonImporter::ScanObject(size_t p) {
  // {"traceEvents": [...], "otherData": {...}, ...}: other members are skipped.
  p = SkipWs(p + 1);
  while (p < text_.size() && text_[p] != '}') {
    if (text_[p] == ',') {
      p = SkipWs(p + 1);
      continue;
    }
    size_t key_end = ValueEnd(p);
    if (text_[p] != '"' || key_end == std::string_view::npos) {
      lines_.LineOf(p);
      return Status::Error("expected a member name in the top-level JSON object",
                           Location{file_, lines_.LineOf(p), lines_.ColumnOf(p)},
                           "a trace-event file is an array of events or {\"traceEvents\": [...]}");
    }
    std::string_view key = text_.substr(p + 1, key_end - p - 2);
    p = SkipWs(key_end);
    if (p >= text_.size() || text_[p] != ':') {
      return Status::Error("expected ':' after a member name", Location{file_, lines_.LineOf(p), lines_.ColumnOf(p)});
    }
    p = SkipWs(p + 1);
    size_t too_deep = std::string_view::npos;
    size_t end = ValueEnd(p, &too_deep);
    if (key == "traceEvents" && p < text_.size() && text_[p] == '[') {
      ScanArray(p);
      if (!over_budget_.ok()) return over_budget_;
      if (end == std::string_view::npos) return Status::Ok();
    } else if (key == "otherData" && end != std::string_view::npos) {
      if (too_deep != std::string_view::npos) return TooDeep(too_deep, "otherData");
      if (Status s = ReadOtherData(p, end); !s.ok()) return s;
    } else if (end != std::string_view::npos && key != "traceEvents") {
      // displayTimeUnit, metadata, systemTraceEvents, ...: nothing Parallax maps.
    }
    if (end == std::string_view::npos) {
      Diag(DiagKind::kUnterminatedInput, text_.size(), "the top-level object is not closed");
      return Status::Ok();
    }
    p = SkipWs(end);
  }
  if (p >= text_.size()) Diag(DiagKind::kUnterminatedInput, text_.size(), "the top-level object is not closed");
  return Status::Ok();
}

Status JsonImporter::TooDeep(size_t offset, std::string_view what) {
  return Status::Error(fmt::format("{} nests more than {} arrays or objects in one another; expected at most {} "
                                   "levels of nesting",
                                   what, kMaxJsonNesting, kMaxJsonNesting),
                       Where(offset),
                       "the file is damaged or was not written as a trace: no trace-event writer nests values "
                       "this deep (remove or flatten that member)");
}

// otherData: only its member "parallax" (the header of a file Parallax wrote) is read, as a
// DOM within what the budget leaves after the records read so far.
Status JsonImporter::ReadOtherData(size_t begin, size_t end) {
  const uint64_t used = recs_.capacity() * sizeof(Rec);
  MemberDom pax = BuildMemberDom(text_.substr(begin, end - begin), "parallax", budget_ > used ? budget_ - used : 0);
  switch (pax.outcome) {
    case MemberDom::Outcome::kBuilt:
      pax_ = std::move(pax.value);
      pax_where_ = Where(begin);
      dom_bytes_ = pax.bytes;
      break;
    case MemberDom::Outcome::kOverBudget:
      return Status::Error(fmt::format("the trace does not fit in the memory budget: otherData.parallax needs more "
                                       "than {} once read, the budget is {}",
                                       base::FormatBytes(pax.bytes), base::FormatBytes(budget_)),
                           Where(begin),
                           "raise the memory limit (--memory-limit) if the machine has the memory; a file Parallax "
                           "wrote keeps only the header, the .pcf and the .row there");
    case MemberDom::Outcome::kMalformed:
      Diag(DiagKind::kSyntax, begin, fmt::format("otherData is not valid JSON (ignored): {}", pax.error));
      break;
    case MemberDom::Outcome::kAbsent: break;
  }
  return Status::Ok();
}

void JsonImporter::ScanArray(size_t p) {
  p = SkipWs(p + 1);
  while (p < text_.size() && over_budget_.ok()) {
    char c = text_[p];
    if (c == ']') return;
    if (c == ',') {
      p = SkipWs(p + 1);
      continue;
    }
    size_t too_deep = std::string_view::npos;
    size_t end = ValueEnd(p, &too_deep);
    if (end == std::string_view::npos) {
      Diag(DiagKind::kTruncatedLastLine, p, "the last event is cut off before its closing '}' (skipped)");
      return;
    }
    if (c != '{') Diag(DiagKind::kSyntax, p, "expected an event object '{...}' in the trace-event array");
    else if (too_deep != std::string_view::npos)
      Diag(DiagKind::kSyntax, too_deep,
           fmt::format("an event nests more than {} arrays or objects in one another (skipped)", kMaxJsonNesting));
    else HandleElement(p, end);
    if (end == p) ++end;
    p = SkipWs(end);
  }
  if (!over_budget_.ok()) return;
  Diag(DiagKind::kUnterminatedInput, text_.size(), "the event array has no closing ']' (accepted, as Perfetto does)");
}

void JsonImporter::HandleElement(size_t begin, size_t end) {
  ev_.Clear();
  EventSax sax(ev_);
  std::string_view span = text_.substr(begin, end - begin);
  if (!json::sax_parse(span.begin(), span.end(), &sax)) {
    size_t at = begin + (sax.error_pos() > 0 ? sax.error_pos() - 1 : 0);
    Diag(DiagKind::kSyntax, at, fmt::format("malformed event object: {}", sax.error()));
    return;
  }
  ++events_seen_;
  Accept(begin);
}

uint32_t JsonImporter::ThreadKey(const std::string& pid, const std::string& tid) {
  // Consecutive events usually come from the same thread: skip the map then.
  if (last_key_ != UINT32_MAX && thread_key_list_[last_key_].first == pid && thread_key_list_[last_key_].second == tid)
    return last_key_;
  last_key_ = ThreadKeySlow(pid, tid);
  return last_key_;
}

uint32_t JsonImporter::ThreadKeySlow(const std::string& pid, const std::string& tid) {
  auto [it, inserted] = thread_keys_.emplace(std::make_pair(pid, tid), static_cast<uint32_t>(thread_key_list_.size()));
  if (inserted) thread_key_list_.emplace_back(pid, tid);
  return it->second;
}

void JsonImporter::Accept(size_t offset) {
  const RawEvent& e = ev_;
  if (e.ph.size() != 1) {
    Diag(DiagKind::kSyntax, offset, "an event needs a one-letter \"ph\" (phase)");
    return;
  }
  char ph = e.ph[0];
  bool bound = e.has_bind_id || e.flow_in || e.flow_out;
  if (bound && ph != 'B' && ph != 'X')
    Diag(DiagKind::kUnsupportedRecord, offset,
         fmt::format("a flow binding on a '{}' event is not read (Perfetto reads it on B and X slices)", ph));
  if (ph == 'M') {
    const RawEvent::Arg* n = e.FindArg("name");
    if (!n || n->is_number) return;
    if (e.name == "process_name") process_names_[e.pid] = n->text;
    else if (e.name == "thread_name") thread_names_[{e.pid, e.tid}] = n->text;
    else diags_.Count(DiagKind::kUnsupportedRecord);
    return;
  }
  bool known = ph == 'B' || ph == 'E' || ph == 'X' || ph == 'i' || ph == 'I' || ph == 'R' || ph == 'C' || ph == 's' ||
               ph == 'f' || ph == 't';
  if (!known) {
    Diag(DiagKind::kUnsupportedRecord, offset, fmt::format("phase '{}' is not mapped", ph));
    return;
  }
  if (!e.has_ts || !std::isfinite(e.ts)) {
    Diag(DiagKind::kSyntax, offset, "the event has no numeric \"ts\"");
    return;
  }
  if (e.ts < 0) {
    Diag(DiagKind::kNegativeTime, offset, "negative \"ts\"");
    return;
  }
  if (e.ts > 9.0e15) {
    Diag(DiagKind::kNumberTooLarge, offset, "\"ts\" beyond the 64-bit nanosecond range");
    return;
  }
  Rec r;
  r.ts = ToNs(e.ts);
  r.ph = ph;
  r.line = lines_.LineOf(offset);
  r.column = static_cast<uint32_t>(lines_.ColumnOf(offset));
  r.thread = ThreadKey(e.pid, e.tid);
  auto num = [&](std::string_view key, int64_t* out) {
    const RawEvent::Arg* a = e.FindArg(key);
    if (!a || !a->is_number || !std::isfinite(a->number) || std::fabs(a->number) > 9.0e18) return false;
    *out = static_cast<int64_t>(a->number);
    return true;
  };
  switch (ph) {
    case 'X':
      if (!e.has_dur || e.dur < 0 || !std::isfinite(e.dur) || e.dur > 9.0e15) {
        Diag(DiagKind::kSyntax, offset, "a complete (X) event needs a non-negative numeric \"dur\" (skipped, as Perfetto does)");
        return;
      }
      r.dur = ToNs(e.dur);
      // Every later use adds the two (the slice's end): it must be a time too.
      if (int64_t end = 0; __builtin_add_overflow(r.ts, r.dur, &end)) {
        Diag(DiagKind::kNumberTooLarge, offset, "\"ts\" + \"dur\" ends beyond the 64-bit nanosecond range (skipped)");
        return;
      }
      [[fallthrough]];
    case 'B':
    case 'E':
      r.name = ph == 'E' && e.name.empty() ? 0 : static_cast<uint32_t>(names_.Id(e.name));
      r.has_pax = num("state", &r.a);
      num("cpu", &r.b);
      num("open", &r.value);
      break;
    case 'i':
    case 'I':
    case 'R':
      r.ph = 'i';
      r.name = static_cast<uint32_t>(names_.Id(e.name));
      r.has_pax = num("type", &r.a) && num("value", &r.value);
      num("cpu", &r.b);
      break;
    case 's':
    case 'f':
    case 't':
      // Keys of this form begin with '1', those of bind_id flows with '2'.
      scratch_.assign("1").append(e.cat).append(1, '\x1f').append(e.name).append(1, '\x1f').append(e.id);
      r.name = static_cast<uint32_t>(flows_.Id(scratch_));
      r.has_pax = num("size", &r.a) && num("tag", &r.b) && num("phy", &r.c);
      num("cpu", &r.value);
      break;
    case 'C':
      for (size_t i = 0; i < e.nargs; ++i) {
        const RawEvent::Arg& a = e.args[i];
        if (!a.is_number || !std::isfinite(a.number) || std::fabs(a.number) > 9.0e18) continue;
        Rec c = r;
        scratch_.assign(e.name).append(1, '\x1f').append(a.key);
        c.name = static_cast<uint32_t>(counters_.Id(scratch_));
        c.value = std::llround(a.number);
        Keep(c);
      }
      return;
    default:
      break;
  }
  Keep(r);
  if (bound && (ph == 'B' || ph == 'X')) BindFlow(r, offset);
}

// Keeps a record within the budget. About three times the records' bytes: a vector's growth
// holds the old and the new array at once, and the records are copied once more before the
// store is built.
void JsonImporter::Keep(const Rec& r) {
  if (recs_.size() == recs_.capacity() && !recs_.empty() && over_budget_.ok()) {
    const uint64_t need = 3 * recs_.size() * sizeof(Rec) + dom_bytes_;
    if (need > budget_) {
      over_budget_ = Status::Error(
          fmt::format("the trace does not fit in the memory budget: its events need more than {}, the budget is {}",
                      base::FormatBytes(need), base::FormatBytes(budget_)),
          Location{file_, 0, 0},
          "raise the memory limit (--memory-limit) if the machine has the memory, or convert a part of the trace");
    }
  }
  if (over_budget_.ok()) recs_.push_back(r);
}

// The newer flow form: a B or X slice with a bind_id and flow_out (a flow starts at the slice),
// flow_in (it ends there) or both (a step through it), as Perfetto's importer reads it. The
// flow half is placed at the slice's begin.
void JsonImporter::BindFlow(const Rec& slice, size_t offset) {
  const RawEvent& e = ev_;
  if (!e.has_bind_id) {
    Diag(DiagKind::kUnmatchedFlow, offset, "flow_in or flow_out without a bind_id: no flow");
  } else if (!e.bind_id_ok) {
    Diag(DiagKind::kUnmatchedFlow, offset,
         fmt::format("bind_id {} is not a flow id (a number, or hexadecimal digits in a string)", e.bind_id_text));
  } else if (!e.flow_in && !e.flow_out) {
    Diag(DiagKind::kUnmatchedFlow, offset, fmt::format("bind_id {} without flow_in or flow_out", e.bind_id_text));
  } else {
    Rec f = slice;
    f.ph = e.flow_in && e.flow_out ? 't' : e.flow_out ? 's' : 'f';
    f.dur = f.value = f.a = f.b = f.c = 0;
    f.has_pax = false;
    f.name = static_cast<uint32_t>(flows_.Id("2" + std::to_string(e.bind_id)));
    Keep(f);
  }
}

Result<ImportedTrace> JsonImporter::Run() {
  size_t p = 0;
  if (text_.substr(0, 3) == "\xEF\xBB\xBF") p = 3;
  p = SkipWs(p);
  if (p < text_.size() && text_[p] == '[') {
    ScanArray(p);
    if (!over_budget_.ok()) return over_budget_;
  } else if (p < text_.size() && text_[p] == '{') {
    Status s = ScanObject(p);
    if (!s.ok()) return s;
  } else {
    return Status::Error("expected '[' or '{' at the start of a trace-event JSON file",
                         Location{file_, lines_.LineOf(p), lines_.ColumnOf(p)},
                         "Chrome/Perfetto JSON is an array of events or an object with \"traceEvents\"");
  }
  return Build();
}


// Replays the sorted records of one thread on a slice stack (generic files).
class SliceReplay {
 public:
  SliceReplay(TraceBuilder& b, uint32_t thread, Diagnostics& d) : b_(b), thread_(thread), diags_(d) {}

  void Add(const Rec& r, const NameTable& names) {
    switch (r.ph) {
      case 'B':
        PopExpired(r.ts);
        Push(r.ts, r.name, -1, r);
        break;
      case 'X':
        PopExpired(r.ts);
        if (!stack_.empty() && stack_.back().end >= 0 && r.ts + r.dur > stack_.back().end) {
          diags_.Add(DiagKind::kOverlappingSlice, r.line, r.column,
                     fmt::format("slice ends at {} ns, after its enclosing slice (ends at {} ns)", r.ts + r.dur,
                                 stack_.back().end));
          return;
        }
        Push(r.ts, r.name, r.ts + r.dur, r);
        break;
      case 'E': End(r, names); break;
      case 'i':
      case 'I': b_.AddEvent(thread_, static_cast<model::Time>(r.ts), kInstantEventType, r.name); break;
      case 'C':
        b_.AddEvent(thread_, static_cast<model::Time>(r.ts), kCounterEventTypeBase + r.name, r.value);
        break;
      default: break;
    }
  }

  // Closes what is still open: complete slices at their end, begins at the trace end.
  void Finish(int64_t trace_end) {
    PopExpired(INT64_MAX);
    while (!stack_.empty()) {
      const Open& o = stack_.back();
      diags_.Add(DiagKind::kUnclosedBegin, o.line, o.column, "slice begun here is never ended");
      Pop(trace_end);
    }
    Flush();
  }

 private:
  struct Open {
    int64_t end;  // -1 for B slices
    uint32_t name;
    uint64_t line;
    uint32_t column;
  };

  // Ends the current state at t. Adjacent intervals of the same slice name (split by a child
  // of zero duration or by an end of an outer slice) become one state.
  void Boundary(int64_t t) {
    if (!stack_.empty() && t > since_) {
      uint32_t name = stack_.back().name;
      if (pending_.end == since_ && pending_.name == name) {
        pending_.end = t;
      } else {
        Flush();
        pending_ = Pending{since_, t, name};
      }
    }
    since_ = t;
  }
  void Flush() {
    if (pending_.end > pending_.begin)
      b_.AddState(thread_, static_cast<model::Time>(pending_.begin), static_cast<model::Time>(pending_.end), pending_.name);
    pending_ = Pending{};
  }
  void Push(int64_t t, uint32_t name, int64_t end, const Rec& r) {
    Boundary(t);
    stack_.push_back(Open{end, name, r.line, r.column});
    b_.AddEvent(thread_, static_cast<model::Time>(t), kSliceEventType, name);
  }
  void Pop(int64_t t) {
    Boundary(t);
    stack_.pop_back();
    b_.AddEvent(thread_, static_cast<model::Time>(t), kSliceEventType, 0);
  }
  void PopExpired(int64_t t) {
    while (!stack_.empty() && stack_.back().end >= 0 && stack_.back().end <= t) Pop(stack_.back().end);
  }
  // E closes the innermost open B slice with its name (any open B slice when it has none), as
  // Perfetto's slice tracker matches JSON ends. When that slice is not the innermost, the inner
  // slices stay open and remain the thread's state.
  void End(const Rec& r, const NameTable& names) {
    PopExpired(r.ts);
    size_t i = stack_.size();
    while (i > 0 && !(stack_[i - 1].end < 0 && (r.name == 0 || stack_[i - 1].name == r.name))) --i;
    if (i == 0) {
      diags_.Add(DiagKind::kUnmatchedEnd, r.line, r.column,
                 r.name == 0 ? std::string("end event with no open begin on its thread")
                             : fmt::format("end \"{}\" with no open begin of that name on its thread",
                                           names.entries()[r.name - 1].second));
      return;
    }
    if (i == stack_.size()) {
      Pop(r.ts);
      return;
    }
    diags_.Add(DiagKind::kEndNotInnermost, r.line, r.column,
               fmt::format("end \"{}\" closes a slice that has open slices inside it (they stay open)",
                           names.entries()[stack_[i - 1].name - 1].second));
    stack_.erase(stack_.begin() + static_cast<ptrdiff_t>(i - 1));
    b_.AddEvent(thread_, static_cast<model::Time>(r.ts), kSliceEventType, 0);
  }

  TraceBuilder& b_;
  uint32_t thread_;
  Diagnostics& diags_;
  struct Pending {
    int64_t begin = -1, end = -1;
    uint32_t name = 0;
  };
  std::vector<Open> stack_;
  int64_t since_ = 0;
  Pending pending_;
};

bool AllNumeric(const std::vector<std::string>& keys) {
  for (const auto& k : keys) {
    if (k.empty()) return false;
    char* end = nullptr;
    std::strtod(k.c_str(), &end);
    if (*end != '\0') return false;
  }
  return true;
}

// Orders keys numerically when all are numbers, else as they first appeared.
void SortKeys(std::vector<std::string>& keys) {
  if (AllNumeric(keys))
    std::stable_sort(keys.begin(), keys.end(), [](const std::string& a, const std::string& b) {
      return std::strtod(a.c_str(), nullptr) < std::strtod(b.c_str(), nullptr);
    });
}

// Links flow halves, given in time order, into communications as Perfetto's flow tracker links
// slices: a start (s, flow_out) opens the flow of its key; an end (f, flow_in) links the open
// start to itself and leaves the flow open, so several ends may follow one start; a step (t, or
// both flow_in and flow_out) links the open start to itself and starts the flow again from
// there. An end may also come before its start (a Paraver logical receive can precede its send),
// and a start replaces one that was linked. Every half that links nothing is counted.
class FlowMatcher {
 public:
  FlowMatcher(size_t keys, Diagnostics& d) : flows_(keys), diags_(d) {}

  template <typename Link>
  void Add(const Rec& r, Link&& link) {
    Flow& f = flows_[r.name];
    if (r.ph == 'f' || r.ph == 't') {
      if (f.start) {
        link(f.start, &r);
        f.linked = true;
      } else if (r.ph == 't') {
        Unmatched(r, "flow step with no start before it (its outgoing half is kept)");
      } else {
        if (f.early_end) Unmatched(*f.early_end, "flow end with no start (its id ends another flow later)");
        f.early_end = &r;
      }
      if (r.ph == 'f') return;
    }
    if (f.start && !f.linked) Unmatched(*f.start, "flow start never finished (its id starts another flow later)");
    f.start = &r;
    f.linked = f.early_end != nullptr;
    if (f.early_end) link(&r, f.early_end);
    f.early_end = nullptr;
  }
  void Finish() {
    for (const Flow& f : flows_) {
      if (f.start && !f.linked) Unmatched(*f.start, "flow start never finished");
      if (f.early_end) Unmatched(*f.early_end, "flow end with no start");
    }
  }

 private:
  struct Flow {
    const Rec* start = nullptr;      // the open start, or the last step
    bool linked = false;             // whether an end or step followed it
    const Rec* early_end = nullptr;  // an end seen while no start was open
  };
  void Unmatched(const Rec& r, std::string_view what) { diags_.Add(DiagKind::kUnmatchedFlow, r.line, r.column, what); }

  std::vector<Flow> flows_;
  Diagnostics& diags_;
};

// Whether a record of a file Parallax wrote obeys the rules a .prv record does (prv_checks.h):
// a state or event type within 32 bits, a cpu the header declares on the node of the record's
// task, no negative physical time. A record that does not is counted, located and skipped.
bool JsonImporter::PaxRecordFits(const Rec& r, int64_t cpu, int64_t physical_time, const model::TraceHeader& h) {
  auto reject = [&](DiagKind kind, std::string detail) {
    diags_.Add(kind, r.line, r.column, std::move(detail));
    return false;
  };
  const bool flow = r.ph == 's' || r.ph == 'f' || r.ph == 't';
  if (!flow && (r.a < 0 || r.a > int64_t{UINT32_MAX}))
    return reject(DiagKind::kNumberTooLarge, r.ph == 'X' ? kStateRangeProblem : kEventTypeRangeProblem);
  if (cpu < 0) return reject(DiagKind::kSyntax, "negative cpu");
  if (physical_time < 0) return reject(DiagKind::kNegativeTime, "negative physical time");
  if (auto problem = CheckRecordCpu(h, static_cast<uint64_t>(cpu), model::ThreadIndex(r.thread)))
    return reject(problem->kind, std::move(problem->detail));
  return true;
}

Result<ImportedTrace> JsonImporter::Build() {
  ImportedTrace out;
  out.format = "json";
  const bool pax = IsPaxHeader(pax_);
  model::TraceHeader header;
  header.unit = model::TimeUnit::kNs;
  header.unit_suffix = "_ns";
  std::vector<uint32_t> global(thread_key_list_.size(), UINT32_MAX);
  int64_t ns_per_unit = 1;
  PaxHeader pax_header;
  if (pax) {
    auto read = ReadPaxHeader(pax_, pax_where_);
    if (!read.ok()) return read.status();
    pax_header = std::move(read.value());
    header = std::move(pax_header.header);
    ns_per_unit = pax_header.ns_per_unit;
    for (size_t k = 0; k < thread_key_list_.size(); ++k) {
      const auto& [pid, tid] = thread_key_list_[k];
      double task = std::strtod(pid.c_str(), nullptr), th = std::strtod(tid.c_str(), nullptr);
      if (task >= 1 && task <= header.processes.tasks()) {
        const model::TaskInfo& ti = header.processes.task(model::TaskIndex(static_cast<uint32_t>(task) - 1));
        if (th >= 1 && th <= ti.threads) global[k] = ti.first_thread.value + static_cast<uint32_t>(th) - 1;
      }
    }
  } else {
    std::vector<std::string> pids;
    std::map<std::string, std::vector<std::string>> tids;
    for (const auto& [pid, tid] : thread_key_list_) {
      if (!tids.count(pid)) pids.push_back(pid);
      tids[pid].push_back(tid);
    }
    SortKeys(pids);
    std::vector<std::pair<uint32_t, uint32_t>> tasks;
    std::vector<std::string> task_labels, thread_labels;
    uint32_t next = 0;
    for (const auto& pid : pids) {
      auto& ts = tids[pid];
      SortKeys(ts);
      tasks.emplace_back(static_cast<uint32_t>(ts.size()), 0);
      auto pn = process_names_.find(pid);
      task_labels.push_back(pn != process_names_.end() ? pn->second : "pid " + pid);
      for (const auto& tid : ts) {
        global[thread_keys_[{pid, tid}]] = next++;
        auto tn = thread_names_.find({pid, tid});
        thread_labels.push_back(tn != thread_names_.end() ? tn->second : fmt::format("pid {} tid {}", pid, tid));
      }
    }
    if (!tasks.empty()) header.processes.AddAppl(tasks);
    model::RowNames row;
    row.SetLabels(model::Level::kTask, std::move(task_labels));
    row.SetLabels(model::Level::kThread, std::move(thread_labels));
    out.row = std::move(row);
  }
  if (header.processes.threads() == 0)
    return Status::Error("the trace has no event that Parallax maps (no B/E, X, i, C or flow event)",
                         Location{file_, 0, 0}, "a trace-event file needs events with \"ph\", \"ts\", \"pid\" and \"tid\"");

  // Records of threads the Parallax header does not declare are reported, not guessed.
  std::vector<Rec> kept, flow_recs;
  kept.reserve(recs_.size());
  for (Rec& r : recs_) {
    if (global[r.thread] == UINT32_MAX) {
      diags_.Add(DiagKind::kUnknownObject, r.line, r.column, "pid/tid not declared in otherData.parallax");
      continue;
    }
    r.thread = global[r.thread];
    (r.ph == 's' || r.ph == 'f' || r.ph == 't' ? flow_recs : kept).push_back(r);
  }
  recs_.clear();
  recs_.shrink_to_fit();
  std::stable_sort(kept.begin(), kept.end(), [](const Rec& a, const Rec& b) {
    return a.thread != b.thread ? a.thread < b.thread : a.ts < b.ts;
  });
  int64_t trace_end = 0;
  for (const Rec& r : kept) trace_end = std::max(trace_end, r.ts + r.dur);

  TraceBuilder builder(header);
  auto to_unit = [&](int64_t ns) { return static_cast<model::Time>(ns / ns_per_unit); };
  // Flows in time order (in file order for files Parallax wrote, which keeps the
  // communications' order).
  std::vector<const Rec*> flows;
  for (const Rec& r : flow_recs) flows.push_back(&r);
  if (!pax) std::stable_sort(flows.begin(), flows.end(), [](const Rec* a, const Rec* b) { return a->ts < b->ts; });
  auto comm = [&](const Rec* start, const Rec* r) {
    if (pax && start->has_pax && r->has_pax &&
        (!PaxRecordFits(*start, start->value, start->c, header) || !PaxRecordFits(*r, r->value, r->c, header)))
      return;
    TraceBuilder::Comm c;
    c.sender = start->thread;
    c.receiver = r->thread;
    c.log_send = to_unit(start->ts);
    c.log_recv = to_unit(r->ts);
    c.phy_send = c.log_send;
    c.phy_recv = c.log_recv;
    if (pax && start->has_pax && r->has_pax) {
      c.size = start->a, c.tag = start->b;
      c.phy_send = static_cast<model::Time>(start->c), c.phy_recv = static_cast<model::Time>(r->c);
      c.sender_cpu = static_cast<uint16_t>(start->value), c.receiver_cpu = static_cast<uint16_t>(r->value);
    }
    builder.AddComm(c);
  };
  FlowMatcher matcher(flows_.entries().size(), diags_);
  for (const Rec* r : flows) matcher.Add(*r, comm);
  matcher.Finish();

  if (pax) {
    for (const Rec& r : kept) {
      if (r.has_pax && (r.ph == 'X' || r.ph == 'i' || r.ph == 'I') && !PaxRecordFits(r, r.b, 0, header)) continue;
      if (r.ph == 'X' && r.has_pax)
        builder.AddState(r.thread, to_unit(r.ts), r.value == 1 ? model::kNoEnd : to_unit(r.ts + r.dur),
                         static_cast<uint32_t>(r.a), static_cast<uint16_t>(r.b));
      else if ((r.ph == 'i' || r.ph == 'I') && r.has_pax)
        builder.AddEvent(r.thread, to_unit(r.ts), static_cast<uint32_t>(r.a), r.value, static_cast<uint16_t>(r.b));
      else
        diags_.Add(DiagKind::kUnsupportedRecord, r.line, r.column, "event without the members Parallax writes");
    }
    PcfDiagnostics pd;
    if (pax_header.pcf) {
      auto pcf = ParsePcf(*pax_header.pcf, file_ + " (otherData.parallax.pcf)", &pd);
      if (pcf.ok()) out.pcf = std::move(pcf.value());
    }
    if (pax_header.row) {
      RowDiagnostics rd;
      auto row = ParseRow(*pax_header.row, file_ + " (otherData.parallax.row)", &rd);
      if (row.ok()) out.row = std::move(row.value());
    }
  } else {
    size_t i = 0;
    while (i < kept.size()) {
      uint32_t th = kept[i].thread;
      SliceReplay replay(builder, th, diags_);
      for (; i < kept.size() && kept[i].thread == th; ++i) replay.Add(kept[i], names_);
      replay.Finish(trace_end);
    }
    for (const auto& [id, name] : names_.entries()) out.pcf.states.push_back(model::PcfLabel{static_cast<int32_t>(id), name, {}});
    AddEventTypeLabel(out.pcf, kSliceEventType, "Slice (begin: name, end: 0)", names_.entries());
    AddEventTypeLabel(out.pcf, kInstantEventType, "Instant event", names_.entries());
    for (const auto& [id, key] : counters_.entries()) {
      std::string label = key;
      std::replace(label.begin(), label.end(), '\x1f', '.');
      AddEventTypeLabel(out.pcf, kCounterEventTypeBase + static_cast<uint32_t>(id), "Counter " + label);
    }
  }
  out.pcf.Finalize();
  out.prv = builder.Finish(std::move(diags_), text_.size(), lines_.LineOf(text_.size()));
  // As for a .prv: a header whose every record was rejected is not a trace.
  if (pax && out.prv.store.state_records() + out.prv.store.event_records() + out.prv.store.comms().rows() == 0)
    return EmptyBodyError(out.prv.diagnostics, file_);
  out.prv.unsigned_value_types = std::move(pax_header.unsigned_value_types);
  return out;
}

}  // namespace

Result<ImportedTrace> ParseJsonTrace(std::string_view text, const std::string& file, uint64_t memory_budget) {
  JsonImporter importer(text, file, base::EffectiveMemoryBudget(memory_budget));
  return importer.Run();
}

Result<ImportedTrace> ReadJsonTrace(const std::string& path, uint64_t memory_budget) {
  const uint64_t budget = base::EffectiveMemoryBudget(memory_budget);
  auto buf = base::InputBuffer::Open(path, {}, budget);
  if (!buf.ok()) return buf.status();
  // An inflated .json.gz is held in memory: the records get what it leaves.
  const uint64_t text = buf->was_compressed() ? buf->view().size() : 0;
  return buf->Parse([&](std::string_view t) { return ParseJsonTrace(t, path, budget > text ? budget - text : 1); });
}

}  // namespace parallax::io
