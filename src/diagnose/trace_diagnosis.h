#pragma once
// The diagnosis of one loaded trace, computed once on first use and shared by everything that
// reads it: the semantic functions of the diagnosis ("MPI Wait Time", "MPI Wait Pattern", "On
// Critical Path", docs/functions.md) look up the MPI call or computation burst at a time.

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "src/calls/call_table.h"
#include "src/diagnose/critical_path.h"
#include "src/diagnose/delay_costs.h"
#include "src/diagnose/omp_waits.h"
#include "src/diagnose/wait_states.h"
#include "src/structure/iterations.h"
#include "src/structure/phases.h"

namespace parallax::diagnose {

class TraceDiagnosis {
 public:
  TraceDiagnosis(const model::TraceHeader& header, const store::TraceStore& store,
                 const model::PcfCatalog* pcf, const WaitStateOptions& options = {});

  const calls::CallTable& table() const { return table_; }
  const WaitStates& waits() const { return waits_; }
  const CriticalPath& path() const { return path_; }
  const DelayCosts& costs() const { return costs_; }
  // The phases of the main loop the root causes are named by (none without one).
  const structure::Phases& phases() const { return phases_; }
  const OmpWaits& omp() const { return omp_; }

  // The waiting of the MPI call that `thread` runs at time t (entry <= t < exit), and its
  // pattern; null when it runs none or that call did not wait.
  const WaitInstance* WaitAt(uint32_t thread, Time t) const;
  // The share of the MPI call or computation burst `thread` runs at t (bursts: from a call's
  // exit to the next call's entry) that lies on the critical path, 0..1.
  double PathShareAt(uint32_t thread, Time t) const;

 private:
  calls::CallTable table_;
  WaitStates waits_;
  CriticalPath path_;
  structure::Phases phases_;
  DelayCosts costs_;
  OmpWaits omp_;
  std::vector<std::vector<PathSegment>> segments_of_rank_;  // in time order
};

// A trace's diagnosis, computed by the first Get() (thread-safe); an exception thrown while
// computing it (a damaged cache) reaches that caller and the next Get() tries again.
class LazyDiagnosis {
 public:
  LazyDiagnosis(const model::TraceHeader* header, const store::TraceStore* store,
                const model::PcfCatalog* pcf)
      : header_(header), store_(store), pcf_(pcf) {}
  const TraceDiagnosis& Get() const;
  // The diagnosis when a Get() computed it already; null otherwise (nothing is computed).
  const TraceDiagnosis* IfReady() const { return ready_.load(std::memory_order_acquire); }

 private:
  const model::TraceHeader* header_;
  const store::TraceStore* store_;
  const model::PcfCatalog* pcf_;
  mutable std::mutex mutex_;
  mutable std::unique_ptr<TraceDiagnosis> value_;
  mutable std::atomic<const TraceDiagnosis*> ready_{nullptr};  // value_ once computed
};

}  // namespace parallax::diagnose
