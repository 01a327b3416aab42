#include "src/io/prv/prv_writer.h"

#include "src/io/text_file.h"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <functional>
#include <queue>

#include <fmt/format.h>

#include "src/store/block_reader.h"

namespace parallax::io {

namespace {

using model::Time;

// Appends text to a buffer and hands full buffers to a sink, so writing needs no per-line
// allocation.
class LineBuffer {
 public:
  using Sink = std::function<bool(const char*, size_t)>;
  explicit LineBuffer(Sink sink) : sink_(std::move(sink)) { buf_.resize(kSize); }

  void Char(char c) {
    Reserve(1);
    buf_[used_++] = c;
  }
  void Text(std::string_view s) {
    if (s.size() > kSize / 2) {
      Flush();
      ok_ = ok_ && sink_(s.data(), s.size());
      return;
    }
    Reserve(s.size());
    std::memcpy(buf_.data() + used_, s.data(), s.size());
    used_ += s.size();
  }
  template <typename T>
  void Num(T v) {
    Reserve(24);
    auto r = std::to_chars(buf_.data() + used_, buf_.data() + used_ + 24, v);
    used_ = static_cast<size_t>(r.ptr - buf_.data());
  }
  template <typename T>
  void Field(T v) {
    Char(':');
    Num(v);
  }
  bool Flush() {
    if (used_ > 0) ok_ = ok_ && sink_(buf_.data(), used_);
    used_ = 0;
    return ok_;
  }

 private:
  static constexpr size_t kSize = 1 << 20;
  void Reserve(size_t n) {
    if (used_ + n > kSize) Flush();
  }
  Sink sink_;
  std::vector<char> buf_;
  size_t used_ = 0;
  bool ok_ = true;
};

void PutLocation(LineBuffer& out, const model::ProcessModel& p, uint16_t cpu, uint32_t thread) {
  const model::ThreadInfo& th = p.thread(model::ThreadIndex(thread));
  const model::ApplInfo& ap = p.appl(th.appl);
  out.Num(cpu);
  out.Field(th.appl.value + 1);
  out.Field(th.task.value - ap.first_task.value + 1);
  out.Field(th.number_in_task + 1);
}

// One thread's records in canonical order (state < event < communication at one time, then
// position), read a block at a time so a compact store is never decoded whole. Times are the
// written ones (mapped when the input has a TimeMapping).
class ThreadCursor {
 public:
  ThreadCursor(const PrvWriteInput& in, uint32_t thread)
      : in_(in),
        thread_(thread),
        states_(*in.store, model::ThreadIndex(thread)),
        events_(*in.store, model::ThreadIndex(thread)),
        sent_(&in.store->Sent(model::ThreadIndex(thread))) {}

  uint32_t thread() const { return thread_; }

  // Finds the next line: false when the thread has none left, else its time is time().
  bool Peek() {
    kind_ = 0;
    auto consider = [&](int k, Time tk) {
      if (kind_ == 0 || tk < time_) {
        kind_ = k;
        time_ = tk;
      }
    };
    if (HasState()) consider(1, Map(states_.columns().begin[state_]));
    if (HasEvent()) consider(2, Map(events_.columns().time[event_]));
    if (sent_at_ < sent_->size()) consider(3, CommTimes((*sent_)[sent_at_])[0]);
    return kind_ != 0;
  }
  Time time() const { return time_; }

  // Writes the line Peek found.
  void Emit(LineBuffer& out) {
    if (kind_ == 1) {
      State(out);
    } else if (kind_ == 2) {
      Events(out);
    } else {
      Comm(out, (*sent_)[sent_at_++]);
    }
  }

 private:
  Time Map(Time t) const { return in_.times == nullptr ? t : in_.times->Thread(thread_, t); }
  std::array<Time, 4> CommTimes(uint32_t id) const {
    const store::CommTable& c = in_.store->comms();
    if (in_.times != nullptr) return in_.times->Comm(c, id);
    return {c.log_send[id], c.phy_send[id], c.log_recv[id], c.phy_recv[id]};
  }
  // Whether a state (an event) is left; moves to the next block when this one is used up.
  bool HasState() {
    while (state_ == states_.end()) {
      if (!states_.Next()) return false;
      state_ = states_.begin();
    }
    return true;
  }
  bool HasEvent() {
    while (event_ == events_.end()) {
      if (!events_.Next()) return false;
      event_ = events_.begin();
    }
    return true;
  }

  void State(LineBuffer& out) {
    const store::StateColumns& s = states_.columns();
    const size_t i = state_++;
    out.Text("1:");
    PutLocation(out, in_.header->processes, s.cpu[i], thread_);
    out.Field(time_);
    if (s.end[i] == model::kNoEnd && !in_.open_end_as_number) {
      out.Text(":-1");
    } else {
      out.Field(s.end[i] == model::kNoEnd ? s.end[i] : Map(s.end[i]));
    }
    out.Field(s.state[i]);
    out.Char('\n');
  }

  // Writes the events from the current one on that share its time and cpu, across blocks.
  void Events(LineBuffer& out) {
    const uint16_t cpu = events_.columns().cpu[event_];
    out.Text("2:");
    PutLocation(out, in_.header->processes, cpu, thread_);
    out.Field(time_);
    do {
      const store::EventColumns& ev = events_.columns();
      out.Field(ev.type[event_]);
      if (IsUnsigned(ev.type[event_])) {
        out.Field(static_cast<uint64_t>(ev.value[event_]));
      } else {
        out.Field(ev.value[event_]);
      }
      ++event_;
    } while (HasEvent() && events_.columns().cpu[event_] == cpu &&
             Map(events_.columns().time[event_]) == time_);
    out.Char('\n');
  }

