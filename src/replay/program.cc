#include "src/replay/program.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string_view>

#include "src/base/parallel.h"
#include "src/calls/mpi_names.h"
#include "src/store/block_reader.h"

namespace parallax::replay {

namespace {

// How the replay executes a call of operation `op`.
CallKind KindOfOp(calls::Op op) {
  using calls::Op;
  switch (op) {
    case Op::kSend:
    case Op::kSsend:
      return CallKind::kSend;
    case Op::kIsend:
      return CallKind::kIsend;
    case Op::kRecv:
      return CallKind::kRecv;
    case Op::kIrecv:
      return CallKind::kIrecv;
    case Op::kSendrecv:
      return CallKind::kSendRecv;
    case Op::kWait:
    case Op::kWaitany:
    case Op::kWaitall:
    case Op::kWaitsome:
      return CallKind::kWait;
    case Op::kInit:
      return CallKind::kInit;
    case Op::kBarrier:
    case Op::kNxN:
    case Op::kOneToN:
    case Op::kNToOne:
    case Op::kScan:
    case Op::kAlltoallv:
      return CallKind::kCollective;
    default:
      return CallKind::kLocal;
  }
}

// One MPI call of a thread.
struct Call {
  Time entry = 0;
  Time exit = 0;
  CallKind kind = CallKind::kLocal;
  uint32_t collective_id = 0;
  int64_t send_bytes = 0;
  int64_t recv_bytes = 0;
  int64_t communicator = kWorld;
};

std::string Where(const model::TraceHeader& h, uint32_t thread, Time t) {
  return fmt::format("thread {} at {} {}",
                     model::DefaultThreadLabel(h.processes, model::ThreadIndex(thread)), t,
                     model::TimeUnitName(h.unit));
}

// Finds the MPI calls of one thread in its events, fed a block at a time: a call is handed on
// when its exit is read, so a call may span blocks. With `diagnostics` it also reports what it
// works around (BuildProgram's reading; the OpStream's reading of the same events reports
// nothing again).
class CallReader {
 public:
  CallReader(const model::TraceHeader& h, const model::PcfCatalog* pcf, uint32_t thread,
             Diagnostics* diagnostics)
      : header_(h), pcf_(pcf), thread_(thread), diagnostics_(diagnostics) {}

  template <typename OnCall>
  void Read(const store::EventColumns& ev, size_t begin, size_t end, OnCall&& on_call) {
    for (size_t i = begin; i < end; ++i) {
      const uint32_t type = ev.type[i];
      if (type >= kMpiFirstType && type <= kMpiLastType) {
        ++mpi_events_;
        const int64_t value = ev.value[i];
        if (value != 0) {
          if (open_) {
            Note("nested-mpi-call",
                 "an MPI call began inside another one; it was replayed as part of the outer call",
                 ev.time[i], "");
            continue;
          }
          call_ = Call{};
          call_.entry = call_.exit = ev.time[i];
          const Kind& k = KindOf(type, value);
          call_.kind = k.kind;
          call_.collective_id = k.collective_id;
          if (!k.known)
            Note("unknown-mpi-call",
                 "an MPI call the replay does not know (no .pcf label) was replayed as local",
                 ev.time[i], fmt::format(", value {}", value));
          open_ = true;
        } else if (open_) {
          call_.exit = ev.time[i];
          open_ = false;
          on_call(call_);
        }
      } else if (open_ && type == kCollectiveSendSizeType) {
        call_.send_bytes = ev.value[i];
      } else if (open_ && type == kCollectiveRecvSizeType) {
        call_.recv_bytes = ev.value[i];
      } else if (open_ && type == kCollectiveCommunicatorType) {
        call_.communicator = ev.value[i];
      }
    }
  }

  // After the last event: a call left open ends where it began.
  template <typename OnCall>
  void Finish(OnCall&& on_call) {
    if (!open_) return;
    Note("unfinished-mpi-call", "an MPI call has no end event; it ends with the thread",
         call_.entry, "");
    open_ = false;
    on_call(call_);
  }

  uint64_t mpi_events() const { return mpi_events_; }

