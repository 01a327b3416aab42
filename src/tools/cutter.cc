// Paraver's by-time cutter, streamed. The decisions follow the reference cutter record by
// record (docs/tools.md lists them); the reference writes a temporary trace and then shifts it
// so that the first written record is at time 0. Here the same decisions run twice over the
// input instead: a first pass without output finds the first and last written times (it stops
// where the reference stops reading), the second writes the shifted records directly.

#include <algorithm>
#include <array>
#include <ctime>
#include <functional>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "include/parallax/tools.h"
#include "src/io/prv/prv_writer.h"
#include "src/tools/prv_record.h"
#include "src/tools/trace_stream.h"

namespace parallax {

namespace {

using tools::OutputFile;
using tools::PrvRecord;

// Hardware counter types as Extrae numbers them (PAPI presets from 42000000, native and uncore
// counters above them); 41999999, the active counter set, is not one.
constexpr uint64_t kHwcFirst = 42000000, kHwcLast = 50000000;

bool TaskSelected(const std::vector<TaskRange>& tasks, uint32_t task) {
  if (tasks.empty()) return true;
  for (const TaskRange& t : tasks)
    if (task >= t.first && task <= t.last) return true;
  return false;
}

// An event type opened (value != 0) more often than closed (value 0) on a thread. The
// reference keeps a list of openings and removes the latest one of a type on a close; at the
// end it closes each open type once, the type opened first last. Only the count and the
// opening that made the count leave 0 matter for that, so memory stays per type.
struct OpenType {
  uint64_t count = 0;
  uint64_t first_open = 0;  // sequence number of the opening that made count 1
};

// Event types numbered densely in the order they are first seen (the first kDenseTypes of
// them), so that the per-pair bookkeeping is an array access: a direct-mapped cache in front
// of a hash map answers nearly every lookup. Types past kDenseTypes get no number.
constexpr uint32_t kDenseTypes = 1024, kNoId = UINT32_MAX;

class TypeIds {
 public:
  // `hwc` and `untracked`: sorted, disjoint.
  TypeIds(std::vector<uint64_t> hwc, std::vector<uint64_t> untracked)
      : hwc_(std::move(hwc)), untracked_(std::move(untracked)) {}
  uint32_t Id(uint64_t type) {
    Slot& slot = cache_[(type * 0x9E3779B97F4A7C15ull) >> (64 - kCacheBits)];
    if (slot.id_plus_1 != 0 && slot.type == type) return slot.id_plus_1 - 1;
    uint32_t id;
    auto it = ids_.find(type);
    if (it != ids_.end()) {
      id = it->second;
    } else if (types_.size() < kDenseTypes) {
      id = static_cast<uint32_t>(types_.size());
      ids_.emplace(type, id);
      types_.push_back(type);
      hwc_of_.push_back(HwcIndex(type));
      untracked_of_.push_back(Untracked(type));
    } else {
      return kNoId;
    }
    slot = {type, id + 1};
    return id;
  }
  uint64_t type(uint32_t id) const { return types_[id]; }
  // Index of the type in the sorted hardware counter types, or -1.
  int32_t hwc(uint32_t id) const { return hwc_of_[id]; }
  // Whether openings and closings of the type are not followed (see CutTrace).
  bool untracked(uint32_t id) const { return untracked_of_[id]; }
  bool Untracked(uint64_t type) const {
    return std::binary_search(untracked_.begin(), untracked_.end(), type);
  }
  int32_t HwcIndex(uint64_t type) const {
    if (hwc_.empty() || type < hwc_.front() || type > hwc_.back()) return -1;
    auto it = std::lower_bound(hwc_.begin(), hwc_.end(), type);
    return it != hwc_.end() && *it == type ? static_cast<int32_t>(it - hwc_.begin()) : -1;
  }

