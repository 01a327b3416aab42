#include "src/diagnose/wait_states.h"

#include <algorithm>
#include <utility>

namespace parallax::diagnose {

namespace {

using calls::Call;
using calls::CallTable;
using calls::kNoCall;
using calls::kNoRank;
using calls::Op;

// The part of call c spent before `target`: min(target, exit) - entry, or 0 when target is not
// after the entry.
Time WaitUntil(Time target, const Call& c) {
  return target > c.entry ? std::min(target, c.exit) - c.entry : 0;
}

bool CompletedByWait(Op op) {
  return op == Op::kRecv || op == Op::kSendrecv || op == Op::kWait || op == Op::kWaitany ||
         op == Op::kWaitall || op == Op::kWaitsome;
}

class Finder {
 public:
  Finder(const CallTable& table, const store::CommTable& comms, const WaitStateOptions& options)
      : table_(table), comms_(comms), options_(options) {
    slot_.resize(table.ranks.size());
    for (size_t r = 0; r < table.ranks.size(); ++r)
      slot_[r].assign(table.ranks[r].calls.size(), UINT32_MAX);
    for (auto& v : out_.completion) v.assign(table.ranks.size(), 0);
  }

  WaitStates Run() {
    PointToPoint();
    Collectives();
    Finalize();
    // By rank, then call: every instance has its slot, so a walk of the slots in that order
    // gives them sorted (no comparison sort).
    std::vector<WaitInstance> sorted;
    sorted.reserve(out_.instances.size());
    for (const std::vector<uint32_t>& calls : slot_)
      for (uint32_t s : calls)
        if (s != UINT32_MAX) sorted.push_back(out_.instances[s]);
    out_.instances = std::move(sorted);
    slot_.clear();
    return std::move(out_);
  }

 private:
  // Keeps the largest waiting time of a call (one instance per call).
  void Add(const WaitInstance& w) {
    if (w.wait == 0) return;
    uint32_t& s = slot_[w.rank][w.call];
    if (s == UINT32_MAX) {
      s = static_cast<uint32_t>(out_.instances.size());
      out_.instances.push_back(w);
    } else if (w.wait > out_.instances[s].wait) {
      out_.instances[s] = w;
    }
  }

  const Call& CallOf(uint32_t rank, uint32_t call) const { return table_.ranks[rank].calls[call]; }

  bool HasPayload(int64_t bytes) const { return bytes > 0 || (bytes < 0 && !options_.strict_sizes); }

  // One message's receive, for the wrong-order check.
  struct Received {
    uint32_t done_call;
    uint32_t sender;
    Time send_entry;
  };

  void PointToPoint() {
    std::vector<std::vector<Received>> received(table_.ranks.size());
    for (size_t i = 0; i < comms_.rows(); ++i) {
      const calls::MessageCalls& m = table_.messages[i];
      if (comms_.phy_recv[i] < comms_.log_send[i]) ++out_.backward_messages;
      if (m.sender == kNoRank || m.receiver == kNoRank) continue;
      const Time send_entry =
          m.send_call != kNoCall ? CallOf(m.sender, m.send_call).entry : comms_.log_send[i];
      const Time posted =
          m.post_call != kNoCall ? CallOf(m.receiver, m.post_call).entry : comms_.log_recv[i];
      if (m.done_call != kNoCall) {
        ++out_.messages;
        const Call& d = CallOf(m.receiver, m.done_call);
        received[m.receiver].push_back({m.done_call, m.sender, send_entry});
        if (!d.truncated && CompletedByWait(d.op)) {
          if (send_entry > d.exit) ++out_.clock_violations;
          Add({m.receiver, m.done_call, WaitUntil(send_entry, d), Pattern::kLateSender, false, false,
               m.sender, m.send_call, send_entry});
        }
      }
      if (m.send_call != kNoCall) {
        const Call& s = CallOf(m.sender, m.send_call);
        // A blocking send that returned only after the receive was posted waited for it.
        if (!s.truncated && calls::IsBlockingSend(s.op) && s.exit > posted) {
          Add({m.sender, m.send_call, WaitUntil(posted, s), Pattern::kLateReceiver, false, false,
               m.receiver, m.post_call, posted});
        }
      }
    }
    for (const WaitInstance& w : out_.instances) ++out_.operations[static_cast<int>(w.pattern)];
    MarkWrongOrder(received);
  }

