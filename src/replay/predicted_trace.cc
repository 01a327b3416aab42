#include "src/replay/predicted_trace.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "src/base/parallel.h"

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

PredictedTrace BuildPredictedTrace(const model::TraceHeader& header,
                                   const store::TraceStore& original, const Program& program,
                                   unsigned worker_threads) {
  PredictedTrace out{header, original};
  store::TraceStore& st = out.store;
  const uint32_t threads = static_cast<uint32_t>(st.threads());
  auto map_of = [&](uint32_t t) {
    const int32_t p = t < program.process_of_thread.size() ? program.process_of_thread[t] : -1;
    return TimeMap(p < 0 ? nullptr : &program.processes[p].anchors);
  };
  std::vector<Time> thread_end(threads, 0);
  base::ParallelFor(threads, worker_threads, [&](size_t i) {
    const uint32_t t = static_cast<uint32_t>(i);
    const TimeMap map = map_of(t);
    store::ThreadRecords& r = st.thread(model::ThreadIndex(t));
    Time end = 0;
    for (size_t k = 0; k < r.states.size(); ++k) {
      r.states.begin[k] = map(r.states.begin[k]);
      if (r.states.end[k] != model::kNoEnd) r.states.end[k] = map(r.states.end[k]);
      end = std::max(
          {end, r.states.begin[k], r.states.end[k] == model::kNoEnd ? 0 : r.states.end[k]});
    }
    for (size_t k = 0; k < r.events.size(); ++k) {
      r.events.time[k] = map(r.events.time[k]);
      end = std::max(end, r.events.time[k]);
    }
    thread_end[t] = end;
  });
  store::CommTable& c = st.comms();
  for (size_t i = 0; i < c.rows(); ++i) {
    const TimeMap send = map_of(c.sender[i]), recv = map_of(c.receiver[i]);
    c.log_send[i] = send(c.log_send[i]);
    c.phy_send[i] = send(c.phy_send[i]);
    c.log_recv[i] = recv(c.log_recv[i]);
    c.phy_recv[i] = std::max(recv(c.phy_recv[i]), c.phy_send[i]);
  }
  Time end = 0;
  for (Time e : thread_end) end = std::max(end, e);
  for (const Process& p : program.processes)
    if (!p.anchors.empty())
      end = std::max(end, ToTime(p.anchors.back().replayed));
  out.header.end_time = end;
  st.set_end_time(end);
  store::BuildCpuView(st, header.resources.cpus(), worker_threads);
  return out;
}

}  // namespace parallax::replay
