#pragma once
// Merges per-process trace files (`*.pxt`) into one Paraver trace (.prv, .pcf, .row):
// fills the process and resource models, corrects each process's clock against rank 0 with
// the offsets measured at start and end, matches point-to-point messages by (communicator,
// source, destination, tag, sequence number), checks and repairs causality.

#include <cstdint>
#include <string>
#include <vector>

namespace parallax::tracing {

struct MergeOptions {
  std::vector<std::string> inputs;  // *.pxt files
  std::string output;               // NAME.prv; NAME.pcf and NAME.row are written next to it
  bool correct_clocks = true;       // apply the measured offsets (off: raw times, for tests)
  // The merge streams: it reads each process file chunk by chunk and writes the .prv as it goes.
  // Its memory is this budget (0: 64 MiB): half of it for the read windows (two per thread, at
  // least 256 bytes each), a quarter each for the message ends and the communications, sorted in
  // memory up to there and beyond in sorted runs in an unlinked temporary file next to the
  // output; plus the files' metadata (labels, module maps, 32 bytes per chunk). It does not grow
  // with the records or the messages.
  uint64_t memory_budget = 0;
  // The former merge, every record in memory (about 40 times the size of the files): a reference
  // for tests. The streaming merge falls back to it for a thread whose times go backwards.
  bool in_memory = false;
};

struct MergeReport {
  int processes = 0;
  int threads = 0;
  int nodes = 0;
  uint64_t states = 0;
  uint64_t event_lines = 0;
  uint64_t comms = 0;
  uint64_t unmatched_sends = 0;
  uint64_t unmatched_recvs = 0;
  uint64_t size_mismatches = 0;       // paired messages with different send and receive sizes
  uint64_t violations_raw = 0;        // messages received before sent with uncorrected clocks
  uint64_t violations_corrected = 0;  // ... after clock correction (each was then repaired)
  uint64_t largest_violation = 0;     // ns the furthest of those receives was before its send
  uint64_t truncated_chunks = 0;
  uint64_t lost_notes = 0;  // facts about lost records written by the processes (see lines)
  int abnormal_processes = 0;  // processes that ended without their normal end
  std::vector<std::string> unmatched_detail;  // one line per group of unmatched messages
  std::vector<std::string> lines;             // human-readable report, one fact per line
};

bool MergeTraceFiles(const MergeOptions& options, MergeReport* report, std::string* error);

// "SIGSEGV", "MPI_Abort", "stopped without a word (SIGKILL or a lost node)": the values of
// PXT_TYPE_ABNORMAL_END.
std::string AbnormalEndLabel(int code);

// The *.pxt files of `dir` that belong to one run: the session `session`, or when empty the
// session of the most recently written file. `note` says what else was found and skipped.
// True when `dir` holds a process file of run `run` from a session other than `session`: another
// program of the same run wrote there (and may own the merged trace).
bool OtherSessionOfRun(const std::string& dir, const std::string& run, const std::string& session);

bool ListSessionFiles(const std::string& dir, const std::string& session,
                      std::vector<std::string>* files, std::string* note, std::string* error);

}  // namespace parallax::tracing
