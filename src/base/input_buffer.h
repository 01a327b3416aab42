#pragma once
// The whole content of an input file in memory: memory-mapped for plain files, decompressed
// into one buffer for .gz files (compression is decided by the file name, as Paraver does).
// Large .prv.gz traces are not read this way but streamed (src/io/prv, GzipStream).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "include/parallax/status.h"
#include "src/base/mapping_guard.h"

namespace parallax::base {

// Called with (bytes done, bytes total) while a long read is in progress; may be empty.
using ProgressFn = std::function<void(uint64_t, uint64_t)>;

// Which file, in which version: what fstat says of it when it was opened. Any write, truncation,
// rename over it or change of its mode moves its ctime, which no program can set back.
struct FileIdentity {
  uint64_t device = 0, inode = 0, size = 0;
  int64_t mtime_ns = 0, ctime_ns = 0;
  bool operator==(const FileIdentity&) const = default;
};

class InputBuffer {
 public:
  InputBuffer() = default;
  InputBuffer(const InputBuffer&) = delete;
  InputBuffer& operator=(const InputBuffer&) = delete;
  InputBuffer(InputBuffer&& other) noexcept;
  InputBuffer& operator=(InputBuffer&& other) noexcept;
  ~InputBuffer();

  // Reads `path`; names ending in ".gz" are decompressed, within `memory_budget` bytes (0: the
  // default budget); a .gz name on data that is not gzip, or truncated gzip data, is an error.
  static Result<InputBuffer> Open(const std::string& path, const ProgressFn& progress = {},
                                  uint64_t memory_budget = 0);
  // Wraps text held in memory (tests, generated input).
  static InputBuffer FromString(std::string text);

  std::string_view view() const { return {data_, size_}; }
  uint64_t compressed_size() const { return compressed_size_; }
  // The opened file as fstat saw it (all zero for FromString).
  const FileIdentity& identity() const { return identity_; }
  bool was_compressed() const { return compressed_; }

  // Tells the kernel that [begin, end) of a mapped file will not be read again, so its pages
  // need not stay resident. No effect on decompressed buffers.
  void Release(size_t begin, size_t end) const;

  // A mapped file is guarded (mapping_guard.h): if it is truncated while mapped, the lost pages
  // read as zeros and this says so. Null for buffers that are not a mapping.
  std::shared_ptr<const MappingStatus> mapping_status() const {
    return guard_ ? guard_->status() : nullptr;
  }
  // `parse(view())`, or the error saying that the file changed while it was read when it was
  // truncated meanwhile (what was parsed from the zeros is dropped).
  template <typename F>
  auto Parse(F&& parse) const -> decltype(parse(std::string_view())) {
    auto result = parse(view());
    if (guard_ && guard_->status()->truncated()) return guard_->status()->Unchanged();
    return result;
  }

 private:
  void Reset();

  const char* data_ = nullptr;
  size_t size_ = 0;
  void* mapping_ = nullptr;  // mmap base when mapped
  std::unique_ptr<MappingGuard> guard_;  // while mapped
  std::unique_ptr<char[]> owned_;
  uint64_t compressed_size_ = 0;
  bool compressed_ = false;
  FileIdentity identity_;
};

// What stat says of `path`; false when it cannot be read.
bool IdentityOfPath(const std::string& path, FileIdentity* out);

// True when `a` and `b` name one existing file (same device and inode, whatever the spelling:
// links, "./", symbolic links).
bool SameFile(const std::string& a, const std::string& b);

// True when `path` ends with `suffix`.
bool EndsWith(std::string_view path, std::string_view suffix);

}  // namespace parallax::base