 private:
  static constexpr int kCacheBits = 9;
  struct Slot {
    uint64_t type = 0;
    uint32_t id_plus_1 = 0;  // 0: empty
  };
  std::vector<uint64_t> hwc_;        // sorted
  std::vector<uint64_t> untracked_;  // sorted
  std::array<Slot, size_t{1} << kCacheBits> cache_{};
  std::unordered_map<uint64_t, uint32_t> ids_;
  std::vector<uint64_t> types_;
  std::vector<int32_t> hwc_of_;
  std::vector<bool> untracked_of_;
};

// What the cutter remembers about one thread.
struct ThreadState {
  uint64_t last_time = 0;
  uint64_t last_state_end = 0;
  uint32_t last_cpu = 0;
  bool finished = false;
  bool without_states = false;
  // Open types: by type id (count 0: not open), and by type past the numbered ones.
  std::vector<OpenType> open_dense;
  std::unordered_map<uint64_t, OpenType> open_more;
  // Per hardware counter type of the .pcf (same index): bit 0 seen with a value != 0, bit 1
  // first value already written (the first one is written as 0).
  std::vector<uint8_t> hwc_flags;
};

class CutEngine {
 public:
  CutEngine(const CutOptions& o, uint64_t tmin, uint64_t tmax, const std::vector<uint64_t>& hwc,
            const std::vector<uint64_t>& untracked)
      : o_(o), tmin_(tmin), tmax_(tmax), hwc_(hwc.begin(), hwc.end()), ids_(hwc_, untracked) {
    if (o_.original_time) o_.break_states = false;
    if (o_.break_states) o_.keep_events = false;
  }

  void SetOutput(OutputFile* out, uint64_t shift) {
    out_ = out;
    shift_ = shift;
  }
  // The one-pass cut: times are written relative to the first written record's begin time,
  // guessed when it comes (`begin(shift)` writes what goes before it: the header); comment lines
  // before it wait for it. The guess holds unless a later record begins earlier: then the engine
  // stops (guess_failed()) and the caller cuts in two passes.
  void SetOutputGuessingShift(OutputFile* out, std::function<void(uint64_t)> begin) {
    out_ = out;
    begin_ = std::move(begin);
    guessing_ = true;
  }
  bool guess_failed() const { return guess_failed_; }
  // After the engine stopped (it stops, as the reference does, at the first record past the
  // cut's end, or when every thread it follows is done): whether `r`, read further on, is a
  // record of a thread the cut never saw that lies within the cut — the body is not in time
  // order (records per process, as mpi2prv -no-sort-trace writes them), and the cut misses it.
  bool MissedAfterStop(const PrvRecord& r) const {
    if (r.kind != '1' && r.kind != '2' && r.kind != '3') return false;
    if (!Selected(r.task) || r.t1 > tmax_) return false;
    if (r.kind == '1' && r.t2 <= tmin_) return false;
    return threads_.find(Key(r)) == threads_.end();
  }
  // False once the reference would stop reading.
  bool Process(const PrvRecord& r);
  void Finish();

  bool any_written() const { return first_caught_; }
  uint64_t first_time() const { return first_time_; }
  uint64_t last_time() const { return last_time_; }
  uint64_t records_written() const { return written_; }

 private:
  // Threads interleave in the body: a direct-mapped cache of map nodes (which never move)
  // answers most lookups without walking the map.
  struct ThreadSlot {
    uint64_t key = 0;
    ThreadState* state = nullptr;
  };
  ThreadSlot& SlotOf(uint64_t key) {
    return thread_cache_[(key * 0x9E3779B97F4A7C15ull) >> (64 - kThreadCacheBits)];
  }
  ThreadState* Find(const PrvRecord& r) {
    uint64_t key = Key(r);
    ThreadSlot& slot = SlotOf(key);
    if (slot.state != nullptr && slot.key == key) return slot.state;
    auto it = threads_.find(key);
    if (it == threads_.end()) return nullptr;
    slot = {key, &it->second};
    return slot.state;
  }
  ThreadState& Init(const PrvRecord& r) {
    ++useful_;
    any_useful_ = true;
    uint64_t key = Key(r);
    ThreadState& t = threads_[key];
    t = ThreadState();
    t.hwc_flags.assign(hwc_.size(), 0);
    t.last_cpu = r.cpu;
    SlotOf(key) = {key, &t};
    return t;
  }
  static uint64_t Key(const PrvRecord& r) {
    return (uint64_t{r.appl} << 42) | (uint64_t{r.task} << 21) | uint64_t{r.thread};
  }
  bool Selected(uint32_t task) const { return TaskSelected(o_.tasks, task); }
  void Seen(uint64_t first, uint64_t last) {
    if (guessing_ && out_ != nullptr) {
      if (!first_caught_) {
        shift_ = first;
        begin_(first);
        out_->Text(pending_comments_);
        pending_comments_.clear();
      } else if (first < shift_) {
        guess_failed_ = stop_ = true;
      }
    }
    if (!first_caught_ || first < first_time_) first_time_ = first;
    first_caught_ = true;
    last_time_ = std::max(last_time_, last);
  }
  void State(const PrvRecord& r);
  void Events(const PrvRecord& r);
  void Comm(const PrvRecord& r);
  void Prefix(char kind, const PrvRecord& r) {
    out_->Char(kind);
    for (uint32_t v : {r.cpu, r.appl, r.task, r.thread}) {
      out_->Char(':');
      out_->Num(v);
    }
  }
  void Time(uint64_t t) {
    out_->Char(':');
    out_->Num(t - shift_);
  }
  void AppendZeros(uint64_t key, const ThreadState& t, const std::vector<uint64_t>& types);

