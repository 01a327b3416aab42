#pragma once
// The memory limit of the control group this process runs in: what a batch scheduler (Slurm,
// a container runtime) lets a job use, often far below the machine's memory. The default memory
// budget (memory_budget.h) takes it into account.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace parallax::base {

// The smallest memory limit along this process' cgroup path, from the cgroup's own up to the
// root, of cgroup v2 (memory.max, under /sys/fs/cgroup or the hybrid /sys/fs/cgroup/unified) or
// v1 (memory.limit_in_bytes under /sys/fs/cgroup/memory); UINT64_MAX when there is none.
// `self_cgroup` is the text of /proc/self/cgroup and `read` returns a file's text (nothing when
// it cannot be read).
uint64_t CgroupMemoryLimit(std::string_view self_cgroup,
                           const std::function<std::optional<std::string>(const std::string& path)>& read);
// The same for this process.
uint64_t CgroupMemoryLimit();

}  // namespace parallax::base
