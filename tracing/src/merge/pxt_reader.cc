#include "tracing/src/merge/pxt_reader.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string_view>

#include <sys/stat.h>
#include <unistd.h>

#include "tracing/src/input_file.h"

namespace parallax::tracing {

namespace {

// Number of fields after the time delta, per record kind; the signed ones are zigzagged.
int FieldCount(RecordKind k) {
  switch (k) {
    case RecordKind::kEvent:
    case RecordKind::kCodeEvent:
    case RecordKind::kCallerAt:
      return 2;
    case RecordKind::kStateEnter:
      return 1;
    case RecordKind::kLocation:
      return 1;
    case RecordKind::kCpu:
    case RecordKind::kCaller:
      return 1;
    case RecordKind::kSend:
    case RecordKind::kRecv:
      return 6;
    case RecordKind::kStateLeave:
    case RecordKind::kThreadEnd:
      return 0;
  }
  return -1;
}

bool IsSignedField(RecordKind k, int i) {
  if (k == RecordKind::kEvent) return i == 1;
  if (k == RecordKind::kSend || k == RecordKind::kRecv) return i == 1 || i == 5;
  return false;
}

// Decodes one data chunk; stops at the first incomplete or unknown record.
bool DecodeChunk(const uint8_t* p, const uint8_t* end, uint64_t time, std::vector<RawRecord>* out) {
  while (p < end) {
    RawRecord r;
    if (!(p = RecordCursor::Decode(p, end, &time, &r))) return false;
    out->push_back(r);
  }
  return true;
}

// "key rest-of-line": splits off the first word.
std::string_view Word(std::string_view* line) {
  size_t sp = line->find(' ');
  std::string_view w = line->substr(0, sp);
  *line = sp == std::string_view::npos ? std::string_view() : line->substr(sp + 1);
  return w;
}

long long Num(std::string_view* line) {
  std::string w(Word(line));
  return std::strtoll(w.c_str(), nullptr, 10);
}

void ParseMetaLine(std::string_view line, ProcessFile* f) {
  std::string_view key = Word(&line);
  if (key == "process") {
    f->rank = static_cast<int>(Num(&line));
    f->size = static_cast<int>(Num(&line));
    f->pid = static_cast<long>(Num(&line));
    f->ncpus = static_cast<int>(Num(&line));
    f->start_time = static_cast<uint64_t>(Num(&line));
    f->end_time = static_cast<uint64_t>(Num(&line));
  } else if (key == "host") {
    f->host = std::string(line);
  } else if (key == "session") {
    f->session = std::string(line);
  } else if (key == "skew") {
    f->clock_skewed = Num(&line) != 0;
  } else if (key == "run") {
    f->run = std::string(line);
  } else if (key == "sync") {
    auto t = static_cast<uint64_t>(Num(&line));
    int64_t offset = Num(&line);
    f->sync.push_back({t, offset, static_cast<uint64_t>(Num(&line))});
  } else if (key == "type") {
    auto type = static_cast<uint32_t>(Num(&line));
    f->types[type] = std::string(line);
  } else if (key == "value") {
    auto type = static_cast<uint32_t>(Num(&line));
    int64_t value = Num(&line);
    f->values[{type, value}] = std::string(line);
  } else if (key == "state") {
    auto state = static_cast<uint32_t>(Num(&line));
    f->states[state] = std::string(line);
  } else if (key == "location") {
    auto id = static_cast<uint64_t>(Num(&line));
    f->locations[id] = std::string(line);
  } else if (key == "note") {
    f->notes.emplace_back(line);
  } else if (key == "notice") {
    f->notices.emplace_back(line);
  } else if (key == "module") {
    ProcessFile::Module m;
    m.low = static_cast<uint64_t>(std::strtoull(std::string(Word(&line)).c_str(), nullptr, 10));
    m.high = static_cast<uint64_t>(std::strtoull(std::string(Word(&line)).c_str(), nullptr, 10));
    m.bias = static_cast<uint64_t>(std::strtoull(std::string(Word(&line)).c_str(), nullptr, 10));
    m.path = std::string(line);
    if (m.low < m.high && !m.path.empty()) f->modules.push_back(std::move(m));
  } else if (key == "format") {
    f->format = static_cast<int>(Num(&line));
  } else if (key == "finished") {
    f->finished = true;
  } else if (key == "abnormal") {
    f->abnormal = static_cast<int>(Num(&line));
    f->abnormal_time = static_cast<uint64_t>(Num(&line));
  } else if (key == "limit") {
    f->limit_time = static_cast<uint64_t>(Num(&line));
    f->limit_max = static_cast<uint64_t>(Num(&line));
    f->limit_bytes = static_cast<uint64_t>(Num(&line));
  } else if (key == "bursts") {
    f->burst_threshold = static_cast<uint64_t>(Num(&line));
    f->bursts_kept = static_cast<uint64_t>(Num(&line));
    f->bursts_dropped = static_cast<uint64_t>(Num(&line));
    f->burst_records_dropped = static_cast<uint64_t>(Num(&line));
  } else if (key == "comm") {
    auto& ranks = f->comms[static_cast<uint64_t>(Num(&line))];
    ranks.clear();
    while (!line.empty()) ranks.push_back(static_cast<int>(Num(&line)));
  }
}

void ParseMeta(std::string_view text, ProcessFile* f) {
  f->has_meta = true;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    ParseMetaLine(text.substr(0, nl), f);
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
}

bool ReadAll(const std::string& path, std::string* data, std::string* error) {
  std::string why;
  std::unique_ptr<FILE, int (*)(FILE*)> file(OpenInputFile(path, &why), std::fclose);
  if (!file) {
    *error = path + ": cannot open: " + why;
    return false;
  }
  char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, file.get())) > 0) data->append(buf, n);
  return true;
}

