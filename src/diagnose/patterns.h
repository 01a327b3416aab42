#pragma once
// The wait-state patterns, declared once: their key (the JSON and CSV name), display name,
// parent in the pattern tree, where they occur and what they measure. Every output (the CLI's
// tables, the JSON, docs/diagnose.md's list, the semantic functions' labels) reads this table.

#include <cstdint>

namespace parallax::diagnose {

enum class Pattern : uint8_t {
  kLateSender,
  kLateReceiver,
  kWaitAtBarrier,
  kWaitAtNxN,
  kLateBroadcast,
  kEarlyReduce,
  kWaitAtFinalize,
  kCount
};

struct PatternInfo {
  Pattern id;
  const char* key;          // "late_sender"
  const char* name;         // "Late Sender"
  const char* parent;       // the group in the tree: "point-to-point", "collective"
  const char* culprit;      // who the waiting is charged to
  const char* description;  // one sentence
};

inline constexpr int kPatternCount = static_cast<int>(Pattern::kCount);

const PatternInfo& Info(Pattern p);
// The pattern with key `key`, or false.
bool FindPattern(const char* key, Pattern* out);

}  // namespace parallax::diagnose
