#pragma once
// One Paramedir call's part of a distributed run (include/parallax/trace.h, Distribution).
// Every process makes the same sequence of collective calls (allgather): the histogram's
// automatic-scale scans (Share), then its rows (Exchange, the last one). A process that fails
// makes exactly one more call, with a failure mark (Finish); whoever sees the mark stops
// calling. So every process makes the same number of calls and none waits for ever.

#include <functional>
#include <string>
#include <vector>

#include "include/parallax/status.h"
#include "include/parallax/trace.h"
#include "src/analysis/histogram.h"
#include "src/io/cache/trace_cache.h"
#include "src/io/prv/prv_reader.h"
#include "src/store/trace_store.h"

namespace parallax::session {

class DistributedCall {
 public:
  explicit DistributedCall(const Distribution& d) : d_(d) {}
  DistributedCall(const DistributedCall&) = delete;
  DistributedCall& operator=(const DistributedCall&) = delete;

  unsigned rank() const { return d_.rank; }
  unsigned ranks() const { return d_.ranks; }
  unsigned threads() const { return d_.threads; }

  // An exchange (analysis::HistogramInput::exchange): every process' bytes, or an error when
  // another process failed. `last`: the call's last exchange (no Finish needed after it).
  Result<std::vector<std::string>> Share(const std::string& mine, bool last = false);
  // The last exchange: sends this process' rows of `result` (its share) and fills in everybody
  // else's; an error when another process failed or sent something else.
  Status Exchange(analysis::HistogramResult& result);
  // Ends the call: a process that failed before its last exchange sends the failure mark, and
  // one that had nothing to share (a timeline dump) takes part in one call.
  void Finish(bool failed);

 private:
  // One collective call; an error when a part carries the failure mark (no more calls then).
  Result<std::vector<std::string>> Call(const std::string& mine, bool last);

  const Distribution& d_;
  bool done_ = false;  // no more collective calls in this Paramedir call
};

// Deals the histogram's rows out among the processes: this one computes its share, the
// automatic-scale scans meet through `call` (a communication histogram is not split).
void DealRows(analysis::HistogramInput& in, DistributedCall& call);

// Opening in a distributed run (distributed_open.cc). Every process calls these, in the same
// order; a process that fails before or between them calls Finish(true).
//
// The trace through its cache: rank 0 writes the cache when it is missing or stale, every
// process checks its share of the checksum blocks, and all agree on the verdict; a damaged cache
// is rebuilt once by rank 0, then every process parses the trace. Notices come from rank 0 only.
// `write`: how rank 0 writes the cache (compact records, in one pass, for a trace too large for
// plain ones) and the resident budget of compact records. `cache_path`: where the cache is.
Result<io::PrvTrace> ReadPrvDistributed(const std::string& path, const std::string& cache_path,
                                        const io::PrvReadOptions& ro,
                                        const io::cache::WriteOptions& write, DistributedCall& call,
                                        const std::function<void(const std::string&)>& notice);
// The trace's event types: those its cache recorded, else each process scanning its share of
// the threads.
Result<std::vector<uint32_t>> ShareEventTypes(const io::PrvTrace& prv, DistributedCall& call);

}  // namespace parallax::session
