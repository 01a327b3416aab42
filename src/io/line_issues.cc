#include "src/io/line_issues.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <cerrno>

#include "src/base/text_safety.h"

namespace parallax::io {

void LineIssues::Add(uint64_t line, uint64_t column, std::string reason) {
  ++count;
  if (first.size() < kMaxKept)
    first.push_back(LineIssue{line, column, base::EscapeControl(reason)});
}

std::string LineIssues::ToString() const {
  std::string out;
  for (const LineIssue& issue : first) out += fmt::format("{}:{}:{}: {}\n", file, issue.line, issue.column, issue.reason);
  if (count > first.size()) out += fmt::format("... and {} more\n", count - first.size());
  return out;
}

bool IsCrlfText(std::string_view text) {
  bool any = false;
  for (size_t nl = text.find('\n'); nl != std::string_view::npos; nl = text.find('\n', nl + 1)) {
    if (nl == 0 || text[nl - 1] != '\r') return false;
    any = true;
  }
  return any;
}

Result<base::InputBuffer> OpenCompanionFile(const std::string& path, bool* absent, const char* what,
                                            const char* hint) {
  if (absent != nullptr) *absent = false;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 && (errno == ENOENT || errno == ENOTDIR)) {
    if (absent != nullptr) *absent = true;
    return Status::Error(what, Location{path, 0, 0}, hint);
  }
  return base::InputBuffer::Open(path);
}

}  // namespace parallax::io
