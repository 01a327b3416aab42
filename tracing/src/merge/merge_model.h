#pragma once
// The merged trace in memory, between reading the per-process files and writing the .prv.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tracing/src/merge/merger.h"
#include "tracing/src/merge/pxt_reader.h"

namespace parallax::tracing {

struct OutState {
  int64_t begin, end;
  uint32_t state;
  uint32_t cpu;
};

struct OutEvent {
  int64_t time;
  uint32_t cpu;
  std::vector<std::pair<uint32_t, int64_t>> pairs;
};

struct OutThread {
  uint32_t task;    // 1-based
  uint32_t thread;  // 1-based within the task
  std::vector<OutState> states;
  std::vector<OutEvent> events;
};

struct OutComm {
  uint32_t send_thread, recv_thread;  // global, 0-based
  uint32_t send_cpu, recv_cpu;
  int64_t lsend, psend, lrecv, precv;
  uint64_t size;
  int64_t tag;
};

struct MergedTrace {
  std::vector<std::string> hosts;  // node i+1
  std::vector<int> node_cpus;
  std::vector<int> task_node;  // 1-based node of each task
  std::vector<std::string> task_labels;
  std::vector<uint32_t> task_threads;
  std::vector<OutThread> threads;
  std::vector<OutComm> comms;
  std::map<uint32_t, std::string> types;
  std::map<std::pair<uint32_t, int64_t>, std::string> values;
  std::map<uint32_t, std::string> states;
  std::vector<std::string> locations;  // global location id - 1 -> "file:line"
  // Communicator lines of the .prv header: id, 1-based tasks (id 1: all tasks, MPI_COMM_WORLD).
  std::vector<std::pair<int64_t, std::vector<uint32_t>>> communicators;
  std::map<uint32_t, uint64_t> used_types;
  int64_t end_time = 0;
};

// prv_output.cc: writes NAME.prv, NAME.pcf, NAME.row. Returns false with a message on I/O errors.
bool WriteParaverFiles(const MergedTrace& trace, const std::string& prv_path, std::string* error);
// The parts of it the streaming merge uses (it writes the .prv body itself): the .prv header
// line(s) (end time, resources, tasks, communicators; `states`, `events` and `comms` unused), and
// NAME.pcf and NAME.row.
std::string PrvHeader(const MergedTrace& trace);
bool WritePcfAndRow(const MergedTrace& trace, const std::string& prv_path, std::string* error);

// merger.cc: the merge of process files already read, into `out` (MergeTraceFiles reads the
// files, calls this and writes the result; the fuzz target, tests/fuzz/pxt_fuzz.cc, calls it on
// files it parsed). `options.inputs` and `options.output` are not used. False with a message
// when the files cannot make one trace.
bool MergeProcesses(std::vector<ProcessFile>* files, const MergeOptions& options, MergeReport* report,
                    MergedTrace* out, std::string* error);

}  // namespace parallax::tracing
