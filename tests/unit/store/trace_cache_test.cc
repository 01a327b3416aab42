// The on-disk trace cache (src/io/cache): a trace opened from its cache gives the same results
// as a parse, and a stale, truncated, foreign-version, corrupted or unwritable cache gives one
// notice and the parsed result.

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <cstdio>
#include <mutex>
#include <optional>
#include <thread>
#include <filesystem>
#include <functional>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "include/parallax/cache.h"
#include "src/io/cache/trace_cache.h"
#include "src/io/prv/prv_compact_reader.h"
#include "src/session/trace_impl.h"
#include "src/store/compact_threads.h"

namespace parallax {
namespace {

namespace fs = std::filesystem;

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void Spit(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << bytes;
}

// Sets (or, with null, unsets) an environment variable for a scope, then restores it.
class EnvVar {
 public:
  EnvVar(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value != nullptr) ::setenv(name, value, 1);
    else ::unsetenv(name);
  }
  EnvVar(const char* name, const std::string& value) : EnvVar(name, value.c_str()) {}
  ~EnvVar() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }
  EnvVar(const EnvVar&) = delete;
  EnvVar& operator=(const EnvVar&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// A trace with two malformed lines, so the diagnostics must come back from the cache too.
constexpr const char* kTrace =
    "#Paraver (01/01/2024 at 00:00):1000_ns:1(2):1:2(1:1,1:1),1\n"
    "c:1:1:2:1:2\n"
    "1:1:1:1:1:0:200:1\n"
    "1:1:1:1:1:200:300:3\n"
    "bogus line\n"
    "2:1:1:1:1:0:50000001:31\n"
    "2:1:1:1:1:500:50000002:7:50000003:9\n"
    "1:2:1:2:1:0:400:1\n"
    "1:2:1:2:1:400:600:3\n"
    "1:2:1:2:1:300:1000:1\n"
    "3:1:1:1:1:210:215:2:1:2:1:590:600:1024:77\n";

class TraceCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("parallax-cache-test-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::permissions(dir_, fs::perms::owner_all, ec);
    fs::remove_all(dir_, ec);
  }

  // Opens `path` with the cache on (next to the trace unless `cache_dir` is given); the notices
  // go to notices_.
  std::unique_ptr<session::TraceImpl> Open(const fs::path& path, bool cache = true, const std::string& cache_dir = "",
                                           bool compact = false, bool states_only = false) {
    LoadOptions o;
    o.threads = 2;
    o.use_cache = cache;
    o.cache_dir = cache_dir.empty() ? std::string(kCacheBeside) : cache_dir;
    o.compact = compact;
    o.states_only = states_only;
    o.notice = [this](const std::string& n) { notices_.push_back(n); };
    auto t = session::OpenTrace(path.string(), o);
    EXPECT_TRUE(t.ok()) << t.status().ToString();
    return t.ok() ? std::move(t.value()) : nullptr;
  }

  // Everything a command could see: the canonical .prv, the summary, the diagnostics.
  std::string Fingerprint(const session::TraceImpl& t) {
    fs::path out = dir_ / "fingerprint.prv";
    EXPECT_TRUE(t.Write(out.string(), true).ok());
    std::string s = Slurp(out);
    fs::remove(out);
    TraceInfo i = t.Info();
    std::ostringstream o;
    o << s << "|" << i.states << "," << i.events << "," << i.event_pairs << "," << i.comms << ","
      << i.global_comms << "," << i.file_bytes << "," << i.trace_end << "," << i.first_time << ","
      << i.last_time << "," << i.has_pcf << i.has_row << "\n";
    for (const auto& d : i.diagnostics) {
      o << d.kind << " " << d.severity << " " << d.count << "\n";
      for (const auto& e : d.examples) o << "  " << e << "\n";
    }
    for (const auto& l : i.event_types) o << l.id << "=" << l.label << ":" << l.count << "\n";
    return o.str();
  }

  // The cache written next to `trace` (TRACE.pxc), decoded on its own (its source must match).
  Result<io::PrvTrace> ReadTheCache(const fs::path& trace) {
    auto stamp = io::cache::StampOf(trace.string());
    if (!stamp.ok()) return stamp.status();
    io::cache::DecodeOptions d;
    d.expect = &stamp.value();
    return io::cache::ReadCache(trace.string() + ".pxc", d);
  }

  fs::path WriteTrace(const std::string& text, const std::string& name = "t.prv") {
    fs::path p = dir_ / name;
    Spit(p, text);
    return p;
  }

  fs::path dir_;
  std::vector<std::string> notices_;
};

TEST_F(TraceCacheTest, SecondOpenReadsTheCacheWithIdenticalResults) {
  fs::path trace = WriteTrace(kTrace);
  std::string parsed = Fingerprint(*Open(trace, false));
  ASSERT_FALSE(fs::exists(dir_ / "t.prv.pxc"));
  std::string first = Fingerprint(*Open(trace));  // parses and writes the cache
  ASSERT_TRUE(fs::exists(dir_ / "t.prv.pxc"));
  // Prove the second open reads the cache: a cache decoded on its own gives the same store.
  auto cached = ReadTheCache(trace);
  ASSERT_TRUE(cached.ok()) << cached.status().ToString();
  EXPECT_EQ(cached->store.state_records(), 5u);
  EXPECT_EQ(cached->store.event_records(), 3u);
  EXPECT_EQ(cached->diagnostics.count(io::DiagKind::kOutOfOrder), 1u);
  EXPECT_EQ(cached->header.communicators.size(), 1u);
  auto reopened = Open(trace);
  std::string second = Fingerprint(*reopened);
  // Nothing on the way (open, summary, writing every record) copied a mapped column.
  const store::TraceStore& st = reopened->store();
  for (uint32_t t = 0; t < st.threads(); ++t) {
    EXPECT_TRUE(st.thread(model::ThreadIndex(t)).states.begin.is_view()) << t;
    EXPECT_TRUE(st.thread(model::ThreadIndex(t)).events.time.is_view()) << t;
  }
  EXPECT_TRUE(st.comms().log_send.is_view());
  EXPECT_EQ(parsed, first);
  EXPECT_EQ(parsed, second);
  EXPECT_NE(parsed.find("out_of_order"), std::string::npos);
  EXPECT_TRUE(notices_.empty());
}

// The cache stores every thread's state summaries (format 5): they decode as views of the
// mapped cache, equal to blocks built from the states, and a reopened trace's frames use them
// without building any.
TEST_F(TraceCacheTest, TheCacheKeepsTheStateSummaries) {
  // Thread 1: 5000 dense states (two blocks of 4096 and more of 64), thread 2: a few with a gap.
  std::string text = "#Paraver (01/01/2024 at 00:00):100000_ns:1(2):1:2(1:1,1:1)\n";
  for (int k = 0; k < 5000; ++k)
    text += fmt::format("1:1:1:1:1:{}:{}:{}\n", 10 * k, 10 * k + 10, k % 7 == 0 ? 0 : k % 5);
  text += "1:2:1:2:1:0:400:1\n1:2:1:2:1:500:600:3\n";
  fs::path trace = WriteTrace(text);
  auto first = Open(trace);  // parses into the cache, which keeps the blocks it built
  ASSERT_NE(first, nullptr);
  auto cached = ReadTheCache(trace);
  ASSERT_TRUE(cached.ok()) << cached.status().ToString();
  ASSERT_EQ(cached->state_blocks.size(), 2u);
  for (uint32_t t = 0; t < 2; ++t) {
    const auto& states = cached->store.thread(model::ThreadIndex(t)).states;
    const store::StateBlocks built(states);
    const store::StateBlocks& got = cached->state_blocks[t];
    ASSERT_TRUE(got.Fits(states.size()));
    EXPECT_TRUE(got.small().is_view()) << t;
    ASSERT_EQ(got.small().size(), built.small().size());
    ASSERT_EQ(got.large().size(), built.large().size());
    using Block = store::StateBlocks::Block;
    EXPECT_EQ(std::memcmp(got.small().data(), built.small().data(), built.small().size() * sizeof(Block)), 0) << t;
    EXPECT_EQ(std::memcmp(got.large().data(), built.large().data(), built.large().size() * sizeof(Block)), 0) << t;
  }
  EXPECT_EQ(cached->state_blocks[0].small().size(), 79u);  // 5000 / 64, rounded up
  EXPECT_EQ(cached->state_blocks[0].large().size(), 2u);
  // The reopened session hands them to its frames: the thread's blocks are the cache's view.
  auto reopened = Open(trace);
  ASSERT_NE(reopened, nullptr);
  EXPECT_TRUE(reopened->state_blocks().Of(model::ThreadIndex(0)).small().is_view());
  EXPECT_TRUE(notices_.empty());
}

// Every column and the communication table, as text (two loads hold the same records).
std::string StoreText(const store::TraceStore& st) {
  std::string out;
  auto put = [&out](const auto& col) {
    for (const auto& v : col) out += std::to_string(v) + ",";
    out += "|";
  };
  for (uint32_t t = 0; t < st.threads(); ++t) {
    const auto& tr = st.thread(model::ThreadIndex(t));
    put(tr.states.begin), put(tr.states.end), put(tr.states.state), put(tr.states.cpu);
    put(tr.events.time), put(tr.events.type), put(tr.events.value), put(tr.events.cpu);
    put(tr.sent), put(tr.received);
    out += "\n";
  }
  put(st.comms().log_send), put(st.comms().phy_recv), put(st.comms().size);
  return out;
}

// Lines the first pass counts (their thread is valid) but the second pass rejects (a bad state,
// a bad event value), in several chunks, with a thread out of order: each leaves an unused
// slot in the cache's thread section.
constexpr const char* kRejectedTrace =
    "#Paraver (01/01/2024 at 00:00):1000_ns:1(2):1:2(1:1,1:1),0\n"
    "1:1:1:1:1:0:100:1\n"
    "1:2:1:2:1:0:50:2\n"
    "1:1:1:1:1:100:150:x\n"
    "2:1:1:1:1:120:40:1:41:y\n"
    "2:2:1:2:1:130:40:3\n"
    "1:1:1:1:1:150:300:3\n"
    "1:2:1:2:1:200:400:1\n"
    "1:2:1:2:1:50:200:4\n"
    "2:1:1:1:1:310:40:0\n"
    "3:1:1:1:1:210:215:2:1:2:1:290:300:64:5\n"
    "1:2:1:2:1:400:1000:1\n";

// The first open parses straight into the cache file: the thread columns are written in place
// and the loaded trace reads them there, records rejected by the second pass leave unused slots,
// and the cache decodes to the same records as a plain parse (and as a cache written from memory).
TEST_F(TraceCacheTest, TheFirstOpenParsesStraightIntoTheCacheFile) {
  fs::path trace = WriteTrace(kRejectedTrace);
  io::PrvReadOptions ro;
  ro.threads = 2;
  ro.chunk_bytes = 48;  // a chunk every line or two
  auto plain = io::ReadPrv(trace.string(), ro);
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  ASSERT_EQ(plain->diagnostics.count(io::DiagKind::kOutOfOrder), 1u);
  ASSERT_GE(plain->diagnostics.skipped(), 2u);
  auto stamp = io::cache::StampOf(trace.string());
  ASSERT_TRUE(stamp.ok());
  const fs::path cache = dir_ / "in-place.pxc";
  Status written;
  auto parsed = io::cache::ParsePrvIntoCache(trace.string(), stamp.value(), cache.string(), ro, &written);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  ASSERT_TRUE(written.ok()) << written.ToString();
  EXPECT_EQ(StoreText(parsed->store), StoreText(plain->store));
  EXPECT_EQ(parsed->diagnostics.skipped(), plain->diagnostics.skipped());
  for (uint32_t t = 0; t < 2; ++t) {
    const auto& tr = parsed->store.thread(model::ThreadIndex(t));
    EXPECT_TRUE(tr.states.begin.is_view()) << "written in place, not copied: thread " << t;
    EXPECT_TRUE(tr.events.value.is_view()) << t;
    EXPECT_FALSE(tr.states.state.is_writable_view()) << "frozen once loaded";
  }
  EXPECT_TRUE(fs::exists(io::cache::SealPathFor(cache.string())));
  // Written from memory instead, the thread section has no unused slots: the file is smaller.
  const fs::path from_memory = dir_ / "from-memory.pxc";
  ASSERT_TRUE(io::cache::WriteCache(plain.value(), stamp.value(), from_memory.string()).ok());
  EXPECT_GT(fs::file_size(cache), fs::file_size(from_memory));
  for (const fs::path& p : {cache, from_memory}) {
    io::cache::DecodeOptions d;
    d.expect = &stamp.value();
    d.use_seal = false;
    auto back = io::cache::ReadCache(p.string(), d);
    ASSERT_TRUE(back.ok()) << p << ": " << back.status().ToString();
    EXPECT_EQ(StoreText(back->store), StoreText(plain->store)) << p;
    EXPECT_EQ(back->diagnostics.skipped(), plain->diagnostics.skipped()) << p;
    EXPECT_EQ(back->event_types, (std::vector<uint32_t>{40})) << p;
  }
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"from-memory.pxc", "from-memory.pxc.ok", "in-place.pxc",
                                             "in-place.pxc.ok", "t.prv"}))
      << "no temporary file is left";
}