  bool IsUnsigned(uint32_t type) const {
    const auto* u = in_.unsigned_value_types;
    return u != nullptr && !u->empty() && std::binary_search(u->begin(), u->end(), type);
  }

  void Comm(LineBuffer& out, uint32_t id) const {
    const store::CommTable& c = in_.store->comms();
    const auto& p = in_.header->processes;
    const std::array<Time, 4> t = CommTimes(id);
    out.Text("3:");
    PutLocation(out, p, c.sender_cpu[id], c.sender[id]);
    out.Field(t[0]);
    out.Field(t[1]);
    out.Char(':');
    PutLocation(out, p, c.receiver_cpu[id], c.receiver[id]);
    out.Field(t[2]);
    out.Field(t[3]);
    out.Field(c.size[id]);
    out.Field(c.tag[id]);
    out.Char('\n');
  }

  const PrvWriteInput& in_;
  uint32_t thread_;
  store::StateReader states_;
  store::EventReader events_;
  const store::Column<uint32_t>* sent_;
  size_t state_ = 0, event_ = 0, sent_at_ = 0;
  int kind_ = 0;  // of the line Peek found: 1 state, 2 event, 3 communication
  Time time_ = 0;
};

// Merges the threads' lines by (time, thread), holding one block of each thread.
void WriteBody(const PrvWriteInput& in, LineBuffer& out) {
  const size_t threads = in.store->threads();
  std::vector<ThreadCursor> cursors;
  cursors.reserve(threads);
  using Item = std::pair<Time, uint32_t>;  // (time, thread): min-heap
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
  for (uint32_t t = 0; t < threads; ++t) {
    cursors.emplace_back(in, t);
    if (cursors.back().Peek()) heap.push({cursors.back().time(), t});
  }
  while (!heap.empty()) {
    ThreadCursor& c = cursors[heap.top().second];
    heap.pop();
    c.Emit(out);
    if (c.Peek()) heap.push({c.time(), c.thread()});
  }
}

void WriteAll(const PrvWriteInput& in, LineBuffer& out) {
  out.Text(FormatPrvHeader(*in.header));
  WriteBody(in, out);
}

}  // namespace

std::string FormatPrvHeader(const model::TraceHeader& h) {
  std::string s = h.space_before_date ? "#Paraver (" : "#Paraver(";
  s += h.date;
  s += "):";
  s += std::to_string(h.end_time);
  std::string suffix = h.unit_suffix;
  if (suffix.empty() && h.unit == model::TimeUnit::kNs) suffix = "_ns";
  if (suffix.empty() && h.unit == model::TimeUnit::kMs) suffix = "_ms";
  s += suffix;
  s += ':';
  const auto& r = h.resources;
  if (r.empty()) {
    s += '0';
  } else {
    s += std::to_string(r.nodes());
    bool all_one = std::all_of(r.cpus_per_node().begin(), r.cpus_per_node().end(),
                               [](uint32_t c) { return c == 1; });
    if (!(h.resources_bare && all_one)) {
      s += '(';
      for (uint32_t n = 0; n < r.nodes(); ++n) s += fmt::format("{}{}", n ? "," : "", r.cpus_per_node()[n]);
      s += ')';
    }
  }
  const auto& p = h.processes;
  s += fmt::format(":{}:", p.appls());
  for (uint32_t a = 0; a < p.appls(); ++a) {
    if (a > 0) s += h.appl_separator;
    const auto& ap = p.appl(model::ApplIndex(a));
    s += fmt::format("{}(", ap.tasks);
    for (uint32_t t = 0; t < ap.tasks; ++t) {
      const auto& task = p.task(model::TaskIndex(ap.first_task.value + t));
      s += fmt::format("{}{}:{}", t ? "," : "", task.threads, task.node);
    }
    s += ')';
  }
  if (h.has_comm_count || !h.communicators.empty()) s += fmt::format(",{}", h.communicators.size());
  s += '\n';
  for (const auto& c : h.communicators) {
    s += c;
    s += '\n';
  }
  return s;
}

std::string WritePrvToString(const PrvWriteInput& in) {
  std::string out;
  LineBuffer buf([&](const char* d, size_t n) {
    out.append(d, n);
    return true;
  });
  WriteAll(in, buf);
  buf.Flush();
  return out;
}

Status WritePrvFile(const PrvWriteInput& in, const std::string& path, bool overwrite) {
  // Through a temporary name renamed at the end: a failed write (a full disk), or a damaged
  // block of a trace cache (store::DamagedRecords), leaves no partial file, and an existing
  // trace is replaced only once the new one is whole.
  auto out = AtomicOutput::Create(path, overwrite);
  if (!out.ok()) return out.status();
  AtomicOutput& file = *out.value();
  const bool gz = path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
  gzFile z = nullptr;
  if (gz) {
    int fd = ::dup(file.fd());
    z = fd >= 0 ? gzdopen(fd, "wb6") : nullptr;
    if (z == nullptr) {
      if (fd >= 0) ::close(fd);
      return Status::Error("cannot start the gzip output", Location{path, 0, 0}, "");
    }
  }
  LineBuffer buf([&](const char* d, size_t n) {
    if (gz) return gzwrite(z, d, static_cast<unsigned>(n)) == static_cast<int>(n);
    return file.Write(std::string_view(d, n));
  });
  try {
    WriteAll(in, buf);
  } catch (...) {
    if (gz) gzclose(z);
    throw;  // the temporary file goes with `out`
  }
  bool ok = buf.Flush();
  if (gz) ok = gzclose(z) == Z_OK && ok;
  Status committed = file.Commit(ok);
  return committed;
}

}  // namespace parallax::io
