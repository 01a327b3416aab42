#pragma once
// Reads one per-process trace file (`*.pxt`, record_format.h) back into decoded records and
// the process's metadata, for the merge.

#include <algorithm>
#include <cstddef>
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
  // The streaming merge (ScanProcessFile): per thread, its data chunks in file order, read back
  // with a RecordCursor instead of being held in `threads`.
  struct ChunkRef {
    uint64_t offset;     // of the chunk's first record byte in the file
    uint64_t length;     // bytes of records (those present when the file was cut)
    uint64_t base_time;
    bool cut;            // the file ends inside the chunk (counted in truncated_chunks)
  };
  std::vector<std::vector<ChunkRef>> chunks;
  uint64_t truncated_chunks = 0;  // chunks cut short (a crashed process): records kept up to there
  bool has_meta = false;
  int format = 1;               // 2: the file says when it is complete ("finished")
  bool finished = false;        // the process wrote its last metadata
  int abnormal = 0;             // the signal (or 1000: MPI_Abort) that ended it; 0: none said
  uint64_t abnormal_time = 0;   // when (its clock)
  uint64_t limit_time = 0;      // PXT_MAX_SIZE: when the process stopped recording (0: never)
  uint64_t limit_max = 0;       // the limit
  uint64_t limit_bytes = 0;     // bytes of the file then
  uint64_t burst_threshold = 0; // PXT_BURSTS (ns; 0: detailed tracing) and its counts
  uint64_t bursts_kept = 0;
  uint64_t bursts_dropped = 0;
  uint64_t burst_records_dropped = 0;
  // The process did not end normally: it said why, or a file of format 2 was never finished.
  bool EndedAbnormally() const { return abnormal != 0 || (format >= 2 && !finished); }
  // Threads of the process: those with records in memory or with chunks in the index.
  size_t ThreadCount() const { return std::max(threads.size(), chunks.size()); }
};

// Reads `path`. With `meta_only`, data chunks are skipped (listing sessions). Returns false
// with a message when the file cannot be read or is not a .pxt file.
bool ReadProcessFile(const std::string& path, bool meta_only, ProcessFile* out, std::string* error);

// The same on the bytes of a file already read; `path` names it in messages (the fuzz target,
// tests/fuzz/pxt_fuzz.cc, drives the reader through this).
bool ParseProcessFile(std::string_view data, const std::string& path, bool meta_only, ProcessFile* out,
                      std::string* error);

// The streaming merge's first look at `path`: the metadata, as ReadProcessFile, and the index of
// the data chunks of every thread (`chunks`), reading the file in blocks of at most `block`
// bytes; no record is decoded (a chunk whose records stop at an undecodable one is counted in
// `truncated_chunks` by the RecordCursor that meets it). Same errors as ReadProcessFile.
bool ScanProcessFile(const std::string& path, size_t block, ProcessFile* out, std::string* error);

// Decodes one thread's records from its chunks (ProcessFile::chunks) in file order, as
// ParseProcessFile does (a chunk's records stop at its first undecodable record), reading the
// file through a window of `window` bytes (at least kMinCursorWindow): memory independent of the
// chunk sizes. `fd` is a descriptor of the file, read with pread (shared by several cursors).
inline constexpr size_t kMinCursorWindow = 256;
class RecordCursor {
 public:
  RecordCursor(int fd, const std::vector<ProcessFile::ChunkRef>* chunks, size_t window);
  RecordCursor(const RecordCursor&) = delete;
  RecordCursor& operator=(const RecordCursor&) = delete;
  RecordCursor(RecordCursor&&) = default;
  // The next record; false at the end of the thread's records or on a read error (failed()).
  bool Next(RawRecord* r) {
    if (end_ - p_ >= static_cast<ptrdiff_t>(kMaxRecordBytes)) {
      if (const uint8_t* q = Decode(p_, end_, &time_, r)) {
        p_ = q;
        return true;
      }
    }
    return NextSlow(r);
  }
  bool failed() const { return failed_; }
  const std::string& error() const { return error_; }
  // Chunks (not cut) whose records stopped at an undecodable one.
  uint64_t bad_chunks() const { return bad_chunks_; }
  // Decodes one record of [p, end) whose previous record was at *time; nullptr when it is
  // incomplete or of an unknown kind.
  static const uint8_t* Decode(const uint8_t* p, const uint8_t* end, uint64_t* time, RawRecord* r);

 private:
  bool NextSlow(RawRecord* r);
  bool Refill();
  int fd_;
  const std::vector<ProcessFile::ChunkRef>* chunks_;
  std::vector<uint8_t> buf_;
  size_t chunk_ = 0;          // current chunk (valid once started_)
  bool started_ = false;
  bool finished_ = false;
  uint64_t chunk_left_ = 0;   // bytes of the current chunk not yet in the window
  uint64_t file_pos_ = 0;     // where they start
  const uint8_t* p_ = nullptr;
  const uint8_t* end_ = nullptr;
  uint64_t time_ = 0;
  uint64_t bad_chunks_ = 0;
  bool failed_ = false;
  std::string error_;
};

}  // namespace parallax::tracing