// A full disk while parsing into the cache: when the thread section cannot be reserved, the
// columns are allocated as usual; when the sections after it cannot be written, the trace is
// kept in the unlinked file's pages. Either way the trace loads whole, the reason is given and
// no file is left.
TEST_F(TraceCacheTest, AFullDiskWhileParsingIntoTheCacheLeavesNothing) {
  fs::path trace = WriteTrace(kRejectedTrace);
  io::PrvReadOptions ro;
  ro.threads = 2;
  auto plain = io::ReadPrv(trace.string(), ro);
  ASSERT_TRUE(plain.ok());
  auto stamp = io::cache::StampOf(trace.string());
  ASSERT_TRUE(stamp.ok());
  const fs::path cache = dir_ / "c.pxc";
  Status written;
  ASSERT_TRUE(io::cache::ParsePrvIntoCache(trace.string(), stamp.value(), cache.string(), ro, &written).ok());
  ASSERT_TRUE(written.ok());
  const std::string whole = Slurp(cache);
  uint64_t thread_section = 0;
  std::memcpy(&thread_section, whole.data() + 64, 8);  // after the 56-byte header and the tag
  ASSERT_GT(thread_section, 0u);
  fs::remove(cache);
  fs::remove(io::cache::SealPathFor(cache.string()));
  for (uint64_t fail_after : {uint64_t{10}, 16 + thread_section + 40}) {
    io::cache::WriteOptions w;
    w.fail_after_bytes = fail_after;
    auto t = io::cache::ParsePrvIntoCache(trace.string(), stamp.value(), cache.string(), ro, &written, w);
    ASSERT_TRUE(t.ok()) << t.status().ToString();
    EXPECT_FALSE(written.ok()) << fail_after;
    EXPECT_NE(written.message().find("No space left on device"), std::string::npos) << written.ToString();
    EXPECT_EQ(StoreText(t->store), StoreText(plain->store)) << fail_after;
    EXPECT_EQ(t->store.thread(model::ThreadIndex(0)).states.begin.is_view(), fail_after > 10)
        << "in memory when the section could not be reserved, else the unlinked file's pages";
    EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator{}), 1) << "only t.prv";
  }
}

// Reopening maps the cache: the columns view the file's bytes (no copy), stay valid after the
// decoded trace is moved and the reader is gone, and an edit copies the column instead of
// writing into the mapping.
TEST_F(TraceCacheTest, ReopenedColumnsViewTheMappedCache) {
  fs::path trace = WriteTrace(kTrace);
  ASSERT_NE(Open(trace), nullptr);  // writes the cache
  const fs::path cache = dir_ / "t.prv.pxc";
  const std::string bytes = Slurp(cache);
  store::TraceStore st;
  {
    auto cached = io::cache::ReadCache(cache.string(), {});
    ASSERT_TRUE(cached.ok()) << cached.status().ToString();
    st = std::move(cached->store);
  }
  auto& t1 = st.thread(model::ThreadIndex(0));
  EXPECT_TRUE(t1.states.begin.is_view());
  EXPECT_TRUE(t1.events.value.is_view());
  EXPECT_TRUE(st.comms().size.is_view());
  EXPECT_EQ(st.MemoryBytes() < 4096, true) << st.MemoryBytes();  // only the cpu view is on the heap
  EXPECT_EQ(std::as_const(t1.states.end)[1], 300);
  EXPECT_EQ(std::as_const(st.comms().size)[0], 1024);
  t1.states.end[1] = 333;
  EXPECT_FALSE(t1.states.end.is_view());
  EXPECT_EQ(std::as_const(t1.states.end)[1], 333);
  EXPECT_EQ(Slurp(cache), bytes);
  // Copies of the decoded store keep reading the mapping.
  io::cache::DecodeOptions copying;
  auto copied = io::cache::DecodeCache(bytes, cache.string(), copying);
  ASSERT_TRUE(copied.ok());
  EXPECT_FALSE(copied->store.thread(model::ThreadIndex(0)).states.begin.is_view());
  EXPECT_EQ(copied->store.thread(model::ThreadIndex(1)).states.begin,
            std::as_const(st).thread(model::ThreadIndex(1)).states.begin);
}

