// Click-back: GET /api/source and the parsing of caller line labels behind it. The served root
// (see server_fixture.h) gets a small C file, a second file of the same name in another folder,
// a binary file, an oversized file, and a source file outside the root reached by a symlink.

#include <fstream>

#include "apps/server/source_files.h"
#include "tests/unit/server/server_fixture.h"

namespace parallax::server {
namespace {

class ServerSourceTest : public ServerFixture {
 protected:
  static void SetUpTestSuite() {
    StartServer("source");
    fs::path root = Root();
    fs::create_directories(root / "src/app");
    fs::create_directories(root / "src/lib");
    std::ofstream c(root / "src/app/main.c");
    for (int i = 1; i <= 50; ++i) c << "line " << i << "\n";
    c.close();
    std::ofstream(root / "src/app/util.h") << "int a;\r\nint b;\r\n";
    std::ofstream(root / "src/lib/util.h") << "int c;\n";
    std::ofstream(root / "src/blob.bin") << std::string("ab\0cd\n", 6);
    std::ofstream big(root / "src/big.c");
    std::string chunk(1 << 20, 'x');
    for (uint64_t i = 0; i <= (kMaxSourceBytes >> 20); ++i) big << chunk;
    big.close();
    std::ofstream(base_ / "outside/secret.c") << "secret\n";
    fs::create_symlink(base_ / "outside/secret.c", root / "src/secret.c");
    // Two threads of caller line events: values 1, 2 at line 4 of main.c (one label names it
    // by a longer path), 3 at line 7; value 4 at line 4 of another file.
    std::ofstream(root / "calls.prv") << "#Paraver (01/01/2024 at 10:00):100_ns:1(2):1:2(1:1,1:1)\n"
                                         "2:1:1:1:1:10:80000001:1\n2:1:1:1:1:20:80000001:3\n"
                                         "2:1:1:1:1:30:80000001:2\n2:2:1:2:1:40:80000001:1\n"
                                         "2:2:1:2:1:50:80000001:4\n2:2:1:2:1:60:80000002:1\n";
    std::ofstream(root / "calls.pcf") << "EVENT_TYPE\n0 80000001 Caller line\nVALUES\n1 4 (main.c, app)\n"
                                         "2 4 (main.c)\n3 7 (main.c, app)\n4 4 (util.c, app)\n\n"
                                         "EVENT_TYPE\n0 80000002 Caller line 2\nVALUES\n1 4 (main.c, app)\n\n";
  }
  static void TearDownTestSuite() { StopServer(); }
};

TEST(SourceLabelTest, ParsesTheTracingLibraryAndExtraeForms) {
  auto a = ParseSourceLabel("42 (mpi_example.c, mpi_example)");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->file, "mpi_example.c");
  EXPECT_EQ(a->line, 42u);
  auto b = ParseSourceLabel("  7 (src/app/main.c)  ");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->file, "src/app/main.c");
  EXPECT_EQ(b->line, 7u);
  auto c = ParseSourceLabel("12 (/home/u/x.c, a.out)");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->file, "/home/u/x.c");
}

TEST(SourceLabelTest, RefusesOtherLabels) {
  for (const char* bad : {"", "Unresolved", "_NOT_Found", "0 (x.c)", "42", "42 x.c", "42 ()",
                          "42 (x.c", "x (x.c)", "-3 (x.c)", "99999999999999999999 (x.c)",
                          "42 (, mod)", "42 (a.c)b.c)", "MPI_Send"})
    EXPECT_FALSE(ParseSourceLabel(bad)) << bad;
}

TEST_F(ServerSourceTest, ReturnsLinesAroundALine) {
  json j = Ok(Get("/api/source?path=src/app/main.c&line=10&context=3"));
  EXPECT_EQ(j["path"], "src/app/main.c");
  EXPECT_EQ(j["line"], 10);
  EXPECT_EQ(j["first"], 7);
  EXPECT_EQ(j["total"], 50);
  EXPECT_EQ(j["lines"], json({"line 7", "line 8", "line 9", "line 10", "line 11", "line 12", "line 13"}));
  // Clipped at both ends of the file; an absolute path inside the root; CRs dropped.
  j = Ok(Get("/api/source?path=" + (Root() / "src/app/main.c").string() + "&line=49&context=5"));
  EXPECT_EQ(j["first"], 44);
  EXPECT_EQ(j["lines"].size(), 7u);
  EXPECT_EQ(j["lines"].back(), "line 50");
  j = Ok(Get("/api/source?path=src/app/util.h&line=1&context=0"));
  EXPECT_EQ(j["lines"], json({"int a;"}));
  // The context is capped.
  j = Ok(Get("/api/source?path=src/app/main.c&line=1&context=99999999"));
  EXPECT_EQ(j["lines"].size(), 50u);
}