// pread of exactly n bytes at `at` (the file may not end before: its size was read first).
bool ReadAt(int fd, void* buf, size_t n, uint64_t at) {
  auto* p = static_cast<uint8_t*>(buf);
  while (n > 0) {
    const ssize_t got = ::pread(fd, p, n, static_cast<off_t>(at));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    p += got, n -= static_cast<size_t>(got), at += static_cast<uint64_t>(got);
  }
  return true;
}

std::string ReadError(const std::string& path) {
  return path + ": read error: " + (errno ? std::strerror(errno) : "the file became shorter");
}

}  // namespace

const uint8_t* RecordCursor::Decode(const uint8_t* p, const uint8_t* end, uint64_t* time, RawRecord* r) {
  r->kind = static_cast<RecordKind>(*p++);
  const int n = FieldCount(r->kind);
  uint64_t delta;
  if (n < 0 || !(p = GetVarint(p, end, &delta))) return nullptr;
  *time += delta;
  r->time = *time;
  for (int i = 0; i < n; ++i) {
    uint64_t v;
    if (!(p = GetVarint(p, end, &v))) return nullptr;
    r->f[i] = IsSignedField(r->kind, i) ? static_cast<uint64_t>(UnZigZag(v)) : v;
  }
  for (int i = n; i < 6; ++i) r->f[i] = 0;
  return p;
}

RecordCursor::RecordCursor(int fd, const std::vector<ProcessFile::ChunkRef>* chunks, size_t window)
    : fd_(fd), chunks_(chunks), buf_(std::max(window, kMinCursorWindow)) {
  p_ = end_ = buf_.data();
}

bool RecordCursor::NextSlow(RawRecord* r) {
  for (;;) {
    if (end_ - p_ < static_cast<ptrdiff_t>(kMaxRecordBytes) && !Refill()) return false;
    if (const uint8_t* q = Decode(p_, end_, &time_, r)) {
      p_ = q;
      return true;
    }
    // Undecodable (incomplete or of an unknown kind): the rest of the chunk is dropped.
    if (!(*chunks_)[chunk_].cut) ++bad_chunks_;
    chunk_left_ = 0;
    p_ = end_;
  }
}

// Makes at least kMaxRecordBytes available at p_, or the rest of the chunk, moving to the next
// chunk when this one is done; false at the end of the thread or on a read error.
bool RecordCursor::Refill() {
  if (finished_ || failed_) return false;
  while (p_ == end_ && chunk_left_ == 0) {  // the chunk is done
    const size_t next = started_ ? chunk_ + 1 : 0;
    if (next >= chunks_->size()) {
      finished_ = true;
      return false;
    }
    chunk_ = next;
    started_ = true;
    const ProcessFile::ChunkRef& c = (*chunks_)[chunk_];
    time_ = c.base_time;
    file_pos_ = c.offset;
    chunk_left_ = c.length;
    p_ = end_ = buf_.data();
  }
  if (chunk_left_ > 0 && end_ - p_ < static_cast<ptrdiff_t>(kMaxRecordBytes)) {
    const size_t rest = static_cast<size_t>(end_ - p_);
    std::memmove(buf_.data(), p_, rest);
    const size_t n = static_cast<size_t>(std::min<uint64_t>(chunk_left_, buf_.size() - rest));
    errno = 0;
    if (!ReadAt(fd_, buf_.data() + rest, n, file_pos_)) {
      failed_ = true;
      error_ = std::strerror(errno ? errno : EIO);
      p_ = end_ = buf_.data();
      chunk_left_ = 0;
      return false;
    }
    file_pos_ += n, chunk_left_ -= n;
    p_ = buf_.data();
    end_ = p_ + rest + n;
  }
  return true;
}

bool ReadProcessFile(const std::string& path, bool meta_only, ProcessFile* out,
                     std::string* error) {
  if (meta_only) {  // the chunk headers and the metadata only, not the whole file
    const bool ok = ScanProcessFile(path, size_t{1} << 16, out, error);
    out->chunks.clear();
    return ok;
  }
  std::string data;
  if (!ReadAll(path, &data, error)) return false;
  return ParseProcessFile(data, path, meta_only, out, error);
}

