#include "src/replay/predicted_trace.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "src/base/parallel.h"
#include "src/store/block_reader.h"

namespace parallax::replay {

namespace {

// A replayed time as a trace time: rounded, and kept inside the range a trace time can have
// (absurd CPU ratios can push replayed times beyond it).
Time ToTime(double v) {
  constexpr double kLargest = 9.0e18;  // below INT64_MAX and model::kNoEnd
  if (!(v > 0)) return 0;
  return v >= kLargest ? static_cast<Time>(kLargest) : static_cast<Time>(std::llround(v));
}

// Maps original times of one thread to replayed times through its anchors.
class TimeMap {
 public:
  explicit TimeMap(const std::vector<Anchor>* anchors) : anchors_(anchors) {}

  Time operator()(Time t) const {
    if (anchors_ == nullptr || anchors_->empty()) return t;
    const std::vector<Anchor>& a = *anchors_;
    auto it = std::upper_bound(a.begin(), a.end(), t,
                               [](Time v, const Anchor& x) { return v < x.original; });
    if (it == a.begin()) return Round(a.front().replayed);  // before the first anchor (time 0)
    const Anchor& lo = *(it - 1);
    if (it == a.end()) return Round(lo.replayed + static_cast<double>(t - lo.original));
    const Anchor& hi = *it;
    const double f =
        static_cast<double>(t - lo.original) / static_cast<double>(hi.original - lo.original);
    return Round(lo.replayed + f * (hi.replayed - lo.replayed));
  }

 private:
  static Time Round(double v) { return ToTime(v); }
  const std::vector<Anchor>* anchors_;
};

}  // namespace

const std::vector<Anchor>* PredictedTimes::AnchorsOf(uint32_t thread) const {
  const Program& p = *program_;
  const int32_t i = thread < p.process_of_thread.size() ? p.process_of_thread[thread] : -1;
  return i < 0 ? nullptr : &p.processes[static_cast<size_t>(i)].anchors;
}

model::Time PredictedTimes::Thread(uint32_t thread, model::Time t) const {
  return TimeMap(AnchorsOf(thread))(t);
}

std::array<model::Time, 4> PredictedTimes::Comm(const store::CommTable& c, size_t id) const {
  const TimeMap send(AnchorsOf(c.sender[id])), recv(AnchorsOf(c.receiver[id]));
  const Time phy_send = send(c.phy_send[id]);
  return {send(c.log_send[id]), phy_send, recv(c.log_recv[id]),
          std::max(recv(c.phy_recv[id]), phy_send)};
}

PredictedTrace BuildPredictedTrace(const model::TraceHeader& header,
                                   const store::TraceStore& original, const Program& program,
                                   unsigned worker_threads) {
  PredictedTrace out{header, PredictedTimes(program)};
  // A thread's times map through a non-decreasing function, so its latest replayed time is
  // that of its latest original one.
  const uint32_t threads = static_cast<uint32_t>(original.threads());
  std::vector<Time> thread_end(threads, 0);
  base::ParallelFor(threads, worker_threads, [&](size_t i) {
    const model::ThreadIndex t(static_cast<uint32_t>(i));
    if (original.StateCount(t) + original.EventCount(t) == 0) return;
    thread_end[i] = out.times.Thread(t.value, store::LastRecordTime(original, t));
  });
  Time end = 0;
  for (Time e : thread_end) end = std::max(end, e);
  for (const Process& p : program.processes)
    if (!p.anchors.empty()) end = std::max(end, ToTime(p.anchors.back().replayed));
  out.header.end_time = end;
  return out;
}

}  // namespace parallax::replay
