#pragma once
// Problems the replay met and worked around, counted by kind with the first few located
// examples (like the trace reader's diagnostics table).

#include <cstdint>
#include <string>
#include <vector>

namespace parallax::replay {

struct DiagnosticEntry {
  std::string kind;         // stable identifier, e.g. "unmatched-communication"
  std::string description;  // what happened and what the replay did instead
  uint64_t count = 0;
  std::vector<std::string> examples;  // at most kMaxExamples, located (thread, time)
};

class Diagnostics {
 public:
  static constexpr size_t kMaxExamples = 5;
  void Add(const std::string& kind, const std::string& description, std::string example);
  const std::vector<DiagnosticEntry>& entries() const { return entries_; }
  uint64_t Count(const std::string& kind) const;
  // Adds the counts and examples of `other` (kept in its order after this table's).
  void Merge(const Diagnostics& other);

 private:
  std::vector<DiagnosticEntry> entries_;
};

}  // namespace parallax::replay
