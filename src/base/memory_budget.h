#pragma once
// How much memory a load may use. Readers compare what an input needs (inflated text held at
// once, record columns) with a budget and fail with a clear error instead of running out.

#include <cstdint>
#include <string>

namespace parallax::base {

// The default budget: 3/4 of the physical memory, or of the address-space limit (`ulimit -v`)
// or of the memory limit of the process' cgroup (a batch job's, cgroup_memory.h) when smaller.
uint64_t DefaultMemoryBudget();

// `budget`, or the default when it is 0.
inline uint64_t EffectiveMemoryBudget(uint64_t budget) {
  return budget != 0 ? budget : DefaultMemoryBudget();
}

// "1.5 GiB", "640 KiB", "12 bytes": sizes in messages.
std::string FormatBytes(uint64_t bytes);

}  // namespace parallax::base
