#include "src/io/diagnostics.h"

#include <algorithm>
#include <utility>

#include "src/base/text_safety.h"

namespace parallax::io {

namespace {

struct KindInfo {
  std::string_view name;
  Severity severity;
  std::string_view description;
};

constexpr std::array<KindInfo, static_cast<size_t>(DiagKind::kCount)> kKinds = {{
    {"comment_line", Severity::kInfo, "'#' lines in the body (no effect on values)"},
    {"blank_line", Severity::kInfo, "empty lines in the body"},
    {"global_comm_skipped", Severity::kInfo, "type-4 global communication records (ignored, as Paraver does)"},
    {"missing_final_newline", Severity::kWarning, "the last line has no newline: the file may have been cut short (the line is kept as read)"},
    {"out_of_order", Severity::kWarning, "records earlier than the previous record of their thread (sorted into place)"},
    {"state_end_before_begin", Severity::kWarning, "state records whose end precedes their begin (kept as written)"},
    {"extra_fields", Severity::kWarning, "records with trailing fields (ignored)"},
    {"unknown_record_type", Severity::kError, "lines starting with an unknown record type (skipped)"},
    {"syntax", Severity::kError, "records with a malformed field or separator (skipped)"},
    {"too_few_fields", Severity::kError, "records with too few fields (skipped)"},
    {"odd_event_pairs", Severity::kError, "event lines ending with a type without value (complete pairs kept)"},
    {"number_too_large", Severity::kError, "records with a number out of range (skipped)"},
    {"negative_time", Severity::kError, "records with a negative time (skipped)"},
    {"unknown_object", Severity::kError, "records naming an application, task or thread not in the header (skipped)"},
    {"cpu_out_of_range", Severity::kError, "records naming a cpu not in the header (skipped)"},
    {"cpu_wrong_node", Severity::kError, "records whose cpu is not on the node of their task (skipped)"},
    {"truncated_last_line", Severity::kError, "an incomplete last line (skipped)"},
    {"truncated_input", Severity::kError, "compressed input cut short (the text after the cut is missing)"},
    {"trailing_data", Severity::kWarning, "bytes after the end of the compressed data (ignored)"},
    {"unterminated_input", Severity::kInfo, "the input ends without its closing bracket (accepted, as Perfetto does)"},
    {"unsupported_record", Severity::kInfo, "records of a kind Parallax does not map (ignored)"},
    {"unmatched_end", Severity::kError, "end records with no open begin on their thread (skipped)"},
    {"end_not_innermost", Severity::kWarning, "end records closing a slice that has open slices inside it (those stay open, as in Perfetto)"},
    {"unclosed_begin", Severity::kWarning, "begin records never ended (closed at the trace end)"},
    {"overlapping_slice", Severity::kError, "complete slices that overlap the end of their enclosing slice (skipped)"},
    {"unmatched_flow", Severity::kError, "flow or link records without their other end (skipped)"},
    {"undefined_name", Severity::kError, "records naming a container, type or value never defined (skipped)"},
    {"zero_duration_state", Severity::kInfo, "states that end when they begin (kept as events of their state type, not as states)"},
}};

}  // namespace

std::string_view DiagKindName(DiagKind kind) { return kKinds[static_cast<size_t>(kind)].name; }
std::string_view DiagKindDescription(DiagKind kind) {
  return kKinds[static_cast<size_t>(kind)].description;
}
Severity DiagKindSeverity(DiagKind kind) { return kKinds[static_cast<size_t>(kind)].severity; }

std::string_view SeverityName(Severity s) {
  switch (s) {
    case Severity::kInfo: return "info";
    case Severity::kWarning: return "warning";
    case Severity::kError: return "error";
  }
  return "?";
}

void Diagnostics::Add(DiagKind kind, uint64_t line, uint64_t column, std::string_view detail) {
  size_t k = static_cast<size_t>(kind);
  ++counts_[k];
  if (examples_[k].size() < kMaxExamples)
    examples_[k].push_back({line, column, base::EscapeControl(detail)});
}

void Diagnostics::Restore(DiagKind kind, uint64_t count, std::vector<DiagExample> examples) {
  size_t k = static_cast<size_t>(kind);
  if (examples.size() > kMaxExamples) examples.resize(kMaxExamples);
  counts_[k] = count;
  examples_[k] = std::move(examples);
}

void Diagnostics::Merge(const Diagnostics& other, uint64_t line_offset) {
  // The examples kept are the first ones in file order, whatever the order of merging (the
  // chunking, hence the number of cores, must not change them).
  for (size_t k = 0; k < counts_.size(); ++k) {
    counts_[k] += other.counts_[k];
    if (other.examples_[k].empty()) continue;
    auto& mine = examples_[k];
    for (const auto& e : other.examples_[k])
      mine.push_back({e.line == 0 ? 0 : e.line + line_offset, e.column, e.detail});
    std::stable_sort(mine.begin(), mine.end(), [](const DiagExample& a, const DiagExample& b) {
      // line 0 (a problem of the whole file) wraps to the largest value: it sorts last.
      return std::make_pair(a.line - 1, a.column) < std::make_pair(b.line - 1, b.column);
    });
    if (mine.size() > kMaxExamples) mine.resize(kMaxExamples);
  }
}

uint64_t Diagnostics::problems() const {
  uint64_t n = 0;
  for (size_t k = 0; k < counts_.size(); ++k)
    if (kKinds[k].severity != Severity::kInfo) n += counts_[k];
  return n;
}

uint64_t Diagnostics::skipped() const {
  uint64_t n = 0;
  for (size_t k = 0; k < counts_.size(); ++k)
    if (kKinds[k].severity == Severity::kError) n += counts_[k];
  return n;
}

}  // namespace parallax::io