bool ScanProcessFile(const std::string& path, size_t block, ProcessFile* out, std::string* error) {
  out->path = path;
  std::string why;
  const int fd = OpenInputFd(path, &why);
  if (fd < 0) {
    *error = path + ": cannot open: " + why;
    return false;
  }
  struct FdCloser {
    int fd;
    ~FdCloser() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    *error = ReadError(path);
    return false;
  }
  const auto size = static_cast<uint64_t>(st.st_size);
  std::vector<uint8_t> buf(std::max<size_t>(block, 4096));
  uint64_t buf_at = 0, buf_len = 0, pos = 0;
  std::string text;
  while (size - pos >= sizeof(ChunkHeader)) {
    if (pos < buf_at || pos + sizeof(ChunkHeader) > buf_at + buf_len) {
      buf_len = std::min<uint64_t>(buf.size(), size - pos);
      buf_at = pos;
      errno = 0;
      if (!ReadAt(fd, buf.data(), static_cast<size_t>(buf_len), pos)) {
        *error = ReadError(path);
        return false;
      }
    }
    ChunkHeader h;
    std::memcpy(&h, buf.data() + (pos - buf_at), sizeof h);
    if (h.magic != kChunkMagic) {
      *error = path + ": not a Parallax per-process trace file (bad chunk magic)";
      return false;
    }
    if (h.kind == static_cast<uint32_t>(ChunkKind::kData) && h.thread >= kMaxThreadsPerProcess) {
      *error = path + ": the chunk at byte " + std::to_string(pos) + " names thread " + std::to_string(h.thread) +
               "; a process has at most " + std::to_string(kMaxThreadsPerProcess) +
               " threads (the file is damaged: trace the program again)";
      return false;
    }
    const uint64_t start = pos + sizeof h;
    const bool complete = h.length <= size - start;
    const uint64_t length = complete ? h.length : size - start;
    if (h.kind == static_cast<uint32_t>(ChunkKind::kMeta)) {
      text.resize(static_cast<size_t>(length));
      if (start >= buf_at && start + length <= buf_at + buf_len) {
        std::memcpy(text.data(), buf.data() + (start - buf_at), text.size());
      } else {
        errno = 0;
        if (!ReadAt(fd, text.data(), text.size(), start)) {
          *error = ReadError(path);
          return false;
        }
      }
      ParseMeta(text, out);
    } else if (h.kind == static_cast<uint32_t>(ChunkKind::kData)) {
      if (out->chunks.size() <= h.thread) out->chunks.resize(h.thread + 1);
      out->chunks[h.thread].push_back({start, length, h.base_time, !complete});
    }
    if (!complete) ++out->truncated_chunks;
    pos = start + length;
  }
  if (out->ncpus < 1 || out->ncpus > kMaxCpus) {
    *error = path + ": the process line names " + std::to_string(out->ncpus) + " cpus; a host has 1 to " +
             std::to_string(kMaxCpus) + " (the file is damaged: trace the program again)";
    return false;
  }
  return true;
}

bool ParseProcessFile(std::string_view data, const std::string& path, bool meta_only, ProcessFile* out,
                      std::string* error) {
  out->path = path;
  const auto* begin = reinterpret_cast<const uint8_t*>(data.data());
  const uint8_t* p = begin;
  const uint8_t* end = p + data.size();
  while (end - p >= static_cast<ptrdiff_t>(sizeof(ChunkHeader))) {
    ChunkHeader h;
    std::memcpy(&h, p, sizeof h);
    const auto at = static_cast<uint64_t>(p - begin);
    p += sizeof h;
    if (h.magic != kChunkMagic) {
      *error = path + ": not a Parallax per-process trace file (bad chunk magic)";
      return false;
    }
    if (h.kind == static_cast<uint32_t>(ChunkKind::kData) && h.thread >= kMaxThreadsPerProcess) {
      *error = path + ": the chunk at byte " + std::to_string(at) + " names thread " + std::to_string(h.thread) +
               "; a process has at most " + std::to_string(kMaxThreadsPerProcess) +
               " threads (the file is damaged: trace the program again)";
      return false;
    }
    bool complete = h.length <= static_cast<uint64_t>(end - p);
    const uint8_t* chunk_end = complete ? p + h.length : end;
    if (h.kind == static_cast<uint32_t>(ChunkKind::kMeta)) {
      ParseMeta(std::string_view(reinterpret_cast<const char*>(p), chunk_end - p), out);
    } else if (h.kind == static_cast<uint32_t>(ChunkKind::kData) && !meta_only) {
      if (out->threads.size() <= h.thread) out->threads.resize(h.thread + 1);
      if (!DecodeChunk(p, chunk_end, h.base_time, &out->threads[h.thread])) complete = false;
    }
    if (!complete) ++out->truncated_chunks;
    p = chunk_end;
  }
  if (out->ncpus < 1 || out->ncpus > kMaxCpus) {
    *error = path + ": the process line names " + std::to_string(out->ncpus) + " cpus; a host has 1 to " +
             std::to_string(kMaxCpus) + " (the file is damaged: trace the program again)";
    return false;
  }
  return true;
}

}  // namespace parallax::tracing
