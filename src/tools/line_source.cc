#include "src/tools/line_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <cstring>

#include "src/base/gzip_stream.h"
#include "src/base/input_buffer.h"
#include "src/base/regular_file.h"

namespace parallax::tools {

LineSource::~LineSource() {
  if (fd_ >= 0) close(fd_);
  if (gz_ != nullptr) gzclose(gz_);
}

Result<std::unique_ptr<LineSource>> LineSource::Open(const std::string& path, size_t block_bytes) {
  auto src = std::make_unique<LineSource>();
  src->path_ = path;
  src->block_ = block_bytes == 0 ? 1 : block_bytes;
  struct stat st {};
  auto opened = base::OpenRegularFile(path, &st);
  if (!opened.ok()) return opened.status();
  const int fd = opened.value();
  src->file_size_ = static_cast<uint64_t>(st.st_size);
  if (base::GzipStream::IsGzipFile(path)) {
    src->gz_ = gzdopen(fd, "rb");
    if (src->gz_ == nullptr) {
      close(fd);
      return Status::Error("cannot read " + path + " as gzip", {path});
    }
    gzbuffer(src->gz_, 256 * 1024);
  } else {
    posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    src->fd_ = fd;
  }
  src->buf_.resize(src->block_ * 2);
  return src;
}

int64_t LineSource::ReadSome(char* p, size_t n) {
  if (gz_ != nullptr) {
    int got = gzread(gz_, p, static_cast<unsigned>(n));
    int gz_err = Z_OK;
    if (got == 0) gzerror(gz_, &gz_err);  // a truncated stream ends with Z_BUF_ERROR, not -1
    if (got < 0 || (gz_err != Z_OK && gz_err != Z_STREAM_END)) {
      int err = 0;
      const char* msg = gzerror(gz_, &err);
      status_ = Status::Error("cannot decompress " + path_ + ": " + msg, {path_, line_no_ + 1},
                              "the file may be truncated or not gzip-compressed");
      return -1;
    }
    consumed_ = static_cast<uint64_t>(gzoffset(gz_));
    return got;
  }
  ssize_t got;
  do {
    got = read(fd_, p, n);
  } while (got < 0 && errno == EINTR);
  if (got < 0) {
    status_ = Status::Error("cannot read " + path_ + ": " + std::strerror(errno),
                            {path_, line_no_ + 1});
    return -1;
  }
  consumed_ += static_cast<uint64_t>(got);
  return got;
}

bool LineSource::Refill() {
  // Keep the unfinished line at the front, then read one more block after it.
  if (begin_ > 0) {
    std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (buf_.size() - end_ < block_) buf_.resize(end_ + block_);
  int64_t got = ReadSome(buf_.data() + end_, block_);
  if (got < 0) return false;
  if (got == 0) eof_ = true;
  end_ += static_cast<size_t>(got);
  return true;
}

void LineBlock::Reserve(size_t n) {
  if (n <= capacity) return;
  size_t cap = std::max(n, capacity + capacity / 2);
  std::unique_ptr<char[]> bigger(new char[cap]);
  if (size > 0) std::memcpy(bigger.get(), data.get(), size);
  data = std::move(bigger);
  capacity = cap;
}

bool LineSource::TakeLines(LineBlock* block, size_t want) {
  if (want == 0) want = 1;
  // What Next() left unread, then fresh reads until a line ends (or the file does).
  block->size = 0;
  block->Reserve(end_ - begin_ + want);
  std::memcpy(block->data.get(), buf_.data() + begin_, end_ - begin_);
  block->size = end_ - begin_;
  begin_ = end_ = 0;
  for (;;) {
    if (eof_ || !status_.ok()) return status_.ok() && block->size > 0;
    block->Reserve(block->size + want);
    const size_t old = block->size;
    int64_t got = ReadSome(block->data.get() + old, want);
    if (got < 0) return false;
    if (got == 0) {
      eof_ = true;
      continue;
    }
    block->size += static_cast<size_t>(got);
    const void* nl = memrchr(block->data.get() + old, '\n', static_cast<size_t>(got));
    if (nl == nullptr) continue;  // a line longer than what was read: read more
    // Keep the unfinished last line for the next call.
    const size_t keep = static_cast<size_t>(static_cast<const char*>(nl) - block->data.get()) + 1;
    const size_t tail = block->size - keep;
    if (buf_.size() < tail) buf_.resize(tail);
    std::memcpy(buf_.data(), block->data.get() + keep, tail);
    end_ = tail;
    block->size = keep;
    return true;
  }
}

bool LineSource::Next(std::string_view* line) {
  for (;;) {
    const char* start = buf_.data() + begin_;
    size_t avail = end_ - begin_;
    const void* nl = avail ? std::memchr(start, '\n', avail) : nullptr;
    if (nl != nullptr || (eof_ && avail > 0)) {
      size_t len = nl ? static_cast<size_t>(static_cast<const char*>(nl) - start) : avail;
      begin_ += nl ? len + 1 : len;
      if (len > 0 && start[len - 1] == '\r') --len;
      *line = std::string_view(start, len);
      ++line_no_;
      return true;
    }
    if (eof_ || !status_.ok()) return false;
    if (!Refill()) return false;
  }
}

}  // namespace parallax::tools
