#include "src/base/closest.h"

#include <algorithm>
#include <cctype>

namespace parallax::base {

size_t EditDistance(std::string_view a, std::string_view b) {
  auto fold = [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); };
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (fold(a[i - 1]) == fold(b[j - 1]) ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

std::vector<std::string> ClosestNames(std::string_view name, const std::vector<std::string>& names, size_t count,
                                      bool always) {
  std::vector<std::pair<size_t, size_t>> scored;  // (distance, index)
  const size_t limit = std::max<size_t>(3, name.size() / 2);
  for (size_t i = 0; i < names.size(); ++i) {
    const size_t d = EditDistance(name, names[i]);
    if (always || d <= limit) scored.emplace_back(d, i);
  }
  std::stable_sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (size_t k = 0; k < scored.size() && k < count; ++k) out.push_back(names[scored[k].second]);
  return out;
}

std::string ClosestHint(std::string_view name, const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : ClosestNames(name, names)) out += (out.empty() ? "the closest: " : ", ") + n;
  return out;
}

}  // namespace parallax::base
