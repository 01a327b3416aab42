#include "src/replay/engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <queue>
#include <unordered_map>
#include <string>
#include <utility>

namespace parallax::replay {

namespace {

constexpr double kUnknown = -1;  // replayed times are never negative

// A message in flight: created when one of its four operations (send post and wait, receive
// post and wait) is first reached, dropped when all four are done.
struct MessageState {
  uint32_t sender = 0;    // process index
  uint32_t receiver = 0;  // process index
  int64_t size = 0;       // bytes
  uint32_t done = 0;      // of its four operations
  double ready = kUnknown;     // the data may leave (send posted + latency)
  double posted = kUnknown;    // the receive is posted
  double arrival = kUnknown;   // the data is at the receiver
  double released = kUnknown;  // the sender may go on
  bool rendezvous = false;
};

enum class RunState : uint8_t { kRunnable, kBlocked, kDone };

struct ProcessState {
  double clock = 0;
  RunState status = RunState::kRunnable;
  bool queued = false;
};

// A collective in progress: created when its first process arrives, dropped when the last leaves.
struct CollectiveState {
  uint32_t expected = 0;
  uint32_t arrived = 0;
  uint32_t departed = 0;
  double latest = 0;
  double done = kUnknown;
  uint32_t model_id = 0;
  int64_t send_min = std::numeric_limits<int64_t>::max(), send_max = 0, send_sum = 0;
  int64_t recv_min = std::numeric_limits<int64_t>::max(), recv_max = 0, recv_sum = 0;
  int64_t total_max = 0;
  uint32_t first_node = 0;
  bool one_node = true;
};

double StageCount(StageModel m, uint32_t p) {
  switch (m) {
    case StageModel::kNone:
      return 0;
    case StageModel::kConstant:
      return 1;
    case StageModel::kLinear:
      return p;
    case StageModel::kLogarithmic:
      return p <= 1 ? 0 : std::ceil(std::log2(static_cast<double>(p)));
  }
  return 0;
}

class Engine {
 public:
  Engine(Program& program, const MachineModel& model, double ups, const model::TraceHeader& header)
      : program_(program), model_(model), ups_(ups), header_(header) {}

  Result<Simulation> Run();

 private:
  uint32_t NodeOf(uint32_t p) const { return p / std::max<uint32_t>(model_.tasks_per_node, 1); }
  const LinkModel& LinkBetween(uint32_t a, uint32_t b) const {
    return NodeOf(a) == NodeOf(b) ? model_.intra_node : model_.inter_node;
  }
  double Latency(const LinkModel& l) const { return l.latency_s * ups_; }
  double TransferTime(const LinkModel& l, double bytes) const {
    return l.bandwidth_Bps > 0 ? bytes / l.bandwidth_Bps * ups_ : 0;
  }
  void Push(uint32_t p) {
    if (state_[p].queued) return;
    state_[p].queued = true;
    heap_.push({state_[p].clock, p});
  }
  void Wake(uint32_t p, double t) {
    ProcessState& s = state_[p];
    if (s.status != RunState::kBlocked) return;
    s.clock = std::max(s.clock, t);
    s.status = RunState::kRunnable;
    Push(p);
  }
  bool BlockedOn(uint32_t p, OpKind kind, uint32_t arg) const {
    if (state_[p].status != RunState::kBlocked) return false;
    const Op* op = streams_[p].current();
    return op != nullptr && op->kind == kind && op->arg == arg;
  }
  // The collective a blocked process waits in, or null.
  const CollectiveCall* WaitingIn(uint32_t p) const {
    if (state_[p].status != RunState::kBlocked) return nullptr;
    const Op* op = streams_[p].current();
    return op != nullptr && op->kind == OpKind::kCollective ? &streams_[p].collective(op->arg)
                                                             : nullptr;
  }
  MessageState& Message(uint32_t m);
  using CollectiveKey = std::pair<int64_t, uint32_t>;  // communicator, ordinal on it
  static CollectiveKey KeyOf(const CollectiveCall& c) { return {c.communicator, c.ordinal}; }
  double* LinkSlot(std::vector<std::vector<double>>& links, uint32_t node, uint32_t count) {
    if (links.size() <= node) links.resize(node + 1);
    if (links[node].empty()) links[node].assign(count, 0);
    return &*std::min_element(links[node].begin(), links[node].end());
  }
  void Transfer(uint32_t m, double start);
  bool Step(uint32_t p);  // false: blocked
  void Collective(uint32_t p, CollectiveState& c, const CollectiveCall& call);
  void CompleteCollective(const CollectiveKey& key, CollectiveState& c);
  std::string DescribeDeadlock() const;
  void CountCollectives();
  std::string Name(uint32_t p) const {
    return model::DefaultThreadLabel(header_.processes,
                                     model::ThreadIndex(program_.processes[p].thread));
  }