  CutOptions o_;
  uint64_t tmin_, tmax_;
  std::vector<uint64_t> hwc_;
  TypeIds ids_;
  std::map<uint64_t, ThreadState> threads_;  // ordered: the closing events follow thread order
  static constexpr int kThreadCacheBits = 10;
  std::array<ThreadSlot, size_t{1} << kThreadCacheBits> thread_cache_{};
  uint64_t open_seq_ = 0;
  std::vector<uint32_t> reset_scratch_;
  OutputFile* out_ = nullptr;
  uint64_t shift_ = 0;
  std::function<void(uint64_t)> begin_;
  bool guessing_ = false, guess_failed_ = false;
  std::string pending_comments_;
  int64_t useful_ = 0;
  bool any_useful_ = false;
  bool first_caught_ = false;
  uint64_t first_time_ = 0, last_time_ = 0;
  uint64_t written_ = 0;
  uint64_t final_time_ = 0;
  bool stop_ = false;
  bool comment_written_ = false;
};

bool CutEngine::Process(const PrvRecord& r) {
  switch (r.kind) {
    case '1':
      State(r);
      break;
    case '2':
      Events(r);
      break;
    case '3':
      Comm(r);
      break;
    case '#':
      if (out_ != nullptr && guessing_ && !first_caught_) {
        pending_comments_.append(r.line);
        pending_comments_.push_back('\n');
      } else if (out_ != nullptr) {
        out_->Text(r.line);
        out_->Char('\n');
      }
      break;
    default:
      break;
  }
  if (stop_) return false;
  return !(any_useful_ && useful_ == 0);
}

void CutEngine::State(const PrvRecord& r) {
  uint64_t t1 = r.t1, t2 = r.t2;
  if (!Selected(r.task) || t2 <= tmin_) return;
  ThreadState* t = Find(r);
  if (t1 < tmin_ && t2 > tmax_ && (o_.remove_first_states || o_.remove_last_states)) {
    (t != nullptr ? *t : Init(r)).without_states = true;
    return;
  }
  if (t1 < tmin_ && t2 >= tmin_ && o_.remove_first_states) return;
  if ((t1 < tmax_ && t2 > tmax_ && o_.remove_last_states) || (o_.original_time && t1 > tmax_)) {
    if (t != nullptr && !t->finished) {
      --useful_;
      t->finished = true;
    }
    return;
  }
  if (!o_.original_time && t1 > tmax_) {
    stop_ = true;
    return;
  }
  if (t == nullptr) t = &Init(r);
  t->last_state_end = t2;
  if (t1 < tmax_ && t2 > tmax_ && !o_.remove_last_states && !o_.break_states && o_.keep_events)
    t->finished = true;
  if (!o_.original_time && o_.break_states) {
    t1 = std::max(t1, tmin_);
    t2 = std::min(t2, tmax_);
  }
  t->last_time = t2;
  Seen(t1, t2);
  ++written_;
  if (out_ == nullptr) return;
  out_->Text(r.line.substr(0, r.times_at));
  out_->Num(t1 - shift_);
  Time(t2);
  out_->Char(':');
  out_->Num(r.state);
  out_->Char('\n');
}

void CutEngine::Events(const PrvRecord& r) {
  uint64_t time = r.t1;
  if (!Selected(r.task)) return;
  ThreadState* t = Find(r);
  if (t != nullptr && t->finished && time != t->last_state_end) {
    if (!(!o_.remove_last_states && !o_.break_states && o_.keep_events &&
          time <= t->last_state_end))
      return;
  } else if (time > tmax_) {
    return;
  }
  if (t != nullptr && time > t->last_time && time > tmax_ && !o_.keep_events) return;
  if (t == nullptr && time > tmax_) return;
  if (t == nullptr && o_.remove_first_states) return;
  bool inside = time >= tmin_ || (t != nullptr && t->last_time >= tmin_ && o_.keep_events);
  if (!inside) return;
  Seen(time, time);
  ++written_;
  if (t == nullptr) t = &Init(r);
  t->last_time = time;
  t->last_cpu = r.cpu;
  // The first pass only needs where records begin and end: the pairs matter for the output.
  if (out_ == nullptr) return;
  out_->Text(r.line.substr(0, r.times_at));
  out_->Num(time - shift_);
  std::vector<uint32_t>& resets = reset_scratch_;  // pairs whose value is written as 0
  resets.clear();
  for (uint32_t i = 0; i < r.events.size(); ++i) {
    const tools::EventPair& p = r.events[i];
    const uint32_t id = ids_.Id(p.type);
    const int32_t hwc_index = id != kNoId ? ids_.hwc(id) : ids_.HwcIndex(p.type);
    uint8_t* hwc = hwc_index >= 0 ? &t->hwc_flags[static_cast<size_t>(hwc_index)] : nullptr;
    if (hwc == nullptr && (id != kNoId ? ids_.untracked(id) : ids_.Untracked(p.type))) {
      // neither opened nor closed
    } else if (p.value != 0) {
      if (hwc != nullptr) {
        *hwc |= 1;
      } else {
        if (id != kNoId && id >= t->open_dense.size()) t->open_dense.resize(id + 1);
        OpenType& open = id != kNoId ? t->open_dense[id] : t->open_more[p.type];
        if (open.count++ == 0) open.first_open = open_seq_++;
      }
    } else if (id != kNoId) {
      if (id < t->open_dense.size() && t->open_dense[id].count > 0) --t->open_dense[id].count;
    } else {
      auto it = t->open_more.find(p.type);
      if (it != t->open_more.end() && --it->second.count == 0) t->open_more.erase(it);
    }
    if (hwc != nullptr && (*hwc & 2) == 0) {
      *hwc |= 2;
      resets.push_back(i);
    }
  }
  if (resets.empty()) {
    // The pairs as read: the common case, no counter's first value on this line.
    out_->Text(r.line.substr(r.pairs_at - 1));
    out_->Char('\n');
    return;
  }
  size_t next = 0;
  for (uint32_t i = 0; i < r.events.size(); ++i) {
    const tools::EventPair& p = r.events[i];
    out_->Char(':');
    out_->Num(p.type);
    out_->Char(':');
    if (next < resets.size() && resets[next] == i) {
      out_->Char('0');
      ++next;
    } else {
      out_->Text(p.value_text);
    }
  }
  out_->Char('\n');
}

void CutEngine::Comm(const PrvRecord& r) {
  if (!Selected(r.task) && !Selected(r.task2)) return;
  if (r.t1 < tmin_ || r.t3 < tmin_) return;
  if (r.t1 > tmax_ && !o_.original_time) {
    stop_ = true;
    return;
  }
  if (r.t2 > tmax_ || r.t4 > tmax_) return;
  uint64_t lo = std::min({r.t1, r.t2, r.t3, r.t4}), hi = std::max({r.t1, r.t2, r.t3, r.t4});
  Seen(lo, hi);
  ++written_;
  if (out_ == nullptr) return;
  Prefix('3', r);
  Time(r.t1);
  Time(r.t2);
  for (uint32_t v : {r.cpu2, r.appl2, r.task2, r.thread2}) {
    out_->Char(':');
    out_->Num(v);
  }
  Time(r.t3);
  Time(r.t4);
  out_->Char(':');
  out_->Text(r.size_text);
  out_->Char(':');
  out_->Text(r.tag_text);
  out_->Char('\n');
}

void CutEngine::AppendZeros(uint64_t key, const ThreadState& t,
                            const std::vector<uint64_t>& types) {
  if (types.empty()) return;
  if (!comment_written_) {
    out_->Text("# Appending events with value 0\n");
    comment_written_ = true;
  }
  out_->Char('2');
  for (uint64_t v :
       {uint64_t{t.last_cpu}, key >> 42, (key >> 21) & ((1u << 21) - 1), key & ((1u << 21) - 1)}) {
    out_->Char(':');
    out_->Num(v);
  }
  Time(final_time_);
  for (uint64_t type : types) {
    out_->Char(':');
    out_->Num(type);
    out_->Text(":0");
  }
  out_->Char('\n');
}

void CutEngine::Finish() {
  final_time_ = (last_time_ > tmax_ || o_.remove_last_states) ? last_time_ : tmax_;
  if (out_ == nullptr) return;
  for (const auto& [key, t] : threads_) {
    // Open types, each once, the one opened last first.
    std::vector<std::pair<uint64_t, uint64_t>> open;  // (first_open, type)
    for (uint32_t id = 0; id < t.open_dense.size(); ++id)
      if (t.open_dense[id].count > 0) open.emplace_back(t.open_dense[id].first_open, ids_.type(id));
    for (const auto& [type, o] : t.open_more) open.emplace_back(o.first_open, type);
    std::sort(open.rbegin(), open.rend());
    std::vector<uint64_t> types;
    for (const auto& [seq, type] : open) types.push_back(type);
    AppendZeros(key, t, types);
    std::vector<uint64_t> seen;  // hardware counters, by type
    for (size_t i = 0; i < hwc_.size(); ++i)
      if (t.hwc_flags[i] & 1) seen.push_back(hwc_[i]);
    AppendZeros(key, t, seen);
  }
}

}  // namespace
}  // namespace parallax

