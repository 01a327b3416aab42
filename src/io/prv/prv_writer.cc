#include "src/io/prv/prv_writer.h"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <functional>
#include <queue>

#include <fmt/format.h>

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

// Cursor over one thread's records in canonical order.
struct ThreadCursor {
  uint32_t thread = 0;
  size_t state = 0, event = 0, sent = 0;

  // Kind of the next line (1 state, 2 event, 3 comm, 0 none) and its time.
  std::pair<int, Time> Next(const store::TraceStore& st) const {
    const auto& tr = st.thread(model::ThreadIndex(thread));
    int kind = 0;
    Time t = 0;
    auto consider = [&](int k, Time tk) {
      if (kind == 0 || tk < t) {
        kind = k;
        t = tk;
      }
    };
    if (state < tr.states.size()) consider(1, tr.states.begin[state]);
    if (event < tr.events.size()) consider(2, tr.events.time[event]);
    if (sent < tr.sent.size()) consider(3, st.comms().log_send[tr.sent[sent]]);
    return {kind, t};
  }
};

class BodyWriter {
 public:
  BodyWriter(const PrvWriteInput& in, LineBuffer& out) : in_(in), out_(out) {}

  void Run() {
    const store::TraceStore& st = *in_.store;
    using Item = std::pair<Time, uint32_t>;  // (time, thread): min-heap
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
    std::vector<ThreadCursor> cursors(st.threads());
    for (uint32_t t = 0; t < st.threads(); ++t) {
      cursors[t].thread = t;
      auto [kind, time] = cursors[t].Next(st);
      if (kind != 0) heap.push({time, t});
    }
    while (!heap.empty()) {
      uint32_t t = heap.top().second;
      heap.pop();
      ThreadCursor& c = cursors[t];
      auto [kind, time] = c.Next(st);
      EmitOne(c, kind);
      auto [next_kind, next_time] = c.Next(st);
      if (next_kind != 0) heap.push({next_time, t});
    }
  }

 private:
  void EmitOne(ThreadCursor& c, int kind) {
    const auto& tr = in_.store->thread(model::ThreadIndex(c.thread));
    if (kind == 1) {
      State(tr, c.thread, c.state++);
    } else if (kind == 2) {
      c.event = Events(tr, c.thread, c.event);
    } else {
      Comm(tr.sent[c.sent++]);
    }
  }

  void State(const store::ThreadRecords& tr, uint32_t thread, size_t i) {
    out_.Text("1:");
    PutLocation(out_, in_.header->processes, tr.states.cpu[i], thread);
    out_.Field(tr.states.begin[i]);
    if (tr.states.end[i] == model::kNoEnd && !in_.open_end_as_number) {
      out_.Text(":-1");
    } else {
      out_.Field(tr.states.end[i]);
    }
    out_.Field(tr.states.state[i]);
    out_.Char('\n');
  }

  // Writes the events at index i and after that share its time and cpu; returns the next index.
  size_t Events(const store::ThreadRecords& tr, uint32_t thread, size_t i) {
    const auto& ev = tr.events;
    out_.Text("2:");
    PutLocation(out_, in_.header->processes, ev.cpu[i], thread);
    out_.Field(ev.time[i]);
    size_t j = i;
    for (; j < ev.size() && ev.time[j] == ev.time[i] && ev.cpu[j] == ev.cpu[i]; ++j) {
      out_.Field(ev.type[j]);
      if (IsUnsigned(ev.type[j])) {
        out_.Field(static_cast<uint64_t>(ev.value[j]));
      } else {
        out_.Field(ev.value[j]);
      }
    }
    out_.Char('\n');
    return j;
  }

  bool IsUnsigned(uint32_t type) const {
    const auto* u = in_.unsigned_value_types;
    return u != nullptr && !u->empty() && std::binary_search(u->begin(), u->end(), type);
  }

  void Comm(uint32_t id) {
    const store::CommTable& c = in_.store->comms();
    const auto& p = in_.header->processes;
    out_.Text("3:");
    PutLocation(out_, p, c.sender_cpu[id], c.sender[id]);
    out_.Field(c.log_send[id]);
    out_.Field(c.phy_send[id]);
    out_.Char(':');
    PutLocation(out_, p, c.receiver_cpu[id], c.receiver[id]);
    out_.Field(c.log_recv[id]);
    out_.Field(c.phy_recv[id]);
    out_.Field(c.size[id]);
    out_.Field(c.tag[id]);
    out_.Char('\n');
  }

  const PrvWriteInput& in_;
  LineBuffer& out_;
};

void WriteAll(const PrvWriteInput& in, LineBuffer& out) {
  out.Text(FormatPrvHeader(*in.header));
  BodyWriter(in, out).Run();
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
  int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (overwrite ? O_TRUNC : O_EXCL);
  int fd = ::open(path.c_str(), flags, 0644);
  if (fd < 0) {
    std::string why = std::strerror(errno);
    return Status::Error(fmt::format("cannot create output file: {}", why), Location{path, 0, 0},
                         errno == EEXIST ? "the file exists; choose another name or pass --force"
                                         : "check the folder exists and is writable");
  }
  bool gz = path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
  gzFile z = gz ? gzdopen(fd, "wb6") : nullptr;
  LineBuffer buf([&](const char* d, size_t n) {
    if (gz) return gzwrite(z, d, static_cast<unsigned>(n)) == static_cast<int>(n);
    while (n > 0) {
      ssize_t w = ::write(fd, d, n);
      if (w <= 0) return false;
      d += w;
      n -= static_cast<size_t>(w);
    }
    return true;
  });
  WriteAll(in, buf);
  bool ok = buf.Flush();
  ok = (gz ? gzclose(z) == Z_OK : ::close(fd) == 0) && ok;
  if (!ok) return Status::Error("write failed (disk full?)", Location{path, 0, 0}, "free some space and retry");
  return Status::Ok();
}

}  // namespace parallax::io
