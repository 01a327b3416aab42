#pragma once
// "Did you mean": the names closest to a misspelt one (edit distance, case folded), for the
// hints of errors about unknown names (functions, windows, views).

#include <string>
#include <string_view>
#include <vector>

namespace parallax::base {

// Levenshtein distance of a and b, letters compared without case.
size_t EditDistance(std::string_view a, std::string_view b);

// At most `count` of `names`, closest to `name` first (ties in the names' order); only those
// within half of the name's length (at least 3 edits) unless `always` is set.
std::vector<std::string> ClosestNames(std::string_view name, const std::vector<std::string>& names,
                                      size_t count = 3, bool always = false);

// "the closest: a, b, c" (empty when none is close).
std::string ClosestHint(std::string_view name, const std::vector<std::string>& names);

}  // namespace parallax::base