  // A Late Sender is "wrong order" when the receiver completed, in a later call, a message whose
  // send began before the one it waited for: it could have received that one first.
  void MarkWrongOrder(std::vector<std::vector<Received>>& received) {
    constexpr Time kNever = UINT64_MAX;
    std::vector<Time> by_sender(received.size(), kNever);  // earliest send in later calls, per sender
    std::vector<uint32_t> senders;                         // the entries of by_sender set
    auto by_call = [](const Received& a, const Received& b) { return a.done_call < b.done_call; };
    for (size_t r = 0; r < received.size(); ++r) {
      std::vector<Received>& v = received[r];
      // Receives come nearly in call order already (messages are in time order).
      if (!std::is_sorted(v.begin(), v.end(), by_call)) std::sort(v.begin(), v.end(), by_call);
      Time earliest = kNever;  // over messages completed in later calls
      for (size_t j = v.size(); j > 0;) {
        size_t i = j;  // the receives [i, j) completed in one call, the latest not yet seen
        while (i > 0 && v[i - 1].done_call == v[j - 1].done_call) --i;
        const uint32_t s = slot_[r][v[i].done_call];
        if (s != UINT32_MAX && out_.instances[s].pattern == Pattern::kLateSender) {
          WaitInstance& w = out_.instances[s];
          w.wrong_order = earliest < w.culprit_time;
          w.wrong_order_same = w.culprit_rank < by_sender.size() && by_sender[w.culprit_rank] < w.culprit_time;
        }
        for (; j > i; --j) {
          const Received& m = v[j - 1];
          if (by_sender[m.sender] == kNever) senders.push_back(m.sender);
          by_sender[m.sender] = std::min(by_sender[m.sender], m.send_entry);
          earliest = std::min(earliest, m.send_entry);
        }
      }
      for (uint32_t k : senders) by_sender[k] = kNever;
      senders.clear();
      std::vector<Received>().swap(v);
    }
  }

  struct Member {
    uint32_t rank;
    uint32_t call;
  };

  // Every member waits for the last one to enter (barrier rule); `with_completion` also adds
  // the members' completion times.
  void SynchroniseAll(const std::vector<Member>& members, Pattern p, bool with_completion) {
    Time latest = 0, first_exit = UINT64_MAX;
    Member last = members.front();
    for (const Member& m : members) {
      const Call& c = CallOf(m.rank, m.call);
      if (c.entry > latest || (c.entry == latest && m.rank < last.rank)) latest = c.entry, last = m;
      first_exit = std::min(first_exit, c.exit);
    }
    bool waited = false;
    for (const Member& m : members) {
      const Call& c = CallOf(m.rank, m.call);
      if (latest > c.exit) ++out_.clock_violations;
      const Time wait = WaitUntil(latest, c);
      if (wait > 0) {
        waited = true;
        Add({m.rank, m.call, wait, p, false, false, last.rank, last.call, latest});
      }
      if (with_completion) {
        const Time from = std::max(first_exit, c.entry + wait);
        if (c.exit > from) out_.completion[static_cast<int>(p)][m.rank] += c.exit - from;
      }
    }
    if (waited) ++out_.operations[static_cast<int>(p)];
  }

  void NxN(const std::vector<Member>& members) {
    bool payload = false;
    Time latest = 0, first_exit = UINT64_MAX;
    for (const Member& m : members) {
      const Call& c = CallOf(m.rank, m.call);
      payload = payload || HasPayload(c.send_bytes) || HasPayload(c.recv_bytes);
      latest = std::max(latest, c.entry);
      first_exit = std::min(first_exit, c.exit);
    }
    if (!payload) return Skip("no payload (every member sends and receives 0 bytes)", members[0]);
    Analysed(members);
    if (first_exit >= latest) return SynchroniseAll(members, Pattern::kWaitAtNxN, true);
    // Someone left before the last entered: only data synchronises. Members that receive wait
    // for the latest member that sends.
    Time latest_sender = 0;
    Member last{kNoRank, kNoCall};
    for (const Member& m : members) {
      const Call& c = CallOf(m.rank, m.call);
      if (HasPayload(c.send_bytes) && (last.rank == kNoRank || c.entry > latest_sender))
        latest_sender = c.entry, last = m;
    }
    if (last.rank == kNoRank) return;
    bool waited = false;
    for (const Member& m : members) {
      const Call& c = CallOf(m.rank, m.call);
      if (!HasPayload(c.recv_bytes) || c.entry >= latest_sender) continue;
      if (latest_sender > c.exit) ++out_.clock_violations;
      const Time wait = WaitUntil(latest_sender, c);
      if (wait == 0) continue;
      waited = true;
      Add({m.rank, m.call, wait, Pattern::kWaitAtNxN, false, false, last.rank, last.call,
           latest_sender});
    }
    if (waited) ++out_.operations[static_cast<int>(Pattern::kWaitAtNxN)];
  }

