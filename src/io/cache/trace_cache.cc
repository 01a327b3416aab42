#include "src/io/cache/trace_cache.h"

#include <fcntl.h>
#include <sys/mman.h>
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
#include <map>
#include <optional>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "src/base/input_buffer.h"
#include "src/base/parallel.h"
#include "src/base/regular_file.h"
#include "src/base/temp_files.h"
#include "src/io/prv/prv_compact_reader.h"
#include "src/io/prv/prv_header_parser.h"
#include "src/io/prv/prv_writer.h"
#include "src/store/compact_threads.h"

namespace parallax::io::cache {

namespace {

constexpr uint32_t kByteOrderMark = 0x01020304;
constexpr size_t kHeaderBytes = 56;
constexpr size_t kStampWindow = 64 * 1024;
// Blocks of kStampSample bytes read at kStampSamples places spread over the trace for its stamp.
constexpr uint64_t kStampSamples = 64;
constexpr size_t kStampSample = 4096;
constexpr size_t kReleaseBytes = 1 << 20;

enum Section : uint32_t {
  kMeta = 1,
  kThreads = 2,
  kComms = 3,
  kCpuView = 4,
  kCommIndex = 5,
  kStateBlocks = 6,
  kCompactThreads = 7,  // in the place of kThreads, in a cache of compact records
};

// The thread section (format 4) starts with a directory: the thread count, then for every
// thread and each of its 8 columns (state begin, end, state, cpu; event time, type, value, cpu)
// the column's offset in the section and its length in values. The columns follow, each
// 8-byte aligned, in that order. A column may be followed by unused bytes: a cache written
// while the trace was parsed reserves the records the first pass counted, and a record the
// second pass rejected leaves its slot unused.
constexpr size_t kThreadColumns = 8;
constexpr size_t kColumnWidth[kThreadColumns] = {8, 8, 4, 2, 8, 4, 8, 2};

uint64_t DirectoryBytes(size_t threads) { return 8 + threads * kThreadColumns * 16; }

// Offsets of every column (thread-major) for the given lengths, and the section's length.
struct ThreadLayout {
  std::vector<uint64_t> offset;
  uint64_t bytes = 0;
};

ThreadLayout LayOutThreads(const std::vector<uint64_t>& states, const std::vector<uint64_t>& events) {
  ThreadLayout l;
  l.offset.resize(states.size() * kThreadColumns);
  uint64_t at = DirectoryBytes(states.size());
  for (size_t t = 0; t < states.size(); ++t)
    for (size_t c = 0; c < kThreadColumns; ++c) {
      l.offset[t * kThreadColumns + c] = at;
      uint64_t n = (c < 4 ? states[t] : events[t]) * kColumnWidth[c];
      at += n + (8 - n % 8) % 8;
    }
  l.bytes = at;
  return l;
}

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
  uint64_t Digest() { return CombineBlockHashes(Blocks()); }
  // The hash of every block.
  const std::vector<uint64_t>& Blocks() {
    if (in_block_ > 0) Close();
    return blocks_;
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
  const std::vector<uint64_t>& block_hashes() { return hash_.Blocks(); }
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
  const std::vector<store::StateBlocks>& state_blocks;  // one per thread
  // Set for a cache of compact records: every thread's coded records.
  const std::vector<const store::CodedThread*>* coded = nullptr;
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

template <typename T>
void PutColumn(Sink& s, const store::Column<T>& c) {
  s.Put(c.data(), c.size() * sizeof(T));
  s.Zeros(Pad8(c.size() * sizeof(T)));
}

void EncodeThreads(const EncodeInput& in, Sink& s) {
  const store::TraceStore& st = in.trace.store;
  const size_t n = st.threads();
  std::vector<uint64_t> states(n), events(n);
  for (size_t i = 0; i < n; ++i) {
    const auto& tr = st.thread(model::ThreadIndex(static_cast<uint32_t>(i)));
    states[i] = tr.states.size();
    events[i] = tr.events.size();
  }
  const ThreadLayout layout = LayOutThreads(states, events);
  s.U64(n);
  for (size_t i = 0; i < n; ++i)
    for (size_t c = 0; c < kThreadColumns; ++c) {
      s.U64(layout.offset[i * kThreadColumns + c]);
      s.U64(c < 4 ? states[i] : events[i]);
    }
  for (size_t i = 0; i < n; ++i) {  // in the directory's order, so the offsets hold
    const auto& tr = st.thread(model::ThreadIndex(static_cast<uint32_t>(i)));
    PutColumn(s, tr.states.begin);
    PutColumn(s, tr.states.end);
    PutColumn(s, tr.states.state);
    PutColumn(s, tr.states.cpu);
    PutColumn(s, tr.events.time);
    PutColumn(s, tr.events.type);
    PutColumn(s, tr.events.value);
    PutColumn(s, tr.events.cpu);
  }
}

// Compact thread records: the thread count; the bytes of every thread's blocks, in one array;
// then per thread its state and event counts and the block indices of its states and of its
// events, whose offsets are into that array.
void EncodeCompactThreads(const EncodeInput& in, Sink& s) {
  // The distinct arrays the threads' blocks are in (each thread's own when they were coded in
  // memory, one for all when they come from a cache), each once, in order of first use.
  std::map<const uint8_t*, uint64_t> base_of;
  std::vector<const store::Column<uint8_t>*> arrays;
  std::vector<uint64_t> base;  // per thread, of its states' and of its events' array
  uint64_t total = 0;
  for (const store::CodedThread* c : *in.coded)
    for (const store::compact::CompactColumns* part : {&c->states, &c->events}) {
      auto [it, fresh] = base_of.try_emplace(part->bytes.data(), total);
      if (fresh) {
        arrays.push_back(&part->bytes);
        total += part->bytes.size();
      }
      base.push_back(it->second);
    }
  s.U64(in.coded->size());
  s.U64(total);
  for (const store::Column<uint8_t>* a : arrays) s.Put(a->data(), a->size());
  s.Zeros(Pad8(total));
  std::vector<store::compact::BlockEntry> moved;
  size_t k = 0;
  for (const store::CodedThread* c : *in.coded) {
    s.U64(c->state_count);
    s.U64(c->event_count);
    for (const store::compact::CompactColumns* part : {&c->states, &c->events}) {
      moved.assign(part->blocks.begin(), part->blocks.end());
      for (store::compact::BlockEntry& b : moved) b.offset += base[k];
      ++k;
      s.Array(moved);
    }
  }
}

void EncodeCommIndex(const EncodeInput& in, Sink& s) {
  const store::TraceStore& st = in.trace.store;
  s.U64(st.threads());
  for (size_t i = 0; i < st.threads(); ++i) {
    s.Array(st.Sent(model::ThreadIndex(static_cast<uint32_t>(i))));
    s.Array(st.Received(model::ThreadIndex(static_cast<uint32_t>(i))));
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

// Per thread, its state summaries by blocks of 64 and of 4096 states.
void EncodeStateBlocks(const EncodeInput& in, Sink& s) {
  s.U64(in.state_blocks.size());
  for (const store::StateBlocks& b : in.state_blocks) {
    s.Array(b.small());
    s.Array(b.large());
  }
}

// The sections in file order: the thread columns first, at an offset known before the trace
// is parsed (so the parse can write them in place, ParsePrvIntoCache), the others after.
using Encoder = void (*)(const EncodeInput&, Sink&);
constexpr std::pair<Section, Encoder> kSections[] = {{kThreads, EncodeThreads},
                                                     {kMeta, EncodeMeta},
                                                     {kCommIndex, EncodeCommIndex},
                                                     {kComms, EncodeComms},
                                                     {kCpuView, EncodeCpuView},
                                                     {kStateBlocks, EncodeStateBlocks}};
// Where the thread section's body starts in the file: after the header and its section header.
constexpr size_t kThreadsBodyAt = kHeaderBytes + 16;

// Section k of a cache written from `in`: the thread records are compact when it has them.
std::pair<Section, Encoder> SectionFor(size_t k, const EncodeInput& in) {
  if (k == 0 && in.coded != nullptr) return {kCompactThreads, EncodeCompactThreads};
  return kSections[k];
}

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
  uint64_t resident_budget = UINT64_MAX;  // of a compact store (DecodeOptions::resident_budget)
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
  // A column of `n` values at `offset` of these bytes (the thread section's directory): a view
  // when the caller keeps the bytes alive and they are aligned, else a copy.
  template <typename T>
  void ColumnAt(uint64_t offset, uint64_t n, store::Column<T>& out) {
    if (!ok()) return;
    if (offset % 8 != 0 || offset > bytes_.size() || n > (bytes_.size() - offset) / sizeof(T)) {
      error_ = fmt::format("a column of {} values at byte {} runs past its section (at byte {})", n,
                           base_ + offset, base_);
      return;
    }
    const char* at = bytes_.data() + offset;
    if (keep_ != nullptr && *keep_ && reinterpret_cast<uintptr_t>(at) % alignof(T) == 0) {
      out = store::Column<T>::View(reinterpret_cast<const T*>(at), static_cast<size_t>(n), *keep_);
    } else {
      std::vector<T> v(static_cast<size_t>(n));
      if (n > 0) std::memcpy(v.data(), at, static_cast<size_t>(n) * sizeof(T));
      out = std::move(v);
    }
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
  if (r.remaining() / (kThreadColumns * 16) < st.threads()) return r.Fail("the thread directory runs past the end");
  std::vector<uint64_t> dir(st.threads() * kThreadColumns * 2);
  for (uint64_t& v : dir) v = r.U64();
  r.Skip(r.remaining());  // the columns are read where the directory says
  for (size_t i = 0; i < st.threads() && r.ok(); ++i) {
    auto& tr = st.thread(model::ThreadIndex(static_cast<uint32_t>(i)));
    const uint64_t* d = dir.data() + i * kThreadColumns * 2;
    r.ColumnAt(d[0], d[1], tr.states.begin);
    r.ColumnAt(d[2], d[3], tr.states.end);
    r.ColumnAt(d[4], d[5], tr.states.state);
    r.ColumnAt(d[6], d[7], tr.states.cpu);
    r.ColumnAt(d[8], d[9], tr.events.time);
    r.ColumnAt(d[10], d[11], tr.events.type);
    r.ColumnAt(d[12], d[13], tr.events.value);
    r.ColumnAt(d[14], d[15], tr.events.cpu);
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

// Compact thread records (EncodeCompactThreads): their layout is checked here, their values
// when a thread is first decoded (a damaged block is then an error, store::DamagedRecords).
void DecodeCompactThreads(Reader& r, PrvTrace& t) {
  store::TraceStore& st = t.store;
  if (r.U64() != st.threads()) return r.Fail("the thread count differs from the header's");
  store::Column<uint8_t> bytes;
  r.Array(bytes);
  if (!r.ok()) return;
  if (!bytes.is_view()) {  // copied (a cache decoded from memory): one copy, which every thread views
    auto owner = std::make_shared<const store::Column<uint8_t>>(std::move(bytes));
    bytes = store::Column<uint8_t>::View(owner->data(), owner->size(), owner);
  }
  std::vector<store::CodedThread> coded(st.threads());
  for (store::CodedThread& c : coded) {
    c.state_count = r.Count(UINT32_MAX, "state");
    c.event_count = r.Count(UINT32_MAX, "event");
    r.Array(c.states.blocks);
    r.Array(c.events.blocks);
    if (!r.ok()) return;
    c.states.bytes = bytes;
    c.events.bytes = bytes;
  }
  if (std::string bad = store::CompactThreads::CheckLayout(coded); !bad.empty()) return r.Fail(bad);
  st.AdoptCompact(std::move(coded), r.resident_budget, t.header.resources.cpus());
}

void DecodeCommIndex(Reader& r, PrvTrace& t) {
  store::TraceStore& st = t.store;
  if (r.U64() != st.threads()) return r.Fail("the thread count differs from the header's");
  for (size_t i = 0; i < st.threads() && r.ok(); ++i) {
    auto& tr = st.thread(model::ThreadIndex(static_cast<uint32_t>(i)));
    r.Array(tr.sent);
    r.Array(tr.received);
  }
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
  const store::TraceStore& st = t.store;  // read only: a compact store stays compact
  for (size_t i = 0; i < threads; ++i) {
    for (uint32_t id : st.Sent(model::ThreadIndex(static_cast<uint32_t>(i))))
      if (id >= n || c.sender[id] != i) return r.Fail(fmt::format("thread {} has a bad send index", i + 1));
    for (uint32_t id : st.Received(model::ThreadIndex(static_cast<uint32_t>(i))))
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
      const store::TraceStore& st = t.store;  // read only: a compact store stays compact
      const model::ThreadIndex th(run.thread);
      uint64_t size = states ? st.StateCount(th) : st.EventCount(th);
      if (run.first >= run.last || run.last > size) return r.Fail("a cpu run is out of range");
    }
  }
}

void DecodeCpuView(Reader& r, PrvTrace& t) {
  DecodeRuns(r, t, t.store.cpu_view().state_runs, true);
  DecodeRuns(r, t, t.store.cpu_view().event_runs, false);
}

// Their counts are checked against the states; their values are summaries only (a wrong one
// draws a wrong colour, as a wrong state value would), never positions.
void DecodeStateBlocks(Reader& r, PrvTrace& t) {
  if (r.U64() != t.store.threads()) return r.Fail("the state blocks' thread count differs from the header's");
  t.state_blocks.clear();
  t.state_blocks.reserve(t.store.threads());
  for (size_t i = 0; i < t.store.threads() && r.ok(); ++i) {
    store::Column<store::StateBlocks::Block> small, large;
    r.Array(small);
    r.Array(large);
    if (!r.ok()) return;
    store::StateBlocks b(std::move(small), std::move(large));
    if (!b.Fits(static_cast<const store::TraceStore&>(t.store).StateCount(model::ThreadIndex(static_cast<uint32_t>(i)))))
      return r.Fail(fmt::format("the state blocks of thread {} do not fit its states", i + 1));
    t.state_blocks.push_back(std::move(b));
  }
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
  struct stat st {};
  auto opened = base::OpenRegularFile(path, &st);
  if (!opened.ok()) return opened.status();
  const int fd = opened.value();
  SourceStamp s;
  s.size = static_cast<uint64_t>(st.st_size);
  s.mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  // The hash covers which file it is and when its inode last changed (a write in the middle
  // that keeps the size, with the mtime set back by touch -d or cp --preserve, still moves the
  // ctime, which no program can set back), and its content at the start, at the end and at
  // kStampSamples places spread over it (an edit there changes the hash even where the ctime
  // cannot be trusted, e.g. a copy that kept it). docs/formats.md says what is left.
  XXH3_state_t* state = XXH3_createState();
  XXH3_64bits_reset(state);
  const int64_t ctime_ns = static_cast<int64_t>(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec;
  const uint64_t identity[3] = {static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino),
                                static_cast<uint64_t>(ctime_ns)};
  XXH3_64bits_update(state, identity, sizeof identity);
  std::vector<char> buf(kStampWindow);
  auto read_at = [&](uint64_t offset, size_t length) {
    ssize_t n = ::pread(fd, buf.data(), std::min(length, buf.size()), static_cast<off_t>(offset));
    if (n > 0) XXH3_64bits_update(state, buf.data(), static_cast<size_t>(n));
    return n >= 0;
  };
  bool ok = read_at(0, kStampWindow) && read_at(s.size > kStampWindow ? s.size - kStampWindow : 0, kStampWindow);
  for (uint64_t i = 1; ok && i <= kStampSamples && s.size > 2 * kStampWindow; ++i)
    ok = read_at(s.size / (kStampSamples + 1) * i, kStampSample);
  ::close(fd);
  s.hash = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  if (!ok) return Status::Error("cannot read the trace", Location{path, 0, 0}, "check the file");
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
  if (cache_dir == kCacheBesideTrace) {
    if (folder_writable(abs.parent_path().string())) return abs.string() + ".pxc";
  } else if (!cache_dir.empty()) {
    return (fs::path(cache_dir) / keyed).string();
  }
  return (fs::path(UserCacheFolder()) / keyed).string();
}

std::string UserCacheFolder() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && xdg[0] == '/')
    return std::string(xdg) + "/parallax";
  if (const char* home = std::getenv("HOME"); home != nullptr && home[0] == '/')
    return std::string(home) + "/.cache/parallax";
  return fmt::format("/tmp/parallax-{}", ::geteuid());
}

Status EnsurePrivateFolder(const std::string& folder) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path p(folder);
  if (p.has_parent_path()) fs::create_directories(p.parent_path(), ec);
  if (::mkdir(folder.c_str(), 0700) != 0 && errno != EEXIST)
    return Status::Error(fmt::format("cannot create the cache folder: {}", std::strerror(errno)),
                         Location{folder, 0, 0}, "set --cache-dir or PARALLAX_CACHE_DIR, or --no-cache");
  struct stat st {};
  if (::lstat(folder.c_str(), &st) != 0)
    return Status::Error(fmt::format("cannot use the cache folder: {}", std::strerror(errno)),
                         Location{folder, 0, 0}, "set --cache-dir or PARALLAX_CACHE_DIR, or --no-cache");
  std::string wrong;
  if (S_ISLNK(st.st_mode)) wrong = "it is a symbolic link";
  else if (!S_ISDIR(st.st_mode)) wrong = "it is not a folder";
  else if (st.st_uid != ::geteuid()) wrong = fmt::format("it belongs to user {}", st.st_uid);
  else if ((st.st_mode & 022) != 0) wrong = fmt::format("others can write into it (mode {:o})", st.st_mode & 0777);
  if (!wrong.empty())
    return Status::Error(fmt::format("the cache folder is not private: {}; no cache is read or written there", wrong),
                         Location{folder, 0, 0},
                         "remove it, or set --cache-dir or PARALLAX_CACHE_DIR to a folder of your own");
  return Status::Ok();
}

namespace {

int64_t MtimeNs(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return 0;
  return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
}

}  // namespace

void TouchCache(const std::string& cache_path) {
  // The seal, not the cache: the cache's own times are part of what the seal vouches for.
  ::utimensat(AT_FDCWD, SealPathFor(cache_path).c_str(), nullptr, 0);
}

uint64_t EvictCaches(const std::string& folder, uint64_t max_bytes, const std::string& keep) {
  namespace fs = std::filesystem;
  struct Entry {
    int64_t used;
    uint64_t bytes;
    std::string path;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& p = it->path();
    if (p.extension() != ".pxc" || !it->is_regular_file(ec)) continue;
    Entry e{std::max(MtimeNs(p.string()), MtimeNs(SealPathFor(p.string()))), it->file_size(ec), p.string()};
    if (ec) continue;
    total += e.bytes;
    entries.push_back(std::move(e));
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
  const std::string kept = fs::path(keep).lexically_normal().string();
  uint64_t removed = 0;
  for (const Entry& e : entries) {
    if (total <= max_bytes) break;
    if (fs::path(e.path).lexically_normal().string() == kept) continue;
    if (std::remove(e.path.c_str()) != 0) continue;
    std::remove(SealPathFor(e.path).c_str());
    total -= e.bytes;
    ++removed;
  }
  return removed;
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
  struct stat st {};
  auto fd = base::OpenRegularFile(SealPathFor(cache_path), &st);
  if (!fd.ok()) return false;  // none, or not a file: the cache is checked in full
  char buf[256];
  ssize_t n = ::read(fd.value(), buf, sizeof buf);
  ::close(fd.value());
  if (n <= 0 || std::string_view(buf, static_cast<size_t>(n)) != SealLine(id, payload_hash)) return false;
  // File times advance by clock ticks of a few milliseconds: a cache changed in the tick its
  // seal was written keeps the ctime the seal names. Only a seal written in a later tick than
  // the cache's last change is trusted (git's "racy" rule); the others are checked and renewed.
  const int64_t sealed_at = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  return id.ctime_ns < sealed_at;
}

namespace {

// Just written from the trace: its payload matches the checksum. A seal from the same clock
// tick as the cache is not trusted (Sealed), so the first reopen would hash it all: write it
// again until it is from a later tick (file times advance every few milliseconds).
void SealNewCache(const std::string& path, uint64_t payload_hash) {
  if (base::FileIdentity id; base::IdentityOfPath(path, &id)) {
    for (int attempt = 0; attempt < 50; ++attempt) {
      if (!WriteSeal(path, id, payload_hash) || Sealed(path, id, payload_hash)) break;
      ::usleep(2000);
    }
  }
}

// The checksum of a payload held in two consecutive parts.
uint64_t HashOfParts(std::string_view a, std::string_view b, unsigned threads) {
  std::vector<uint64_t> blocks(ChecksumBlocks(a.size() + b.size()));
  base::ParallelFor(blocks.size(), threads, [&](size_t k) {
    const size_t begin = k * kHashBlock, end = std::min(begin + kHashBlock, a.size() + b.size());
    if (end <= a.size()) {
      blocks[k] = XXH3_64bits(a.data() + begin, end - begin);
      return;
    }
    std::unique_ptr<XXH3_state_t, decltype(&XXH3_freeState)> st{NewHashState(), XXH3_freeState};
    if (begin < a.size()) XXH3_64bits_update(st.get(), a.data() + begin, a.size() - begin);
    const size_t from = std::max(begin, a.size()) - a.size();
    XXH3_64bits_update(st.get(), b.data() + from, end - a.size() - from);
    blocks[k] = XXH3_64bits_digest(st.get());
  });
  return CombineBlockHashes(blocks);
}

Status CannotWrite(const std::string& path, int error) {
  return Status::Error(fmt::format("cannot write the trace cache: {}", std::strerror(error)),
                       Location{path, 0, 0}, "free some disk space, or use --cache-dir DIR or --no-cache");
}

// A shared mapping of the cache file being written (`path` once renamed into place), guarded
// against truncation (mapping_guard.h); unmapped when the last column viewing it goes.
struct FileMapping {
  void* data = nullptr;
  size_t bytes = 0;
  std::unique_ptr<base::MappingGuard> guard;
  FileMapping(void* d, size_t n, const std::string& path, bool writable)
      : data(d), bytes(n), guard(std::make_unique<base::MappingGuard>(d, n, path, writable)) {}
  FileMapping(const FileMapping&) = delete;
  FileMapping& operator=(const FileMapping&) = delete;
  ~FileMapping() {
    guard.reset();  // before the pages go
    ::munmap(data, bytes);
  }
};

template <typename T>
void Place(store::Column<T>& c, char* at, uint64_t n, const std::shared_ptr<const void>& keep) {
  c = store::Column<T>::WritableView(reinterpret_cast<T*>(at), static_cast<size_t>(n), keep);
}

template <typename T>
bool Within(const store::Column<T>& c, const FileMapping& m) {
  const char* p = reinterpret_cast<const char*>(c.data());
  const char* b = static_cast<const char*>(m.data);
  return c.is_writable_view() && (c.empty() || (p >= b && p + c.size() * sizeof(T) <= b + m.bytes));
}

template <typename F>
void ForEachColumn(store::ThreadRecords& tr, F&& f) {
  f(tr.states.begin);
  f(tr.states.end);
  f(tr.states.state);
  f(tr.states.cpu);
  f(tr.events.time);
  f(tr.events.type);
  f(tr.events.value);
  f(tr.events.cpu);
}

// The temporary file of a cache being written: removed unless it was renamed into place.
struct TempFile {
  std::string path;
  int fd = -1;
  bool keep = false;
  // Creates `p` (exclusively); false when it cannot. Removed if a signal ends the process.
  bool Create(std::string p) {
    fd = base::CreateTempFile(p);
    if (fd < 0) return false;
    path = std::move(p);
    return true;
  }
  // Closes and removes it now (a mapping of it stays valid).
  void Discard() {
    if (fd >= 0) ::close(fd);
    fd = -1;
    if (!keep && !path.empty()) std::remove(path.c_str());
    if (!path.empty()) base::UnregisterTempFile(path);
    path.clear();
  }
  ~TempFile() { Discard(); }
};

// Closes `f`, the temporary file of a cache written so far without an error when `ok` (else
// `error` says what failed), and renames it into place and seals it; or says why it could not.
Status PlaceCache(std::FILE* f, bool ok, int error, TempFile& tmp, const std::string& cache_path, uint64_t hash) {
  if (std::fclose(f) != 0 && ok) {
    ok = false;
    error = errno;
  }
  if (ok && std::rename(tmp.path.c_str(), cache_path.c_str()) != 0) {
    ok = false;
    error = errno;
  }
  if (!ok) return CannotWrite(cache_path, error);
  tmp.keep = true;
  SealNewCache(cache_path, hash);
  return Status::Ok();
}

// The one-pass parse into a cache of compact records (WriteOptions::compact): the reader hands
// over the records a segment at a time (PrvReadOptions::segments), a store::CompactBuilder codes
// them, and their blocks are written to the file in that order, so that the trace's records
// are never in memory, plain or coded, as a whole. The compact thread section comes first; its
// lengths are known at the end only, and are then written into their place.
// Nothing when the trace must be parsed in two passes instead: a thread's records out of time
// order across segments, or a cache file that cannot be written (the two-pass parse then
// reports it as usual).
std::optional<Result<PrvTrace>> ParseIntoCompactCache(const std::string& trace_path, const SourceStamp& stamp,
                                                      const std::string& cache_path,
                                                      const PrvReadOptions& read_options, Status* written,
                                                      const WriteOptions& options) {
  TempFile tmp;
  if (!tmp.Create(fmt::format("{}.tmp.{}", cache_path, ::getpid()))) return std::nullopt;  // not ours
  int fd2 = ::dup(tmp.fd);
  std::FILE* f = fd2 >= 0 ? ::fdopen(fd2, "r+b") : nullptr;
  if (f == nullptr) {
    if (fd2 >= 0) ::close(fd2);
    return std::nullopt;
  }
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(f, std::fclose);
  // Payload offsets: the section's tag and length, the thread count, the length of the blocks'
  // bytes (the last three written at the end), then the bytes.
  constexpr uint64_t kLengthsAt = 8, kBytesAt = 32;
  char header[kHeaderBytes] = {};
  if (std::fwrite(header, 1, kHeaderBytes, f) != kHeaderBytes) return std::nullopt;
  FileSink sink(f, options.fail_after_bytes);
  sink.U64(kCompactThreads);
  sink.Zeros(8);
  sink.Zeros(8);
  sink.Zeros(8);
  SegmentCoder coder(
      [&sink, &cache_path](std::span<const uint8_t> bytes) -> Result<uint64_t> {
        const uint64_t at = sink.written() - kBytesAt;
        sink.Put(bytes.data(), bytes.size());
        if (sink.failed()) return CannotWrite(cache_path, sink.error());
        return at;
      },
      read_options.threads);
  const PrvReadOptions ro = coder.Options(read_options);
  auto prv = ReadPrv(trace_path, ro);
  if (!prv.ok()) {
    if (coder.unsorted() || sink.failed()) return std::nullopt;
    return prv;  // as the two-pass parse would report it
  }
  PrvTrace& t = prv.value();
  auto built = coder.Finish(t);
  if (!built.ok()) return std::nullopt;
  const uint64_t bytes = sink.written() - kBytesAt;
  sink.Zeros(Pad8(bytes));
  for (const store::CodedThread& c : built->threads) {
    sink.U64(c.state_count);
    sink.U64(c.event_count);
    sink.Array(c.states.blocks);
    sink.Array(c.events.blocks);
  }
  const uint64_t threads_end = sink.written();
  if (sink.failed() || std::fflush(f) != 0) return std::nullopt;

  // The store's blocks view the file (the kernel's reclaimable page cache).
  const size_t mapped = static_cast<size_t>(kHeaderBytes + kBytesAt + bytes);
  void* p = ::mmap(nullptr, mapped, PROT_READ, MAP_SHARED, tmp.fd, 0);
  if (p == MAP_FAILED) return std::nullopt;
  auto mapping = std::make_shared<FileMapping>(p, mapped, cache_path, false);
  t.store.AddMappedFile(mapping->guard->status());
  const auto view = store::Column<uint8_t>::View(static_cast<const uint8_t*>(p) + kHeaderBytes + kBytesAt,
                                                 static_cast<size_t>(bytes), mapping);
  AdoptBuiltThreads(t, std::move(built.value()), view, options.resident_budget);

  // The other sections; then the lengths, and the checksum's first block again.
  const EncodeInput input{t, t.event_types, t.state_blocks};
  for (size_t k = 1; k < std::size(kSections); ++k) {
    CountingSink count;
    kSections[k].second(input, count);
    sink.U64(static_cast<uint64_t>(kSections[k].first));
    sink.U64(count.bytes);
    kSections[k].second(input, sink);
  }
  const uint64_t payload = sink.written();
  bool ok = !sink.failed() && std::fflush(f) == 0 && !std::ferror(f);
  int error = sink.failed() ? sink.error() : (ok ? 0 : errno);
  uint64_t hash = 0;
  if (ok) {
    const uint64_t lengths[3] = {threads_end - 16, t.store.threads(), bytes};
    ok = ::pwrite(tmp.fd, lengths, sizeof lengths, static_cast<off_t>(kHeaderBytes + kLengthsAt)) ==
         static_cast<ssize_t>(sizeof lengths);
    std::vector<uint64_t> blocks = sink.block_hashes();
    std::string first(std::min<uint64_t>(payload, kHashBlock), '\0');
    ok = ok && !blocks.empty() &&
         ::pread(tmp.fd, first.data(), first.size(), kHeaderBytes) == static_cast<ssize_t>(first.size());
    if (ok) {
      blocks[0] = XXH3_64bits(first.data(), first.size());
      hash = CombineBlockHashes(blocks);
      ok = std::fseek(f, 0, SEEK_SET) == 0;
      if (ok) PutHeader(f, payload, hash, stamp);
      ok = ok && std::fflush(f) == 0 && !std::ferror(f);
    }
    if (!ok) error = errno ? errno : EIO;
  }
  // The trace is loaded either way: when the cache is not written, its blocks are the unlinked
  // file's pages.
  *written = PlaceCache(file.release(), ok, error, tmp, cache_path, hash);
  return prv;
}

}  // namespace

Result<PrvTrace> ParsePrvIntoCache(const std::string& trace_path, const SourceStamp& stamp,
                                   const std::string& cache_path, const PrvReadOptions& read_options,
                                   Status* written, const WriteOptions& options) {
  namespace fs = std::filesystem;
  *written = Status::Ok();
  std::error_code ec;
  std::remove(SealPathFor(cache_path).c_str());  // the cache it sealed is being replaced
  fs::path target(cache_path);
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  if (options.compact)
    if (auto one_pass = ParseIntoCompactCache(trace_path, stamp, cache_path, read_options, written, options))
      return std::move(*one_pass);
  TempFile tmp;
  const std::string tmp_name = fmt::format("{}.tmp.{}", cache_path, ::getpid());
  if (!tmp.Create(tmp_name)) {
    *written = Status::Error(fmt::format("cannot create the trace cache: {}", std::strerror(errno)),
                             Location{tmp_name, 0, 0}, "use --cache-dir DIR or --no-cache");
    return ReadPrv(trace_path, read_options);
  }

  // After the first pass: reserve the thread section for the counted records and map it.
  std::shared_ptr<FileMapping> mapping;
  ThreadLayout layout;
  int place_error = 0;
  PrvReadOptions ro = read_options;
  ro.place_columns = [&](const std::vector<uint64_t>& states, const std::vector<uint64_t>& events,
                         store::TraceStore& st) -> Status {
    layout = LayOutThreads(states, events);
    const uint64_t bytes = kThreadsBodyAt + layout.bytes;
    if (bytes - kHeaderBytes > options.fail_after_bytes) place_error = ENOSPC;
    if (place_error == 0) place_error = ::posix_fallocate(tmp.fd, 0, static_cast<off_t>(bytes));
    void* p = place_error == 0 ? ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, tmp.fd, 0) : MAP_FAILED;
    if (p == MAP_FAILED) {
      if (place_error == 0) place_error = errno;
      return Status::Error("cannot map the cache file", {}, "");
    }
    // The second pass writes each thread's columns at once, a thousand streams for a hundred
    // threads: a fault must not read around (the kernel's window can be megabytes) pages that
    // were written and evicted already, or a trace larger than memory thrashes.
    ::madvise(p, bytes, MADV_RANDOM);
    mapping = std::make_shared<FileMapping>(p, static_cast<size_t>(bytes), cache_path, true);
    std::shared_ptr<const void> keep = mapping;
    char* body = static_cast<char*>(p) + kThreadsBodyAt;
    for (size_t t = 0; t < st.threads(); ++t) {
      const uint64_t* off = layout.offset.data() + t * kThreadColumns;
      size_t c = 0;
      ForEachColumn(st.thread(model::ThreadIndex(static_cast<uint32_t>(t))), [&](auto& col) {
        Place(col, body + off[c], c < 4 ? states[t] : events[t], keep);
        ++c;
      });
    }
    return Status::Ok();
  };
  auto prv = ReadPrv(trace_path, ro);
  if (!prv.ok()) return prv;
  if (mapping) prv->store.AddMappedFile(mapping->guard->status());
  // From here on the columns are read one after the other: read-ahead helps again.
  if (mapping) ::madvise(mapping->data, mapping->bytes, MADV_NORMAL);
  if (!prv->event_types_known) {  // recorded in the cache; the cfg reader needs them on this open too
    prv->event_types = store::ScanEventTypes(prv->store);
    prv->event_types_known = true;
  }
  if (!mapping) {  // not placed: written from memory (and a failure to place is reported)
    tmp.Discard();
    if (place_error != 0) {
      *written = CannotWrite(cache_path, place_error);
    } else {
      *written = WriteCache(prv.value(), stamp, cache_path, options);
    }
    return prv;
  }
  // Every column must still be in place (a column the reader had to grow would have left it).
  store::TraceStore& st = prv->store;
  bool in_place = true;
  for (size_t t = 0; t < st.threads(); ++t)
    ForEachColumn(st.thread(model::ThreadIndex(static_cast<uint32_t>(t))), [&](auto& col) {
      in_place = in_place && Within(col, *mapping);
      col.Freeze();
    });
  if (!in_place || options.compact) {
    tmp.Discard();  // its pages stay, mapped by the columns
    if (options.compact) {  // the store and the cache both take the records coded
      if (prv->state_blocks.size() != st.threads())
        prv->state_blocks = store::BuildStateBlocks(prv->store, read_options.threads);
      st.Compact(options.resident_budget, read_options.threads);
    }
    *written = WriteCache(prv.value(), stamp, cache_path, options);
    return prv;
  }
  // The directory, with the lengths the columns ended with, and the section's header.
  char* base = static_cast<char*>(mapping->data);
  auto put = [](char* at, uint64_t v) { std::memcpy(at, &v, 8); };
  put(base + kHeaderBytes, kThreads);
  put(base + kHeaderBytes + 8, layout.bytes);
  char* dir = base + kThreadsBodyAt;
  put(dir, st.threads());
  for (size_t t = 0; t < st.threads(); ++t) {
    size_t c = 0;
    ForEachColumn(st.thread(model::ThreadIndex(static_cast<uint32_t>(t))), [&](auto& col) {
      char* entry = dir + 8 + (t * kThreadColumns + c) * 16;
      put(entry, layout.offset[t * kThreadColumns + c]);
      put(entry + 8, col.size());
      ++c;
    });
  }
  // Nothing writes the columns from here on: the mapping becomes read-only.
  ::mprotect(mapping->data, mapping->bytes, PROT_READ);

  // The other sections, after the thread section, through a stream of its own.
  const uint64_t threads_end = kThreadsBodyAt + layout.bytes;
  int fd2 = ::dup(tmp.fd);
  std::FILE* f = fd2 >= 0 ? ::fdopen(fd2, "r+b") : nullptr;
  if (f == nullptr) {
    if (fd2 >= 0) ::close(fd2);
    *written = CannotWrite(cache_path, errno);
    return prv;
  }
  // The state summaries are stored, and kept by the trace for its first frames.
  prv->state_blocks = store::BuildStateBlocks(prv->store, read_options.threads);
  const EncodeInput input{prv.value(), prv->event_types, prv->state_blocks};
  FileSink sink(f, options.fail_after_bytes - std::min(options.fail_after_bytes, threads_end - kHeaderBytes));
  bool ok = ::fseeko(f, static_cast<off_t>(threads_end), SEEK_SET) == 0;
  for (size_t k = 1; k < std::size(kSections) && ok; ++k) {
    CountingSink count;
    kSections[k].second(input, count);
    sink.U64(static_cast<uint64_t>(kSections[k].first));
    sink.U64(count.bytes);
    kSections[k].second(input, sink);
  }
  int error = sink.failed() ? sink.error() : 0;
  ok = ok && !sink.failed() && std::fflush(f) == 0 && !std::ferror(f);
  if (!ok && error == 0) error = errno;
  const uint64_t payload = threads_end - kHeaderBytes + sink.written();
  // The checksum: the thread section from its mapping, the rest read back (a second mapping
  // of the same pages would count them twice in the resident size).
  uint64_t hash = 0;
  if (ok) {
    std::string rest(payload - (threads_end - kHeaderBytes), '\0');
    size_t got = 0;
    while (got < rest.size()) {
      ssize_t n = ::pread(tmp.fd, rest.data() + got, rest.size() - got, static_cast<off_t>(threads_end + got));
      if (n <= 0) break;
      got += static_cast<size_t>(n);
    }
    ok = got == rest.size();
    if (ok) {
      std::string_view head(static_cast<const char*>(mapping->data) + kHeaderBytes, threads_end - kHeaderBytes);
      hash = HashOfParts(head, rest, read_options.threads);
      ok = std::fseek(f, 0, SEEK_SET) == 0;
      if (ok) PutHeader(f, payload, hash, stamp);
      ok = ok && std::fflush(f) == 0 && !std::ferror(f);
    }
    if (!ok) error = errno ? errno : EIO;
  }
  // The trace is loaded either way: when the cache is not written, its columns are the
  // unlinked file's pages.
  *written = PlaceCache(f, ok, error, tmp, cache_path, hash);
  return prv;
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
  const std::vector<store::StateBlocks> built =
      trace.state_blocks.size() == trace.store.threads() ? std::vector<store::StateBlocks>{}
                                                         : store::BuildStateBlocks(trace.store, 0);
  // Compact records: the store's own when it is compact, else coded here.
  std::vector<store::CodedThread> coded_here;
  std::vector<const store::CodedThread*> coded;
  if (const store::CompactThreads* c = trace.store.compact_threads()) {
    for (size_t t = 0; t < c->threads(); ++t) coded.push_back(&c->coded(t));
  } else if (options.compact) {
    coded_here.resize(trace.store.threads());
    base::ParallelFor(coded_here.size(), base::DefaultThreads(), [&](size_t t) {
      coded_here[t] = store::CodeThread(trace.store.thread(model::ThreadIndex(static_cast<uint32_t>(t))));
    });
    for (const store::CodedThread& ct : coded_here) coded.push_back(&ct);
  }
  EncodeInput input{trace, trace.event_types_known ? trace.event_types : scanned,
                    built.empty() ? trace.state_blocks : built};
  if (trace.store.compact() || options.compact) input.coded = &coded;
  for (size_t k = 0; k < std::size(kSections); ++k) {
    const auto [tag, encode] = SectionFor(k, input);
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
    return CannotWrite(path, error);
  }
  SealNewCache(path, sink.hash());
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
  // The sections in file order (kSections), each once; then decoded in the order their checks
  // need (the meta section sizes the store, the indices are checked against the table).
  Reader outer(payload, kHeaderBytes);
  bool compact = false;  // the thread section holds compact records
  std::string_view bodies[std::size(kSections)];
  size_t body_at[std::size(kSections)] = {};
  for (size_t k = 0; k < std::size(kSections); ++k) {
    size_t at = outer.pos();
    uint64_t got = outer.U64();
    uint64_t len = outer.U64();
    if (k == 0 && got == kCompactThreads) compact = true;
    else if (outer.ok() && got != kSections[k].first)
      outer.Fail(fmt::format("expected section {}, found {}", static_cast<uint32_t>(kSections[k].first), got));
    bodies[k] = outer.Take(outer.ok() && len <= outer.remaining() ? static_cast<size_t>(len) : SIZE_MAX);
    body_at[k] = kHeaderBytes + at + 16;
    if (!outer.ok()) return Invalid(path, outer.error());
  }
  if (outer.remaining() != 0) return Invalid(path, "unexpected bytes after the last section");
  // The send/receive indices before the thread records: compact records take them over.
  using Decoder = void (*)(Reader&, PrvTrace&);
  const std::pair<Section, Decoder> order[] = {{kMeta, DecodeMeta},
                                               {kCommIndex, DecodeCommIndex},
                                               {kThreads, compact ? DecodeCompactThreads : DecodeThreads},
                                               {kComms, DecodeComms},
                                               {kCpuView, DecodeCpuView},
                                               {kStateBlocks, DecodeStateBlocks}};
  for (const auto& [tag, decode] : order) {
    size_t k = 0;
    while (kSections[k].first != tag) ++k;
    Reader r(bodies[k], body_at[k], options.keep ? nullptr : &options.release, &options.keep);
    r.threads = options.threads;
    r.resident_budget = options.resident_budget;
    decode(r, t);
    if (r.ok() && r.remaining() != 0) r.Fail("unexpected bytes at the end of a section");
    if (!r.ok()) return Invalid(path, r.error());
  }
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
  auto decoded = shared->Parse([&](std::string_view bytes) { return DecodeCache(bytes, path, o); });
  if (!decoded.ok()) return decoded;
  if (use_seal && !sealed) WriteSeal(path, shared->identity(), payload_hash);
  decoded->store.AddMappedFile(shared->mapping_status());
  return decoded;
}

}  // namespace parallax::io::cache