 private:
  // How a call is replayed, looked up once per (type, value): names are compared as strings.
  struct Kind {
    CallKind kind = CallKind::kLocal;
    uint32_t collective_id = 0;
    bool known = false;  // named by the .pcf or by Extrae's numbering
  };
  const Kind& KindOf(uint32_t type, int64_t value) {
    auto [it, added] = kinds_.try_emplace({type, value});
    if (added) {
      const std::string* label = pcf_ ? pcf_->EventValueLabel(type, value) : nullptr;
      it->second.kind = ClassifyCall(type, value, label, &it->second.collective_id);
      it->second.known = label != nullptr || calls::ExtraeCallName(value) != nullptr;
    }
    return it->second;
  }

  void Note(const char* kind, const char* description, Time t, const std::string& more) {
    if (diagnostics_ != nullptr) diagnostics_->Add(kind, description, Where(header_, thread_, t) + more);
  }

  const model::TraceHeader& header_;
  const model::PcfCatalog* pcf_;
  uint32_t thread_;
  Diagnostics* diagnostics_;
  Call call_;
  bool open_ = false;
  uint64_t mpi_events_ = 0;
  std::map<std::pair<uint32_t, int64_t>, Kind> kinds_;
};

// A thread's events, read a block at a time; compact blocks with none of the types a CallReader
// reads are passed over (threads without MPI calls cost their blocks' dictionaries only).
store::EventReader MpiEvents(const store::TraceStore& store, model::ThreadIndex t) {
  store::EventReader r(store, t);
  r.OnlyBlocksWith({{kMpiFirstType, kMpiLastType}, {kCollectiveSendSizeType, kCollectiveCommunicatorType}});
  return r;
}

constexpr uint32_t kNoCall = UINT32_MAX;

// The number of the call of `spans` (entry, exit) whose [entry, exit] holds t, or kNoCall.
uint32_t CallAt(const std::vector<std::pair<Time, Time>>& spans, Time t) {
  auto it = std::upper_bound(spans.begin(), spans.end(), t,
                             [](Time v, const std::pair<Time, Time>& c) { return v < c.first; });
  if (it == spans.begin()) return kNoCall;
  --it;
  return t <= it->second ? static_cast<uint32_t>(it - spans.begin()) : kNoCall;
}

// What reading one thread gives BuildProgram.
struct ThreadCalls {
  uint64_t calls = 0;
  uint64_t mpi_events = 0;
  Diagnostics diagnostics;
  Time last_record = 0;
  Time compute = 0;
  std::map<int64_t, uint32_t> collectives;   // per communicator
  std::vector<std::pair<uint32_t, Time>> recvs;  // blocking receive calls: number, entry
};

// The call of each communication: of its send (in the sender's calls), of its receive's post
// and completion (in the receiver's); kNoCall where the time is in no call.
struct CommCalls {
  std::vector<uint32_t> send, post, done;
};

// Reads thread t's calls: what they add up to, and which call each of its communications
// belongs to.
void ReadThread(const model::TraceHeader& header, const store::TraceStore& store,
                const model::PcfCatalog* pcf, const ProgramOptions& options, uint32_t t,
                ThreadCalls& out, CommCalls& comm_calls) {
  const model::ThreadIndex thread(t);
  std::vector<std::pair<Time, Time>> spans;
  Time previous = 0;
  auto on_call = [&](const Call& c) {
    spans.emplace_back(c.entry, c.exit);
    out.compute += std::max<Time>(c.entry - previous, 0);
    previous = c.exit;
    if (c.kind == CallKind::kInit && options.init_barrier) ++out.collectives[kWorld];
    if (c.kind == CallKind::kCollective) ++out.collectives[c.communicator];
    if (c.kind == CallKind::kRecv)
      out.recvs.emplace_back(static_cast<uint32_t>(spans.size() - 1), c.entry);
  };
  CallReader calls(header, pcf, t, &out.diagnostics);
  store::EventReader events = MpiEvents(store, thread);
  while (events.Next()) calls.Read(events.columns(), events.begin(), events.end(), on_call);
  calls.Finish(on_call);
  out.calls = spans.size();
  out.mpi_events = calls.mpi_events();
  if (spans.empty()) return;  // not a process
  out.last_record = store::LastRecordTime(store, thread);
  out.compute += std::max<Time>(out.last_record - previous, 0);
  const store::CommTable& comms = store.comms();
  for (uint32_t i : store.Sent(thread)) comm_calls.send[i] = CallAt(spans, comms.log_send[i]);
  for (uint32_t i : store.Received(thread)) {
    comm_calls.done[i] = CallAt(spans, comms.phy_recv[i]);
    comm_calls.post[i] = CallAt(spans, comms.log_recv[i]);
  }
}

void SortByCall(std::vector<MessageRef>& v) {
  std::stable_sort(v.begin(), v.end(),
                   [](const MessageRef& a, const MessageRef& b) { return a.call < b.call; });
  v.shrink_to_fit();
}

}  // namespace

CallKind ClassifyCall(uint32_t type, int64_t value, const std::string* label,
                      uint32_t* collective_id) {
  const char* known = calls::ExtraeCallName(value);
  std::string_view name = label   ? std::string_view(*label)
                          : known ? std::string_view(known)
                                  : std::string_view();
  CallKind k = KindOfOp(calls::OpOfName(name));
  // prv2dim numbers collectives by Extrae's value minus one; the collectives file uses that id.
  if (k == CallKind::kCollective && collective_id)
    *collective_id = static_cast<uint32_t>(std::max<int64_t>(value - 1, 0));
  (void)type;
  return k;
}

Program BuildProgram(const model::TraceHeader& header, const store::TraceStore& store,
                     const model::PcfCatalog* pcf, const ProgramOptions& options) {
  Program program;
  program.header = &header;
  program.store = &store;
  program.pcf = pcf;
  program.options = options;
  const uint32_t threads = static_cast<uint32_t>(store.threads());
  program.process_of_thread.assign(threads, -1);
  const store::CommTable& comms = store.comms();
  CommCalls comm_calls;
  comm_calls.send.assign(comms.rows(), kNoCall);
  comm_calls.post.assign(comms.rows(), kNoCall);
  comm_calls.done.assign(comms.rows(), kNoCall);
  std::vector<ThreadCalls> read(threads);
  base::ParallelFor(
      threads, options.worker_threads == 0 ? base::DefaultThreads() : options.worker_threads,
      [&](size_t i) {
        ReadThread(header, store, pcf, options, static_cast<uint32_t>(i), read[i], comm_calls);
      });
  for (uint32_t t = 0; t < threads; ++t) {
    program.mpi_events += read[t].mpi_events;
    program.diagnostics.Merge(read[t].diagnostics);
    if (read[t].calls == 0) continue;
    program.process_of_thread[t] = static_cast<int32_t>(program.processes.size());
    Process& p = program.processes.emplace_back();
    p.thread = t;
    p.mpi_calls = read[t].calls;
    p.compute = read[t].compute;
    p.last_record = read[t].last_record;
    p.collectives.assign(read[t].collectives.begin(), read[t].collectives.end());
  }
  for (uint32_t i = 0; i < comms.rows(); ++i) {
    const uint32_t s = comms.sender[i], r = comms.receiver[i];
    const uint32_t send_call = comm_calls.send[i], done_call = comm_calls.done[i];
    if (send_call == kNoCall || done_call == kNoCall) {
      program.diagnostics.Add(
          "unmatched-communication",
          "a communication whose send or receive is not inside an MPI call was not replayed "
          "(its calls were replayed as local)",
          fmt::format("communication {} sent by {}, received by {}", i + 1,
                      Where(header, s, comms.log_send[i]), Where(header, r, comms.phy_recv[i])));
      continue;
    }
    uint32_t post_call = comm_calls.post[i];
    if (post_call == kNoCall || post_call > done_call) post_call = done_call;
    ++program.messages;
    program.processes[program.process_of_thread[s]].sends.push_back({send_call, i});
    Process& receiver = program.processes[program.process_of_thread[r]];
    receiver.posts.push_back({post_call, i});
    receiver.waits.push_back({done_call, i});
  }
  comm_calls = {};
  for (Process& p : program.processes) {
    SortByCall(p.sends);
    SortByCall(p.posts);
    SortByCall(p.waits);
    // A receive call without any message in it is replayed as local: say so. Sendrecv and
    // non-blocking calls often have no record (MPI_PROC_NULL partners, requests completed
    // elsewhere); a lone blocking receive without one is worth a note.
    auto has = [](const std::vector<MessageRef>& v, uint32_t call) {
      auto it = std::lower_bound(v.begin(), v.end(), call,
                                 [](const MessageRef& m, uint32_t c) { return m.call < c; });
      return it != v.end() && it->call == call;
    };
    for (const auto& [call, entry] : read[p.thread].recvs)
      if (!has(p.sends, call) && !has(p.posts, call) && !has(p.waits, call))
        program.diagnostics.Add(
            "receive-without-communication",
            "an MPI_Recv has no communication record (unmatched receive); it was replayed "
            "as local, without waiting",
            Where(header, p.thread, entry));
  }
  return program;
}

// The state of one process' generation: where it is in the thread's events and calls.
struct OpStream::Reader {
  Reader(const Program& p, const Process& proc)
      : program(p),
        process(proc),
        calls(*p.header, p.pcf, proc.thread, nullptr),
        events(MpiEvents(*p.store, model::ThreadIndex(proc.thread))) {}