  // The member marked as root (50100003), or false.
  bool Root(const std::vector<Member>& members, Member* root) const {
    for (const Member& m : members)
      if (CallOf(m.rank, m.call).root) {
        *root = m;
        return true;
      }
    return false;
  }

  void OneToN(const std::vector<Member>& members) {
    Member root{};
    if (!Root(members, &root)) return Skip("no root recorded (event 50100003)", members[0]);
    const Call& rc = CallOf(root.rank, root.call);
    if (!HasPayload(rc.send_bytes)) return Skip("no payload (the root sends 0 bytes)", root);
    Analysed(members);
    bool waited = false;
    for (const Member& m : members) {
      const Call& c = CallOf(m.rank, m.call);
      if (m.rank == root.rank || !HasPayload(c.recv_bytes) || c.entry >= rc.entry) continue;
      if (rc.entry > c.exit) ++out_.clock_violations;
      const Time wait = WaitUntil(rc.entry, c);
      if (wait == 0) continue;
      waited = true;
      Add({m.rank, m.call, wait, Pattern::kLateBroadcast, false, false, root.rank, root.call,
           rc.entry});
    }
    if (waited) ++out_.operations[static_cast<int>(Pattern::kLateBroadcast)];
  }

  void NToOne(const std::vector<Member>& members) {
    Member root{};
    if (!Root(members, &root)) return Skip("no root recorded (event 50100003)", members[0]);
    const Call& rc = CallOf(root.rank, root.call);
    if (!HasPayload(rc.recv_bytes)) return Skip("no payload (the root receives 0 bytes)", root);
    Analysed(members);
    Time latest = 0;
    Member last{kNoRank, kNoCall};
    for (const Member& m : members) {
      const Call& c = CallOf(m.rank, m.call);
      if (m.rank == root.rank || !HasPayload(c.send_bytes)) continue;
      if (last.rank == kNoRank || c.entry > latest) latest = c.entry, last = m;
    }
    if (last.rank == kNoRank || latest <= rc.entry) return;
    if (latest > rc.exit) ++out_.clock_violations;
    const Time wait = WaitUntil(latest, rc);
    if (wait == 0) return;
    Add({root.rank, root.call, wait, Pattern::kEarlyReduce, false, false, last.rank, last.call,
         latest});
    ++out_.operations[static_cast<int>(Pattern::kEarlyReduce)];
  }

  void Skip(const char* reason) { ++out_.skipped[reason]; }
  // Skips an instance, remembering where the first one of each reason is.
  void Skip(const char* reason, const Member& where) {
    if (++out_.skipped[reason] == 1) out_.skipped_example[reason] = {where.rank, where.call};
  }

  // Counts an analysed collective operation and keeps its members.
  void Analysed(const std::vector<Member>& members) {
    ++out_.collectives_analysed;
    for (const Member& m : members) out_.collective_members.emplace_back(m.rank, m.call);
    out_.collective_offsets.push_back(out_.collective_members.size());
  }

  static bool InCollectiveOrder(Op op) { return calls::IsCollective(op); }

