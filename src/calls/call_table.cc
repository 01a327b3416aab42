#include "src/calls/call_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <map>
#include <optional>
#include <string_view>

#include "src/base/gallop.h"
#include "src/base/parallel.h"
#include "src/store/block_reader.h"
#include "src/store/type_scan.h"

namespace parallax::calls {

namespace {

// The operation of each (type, value) met, looked up once: names are compared as strings. Small
// values (Extrae's numbering) are kept in a table, others in a map.
class OpCache {
 public:
  explicit OpCache(const model::PcfCatalog* pcf) : pcf_(pcf) { small_.fill(kUnknown); }
  Op Get(uint32_t type, int64_t value) {
    if (value >= 0 && value < kSmall) {
      uint8_t& slot = small_[(type - kMpiFirstType) * kSmall + static_cast<size_t>(value)];
      if (slot == kUnknown) slot = static_cast<uint8_t>(Lookup(type, value));
      return static_cast<Op>(slot);
    }
    auto [it, added] = ops_.try_emplace({type, value}, Op::kOther);
    if (added) it->second = Lookup(type, value);
    return it->second;
  }

 private:
  static constexpr int64_t kSmall = 256;
  static constexpr uint8_t kUnknown = 0xFF;

  Op Lookup(uint32_t type, int64_t value) const {
    const std::string* label = pcf_ != nullptr ? pcf_->EventValueLabel(type, value) : nullptr;
    if (label != nullptr) return OpOfName(*label);
    if (const char* extrae = ExtraeCallName(value)) return OpOfName(extrae);
    return Op::kOther;
  }