namespace parallax {

namespace {

std::string NowStamp() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d%H%M%S", &tm);
  return buf;
}

std::string AbsolutePath(const std::string& path) {
  char* real = realpath(path.c_str(), nullptr);
  if (real == nullptr) return path;
  std::string s = real;
  free(real);
  return s;
}

struct CutLimits {
  uint64_t tmin = 0, tmax = 0;
};

// The times of body records first..last (1-based, lines of kind 1, 2 or 3 in file order).
Result<CutLimits> RecordTimes(const CutOptions& o, const std::string& file) {
  if (o.first_record == 0 || o.first_record > o.last_record) {
    return Status::Error(
        "bad record range " + std::to_string(o.first_record) + ".." + std::to_string(o.last_record),
        {file}, "give --records A..B with 1 <= A <= B");
  }
  auto opened = tools::OpenInputTrace(file);
  if (!opened.ok()) return opened.status();
  tools::InputTrace in = std::move(opened).value();
  tools::RecordStream stream(*in.lines, {tools::Pairs::kSkip, false});
  const tools::PrvRecord* rec = nullptr;
  uint64_t n = 0;
  CutLimits l;
  while (stream.Next(&rec)) {
    if (rec->kind != '1' && rec->kind != '2' && rec->kind != '3') continue;
    ++n;
    if (n == o.first_record) l.tmin = rec->t1;
    if (n == o.last_record) {
      l.tmax = rec->t1;
      return l;
    }
  }
  if (!stream.status().ok()) return stream.status();
  return Status::Error("the record range ends at record " + std::to_string(o.last_record) +
                           " but the trace has " + std::to_string(n) + " records",
                       {file}, "give a last record within 1.." + std::to_string(n));
}

// The record range of CutOptions, checked: first < last in time.
Result<CutLimits> CheckedRecordTimes(const CutOptions& o, const std::string& file) {
  auto r = RecordTimes(o, file);
  if (!r.ok()) return r.status();
  if (r->tmin >= r->tmax) {
    return Status::Error("records " + std::to_string(o.first_record) + ".." +
                             std::to_string(o.last_record) + " span no time (both at " +
                             std::to_string(r->tmin) + ")",
                         {file}, "widen the record range");
  }
  return r;
}

std::string EventName(const CutOptions& o) {
  std::string s = std::to_string(o.event_type);
  if (o.has_event_value) s += ":" + std::to_string(o.event_value);
  return s;
}

// The event-driven cut: one pass counting the occurrences of the event per thread; the cut
// goes from the earliest first_occurrence-th to the latest last_occurrence-th of them.
Result<CutLimits> EventTimes(const CutOptions& o, const std::string& file) {
  if (o.first_occurrence == 0 ||
      (o.last_occurrence != 0 && o.first_occurrence > o.last_occurrence)) {
    return Status::Error("bad occurrence range " + std::to_string(o.first_occurrence) + ".." +
                             std::to_string(o.last_occurrence),
                         {file}, "give --occurrences A..B with 1 <= A <= B");
  }
  auto opened = tools::OpenInputTrace(file);
  if (!opened.ok()) return opened.status();
  tools::InputTrace in = std::move(opened).value();
  struct Count {
    uint64_t n = 0, first = 0, last = 0;  // occurrences; times of occurrence A and B (or last)
  };
  std::map<uint64_t, Count> threads;  // (appl, task, thread) -> its occurrences
  tools::RecordStream stream(*in.lines, {tools::Pairs::kRead, false});
  const tools::PrvRecord* record = nullptr;
  uint64_t type_seen = 0;
  while (stream.Next(&record)) {
    const tools::PrvRecord& rec = *record;
    if (rec.kind != '2' || !TaskSelected(o.tasks, rec.task)) continue;
    for (const tools::EventPair& p : rec.events) {
      if (p.type != o.event_type) continue;
      ++type_seen;
      if (o.has_event_value ? p.value != o.event_value : p.value == 0) continue;
      Count& c = threads[(uint64_t{rec.appl} << 42) | (uint64_t{rec.task} << 21) | rec.thread];
      ++c.n;
      if (c.n == o.first_occurrence) c.first = rec.t1;
      if (o.last_occurrence == 0 || c.n == o.last_occurrence) c.last = rec.t1;
    }
  }
  if (!stream.status().ok()) return stream.status();
  if (type_seen == 0) {
    return Status::Error("event type " + std::to_string(o.event_type) + " never occurs in " + file +
                             (o.tasks.empty() ? "" : " (in the selected tasks)"),
                         {file}, "check the type in the trace's .pcf (parallax info lists them)");
  }
  uint64_t most = 0;
  CutLimits l;
  bool any_first = false, any_last = false;
  for (const auto& [key, c] : threads) {
    most = std::max(most, c.n);
    if (c.n >= o.first_occurrence) {
      l.tmin = any_first ? std::min(l.tmin, c.first) : c.first;
      any_first = true;
    }
    if (o.last_occurrence == 0 ? c.n >= o.first_occurrence : c.n >= o.last_occurrence) {
      l.tmax = std::max(l.tmax, c.last);
      any_last = true;
    }
  }
  if (most == 0) {
    return Status::Error("event " + EventName(o) + " never occurs in " + file +
                             (o.has_event_value ? "" : " with a value other than 0"),
                         {file}, "give the value that marks the region, e.g. TYPE:1");
  }
  uint64_t need = std::max(o.first_occurrence, o.last_occurrence);
  if (!any_first || !any_last) {
    return Status::Error("event " + EventName(o) + " occurs at most " + std::to_string(most) +
                             " times on a thread, fewer than the " + std::to_string(need) +
                             " asked",
                         {file}, "give --occurrences within 1.." + std::to_string(most));
  }
  if (l.tmin >= l.tmax) {
    return Status::Error("occurrences " + std::to_string(o.first_occurrence) + ".." +
                             std::to_string(o.last_occurrence) + " of event " + EventName(o) +
                             " span no time (both at " + std::to_string(l.tmin) + ")",
                         {file}, "widen the occurrence range");
  }
  return l;
}

Result<CutLimits> Limits(const CutOptions& o, const model::TraceHeader& h,
                         const std::string& file) {
  CutLimits l;
  if (o.by_event) return EventTimes(o, file);
  if (o.last_record > 0) {
    return CheckedRecordTimes(o, file);
  }
  if (o.by_time) {
    l.tmin = o.begin;
    l.tmax = o.end;
  } else {
    if (!(o.begin_percent >= 0 && o.end_percent <= 100 && o.begin_percent < o.end_percent)) {
      return Status::Error("bad cut percentages: expected 0 <= begin < end <= 100", {file},
                           "give --from and --to as percentages of the trace's end time");
    }
    // As the reference: the end time divided by 100 (integer), times the percentage.
    l.tmin = static_cast<uint64_t>(static_cast<double>(h.end_time / 100) * o.begin_percent);
    l.tmax = static_cast<uint64_t>(static_cast<double>(h.end_time / 100) * o.end_percent);
  }
  if (l.tmin >= l.tmax) {
    return Status::Error("empty cut: the begin time " + std::to_string(l.tmin) +
                             " is not before the end time " + std::to_string(l.tmax),
                         {file}, "give a begin time smaller than the end time");
  }
  if (l.tmin > h.end_time) {
    return Status::Error("the cut begins at " + std::to_string(l.tmin) +
                             ", after the end of the trace (" + std::to_string(h.end_time) + ")",
                         {file},
                         "the trace spans 0.." + std::to_string(h.end_time) + " in its time unit");
  }
  return l;
}

// Runs the engine over the body of `in`; records the number of body lines read.
// Records read past the engine's stop, looking for records the cut misses in a body that is
// not in time order: enough to reach the next process' records in mpi2prv's unsorted layout of
// a small trace, bounded so that a cut of the start of a huge trace still reads little.
constexpr uint64_t kDisorderProbe = uint64_t{1} << 20;

// Runs the engine over the body of `in`; records the number of body lines read. `missed`: the
// records within the cut found past the engine's stop (see CutEngine::MissedAfterStop).
Status RunPass(tools::InputTrace& in, CutEngine& engine, const ToolRun& run, uint64_t* lines,
               uint64_t* others, bool skip_pairs, uint64_t* missed = nullptr) {
  tools::RecordStream stream(*in.lines,
                             {skip_pairs ? tools::Pairs::kSkip : tools::Pairs::kRead, false});
  const tools::PrvRecord* rec = nullptr;
  tools::ProgressTicker ticker(run.progress);
  bool stopped = false;
  while (stream.Next(&rec)) {
    ++*lines;
    if (rec->kind == 'o' && !rec->line.empty()) ++*others;
    if (!engine.Process(*rec)) {
      stopped = true;
      break;
    }
    ticker.Tick(stream);
  }
  if (stopped && missed != nullptr && !engine.guess_failed()) {
    for (uint64_t n = 0; n < kDisorderProbe && stream.Next(&rec); ++n)
      if (engine.MissedAfterStop(*rec)) ++*missed;
  }
  if (!stream.status().ok()) return stream.status();
  ticker.Done(stream);
  engine.Finish();
  return Status::Ok();
}

}  // namespace