  // Collective instances: the k-th collective call of every member of a communicator.
  void Collectives() {
    // (application, communicator) -> per rank, its collective calls on it.
    std::map<std::pair<uint32_t, int64_t>, std::map<uint32_t, std::vector<uint32_t>>> seqs;
    for (uint32_t r = 0; r < table_.ranks.size(); ++r) {
      const calls::Rank& rank = table_.ranks[r];
      for (uint32_t c = 0; c < rank.calls.size(); ++c)
        if (InCollectiveOrder(rank.calls[c].op))
          seqs[{rank.appl, rank.calls[c].communicator}][r].push_back(c);
    }
    for (auto& [key, by_rank] : seqs) {
      // A collective without a communicator event belongs to every rank of its application.
      if (key.second == calls::kWorldCommunicator)
        for (uint32_t r = 0; r < table_.ranks.size(); ++r)
          if (table_.ranks[r].appl == key.first) by_rank[r];
      size_t count = 0;
      for (const auto& [r, v] : by_rank) count = std::max(count, v.size());
      std::vector<Member> members;
      for (size_t k = 0; k < count; ++k) {
        members.clear();
        bool missing = false;
        for (const auto& [r, v] : by_rank) {
          if (k < v.size())
            members.push_back({r, v[k]});
          else
            missing = true;
        }
        Instance(members, missing);
      }
    }
  }

  void Instance(const std::vector<Member>& members, bool missing) {
    if (members.size() + (missing ? 1 : 0) < 2)
      return Skip("one member (a communicator of one rank synchronises nothing)", members[0]);
    if (missing) return Skip("a member has no matching call", members[0]);
    const Call& first = CallOf(members[0].rank, members[0].call);
    for (const Member& m : members) {
      const Call& c = CallOf(m.rank, m.call);
      if (c.type != first.type || c.value != first.value)
        return Skip("members call different operations", m);
      if (c.truncated) return Skip("a member's call is truncated", m);
    }
    switch (first.op) {
      case Op::kBarrier:
        Analysed(members);
        return SynchroniseAll(members, Pattern::kWaitAtBarrier, true);
      case Op::kNxN:
        return NxN(members);
      case Op::kOneToN:
        return OneToN(members);
      case Op::kNToOne:
        return NToOne(members);
      case Op::kScan:
        return Skip("not analysed: MPI_Scan, MPI_Exscan", members[0]);
      case Op::kAlltoallv:
        return Skip("not analysed: MPI_Alltoallv, MPI_Alltoallw", members[0]);
      default:
        return Skip("not analysed: non-blocking or neighbourhood collective", members[0]);
    }
  }

  // MPI_Finalize: every rank of an application waits for the last one to enter it.
  void Finalize() {
    std::map<uint32_t, std::vector<Member>> by_appl;
    std::map<uint32_t, bool> incomplete;
    std::map<uint32_t, uint32_t> first_incomplete;  // per application, the first such rank
    for (uint32_t r = 0; r < table_.ranks.size(); ++r) {
      const calls::Rank& rank = table_.ranks[r];
      uint32_t found = kNoCall;
      for (uint32_t c = static_cast<uint32_t>(rank.calls.size()); c-- > 0;)
        if (rank.calls[c].op == Op::kFinalize) {
          found = c;
          break;
        }
      if (found == kNoCall || rank.calls[found].truncated) {
        incomplete[rank.appl] = true;
        first_incomplete.try_emplace(rank.appl, r);
      }
      else
        by_appl[rank.appl].push_back({r, found});
    }
    for (const auto& [appl, members] : by_appl) {
      if (incomplete[appl]) {
        Skip("MPI_Finalize: a rank has no completed MPI_Finalize", {first_incomplete[appl], kNoCall});
        continue;
      }
      if (members.size() < 2) continue;
      Analysed(members);
      SynchroniseAll(members, Pattern::kWaitAtFinalize, false);
    }
  }

  const CallTable& table_;
  const store::CommTable& comms_;
  WaitStateOptions options_;
  WaitStates out_;
  std::vector<std::vector<uint32_t>> slot_;  // per rank and call: its instance, or UINT32_MAX
};

}  // namespace

const WaitInstance* WaitStates::Find(uint32_t rank, uint32_t call) const {
  auto it = std::lower_bound(instances.begin(), instances.end(), std::make_pair(rank, call),
                             [](const WaitInstance& w, const std::pair<uint32_t, uint32_t>& k) {
                               return w.rank != k.first ? w.rank < k.first : w.call < k.second;
                             });
  return it != instances.end() && it->rank == rank && it->call == call ? &*it : nullptr;
}

WaitStates FindWaitStates(const calls::CallTable& table, const store::CommTable& comms,
                          const WaitStateOptions& options) {
  return Finder(table, comms, options).Run();
}

}  // namespace parallax::diagnose
