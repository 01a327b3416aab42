#include "src/io/cache/trace_cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "src/base/input_buffer.h"
#include "src/base/parallel.h"
#include "src/io/prv/prv_header_parser.h"
#include "src/io/prv/prv_writer.h"

namespace parallax::io::cache {

namespace {

constexpr uint32_t kByteOrderMark = 0x01020304;
constexpr size_t kHeaderBytes = 56;
constexpr size_t kStampWindow = 64 * 1024;
constexpr size_t kReleaseBytes = 1 << 20;

enum Section : uint32_t { kMeta = 1, kThreads = 2, kComms = 3, kCpuView = 4 };

uint32_t Crc(uint32_t crc, const void* data, size_t n) {
  const auto* p = static_cast<const Bytef*>(data);
  while (n > 0) {  // zlib's length is 32-bit
    uInt step = static_cast<uInt>(std::min<size_t>(n, 1u << 30));
    crc = static_cast<uint32_t>(crc32(crc, p, step));
    p += step;
    n -= step;
  }
  return crc;
}

size_t Pad8(size_t n) { return (8 - n % 8) % 8; }

XXH3_state_t* NewHashState() {
  XXH3_state_t* s = XXH3_createState();
  if (s == nullptr) throw std::bad_alloc();
  XXH3_64bits_reset(s);
  return s;
}

// The payload's checksum: XXH3-64 of the XXH3-64s of its 16 MiB blocks (the last one shorter),
// so a reader checks the blocks on every core at once.
constexpr size_t kHashBlock = 16u << 20;

// Streams bytes into block hashes.
class BlockHasher {
 public:
  void Update(const void* data, size_t n) {
    const char* p = static_cast<const char*>(data);
    while (n > 0) {
      size_t step = std::min(n, kHashBlock - in_block_);
      XXH3_64bits_update(state_.get(), p, step);
      in_block_ += step;
      p += step;
      n -= step;
      if (in_block_ == kHashBlock) Close();
    }
  }
  uint64_t Digest() {
    if (in_block_ > 0) Close();
    return CombineBlockHashes(blocks_);
  }

 private:
  void Close() {
    blocks_.push_back(XXH3_64bits_digest(state_.get()));
    XXH3_64bits_reset(state_.get());
    in_block_ = 0;
  }
  std::unique_ptr<XXH3_state_t, decltype(&XXH3_freeState)> state_{NewHashState(), XXH3_freeState};
  size_t in_block_ = 0;
  std::vector<uint64_t> blocks_;
};

// The encoder writes through a sink: a counting one sizes each section first (sections are
// length-prefixed), then the file sink writes it, summing the crc32 of the payload.
class Sink {
 public:
  virtual ~Sink() = default;
  virtual void Put(const void* data, size_t n) = 0;
  void U64(uint64_t v) { Put(&v, 8); }
  void Zeros(size_t n) {
    static constexpr char kZero[8] = {};
    Put(kZero, n);
  }
  template <typename T>
  void Array(const T* data, size_t count) {
    static_assert(std::is_trivially_copyable_v<T>);
    U64(count);
    Put(data, count * sizeof(T));
    Zeros(Pad8(count * sizeof(T)));
  }
  template <typename T>
  void Array(const std::vector<T>& v) { Array(v.data(), v.size()); }
  template <typename T>
  void Array(const store::Column<T>& v) { Array(v.data(), v.size()); }
  void String(std::string_view s) { Array(s.data(), s.size()); }
};

class CountingSink : public Sink {
 public:
  void Put(const void*, size_t n) override { bytes += n; }
  uint64_t bytes = 0;
};

class FileSink : public Sink {
 public:
  FileSink(std::FILE* f, uint64_t fail_after) : f_(f), fail_after_(fail_after) {}
  void Put(const void* data, size_t n) override {
    if (failed_ || n == 0) return;
    if (written_ + n > fail_after_) {
      failed_ = true;
      error_ = ENOSPC;
      return;
    }
    if (std::fwrite(data, 1, n, f_) != n) {
      failed_ = true;
      error_ = errno;
      return;
    }
    written_ += n;
    hash_.Update(data, n);
  }
  bool failed() const { return failed_; }
  int error() const { return error_; }
  uint64_t hash() { return hash_.Digest(); }
  uint64_t written() const { return written_; }