TEST_F(ServerSourceTest, FindsTheFileOfALabel) {
  // By basename under the root.
  json j = Ok(Get("/api/source?label=12%20(main.c%2C%20app)&context=1"));
  EXPECT_EQ(j["path"], "src/app/main.c");
  EXPECT_EQ(j["lines"], json({"line 11", "line 12", "line 13"}));
  // An absolute path of the machine that traced: its trailing folders pick the right file.
  j = Ok(Get("/api/source?label=2%20(%2Fbuild%2Fproj%2Fapp%2Futil.h)&context=0"));
  EXPECT_EQ(j["path"], "src/app/util.h");
  EXPECT_EQ(j["lines"], json({"int b;"}));
  // The exact relative path.
  j = Ok(Get("/api/source?label=1%20(src%2Flib%2Futil.h)&context=0"));
  EXPECT_EQ(j["path"], "src/lib/util.h");
  // Two files of that name and nothing to choose between them.
  ExpectError("/api/source?label=1%20(util.h)", 409);
  ExpectError("/api/source?label=1%20(nothere.c)", 404);
  ExpectError("/api/source?label=Unresolved", 400);
  // A label cannot lead out of the root: the symlinked file is not a candidate.
  ExpectError("/api/source?label=1%20(secret.c)", 404);
  ExpectError("/api/source?label=1%20(..%2F..%2Foutside%2Fsecret.c)", 404);
}

TEST_F(ServerSourceTest, RefusesBadRequests) {
  ExpectError("/api/source", 400);
  ExpectError("/api/source?path=src/app/main.c", 400);                // no line
  ExpectError("/api/source?path=src/app/main.c&line=abc", 400);
  ExpectError("/api/source?path=src/app/main.c&line=-1", 400);
  ExpectError("/api/source?path=src/app/main.c&line=0", 400);
  ExpectError("/api/source?path=src/app/main.c&line=51", 400);        // past the end
  ExpectError("/api/source?path=src/app/main.c&line=1&context=x", 400);
  ExpectError("/api/source?path=src/app&line=1", 400);                // a directory
  ExpectError("/api/source?path=src/blob.bin&line=1", 400);           // binary
  ExpectError("/api/source?path=src/big.c&line=1", 413);              // too large
  ExpectError("/api/source?path=src/missing.c&line=1", 404);
  ExpectError("/api/source?path=../outside/secret.c&line=1", 403);    // traversal
  ExpectError("/api/source?path=src/../../outside/secret.c&line=1", 403);
  ExpectError("/api/source?path=src/secret.c&line=1", 403);           // symlink out of the root
  ExpectError("/api/source?path=" + (base_ / "outside/secret.c").string() + "&line=1", 403);
  ExpectError("/api/source?path=/etc/passwd&line=1", 403);
  json e = ExpectErrorResponse(Get("/api/source?path=src/app/main.c&line=51"), 400, "past end");
  EXPECT_NE(e["error"].get<std::string>().find("50 lines"), std::string::npos) << e;
}

json Events(const json& more = json::object()) {
  json j = {{"trace", "calls.prv"}, {"function", "State As Is"}, {"object_first", 0}, {"object_last", 1},
            {"type", 80000001}, {"label", "4 (main.c)"}};
  j.update(more);
  return j;
}

TEST_F(ServerSourceTest, FindsTheEventsOfASourceLine) {
  json j = Ok(Post("/api/source/events", Events()));
  EXPECT_EQ(j["count"], 3);
  EXPECT_EQ(j["truncated"], false);
  EXPECT_EQ(j["marks"], json::parse(R"([{"time":10,"object_index":0},{"time":30,"object_index":0},
                                        {"time":40,"object_index":1}])"));
  j = Ok(Post("/api/source/events", Events({{"label", "7 (main.c, app)"}})));
  EXPECT_EQ(j["marks"], json::parse(R"([{"time":20,"object_index":0}])"));
  // The range, the objects and the type narrow it.
  EXPECT_EQ(Ok(Post("/api/source/events", Events({{"from", 15}, {"to", 40}})))["count"], 1);
  EXPECT_EQ(Ok(Post("/api/source/events", Events({{"object_first", 1}})))["count"], 1);
  EXPECT_EQ(Ok(Post("/api/source/events", Events({{"type", 80000002}})))["count"], 1);
  EXPECT_EQ(Ok(Post("/api/source/events", Events({{"label", "5 (main.c)"}})))["count"], 0);
  ExpectErrorResponse(Post("/api/source/events", Events({{"label", "main.c"}})), 400, "not a location");
  ExpectErrorResponse(Post("/api/source/events", Events({{"type", nullptr}})), 400, "no type");
  ExpectErrorResponse(Post("/api/source/events", Events({{"object_first", 2}, {"object_last", 1}})), 400, "objects");
  ExpectErrorResponse(Post("/api/source/events", Events({{"from", 50}, {"to", 40}})), 400, "range");
}

TEST_F(ServerSourceTest, GivesUpABoundedSearch) {
  RootDir root;
  std::string error;
  ASSERT_TRUE(RootDir::Open(Root().string(), &root, &error)) << error;
  PathError e;
  FindSourceFile(root, "nothere.c", &e, 3);
  EXPECT_EQ(e.status, 413) << e.message;
  std::string found = FindSourceFile(root, "main.c", &e);
  EXPECT_EQ(e.status, 0) << e.message;
  EXPECT_EQ(root.Relative(found), "src/app/main.c");
}

}  // namespace
}  // namespace parallax::server
