#include "src/base/gzip_stream.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>

#include <fmt/format.h>

#include "src/base/input_buffer.h"
#include "src/base/regular_file.h"

namespace parallax::base {

namespace {

constexpr size_t kInputBytes = 1 << 20;
constexpr int kGzipOnly = 16 + MAX_WBITS;

}  // namespace

struct GzipStream::State {
  z_stream zs{};
  bool initialised = false;
};

GzipStream::~GzipStream() {
  if (z_ && z_->initialised) inflateEnd(&z_->zs);
  if (fd_ >= 0) ::close(fd_);
}

size_t GzipStream::avail_in() const { return z_ ? z_->zs.avail_in : 0; }

Status GzipStream::Init() {
  z_ = std::make_unique<State>();
  if (inflateInit2(&z_->zs, kGzipOnly) != Z_OK)
    return Status::Error("cannot start gzip decompression (out of memory?)", Location{name_, 0, 0},
                         "");
  z_->initialised = true;
  unsigned char magic[2] = {0, 0};
  size_t got = 0;
  if (fd_ >= 0) {
    ssize_t n = ::pread(fd_, magic, 2, 0);
    got = n > 0 ? static_cast<size_t>(n) : 0;
  } else {
    got = std::min<size_t>(2, memory_.size());
    std::memcpy(magic, memory_.data(), got);
  }
  if (got < 2 || magic[0] != 0x1f || magic[1] != 0x8b) {
    return Status::Error(
        "not gzip data: the name ends in .gz but the file does not start with the gzip magic bytes",
        Location{name_, 0, 0},
        "if it is plain text, rename it without .gz; otherwise the file is damaged");
  }
  return Status::Ok();
}

bool GzipStream::IsGzipFile(const std::string& path) {
  if (!EndsWith(path, ".gz")) return false;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return true;  // the gzip reader reports why it cannot be read
  struct stat st {};
  unsigned char magic[2] = {0, 0};
  // Only a regular file is peeked at (a FIFO would lose its first bytes).
  bool text = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ::pread(fd, magic, 2, 0) == 2 &&
              !(magic[0] == 0x1f && magic[1] == 0x8b);
  ::close(fd);
  return !text;
}

Result<std::unique_ptr<GzipStream>> GzipStream::OpenFile(const std::string& path) {
  std::unique_ptr<GzipStream> s(new GzipStream());
  s->name_ = path;
  struct stat st {};
  auto fd = OpenRegularFile(path, &st);
  if (!fd.ok()) return fd.status();
  s->fd_ = fd.value();
  s->size_ = static_cast<uint64_t>(st.st_size);
  s->in_ = std::make_unique<unsigned char[]>(kInputBytes);
  Status init = s->Init();
  if (!init.ok()) return init;
  return s;
}

Result<std::unique_ptr<GzipStream>> GzipStream::FromMemory(std::string_view bytes,
                                                           std::string name) {
  std::unique_ptr<GzipStream> s(new GzipStream());
  s->name_ = std::move(name);
  s->memory_ = bytes;
  s->size_ = bytes.size();
  Status init = s->Init();
  if (!init.ok()) return init;
  return s;
}

Status GzipStream::Rewind() {
  if (inflateReset(&z_->zs) != Z_OK)
    return Status::Error("cannot restart gzip decompression", Location{name_, 0, 0}, "");
  z_->zs.avail_in = 0;
  z_->zs.next_in = nullptr;
  consumed_ = 0;
  input_end_ = finished_ = truncated_ = false;
  trailing_bytes_ = 0;
  if (fd_ >= 0 && ::lseek(fd_, 0, SEEK_SET) != 0)
    return Status::Error(fmt::format("cannot seek: {}", std::strerror(errno)),
                         Location{name_, 0, 0}, "");
  return Status::Ok();
}

// Hands zlib the next piece of compressed input; sets input_end_ when there is none.
Status GzipStream::Refill() {
  z_stream& zs = z_->zs;
  if (fd_ < 0) {
    size_t left = memory_.size() - consumed_;
    if (left == 0) {
      input_end_ = true;
      return Status::Ok();
    }
    size_t n = std::min<size_t>(left, UINT_MAX);
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(memory_.data() + consumed_));
    zs.avail_in = static_cast<uInt>(n);
    consumed_ += n;
    return Status::Ok();
  }
  ssize_t n;
  do {
    n = ::read(fd_, in_.get(), kInputBytes);
  } while (n < 0 && errno == EINTR);
  if (n < 0)
    return Status::Error(fmt::format("read failed: {}", std::strerror(errno)),
                         Location{name_, 0, 0}, "check the disk and the file");
  if (n == 0) {
    input_end_ = true;
    return Status::Ok();
  }
  zs.next_in = in_.get();
  zs.avail_in = static_cast<uInt>(n);
  consumed_ += static_cast<uint64_t>(n);
  return Status::Ok();
}

Status GzipStream::CorruptError(const char* what) const {
  return Status::Error(
      fmt::format("corrupt gzip data at compressed byte {}: {}", compressed_offset(), what),
      Location{name_, 0, 0}, "the file is damaged; `gzip -t` on it tells more");
}

Result<size_t> GzipStream::Read(char* out, size_t capacity) {
  z_stream& zs = z_->zs;
  size_t produced = 0;
  while (produced < capacity && !finished_) {
    if (zs.avail_in == 0 && !input_end_) {
      Status s = Refill();
      if (!s.ok()) return s;
    }
    if (zs.avail_in == 0 && input_end_) {
      // The input ended inside a member: what was inflated so far is all there is.
      truncated_ = true;
      finished_ = true;
      break;
    }
    zs.next_out = reinterpret_cast<Bytef*>(out + produced);
    zs.avail_out = static_cast<uInt>(std::min<size_t>(capacity - produced, UINT_MAX));
    const uInt before = zs.avail_out;
    int ret = inflate(&zs, Z_NO_FLUSH);
    produced += before - zs.avail_out;
    if (ret == Z_STREAM_END) {
      // Another member may follow; anything else after the end is ignored but counted.
      if (zs.avail_in == 0 && !input_end_) {
        Status s = Refill();
        if (!s.ok()) return s;
      }
      if (zs.avail_in >= 1 && zs.next_in[0] == 0x1f) {
        if (inflateReset(&zs) != Z_OK) return CorruptError("cannot start the next member");
        continue;
      }
      while (zs.avail_in > 0 || !input_end_) {
        trailing_bytes_ += zs.avail_in;
        zs.avail_in = 0;
        Status s = Refill();
        if (!s.ok()) return s;
      }
      finished_ = true;
      break;
    }
    if (ret == Z_BUF_ERROR) continue;  // needs more input (or output, which the loop gives)
    if (ret != Z_OK) return CorruptError(zs.msg != nullptr ? zs.msg : "inflate failed");
  }
  return produced;
}

}  // namespace parallax::base
