// The server opens traces as the commands do (ServerOptions::load): with the trace cache on, its
// first load writes the cache (here with compact records, and no decoded thread kept after its
// reader), and timelines and analyses are served from the compact store. That they equal the
// plain store's is the golden scripts' part (golden_compact.*).

#include "tests/unit/server/server_fixture.h"

namespace parallax::server {
namespace {

class ServerTraceCacheTest : public ServerFixture {
 protected:
  static fs::path CacheDir() { return fs::temp_directory_path() / ("parallax_server_cache_dir_" + std::to_string(getpid())); }
  static void SetUpTestSuite() {
    fs::remove_all(CacheDir());
    StartServer("trace_cache", [](ServerOptions& o) {
      o.load.use_cache = true;
      o.load.cache_dir = CacheDir().string();
      o.load.compact = true;
      o.load.compact_resident = 0;  // every read decodes its thread again
    });
  }
  static void TearDownTestSuite() {
    StopServer();
    fs::remove_all(CacheDir());
  }
};

TEST_F(ServerTraceCacheTest, TheFirstLoadWritesACompactCacheAndServesTheSame) {
  const std::string trace = std::string("trace=") + kTrace;
  json info = Json(Get(std::string("/api/open?path=") + kTrace));
  size_t caches = 0;
  for (const auto& e : fs::directory_iterator(CacheDir()))
    if (e.path().extension() == ".pxc") ++caches;
  EXPECT_EQ(caches, 1u);
  // Compact records: a few bytes per record instead of 22, counted though they are mapped.
  EXPECT_LT(info["store_bytes"].get<double>() / info["records"].get<double>(), 8.0);
  EXPECT_GT(info["store_bytes"].get<double>() / info["records"].get<double>(), 1.0);

  auto plain = Trace::Open((Root() / kTrace).string(), LoadOptions{});
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  EXPECT_EQ(info["records"].get<uint64_t>(), plain.value()->Info().records);
  auto timeline = Get("/api/timeline?" + trace + "&cfg=" + kViewCfg + "&width=300&format=json");
  ASSERT_TRUE(timeline);
  EXPECT_EQ(timeline->status, 200) << timeline->body;
  auto analysis = Get("/api/analyze?" + trace + "&cfg=" + kAnalysisCfg);
  ASSERT_TRUE(analysis);
  EXPECT_EQ(analysis->status, 200) << analysis->body;
}

// The cache truncated in place while the server has the trace open (rsync --inplace of the
// cache folder, another program rebuilding it): the first read past its new end raised SIGBUS
// and killed the server. The request now fails saying that the trace changed, and the next one
// is served from the trace opened again.
TEST_F(ServerTraceCacheTest, ACacheTruncatedWhileOpenIsReportedAndTheTraceOpenedAgain) {
  // A plain .prv: its records are coded straight into the cache, and read from there.
  fs::copy_file(fs::path(PARALLAX_TEST_DATA) / "qsort_beo3/qsort_beo3.prv", Root() / "traces/cut.prv");
  const std::string text = "/api/text?trace=traces/cut.prv&function=State%20As%20Is&object=THREAD%201.1.1";
  ASSERT_EQ(Get("/api/open?path=traces/cut.prv")->status, 200);
  ASSERT_EQ(Get(text)->status, 200);
  size_t cut = 0;
  for (const auto& e : fs::directory_iterator(CacheDir()))
    if (e.path().extension() == ".pxc" && e.path().filename().string().rfind("cut.prv-", 0) == 0)
      fs::resize_file(e.path(), 0), ++cut;
  ASSERT_EQ(cut, 1u);
  // A thread not read yet: the compact store decodes it from the cut file.
  const std::string other = "/api/text?trace=traces/cut.prv&function=State%20As%20Is&object=THREAD%201.4.1";
  json changed = ExpectErrorResponse(Get(other), 422, "the text view of a trace whose cache was cut");
  EXPECT_NE(changed.value("error", "").find("the trace changed while in use"), std::string::npos) << changed;
  auto again = Get(other);
  EXPECT_EQ(again->status, 200) << again->body;
}

}  // namespace
}  // namespace parallax::server