  const model::PcfCatalog* pcf_;
  std::array<uint8_t, (kMpiLastType - kMpiFirstType + 1) * kSmall> small_;
  std::map<std::pair<uint32_t, int64_t>, Op> ops_;
};

struct ThreadRead {
  std::vector<Call> calls;
  std::vector<OtherEvent> other;
  CallCounts counts;
};

void ReadThread(const store::TraceStore& store, const model::PcfCatalog* pcf, uint32_t t,
                const std::vector<std::pair<uint32_t, uint32_t>>& also_read, ThreadRead& out) {
  std::optional<OpCache> ops;  // made at the thread's first MPI event: most threads have none
  store::EventReader events(store, model::ThreadIndex(t));
  std::vector<std::pair<uint32_t, uint32_t>> wanted = {{kMpiFirstType, kMpiLastType},
                                                       {kCollectiveSendSizeType, kCollectiveCommunicatorType}};
  wanted.insert(wanted.end(), also_read.begin(), also_read.end());
  events.OnlyBlocksWith(wanted);
  const store::TypeScan scan(std::move(wanted));
  const store::TypeScan other(also_read);
  bool open = false;
  Call call;
  struct {
    Time time = 0;
    bool any = false;
    Call attributes;
  } early;  // attributes seen before any call opened at their time
  auto close = [&](Time at) {
    call.exit = at;
    out.calls.push_back(call);
    open = false;
  };
  auto take = [&](const store::EventColumns& ev, size_t i) {
    const uint32_t type = ev.type[i];
    if (IsMpiCallType(type)) {
      ++out.counts.mpi_events;
      const int64_t value = ev.value[i];
      if (value == 0) {
        if (open)
          close(ev.time[i]);
        else
          ++out.counts.stray_closes;
        return;
      }
      if (open) {
        ++out.counts.nested_opens;
        close(ev.time[i]);
      }
      call = Call{};
      // Attributes written before the call at its time (another writer's order) are its own.
      if (early.time == ev.time[i] && early.any) call = early.attributes;
      early.any = false;
      call.entry = call.exit = ev.time[i];
      call.type = type;
      call.value = value;
      if (!ops) ops.emplace(pcf);
      call.op = ops->Get(type, value);
      open = true;
      return;
    }
    if (type < kCollectiveSendSizeType || type > kCollectiveCommunicatorType) {
      if (other.Contains(type)) out.other.push_back({ev.time[i], type, ev.value[i]});
      return;
    }
    // Attributes belong to the call opened at the same time (Extrae writes them after it).
    Call* to = nullptr;
    if (open && ev.time[i] == call.entry) {
      to = &call;
    } else {
      if (early.time != ev.time[i] || !early.any) early = {ev.time[i], true, Call{}};
      to = &early.attributes;
    }
    switch (type) {
      case kCollectiveSendSizeType:
        to->send_bytes = ev.value[i];
        break;
      case kCollectiveRecvSizeType:
        to->recv_bytes = ev.value[i];
        break;
      case kCollectiveRootType:
        to->root = ev.value[i] == 1;
        break;
      case kCollectiveCommunicatorType:
        to->communicator = ev.value[i];
        break;
      default:
        break;
    }
  };
  // Once a sixteenth of the thread is read, room for as many calls as its events promise at
  // that rate (at most sixteen times those found): growing by doubling would copy them twice
  // more, taking fresh pages each time.
  const uint64_t thread_events = store.EventCount(model::ThreadIndex(t));
  bool reserved = false;
  while (events.Next()) {
    const store::EventColumns& ev = events.columns();
    scan.ForEach(ev.type.data(), events.begin(), events.end(), [&](size_t i) { take(ev, i); });
    if (!reserved && events.passed() >= thread_events / 16 && events.passed() < thread_events) {
      reserved = true;
      const double rate = static_cast<double>(out.calls.size()) / static_cast<double>(events.passed());
      out.calls.reserve(static_cast<size_t>(rate * 1.05 * static_cast<double>(thread_events)) + 16);
    }
  }
  if (open) {
    call.truncated = true;
    ++out.counts.truncated_calls;
    close(std::max(call.entry, store::LastRecordTime(store, model::ThreadIndex(t))));
  }
}

// The call of `calls` holding time t (entry <= t <= exit), preferring calls for which `wanted`
// is true, then the one that starts at t (`at_start`) or ends at t; kNoCall when none holds it.
// Searched from `*hint` (base::PartitionPointFrom): a rank's messages come in time order.
template <typename Wanted>
uint32_t CallHolding(const std::vector<Call>& calls, Time t, Wanted wanted, bool at_start, size_t* hint) {
  auto it = base::PartitionPointFrom(calls.begin(), calls.end(), [t](const Call& c) { return c.entry <= t; }, hint);
  uint32_t best = kNoCall;
  int best_score = -1;
  // Calls do not overlap, so only calls that begin at t, and the one before them, can hold it.
  for (int checked = 0; it != calls.begin() && checked < 64; ++checked) {
    --it;
    if (it->exit < t) break;
    const int score = (wanted(it->op) ? 2 : 0) + ((at_start ? it->entry : it->exit) == t ? 1 : 0);
    if (score > best_score) {
      best_score = score;
      best = static_cast<uint32_t>(it - calls.begin());
    }
  }
  return best;
}

// "c:appl:id:count:task:task..." lines of the header, with tasks numbered from 1 in their
// application; lines that do not parse are passed over (they never changed any computation).
void ReadCommunicators(const model::TraceHeader& header, const std::vector<uint32_t>& rank_of_task,
                       CallTable& table) {
  const model::ProcessModel& p = header.processes;
  for (const std::string& line : header.communicators) {
    std::vector<int64_t> f;
    std::string_view rest(line);
    if (rest.substr(0, 2) != "c:") continue;
    rest.remove_prefix(2);
    bool ok = true;
    while (!rest.empty() && ok) {
      size_t colon = rest.find(':');
      std::string_view field = rest.substr(0, colon);
      int64_t v = 0;
      auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), v);
      ok = !field.empty() && ec == std::errc() && end == field.data() + field.size() && v >= 0;
      f.push_back(v);
      rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
    }
    if (!ok || f.size() < 3 || f[0] < 1 || f[0] > p.appls() ||
        f[2] != static_cast<int64_t>(f.size()) - 3)
      continue;
    CallTable::Communicator c;
    c.appl = static_cast<uint32_t>(f[0] - 1);
    c.id = f[1];
    // Tasks of the application, in order.
    std::vector<uint32_t> tasks;
    for (uint32_t task = 0; task < p.tasks(); ++task)
      if (p.task(model::TaskIndex(task)).appl.value == c.appl) tasks.push_back(task);
    for (size_t k = 3; k < f.size() && ok; ++k) {
      ok = f[k] >= 1 && f[k] <= static_cast<int64_t>(tasks.size());
      if (ok && rank_of_task[tasks[f[k] - 1]] != kNoRank)
        c.ranks.push_back(rank_of_task[tasks[f[k] - 1]]);
    }
    if (ok) table.communicators.push_back(std::move(c));
  }
}

}  // namespace

