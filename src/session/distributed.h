#pragma once
// One Paramedir call's part of a distributed run (include/parallax/trace.h, Distribution).
// Every process makes the same sequence of collective calls (allgather): the histogram's
// automatic-scale scans (Share), then its rows (Exchange, the last one). A process that fails
// makes exactly one more call, with a failure mark (Finish); whoever sees the mark stops
// calling. So every process makes the same number of calls and none waits for ever.

#include <string>
#include <vector>

#include "include/parallax/status.h"
#include "include/parallax/trace.h"
#include "src/analysis/histogram.h"

namespace parallax::session {

class DistributedCall {
 public:
  explicit DistributedCall(const Distribution& d) : d_(d) {}
  DistributedCall(const DistributedCall&) = delete;
  DistributedCall& operator=(const DistributedCall&) = delete;

  unsigned rank() const { return d_.rank; }
  unsigned ranks() const { return d_.ranks; }
  unsigned threads() const { return d_.threads; }

  // An intermediate exchange (analysis::HistogramInput::exchange): every process' bytes, or
  // an error when another process failed.
  Result<std::vector<std::string>> Share(const std::string& mine);
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

}  // namespace parallax::session
