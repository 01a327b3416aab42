// A trace cache truncated in place while a trace is open on it (rsync --inplace or cp onto the
// .pxc, another program rebuilding it): the store's columns view the mapped cache, and the first
// read past the new end raised SIGBUS and killed the process (a server with it). Now every call
// on the trace fails saying that it changed, and Trace::Changed tells a front end to open it
// again.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "include/parallax/render.h"
#include "include/parallax/trace.h"
#include "tests/unit/scratch_folder.h"

namespace parallax {
namespace {

void ExpectChanged(const Status& s, const std::string& trace) {
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.where().file, trace);
  EXPECT_NE(s.message().find("the trace changed while in use"), std::string::npos) << s.ToString();
  EXPECT_NE(s.hint().find("open the trace again"), std::string::npos) << s.ToString();
}

void TruncateTheCacheWhileOpen(bool compact) {
  test::ScratchFolder dir;
  const std::string trace = dir.path() + "/qsort.prv";
  std::filesystem::copy_file(std::string(PARALLAX_TEST_DATA) + "/qsort_beo3/qsort_beo3.prv", trace);
  LoadOptions o;
  o.use_cache = true;
  o.cache_dir = dir.path() + "/cache";
  o.compact = compact;
  o.compact_resident = 0;  // every read decodes from the mapped cache again
  o.notice = [](const std::string&) {};
  ASSERT_TRUE(Trace::Open(trace, o).ok());  // writes the cache
  auto t = Trace::Open(trace, o);           // maps it
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  const TraceInfo info = t.value()->Info();  // reads every thread
  ASSERT_EQ(info.cache_use, "read");
  TextRequest text;
  text.object = "THREAD 1.1.1";
  ASSERT_TRUE(t.value()->Text(text).ok());
  EXPECT_FALSE(t.value()->Changed());

  ASSERT_EQ(::truncate(info.cache_path.c_str(), 0), 0);
  // A thread not read last (a compact store may still hold the one it decoded last: a result
  // from it is right, it does not come from the file).
  text.object = "THREAD 1.2.1";
  ExpectChanged(t.value()->Text(text).status(), trace);
  EXPECT_TRUE(t.value()->Changed());
  TimelineRequest timeline;
  ExpectChanged(RenderTimeline(*t.value(), timeline).status(), trace);
  // Opened again, the trace is parsed and its cache rebuilt.
  auto again = Trace::Open(trace, o);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_TRUE(again.value()->Text(text).ok());
  EXPECT_FALSE(again.value()->Changed());
}

// The first open parses the trace straight into its new cache and keeps viewing it. (Not a .gz:
// its records may come out of order across segments, and are then coded in memory, which a cut
// cache does not touch.)
void TruncateTheNewCache(const std::string& name, bool compact) {
  test::ScratchFolder dir;
  const std::string trace = dir.path() + "/" + name.substr(name.rfind('/') + 1);
  std::filesystem::copy_file(std::string(PARALLAX_TEST_DATA) + "/" + name, trace);
  LoadOptions o;
  o.use_cache = true;
  o.cache_dir = dir.path() + "/cache";
  o.compact = compact;
  o.compact_resident = 0;
  o.notice = [](const std::string&) {};
  auto t = Trace::Open(trace, o);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  const TraceInfo info = t.value()->Info();
  ASSERT_EQ(info.cache_use, "written");
  TextRequest text;
  text.object = "THREAD 1.1.1";
  ASSERT_TRUE(t.value()->Text(text).ok());
  ASSERT_EQ(::truncate(info.cache_path.c_str(), 0), 0);
  text.object = "THREAD 1.2.1";  // not read last
  ExpectChanged(t.value()->Text(text).status(), trace);
}

TEST(ChangedTrace, ANewCacheTruncatedIsReported) {
  TruncateTheNewCache("qsort_beo3/qsort_beo3.prv", false);
}
TEST(ChangedTrace, ANewCompactCacheTruncatedIsReported) {
  TruncateTheNewCache("qsort_beo3/qsort_beo3.prv", true);
}

TEST(ChangedTrace, ATruncatedCacheIsReportedNotACrash) { TruncateTheCacheWhileOpen(false); }
TEST(ChangedTrace, ATruncatedCompactCacheIsReportedNotACrash) { TruncateTheCacheWhileOpen(true); }

}  // namespace
}  // namespace parallax
