#include "src/base/memory_budget.h"

#include "src/base/cgroup_memory.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>

#include <fmt/format.h>

namespace parallax::base {

uint64_t DefaultMemoryBudget() {
  uint64_t physical = UINT64_MAX;
  long pages = sysconf(_SC_PHYS_PAGES);
  long page = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) physical = static_cast<uint64_t>(pages) * static_cast<uint64_t>(page);
  struct rlimit lim {};
  if (getrlimit(RLIMIT_AS, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY)
    physical = std::min<uint64_t>(physical, lim.rlim_cur);
  physical = std::min(physical, CgroupMemoryLimit());
  if (physical == UINT64_MAX) return UINT64_MAX;
  return physical / 4 * 3;
}

std::string FormatBytes(uint64_t bytes) {
  constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
  if (bytes < 1024) return fmt::format("{} bytes", bytes);
  double v = static_cast<double>(bytes) / 1024;
  size_t u = 0;
  while (v >= 1024 && u + 1 < std::size(kUnits)) {
    v /= 1024;
    ++u;
  }
  return fmt::format("{:.1f} {}", v, kUnits[u]);
}

}  // namespace parallax::base