  Program& program_;
  const MachineModel& model_;
  double ups_;
  const model::TraceHeader& header_;
  std::vector<ProcessState> state_;
  std::vector<OpStream> streams_;
  std::unordered_map<uint32_t, MessageState> messages_;  // in flight, by communication
  std::map<CollectiveKey, CollectiveState> collectives_;  // in progress
  // Per communicator, how many collectives each process that uses it calls on it (sorted).
  std::map<int64_t, std::vector<uint32_t>> collective_counts_;
  std::vector<std::vector<double>> out_links_, in_links_;  // per node, each link's free time
  std::priority_queue<std::pair<double, uint32_t>, std::vector<std::pair<double, uint32_t>>,
                      std::greater<>>
      heap_;
  uint64_t operations_ = 0;
  // Links are contended: transfers must reserve them in time order. Otherwise every time is a
  // maximum of earlier times and the processes may run in any order.
  bool ordered_ = false;
};

MessageState& Engine::Message(uint32_t m) {
  auto [it, added] = messages_.try_emplace(m);
  if (added) {
    const store::CommTable& comms = program_.store->comms();
    it->second.sender = static_cast<uint32_t>(program_.process_of_thread[comms.sender[m]]);
    it->second.receiver = static_cast<uint32_t>(program_.process_of_thread[comms.receiver[m]]);
    it->second.size = comms.size[m];
  }
  return it->second;
}

void Engine::Transfer(uint32_t m, double start) {
  MessageState& s = Message(m);
  const MessageState& msg = s;
  const LinkModel& link = LinkBetween(msg.sender, msg.receiver);
  const double duration = TransferTime(link, static_cast<double>(std::max<int64_t>(msg.size, 0)));
  double begin = start;
  if (link.links > 0 && duration > 0) {
    double* out = LinkSlot(out_links_, NodeOf(msg.sender), link.links);
    double* in = LinkSlot(in_links_, NodeOf(msg.receiver), link.links);
    begin = std::max({start, *out, *in});
    *out = *in = begin + duration;
  }
  s.arrival = begin + duration;
  if (s.rendezvous) s.released = s.arrival;
  if (BlockedOn(msg.receiver, OpKind::kRecvWait, m)) Wake(msg.receiver, s.arrival);
  if (s.rendezvous && BlockedOn(msg.sender, OpKind::kSendWait, m)) Wake(msg.sender, s.released);
}

void Engine::CompleteCollective(const CollectiveKey& key, CollectiveState& c) {
  auto it = model_.collectives.find(c.model_id);
  const CollectiveModel& cm =
      it != model_.collectives.end() ? it->second : model_.default_collective;
  const LinkModel& link = c.one_node ? model_.intra_node : model_.inter_node;
  const uint32_t n = c.arrived;
  auto size = [&](SizeModel sm, bool fan_in) -> double {
    const int64_t mn = fan_in ? c.send_min : c.recv_min, mx = fan_in ? c.send_max : c.recv_max;
    const int64_t sum = fan_in ? c.send_sum : c.recv_sum;
    switch (sm) {
      case SizeModel::kMin:
        return static_cast<double>(mn);
      case SizeModel::kMax:
        return static_cast<double>(mx);
      case SizeModel::kMean:
        return n ? static_cast<double>(sum) / n : 0;
      case SizeModel::kTwiceMax:
        return 2.0 * static_cast<double>(mx);
      case SizeModel::kSendPlusRecv:
        return static_cast<double>(c.total_max);
    }
    return 0;
  };
  auto phase = [&](const PhaseModel& ph, bool fan_in) {
    const double stages = StageCount(ph.stages, n);
    return stages == 0 ? 0 : stages * (Latency(link) + TransferTime(link, size(ph.size, fan_in)));
  };
  c.done = c.latest + phase(cm.fan_in, true) + phase(cm.fan_out, false);
  for (uint32_t p = 0; p < state_.size(); ++p)
    if (const CollectiveCall* w = WaitingIn(p); w != nullptr && KeyOf(*w) == key) Wake(p, c.done);
}

void Engine::Collective(uint32_t p, CollectiveState& c, const CollectiveCall& call) {
  if (c.arrived == 0) {
    c.model_id = call.model_id;
    c.first_node = NodeOf(p);
  } else if (c.model_id != call.model_id) {
    program_.diagnostics.Add(
        "mismatched-collective",
        "tasks reached different collective operations at the same position; the "
        "first one's cost model was used",
        fmt::format("collective {} of thread {} (original time {})", call.number + 1, Name(p),
                    call.original_time));
  }
  if (NodeOf(p) != c.first_node) c.one_node = false;
  ++c.arrived;
  c.latest = std::max(c.latest, state_[p].clock);
  c.send_min = std::min(c.send_min, call.send_bytes);
  c.send_max = std::max(c.send_max, call.send_bytes);
  c.send_sum += call.send_bytes;
  c.recv_min = std::min(c.recv_min, call.recv_bytes);
  c.recv_max = std::max(c.recv_max, call.recv_bytes);
  c.recv_sum += call.recv_bytes;
  c.total_max = std::max(c.total_max, call.send_bytes + call.recv_bytes);
}

bool Engine::Step(uint32_t p) {
  ProcessState& s = state_[p];
  OpStream& stream = streams_[p];
  const Op op = *stream.current();
  ++operations_;
  switch (op.kind) {
    case OpKind::kBurst:
      s.clock += static_cast<double>(op.duration) / model_.cpu_ratio;
      break;
    case OpKind::kMark:
      if (program_.options.keep_anchors)
        program_.processes[p].anchors.push_back({op.duration, s.clock});
      break;
    case OpKind::kSendPost: {
      MessageState& m = Message(op.arg);
      s.clock += Latency(LinkBetween(m.sender, m.receiver));
      m.ready = s.clock;
      m.rendezvous = m.size > model_.eager_limit;
      if (!m.rendezvous) {
        m.released = m.ready;
        Transfer(op.arg, m.ready);
      } else if (m.posted != kUnknown) {
        Transfer(op.arg, std::max(m.ready, m.posted));
      }
      break;
    }
    case OpKind::kSendWait: {
      const MessageState& m = Message(op.arg);
      if (m.released == kUnknown) return false;
      s.clock = std::max(s.clock, m.released);
      break;
    }
    case OpKind::kRecvPost: {
      MessageState& m = Message(op.arg);
      m.posted = s.clock;
      if (m.rendezvous && m.ready != kUnknown && m.arrival == kUnknown)
        Transfer(op.arg, std::max(m.ready, m.posted));
      break;
    }
    case OpKind::kRecvWait: {
      const MessageState& m = Message(op.arg);
      if (m.arrival == kUnknown) return false;
      s.clock = std::max(s.clock, m.arrival);
      break;
    }
    case OpKind::kCollective: {
      const CollectiveCall& call = stream.collective(op.arg);
      const CollectiveKey key = KeyOf(call);
      auto it = collectives_.find(key);
      if (it == collectives_.end()) {
        // Expected: the processes that call at least ordinal + 1 collectives on it.
        const std::vector<uint32_t>& counts = collective_counts_[call.communicator];
        CollectiveState c;
        c.expected = static_cast<uint32_t>(
            counts.end() - std::upper_bound(counts.begin(), counts.end(), call.ordinal));
        it = collectives_.emplace(key, c).first;
      }
      CollectiveState& c = it->second;
      if (c.done == kUnknown) {
        Collective(p, c, call);
        if (c.arrived < c.expected) return false;
        CompleteCollective(key, c);
      }
      s.clock = std::max(s.clock, c.done);
      if (++c.departed == c.expected) collectives_.erase(it);
      break;
    }
  }
  if (op.kind == OpKind::kSendPost || op.kind == OpKind::kSendWait ||
      op.kind == OpKind::kRecvPost || op.kind == OpKind::kRecvWait) {
    auto it = messages_.find(op.arg);
    if (++it->second.done == 4) messages_.erase(it);
  }
  stream.Advance();
  return true;
}

std::string Engine::DescribeDeadlock() const {
  // Follow "waits for" edges from a blocked process until one repeats: that is a cycle.
  const store::CommTable& comms = program_.store->comms();
  auto process_of = [&](uint32_t thread) {
    return static_cast<uint32_t>(program_.process_of_thread[thread]);
  };
  auto waits_for = [&](uint32_t p) -> int64_t {
    const Op& op = *streams_[p].current();
    switch (op.kind) {
      case OpKind::kRecvWait:
        return process_of(comms.sender[op.arg]);
      case OpKind::kSendWait:
        return process_of(comms.receiver[op.arg]);
      case OpKind::kCollective: {
        const CollectiveKey mine = KeyOf(streams_[p].collective(op.arg));
        for (uint32_t q = 0; q < state_.size(); ++q) {
          if (q == p || state_[q].status != RunState::kBlocked) continue;
          const CollectiveCall* w = WaitingIn(q);
          if (w == nullptr || KeyOf(*w) != mine) return q;
        }
        return -1;
      }
      default:
        return -1;
    }
  };
  auto what = [&](uint32_t p) {
    const Op& op = *streams_[p].current();
    switch (op.kind) {
      case OpKind::kRecvWait:
        return fmt::format("{} waits to receive communication {} from {}", Name(p), op.arg + 1,
                           Name(process_of(comms.sender[op.arg])));
      case OpKind::kSendWait:
        return fmt::format(
            "{} waits for {} to post the receive of communication {} ({} bytes, rendezvous)",
            Name(p), Name(process_of(comms.receiver[op.arg])), op.arg + 1, comms.size[op.arg]);
      case OpKind::kCollective:
        return fmt::format("{} waits in collective {}", Name(p),
                           streams_[p].collective(op.arg).number + 1);
      default:
        return Name(p) + " is blocked";
    }
  };
  uint32_t start = 0;
  while (start < state_.size() && state_[start].status != RunState::kBlocked) ++start;
  std::vector<int> seen(state_.size(), -1);
  std::vector<uint32_t> path;
  int64_t p = start;
  while (p >= 0 && seen[p] < 0 && state_[p].status == RunState::kBlocked) {
    seen[p] = static_cast<int>(path.size());
    path.push_back(static_cast<uint32_t>(p));
    p = waits_for(static_cast<uint32_t>(p));
  }
  std::vector<uint32_t> cycle;
  if (p >= 0 && seen[p] >= 0)
    cycle.assign(path.begin() + seen[p], path.end());
  else
    cycle = path;
  std::string out;
  constexpr size_t kShown = 8;  // a ring of thousands of tasks stays readable
  for (size_t i = 0; i < cycle.size() && i < kShown; ++i) out += (i ? "; " : "") + what(cycle[i]);
  if (cycle.size() > kShown) out += fmt::format("; ... ({} tasks in the cycle)", cycle.size());
  return out;
}

// Counts, per communicator, the collectives of each process that uses it: the n-th collective on
// a communicator expects the processes that call more than n. A communicator that only some
// processes use is normal (sub-communicators); a collective that fewer processes reach than the
// communicator's first one has missing participants.
void Engine::CountCollectives() {
  collective_counts_.clear();
  for (const Process& p : program_.processes)
    for (const auto& [communicator, count] : p.collectives)
      collective_counts_[communicator].push_back(count);
  for (auto& [communicator, counts] : collective_counts_) {
    std::sort(counts.begin(), counts.end());
    const uint32_t want = communicator == kWorld
                              ? static_cast<uint32_t>(program_.processes.size())
                              : static_cast<uint32_t>(counts.size());
    for (uint32_t n = 0; n < counts.back(); ++n) {
      const auto expected = static_cast<uint32_t>(
          counts.end() - std::upper_bound(counts.begin(), counts.end(), n));
      if (expected < want)
        program_.diagnostics.Add(
            "collective-missing-participants",
            "some tasks never reach a collective operation the others reach on the same "
            "communicator; it completed with the tasks that reach it",
            fmt::format("collective {} on communicator {}: {} of {} tasks take part", n + 1,
                        communicator == kWorld ? std::string("world") : std::to_string(communicator),
                        expected, want));
    }
  }
}

Result<Simulation> Engine::Run() {
  const size_t np = program_.processes.size();
  state_.assign(np, {});
  messages_.clear();
  collectives_.clear();
  for (Process& p : program_.processes) p.anchors.clear();
  streams_.clear();
  streams_.reserve(np);
  for (uint32_t p = 0; p < np; ++p) streams_.emplace_back(program_, p);
  CountCollectives();
  auto contended = [](const LinkModel& l) { return l.links > 0 && l.bandwidth_Bps > 0; };
  ordered_ = contended(model_.inter_node) || contended(model_.intra_node);
  for (uint32_t p = 0; p < np; ++p) Push(p);
  while (!heap_.empty()) {
    const uint32_t p = heap_.top().second;
    heap_.pop();
    state_[p].queued = false;
    ProcessState& s = state_[p];
    if (s.status != RunState::kRunnable) continue;
    OpStream& stream = streams_[p];
    while (const Op* op = stream.current()) {
      // Only link reservations depend on the order of processes: before a post that may reserve
      // links, let any process that is behind in time go first.
      const OpKind k = op->kind;
      if (ordered_ && (k == OpKind::kSendPost || k == OpKind::kRecvPost) && !heap_.empty() &&
          s.clock > heap_.top().first) {
        Push(p);
        break;
      }
      if (!Step(p)) {
        s.status = RunState::kBlocked;
        break;
      }
    }
    if (stream.current() == nullptr) s.status = RunState::kDone;
  }
  for (uint32_t p = 0; p < np; ++p)
    if (state_[p].status != RunState::kDone)
      return parallax::Status::Error(
          "the replay deadlocks: " + DescribeDeadlock(), {},
          program_.diagnostics.Count("collective-missing-participants") > 0
              ? "the tasks reach different numbers of collectives on one communicator: collectives "
                "on "
                "sub-communicators need the communicator events (50100004) to be matched"
              : "the tasks wait for each other under this model; a larger eager limit (--eager) "
                "lets "
                "blocking sends of these sizes go on as the original run did");
  Simulation sim;
  sim.end.resize(np);
  sim.compute.resize(np);
  for (uint32_t p = 0; p < np; ++p) {
    sim.end[p] = state_[p].clock;
    sim.compute[p] = static_cast<double>(program_.processes[p].compute) / model_.cpu_ratio;
    sim.runtime = std::max(sim.runtime, sim.end[p]);
  }
  sim.operations = operations_;
  sim.diagnostics = program_.diagnostics;
  return sim;
}

}  // namespace

Result<Simulation> Simulate(Program& program, const MachineModel& model, double units_per_second,
                            const model::TraceHeader& header) {
  if (!(model.cpu_ratio > 0))
    return parallax::Status::Error("the CPU speed ratio must be positive", {},
                                   "use a ratio such as 1 or 2");
  Engine e(program, model, units_per_second, header);
  return e.Run();
}

}  // namespace parallax::replay
