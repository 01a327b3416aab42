#include "src/diagnose/patterns.h"

#include <cstring>

namespace parallax::diagnose {

namespace {

constexpr PatternInfo kPatterns[] = {
    {Pattern::kLateSender, "late_sender", "Late Sender", "point-to-point", "the sender",
     "a receive (or the wait completing it) began before the matching send began"},
    {Pattern::kLateReceiver, "late_receiver", "Late Receiver", "point-to-point", "the receiver",
     "a blocking send waited for its receive to be posted"},
    {Pattern::kWaitAtBarrier, "wait_at_barrier", "Wait at Barrier", "collective",
     "the last member to enter", "a barrier member waited for the last one to enter"},
    {Pattern::kWaitAtNxN, "wait_at_nxn", "Wait at NxN", "collective", "the last member to enter",
     "an all-to-all operation's member waited for the last one to enter"},
    {Pattern::kLateBroadcast, "late_broadcast", "Late Broadcast", "collective", "the root",
     "a member of a one-to-all operation waited for the root to enter"},
    {Pattern::kEarlyReduce, "early_reduce", "Early Reduce", "collective",
     "the last sending member", "the root of an all-to-one operation waited for the last sender"},
    {Pattern::kWaitAtFinalize, "wait_at_finalize", "Wait at Finalize", "collective",
     "the last rank to enter", "MPI_Finalize waited for the last rank to enter it"},
};
static_assert(sizeof(kPatterns) / sizeof(kPatterns[0]) == kPatternCount);

}  // namespace

const PatternInfo& Info(Pattern p) { return kPatterns[static_cast<int>(p)]; }

bool FindPattern(const char* key, Pattern* out) {
  for (const PatternInfo& p : kPatterns)
    if (std::strcmp(p.key, key) == 0) {
      *out = p.id;
      return true;
    }
  return false;
}

}  // namespace parallax::diagnose
