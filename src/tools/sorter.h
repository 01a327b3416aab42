#pragma once
// The sort behind `parallax sort`, for the tools that write a body out of order first (shift,
// merge): `end_time`, when given, replaces the header's end time.

#include <optional>
#include <string>
#include <vector>

#include "include/parallax/tools.h"
#include "src/tools/output_file.h"
#include "src/tools/prv_record.h"

namespace parallax::tools {

// The canonical order: time, then thread (application, task, thread), then kind (state <
// event < communication); a communication sorts at its logical send time on the sender.
struct SortKey {
  uint64_t time = 0, thread = 0;
  char kind = 0;
  bool operator<(const SortKey& o) const {
    if (time != o.time) return time < o.time;
    if (thread != o.thread) return thread < o.thread;
    return kind < o.kind;
  }
};

inline SortKey KeyOf(const PrvRecord& r) {
  return {r.t1, (uint64_t{r.appl} << 42) | (uint64_t{r.task} << 21) | uint64_t{r.thread}, r.kind};
}

// Merges files of body lines, each sorted in the canonical order, into `out` (a k-way merge;
// ties go to the earlier file); counts the lines written in *written.
Status MergeRuns(const std::vector<std::string>& runs, OutputFile& out, uint64_t* written);

Result<ToolReport> SortWithEnd(const ToolRun& run, const SortOptions& options,
                               std::optional<uint64_t> end_time);

}  // namespace parallax::tools
