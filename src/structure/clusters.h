#pragma once
// Clusters of computation bursts (docs/structure.md): bursts as points — log10 of their
// instructions and their IPC when the trace has both counters, else log10 of their duration —
// grouped by DBSCAN (dbscan.h), as BSC's clustering suite does. Parameters are chosen from the
// data unless given: the shortest bursts, together under 1% of the computing time, are left out
// ("duration filtered"); min_points grows with the bursts; epsilon is the knee of the
// min_points-distance curve. Clusters are numbered by their total time, the longest first;
// the event values follow the suite's (clusters.h kClusterEvent*).

#include <cstdint>
#include <string>
#include <vector>

#include "src/structure/bursts.h"

namespace parallax::structure {

// The suite's event type and values: cluster k (0-based) is written as k + kClusterValueFirst.
inline constexpr uint32_t kClusterEventType = 90000001;
inline constexpr int64_t kClusterValueEnd = 0;
inline constexpr int64_t kClusterValueMissing = 1;
inline constexpr int64_t kClusterValueDurationFiltered = 2;
inline constexpr int64_t kClusterValueNoise = 5;
inline constexpr int64_t kClusterValueFirst = 6;

inline constexpr int32_t kLabelNoise = -1;
inline constexpr int32_t kLabelFiltered = -2;
inline constexpr int32_t kLabelMissing = -3;  // clustered with counters, but it has none

struct ClusterOptions {
  double eps = 0;            // in normalised units; 0: the knee of the data
  uint32_t min_points = 0;   // 0: from the number of bursts
  int64_t min_duration = -1;  // trace units; -1: the 1% rule
  bool use_counters = true;  // false: duration only, even with counters
};

struct ClusterSummary {
  uint64_t bursts = 0;
  Time total = 0;              // summed durations
  double mean_duration = 0;    // trace units
  double mean_instructions = -1;  // -1 without counters
  double mean_ipc = -1;
  std::vector<Time> time_by_thread;  // per global thread (empty entries are 0)
};

struct Clustering {
  std::vector<int32_t> label;  // per burst: a cluster (0-based), kLabelNoise, kLabelFiltered, kLabelMissing
  std::vector<ClusterSummary> clusters;  // by total time, the longest first
  ClusterSummary noise, filtered, missing;
  std::string features;  // "log10(instructions), IPC" or "log10(duration)"
  double eps = 0;
  uint32_t min_points = 0;
  Time min_duration = 0;  // bursts shorter than this were filtered
  bool counters = false;  // clustered with counters
};

Clustering ClusterBursts(const BurstTable& table, uint32_t threads, const ClusterOptions& options = {});

// The suite's event value of a burst's label.
inline int64_t ClusterEventValue(int32_t label) {
  return label >= 0                 ? label + kClusterValueFirst
         : label == kLabelFiltered ? kClusterValueDurationFiltered
         : label == kLabelMissing  ? kClusterValueMissing
                                   : kClusterValueNoise;
}

}  // namespace parallax::structure
