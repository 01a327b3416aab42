#pragma once
// A window's values for every object as flat columns, and a trace's records as columns: the
// shape scripts and the Python module want (one array per field, no text to parse).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "include/parallax/status.h"
#include "include/parallax/trace.h"

namespace parallax {

// Which window: a cfg (its last window, or the one named `window`), or one thread function
// at thread level (`thread_function`, default "State As Is", with `parameters` as its first
// parameter), as in TextRequest.
struct WindowRequest {
  std::string cfg_path;
  std::string cfg_text;  // the cfg's content instead of reading cfg_path
  std::string window;
  std::string thread_function;
  std::vector<double> parameters;
  // Trace units; default: the window's own range (the whole trace for most cfgs).
  std::optional<uint64_t> from, to;
  unsigned threads = 0;  // objects evaluated in parallel; 0 = all cores
  double time_limit = 0;  // seconds of computing allowed; 0 = no limit
  uint64_t memory_limit = 0;  // bytes the intervals may hold; 0 = no limit
  // Evaluate at another level than the window's own (a cfg's `window_level` name: thread,
  // task, appl, workload, cpu, node, system; case-insensitive); empty: the window's level.
  // Not for derived windows.
  std::string level;
};

// Every interval of every object of the window's level, in object order then time order:
// from the interval containing `from` up to the first one whose end reaches `to`, zero-length
// intervals included -- exactly the rows paramedir dumps for the window (analysis.md §8.3).
struct WindowIntervals {
  std::string window;     // the window's name
  std::string level;      // THREAD, TASK, APPL, WORKLOAD, CPU, NODE or SYSTEM
  std::string info_type;  // what the values mean (semantics.md §10): state, event value, ...
  std::string time_unit;  // of begin/end: the trace's unit (ns, us, ms)
  // Of the values, from the info type: the window's time unit for times (ns, us, ms, s, ...),
  // "bytes", a bandwidth ("GB/sec"), what they identify ("state", "event value", "task", ...),
  // or "number" when the functions say nothing (flags, counts, ratios).
  std::string unit;
  uint64_t from = 0, to = 0;                // the range evaluated
  std::vector<std::string> object_names;    // per object of the level: "THREAD 1.1.1", ...
  std::vector<uint32_t> object;             // per interval: 0-based object index
  std::vector<uint64_t> begin, end;         // per interval, trace units
  std::vector<double> value;                // per interval
};

Result<WindowIntervals> EvaluateWindow(const Trace& trace, const WindowRequest& request);

// The records of a trace as columns (threads 0-based, in the .row/process-model order; cpus
// 1-based, 0 = none). Event records are type:value pairs; a state's end is UINT64_MAX when the
// trace left it open (-1).
struct TraceRecords {
  std::vector<std::string> thread_names;  // "THREAD 1.1.1", ...
  struct States {
    std::vector<uint32_t> thread;
    std::vector<uint64_t> begin, end;
    std::vector<uint32_t> state;
    std::vector<uint16_t> cpu;
  } states;
  struct Events {
    std::vector<uint32_t> thread;
    std::vector<uint64_t> time;
    std::vector<uint32_t> type;
    std::vector<int64_t> value;
    std::vector<uint16_t> cpu;
  } events;
  struct Comms {
    std::vector<uint32_t> sender, receiver;
    std::vector<uint64_t> log_send, phy_send, log_recv, phy_recv;
    std::vector<int64_t> size, tag;
  } comms;
};

Result<TraceRecords> Records(const Trace& trace);

// The names of the trace's threads ("THREAD 1.1.1" or the .row's labels), in thread order, as
// TraceRecords::thread_names gives them, without reading any record.
std::vector<std::string> ThreadNames(const Trace& trace);

// Point-to-point traffic of a time range (PROVE's communication-over-time view and host
// matrix): every communication whose logical send time is in [from, to) counts once, by its
// size in bytes. Over time: `buckets` equal columns of the range, per task and in total. Matrix:
// sender node x receiver node (the node of the cpu each side ran on; the task's node when the
// record has no cpu), and task x task when the trace has at most `max_task_matrix` tasks.
// Work: O(threads x log(comms) + communications in the range).
struct TrafficRequest {
  std::optional<uint64_t> from, to;  // trace units; default: the whole trace
  uint32_t buckets = 100;            // 1..100000
  uint32_t max_task_matrix = 64;
};
struct Traffic {
  uint64_t from = 0, to = 0;
  std::vector<std::string> tasks;          // "TASK 1.1", ...
  std::vector<std::vector<double>> bytes;  // [task][bucket], bytes sent
  std::vector<double> total;               // [bucket]
  uint64_t messages = 0;
  std::vector<std::string> nodes;          // "NODE 1", ... (empty without resources)
  std::vector<std::vector<double>> node_bytes;      // [sender node][receiver node]
  std::vector<std::vector<uint64_t>> node_messages;
  std::vector<std::vector<double>> task_bytes;      // [sender task][receiver task]; empty when too many tasks
  std::vector<std::vector<uint64_t>> task_messages;
};
Result<Traffic> CommTraffic(const Trace& trace, const TrafficRequest& request);

// Processor utilisation of a time range (PROVE's processor view): for every cpu, the time in
// [from, to) that the threads which ran on it spent Running (state 1) there, read from the
// threads' state records and the cpu each record names, whatever window is shown. Work:
// O(state records).
struct CpuUtilisation {
  uint64_t from = 0, to = 0;
  std::vector<std::string> cpus;  // "CPU 1.1", ... (empty: the trace has no resource model)
  std::vector<uint64_t> running;  // per cpu, trace units
  std::vector<uint32_t> threads;  // per cpu, the number of threads that ran there in the range
};
Result<CpuUtilisation> UtilisationOfCpus(const Trace& trace, std::optional<uint64_t> from,
                                         std::optional<uint64_t> to);

}  // namespace parallax