// The checksum is made of 16 MiB blocks hashed in parallel: a cache of several blocks reopens,
// and one byte changed in its last block is caught.
TEST_F(TraceCacheTest, ChecksumCoversEveryBlockOfALargeCache) {
  std::string text = "#Paraver (01/01/2024 at 00:00):900000000_ns:1(2):1:2(1:1,1:1),0\n";
  constexpr int kStates = 450000;  // 2 threads x 22 bytes: about 19 MiB of columns
  text.reserve(static_cast<size_t>(kStates) * 2 * 24);
  for (int i = 0; i < kStates; ++i)
    for (int t = 1; t <= 2; ++t)
      text += fmt::format("1:{0}:1:{0}:1:{1}:{2}:{3}\n", t, i * 1000, i * 1000 + 1000, i % 7);
  fs::path trace = WriteTrace(text);
  auto first = Open(trace);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->Info().states, 2u * kStates);
  const fs::path cache = dir_ / "t.prv.pxc";
  ASSERT_GT(fs::file_size(cache), (16u << 20) + 65536u);  // two blocks at least
  auto again = Open(trace);
  ASSERT_NE(again, nullptr);
  EXPECT_TRUE(notices_.empty());
  EXPECT_TRUE(again->store().thread(model::ThreadIndex(1)).states.end.is_view());
  std::string bytes = Slurp(cache);
  bytes[bytes.size() - 4000] ^= 0x10;
  Spit(cache, bytes);
  auto rebuilt = Open(trace);
  ASSERT_NE(rebuilt, nullptr);
  EXPECT_EQ(rebuilt->Info().states, 2u * kStates);
  ASSERT_EQ(notices_.size(), 1u);
  EXPECT_NE(notices_[0].find("checksum mismatch"), std::string::npos) << notices_[0];
}

// The checksum is made of block hashes, so processes can each hash a share of the blocks:
// any split of the blocks, put back in order, gives the header's checksum.
TEST_F(TraceCacheTest, BlockHashesOfAnySplitCombineToTheHeadersChecksum) {
  auto t = Open(WriteTrace(kTrace));
  ASSERT_NE(t, nullptr);
  std::string bytes = Slurp(dir_ / "t.prv.pxc");
  auto header = io::cache::ReadHeader(bytes, "c");
  ASSERT_TRUE(header.ok());
  std::string_view payload = std::string_view(bytes).substr(bytes.size() - header->payload_bytes);
  const size_t n = io::cache::ChecksumBlocks(payload.size());
  ASSERT_EQ(n, 1u);
  for (size_t k = 0; k <= n; ++k) {
    std::vector<uint64_t> all = io::cache::HashBlocks(payload, 0, k, 1);
    std::vector<uint64_t> rest = io::cache::HashBlocks(payload, k, n, 2);
    all.insert(all.end(), rest.begin(), rest.end());
    EXPECT_EQ(io::cache::CombineBlockHashes(all), header->payload_hash) << k;
  }
  EXPECT_NE(io::cache::CombineBlockHashes({}), header->payload_hash);
}

// Two processes (threads here, with an in-process allgather) open a trace together: rank 0
// writes the cache, both read it; a damaged cache gives one notice (rank 0's), both get the
// same trace.
TEST_F(TraceCacheTest, DistributedOpenAgreesOnTheCache) {
  fs::path trace = WriteTrace(kTrace);
  std::mutex mutex;
  std::condition_variable cv;
  std::vector<std::string> parts(2), result;
  unsigned arrived = 0;
  uint64_t round = 0;
  std::vector<Distribution> dist(2);
  for (unsigned r = 0; r < 2; ++r) {
    dist[r].rank = r;
    dist[r].ranks = 2;
    dist[r].threads = 1;
    dist[r].allgather = [&, r](const std::string& mine) {
      std::unique_lock<std::mutex> lock(mutex);
      const uint64_t my_round = round;
      parts[r] = mine;
      if (++arrived == 2) {
        result = parts;
        arrived = 0;
        ++round;
        cv.notify_all();
      } else {
        cv.wait(lock, [&] { return round != my_round; });
      }
      return result;
    };
  }
  auto open_both = [&](std::vector<std::vector<std::string>>& notices, bool compact = false) {
    std::vector<std::unique_ptr<session::TraceImpl>> traces(2);
    std::vector<std::thread> threads;
    for (unsigned r = 0; r < 2; ++r)
      threads.emplace_back([&, r] {
        LoadOptions o;
        o.threads = 1;
        o.use_cache = true;
        o.cache_dir = kCacheBeside;
        o.compact = compact;
        o.distribution = &dist[r];
        o.notice = [&notices, r](const std::string& n) { notices[r].push_back(n); };
        auto t = session::OpenTrace(trace.string(), o);
        if (t.ok()) traces[r] = std::move(t.value());
      });
    for (auto& t : threads) t.join();
    return traces;
  };
  auto single = Open(trace, false);
  ASSERT_NE(single, nullptr);
  const std::string want = Fingerprint(*single);
  std::vector<std::vector<std::string>> notices(2);
  auto built = open_both(notices);
  ASSERT_TRUE(built[0] && built[1]);
  EXPECT_EQ(Fingerprint(*built[1]), want);
  EXPECT_EQ(built[1]->EventTypes(), single->EventTypes());
  EXPECT_TRUE(notices[0].empty() && notices[1].empty());
  built.clear();
  const fs::path cache = dir_ / "t.prv.pxc";
  std::string bytes = Slurp(cache);
  bytes[bytes.size() - 100] ^= 0x10;
  Spit(cache, bytes);
  auto reopened = open_both(notices);
  ASSERT_TRUE(reopened[0] && reopened[1]);
  EXPECT_EQ(Fingerprint(*reopened[0]), want);
  EXPECT_EQ(Fingerprint(*reopened[1]), want);
  ASSERT_EQ(notices[0].size(), 1u);
  EXPECT_NE(notices[0][0].find("checksum mismatch"), std::string::npos) << notices[0][0];
  EXPECT_TRUE(notices[1].empty());
  reopened.clear();
  // Compact records: rank 0 writes a compact cache in one pass, both read it compact.
  fs::remove(cache);
  notices.assign(2, {});
  auto compact = open_both(notices, true);
  ASSERT_TRUE(compact[0] && compact[1]);
  for (unsigned r = 0; r < 2; ++r) {
    EXPECT_TRUE(compact[r]->prv().store.compact()) << r;
    EXPECT_EQ(Fingerprint(*compact[r]), want) << r;
  }
  EXPECT_TRUE(notices[0].empty() && notices[1].empty());
  auto cached = io::cache::ReadCache(cache.string(), {});
  ASSERT_TRUE(cached.ok()) << cached.status().ToString();
  EXPECT_TRUE(cached->store.compact());
}

// The memory budget bounds what parsing allocates; a mapped cache is not allocated, so a trace
// whose parse the budget refuses still opens from its cache, with the same results.
TEST_F(TraceCacheTest, CacheLargerThanTheBudgetIsMappedNotRefused) {
  fs::path trace = WriteTrace(kTrace);
  std::string expected = Fingerprint(*Open(trace));  // writes the cache
  LoadOptions tight;
  tight.threads = 1;
  tight.memory_limit = 64;  // bytes: far below what parsing needs
  tight.use_cache = false;
  auto refused = session::OpenTrace(trace.string(), tight);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("memory"), std::string::npos) << refused.status().ToString();
  tight.use_cache = true;
  tight.cache_dir = kCacheBeside;
  tight.notice = [this](const std::string& n) { notices_.push_back(n); };
  auto mapped = session::OpenTrace(trace.string(), tight);
  ASSERT_TRUE(mapped.ok()) << mapped.status().ToString();
  EXPECT_EQ(Fingerprint(*mapped.value()), expected);
  EXPECT_TRUE(notices_.empty());
}

