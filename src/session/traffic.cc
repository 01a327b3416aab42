// CommTraffic (include/parallax/window.h): bytes sent over a time range, per time column and
// task, and between nodes and tasks, read from each thread's send index (by logical send time).
#include <fmt/format.h>

#include <algorithm>

#include "include/parallax/window.h"
#include "src/semantic/evaluator.h"
#include "src/session/guard.h"
#include "src/session/trace_impl.h"

namespace parallax {
namespace {

constexpr uint32_t kMaxBuckets = 100000;
constexpr uint64_t kMaxTaskCells = 4u << 20;  // tasks x buckets of the per-task series
constexpr uint32_t kMaxMatrixNodes = 512;

Result<Traffic> CommTrafficUnguarded(const Trace& trace, const TrafficRequest& req) {
  const auto& impl = static_cast<const session::TraceImpl&>(trace);
  const model::TraceHeader& h = impl.header();
  const store::TraceStore& st = impl.store();
  if (req.buckets == 0 || req.buckets > kMaxBuckets)
    return Status::Error(fmt::format("{} time columns asked for", req.buckets), {session::PathOf(trace), 0, 0},
                         fmt::format("ask for 1 to {}", kMaxBuckets));
  auto span = TraceRange(trace, req.from, req.to);
  if (!span.ok()) return span.status();
  Traffic out;
  out.from = span->from;
  out.to = span->to;
  const uint32_t tasks = h.processes.tasks();
  const uint32_t nodes = h.resources.nodes();
  out.total.assign(req.buckets, 0.0);
  const bool per_task = uint64_t{tasks} * req.buckets <= kMaxTaskCells;
  for (uint32_t t = 0; t < tasks; ++t)
    out.tasks.push_back(semantic::ObjectName(h, model::Level::kTask, t));
  if (per_task) out.bytes.assign(tasks, std::vector<double>(req.buckets, 0.0));
  const bool node_matrix = nodes > 0 && nodes <= kMaxMatrixNodes;
  if (node_matrix) {
    for (uint32_t n = 0; n < nodes; ++n) out.nodes.push_back(semantic::ObjectName(h, model::Level::kNode, n));
    out.node_bytes.assign(nodes, std::vector<double>(nodes, 0.0));
    out.node_messages.assign(nodes, std::vector<uint64_t>(nodes, 0));
  }
  const bool task_matrix = tasks <= req.max_task_matrix;
  if (task_matrix) {
    out.task_bytes.assign(tasks, std::vector<double>(tasks, 0.0));
    out.task_messages.assign(tasks, std::vector<uint64_t>(tasks, 0));
  }
  const store::CommTable& c = st.comms();
  // The node a side ran on: its cpu's node, else its task's node from the header (1-based, 0 = none).
  auto node_of = [&](uint32_t thread, uint16_t cpu) -> int64_t {
    if (cpu > 0 && cpu <= h.resources.cpus()) return h.resources.NodeOfCpu(model::CpuId(cpu)).value;
    uint32_t n = h.processes.task(h.processes.thread(model::ThreadIndex(thread)).task).node;
    return n > 0 && n <= nodes ? int64_t{n} - 1 : -1;
  };
  const double width = static_cast<double>(out.to - out.from);
  for (uint32_t th = 0; th < st.threads(); ++th) {
    const auto& sent = st.Sent(model::ThreadIndex(th));
    auto first = std::partition_point(sent.begin(), sent.end(), [&](uint32_t id) { return c.log_send[id] < out.from; });
    const uint32_t task = h.processes.thread(model::ThreadIndex(th)).task.value;
    for (auto it = first; it != sent.end() && c.log_send[*it] < out.to; ++it) {
      const uint32_t id = *it;
      const double bytes = static_cast<double>(c.size[id]);
      auto b = static_cast<uint32_t>(static_cast<double>(c.log_send[id] - out.from) / width * req.buckets);
      b = std::min(b, req.buckets - 1);
      out.total[b] += bytes;
      if (per_task) out.bytes[task][b] += bytes;
      ++out.messages;
      const uint32_t rtask = h.processes.thread(model::ThreadIndex(c.receiver[id])).task.value;
      if (task_matrix) {
        out.task_bytes[task][rtask] += bytes;
        ++out.task_messages[task][rtask];
      }
      if (node_matrix) {
        int64_t sn = node_of(th, c.sender_cpu[id]), rn = node_of(c.receiver[id], c.receiver_cpu[id]);
        if (sn >= 0 && rn >= 0) {
          out.node_bytes[sn][rn] += bytes;
          ++out.node_messages[sn][rn];
        }
      }
    }
  }
  return out;
}

}  // namespace

Result<Traffic> CommTraffic(const Trace& trace, const TrafficRequest& request) {
  return session::GuardedOn(trace, session::PathOf(trace), [&]() -> Result<Traffic> { return CommTrafficUnguarded(trace, request); });
}

}  // namespace parallax
