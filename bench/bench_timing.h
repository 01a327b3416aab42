#pragma once
// Timing helpers of the benchmark programs: the best thread-cpu and wall time of repeated runs.

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <ctime>

namespace parallax::bench {

inline double ThreadCpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// The process's peak resident memory so far, in MiB (ru_maxrss: KiB on Linux).
inline double PeakRssMiB() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

struct Best {
  double cpu = 1e300, wall = 1e300;
};

// Runs f(), keeps its cpu (this thread's) and wall times in `best` when they are lower, and
// returns its result.
template <typename F>
auto Timed(Best& best, F&& f) {
  const auto start = std::chrono::steady_clock::now();
  const double cpu = ThreadCpuSeconds();
  auto result = f();
  best.cpu = std::min(best.cpu, ThreadCpuSeconds() - cpu);
  best.wall = std::min(best.wall, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return result;
}

}  // namespace parallax::bench
