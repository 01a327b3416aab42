#pragma once
// The merge's output files (.prv, .pcf, .row).

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

namespace parallax::tracing {

// An output file written under a temporary name in its folder and renamed when complete, every
// write and the close checked (a full disk is an error, never half a trace under the final
// name); gzip-compressed when the name ends in ".gz".
class OutputFile {
 public:
  OutputFile(const std::string& path, std::string* error) : path_(path), error_(error) {
    temp_ = path + ".tmpXXXXXX";
    const int fd = mkstemp(temp_.data());
    if (fd < 0) {
      Fail(std::string("cannot write: ") + std::strerror(errno));
      temp_.clear();
      return;
    }
    fchmod(fd, 0644);
    gz_ = path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
    if (gz_) {
      z_ = gzdopen(fd, "wb6");
      if (z_ == nullptr) close(fd);
    } else {
      f_ = fdopen(fd, "w");
      if (f_ == nullptr) close(fd);
    }
    if (z_ == nullptr && f_ == nullptr) Fail("cannot write");
  }
  ~OutputFile() {
    if (!done_) {  // an error: nothing is left behind
      if (f_) std::fclose(f_);
      if (z_) gzclose(z_);
      if (!temp_.empty()) unlink(temp_.c_str());
    }
  }
  explicit operator bool() const { return ok_; }
  void Put(std::string_view text) {
    if (!ok_ || text.empty()) return;
    const bool wrote = gz_ ? gzwrite(z_, text.data(), static_cast<unsigned>(text.size())) == static_cast<int>(text.size())
                           : std::fwrite(text.data(), 1, text.size(), f_) == text.size();
    if (!wrote) Fail("write error");
  }
  bool Finish() {
    if (!ok_) return false;
    const int closed = gz_ ? gzclose(z_) : std::fclose(f_);
    f_ = nullptr;
    z_ = nullptr;
    if (closed != 0) return Fail("write error (disk full?)");
    if (std::rename(temp_.c_str(), path_.c_str()) != 0) return Fail(std::string("cannot rename: ") + std::strerror(errno));
    done_ = true;
    return true;
  }

 private:
  bool Fail(const std::string& why) {
    if (ok_) *error_ = path_ + ": " + why;
    ok_ = false;
    return false;
  }
  std::string path_, temp_;
  std::string* error_;
  bool gz_ = false, ok_ = true, done_ = false;
  FILE* f_ = nullptr;
  gzFile z_ = nullptr;
};

}  // namespace parallax::tracing