 private:
  std::FILE* f_;
  uint64_t fail_after_;
  uint64_t written_ = 0;
  BlockHasher hash_;
  bool failed_ = false;
  int error_ = 0;
};

// What the encoders write: the trace, and its event types (scanned once by WriteCache when the
// trace does not know them: each section is encoded twice, to count its bytes, then to write).
struct EncodeInput {
  const PrvTrace& trace;
  const std::vector<uint32_t>& event_types;
};

void EncodeMeta(const EncodeInput& in, Sink& s) {
  const PrvTrace& t = in.trace;
  std::string header = FormatPrvHeader(t.header);
  s.String(header.substr(0, header.find('\n')));
  s.U64(t.header.communicators.size());
  for (const auto& c : t.header.communicators) s.String(c);
  s.String(header);
  s.U64(t.store.end_time());
  s.U64(t.body_lines);
  s.U64(t.file_bytes);
  s.U64(t.event_lines);
  s.U64(t.global_comm_lines);
  s.U64(t.open_end_as_number ? 1 : 0);
  s.U64(t.text_buffer_bytes);
  s.U64(t.chunks);
  s.Array(t.unsigned_value_types);
  s.Array(in.event_types);
  constexpr size_t kinds = static_cast<size_t>(DiagKind::kCount);
  s.U64(kinds);
  for (size_t k = 0; k < kinds; ++k) {
    auto kind = static_cast<DiagKind>(k);
    s.U64(t.diagnostics.count(kind));
    const auto& ex = t.diagnostics.examples(kind);
    s.U64(ex.size());
    for (const auto& e : ex) {
      s.U64(e.line);
      s.U64(e.column);
      s.String(e.detail);
    }
  }
}

void EncodeThreads(const EncodeInput& in, Sink& s) {
  const store::TraceStore& st = in.trace.store;
  s.U64(st.threads());
  for (size_t i = 0; i < st.threads(); ++i) {
    const auto& tr = st.thread(model::ThreadIndex(static_cast<uint32_t>(i)));
    s.Array(tr.states.begin);
    s.Array(tr.states.end);
    s.Array(tr.states.state);
    s.Array(tr.states.cpu);
    s.Array(tr.events.time);
    s.Array(tr.events.type);
    s.Array(tr.events.value);
    s.Array(tr.events.cpu);
    s.Array(tr.sent);
    s.Array(tr.received);
  }
}

void EncodeComms(const EncodeInput& in, Sink& s) {
  const store::CommTable& c = in.trace.store.comms();
  s.Array(c.sender);
  s.Array(c.receiver);
  s.Array(c.sender_cpu);
  s.Array(c.receiver_cpu);
  s.Array(c.log_send);
  s.Array(c.phy_send);
  s.Array(c.log_recv);
  s.Array(c.phy_recv);
  s.Array(c.size);
  s.Array(c.tag);
}

void EncodeCpuView(const EncodeInput& in, Sink& s) {
  const store::CpuView& v = in.trace.store.cpu_view();
  s.U64(v.state_runs.size());
  for (const auto& r : v.state_runs) s.Array(r);
  s.U64(v.event_runs.size());
  for (const auto& r : v.event_runs) s.Array(r);
}

using Encoder = void (*)(const EncodeInput&, Sink&);
constexpr std::pair<Section, Encoder> kSections[] = {
    {kMeta, EncodeMeta}, {kThreads, EncodeThreads}, {kComms, EncodeComms}, {kCpuView, EncodeCpuView}};

void PutHeader(std::FILE* f, uint64_t payload, uint64_t hash, const SourceStamp& stamp) {
  char h[kHeaderBytes] = {};
  std::memcpy(h, kMagic.data(), 8);
  uint32_t version = kFormatVersion, bom = kByteOrderMark;
  std::memcpy(h + 8, &version, 4);
  std::memcpy(h + 12, &bom, 4);
  std::memcpy(h + 16, &payload, 8);
  std::memcpy(h + 24, &hash, 8);
  std::memcpy(h + 32, &stamp.size, 8);
  std::memcpy(h + 40, &stamp.mtime_ns, 8);
  std::memcpy(h + 48, &stamp.hash, 8);
  std::fwrite(h, 1, kHeaderBytes, f);
}

// Reads checked values from the payload; the first failure sticks and names the offset.
class Reader {
 public:
  Reader(std::string_view bytes, size_t base, const std::function<void(size_t, size_t)>* release = nullptr,
         const std::shared_ptr<const void>* keep = nullptr)
      : bytes_(bytes), base_(base), release_(release), keep_(keep) {}
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  unsigned threads = 0;  // workers for the value checks (DecodeOptions::threads)
  size_t remaining() const { return bytes_.size() - pos_; }
  void Fail(const std::string& what) {
    if (error_.empty()) error_ = fmt::format("{} at byte {}", what, base_ + pos_);
  }
  uint64_t U64() {
    uint64_t v = 0;
    if (!ok()) return 0;
    if (remaining() < 8) {
      Fail("unexpected end of data");
      return 0;
    }
    std::memcpy(&v, bytes_.data() + pos_, 8);
    pos_ += 8;
    return v;
  }
  // A count that can be at most `limit`.
  uint64_t Count(uint64_t limit, const char* what) {
    uint64_t n = U64();
    if (ok() && n > limit) Fail(fmt::format("{} count {} is out of range", what, n));
    return ok() ? n : 0;
  }
  template <typename T>
  void Array(std::vector<T>& out) {
    uint64_t n = U64();
    if (!ok()) return;
    if (n > remaining() / sizeof(T)) {
      Fail(fmt::format("array of {} elements runs past the end", n));
      return;
    }
    size_t bytes = static_cast<size_t>(n) * sizeof(T);
    out.resize(static_cast<size_t>(n));
    if (bytes > 0) std::memcpy(out.data(), bytes_.data() + pos_, bytes);
    pos_ += bytes;
    if (release_ != nullptr && *release_ && pos_ - released_ >= kReleaseBytes) {
      (*release_)(base_ + released_, base_ + pos_);
      released_ = pos_;
    }
    Skip(Pad8(bytes));
  }
  // A store column: a view of the bytes when the caller keeps them alive (and they are
  // aligned for T), else a copy.
  template <typename T>
  void Array(store::Column<T>& out) {
    if (keep_ == nullptr || !*keep_) {
      std::vector<T> v;
      Array(v);
      out = std::move(v);
      return;
    }
    uint64_t n = U64();
    if (!ok()) return;
    if (n > remaining() / sizeof(T)) {
      Fail(fmt::format("array of {} elements runs past the end", n));
      return;
    }
    size_t bytes = static_cast<size_t>(n) * sizeof(T);
    const char* at = bytes_.data() + pos_;
    if (reinterpret_cast<uintptr_t>(at) % alignof(T) == 0) {
      out = store::Column<T>::View(reinterpret_cast<const T*>(at), static_cast<size_t>(n), *keep_);
    } else {  // a damaged section length shifted the data; copying keeps the reads aligned
      std::vector<T> v(static_cast<size_t>(n));
      if (bytes > 0) std::memcpy(v.data(), at, bytes);
      out = std::move(v);
    }
    pos_ += bytes;
    Skip(Pad8(bytes));
  }
  std::string String() {
    std::vector<char> v;
    Array(v);
    return std::string(v.begin(), v.end());
  }
  void Skip(size_t n) {
    if (!ok()) return;
    if (remaining() < n) {
      Fail("unexpected end of data");
      return;
    }
    pos_ += n;
  }
  std::string_view Take(size_t n) {
    if (!ok() || remaining() < n) {
      Fail("section runs past the end");
      return {};
    }
    std::string_view v = bytes_.substr(pos_, n);
    pos_ += n;
    return v;
  }
  size_t pos() const { return pos_; }

