#pragma once
// The compact records of a trace whose records arrive in segments, in file order: the .prv
// reader's one-pass parse into a cache of compact records (docs/scale.md "Compact records").
// Each thread's records are coded into blocks as soon as a block's worth of them has arrived,
// and the blocks' bytes go to a sink (the cache file) in the order they are coded, so neither
// the plain records of the whole trace nor its coded ones are ever in memory at once. Along the
// way it makes what would otherwise be built from the plain records: every thread's state
// summaries (state_blocks.h) and the per-cpu view (trace_store.h).
//
// The records of a thread must come in time order from one segment to the next (within a
// segment the reader sorts them). A thread whose records go back in time across segments stops
// the build (unsorted()): the caller then loads the trace the two-pass way, which sorts whole
// threads.

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "include/parallax/status.h"
#include "src/store/compact_records.h"
#include "src/store/compact_threads.h"
#include "src/store/state_blocks.h"
#include "src/store/trace_store.h"

namespace parallax::store {

// What a build makes. The threads' block offsets are into the bytes the sink was given, in
// the order it was given them; their `bytes` are empty (the caller views the sink's bytes).
struct BuiltThreads {
  std::vector<CodedThread> threads;
  std::vector<StateBlocks> state_blocks;
  CpuView cpu_view;
};

class CompactBuilder {
 public:
  // Appends coded bytes and returns the offset of their first byte among all the bytes given
  // so far; an error stops the build.
  using Sink = std::function<Result<uint64_t>(std::span<const uint8_t> bytes)>;

  // `cpus`: the trace's cpu count (runs on cpu 0 or past it are not in the cpu view, as in
  // BuildCpuView). `workers`: 0 for every core.
  CompactBuilder(size_t threads, uint32_t cpus, Sink sink, const compact::EncodeOptions& options = {},
                 unsigned workers = 0);

  // Takes the records of the next segment (a store of `threads` threads, each sorted by time)
  // and leaves it empty. An error when the sink fails, or when a thread's records begin before
  // its records of an earlier segment end (then unsorted() is true).
  Status Add(TraceStore& segment);
  bool unsorted() const { return unsorted_; }
  // Codes what is left and hands over the result; no Add after it.
  Result<BuiltThreads> Finish();
  // Bytes held for records not coded yet.
  uint64_t PendingBytes() const;

 private:
  // A run of records of one thread on one cpu, with the time of its first record.
  struct TimedRun {
    model::Time first_time = 0;
    uint16_t cpu = 0;
    CpuRun run;
  };
  // Where a thread's records are on their way: the ones not coded yet, the blocks coded so far,
  // the runs of equal cpu.
  struct Lane {
    StateColumns states;
    EventColumns events;
    uint64_t states_coded = 0;
    uint64_t events_coded = 0;
    model::Time last_state_begin = 0, last_event_time = 0;  // of the records taken so far
    std::vector<compact::BlockEntry> state_blocks, event_blocks;
    compact::CompactColumns new_states, new_events;  // coded by the last call, for the sink
    StateBlocks summaries;
    TimedRun state_run, event_run;  // open runs (records past `first` may follow)
    bool state_run_open = false, event_run_open = false;
    std::vector<TimedRun> state_runs, event_runs;  // closed
  };

  // Codes lane `t`'s records that are ready (all of them when `last`).
  void Code(size_t t, bool last);
  // Gives the blocks coded by the last Code calls to the sink, lane by lane.
  Status Flush();
  void TrackRuns(Lane& lane, size_t t, bool states, size_t count, bool last);

  std::vector<Lane> lanes_;
  uint32_t cpus_;
  Sink sink_;
  compact::EncodeOptions options_;
  size_t step_;  // records coded at a time: whole blocks and whole large state summaries
  unsigned workers_;
  bool unsorted_ = false;
  bool failed_ = false;
};

}  // namespace parallax::store
