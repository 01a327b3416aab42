#pragma once
// Hardware counters read at every state change (PXT_COUNTERS): through PAPI when the library was
// built with it, or a synthetic source for tests. Each reading is recorded as events of Extrae's
// counter types (42000000 + the low 16 bits of a PAPI preset code, 42001000 + n for native
// events) whose values are the counts since the thread's previous reading, as Extrae writes
// them, so Paraver's IPC and instruction cfgs and `parallax pop` work on the trace.
//
// When counters cannot be read (no PAPI in the build, a virtual machine without a PMU, an
// unknown event name), the process records none and says so once: a notice on stderr and a
// line of the merge report. Tracing itself never fails because of counters.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace parallax::tracing {

struct CounterDef {
  std::string name;   // PAPI_TOT_INS, perf::..., as given
  uint32_t type = 0;  // the Paraver event type of its readings
  int code = 0;       // PAPI event code
};

// Extrae's event of the active counter set (value: the set's number, from 1), written when a
// thread starts and at every switch (PXT_COUNTER_SETS).
inline constexpr uint32_t kCounterSetType = 41999999;

// One thread's counters: reads the counts since its previous reading, of its active set.
class ThreadCounters {
 public:
  virtual ~ThreadCounters() = default;
  // Fills deltas[i] for every counter of the active set; false when the read failed.
  virtual bool Read(int64_t* deltas) = 0;
  // Makes `next` the active set, counting from now; false (the set unchanged) on failure.
  virtual bool Switch(size_t next) = 0;
  size_t set = 0;             // the active set (index in Counters::set)
  uint64_t bursts = 0;        // bursts ended since the last switch
  uint64_t switched_at = 0;   // time of the last switch (or of the thread's start)
  uint32_t depth = 0;         // states entered and not left (0: Running, in a burst)
};

// The process's counter set, chosen once at start.
class Counters {
 public:
  // `spec`: PXT_COUNTERS ("" = the default PAPI_TOT_INS,PAPI_TOT_CYC; "none" = off;
  // "synthetic" = test counters). `sets`: PXT_COUNTER_SETS ("A,B;C,D": sets switched over
  // time, replacing the list of `spec`, which then only says PAPI or "synthetic"). On failure
  // there is no counter and `notice` says why.
  static Counters Init(const std::string& spec, std::string* notice, const std::string& sets = "");

  bool enabled() const { return !defs_.empty(); }
  // Every counter of every set, once each (their types' labels).
  const std::vector<CounterDef>& defs() const { return defs_; }
  size_t num_sets() const { return sets_.size(); }
  const std::vector<CounterDef>& set(size_t k) const { return sets_[k]; }
  // Counters of the calling thread, started now; nullptr when they cannot be started (and
  // `notice` says why, the first time).
  std::unique_ptr<ThreadCounters> StartThread(std::string* notice) const;

 private:
  std::vector<CounterDef> defs_;
  std::vector<std::vector<CounterDef>> sets_;  // one set unless PXT_COUNTER_SETS
  bool synthetic_ = false;
};

// "Set 2 (PAPI_L1_DCM,PAPI_L2_DCM)": the label of value k + 1 of kCounterSetType.
std::string CounterSetLabel(const Counters& counters, size_t k);

// A short description of each counter type for the .pcf ("PAPI_TOT_INS [Instr completed]").
std::string CounterLabel(const CounterDef& def);

}  // namespace parallax::tracing