 private:
  std::string_view bytes_;
  size_t base_;
  const std::function<void(size_t, size_t)>* release_;
  const std::shared_ptr<const void>* keep_;
  size_t pos_ = 0;
  size_t released_ = 0;  // bytes before this were handed to release_
  std::string error_;
};

void DecodeMeta(Reader& r, PrvTrace& t) {
  std::string line = r.String();
  uint64_t comms = r.Count(r.remaining() / 8, "communicator");
  std::vector<std::string> communicators;
  for (uint64_t i = 0; i < comms && r.ok(); ++i) communicators.push_back(r.String());
  std::string formatted = r.String();
  if (!r.ok()) return;
  auto header = ParsePrvHeader(line, "cache");
  if (!header.ok()) return r.Fail("the saved header does not parse");
  t.header = std::move(header.value());
  if (t.header.communicators.size() != communicators.size())
    return r.Fail("the saved communicators do not match the header");
  t.header.communicators = std::move(communicators);
  if (FormatPrvHeader(t.header) != formatted) return r.Fail("the saved header does not round-trip");
  t.store = store::TraceStore(t.header.processes.threads());
  t.store.set_end_time(r.U64());
  t.body_lines = r.U64();
  t.file_bytes = r.U64();
  t.event_lines = r.U64();
  t.global_comm_lines = r.U64();
  t.open_end_as_number = r.U64() != 0;
  t.text_buffer_bytes = r.U64();
  t.chunks = r.U64();
  r.Array(t.unsigned_value_types);
  r.Array(t.event_types);
  if (!std::is_sorted(t.event_types.begin(), t.event_types.end()) ||
      std::adjacent_find(t.event_types.begin(), t.event_types.end()) != t.event_types.end())
    return r.Fail("the saved event types are not sorted and distinct");
  t.event_types_known = true;
  constexpr size_t kinds = static_cast<size_t>(DiagKind::kCount);
  if (r.U64() != kinds) return r.Fail("the diagnostic kinds differ from this version's");
  for (size_t k = 0; k < kinds && r.ok(); ++k) {
    uint64_t count = r.U64();
    uint64_t n = r.Count(Diagnostics::kMaxExamples, "diagnostic example");
    std::vector<DiagExample> ex;
    for (uint64_t i = 0; i < n && r.ok(); ++i) {
      DiagExample e;
      e.line = r.U64();
      e.column = r.U64();
      e.detail = r.String();
      ex.push_back(std::move(e));
    }
    if (count < n) return r.Fail("a diagnostic has more examples than its count");
    t.diagnostics.Restore(static_cast<DiagKind>(k), count, std::move(ex));
  }
}

bool CpusInRange(const store::Column<uint16_t>& cpu, uint32_t cpus) {
  return std::all_of(cpu.begin(), cpu.end(), [cpus](uint16_t c) { return c <= cpus; });
}

void DecodeThreads(Reader& r, PrvTrace& t) {
  store::TraceStore& st = t.store;
  if (r.U64() != st.threads()) return r.Fail("the thread count differs from the header's");
  const uint32_t cpus = t.header.resources.cpus();
  for (size_t i = 0; i < st.threads() && r.ok(); ++i) {
    auto& tr = st.thread(model::ThreadIndex(static_cast<uint32_t>(i)));
    r.Array(tr.states.begin);
    r.Array(tr.states.end);
    r.Array(tr.states.state);
    r.Array(tr.states.cpu);
    r.Array(tr.events.time);
    r.Array(tr.events.type);
    r.Array(tr.events.value);
    r.Array(tr.events.cpu);
    r.Array(tr.sent);
    r.Array(tr.received);
    if (!r.ok()) return;
    size_t ns = tr.states.begin.size(), ne = tr.events.time.size();
    if (tr.states.end.size() != ns || tr.states.state.size() != ns || tr.states.cpu.size() != ns ||
        tr.events.type.size() != ne || tr.events.value.size() != ne || tr.events.cpu.size() != ne)
      return r.Fail(fmt::format("the columns of thread {} differ in length", i + 1));
  }
  if (!r.ok()) return;
  // The cpu values of every thread, on every core: the first thread (in order) with a bad one.
  std::vector<uint8_t> bad(st.threads(), 0);
  base::ParallelFor(st.threads(), r.threads, [&](size_t i) {
    const auto& tr = st.thread(model::ThreadIndex(static_cast<uint32_t>(i)));
    bad[i] = !CpusInRange(tr.states.cpu, cpus) || !CpusInRange(tr.events.cpu, cpus);
  });
  if (auto it = std::find(bad.begin(), bad.end(), 1); it != bad.end())
    return r.Fail(fmt::format("thread {} names a cpu the header does not have", it - bad.begin() + 1));
}

void DecodeComms(Reader& r, PrvTrace& t) {
  store::CommTable& c = t.store.comms();
  r.Array(c.sender);
  r.Array(c.receiver);
  r.Array(c.sender_cpu);
  r.Array(c.receiver_cpu);
  r.Array(c.log_send);
  r.Array(c.phy_send);
  r.Array(c.log_recv);
  r.Array(c.phy_recv);
  r.Array(c.size);
  r.Array(c.tag);
  if (!r.ok()) return;
  size_t n = c.sender.size();
  for (size_t len : {c.receiver.size(), c.sender_cpu.size(), c.receiver_cpu.size(), c.log_send.size(),
                     c.phy_send.size(), c.log_recv.size(), c.phy_recv.size(), c.size.size(), c.tag.size()})
    if (len != n) return r.Fail("the communication columns differ in length");
  const size_t threads = t.store.threads();
  const uint32_t cpus = t.header.resources.cpus();
  for (size_t i = 0; i < n; ++i)
    if (c.sender[i] >= threads || c.receiver[i] >= threads)
      return r.Fail(fmt::format("communication {} names a thread the header does not have", i + 1));
  if (!CpusInRange(c.sender_cpu, cpus) || !CpusInRange(c.receiver_cpu, cpus))
    return r.Fail("a communication names a cpu the header does not have");
  for (size_t i = 0; i < threads; ++i) {
    const auto& tr = t.store.thread(model::ThreadIndex(static_cast<uint32_t>(i)));
    for (uint32_t id : tr.sent)
      if (id >= n || c.sender[id] != i) return r.Fail(fmt::format("thread {} has a bad send index", i + 1));
    for (uint32_t id : tr.received)
      if (id >= n || c.receiver[id] != i)
        return r.Fail(fmt::format("thread {} has a bad receive index", i + 1));
  }
}

void DecodeRuns(Reader& r, PrvTrace& t, std::vector<std::vector<store::CpuRun>>& runs, bool states) {
  const uint32_t cpus = t.header.resources.cpus();
  if (r.U64() != cpus) return r.Fail("the cpu view's cpu count differs from the header's");
  runs.assign(cpus, {});
  for (auto& list : runs) {
    r.Array(list);
    if (!r.ok()) return;
    for (const auto& run : list) {
      if (run.thread >= t.store.threads()) return r.Fail("a cpu run names a thread the header does not have");
      const auto& tr = t.store.thread(model::ThreadIndex(run.thread));
      size_t size = states ? tr.states.size() : tr.events.size();
      if (run.first >= run.last || run.last > size) return r.Fail("a cpu run is out of range");
    }
  }
}

void DecodeCpuView(Reader& r, PrvTrace& t) {
  DecodeRuns(r, t, t.store.cpu_view().state_runs, true);
  DecodeRuns(r, t, t.store.cpu_view().event_runs, false);
}

uint32_t ReadU32(std::string_view b, size_t at) {
  uint32_t v;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}
uint64_t ReadU64(std::string_view b, size_t at) {
  uint64_t v;
  std::memcpy(&v, b.data() + at, 8);
  return v;
}

Status Invalid(const std::string& path, const std::string& what) {
  return Status::Error("unusable trace cache: " + what, Location{path, 0, 0},
                       "it is rebuilt from the trace; `parallax cache clear TRACE` removes it");
}

uint64_t HashAbsolutePath(const std::string& abs) { return Crc(0, abs.data(), abs.size()); }

// The seal's one line (docs/formats.md, "Trace cache"): what the cache file was when its
// payload was last known to match its checksum.
std::string SealLine(const base::FileIdentity& id, uint64_t payload_hash) {
  return fmt::format("parallax-cache-seal 1 {} {} {} {} {} {:016x}\n", id.device, id.inode, id.size,
                     id.mtime_ns, id.ctime_ns, payload_hash);
}

}  // namespace

size_t ChecksumBlocks(uint64_t payload_bytes) {
  return static_cast<size_t>((payload_bytes + kHashBlock - 1) / kHashBlock);
}

std::vector<uint64_t> HashBlocks(std::string_view payload, size_t first, size_t last, unsigned threads) {
  last = std::min(last, ChecksumBlocks(payload.size()));
  std::vector<uint64_t> hashes(last > first ? last - first : 0);
  base::ParallelFor(hashes.size(), threads, [&](size_t i) {
    size_t at = (first + i) * kHashBlock;
    hashes[i] = XXH3_64bits(payload.data() + at, std::min(kHashBlock, payload.size() - at));
  });
  return hashes;
}

uint64_t CombineBlockHashes(const std::vector<uint64_t>& block_hashes) {
  return XXH3_64bits(block_hashes.data(), block_hashes.size() * sizeof(uint64_t));
}

Result<SourceStamp> StampOf(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return Status::Error(fmt::format("cannot open: {}", std::strerror(errno)), Location{path, 0, 0},
                         "check that the trace exists and is readable");
  struct stat st {};
  SourceStamp s;
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    return Status::Error("cannot stat the trace", Location{path, 0, 0}, "check the file");
  }
  s.size = static_cast<uint64_t>(st.st_size);
  s.mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  std::vector<char> buf(kStampWindow);
  uint32_t head = 0, tail = 0;
  auto read_at = [&](uint64_t offset, uint32_t* crc) {
    ssize_t n = ::pread(fd, buf.data(), buf.size(), static_cast<off_t>(offset));
    if (n > 0) *crc = Crc(0, buf.data(), static_cast<size_t>(n));
    return n >= 0;
  };
  bool ok = read_at(0, &head) && read_at(s.size > kStampWindow ? s.size - kStampWindow : 0, &tail);
  ::close(fd);
  if (!ok) return Status::Error("cannot read the trace", Location{path, 0, 0}, "check the file");
  s.hash = (static_cast<uint64_t>(head) << 32) | tail;
  return s;
}

