#include "apps/server/root_dir.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <system_error>

namespace parallax::server {

namespace fs = std::filesystem;

bool RootDir::Open(const std::string& dir, RootDir* out, std::string* error) {
  std::error_code ec;
  fs::path p = fs::canonical(dir.empty() ? "." : dir, ec);
  if (ec || !fs::is_directory(p, ec)) {
    *error = "root '" + dir + "' is not a directory";
    return false;
  }
  out->root_ = p.string();
  return true;
}

bool RootDir::Contains(const std::string& canonical) const {
  if (canonical == root_) return true;
  if (root_ == "/") return !canonical.empty() && canonical[0] == '/';
  return canonical.size() > root_.size() && canonical.compare(0, root_.size(), root_) == 0 &&
         canonical[root_.size()] == '/';
}

std::string RootDir::Resolve(const std::string& user_path, PathError* error) const {
  *error = {};
  if (user_path.find('\0') != std::string::npos || user_path.size() > 4096) {
    *error = {400, "malformed path"};
    return {};
  }
  fs::path p(user_path);
  for (const auto& part : p) {
    if (part == "..") {
      *error = {403, "path '" + user_path + "' escapes the served root (no '..' allowed)"};
      return {};
    }
  }
  fs::path full = p.is_absolute() ? p : fs::path(root_) / p;
  std::error_code ec;
  fs::path canonical = fs::canonical(full, ec);
  if (ec) {
    // Do not reveal whether files outside the root exist: a path leading outside, or through a
    // symlink that cannot be followed (its target may be a missing file outside the root), gets
    // the same answer as one whose target exists outside.
    std::string normal = full.lexically_normal().string();
    if (!Contains(normal) || ThroughSymlink(normal))
      *error = {403, "path '" + user_path + "' is outside the served root"};
    else
      *error = {404, "no such file: '" + user_path + "'"};
    return {};
  }
  if (!Contains(canonical.string())) {
    *error = {403, "path '" + user_path + "' is outside the served root"};
    return {};
  }
  return canonical.string();
}

bool RootDir::ThroughSymlink(const std::string& normal) const {
  fs::path prefix = root_;
  for (const auto& part : fs::path(Relative(normal))) {
    prefix /= part;
    std::error_code ec;
    fs::file_status st = fs::symlink_status(prefix, ec);
    if (ec || !fs::exists(st)) return false;  // the rest does not exist: no link further down
    if (fs::is_symlink(st)) return true;
  }
  return false;
}

std::string RootDir::Relative(const std::string& canonical) const {
  if (canonical == root_) return "";
  if (!Contains(canonical)) return canonical;
  return canonical.substr(root_ == "/" ? 1 : root_.size() + 1);
}

std::FILE* OpenRegularForReading(const std::string& path, const std::string& shown, PathError* error) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    *error = {404, "cannot read '" + shown + "'"};
    return nullptr;
  }
  struct stat st {};
  const int flags = ::fcntl(fd, F_GETFL);
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || flags < 0 ||
      ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
    ::close(fd);
    *error = {400, "'" + shown + "' is not a regular file"};
    return nullptr;
  }
  std::FILE* f = ::fdopen(fd, "rb");
  if (f == nullptr) {
    ::close(fd);
    *error = {404, "cannot read '" + shown + "'"};
  }
  return f;
}

}  // namespace parallax::server
