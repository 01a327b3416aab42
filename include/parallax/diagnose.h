#pragma once
// Diagnosis of an MPI trace (docs/diagnose.md): Scalasca's wait-state patterns (Late Sender,
// Late Receiver, Wait at Barrier, Wait at NxN, Late Broadcast, Early Reduce, Wait at Finalize),
// the critical path and its profile, computed in one pass over the trace's MPI calls and
// messages (../shared/spec/waitstates.md states the rules), and their text, csv and json
// renderings.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "include/parallax/status.h"
#include "include/parallax/trace.h"

namespace parallax {

struct DiagnoseOptions {
  // The portion reported, in trace units: wait states are counted by the part of their waiting
  // that falls in it, the critical path is the whole run's path clipped to it. None: all.
  std::optional<TimeSpan> range;
  // Collectives whose sizes are not recorded: false counts them as carrying data (their wait
  // states are computed), true as carrying none (no wait state), the strict reading.
  bool strict_sizes = false;
  size_t worst = 10;  // the worst instances kept per pattern
  bool instances = true;  // fill Diagnosis::instances (every instance; the worst are always kept)
  size_t max_instances = 0;  // > 0: only that many, the longest (Diagnosis::instances_limited)
};

// One wait state: the part of an MPI call a rank spent waiting for another.
struct WaitStateInstance {
  std::string pattern;  // "late_sender", ...
  uint32_t rank = 0;    // index into Diagnosis::ranks
  std::string call;     // "MPI_Recv"
  double begin_s = 0;   // the call's entry (the waiting starts there)
  double wait_s = 0;    // within the range
  double call_s = 0;    // the call's duration
  int64_t culprit_rank = -1;  // -1: unknown
  std::string culprit_call;   // "" when the culprit's time is in no call
  double culprit_s = 0;       // the culprit's entry the rank waited for
  uint64_t begin = 0, wait = 0, culprit = 0;  // the same in trace units (wait: the whole wait)
  bool wrong_order = false;   // Late Sender: an earlier-sent message was received later
  // The root cause: the culprit's activity ("computation" or "MPI") in which it spent the most
  // time more than this rank since they last synchronised, and by how much.
  std::string cause;
  double cause_delay_s = 0;
  // ... the phase of the main loop where the culprit's computation exceeded the waiter's most
  // ("" without phases or when the excess is outside them), as Diagnosis::phases names it.
  std::string cause_phase;
};

// Waiting charged to one activity of one rank (docs/diagnose.md, "Root causes").
struct RootCause {
  uint32_t rank = 0;
  std::string activity;     // "computation" or "MPI"
  std::string phase;        // computation: the phase of the main loop ("" outside every phase)
  double short_term_s = 0;  // the waiting it caused directly
  double long_term_s = 0;   // ... and through the waits that propagated it
};

struct PatternSummary {
  std::string key;          // "late_sender"
  std::string name;         // "Late Sender"
  std::string group;        // "point-to-point", "collective"
  std::string description;
  double time_s = 0;        // summed over ranks
  uint64_t count = 0;       // instances: (rank, call) pairs with a waiting time
  uint64_t operations = 0;  // messages or collective operations in which some rank waited
  std::vector<double> by_rank_s;
  double completion_s = 0;  // barrier and NxN: time from the first member's exit to each exit
  // Late Sender only: the part caused by messages received in the wrong order.
  double wrong_order_s = 0;
  uint64_t wrong_order_count = 0;
  std::vector<WaitStateInstance> worst;  // the longest first
};

struct CriticalPathSegmentInfo {
  uint32_t rank = 0;
  double begin_s = 0, end_s = 0;
  uint64_t begin = 0, end = 0;  // trace units
};

struct ActivityOnPath {
  std::string name;         // "computation" or an MPI call's name
  double path_s = 0;        // time of the activity on the critical path
  double mean_s = 0;        // mean time per rank in the activity over the same span, waiting excluded
  double imbalance_s = 0;   // max(0, path - mean): what balancing it would at most save
};
// The performance impact of one activity (docs/diagnose.md, "Performance impact"), in
// rank-seconds: what it consumes itself and the share of all waiting its imbalance on the
// critical path is charged with.
struct ActivityImpact {
  std::string name;
  bool on_path = false;     // a critical-path activity
  uint32_t ranks = 0;       // ranks with time in it over the span (its partition)
  double busy_s = 0;        // its time summed over ranks, waiting excluded (activity impact)
  double intra_s = 0;       // imbalance indicator within its partition: max(0, path - busy / ranks)
  double inter_s = 0;       // the rest of ActivityOnPath::imbalance_s: ranks that do not run it
  double imbalance_impact_s = 0;  // waiting charged to it, in proportion to its imbalance
  double intra_impact_s = 0, inter_impact_s = 0;  // that charge split like intra_s : inter_s
  double impact_s = 0;      // busy_s + imbalance_impact_s
};
struct PerformanceImpact {
  double total_s = 0;       // ranks x the path's span: every rank-second of the span
  double waiting_s = 0;     // in wait states over the span, summed over ranks
  double critical_path_activities_s = 0;      // impact of the activities on the path
  double activity_impact_s = 0;               // ... their own time
  double imbalance_impact_s = 0;              // ... the waiting charged to their imbalance
  double intra_partition_s = 0, inter_partition_s = 0;  // ... split
  double non_critical_path_activities_s = 0;  // the time of activities never on the path
  double unattributed_s = 0;  // waiting when no activity on the path is imbalanced
  std::vector<ActivityImpact> activities;  // largest impact first
};

struct CriticalPathInfo {
  double begin_s = 0, end_s = 0, length_s = 0;  // within the range
  bool ends_at_finalize = false;
  std::vector<double> by_rank_s;
  std::vector<ActivityOnPath> activities;  // largest path time first
  std::vector<std::pair<std::string, uint64_t>> jumps;  // per pattern key
  uint64_t clamped_jumps = 0;
  std::vector<CriticalPathSegmentInfo> segments;
  PerformanceImpact impact;
};

struct Diagnosis {
  std::string trace;
  std::vector<std::string> ranks;  // task labels ("1.3"), in rank order
  std::vector<uint32_t> rank_tasks, rank_threads;  // each rank's task and (MPI) thread, 0-based
  double begin_s = 0, end_s = 0;   // the range reported
  std::vector<double> mpi_s;       // per rank: time in MPI calls within the range
  std::vector<PatternSummary> patterns;  // the spec's order
  std::vector<WaitStateInstance> instances;  // every instance in the range, by rank and time
  bool instances_limited = false;            // only the longest DiagnoseOptions::max_instances
  CriticalPathInfo critical_path;
  std::vector<RootCause> root_causes;  // largest long-term cost first
  // The phases of the main loop the root causes are named by (docs/structure.md): a phase is
  // the computation between two MPI calls of an iteration, named
  // "phase <position> (<call before it> .. <call after it>)".
  std::vector<std::string> phases;
  // OpenMP (traces with Extrae's OpenMP events): the threads of the tasks that have them
  // ("1.1.2"), and two patterns whose by_rank_s are per such thread: wait_at_omp_barrier (a
  // thread waits in a barrier for the last of its team) and omp_idle_threads (the workers of a
  // task while its master runs outside parallel regions).
  std::vector<std::string> omp_threads;
  std::vector<PatternSummary> omp_patterns;
  uint64_t omp_barriers_analysed = 0;
  double unexplained_s = 0;            // waiting whose culprit shows no excess
  // Counts of what was analysed, and of what was not, with why.
  uint64_t mpi_events = 0;
  uint64_t messages = 0;
  uint64_t unbound_messages = 0;   // send or completion in no MPI call
  uint64_t backward_messages = 0;  // received before sent: the clocks are broken
  uint64_t clock_violations = 0;
  uint64_t collectives_analysed = 0;
  struct Skipped {
    std::string reason;
    uint64_t count = 0;
    std::string first;  // where the first one is: "rank 1.3, MPI_Allreduce at 0.123456 s"
  };
  std::vector<Skipped> skipped;  // collective instances not analysed, by reason
  std::string first_unbound;     // where the first unbound message is
  uint64_t stray_closes = 0, nested_opens = 0, truncated_calls = 0, other_thread_calls = 0;
  std::vector<std::string> notes;  // what the user should know (no MPI events, broken clocks)
};

Result<Diagnosis> Diagnose(const Trace& trace, const DiagnoseOptions& options = {});

std::string FormatDiagnosisText(const Diagnosis& d);
std::string FormatDiagnosisCsv(const Diagnosis& d);  // one line per pattern and rank
std::string FormatDiagnosisJson(const Diagnosis& d);

}  // namespace parallax
