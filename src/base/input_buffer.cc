#include "src/base/input_buffer.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "src/base/gzip_stream.h"
#include "src/base/memory_budget.h"
#include "src/base/regular_file.h"

namespace parallax::base {

bool EndsWith(std::string_view path, std::string_view suffix) {
  return path.size() >= suffix.size() && path.substr(path.size() - suffix.size()) == suffix;
}

InputBuffer::InputBuffer(InputBuffer&& other) noexcept { *this = std::move(other); }

InputBuffer& InputBuffer::operator=(InputBuffer&& other) noexcept {
  if (this != &other) {
    Reset();
    data_ = other.data_;
    size_ = other.size_;
    mapping_ = other.mapping_;
    guard_ = std::move(other.guard_);
    owned_ = std::move(other.owned_);
    compressed_size_ = other.compressed_size_;
    compressed_ = other.compressed_;
    identity_ = other.identity_;
    other.data_ = nullptr;
    other.size_ = 0;
    other.mapping_ = nullptr;
  }
  return *this;
}

InputBuffer::~InputBuffer() { Reset(); }

void InputBuffer::Reset() {
  guard_.reset();  // before the pages go
  if (mapping_ != nullptr) munmap(mapping_, size_);
  mapping_ = nullptr;
  owned_.reset();
  data_ = nullptr;
  size_ = 0;
}

InputBuffer InputBuffer::FromString(std::string text) {
  InputBuffer b;
  b.owned_ = std::make_unique<char[]>(text.size() + 1);
  std::memcpy(b.owned_.get(), text.data(), text.size());
  b.data_ = b.owned_.get();
  b.size_ = text.size();
  b.compressed_size_ = text.size();
  return b;
}

void InputBuffer::Release(size_t begin, size_t end) const {
  if (mapping_ == nullptr || end <= begin) return;
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  size_t first = (begin + page - 1) / page * page;
  size_t last = end / page * page;
  if (last > first) madvise(static_cast<char*>(mapping_) + first, last - first, MADV_DONTNEED);
}

namespace {

Status OpenError(const std::string& path, const char* what) {
  return Status::Error(std::string(what) + ": " + std::strerror(errno), Location{path, 0, 0},
                       "check that the file exists and is readable");
}

// Decompresses a gzip file into one buffer (companion files, cfgs: small). The size is not known
// in advance, so the buffer grows geometrically, within the memory budget.
Status ReadGzip(const std::string& path, uint64_t file_size, const ProgressFn& progress,
                uint64_t budget, std::unique_ptr<char[]>& out, size_t& out_size) {
  auto stream = GzipStream::OpenFile(path);
  if (!stream.ok()) return stream.status();
  GzipStream& gz = *stream.value();
  budget = EffectiveMemoryBudget(budget);
  size_t capacity = std::max<size_t>(std::min<uint64_t>(file_size * 4, budget / 2), 1 << 16);
  auto buf = std::make_unique<char[]>(capacity + 1);
  size_t used = 0;
  for (;;) {
    if (capacity - used < (1 << 16)) {
      if (capacity >= budget / 2)
        return Status::Error(
            fmt::format("the decompressed file is larger than the memory budget allows ({} "
                        "inflated so far, budget {})",
                        FormatBytes(used), FormatBytes(budget)),
            Location{path, 0, 0}, "decompress it with gunzip and open the plain file instead");
      size_t grown = capacity * 2;
      auto bigger = std::make_unique<char[]>(grown + 1);
      std::memcpy(bigger.get(), buf.get(), used);
      buf = std::move(bigger);
      capacity = grown;
    }
    auto got = gz.Read(buf.get() + used, capacity - used);
    if (!got.ok()) return got.status();
    if (got.value() == 0) break;
    used += got.value();
    if (progress) progress(gz.compressed_offset(), file_size);
  }
  if (gz.truncated())
    return Status::Error(fmt::format("truncated gzip file: the compressed data stops at byte {} "
                                     "inside a gzip member",
                                     gz.compressed_offset()),
                         Location{path, 0, 0}, "the file was cut short; copy it again");
  out = std::move(buf);
  out_size = used;
  return Status::Ok();
}

}  // namespace

namespace {

FileIdentity IdentityOf(const struct stat& st) {
  FileIdentity id;
  id.device = static_cast<uint64_t>(st.st_dev);
  id.inode = static_cast<uint64_t>(st.st_ino);
  id.size = static_cast<uint64_t>(st.st_size);
  id.mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  id.ctime_ns = static_cast<int64_t>(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec;
  return id;
}

}  // namespace

bool IdentityOfPath(const std::string& path, FileIdentity* out) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return false;
  *out = IdentityOf(st);
  return true;
}

bool SameFile(const std::string& a, const std::string& b) {
  FileIdentity x, y;
  return IdentityOfPath(a, &x) && IdentityOfPath(b, &y) && x.device == y.device && x.inode == y.inode;
}

Result<InputBuffer> InputBuffer::Open(const std::string& path, const ProgressFn& progress,
                                      uint64_t memory_budget) {
  struct stat st {};
  auto opened = OpenRegularFile(path, &st);
  if (!opened.ok()) return opened.status();
  const int fd = opened.value();
  InputBuffer b;
  b.identity_ = IdentityOf(st);
  b.compressed_size_ = static_cast<uint64_t>(st.st_size);
  if (GzipStream::IsGzipFile(path)) {
    ::close(fd);
    b.compressed_ = true;
    Status s = ReadGzip(path, b.compressed_size_, progress, memory_budget, b.owned_, b.size_);
    if (!s.ok()) return s;
    b.data_ = b.owned_.get();
    return b;
  }
  if (st.st_size == 0) {
    ::close(fd);
    b.owned_ = std::make_unique<char[]>(1);
    b.data_ = b.owned_.get();
    return b;
  }
  void* m = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  if (m == MAP_FAILED) return OpenError(path, "cannot map");
  madvise(m, static_cast<size_t>(st.st_size), MADV_SEQUENTIAL);
  b.mapping_ = m;
  b.guard_ = std::make_unique<MappingGuard>(m, static_cast<size_t>(st.st_size), path, false);
  b.data_ = static_cast<const char*>(m);
  b.size_ = static_cast<size_t>(st.st_size);
  return b;
}

}  // namespace parallax::base
