#pragma once
// The table of everything a reader skipped, repaired or noticed: one counter per kind, with
// severity and the first few locations. Nothing a reader drops goes unreported.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace parallax::io {

enum class Severity : uint8_t { kInfo, kWarning, kError };

enum class DiagKind : uint8_t {
  // Lines that are not records (information only).
  kCommentLine,
  kBlankLine,
  kGlobalCommSkipped,  // type-4 records, which Paraver ignores too
  kMissingFinalNewline,
  // Records kept but worth knowing about.
  kOutOfOrder,          // sorted into place
  kStateEndBeforeBegin,  // kept as written
  kExtraFields,         // trailing fields ignored
  // Records skipped.
  kUnknownRecordType,
  kSyntax,             // not a number where one was expected, bad separator
  kTooFewFields,
  kOddEventPairs,      // event line with a type but no value: the complete pairs are kept
  kNumberTooLarge,
  kNegativeTime,
  kUnknownObject,      // appl/task/thread not in the header
  kCpuOutOfRange,
  kCpuWrongNode,
  kTruncatedLastLine,
  kTruncatedInput,     // a .gz whose compressed data stops inside a member
  kTrailingData,       // bytes after the end of the gzip data
  // Kinds of the importers of other formats (src/io/<format>/).
  kUnterminatedInput,   // a JSON array/object without its closing bracket (accepted)
  kUnsupportedRecord,   // a record kind the format defines but Parallax does not map
  kUnmatchedEnd,        // an end (E, PopState, ...) with no open begin
  kEndNotInnermost,     // an end closing a slice that still has open slices inside it
  kUnclosedBegin,       // a begin never ended: closed at the trace end
  kOverlappingSlice,    // a complete slice not nested in the enclosing one (skipped)
  kUnmatchedFlow,       // a flow/link start or finish without its other end (skipped)
  kUndefinedName,       // a record naming a container, type or value never defined
  kZeroDurationState,   // a state that ends when it begins: kept as events, not as a state
  kCount
};

std::string_view DiagKindName(DiagKind kind);  // "out_of_order", ...
std::string_view DiagKindDescription(DiagKind kind);
Severity DiagKindSeverity(DiagKind kind);
std::string_view SeverityName(Severity s);

struct DiagExample {
  uint64_t line = 0;  // 1-based line in the file
  uint64_t column = 0;  // 1-based, 0 when it applies to the whole line
  std::string detail;
};

class Diagnostics {
 public:
  static constexpr size_t kMaxExamples = 5;

  void Add(DiagKind kind, uint64_t line, uint64_t column, std::string_view detail);
  // Counts without recording an example (for bulk information such as blank lines).
  void Count(DiagKind kind, uint64_t n = 1) { counts_[static_cast<size_t>(kind)] += n; }
  // Sets the count and the examples of a kind as saved earlier (the trace cache); examples
  // beyond kMaxExamples are dropped.
  void Restore(DiagKind kind, uint64_t count, std::vector<DiagExample> examples);
  // Adds `other`, shifting its line numbers by `line_offset`.
  void Merge(const Diagnostics& other, uint64_t line_offset);

  uint64_t count(DiagKind kind) const { return counts_[static_cast<size_t>(kind)]; }
  const std::vector<DiagExample>& examples(DiagKind kind) const {
    return examples_[static_cast<size_t>(kind)];
  }
  // Number of warnings and errors (what --strict refuses).
  uint64_t problems() const;
  // Records skipped (error severity).
  uint64_t skipped() const;

 private:
  std::array<uint64_t, static_cast<size_t>(DiagKind::kCount)> counts_{};
  std::array<std::vector<DiagExample>, static_cast<size_t>(DiagKind::kCount)> examples_{};
};

}  // namespace parallax::io
