#pragma once
// The rules a Paraver header and its records obey, whatever file they come from: the .prv
// header line and body (prv_header_parser.cc, prv_body_parser.cc) and the header and records a
// trace-event JSON file written by Parallax carries (otherData.parallax, json/json_reader.cc)
// are checked by these same functions, so a crafted file of either kind is refused or reported
// the same way (a task on node 0, a record on a cpu the header does not declare).

#include <cstdint>
#include <optional>
#include <string>

#include "src/io/diagnostics.h"
#include "src/model/trace_header.h"

namespace parallax::io {

// Bounds of what a header declares: more than any real trace, small enough that nothing sized
// from them can exhaust memory.
inline constexpr uint64_t kMaxHeaderObjects = 1u << 20;  // nodes, tasks, threads, communicators
inline constexpr uint64_t kMaxHeaderCpus = 65535;        // cpu ids are 16-bit in Paraver
inline constexpr uint64_t kMaxHeaderAppls = 65535;

// Header rules. Each returns "" when the rule holds, else what the header should declare,
// worded to follow "expected " (as the .prv header parser words its errors).
std::string NodeCountRule(uint64_t nodes);
std::string NodeCpuCountRule(uint64_t node, uint64_t cpus);  // `node` is 1-based
std::string CpuTotalRule(uint64_t cpus);
std::string ApplCountRule(uint64_t appls);
std::string TaskCountRule(uint64_t appl, uint64_t tasks);
std::string ThreadCountRule(uint64_t appl, uint64_t task, uint64_t threads);
std::string ThreadTotalRule(uint64_t threads);
// "" when task `appl`.`task` may run on the 1-based `node` of `resources`, else what is wrong
// ("task 1.1 runs on node 0, but the header declares 1 nodes").
std::string TaskNodeRule(const model::ResourceModel& resources, uint64_t appl, uint64_t task, uint64_t node);

// A record that breaks a rule: it is counted under `kind` and skipped.
struct RecordProblem {
  DiagKind kind;
  std::string detail;
};

// Whether a record of thread `thread` may name `cpu` (0: no cpu): the cpu must exist and be on
// the node the thread's task runs on.
std::optional<RecordProblem> CheckRecordCpu(const model::TraceHeader& h, uint64_t cpu, model::ThreadIndex thread);

// What a state value or an event type outside 0..UINT32_MAX is reported as.
inline constexpr const char* kStateRangeProblem = "state must be a number in 0..4294967295";
inline constexpr const char* kEventTypeRangeProblem = "event type must be a number in 0..4294967295";

}  // namespace parallax::io
