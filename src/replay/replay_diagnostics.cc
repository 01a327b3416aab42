#include "src/replay/replay_diagnostics.h"

#include <utility>

namespace parallax::replay {

void Diagnostics::Add(const std::string& kind, const std::string& description,
                      std::string example) {
  for (DiagnosticEntry& e : entries_) {
    if (e.kind != kind) continue;
    ++e.count;
    if (e.examples.size() < kMaxExamples) e.examples.push_back(std::move(example));
    return;
  }
  entries_.push_back({kind, description, 1, {std::move(example)}});
}

void Diagnostics::Merge(const Diagnostics& other) {
  for (const DiagnosticEntry& o : other.entries_) {
    DiagnosticEntry* mine = nullptr;
    for (DiagnosticEntry& e : entries_)
      if (e.kind == o.kind) mine = &e;
    if (mine == nullptr) {
      entries_.push_back(o);
      continue;
    }
    mine->count += o.count;
    for (const std::string& x : o.examples)
      if (mine->examples.size() < kMaxExamples) mine->examples.push_back(x);
  }
}

uint64_t Diagnostics::Count(const std::string& kind) const {
  for (const DiagnosticEntry& e : entries_)
    if (e.kind == kind) return e.count;
  return 0;
}

}  // namespace parallax::replay
