#include "src/io/prv/prv_checks.h"

#include <fmt/format.h>

namespace parallax::io {

std::string NodeCountRule(uint64_t nodes) {
  return nodes > kMaxHeaderObjects ? fmt::format("at most {} nodes", kMaxHeaderObjects) : "";
}

std::string NodeCpuCountRule(uint64_t node, uint64_t cpus) {
  return cpus > kMaxHeaderCpus ? fmt::format("at most {} cpus on node {}", kMaxHeaderCpus, node) : "";
}

std::string CpuTotalRule(uint64_t cpus) {
  return cpus > kMaxHeaderCpus ? fmt::format("at most {} cpus in all", kMaxHeaderCpus) : "";
}

std::string ApplCountRule(uint64_t appls) {
  if (appls == 0) return "at least one application";
  return appls > kMaxHeaderAppls ? fmt::format("at most {} applications", kMaxHeaderAppls) : "";
}

std::string TaskCountRule(uint64_t appl, uint64_t tasks) {
  if (tasks == 0) return "at least one task per application";
  return tasks > kMaxHeaderObjects ? fmt::format("at most {} tasks in application {}", kMaxHeaderObjects, appl) : "";
}

std::string ThreadCountRule(uint64_t appl, uint64_t task, uint64_t threads) {
  if (threads == 0) return "at least one thread per task";
  return threads > kMaxHeaderObjects
             ? fmt::format("at most {} threads in task {}.{}", kMaxHeaderObjects, appl, task)
             : "";
}

std::string ThreadTotalRule(uint64_t threads) {
  return threads > kMaxHeaderObjects ? fmt::format("at most {} threads in all", kMaxHeaderObjects) : "";
}

std::string TaskNodeRule(const model::ResourceModel& resources, uint64_t appl, uint64_t task, uint64_t node) {
  if (resources.empty() || (node >= 1 && node <= resources.nodes())) return "";
  return fmt::format("task {}.{} runs on node {}, but the header declares {} nodes", appl, task, node,
                     resources.nodes());
}

std::optional<RecordProblem> CheckRecordCpu(const model::TraceHeader& h, uint64_t cpu, model::ThreadIndex thread) {
  if (cpu > h.resources.cpus())
    return RecordProblem{DiagKind::kCpuOutOfRange,
                         fmt::format("cpu {} does not exist (the header declares {})", cpu, h.resources.cpus())};
  if (cpu == 0) return std::nullopt;
  const uint32_t node = h.resources.NodeOfCpu(model::CpuId(static_cast<uint32_t>(cpu))).value + 1;
  const model::TaskIndex task = h.processes.thread(thread).task;
  const uint32_t task_node = h.processes.task(task).node;
  if (node == task_node) return std::nullopt;
  return RecordProblem{DiagKind::kCpuWrongNode,
                       fmt::format("cpu {} is on node {} but task {} runs on node {}", cpu, node,
                                   model::DefaultTaskLabel(h.processes, task), task_node)};
}

}  // namespace parallax::io
