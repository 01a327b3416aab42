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

// One thread's counters: reads the counts since its previous reading.
class ThreadCounters {
 public:
  virtual ~ThreadCounters() = default;
  // Fills deltas[i] for every counter; false when the read failed (nothing to record).
  virtual bool Read(int64_t* deltas) = 0;
};

// The process's counter set, chosen once at start.
class Counters {
 public:
  // `spec`: PXT_COUNTERS ("" = the default PAPI_TOT_INS,PAPI_TOT_CYC; "none" = off;
  // "synthetic" = test counters). On failure the set is empty and `notice` says why.
  static Counters Init(const std::string& spec, std::string* notice);

  bool enabled() const { return !defs_.empty(); }
  const std::vector<CounterDef>& defs() const { return defs_; }
  // Counters of the calling thread, started now; nullptr when they cannot be started (and
  // `notice` says why, the first time).
  std::unique_ptr<ThreadCounters> StartThread(std::string* notice) const;

 private:
  std::vector<CounterDef> defs_;
  bool synthetic_ = false;
};

// A short description of each counter type for the .pcf ("PAPI_TOT_INS [Instr completed]").
std::string CounterLabel(const CounterDef& def);

}  // namespace parallax::tracing