CallTable BuildCallTable(const model::TraceHeader& header, const store::TraceStore& store,
                         const model::PcfCatalog* pcf, const CallTableOptions& options) {
  CallTable table;
  const uint32_t threads = static_cast<uint32_t>(store.threads());
  std::vector<ThreadRead> read(threads);
  base::ParallelFor(
      threads, options.worker_threads == 0 ? base::DefaultThreads() : options.worker_threads,
      [&](size_t i) { ReadThread(store, pcf, static_cast<uint32_t>(i), options.also_read, read[i]); });
  table.also_read = options.also_read;

  const model::ProcessModel& p = header.processes;
  table.rank_of_thread.assign(threads, kNoRank);
  std::vector<uint32_t> rank_of_task(p.tasks(), kNoRank);
  for (uint32_t t = 0; t < threads; ++t) {
    CallCounts& c = read[t].counts;
    table.counts.mpi_events += c.mpi_events;
    table.counts.stray_closes += c.stray_closes;
    table.counts.nested_opens += c.nested_opens;
    table.counts.truncated_calls += c.truncated_calls;
    if (read[t].calls.empty() || t >= p.threads()) continue;
    const model::ThreadInfo& info = p.thread(model::ThreadIndex(t));
    if (rank_of_task[info.task.value] != kNoRank) {
      table.counts.other_thread_calls += read[t].calls.size();
      continue;
    }
    rank_of_task[info.task.value] = static_cast<uint32_t>(table.ranks.size());
    table.rank_of_thread[t] = static_cast<uint32_t>(table.ranks.size());
    Rank& r = table.ranks.emplace_back();
    r.thread = t;
    r.task = info.task.value;
    r.appl = info.appl.value;
    r.calls = std::move(read[t].calls);
    if (r.calls.capacity() > r.calls.size() + r.calls.size() / 4) r.calls.shrink_to_fit();  // a reserve too high
    r.other = std::move(read[t].other);
    r.first_record = store::FirstRecordTime(store, model::ThreadIndex(t));
    r.last_record = store::LastRecordTime(store, model::ThreadIndex(t));
  }
  read.clear();
  read.shrink_to_fit();

  const store::CommTable& comms = store.comms();
  table.messages.resize(comms.rows());
  // Per rank, where its last send, completion and post were found: messages come in time order.
  std::vector<std::array<size_t, 3>> hints(table.ranks.size(), {0, 0, 0});
  for (size_t i = 0; i < comms.rows(); ++i) {
    MessageCalls& m = table.messages[i];
    if (comms.sender[i] < threads) m.sender = table.rank_of_thread[comms.sender[i]];
    if (comms.receiver[i] < threads) m.receiver = table.rank_of_thread[comms.receiver[i]];
    if (m.sender != kNoRank)
      m.send_call = CallHolding(table.ranks[m.sender].calls, comms.log_send[i], StartsSend, true, &hints[m.sender][0]);
    if (m.receiver != kNoRank) {
      const std::vector<Call>& rc = table.ranks[m.receiver].calls;
      m.done_call = CallHolding(rc, comms.phy_recv[i], CompletesReceive, false, &hints[m.receiver][1]);
      m.post_call = CallHolding(rc, comms.log_recv[i], PostsReceive, false, &hints[m.receiver][2]);
    }
    if (m.send_call == kNoCall || m.done_call == kNoCall)
      if (table.counts.unbound_messages++ == 0) table.counts.first_unbound = i;
  }
  ReadCommunicators(header, rank_of_task, table);
  return table;
}

uint32_t FirstCallFrom(const std::vector<Call>& calls, Time t) {
  return static_cast<uint32_t>(std::lower_bound(calls.begin(), calls.end(), t,
                                                [](const Call& c, Time v) { return c.entry < v; }) -
                               calls.begin());
}

uint32_t LastCallEnteredBy(const std::vector<Call>& calls, Time t) {
  auto it = std::upper_bound(calls.begin(), calls.end(), t,
                             [](Time v, const Call& c) { return v < c.entry; });
  return it == calls.begin() ? kNoCall : static_cast<uint32_t>(it - calls.begin() - 1);
}

std::string CallName(const model::PcfCatalog* pcf, const Call& call) {
  if (pcf != nullptr)
    if (const std::string* label = pcf->EventValueLabel(call.type, call.value)) return *label;
  if (const char* name = ExtraeCallName(call.value)) return name;
  return fmt::format("MPI call {}", call.value);
}

}  // namespace parallax::calls
