#include "src/replay/replay_diagnostics.h"

#include <utility>

namespace parallax::replay {

void Diagnostics::Add(const std::string& kind, const std::string& description, std::string example) {
  for (DiagnosticEntry& e : entries_) {
    if (e.kind != kind) continue;
    ++e.count;
    if (e.examples.size() < kMaxExamples) e.examples.push_back(std::move(example));
    return;
  }
  entries_.push_back({kind, description, 1, {std::move(example)}});
}

uint64_t Diagnostics::Count(const std::string& kind) const {
  for (const DiagnosticEntry& e : entries_)
    if (e.kind == kind) return e.count;
  return 0;
}

}  // namespace parallax::replay
