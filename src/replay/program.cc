#include "src/replay/program.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "src/base/parallel.h"

namespace parallax::replay {

namespace {

// Extrae's values of the MPI call event types, used when the trace has no .pcf label for one.
const char* ExtraeCallName(int64_t value) {
  switch (value) {
    case 1:
      return "MPI_Send";
    case 2:
      return "MPI_Recv";
    case 3:
      return "MPI_Isend";
    case 4:
      return "MPI_Irecv";
    case 5:
      return "MPI_Wait";
    case 6:
      return "MPI_Waitall";
    case 7:
      return "MPI_Bcast";
    case 8:
      return "MPI_Barrier";
    case 9:
      return "MPI_Reduce";
    case 10:
      return "MPI_Allreduce";
    case 11:
      return "MPI_Alltoall";
    case 12:
      return "MPI_Alltoallv";
    case 13:
      return "MPI_Gather";
    case 14:
      return "MPI_Gatherv";
    case 15:
      return "MPI_Scatter";
    case 16:
      return "MPI_Scatterv";
    case 17:
      return "MPI_Allgather";
    case 18:
      return "MPI_Allgatherv";
    case 19:
      return "MPI_Comm_rank";
    case 20:
      return "MPI_Comm_size";
    case 31:
      return "MPI_Init";
    case 32:
      return "MPI_Finalize";
    case 33:
      return "MPI_Bsend";
    case 34:
      return "MPI_Ssend";
    case 35:
      return "MPI_Rsend";
    case 36:
      return "MPI_Ibsend";
    case 37:
      return "MPI_Issend";
    case 38:
      return "MPI_Irsend";
    case 41:
      return "MPI_Sendrecv";
    case 42:
      return "MPI_Sendrecv_replace";
    default:
      return nullptr;
  }
}

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

constexpr std::string_view kCollectiveNames[] = {"MPI_Bcast",
                                                 "MPI_Barrier",
                                                 "MPI_Reduce",
                                                 "MPI_Allreduce",
                                                 "MPI_Alltoall",
                                                 "MPI_Alltoallv",
                                                 "MPI_Gather",
                                                 "MPI_Gatherv",
                                                 "MPI_Scatter",
                                                 "MPI_Scatterv",
                                                 "MPI_Allgather",
                                                 "MPI_Allgatherv",
                                                 "MPI_Reduce_scatter",
                                                 "MPI_Scan",
                                                 "MPI_Exscan",
                                                 "MPI_Alltoallw",
                                                 "MPI_Reduce_scatter_block"};

CallKind KindOfName(std::string_view n) {
  if (n == "MPI_Send" || n == "MPI_Ssend" || n == "MPI_Bsend" || n == "MPI_Rsend")
    return CallKind::kSend;
  if (n == "MPI_Isend" || n == "MPI_Issend" || n == "MPI_Ibsend" || n == "MPI_Irsend")
    return CallKind::kIsend;
  if (n == "MPI_Recv") return CallKind::kRecv;
  if (n == "MPI_Irecv") return CallKind::kIrecv;
  if (StartsWith(n, "MPI_Sendrecv")) return CallKind::kSendRecv;
  if (StartsWith(n, "MPI_Wait")) return CallKind::kWait;
  if (StartsWith(n, "MPI_Init")) return CallKind::kInit;
  for (std::string_view c : kCollectiveNames)
    if (n == c) return CallKind::kCollective;
  return CallKind::kLocal;
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

// What a message does inside a call; sorted by call, then by this order (posts before waits).
enum class Role : uint8_t { kRecvPost = 0, kSendPost = 1, kRecvWait = 2 };

struct CallMessage {
  uint32_t call = 0;
  Role role = Role::kRecvPost;
  uint32_t message = 0;
};

std::string Where(const model::TraceHeader& h, uint32_t thread, Time t) {
  return fmt::format("thread {} at {} {}",
                     model::DefaultThreadLabel(h.processes, model::ThreadIndex(thread)), t,
                     model::TimeUnitName(h.unit));
}

// What reading one thread's events gives.
struct ThreadCalls {
  std::vector<Call> calls;
  uint64_t mpi_events = 0;
  Diagnostics diagnostics;
  Time last_record = 0;  // LastRecord of the thread
};

// Reads the MPI calls of one thread.
std::vector<Call> ReadCalls(const model::TraceHeader& h, const store::ThreadRecords& r,
                            uint32_t thread, const model::PcfCatalog* pcf, ThreadCalls& program) {
  std::vector<Call> calls;
  const store::EventColumns& ev = r.events;
  bool open = false;
  for (size_t i = 0; i < ev.size(); ++i) {
    const uint32_t type = ev.type[i];
    if (type >= kMpiFirstType && type <= kMpiLastType) {
      ++program.mpi_events;
      const int64_t value = ev.value[i];
      if (value != 0) {
        if (open) {
          program.diagnostics.Add(
              "nested-mpi-call",
              "an MPI call began inside another one; it was replayed as part of the outer call",
              Where(h, thread, ev.time[i]));
          continue;
        }
        Call c;
        c.entry = c.exit = ev.time[i];
        const std::string* label = pcf ? pcf->EventValueLabel(type, value) : nullptr;
        c.kind = ClassifyCall(type, value, label, &c.collective_id);
        if (label == nullptr && ExtraeCallName(value) == nullptr)
          program.diagnostics.Add(
              "unknown-mpi-call",
              "an MPI call the replay does not know (no .pcf label) was replayed as local",
              Where(h, thread, ev.time[i]) + fmt::format(", value {}", value));
        calls.push_back(c);
        open = true;
      } else if (open) {
        calls.back().exit = ev.time[i];
        open = false;
      }
    } else if (open && type == kCollectiveSendSizeType) {
      calls.back().send_bytes = ev.value[i];
    } else if (open && type == kCollectiveRecvSizeType) {
      calls.back().recv_bytes = ev.value[i];
    } else if (open && type == kCollectiveCommunicatorType) {
      calls.back().communicator = ev.value[i];
    }
  }
  if (open)
    program.diagnostics.Add("unfinished-mpi-call",
                            "an MPI call has no end event; it ends with the thread",
                            Where(h, thread, calls.back().entry));
  return calls;
}

Time LastRecord(const store::ThreadRecords& r) {
  Time last = 0;
  const store::StateColumns& s = r.states;
  for (size_t i = 0; i < s.size(); ++i) {
    last = std::max(last, s.begin[i]);
    if (s.end[i] != model::kNoEnd) last = std::max(last, s.end[i]);
  }
  if (r.events.size() > 0) last = std::max(last, r.events.time.back());
  return last;
}

// Index of the call of `calls` whose [entry, exit] holds t, or -1.
int64_t CallAt(const std::vector<Call>& calls, Time t) {
  auto it = std::upper_bound(calls.begin(), calls.end(), t,
                             [](Time v, const Call& c) { return v < c.entry; });
  if (it == calls.begin()) return -1;
  --it;
  return t <= it->exit ? it - calls.begin() : -1;
}

void Emit(Process& p, OpKind kind, uint32_t arg, Time duration = 0) {
  p.ops.push_back({kind, arg, duration});
}

uint32_t MarkAt(Process& p, Time original) {
  p.anchors.push_back({original, 0});
  return static_cast<uint32_t>(p.anchors.size() - 1);
}

// Emits the operations of one process from its calls and the messages of each call.
void EmitProcess(Process& p, const std::vector<Call>& calls, std::vector<CallMessage>& cm,
                 Time last, const ProgramOptions& options) {
  std::stable_sort(cm.begin(), cm.end(), [](const CallMessage& a, const CallMessage& b) {
    return a.call != b.call ? a.call < b.call : a.role < b.role;
  });
  p.ops.reserve(calls.size() * 3 + cm.size() * 2 + 2);
  Emit(p, OpKind::kMark, MarkAt(p, 0));
  std::vector<uint32_t> pending_isends;
  Time previous = 0;
  size_t next = 0;
  for (uint32_t c = 0; c < calls.size(); ++c) {
    const Call& call = calls[c];
    const Time burst = call.entry - previous;
    if (burst > 0) Emit(p, OpKind::kBurst, 0, burst);
    p.compute += std::max<Time>(burst, 0);
    Emit(p, OpKind::kMark, MarkAt(p, call.entry));
    if (call.kind == CallKind::kInit && options.init_barrier) {
      p.collectives.push_back({0, 0, 0, call.entry, kWorld});
      Emit(p, OpKind::kCollective, static_cast<uint32_t>(p.collectives.size() - 1));
    }
    const bool blocking_send = call.kind != CallKind::kIsend;
    for (; next < cm.size() && cm[next].call == c; ++next) {
      const CallMessage& m = cm[next];
      switch (m.role) {
        case Role::kRecvPost:
          Emit(p, OpKind::kRecvPost, m.message);
          break;
        case Role::kSendPost:
          Emit(p, OpKind::kSendPost, m.message);
          if (blocking_send)
            Emit(p, OpKind::kSendWait, m.message);
          else
            pending_isends.push_back(m.message);
          break;
        case Role::kRecvWait:
          Emit(p, OpKind::kRecvWait, m.message);
          break;
      }
    }
    if (call.kind == CallKind::kWait) {
      for (uint32_t m : pending_isends) Emit(p, OpKind::kSendWait, m);
      pending_isends.clear();
    }
    if (call.kind == CallKind::kCollective) {
      p.collectives.push_back(
          {call.collective_id, call.send_bytes, call.recv_bytes, call.entry, call.communicator});
      Emit(p, OpKind::kCollective, static_cast<uint32_t>(p.collectives.size() - 1));
    }
    Emit(p, OpKind::kMark, MarkAt(p, call.exit));
    previous = call.exit;
  }
  for (uint32_t m : pending_isends) Emit(p, OpKind::kSendWait, m);
  const Time tail = last - previous;
  if (tail > 0) Emit(p, OpKind::kBurst, 0, tail);
  p.compute += std::max<Time>(tail, 0);
  Emit(p, OpKind::kMark, MarkAt(p, std::max(last, previous)));
  p.mpi_calls = calls.size();
}

}  // namespace

CallKind ClassifyCall(uint32_t type, int64_t value, const std::string* label,
                      uint32_t* collective_id) {
  const char* known = ExtraeCallName(value);
  std::string_view name = label   ? std::string_view(*label)
                          : known ? std::string_view(known)
                                  : std::string_view();
  CallKind k = KindOfName(name);
  // prv2dim numbers collectives by Extrae's value minus one; the collectives file uses that id.
  if (k == CallKind::kCollective && collective_id)
    *collective_id = static_cast<uint32_t>(std::max<int64_t>(value - 1, 0));
  (void)type;
  return k;
}

Program BuildProgram(const model::TraceHeader& header, const store::TraceStore& store,
                     const model::PcfCatalog* pcf, const ProgramOptions& options) {
  Program program;
  const uint32_t threads = static_cast<uint32_t>(store.threads());
  program.process_of_thread.assign(threads, -1);
  std::vector<ThreadCalls> read(threads);
  base::ParallelFor(
      threads, options.worker_threads == 0 ? base::DefaultThreads() : options.worker_threads,
      [&](size_t i) {
        const uint32_t t = static_cast<uint32_t>(i);
        // A pin: a compact store decodes the thread for this read only (docs/scale.md).
        const auto records = store.Pin(model::ThreadIndex(t));
        read[t].calls = ReadCalls(header, *records, t, pcf, read[t]);
        read[t].last_record = LastRecord(*records);
      });
  std::vector<std::vector<Call>> calls(threads);
  for (uint32_t t = 0; t < threads; ++t) {
    calls[t] = std::move(read[t].calls);
    program.mpi_events += read[t].mpi_events;
    program.diagnostics.Merge(read[t].diagnostics);
    if (calls[t].empty()) continue;
    program.process_of_thread[t] = static_cast<int32_t>(program.processes.size());
    program.processes.push_back({});
    program.processes.back().thread = t;
  }
  std::vector<std::vector<CallMessage>> per_process(program.processes.size());
  const store::CommTable& comms = store.comms();
  for (uint32_t i = 0; i < comms.rows(); ++i) {
    const uint32_t s = comms.sender[i], r = comms.receiver[i];
    const int32_t ps = s < threads ? program.process_of_thread[s] : -1;
    const int32_t pr = r < threads ? program.process_of_thread[r] : -1;
    const int64_t send_call = ps < 0 ? -1 : CallAt(calls[s], comms.log_send[i]);
    const int64_t done_call = pr < 0 ? -1 : CallAt(calls[r], comms.phy_recv[i]);
    if (send_call < 0 || done_call < 0) {
      program.diagnostics.Add(
          "unmatched-communication",
          "a communication whose send or receive is not inside an MPI call was not replayed "
          "(its calls were replayed as local)",
          fmt::format("communication {} sent by {}, received by {}", i + 1,
                      Where(header, s, comms.log_send[i]), Where(header, r, comms.phy_recv[i])));
      continue;
    }
    int64_t post_call = CallAt(calls[r], comms.log_recv[i]);
    if (post_call < 0 || post_call > done_call) post_call = done_call;
    const uint32_t id = static_cast<uint32_t>(program.messages.size());
    program.messages.push_back(
        {static_cast<uint32_t>(ps), static_cast<uint32_t>(pr), comms.size[i], i});
    per_process[ps].push_back({static_cast<uint32_t>(send_call), Role::kSendPost, id});
    per_process[pr].push_back({static_cast<uint32_t>(post_call), Role::kRecvPost, id});
    per_process[pr].push_back({static_cast<uint32_t>(done_call), Role::kRecvWait, id});
  }
  for (size_t p = 0; p < program.processes.size(); ++p) {
    Process& proc = program.processes[p];
    EmitProcess(proc, calls[proc.thread], per_process[p], read[proc.thread].last_record, options);
    // A receive call without any message in it is replayed as local: say so.
    std::vector<bool> has_message(calls[proc.thread].size(), false);
    for (const CallMessage& m : per_process[p]) has_message[m.call] = true;
    for (size_t c = 0; c < calls[proc.thread].size(); ++c) {
      const Call& call = calls[proc.thread][c];
      // Sendrecv and non-blocking calls often have no record (MPI_PROC_NULL partners,
      // requests completed elsewhere); a lone blocking receive without one is worth a note.
      if (call.kind == CallKind::kRecv && !has_message[c])
        program.diagnostics.Add(
            "receive-without-communication",
            "an MPI_Recv has no communication record (unmatched receive); it was replayed "
            "as local, without waiting",
            Where(header, proc.thread, call.entry));
    }
  }
  return program;
}

}  // namespace parallax::replay
