#pragma once
// One member of a JSON object built as a DOM within bounds: the other members are passed over
// without being built, the DOM's memory is counted as it is built and may not exceed a byte
// budget, and values nested deeper than kMaxJsonNesting are refused. The trace-event reader
// uses it for otherData.parallax, the only part of a file it keeps as a DOM.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace parallax::io {

// Arrays and objects nested in one another in a JSON value Parallax reads (Chrome's own JSON
// reader stops at the same depth). A DOM's copy, comparison and printing recurse once per level.
inline constexpr int kMaxJsonNesting = 200;

struct MemberDom {
  enum class Outcome { kBuilt, kAbsent, kOverBudget, kMalformed };
  Outcome outcome = Outcome::kAbsent;
  nlohmann::json value;  // the member's value when kBuilt
  uint64_t bytes = 0;    // what the DOM took (about), or had taken when the budget stopped it
  std::string error;     // the parser's message when kMalformed
};

// The value of member `key` of the JSON object `object_text`, whose nesting the caller checked
// (at most kMaxJsonNesting). Building stops as soon as the DOM would take more than
// `budget_bytes`.
MemberDom BuildMemberDom(std::string_view object_text, std::string_view key, uint64_t budget_bytes);

}  // namespace parallax::io