// The first open parses into the cache file: the records are not allocated, so a budget far
// below what they need (and which refuses the same parse into memory) still loads the trace,
// with the records a parse into memory gives.
TEST_F(TraceCacheTest, TheFirstOpenOfATraceLargerThanTheBudgetParsesIntoTheCache) {
  std::string text = "#Paraver (01/01/2024 at 00:00):90000000_ns:1(2):1:2(1:1,1:1),0\n";
  for (int i = 0; i < 20000; ++i) {
    text += fmt::format("1:{0}:1:{0}:1:{1}:{2}:{3}\n", 1 + i % 2, i * 10, i * 10 + 10, i % 7);
    if (i % 4 == 0) text += fmt::format("2:{0}:1:{0}:1:{1}:42:{2}\n", 1 + i % 2, i * 10 + 5, i);
  }
  fs::path trace = WriteTrace(text);
  std::string expected = Fingerprint(*Open(trace, false));
  LoadOptions tight;
  tight.threads = 2;
  tight.memory_limit = 64 << 10;  // the columns need 20000 * 22 + 5000 * 22 bytes
  tight.use_cache = false;
  tight.notice = [this](const std::string& n) { notices_.push_back(n); };
  auto refused = session::OpenTrace(trace.string(), tight);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("memory budget"), std::string::npos) << refused.status().ToString();
  ASSERT_FALSE(fs::exists(dir_ / "t.prv.pxc"));
  tight.use_cache = true;
  tight.cache_dir = kCacheBeside;
  auto parsed = session::OpenTrace(trace.string(), tight);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_TRUE(fs::exists(dir_ / "t.prv.pxc"));
  // Its plain columns would take more than half the budget: the records are compact, their
  // blocks the cache file's pages.
  EXPECT_TRUE(parsed.value()->store().compact());
  EXPECT_LT(parsed.value()->store().MemoryBytes(), size_t{64} << 10);
  EXPECT_EQ(Fingerprint(*parsed.value()), expected);
  EXPECT_TRUE(notices_.empty());
}

TEST_F(TraceCacheTest, RealGzipTraceWithLabelsRoundTrips) {
  fs::copy(fs::path(PARALLAX_TEST_DATA) / "omp/omp2.prv.gz", dir_);
  fs::copy(fs::path(PARALLAX_TEST_DATA) / "omp/omp2.pcf", dir_);
  fs::copy(fs::path(PARALLAX_TEST_DATA) / "omp/omp2.row", dir_);
  fs::path trace = dir_ / "omp2.prv.gz";
  std::string parsed = Fingerprint(*Open(trace, false));
  Open(trace);
  ASSERT_TRUE(fs::exists(dir_ / "omp2.prv.gz.pxc"));
  std::string cached = Fingerprint(*Open(trace));
  EXPECT_EQ(parsed, cached);
  EXPECT_TRUE(notices_.empty());
}

TEST_F(TraceCacheTest, StaleCacheOfARewrittenTraceIsRebuilt) {
  fs::path trace = WriteTrace(kTrace);
  Open(trace);
  // Same size, different content (a state value 3 -> 4).
  std::string changed = kTrace;
  changed.replace(changed.find("1:1:1:1:1:200:300:3"), 19, "1:1:1:1:1:200:300:4");
  Spit(trace, changed);
  ASSERT_EQ(fs::file_size(trace), std::string(kTrace).size());
  std::string expected = Fingerprint(*Open(trace, false));
  std::string got = Fingerprint(*Open(trace));
  EXPECT_EQ(expected, got);
  ASSERT_EQ(notices_.size(), 1u);
  EXPECT_NE(notices_[0].find("stale"), std::string::npos) << notices_[0];
  notices_.clear();
  Open(trace);  // rebuilt: no notice any more
  EXPECT_TRUE(notices_.empty());
}


class DamagedCacheTest : public TraceCacheTest {
 protected:
  void Check(const std::function<void(std::string&)>& damage, const std::string& what) {
    fs::path trace = WriteTrace(kTrace);
    std::string expected = Fingerprint(*Open(trace, false));
    Open(trace);
    fs::path cache = dir_ / "t.prv.pxc";
    std::string bytes = Slurp(cache);
    damage(bytes);
    Spit(cache, bytes);
    EXPECT_EQ(expected, Fingerprint(*Open(trace)));
    ASSERT_EQ(notices_.size(), 1u);
    EXPECT_NE(notices_[0].find(what), std::string::npos) << notices_[0];
    EXPECT_NE(notices_[0].find("t.prv.pxc"), std::string::npos) << notices_[0];
    notices_.clear();
    EXPECT_EQ(expected, Fingerprint(*Open(trace)));
    EXPECT_TRUE(notices_.empty()) << "the rebuilt cache is used quietly";
  }
};

TEST_F(DamagedCacheTest, Truncated) {
  Check([](std::string& b) { b.resize(b.size() - 13); }, "truncated");
}

TEST_F(DamagedCacheTest, AnotherFormatVersion) {
  Check([](std::string& b) { b[8] = static_cast<char>(io::cache::kFormatVersion + 1); },
        "format version " + std::to_string(io::cache::kFormatVersion + 1));
}

// A cache written by the version before (crc32, copied columns) is rebuilt too.
TEST_F(DamagedCacheTest, ThePreviousFormatVersion) {
  Check([](std::string& b) { b[8] = 1; },
        "format version 1, this Parallax reads version " + std::to_string(io::cache::kFormatVersion));
}

// Caches of format 2 (before the event types were recorded), 3 (the thread columns after the
// meta section, so not writable while parsing), 4 (no state summaries) and 5 are rebuilt too.
TEST_F(DamagedCacheTest, FormatVersionTwo) {
  Check([](std::string& b) { b[8] = 2; }, "format version 2, this Parallax reads version 7");
}

TEST_F(DamagedCacheTest, FormatVersionThree) {
  Check([](std::string& b) { b[8] = 3; }, "format version 3, this Parallax reads version 7");
}

TEST_F(DamagedCacheTest, FormatVersionFour) {
  Check([](std::string& b) { b[8] = 4; }, "format version 4, this Parallax reads version 7");
}

// Format 5 had no compact records.
TEST_F(DamagedCacheTest, FormatVersionFive) {
  Check([](std::string& b) { b[8] = 5; }, "format version 5, this Parallax reads version 7");
}

// Format 6 kept each thread's compact blocks in arrays of their own.
TEST_F(DamagedCacheTest, FormatVersionSix) {
  Check([](std::string& b) { b[8] = 6; }, "format version 6, this Parallax reads version 7");
}

TEST_F(DamagedCacheTest, CorruptedByte) {
  Check([](std::string& b) { b[b.size() / 2] ^= 0x10; }, "checksum");
}

TEST_F(DamagedCacheTest, NotACache) {
  Check([](std::string& b) { b = "hello"; }, "bad magic");
}

