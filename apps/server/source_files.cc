#include "apps/server/source_files.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <system_error>

namespace parallax::server {

namespace fs = std::filesystem;

namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::optional<SourceLocation> ParseSourceLabel(std::string_view label) {
  label = Trim(label);
  size_t i = 0;
  uint64_t line = 0;
  while (i < label.size() && label[i] >= '0' && label[i] <= '9') {
    if (line > 100000000) return std::nullopt;
    line = line * 10 + static_cast<uint64_t>(label[i++] - '0');
  }
  if (i == 0 || line == 0) return std::nullopt;
  std::string_view rest = Trim(label.substr(i));
  if (rest.size() < 3 || rest.front() != '(' || rest.back() != ')') return std::nullopt;
  rest = rest.substr(1, rest.size() - 2);
  std::string_view file = Trim(rest.substr(0, rest.find(',')));
  if (file.empty() || file.find('\0') != std::string_view::npos || file.find_first_of("()") != std::string_view::npos)
    return std::nullopt;
  return SourceLocation{std::string(file), line};
}

std::string FindSourceFile(const RootDir& root, const std::string& file, PathError* error,
                           size_t max_entries) {
  *error = {};
  PathError direct;
  std::string found = root.Resolve(file, &direct);
  if (direct.status == 0) return found;
  if (direct.status == 400) {
    *error = direct;
    return {};
  }
  // Not there (or outside the root, e.g. the absolute path of the machine that traced): look
  // for the name under the root.
  std::vector<fs::path> tail_parts;
  for (const auto& part : fs::path(file).relative_path().lexically_normal())
    if (part != ".." && part != "." && !part.empty()) tail_parts.push_back(part);
  if (tail_parts.empty()) {
    *error = {404, "no source file '" + file + "' under the served root"};
    return {};
  }
  // The longest trailing directories of the label that a candidate matches wins; among equals,
  // more than one is ambiguous.
  std::vector<std::string> best;
  size_t best_depth = 0;
  std::error_code ec;
  fs::recursive_directory_iterator it(root.path(), fs::directory_options::skip_permission_denied, ec);
  size_t seen = 0;
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (++seen > max_entries) {
      *error = {413, "gave up looking for '" + file + "' after " + std::to_string(max_entries) +
                         " entries under the served root"};
      return {};
    }
    const fs::directory_entry& e = *it;
    if (e.path().filename() != tail_parts.back()) continue;
    std::error_code st_ec;
    if (!e.is_regular_file(st_ec) || e.is_symlink(st_ec)) continue;
    // Count the trailing components in common.
    std::vector<fs::path> parts(e.path().begin(), e.path().end());
    size_t depth = 0;
    while (depth < parts.size() && depth < tail_parts.size() &&
           parts[parts.size() - 1 - depth] == tail_parts[tail_parts.size() - 1 - depth])
      ++depth;
    if (depth > best_depth) {
      best_depth = depth;
      best.clear();
    }
    if (depth == best_depth) best.push_back(e.path().string());
  }
  if (best.empty()) {
    *error = {404, "no source file '" + file + "' under the served root"};
    return {};
  }
  if (best.size() > 1) {
    std::string list;
    for (size_t k = 0; k < best.size() && k < 5; ++k)
      list += (k ? ", " : "") + root.Relative(best[k]);
    *error = {409, "'" + file + "' matches " + std::to_string(best.size()) +
                       " files under the served root: " + list + (best.size() > 5 ? ", ..." : "")};
    return {};
  }
  // The match must itself resolve inside the root (no symlinked directory on the way).
  PathError again;
  std::string canonical = root.Resolve(root.Relative(best[0]), &again);
  if (again.status != 0) {
    *error = again;
    return {};
  }
  return canonical;
}

SourceLines ReadSourceLines(const std::string& path, const std::string& shown, uint64_t line,
                            uint64_t context, PathError* error) {
  *error = {};
  SourceLines out;
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    *error = {400, "'" + shown + "' is not a file"};
    return out;
  }
  uint64_t size = fs::file_size(path, ec);
  if (!ec && size > kMaxSourceBytes) {
    *error = {413, "'" + shown + "' is larger than " + std::to_string(kMaxSourceBytes >> 20) +
                       " MiB: not shown as source"};
    return out;
  }
  std::FILE* f = OpenRegularForReading(path, shown, error);
  if (f == nullptr) return out;
  // One byte more than the size seen, to notice a file that grew (up to the limit).
  std::string text(static_cast<size_t>(ec ? kMaxSourceBytes : size) + 1, '\0');
  size_t got = std::fread(text.data(), 1, text.size(), f);
  bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) {
    *error = {404, "cannot read '" + shown + "'"};
    return out;
  }
  if (got == text.size()) {  // grew since stat
    *error = {409, "'" + shown + "' changed while it was read: try again"};
    return out;
  }
  text.resize(got);
  if (text.find('\0') != std::string::npos) {
    *error = {400, "'" + shown + "' is a binary file, not source text"};
    return out;
  }
  context = std::min(context, kMaxSourceContext);
  uint64_t first = line > context ? line - context : 1;
  uint64_t last = line + context;
  out.first = first;
  uint64_t n = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    ++n;
    if (n >= first && n <= last) {
      std::string_view l(text.data() + pos, end - pos);
      if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
      out.lines.emplace_back(l);
    }
    pos = end + 1;
  }
  out.total = n;
  if (line == 0 || line > n) {
    *error = {400, "line " + std::to_string(line) + " is not in '" + shown + "' (" +
                       std::to_string(n) + " lines)"};
    return {};
  }
  return out;
}

}  // namespace parallax::server