Result<ToolReport> CutTrace(const ToolRun& run, const CutOptions& options) {
  Status s = tools::CheckOutputs(run);
  if (!s.ok()) return s;
  if (options.max_trace_size_mb != 0) {
    return Status::Error("max_trace_size is not supported", {run.input},
                         "set it to 0 and cut by time");
  }
  auto opened = tools::OpenInputTrace(run.input);
  if (!opened.ok()) return opened.status();
  tools::InputTrace in = std::move(opened).value();
  auto limits = Limits(options, in.header, run.input);
  if (!limits.ok()) return limits.status();
  // What the cutter follows, by the types of the .pcf: a type with value labels, or absent from
  // the .pcf, is opened by a value other than 0 and closed by 0 (the ones still open are closed
  // at the cut's end); a hardware counter type (no value labels) has its first value in the cut
  // written as 0 and is closed at the end when it was seen; any other type of the .pcf (no value
  // labels: sizes, addresses, identifiers) is copied and never closed.
  std::vector<uint64_t> hwc, untracked;
  for (const tools::PcfType& t : tools::PcfEventTypesWithValues(run.input)) {
    if (t.has_values) continue;
    (t.type >= kHwcFirst && t.type < kHwcLast ? hwc : untracked).push_back(t.type);
  }

  const uint64_t tmin = limits.value().tmin, tmax = limits.value().tmax;
  const std::string stamp = run.provenance_date.empty() ? NowStamp() : run.provenance_date;
  auto provenance = [&](uint64_t shift) {
    return "#" + stamp + ":CUTTER:ORIGINAL:\"" + AbsolutePath(run.input) +
           "\":" + std::to_string(shift) + ":" + std::to_string(tmin) + ":" + std::to_string(tmax) +
           "\n";
  };
  const uint64_t input_bytes = in.lines->bytes_total();
  // The report, the commit and the companions, once the body is cut.
  uint64_t missed = 0;  // records within the cut past the engine's stop (a body not in time order)
  auto finish = [&](const CutEngine& engine, tools::OutputFile& out, uint64_t lines,
                    uint64_t others) -> Result<ToolReport> {
    ToolReport report;
    report.input_bytes = input_bytes;
    report.input_records = lines;
    report.output_records = engine.records_written();
    report.output_bytes = out.bytes_written();
    if (!engine.any_written()) {
      report.notes.push_back("the cut [" + std::to_string(tmin) + ", " + std::to_string(tmax) +
                             "] holds no record: the output has none");
    }
    if (others > 0) {
      report.notes.push_back(
          std::to_string(others) +
          " lines that are neither states, events, communications nor comments (e.g. "
          "global communications) were not copied, as paramedir's cutter does");
    }
    if (missed > 0) {
      report.notes.push_back(
          std::to_string(missed) + (missed >= kDisorderProbe ? "+" : "") +
          " records of threads the cut never saw lie within it after the point where it stops: " +
          run.input + " is not in time order (records per process, as mpi2prv -no-sort-trace writes "
          "them); the cut, like paramedir's, ends at the first record past its end. Sort the trace "
          "first: parallax sort " + run.input + " -o SORTED.prv");
    }
    Status st = tools::CommitTrace(run, out);
    if (!st.ok()) return st;
    return report;
  };
  model::TraceHeader header = in.header;
  uint64_t shift = 0, end_time = in.header.end_time;
  uint64_t lines = 0, others = 0;
  if (!options.original_time) {
    // One pass, when it can: the shift is guessed as the first written record's begin time and
    // the header's end time from the cut's end, which gives the header its length; the header is
    // rewritten in place at the end. A record written later that begins earlier, an end time of
    // another length, an empty cut or a compressed output: two passes, the first finding where
    // the written records begin and end.
    auto out = tools::CreateTraceOutput(run);
    if (!out.ok()) return out.status();
    if (!out.value()->compressed()) {
      out.value()->WriteBehind();
      std::string provisional;
      CutEngine engine(options, tmin, tmax, hwc, untracked);
      engine.SetOutputGuessingShift(out.value().get(), [&](uint64_t guess) {
        header.end_time = std::max(std::min(tmax, in.header.end_time), guess) - guess;
        provisional = tools::ParaverToolHeader(header);
        out.value()->Text(provisional);
        out.value()->Text(provenance(guess));
      });
      missed = 0;
      s = RunPass(in, engine, run, &lines, &others, false, &missed);
      if (!s.ok()) return s;
      if (!engine.guess_failed() && engine.any_written()) {
        header.end_time = engine.last_time() - engine.first_time();
        const std::string final_header = tools::ParaverToolHeader(header);
        if (final_header.size() == provisional.size() &&
            (final_header == provisional || out.value()->RewriteStart(final_header)))
          return finish(engine, *out.value(), lines, others);
      }
      opened = tools::OpenInputTrace(run.input);
      if (!opened.ok()) return opened.status();
      in = std::move(opened).value();
      lines = others = 0;
    }
    out.value().reset();  // what the attempt wrote is dropped
    // First pass: where the written records begin and end.
    CutEngine probe(options, tmin, tmax, hwc, untracked);
    ToolRun quiet = run;
    quiet.progress = nullptr;
    s = RunPass(in, probe, quiet, &lines, &others, true);
    if (!s.ok()) return s;
    shift = probe.first_time();
    end_time = probe.last_time() - probe.first_time();
    opened = tools::OpenInputTrace(run.input);
    if (!opened.ok()) return opened.status();
    in = std::move(opened).value();
    lines = others = 0;
  }
  auto out = tools::CreateTraceOutput(run);
  if (!out.ok()) return out.status();
  out.value()->WriteBehind();
  header.end_time = end_time;
  out.value()->Text(tools::ParaverToolHeader(header));
  out.value()->Text(provenance(options.original_time ? 0 : shift));
  CutEngine engine(options, tmin, tmax, hwc, untracked);
  engine.SetOutput(out.value().get(), shift);
  missed = 0;
  s = RunPass(in, engine, run, &lines, &others, false, &missed);
  if (!s.ok()) return s;
  return finish(engine, *out.value(), lines, others);
}

Result<std::pair<uint64_t, uint64_t>> RecordRangeTimes(const std::string& prv_path,
                                                       uint64_t first, uint64_t last) {
  CutOptions o;
  o.first_record = first;
  o.last_record = last;
  auto r = CheckedRecordTimes(o, prv_path);
  if (!r.ok()) return r.status();
  return std::pair<uint64_t, uint64_t>(r->tmin, r->tmax);
}

}  // namespace parallax