// The seal (trace_cache.h): a cache whose seal names it as it is now is not hashed again. Shown
// with a cache whose header checksum is wrong: hashed, it is refused; sealed as it now is, it
// is read; sealed in the tick of its last change, or changed after its seal, it is hashed.
TEST_F(TraceCacheTest, ASealedCacheIsNotHashedAgainUntilItChanges) {
  fs::path trace = WriteTrace(kTrace);
  const std::string expected = Fingerprint(*Open(trace, false));
  Open(trace);
  const fs::path cache = dir_ / "t.prv.pxc";
  const fs::path seal = io::cache::SealPathFor(cache.string());
  ASSERT_TRUE(fs::exists(seal)) << "writing the cache seals it";
  auto stamp = io::cache::StampOf(trace.string());
  ASSERT_TRUE(stamp.ok());
  io::cache::DecodeOptions d;
  d.expect = &stamp.value();
  ASSERT_TRUE(io::cache::ReadCache(cache.string(), d).ok());

  std::string bytes = Slurp(cache);
  bytes[24] ^= 0x01;  // the payload checksum of the header
  uint64_t wrong_hash = 0;
  std::memcpy(&wrong_hash, bytes.data() + 24, 8);
  Spit(cache, bytes);
  auto hashed = io::cache::ReadCache(cache.string(), d);
  ASSERT_FALSE(hashed.ok()) << "the old seal does not name the changed file";
  EXPECT_NE(hashed.status().message().find("checksum mismatch"), std::string::npos);

  base::FileIdentity id;
  ASSERT_TRUE(base::IdentityOfPath(cache.string(), &id));
  io::cache::WriteSeal(cache.string(), id, wrong_hash);
  // The seal's own time decides whether it is trusted: after the cache's change, it is.
  timespec times[2] = {{0, UTIME_OMIT}, {id.ctime_ns / 1000000000 + 1, id.ctime_ns % 1000000000}};
  ASSERT_EQ(::utimensat(AT_FDCWD, seal.c_str(), times, 0), 0);
  EXPECT_TRUE(io::cache::Sealed(cache.string(), id, wrong_hash));
  auto trusted = io::cache::ReadCache(cache.string(), d);
  ASSERT_TRUE(trusted.ok()) << trusted.status().ToString();
  EXPECT_EQ(trusted->store.state_records(), 5u);

  // Sealed in the very tick of the change: not trusted, so hashed (and refused).
  times[1] = {id.ctime_ns / 1000000000, id.ctime_ns % 1000000000};
  ASSERT_EQ(::utimensat(AT_FDCWD, seal.c_str(), times, 0), 0);
  EXPECT_FALSE(io::cache::Sealed(cache.string(), id, wrong_hash));
  EXPECT_FALSE(io::cache::ReadCache(cache.string(), d).ok());

  // A seal for another checksum, or another version of the file, is not trusted either.
  EXPECT_FALSE(io::cache::Sealed(cache.string(), id, wrong_hash ^ 1));
  base::FileIdentity other = id;
  other.ctime_ns -= 1;
  EXPECT_FALSE(io::cache::Sealed(cache.string(), other, wrong_hash));

  // Through the session: the damaged cache is rebuilt (and sealed again), then used quietly.
  Spit(cache, bytes);
  notices_.clear();
  EXPECT_EQ(expected, Fingerprint(*Open(trace)));
  ASSERT_EQ(notices_.size(), 1u);
  EXPECT_NE(notices_[0].find("checksum mismatch"), std::string::npos) << notices_[0];
  EXPECT_TRUE(fs::exists(seal));
  notices_.clear();
  EXPECT_EQ(expected, Fingerprint(*Open(trace)));
  EXPECT_TRUE(notices_.empty());

  // Clearing the cache removes its seal too.
  auto cleared = ClearCache(trace.string(), kCacheBeside);
  ASSERT_TRUE(cleared.ok());
  EXPECT_TRUE(cleared.value());
  EXPECT_FALSE(fs::exists(cache));
  EXPECT_FALSE(fs::exists(seal));
}

// The cache records the trace's event types: a reopened trace knows them without a scan, and
// they are those a scan finds.
TEST_F(TraceCacheTest, TheCacheRecordsTheEventTypes) {
  fs::path trace = WriteTrace(kTrace);
  auto parsed = Open(trace);
  ASSERT_TRUE(parsed);
  auto reopened = Open(trace);
  ASSERT_TRUE(reopened);
  EXPECT_TRUE(reopened->prv().event_types_known);
  EXPECT_EQ(reopened->prv().event_types, (std::vector<uint32_t>{50000001, 50000002, 50000003}));
  EXPECT_EQ(reopened->prv().event_types, store::ScanEventTypes(reopened->store()));
  EXPECT_EQ(reopened->EventTypes(), reopened->prv().event_types);
}

// Where caches go (docs/formats.md, "Trace cache"): by default in the user's cache folder
// ($XDG_CACHE_HOME/parallax, else ~/.cache/parallax, else a private /tmp/parallax-UID), named
// after the trace with a hash of its absolute path; next to the trace only when asked
// (kCacheBeside) and its folder is writable.
TEST_F(TraceCacheTest, CachesGoToTheUserCacheFolderUnlessAskedBeside) {
  fs::path trace = dir_ / "ro" / "t.prv";
  EnvVar xdg_var("XDG_CACHE_HOME", (dir_ / "xdg").string());
  std::string xdg = io::cache::CachePathFor(trace.string(), "", [](const std::string&) { return true; });
  EXPECT_EQ(fs::path(xdg).parent_path(), dir_ / "xdg" / "parallax");
  EXPECT_EQ(fs::path(xdg).filename().string().rfind("t.prv-", 0), 0u) << xdg;
  // Another folder, same name: another cache file.
  std::string other = io::cache::CachePathFor((dir_ / "t.prv").string(), (dir_ / "xdg").string(), nullptr);
  EXPECT_NE(fs::path(other).filename(), fs::path(xdg).filename());
  // Beside, writable: next to the trace; read-only: the user's folder.
  EXPECT_EQ(io::cache::CachePathFor(trace.string(), kCacheBeside, [](const std::string&) { return true; }),
            trace.string() + ".pxc");
  EXPECT_EQ(io::cache::CachePathFor(trace.string(), kCacheBeside, [](const std::string&) { return false; }), xdg);
  {
    EnvVar no_xdg("XDG_CACHE_HOME", nullptr);
    EnvVar home("HOME", (dir_ / "home").string());
    EXPECT_EQ(fs::path(io::cache::CachePathFor(trace.string(), "")).parent_path(),
              dir_ / "home" / ".cache" / "parallax");
    EnvVar no_home("HOME", nullptr);
    EXPECT_EQ(fs::path(io::cache::CachePathFor(trace.string(), "")).parent_path(),
              fs::path(fmt::format("/tmp/parallax-{}", ::geteuid())));
  }
  // An open with the defaults writes into the user's folder, made private, nothing beside.
  fs::path t2 = WriteTrace(kTrace);
  LoadOptions o;
  o.use_cache = true;
  o.notice = [this](const std::string& n) { notices_.push_back(n); };
  auto t = session::OpenTrace(t2.string(), o);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t.value()->Summary().cache_use, "written");
  EXPECT_EQ(fs::path(t.value()->Summary().cache_path).parent_path(), dir_ / "xdg" / "parallax");
  EXPECT_FALSE(fs::exists(t2.string() + ".pxc"));
  EXPECT_EQ(fs::status(dir_ / "xdg" / "parallax").permissions() & fs::perms::all, fs::perms::owner_all);
  EXPECT_TRUE(notices_.empty());
}

// A trace smaller than cache_min_bytes gets no cache (and the user's folder is not even made);
// an existing valid cache is read whatever the size.
TEST_F(TraceCacheTest, SmallTracesAreNotCachedButAnExistingCacheIsRead) {
  EnvVar xdg_var("XDG_CACHE_HOME", (dir_ / "xdg").string());
  fs::path trace = WriteTrace(kTrace);
  LoadOptions o;
  o.use_cache = true;
  o.cache_min_bytes = 64 << 20;
  auto small = session::OpenTrace(trace.string(), o);
  ASSERT_TRUE(small.ok()) << small.status().ToString();
  EXPECT_EQ(small.value()->Summary().cache_use.rfind("not written: the trace has about", 0), 0u)
      << small.value()->Summary().cache_use;
  EXPECT_FALSE(fs::exists(dir_ / "xdg"));
  LoadOptions all = o;
  all.cache_min_bytes = 0;
  ASSERT_TRUE(session::OpenTrace(trace.string(), all).ok());
  auto again = session::OpenTrace(trace.string(), o);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again.value()->Summary().cache_use, "read");
  EXPECT_EQ(Fingerprint(*again.value()), Fingerprint(*small.value()));
}

// The user's folder keeps its caches within cache_max_bytes: the least recently used go first
// (a read counts as a use), never the one just written.
TEST_F(TraceCacheTest, TheUserFolderEvictsTheLeastRecentlyUsedCaches) {
  EnvVar xdg_var("XDG_CACHE_HOME", (dir_ / "xdg").string());
  std::vector<fs::path> traces;
  for (const char* name : {"a", "b", "c"}) {
    traces.push_back(dir_ / (std::string(name) + ".prv"));
    Spit(traces.back(), kTrace);
  }
  LoadOptions o;
  o.use_cache = true;
  o.notice = [this](const std::string& n) { notices_.push_back(n); };
  auto open = [&](const fs::path& p) {
    auto t = session::OpenTrace(p.string(), o);
    EXPECT_TRUE(t.ok()) << t.status().ToString();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // distinct file times
    return t.ok() ? t.value()->Summary().cache_path : std::string();
  };
  const std::string a = open(traces[0]), b = open(traces[1]);
  const uint64_t one = fs::file_size(a);
  open(traces[0]);  // a is read: b is now the least recently used
  o.cache_max_bytes = 2 * one + one / 2;
  const std::string c = open(traces[2]);
  EXPECT_TRUE(fs::exists(a));
  EXPECT_FALSE(fs::exists(b));
  EXPECT_FALSE(fs::exists(b + ".ok"));
  EXPECT_TRUE(fs::exists(c));
  ASSERT_EQ(notices_.size(), 1u);
  EXPECT_NE(notices_[0].find("removed the 1 least recently used caches"), std::string::npos) << notices_[0];
  o.cache_max_bytes = 1;  // even below one cache: the one written now stays
  const std::string b2 = open(traces[1]);
  EXPECT_TRUE(fs::exists(b2));
  EXPECT_FALSE(fs::exists(a));
  EXPECT_FALSE(fs::exists(c));
}

