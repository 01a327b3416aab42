#pragma once
// Reads one per-process trace file (`*.pxt`, record_format.h) back into decoded records and
// the process's metadata, for the merge.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tracing/src/record_format.h"

namespace parallax::tracing {

// One decoded record; `f` holds the kind's fields in record_format.h order (signed fields
// already un-zigzagged and stored as their two's complement).
struct RawRecord {
  uint64_t time;
  RecordKind kind;
  uint64_t f[6];
};

struct ProcessFile {
  std::string path;
  int rank = -1;  // -1: not an MPI process
  int size = 1;
  long pid = 0;
  int ncpus = 1;
  uint64_t start_time = 0;
  uint64_t end_time = 0;
  std::string host = "localhost";
  std::string session;
  std::string run;
  bool clock_skewed = false;  // a test skew was injected: the host's clock is not shared  //
                              // PXT_RUN_ID: processes started by one traced parent share it
  struct SyncSample {
    uint64_t time;   // local time of the measurement
    int64_t offset;  // local clock - reference (rank 0) clock
    uint64_t rtt;    // round trip of the exchange: the offset is known to +-rtt/2
  };
  std::vector<SyncSample> sync;
  std::map<uint32_t, std::string> types;
  std::map<std::pair<uint32_t, int64_t>, std::string> values;
  std::map<uint32_t, std::string> states;
  std::map<uint64_t, std::string> locations;   // local id -> "file:line"
  std::vector<std::string> notes;              // facts the merge reports (lost receives)
  std::vector<std::string> notices;            // conditions of the run (no hardware counters)
  std::map<uint64_t, std::vector<int>> comms;  // communicators created: key -> world ranks
  struct Module {
    uint64_t low, high;  // an executable segment's addresses in the process
    uint64_t bias;       // load bias of its object
    std::string path;
  };
  std::vector<Module> modules;  // to resolve the call-site addresses of kCaller records
  std::vector<std::vector<RawRecord>> threads;
  uint64_t truncated_chunks = 0;  // chunks cut short (a crashed process): records kept up to there
  bool has_meta = false;
  int format = 1;               // 2: the file says when it is complete ("finished")
  bool finished = false;        // the process wrote its last metadata
  int abnormal = 0;             // the signal (or 1000: MPI_Abort) that ended it; 0: none said
  uint64_t abnormal_time = 0;   // when (its clock)
  // The process did not end normally: it said why, or a file of format 2 was never finished.
  bool EndedAbnormally() const { return abnormal != 0 || (format >= 2 && !finished); }
};

// Reads `path`. With `meta_only`, data chunks are skipped (listing sessions). Returns false
// with a message when the file cannot be read or is not a .pxt file.
bool ReadProcessFile(const std::string& path, bool meta_only, ProcessFile* out, std::string* error);

// The same on the bytes of a file already read; `path` names it in messages (the fuzz target,
// tests/fuzz/pxt_fuzz.cc, drives the reader through this).
bool ParseProcessFile(std::string_view data, const std::string& path, bool meta_only, ProcessFile* out,
                      std::string* error);

}  // namespace parallax::tracing
