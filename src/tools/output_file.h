#pragma once
// An output file written under a temporary name in its target folder and renamed into place by
// Commit(): a failed or interrupted run leaves nothing behind, and an existing file is never
// replaced unless the caller allows it. Names ending in ".gz" are gzip-compressed. Writes are
// buffered; numbers are formatted with std::to_chars (no iostreams, no allocation per line).

#include <zlib.h>

#include <charconv>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "include/parallax/status.h"

namespace parallax::tools {

class OutputFile {
 public:
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();  // removes the temporary file unless committed

  // Fails when `path` exists and `force` is false, or when the folder is not writable. The
  // output is gzip-compressed when `path` ends in ".gz".
  static Result<std::unique_ptr<OutputFile>> Create(const std::string& path, bool force);
  // The same with the compression chosen by the caller.
  static Result<std::unique_ptr<OutputFile>> Create(const std::string& path, bool force,
                                                    bool gzip);

  // From now on, full buffers are written (or compressed) by a thread of their own while the
  // caller fills the next one (at most kBehind buffers wait). Without it (or when the thread
  // cannot start) every write happens on the caller's thread. Errors come out of Commit().
  void WriteBehind();

  void Text(std::string_view s) {
    if (s.size() > kSize - used_) {
      Flush();
      if (s.size() > kSize) {
        if (writer_.joinable()) {  // through the buffers, in order
          for (size_t at = 0; at < s.size(); at += kSize) Text(s.substr(at, kSize));
          return;
        }
        Write(s.data(), s.size());
        written_ += s.size();
        return;
      }
    }
    std::memcpy(buf_.data() + used_, s.data(), s.size());
    used_ += s.size();
  }
  void Char(char c) {
    if (used_ == kSize) Flush();
    buf_[used_++] = c;
  }
  template <typename T>
  void Num(T v) {
    if (kSize - used_ < 24) Flush();
    auto r = std::to_chars(buf_.data() + used_, buf_.data() + kSize, v);
    used_ = static_cast<size_t>(r.ptr - buf_.data());
  }

  // Overwrites the first head.size() bytes written with `head` (a header whose end time is
  // known only at the end, written first with the same length). Not for .gz outputs (false).
  // Everything buffered is written first; later writes happen on the caller's thread.
  bool RewriteStart(std::string_view head);
  bool compressed() const { return gz_ != nullptr; }

  // Flushes, closes and renames the temporary file to the final name.
  Status Commit();
  const std::string& path() const { return path_; }
  uint64_t bytes_written() const { return written_ + used_; }

 private:
  static constexpr size_t kSize = 1u << 20;
  static constexpr size_t kBehind = 2;  // full buffers waiting for the writer thread at most
  OutputFile() = default;
  void Flush();
  void Write(const char* p, size_t n);
  void WriterLoop();
  void StopWriter();

  std::string path_, tmp_path_;
  int fd_ = -1;
  gzFile gz_ = nullptr;
  std::vector<char> buf_;
  size_t used_ = 0;
  uint64_t written_ = 0;
  bool committed_ = false;
  bool force_ = false;
  Status error_;  // the writer thread's while it runs
  // Write-behind: full buffers (with their sizes) waiting, and spare ones.
  std::thread writer_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<std::pair<std::vector<char>, size_t>> full_;  // in order, front first
  std::vector<std::vector<char>> spare_;
  bool closing_ = false;
};

// True when a file (or anything) exists at `path`.
bool PathExists(const std::string& path);

// Copies a small text file (.pcf, .row) through a temporary name. Missing `from` is not an
// error (returns false in *copied).
Status CopyCompanion(const std::string& from, const std::string& to, bool force, bool* copied);

}  // namespace parallax::tools
