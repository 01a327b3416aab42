#include "src/semantic/row_cost.h"

namespace parallax::semantic {

uint64_t ThreadCost(const store::TraceStore& store, uint32_t thread) {
  if (thread >= store.threads()) return 0;
  return store.StateCount(model::ThreadIndex(thread)) + store.EventCount(model::ThreadIndex(thread));
}

namespace {

uint64_t ThreadsCost(const store::TraceStore& store, uint32_t first, uint32_t count) {
  uint64_t cost = 0;
  for (uint64_t t = first; t < uint64_t{first} + count && t < store.threads(); ++t)
    cost += ThreadCost(store, static_cast<uint32_t>(t));
  return cost;
}

}  // namespace

std::vector<uint64_t> RowCosts(const model::TraceHeader& header, const store::TraceStore& store,
                               model::Level level, const std::vector<uint32_t>& objects) {
  const model::ProcessModel& pm = header.processes;
  std::vector<uint64_t> cost(objects.size(), 0);
  for (size_t i = 0; i < objects.size(); ++i) {
    const uint32_t o = objects[i];
    switch (level) {
      case model::Level::kThread:
        cost[i] = ThreadsCost(store, o, 1);
        break;
      case model::Level::kTask:
        if (o < pm.tasks()) {
          const model::TaskInfo& task = pm.task(model::TaskIndex(o));
          cost[i] = ThreadsCost(store, task.first_thread.value, task.threads);
        }
        break;
      case model::Level::kAppl:
        if (o < pm.appls()) {
          const model::ApplInfo& a = pm.appl(model::ApplIndex(o));
          for (uint32_t t = 0; t < a.tasks; ++t) {
            const model::TaskInfo& task = pm.task(model::TaskIndex(a.first_task.value + t));
            cost[i] += ThreadsCost(store, task.first_thread.value, task.threads);
          }
        }
        break;
      case model::Level::kWorkload:
        cost[i] = ThreadsCost(store, 0, static_cast<uint32_t>(store.threads()));
        break;
      case model::Level::kSystem:
      case model::Level::kNode:
      case model::Level::kCpu:
        cost[i] = 1;
        break;
    }
  }
  return cost;
}

}  // namespace parallax::semantic
