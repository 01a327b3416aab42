#include "src/base/request_memory.h"

#include <fmt/format.h>

#include "src/base/memory_budget.h"

namespace parallax::base {

RequestMemoryExceeded::RequestMemoryExceeded(uint64_t limit_bytes)
    : std::runtime_error(fmt::format("the request needs more than its memory limit of {}", FormatBytes(limit_bytes))),
      limit_(limit_bytes) {}

}  // namespace parallax::base