// Without XDG_CACHE_HOME and HOME the caches go to /tmp/parallax-UID, which must be this user's
// and private: a folder another user could write into (or a link) is not used at all.
TEST_F(TraceCacheTest, ASharedFallbackFolderIsNotUsed) {
  EnvVar no_xdg("XDG_CACHE_HOME", nullptr);
  EnvVar no_home("HOME", nullptr);
  const fs::path folder = fmt::format("/tmp/parallax-{}", ::geteuid());
  std::error_code ec;
  fs::remove_all(folder, ec);
  fs::path trace = WriteTrace(kTrace);
  LoadOptions o;
  o.use_cache = true;
  o.notice = [this](const std::string& n) { notices_.push_back(n); };
  ASSERT_TRUE(::mkdir(folder.c_str(), 0777) == 0 && ::chmod(folder.c_str(), 0777) == 0);
  auto planted = session::OpenTrace(trace.string(), o);
  ASSERT_TRUE(planted.ok()) << planted.status().ToString();
  EXPECT_EQ(planted.value()->Summary().cache_path, "");
  EXPECT_NE(planted.value()->Summary().cache_use.find("others can write into it"), std::string::npos)
      << planted.value()->Summary().cache_use;
  EXPECT_TRUE(fs::is_empty(folder));
  ASSERT_EQ(notices_.size(), 1u);
  fs::remove(folder);
  fs::create_directory_symlink(dir_, folder);
  auto linked = session::OpenTrace(trace.string(), o);
  ASSERT_TRUE(linked.ok());
  EXPECT_NE(linked.value()->Summary().cache_use.find("symbolic link"), std::string::npos);
  fs::remove(folder);
  auto made = session::OpenTrace(trace.string(), o);  // missing: made private, and used
  ASSERT_TRUE(made.ok());
  EXPECT_EQ(made.value()->Summary().cache_use, "written");
  EXPECT_EQ(fs::status(folder).permissions() & fs::perms::all, fs::perms::owner_all);
  fs::remove_all(folder, ec);
}

// A trace edited in the middle, keeping its size and with its mtime set back (touch -d, cp
// --inplace --preserve), is not taken for the one its cache was built from: the stamp covers
// the ctime and samples of the content all over the file.
TEST_F(TraceCacheTest, AnEditInTheMiddleWithTheSameSizeAndMtimeIsSeen) {
  std::string text = "#Paraver (01/01/2024 at 00:00):9000000_ns:1(1):1:1(1:1),0\n";
  for (int i = 0; i < 30000; ++i) text += fmt::format("1:1:1:1:1:{}:{}:{}\n", i * 10, i * 10 + 10, 1 + i % 5);
  fs::path trace = WriteTrace(text);
  ASSERT_GT(text.size(), 400000u);
  auto first = Open(trace);
  ASSERT_TRUE(first);
  struct stat before {};
  ASSERT_EQ(::stat(trace.c_str(), &before), 0);
  // One state value in the middle, 2 -> 3 (same length), written in place.
  const size_t at = text.find(":2\n", text.size() / 2);
  ASSERT_NE(at, std::string::npos);
  {
    int fd = ::open(trace.c_str(), O_WRONLY);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::pwrite(fd, "3", 1, static_cast<off_t>(at + 1)), 1);
    ::close(fd);
  }
  const struct timespec times[2] = {before.st_atim, before.st_mtim};
  ASSERT_EQ(::utimensat(AT_FDCWD, trace.c_str(), times, 0), 0);
  auto again = Open(trace);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->Summary().cache_use, "written");  // rebuilt, not read
  text[at + 1] = '3';
  Spit(dir_ / "fresh.prv", text);
  EXPECT_EQ(Fingerprint(*again), Fingerprint(*Open(dir_ / "fresh.prv", false)));
}

TEST_F(TraceCacheTest, CacheDirOverridesTheLocation) {
  fs::path trace = WriteTrace(kTrace);
  Open(trace, true, (dir_ / "elsewhere").string());
  EXPECT_FALSE(fs::exists(dir_ / "t.prv.pxc"));
  ASSERT_TRUE(fs::exists(dir_ / "elsewhere"));
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir_ / "elsewhere")) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  ASSERT_EQ(names.size(), 2u) << "the cache and its seal";
  EXPECT_EQ(names[0].substr(0, 6), "t.prv-");
  EXPECT_EQ(names[1], names[0] + ".ok");
}

TEST_F(TraceCacheTest, FullDiskLeavesNothingAndTheLoadSucceeds) {
  fs::path trace = WriteTrace(kTrace);
  auto prv = session::OpenTrace(trace.string(), LoadOptions{});
  ASSERT_TRUE(prv.ok());
  auto stamp = io::cache::StampOf(trace.string());
  ASSERT_TRUE(stamp.ok());
  io::cache::WriteOptions w;
  w.fail_after_bytes = 100;
  Status s = io::cache::WriteCache(prv.value()->prv(), stamp.value(), (dir_ / "c.pxc").string(), w);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("No space left on device"), std::string::npos) << s.ToString();
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator{}), 1) << "only t.prv";
  // A cache folder that cannot be created (a file is in the way): a notice, and the trace loads.
  Spit(dir_ / "blocked", "x");
  std::string expected = Fingerprint(*Open(trace, false));
  EXPECT_EQ(expected, Fingerprint(*Open(trace, true, (dir_ / "blocked" / "sub").string())));
  ASSERT_EQ(notices_.size(), 1u);
  EXPECT_NE(notices_[0].find("cannot create the trace cache"), std::string::npos) << notices_[0];
}

TEST_F(TraceCacheTest, StrictOpenOfACachedTraceWithProblemsStillFails) {
  fs::path trace = WriteTrace(kTrace);
  Open(trace);
  LoadOptions o;
  o.use_cache = true;
  o.cache_dir = kCacheBeside;
  o.strict = true;
  auto t = session::OpenTrace(trace.string(), o);
  EXPECT_FALSE(t.ok());
}

// A cache of compact records (format 6): the first open codes the parsed columns into it and
// makes the store compact, a reopen maps the blocks; both give what a parse gives, and the
// cache is a fraction of the plain one.
TEST_F(TraceCacheTest, ACompactCacheGivesTheSameResults) {
  fs::path trace = WriteTrace(kTrace);
  const std::string parsed = Fingerprint(*Open(trace, false));
  auto first = Open(trace, true, "", /*compact=*/true);
  EXPECT_TRUE(first->store().compact());
  EXPECT_EQ(parsed, Fingerprint(*first));
  auto cached = ReadTheCache(trace);
  ASSERT_TRUE(cached.ok()) << cached.status().ToString();
  EXPECT_TRUE(cached->store.compact());
  auto info = InspectCache(trace.string(), kCacheBeside);
  ASSERT_TRUE(info.ok());
  EXPECT_TRUE(info->usable);
  EXPECT_TRUE(info->compact);
  EXPECT_EQ(info->records, 9u);
  // Reopened without asking for compact records: the cache's are used as they are.
  auto reopened = Open(trace);
  EXPECT_TRUE(reopened->store().compact());
  // Every thread's blocks view the one mapped array, not a copy of it (a copy per thread would
  // make a reopen cost threads x the blocks' bytes).
  const store::CompactThreads* coded = reopened->store().compact_threads();
  ASSERT_NE(coded, nullptr);
  for (uint32_t t = 0; t < reopened->store().threads(); ++t) {
    EXPECT_TRUE(coded->coded(t).states.bytes.is_view()) << t;
    EXPECT_TRUE(coded->coded(t).events.bytes.is_view()) << t;
    EXPECT_EQ(coded->coded(t).states.bytes.data(), coded->coded(0).events.bytes.data()) << t;
  }
  EXPECT_EQ(parsed, Fingerprint(*reopened));
  EXPECT_TRUE(notices_.empty());

  // A real trace: the same events and states, and a cache under a third of the plain one's size.
  for (const char* f : {"omp2.prv.gz", "omp2.pcf", "omp2.row"})
    fs::copy(fs::path(PARALLAX_TEST_DATA) / "omp" / f, dir_ / f);
  const fs::path omp = dir_ / "omp2.prv.gz";
  const std::string omp_parsed = Fingerprint(*Open(omp, false));
  Open(omp, true, (dir_ / "plain").string());
  Open(omp, true, (dir_ / "compact").string(), true);
  const uint64_t plain_bytes = fs::file_size(io::cache::CachePathFor(omp.string(), (dir_ / "plain").string()));
  const uint64_t compact_bytes = fs::file_size(io::cache::CachePathFor(omp.string(), (dir_ / "compact").string()));
  EXPECT_LT(compact_bytes * 3, plain_bytes) << compact_bytes << " " << plain_bytes;
  auto omp_reopened = Open(omp, true, (dir_ / "compact").string());
  EXPECT_TRUE(omp_reopened->store().compact());
  EXPECT_EQ(omp_parsed, Fingerprint(*omp_reopened));
  EXPECT_TRUE(notices_.empty());
}