  const Program& program;
  const Process& process;
  CallReader calls;
  store::EventReader events;
  std::vector<uint32_t> pending_isends;
  std::map<int64_t, uint32_t> collective_ordinal;  // per communicator: the next one
  size_t next_send = 0, next_post = 0, next_wait = 0;
  uint32_t call = 0;  // the number of the next call
  uint64_t collectives = 0;  // collectives generated so far
  Time previous = 0;  // the end of the previous call
  bool started = false, finished = false;
};

OpStream::OpStream(const Program& program, uint32_t process)
    : reader_(std::make_unique<Reader>(program, program.processes[process])) {
  Refill();
}
OpStream::OpStream(OpStream&&) noexcept = default;
OpStream& OpStream::operator=(OpStream&&) noexcept = default;
OpStream::~OpStream() = default;

void OpStream::Refill() {
  ops_.clear();
  collectives_.clear();
  pos_ = 0;
  Reader& r = *reader_;
  auto emit = [&](OpKind kind, uint32_t arg, Time duration = 0) {
    ops_.push_back({kind, arg, duration});
  };
  auto collective = [&](CollectiveCall c) {
    c.ordinal = r.collective_ordinal[c.communicator]++;
    c.number = r.collectives++;
    collectives_.push_back(c);
    emit(OpKind::kCollective, static_cast<uint32_t>(collectives_.size() - 1));
  };
  auto flush_isends = [&] {
    for (uint32_t m : r.pending_isends) emit(OpKind::kSendWait, m);
    r.pending_isends.clear();
  };
  auto on_call = [&](const Call& c) {
    const uint32_t n = r.call++;
    const Time burst = c.entry - r.previous;
    if (burst > 0) emit(OpKind::kBurst, 0, burst);
    emit(OpKind::kMark, 0, c.entry);
    if (c.kind == CallKind::kInit && r.program.options.init_barrier)
      collective({0, 0, 0, c.entry, kWorld});
    const std::vector<MessageRef>& posts = r.process.posts;
    for (; r.next_post < posts.size() && posts[r.next_post].call == n; ++r.next_post)
      emit(OpKind::kRecvPost, posts[r.next_post].comm);
    const std::vector<MessageRef>& sends = r.process.sends;
    for (; r.next_send < sends.size() && sends[r.next_send].call == n; ++r.next_send) {
      const uint32_t m = sends[r.next_send].comm;
      emit(OpKind::kSendPost, m);
      if (c.kind != CallKind::kIsend)
        emit(OpKind::kSendWait, m);
      else
        r.pending_isends.push_back(m);
    }
    const std::vector<MessageRef>& waits = r.process.waits;
    for (; r.next_wait < waits.size() && waits[r.next_wait].call == n; ++r.next_wait)
      emit(OpKind::kRecvWait, waits[r.next_wait].comm);
    if (c.kind == CallKind::kWait) flush_isends();
    if (c.kind == CallKind::kCollective)
      collective({c.collective_id, c.send_bytes, c.recv_bytes, c.entry, c.communicator});
    emit(OpKind::kMark, 0, c.exit);
    r.previous = c.exit;
  };
  if (!r.started) {
    r.started = true;
    emit(OpKind::kMark, 0, 0);
  }
  while (ops_.empty() && !r.finished) {
    if (r.events.Next()) {
      r.calls.Read(r.events.columns(), r.events.begin(), r.events.end(), on_call);
      continue;
    }
    r.calls.Finish(on_call);
    flush_isends();
    const Time last = r.process.last_record;
    if (last - r.previous > 0) emit(OpKind::kBurst, 0, last - r.previous);
    emit(OpKind::kMark, 0, std::max(last, r.previous));
    r.finished = true;
  }
}

}  // namespace parallax::replay