std::string CachePathFor(const std::string& trace_path, const std::string& cache_dir) {
  return CachePathFor(trace_path, cache_dir,
                      [](const std::string& folder) { return ::access(folder.c_str(), W_OK) == 0; });
}

std::string CachePathFor(const std::string& trace_path, const std::string& cache_dir,
                         const std::function<bool(const std::string& folder)>& folder_writable) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path abs = fs::absolute(trace_path, ec);
  if (ec) abs = trace_path;
  abs = abs.lexically_normal();
  std::string keyed =
      fmt::format("{}-{:08x}.pxc", abs.filename().string(), HashAbsolutePath(abs.string()));
  if (!cache_dir.empty()) return (fs::path(cache_dir) / keyed).string();
  fs::path folder = abs.parent_path();
  if (folder_writable(folder.string())) return abs.string() + ".pxc";
  std::string base;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && xdg[0] == '/') {
    base = xdg;
  } else if (const char* home = std::getenv("HOME"); home != nullptr && home[0] != '\0') {
    base = std::string(home) + "/.cache";
  } else {
    base = "/tmp";
  }
  return (fs::path(base) / "parallax" / keyed).string();
}

std::string SealPathFor(const std::string& cache_path) { return cache_path + ".ok"; }

bool WriteSeal(const std::string& cache_path, const base::FileIdentity& id, uint64_t payload_hash) {
  const std::string seal = SealPathFor(cache_path);
  const std::string tmp = fmt::format("{}.tmp.{}", seal, ::getpid());
  std::FILE* f = std::fopen(tmp.c_str(), "wbx");
  if (f == nullptr) return false;  // a folder we cannot write: the cache is hashed on every open
  const std::string line = SealLine(id, payload_hash);
  bool ok = std::fwrite(line.data(), 1, line.size(), f) == line.size();
  ok = std::fclose(f) == 0 && ok;
  if (!ok || std::rename(tmp.c_str(), seal.c_str()) != 0) {
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

bool Sealed(const std::string& cache_path, const base::FileIdentity& id, uint64_t payload_hash) {
  int fd = ::open(SealPathFor(cache_path).c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  char buf[256];
  ssize_t n = ::fstat(fd, &st) == 0 ? ::read(fd, buf, sizeof buf) : -1;
  ::close(fd);
  if (n <= 0 || std::string_view(buf, static_cast<size_t>(n)) != SealLine(id, payload_hash)) return false;
  // File times advance by clock ticks of a few milliseconds: a cache changed in the tick its
  // seal was written keeps the ctime the seal names. Only a seal written in a later tick than
  // the cache's last change is trusted (git's "racy" rule); the others are checked and renewed.
  const int64_t sealed_at = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  return id.ctime_ns < sealed_at;
}

Status WriteCache(const PrvTrace& trace, const SourceStamp& stamp, const std::string& path,
                  const WriteOptions& options) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::remove(SealPathFor(path).c_str());  // the cache it sealed is being replaced
  fs::path target(path);
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  std::string tmp = fmt::format("{}.tmp.{}", path, ::getpid());
  std::FILE* f = std::fopen(tmp.c_str(), "wbx");
  if (f == nullptr)
    return Status::Error(fmt::format("cannot create the trace cache: {}", std::strerror(errno)),
                         Location{tmp, 0, 0}, "use --cache-dir DIR or --no-cache");
  PutHeader(f, 0, 0, stamp);
  FileSink sink(f, options.fail_after_bytes);
  const std::vector<uint32_t> scanned =
      trace.event_types_known ? std::vector<uint32_t>{} : store::ScanEventTypes(trace.store);
  const EncodeInput input{trace, trace.event_types_known ? trace.event_types : scanned};
  for (const auto& [tag, encode] : kSections) {
    CountingSink count;
    encode(input, count);
    sink.U64(static_cast<uint64_t>(tag));
    sink.U64(count.bytes);
    encode(input, sink);
  }
  bool ok = !sink.failed();
  int error = sink.error();
  if (ok) {
    std::fseek(f, 0, SEEK_SET);
    PutHeader(f, sink.written(), sink.hash(), stamp);
    if (std::fflush(f) != 0 || std::ferror(f)) {
      ok = false;
      error = errno;
    }
  }
  if (std::fclose(f) != 0 && ok) {
    ok = false;
    error = errno;
  }
  if (ok && std::rename(tmp.c_str(), path.c_str()) != 0) {
    ok = false;
    error = errno;
  }
  if (!ok) {
    std::remove(tmp.c_str());
    return Status::Error(fmt::format("cannot write the trace cache: {}", std::strerror(error)),
                         Location{path, 0, 0}, "free some disk space, or use --cache-dir DIR or --no-cache");
  }
  // Just written from the trace: its payload matches the checksum. A seal from the same clock
  // tick as the cache is not trusted (Sealed), so the first reopen would hash it all: write it
  // again until it is from a later tick (file times advance every few milliseconds).
  if (base::FileIdentity id; base::IdentityOfPath(path, &id)) {
    for (int attempt = 0; attempt < 50; ++attempt) {
      if (!WriteSeal(path, id, sink.hash()) || Sealed(path, id, sink.hash())) break;
      ::usleep(2000);
    }
  }
  return Status::Ok();
}

Result<CacheHeader> ReadHeader(std::string_view bytes, const std::string& path) {
  if (bytes.size() < kHeaderBytes || bytes.substr(0, 8) != kMagic)
    return Invalid(path, "not a Parallax trace cache (bad magic)");
  CacheHeader h;
  h.version = ReadU32(bytes, 8);
  if (h.version != kFormatVersion)
    return Invalid(path, fmt::format("format version {}, this Parallax reads version {}", h.version,
                                     kFormatVersion));
  if (ReadU32(bytes, 12) != kByteOrderMark) return Invalid(path, "written on a machine of another byte order");
  h.payload_bytes = ReadU64(bytes, 16);
  h.payload_hash = ReadU64(bytes, 24);
  h.source.size = ReadU64(bytes, 32);
  h.source.mtime_ns = static_cast<int64_t>(ReadU64(bytes, 40));
  h.source.hash = ReadU64(bytes, 48);
  if (h.payload_bytes != bytes.size() - kHeaderBytes)
    return Invalid(path, fmt::format("{} payload bytes, the header says {} (truncated?)",
                                     bytes.size() - kHeaderBytes, h.payload_bytes));
  return h;
}

Result<PrvTrace> DecodeCache(std::string_view bytes, const std::string& path, const DecodeOptions& options) {
  auto header = ReadHeader(bytes, path);
  if (!header.ok()) return header.status();
  if (options.expect != nullptr && !(header->source == *options.expect))
    return Invalid(path, "the trace changed since the cache was written (stale)");
  std::string_view payload = bytes.substr(kHeaderBytes);
  if (options.verify) {
    if (!options.verify(payload, header->payload_hash)) return Invalid(path, "checksum mismatch (corrupted)");
  } else if (options.verify_checksum) {
    std::vector<uint64_t> blocks(ChecksumBlocks(payload.size()));
    base::ParallelFor(blocks.size(), options.threads, [&](size_t k) {
      size_t at = k * kHashBlock, n = std::min(kHashBlock, payload.size() - at);
      blocks[k] = XXH3_64bits(payload.data() + at, n);
      if (options.release && !options.keep) options.release(kHeaderBytes + at, kHeaderBytes + at + n);
    });
    if (CombineBlockHashes(blocks) != header->payload_hash)
      return Invalid(path, "checksum mismatch (corrupted)");
  }
  PrvTrace t;
  Reader outer(payload, kHeaderBytes);
  using Decoder = void (*)(Reader&, PrvTrace&);
  const std::pair<Section, Decoder> order[] = {
      {kMeta, DecodeMeta}, {kThreads, DecodeThreads}, {kComms, DecodeComms}, {kCpuView, DecodeCpuView}};
  for (const auto& [tag, decode] : order) {
    size_t at = outer.pos();
    uint64_t got = outer.U64();
    uint64_t len = outer.U64();
    if (outer.ok() && got != tag)
      outer.Fail(fmt::format("expected section {}, found {}", static_cast<uint32_t>(tag), got));
    std::string_view body = outer.Take(outer.ok() && len <= outer.remaining() ? static_cast<size_t>(len) : SIZE_MAX);
    if (!outer.ok()) return Invalid(path, outer.error());
    Reader r(body, kHeaderBytes + at + 16, options.keep ? nullptr : &options.release, &options.keep);
    r.threads = options.threads;
    decode(r, t);
    if (r.ok() && r.remaining() != 0) r.Fail("unexpected bytes at the end of a section");
    if (!r.ok()) return Invalid(path, r.error());
  }
  if (outer.remaining() != 0) return Invalid(path, "unexpected bytes after the last section");
  return t;
}

Result<PrvTrace> ReadCache(const std::string& path, const DecodeOptions& options) {
  auto buffer = base::InputBuffer::Open(path);
  if (!buffer.ok()) return buffer.status();
  // The store's columns view the mapping, which lives as long as any of them.
  auto shared = std::make_shared<const base::InputBuffer>(std::move(buffer.value()));
  DecodeOptions o = options;
  o.release = [b = shared.get()](size_t begin, size_t end) { b->Release(begin, end); };
  o.keep = shared;
  // A sealed cache that has not changed since (same inode, size, mtime and ctime) was already
  // hashed: skip hashing every byte again. The checks of every length, cpu, thread and index
  // are still made: a seal is no defence against a cache crafted with a valid checksum, which
  // the checks are. A distributed open (o.verify) always hashes, so that every process takes
  // the same path.
  const bool use_seal = o.use_seal && o.verify_checksum && !o.verify;
  bool sealed = false;
  uint64_t payload_hash = 0;
  if (use_seal) {
    if (auto header = ReadHeader(shared->view(), path); header.ok()) {
      payload_hash = header->payload_hash;
      sealed = Sealed(path, shared->identity(), payload_hash);
      if (sealed) o.verify_checksum = false;
    }
  }
  auto decoded = DecodeCache(shared->view(), path, o);
  if (decoded.ok() && use_seal && !sealed) WriteSeal(path, shared->identity(), payload_hash);
  return decoded;
}

}  // namespace parallax::io::cache