// A trace of three threads long enough for several blocks each and many segments of a small
// chunk size: thread 2 runs on cpu 4 for a while, and with `back_in_time` thread 1's last
// record begins before all the others.
std::string LongTrace(bool back_in_time) {
  std::string s = "#Paraver (01/01/2024 at 00:00):10000000_ns:1(4):1:1(3:1)\n";
  for (int k = 0; k < 20000; ++k)
    for (int t = 1; t <= 3; ++t) {
      const int cpu = t == 2 && k > 5000 && k < 9000 ? 4 : t;
      const int begin = 100 * k + (t == 3 && k % 7 == 0 ? 3 : 0);  // thread 3: gaps
      s += fmt::format("1:{}:1:1:{}:{}:{}:{}\n", cpu, t, begin, 100 * k + 100, (k + t) % 5);
      if ((k + t) % 2 == 0) s += fmt::format("2:{}:1:1:{}:{}:5000000{}:{}\n", cpu, t, begin + 10, 1 + k % 3, k);
    }
  s += "3:1:1:1:1:10:10:2:1:1:2:50:50:64:1\n";
  if (back_in_time) s += "1:1:1:1:1:0:5:2\n";
  return s;
}

// `t` holds what `plain` holds, in a compact store, with the state summaries and event types
// made on the way.
void ExpectSameAsPlain(const io::PrvTrace& plain, const io::PrvTrace& t, bool back) {
  const std::vector<store::StateBlocks> summaries = store::BuildStateBlocks(plain.store, 2);
  const store::TraceStore& st = t.store;
  ASSERT_TRUE(st.compact());
  ASSERT_EQ(st.threads(), 3u);
  for (uint32_t i = 0; i < st.threads(); ++i) {
    const model::ThreadIndex th(i);
    const store::ThreadRecords& want = plain.store.thread(th);
    auto got = st.Pin(th);
    EXPECT_EQ(got->states.begin, want.states.begin);
    EXPECT_EQ(got->states.end, want.states.end);
    EXPECT_EQ(got->states.state, want.states.state);
    EXPECT_EQ(got->states.cpu, want.states.cpu);
    EXPECT_EQ(got->events.time, want.events.time);
    EXPECT_EQ(got->events.type, want.events.type);
    EXPECT_EQ(got->events.value, want.events.value);
    EXPECT_EQ(got->events.cpu, want.events.cpu);
    EXPECT_EQ(st.Sent(th), want.sent);
    EXPECT_EQ(st.Received(th), want.received);
    ASSERT_EQ(t.state_blocks.size(), 3u);
    EXPECT_EQ(t.state_blocks[i].small().ToVector().size(), summaries[i].small().size());
    EXPECT_EQ(0, std::memcmp(t.state_blocks[i].small().data(), summaries[i].small().data(),
                             summaries[i].small().size() * sizeof(store::StateBlocks::Block)));
    EXPECT_EQ(0, std::memcmp(t.state_blocks[i].large().data(), summaries[i].large().data(),
                             summaries[i].large().size() * sizeof(store::StateBlocks::Block)));
  }
  const store::CpuView& a = st.cpu_view();
  const store::CpuView& b = plain.store.cpu_view();
  ASSERT_EQ(a.state_runs.size(), 4u);
  for (size_t c = 0; c < 4; ++c) {
    ASSERT_EQ(a.state_runs[c].size(), b.state_runs[c].size()) << c;
    ASSERT_EQ(a.event_runs[c].size(), b.event_runs[c].size()) << c;
    for (size_t r = 0; r < a.state_runs[c].size(); ++r) {
      EXPECT_EQ(a.state_runs[c][r].thread, b.state_runs[c][r].thread);
      EXPECT_EQ(a.state_runs[c][r].first, b.state_runs[c][r].first);
      EXPECT_EQ(a.state_runs[c][r].last, b.state_runs[c][r].last);
    }
    for (size_t r = 0; r < a.event_runs[c].size(); ++r) {
      EXPECT_EQ(a.event_runs[c][r].first, b.event_runs[c][r].first);
      EXPECT_EQ(a.event_runs[c][r].last, b.event_runs[c][r].last);
    }
  }
  EXPECT_EQ(t.event_types, store::ScanEventTypes(plain.store));
  EXPECT_EQ(st.comms().rows(), 1u);
  EXPECT_EQ(st.end_time(), plain.store.end_time());
  EXPECT_EQ(t.body_lines, plain.body_lines);
  EXPECT_EQ(t.event_lines, plain.event_lines);
  EXPECT_EQ(t.diagnostics.count(io::DiagKind::kOutOfOrder), back ? 1u : 0u);
  EXPECT_GT(t.chunks, 10u);
}

// With compact records the first open parses in one pass, a segment at a time; the store and
// its cache are what the two-pass parse gives, wherever the segments cut the threads. A thread
// whose records go back in time across segments is parsed in two passes instead, with the same
// result.
TEST_F(TraceCacheTest, TheOnePassCompactParseGivesWhatTheTwoPassParseGives) {
  for (bool back : {false, true}) {
    SCOPED_TRACE(back ? "a record back in time" : "records in order");
    const fs::path trace = WriteTrace(LongTrace(back), back ? "b.prv" : "l.prv");
    io::PrvReadOptions ro;
    ro.threads = 2;
    ro.chunk_bytes = 64 << 10;
    auto plain = io::ReadPrv(trace.string(), ro);
    ASSERT_TRUE(plain.ok());
    auto stamp = io::cache::StampOf(trace.string());
    ASSERT_TRUE(stamp.ok());
    Status written;
    io::cache::WriteOptions w;
    w.compact = true;
    auto one = io::cache::ParsePrvIntoCache(trace.string(), *stamp, trace.string() + ".pxc", ro, &written, w);
    ASSERT_TRUE(one.ok()) << one.status().ToString();
    EXPECT_TRUE(written.ok()) << written.ToString();
    EXPECT_EQ(one->segment_records, back ? 0u : plain->store.state_records() + plain->store.event_records());
    auto cached = ReadTheCache(trace);
    ASSERT_TRUE(cached.ok()) << cached.status().ToString();
    for (const io::PrvTrace* t : {&one.value(), &cached.value()}) {
      SCOPED_TRACE(t == &one.value() ? "parsed" : "reopened");
      ExpectSameAsPlain(*plain, *t, back);
    }
  }
}

