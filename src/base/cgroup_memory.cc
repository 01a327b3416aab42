#include "src/base/cgroup_memory.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <iterator>

namespace parallax::base {

namespace {

// A limit file's value: a number of bytes, or "max" (none).
uint64_t ParseLimit(const std::optional<std::string>& text) {
  if (!text) return UINT64_MAX;
  std::string_view s(*text);
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.remove_suffix(1);
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v == 0) return UINT64_MAX;
  return v;
}

// The smallest limit in `file` of the folders from root + path up to root itself.
uint64_t Smallest(const std::string& root, std::string path, const char* file,
                  const std::function<std::optional<std::string>(const std::string&)>& read) {
  uint64_t limit = UINT64_MAX;
  while (!path.empty() && path.back() == '/') path.pop_back();
  for (;;) {
    limit = std::min(limit, ParseLimit(read(root + path + "/" + file)));
    if (path.empty()) return limit;
    path.resize(path.rfind('/') == std::string::npos ? 0 : path.rfind('/'));
  }
}

}  // namespace

uint64_t CgroupMemoryLimit(std::string_view self_cgroup,
                           const std::function<std::optional<std::string>(const std::string& path)>& read) {
  uint64_t limit = UINT64_MAX;
  while (!self_cgroup.empty()) {
    const size_t nl = self_cgroup.find('\n');
    std::string_view line = self_cgroup.substr(0, nl);
    self_cgroup = nl == std::string_view::npos ? std::string_view() : self_cgroup.substr(nl + 1);
    // hierarchy-id:controllers:path
    const size_t a = line.find(':');
    const size_t b = a == std::string_view::npos ? a : line.find(':', a + 1);
    if (b == std::string_view::npos) continue;
    const std::string_view id = line.substr(0, a), controllers = line.substr(a + 1, b - a - 1);
    const std::string path(line.substr(b + 1));
    if (path.empty() || path[0] != '/') continue;
    if (id == "0" && controllers.empty()) {
      for (const char* root : {"/sys/fs/cgroup", "/sys/fs/cgroup/unified"})
        limit = std::min(limit, Smallest(root, path, "memory.max", read));
      continue;
    }
    for (size_t from = 0; from <= controllers.size();) {  // a v1 hierarchy with the memory controller
      const size_t comma = std::min(controllers.find(',', from), controllers.size());
      if (controllers.substr(from, comma - from) == "memory")
        limit = std::min(limit, Smallest("/sys/fs/cgroup/memory", path, "memory.limit_in_bytes", read));
      from = comma + 1;
    }
  }
  return limit;
}

uint64_t CgroupMemoryLimit() {
  auto read = [](const std::string& path) -> std::optional<std::string> {
    std::ifstream in(path);
    if (!in) return std::nullopt;
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  return CgroupMemoryLimit(read("/proc/self/cgroup").value_or(""), read);
}

}  // namespace parallax::base