// Without a cache, a compact load keeps the blocks in memory; it gives what the two-pass parse
// gives, and refuses a trace whose coded records exceed half the memory budget.
TEST_F(TraceCacheTest, AOnePassCompactLoadWithoutACacheGivesWhatTheTwoPassParseGives) {
  for (bool back : {false, true}) {
    SCOPED_TRACE(back ? "a record back in time" : "records in order");
    const fs::path trace = WriteTrace(LongTrace(back), back ? "b.prv" : "l.prv");
    io::PrvReadOptions ro;
    ro.threads = 2;
    ro.chunk_bytes = 64 << 10;
    auto plain = io::ReadPrv(trace.string(), ro);
    ASSERT_TRUE(plain.ok());
    auto compact = io::ReadPrvCompact(trace.string(), ro, 0);
    ASSERT_TRUE(compact.ok()) << compact.status().ToString();
    EXPECT_EQ(compact->segment_records, back ? 0u : plain->store.state_records() + plain->store.event_records());
    ExpectSameAsPlain(*plain, *compact, back);
    ro.memory_budget = 800 << 10;
    auto refused = io::ReadPrvCompact(trace.string(), ro, 0);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.status().message().find(back ? "its records need about" : "coded records need more than 400.0 KiB"),
              std::string::npos)
        << refused.status().ToString();
  }
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator{}), 2) << "no file written";
}

// A states-only load (LoadOptions::states_only) keeps the states, passes over the event and
// communication lines and says so in `info`, in plain and compact records; with the cache on it
// has no effect, since the cache holds every record.
TEST_F(TraceCacheTest, AStatesOnlyLoadKeepsTheStatesUnlessTheCacheIsOn) {
  const fs::path trace = WriteTrace(kTrace);
  auto open = [&](bool cache, bool compact) { return Open(trace, cache, "", compact, /*states_only=*/true); };
  auto passed_over = [](const TraceInfo& i) -> uint64_t {
    for (const auto& d : i.diagnostics)
      if (d.kind == "passed_over") return d.count;
    return 0;
  };
  auto has = [](const TraceInfo& i, const std::string& kind) {
    return std::any_of(i.diagnostics.begin(), i.diagnostics.end(),
                       [&](const DiagnosticInfo& d) { return d.kind == kind; });
  };
  const std::unique_ptr<session::TraceImpl> full = Open(trace, false);
  ASSERT_TRUE(full);
  for (bool compact : {false, true}) {
    SCOPED_TRACE(compact ? "compact" : "plain");
    auto t = open(false, compact);
    ASSERT_TRUE(t);
    const TraceInfo i = t->Info();
    EXPECT_EQ(i.states, 5u);
    EXPECT_EQ(i.events, 0u);
    EXPECT_EQ(i.event_pairs, 0u);
    EXPECT_EQ(i.comms, 0u);
    EXPECT_EQ(passed_over(i), 3u);  // two event lines, one communication
    EXPECT_TRUE(has(i, "unknown_record_type"));  // the bogus line is still reported
    EXPECT_EQ(i.trace_end, full->Info().trace_end);
    for (uint32_t th = 0; th < 2; ++th) {
      const auto pin = t->store().Pin(model::ThreadIndex(th));
      EXPECT_EQ(pin->states.begin, full->store().thread(model::ThreadIndex(th)).states.begin);
      EXPECT_EQ(pin->states.state, full->store().thread(model::ThreadIndex(th)).states.state);
    }
  }
  EXPECT_FALSE(fs::exists(trace.string() + ".pxc"));
  for (int round = 0; round < 2; ++round) {  // writes the cache, then reads it
    auto t = open(true, false);
    ASSERT_TRUE(t);
    const TraceInfo i = t->Info();
    EXPECT_EQ(i.event_pairs, 3u);
    EXPECT_EQ(i.comms, 1u);
    EXPECT_EQ(passed_over(i), 0u);
    EXPECT_TRUE(fs::exists(trace.string() + ".pxc"));
  }
  EXPECT_TRUE(notices_.empty());
}

// The one-pass parse meets a full disk while writing the blocks, or after them: the trace
// loads all the same, the failure is reported, and no file is left.
TEST_F(TraceCacheTest, AFullDiskWhileParsingIntoACompactCacheLeavesNothing) {
  const fs::path trace = WriteTrace(LongTrace(false));
  io::PrvReadOptions ro;
  ro.threads = 2;
  ro.chunk_bytes = 64 << 10;
  auto plain = io::ReadPrv(trace.string(), ro);
  ASSERT_TRUE(plain.ok());
  auto stamp = io::cache::StampOf(trace.string());
  ASSERT_TRUE(stamp.ok());
  const fs::path cache = dir_ / "c.pxc";
  io::cache::WriteOptions w;
  w.compact = true;
  Status written;
  ASSERT_TRUE(io::cache::ParsePrvIntoCache(trace.string(), *stamp, cache.string(), ro, &written, w).ok());
  ASSERT_TRUE(written.ok());
  const uint64_t payload = fs::file_size(cache) - 56;
  fs::remove(cache);
  fs::remove(io::cache::SealPathFor(cache.string()));
  for (uint64_t fail_after : {uint64_t{10}, payload / 3, payload - 100}) {
    SCOPED_TRACE(fail_after);
    w.fail_after_bytes = fail_after;
    auto t = io::cache::ParsePrvIntoCache(trace.string(), *stamp, cache.string(), ro, &written, w);
    ASSERT_TRUE(t.ok()) << t.status().ToString();
    EXPECT_FALSE(written.ok());
    EXPECT_NE(written.message().find("No space left on device"), std::string::npos) << written.ToString();
    EXPECT_EQ(StoreText(t->store), StoreText(plain->store));
    EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator{}), 1) << "only t.prv";
  }
}

// A trace whose cache of plain columns would take more than half the memory budget is cached
// with compact records even when they were not asked for.
TEST_F(TraceCacheTest, ATraceTooLargeForAPlainCacheIsCachedCompact) {
  const fs::path trace = WriteTrace(LongTrace(false));
  const uint64_t text = fs::file_size(trace);
  for (uint64_t limit : {uint64_t{0}, text * 2}) {
    SCOPED_TRACE(limit);
    fs::remove(trace.string() + ".pxc");
    LoadOptions o;
    o.threads = 2;
    o.use_cache = true;
    o.cache_dir = kCacheBeside;
    o.memory_limit = limit;
    o.notice = [this](const std::string& n) { notices_.push_back(n); };
    auto t = session::OpenTrace(trace.string(), o);
    ASSERT_TRUE(t.ok()) << t.status().ToString();
    EXPECT_EQ(t.value()->store().compact(), limit != 0);
    auto info = InspectCache(trace.string(), kCacheBeside);
    ASSERT_TRUE(info.ok());
    EXPECT_EQ(info->compact, limit != 0);
  }
  EXPECT_TRUE(notices_.empty());
}

TEST_F(TraceCacheTest, DecoderRejectsEveryTruncation) {
  for (bool compact : {false, true}) {
    SCOPED_TRACE(compact ? "compact records" : "plain columns");
    fs::path trace = WriteTrace(kTrace, compact ? "c.prv" : "t.prv");
    Open(trace, true, "", compact);
    std::string bytes = Slurp(trace.string() + ".pxc");
    io::cache::DecodeOptions d;
    d.verify_checksum = false;
    auto whole = io::cache::DecodeCache(bytes, "c", d);
    ASSERT_TRUE(whole.ok());
    EXPECT_EQ(whole->store.compact(), compact);
    for (size_t n = 0; n < bytes.size(); ++n)
      EXPECT_FALSE(io::cache::DecodeCache(std::string_view(bytes).substr(0, n), "c", d).ok()) << n;
  }
}

}  // namespace
}  // namespace parallax

namespace parallax {
namespace {

// The fuzz seeds (caches of a 3-state, 3-event, 1-communication trace with one bad line, with
// plain and with compact records) decode with their checksum verified.
TEST(TraceCacheCorpus, SeedDecodes) {
  for (const char* name : {"small.pxc", "small_compact.pxc"}) {
  SCOPED_TRACE(name);
  std::filesystem::path seed =
      std::filesystem::path(PARALLAX_TEST_DATA).parent_path() / "fuzz/corpus/cache" / name;
  std::ifstream in(seed, std::ios::binary);
  std::string bytes{std::istreambuf_iterator<char>(in), {}};
  auto t = io::cache::DecodeCache(bytes, seed.string(), io::cache::DecodeOptions{});
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->store.compact(), std::string(name) == "small_compact.pxc");
  EXPECT_EQ(t->store.state_records(), 3u);
  EXPECT_EQ(t->store.event_records(), 3u);
  EXPECT_EQ(t->store.comms().rows(), 1u);
  EXPECT_EQ(t->diagnostics.count(io::DiagKind::kSyntax) + t->diagnostics.count(io::DiagKind::kUnknownRecordType), 1u);
  }
}

}  // namespace
}  // namespace parallax
