// The cfg routes of `parallax serve` (cfg listings, reading, editing and saving a cfg) and the
// POST variants of timeline, text and analyze with JSON bodies.

#include <cmath>
#include <fstream>
#include <sstream>

#include "apps/server/json_convert.h"
#include "tests/unit/server/server_fixture.h"

namespace parallax::server {
namespace {

class ServerCfgTest : public ServerFixture {
 protected:
  static void SetUpTestSuite() {
    StartServer("cfg");
    fs::create_directories(Root() / "saved");
    fs::create_directories(Root() / "bad");
    std::ofstream(Root() / "bad/broken.cfg") << "this is not a cfg\n";
    std::ofstream(Root() / "bad/huge.cfg") << "#ParaverCFG\n" << std::string(1 << 20, '#') << "\n";
  }
  static void TearDownTestSuite() { StopServer(); }

  static std::string ReadFile(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  static json CfgOf(const std::string& path) {
    return Ok(Get(std::string("/api/cfg?trace=") + kTrace + "&path=" + path));
  }
};

TEST_F(ServerCfgTest, ListingsSummariseCfgs) {
  json cfgs = Ok(Get("/api/files?dir=cfgs"))["entries"];
  ASSERT_EQ(cfgs.size(), 2u) << cfgs;
  const json& view = cfgs[1];
  EXPECT_EQ(view["path"], kViewCfg);
  EXPECT_EQ(view["description"], "User functions excluding (value set to 0) when the process calls MPI") << view;
  EXPECT_EQ(view["windows"], json::array({"User function", "Outside MPI", "User function outside MPI"}));
  EXPECT_TRUE(view["histograms"].empty());
  EXPECT_FALSE(view.contains("error"));
  EXPECT_FALSE(cfgs[0]["histograms"].empty()) << cfgs[0];
  // Unreadable cfgs are listed with the reason; a .cfg that is no Paraver cfg at all (another
  // program's: broken.cfg here, Score-P's scorep.cfg in life) is not listed.
  json bad = Ok(Get("/api/files?dir=bad"))["entries"];
  ASSERT_EQ(bad.size(), 1u) << bad;
  EXPECT_EQ(bad[0]["name"], "huge.cfg");
  EXPECT_TRUE(bad[0]["error"].is_string()) << bad[0];
  EXPECT_FALSE(bad[0].contains("windows")) << bad[0];
}

TEST_F(ServerCfgTest, ReadsACfgAsTextAndDocument) {
  json j = CfgOf(kViewCfg);
  EXPECT_EQ(j["path"], kViewCfg);
  EXPECT_EQ(j["text"], ReadFile(Root() / kViewCfg));
  const json& doc = j["document"];
  ASSERT_EQ(doc["windows"].size(), 3u) << doc;
  const json& w0 = doc["windows"][0];
  EXPECT_EQ(w0["name"], "User function");
  EXPECT_EQ(w0["level"], "task");
  EXPECT_FALSE(w0["functions"].empty());
  for (const char* k : {"slot", "name", "params"}) EXPECT_TRUE(w0["functions"][0].contains(k)) << k;
  for (const char* k : {"logical", "physical", "from_to_and", "tag_size_and", "type_value_and", "from", "to", "tag",
                        "size", "bandwidth", "event_type", "event_value"})
    EXPECT_TRUE(w0["filter"].contains(k)) << k;
  EXPECT_EQ(w0["filter"]["event_type"]["op"], "=");
  EXPECT_EQ(w0["filter"]["event_type"]["values"], json::array({60000019}));
  for (const char* k : {"derived", "parent0", "parent1", "factor0", "factor1", "color_mode", "draw_mode",
                        "object_draw_mode", "flags", "comm_lines", "min_y", "max_y", "pixel_size", "open"})
    EXPECT_TRUE(w0.contains(k)) << k;
  const json& derived = doc["windows"][2];
  EXPECT_TRUE(derived["derived"].get<bool>());
  EXPECT_EQ(derived["parent0"], 0);
  EXPECT_EQ(derived["parent1"], 1);
  EXPECT_TRUE(doc["histograms"].empty());
  EXPECT_TRUE(doc["notices"].is_array());
  EXPECT_TRUE(doc["description"].is_array());

  json analysis = CfgOf(kAnalysisCfg)["document"];
  ASSERT_FALSE(analysis["histograms"].empty());
  for (const char* k : {"name", "statistic", "statistics", "control", "data", "extra", "communications",
                        "hide_empty_columns", "horizontal"})
    EXPECT_TRUE(analysis["histograms"][0].contains(k)) << k;

  ExpectError(std::string("/api/cfg?path=") + kViewCfg, 400);                            // no trace
  ExpectError(std::string("/api/cfg?trace=") + kTrace, 400);                             // no path
  ExpectError(std::string("/api/cfg?trace=") + kTrace + "&path=traces/omp2.pcf", 400);  // not a cfg
  ExpectError(std::string("/api/cfg?trace=") + kTrace + "&path=../outside/x.cfg", 403);
  ExpectError(std::string("/api/cfg?trace=") + kTrace + "&path=cfgs/missing.cfg", 404);
  ExpectError(std::string("/api/cfg?trace=") + kTrace + "&path=bad/huge.cfg", 413);
  ExpectError(std::string("/api/cfg?trace=") + kTrace + "&path=bad/broken.cfg", 422);
}

TEST_F(ServerCfgTest, FunctionCfg) {
  json j = Ok(Post("/api/cfg/function", json{{"trace", kTrace}, {"function", "State As Is"}}));
  EXPECT_FALSE(j["text"].get<std::string>().empty());
  ASSERT_EQ(j["document"]["windows"].size(), 1u) << j;
  bool found = false;
  for (const auto& f : j["document"]["windows"][0]["functions"]) found = found || f["name"] == "State As Is";
  EXPECT_TRUE(found) << j["document"];
  json with_param = Ok(Post("/api/cfg/function",
                            json{{"trace", kTrace}, {"function", "Given State"}, {"params", {1, 2}}}));
  EXPECT_EQ(with_param["document"]["windows"].size(), 1u);
  ExpectPostError("/api/cfg/function", {{"trace", kTrace}, {"function", "No Such Function"}}, 422);
  ExpectPostError("/api/cfg/function", {{"trace", kTrace}}, 400);
  ExpectPostError("/api/cfg/function", {{"trace", kTrace}, {"function", "State As Is"}, {"params", json::array({"a"})}}, 400);
  ExpectPostError("/api/cfg/function", {{"trace", kTrace}, {"function", "State As Is"}, {"params", 1}}, 400);
}

TEST_F(ServerCfgTest, PostedCfgTextDrawsLikeTheCfgFile) {
  std::string text = ReadFile(Root() / kViewCfg);
  for (const char* format : {"json", "png"}) {
    auto get = Get(std::string("/api/timeline?trace=") + kTrace + "&cfg=" + kViewCfg + "&width=400&format=" + format);
    ASSERT_EQ(get->status, 200) << get->body;
    auto post = Post("/api/timeline", json{{"trace", kTrace}, {"cfg_text", text}, {"width", 400}, {"format", format}});
    ASSERT_EQ(post->status, 200) << post->body;
    EXPECT_EQ(post->body, get->body) << format;
    EXPECT_EQ(post->get_header_value("X-Parallax-Windows"), get->get_header_value("X-Parallax-Windows"));
    EXPECT_EQ(post->get_header_value("Content-Type"), get->get_header_value("Content-Type"));
  }
  // Every GET parameter has its JSON twin.
  std::string q = std::string("/api/timeline?trace=") + kTrace +
                  "&function=State%20As%20Is&width=300&height=120&format=json&from=1000&to=90000000&flags=1&comms=0"
                  "&min=0&max=20&labels=off&legend=no&pixel_size=2&draw_mode=maximum";
  auto get = Get(q);
  ASSERT_EQ(get->status, 200) << get->body;
  json body = {{"trace", kTrace}, {"function", "State As Is"}, {"width", 300},     {"height", 120},
               {"format", "json"}, {"from", 1000},                {"to", 90000000}, {"flags", true},
               {"comms", false},  {"min", 0},                     {"max", 20},      {"labels", false},
               {"legend", false}, {"pixel_size", 2},              {"draw_mode", "maximum"}};
  auto post = Post("/api/timeline", body);
  ASSERT_EQ(post->status, 200) << post->body;
  EXPECT_EQ(post->body, get->body);
  // Highlighting a value range changes what is drawn.
  body["highlight_min"] = 1;
  body["highlight_max"] = 2;
  auto highlighted = Post("/api/timeline", body);
  ASSERT_EQ(highlighted->status, 200) << highlighted->body;
  EXPECT_NE(highlighted->body, get->body);
}

// The UI's frames: the PNG as base64 plus the layout of the JSON draw list, in one answer.
TEST_F(ServerCfgTest, FrameIsThePngWithItsLayout) {
  std::string q = std::string("/api/timeline?trace=") + kTrace + "&function=State%20As%20Is&width=400&from=0&to=90000000";
  auto png = Get(q + "&format=png");
  auto list = Get(q + "&format=json");
  json frame = Ok(Get(q + "&format=frame"));
  ASSERT_EQ(png->status, 200);
  ASSERT_EQ(list->status, 200);
  EXPECT_EQ(frame["window"], "State As Is");
  // Decode the base64 by hand: it must give the PNG bytes of format=png.
  const std::string b64 = frame["png"];
  ASSERT_EQ(b64.size() % 4, 0u);
  std::string bytes;
  uint32_t acc = 0;
  int bits = 0;
  for (char c : b64) {
    if (c == '=') break;
    const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t v = alphabet.find(c);
    ASSERT_NE(v, std::string::npos) << c;
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes += static_cast<char>((acc >> bits) & 0xff);
    }
  }
  EXPECT_EQ(bytes, png->body);
  // The layout is the draw list without its shapes; rows carry their 0-based object.
  json l = Json(list);
  for (const char* k : {"width", "height", "background", "area", "rows"}) EXPECT_EQ(frame["layout"][k], l[k]) << k;
  EXPECT_FALSE(frame["layout"].contains("rects"));
  const json& rows = frame["layout"]["rows"];
  ASSERT_EQ(rows.size(), 2u) << rows;
  EXPECT_EQ(rows[0][3], 0);
  EXPECT_EQ(rows[1][3], 1);
  ExpectError(q + "&format=gif", 400);
}

// A row's object, as the layout gives it, selects the object of the textual view.
TEST_F(ServerCfgTest, TextOfARowObject) {
  json by_name = Ok(Post("/api/text", json{{"trace", kTrace}, {"function", "State As Is"}, {"object", "THREAD 1.1.2"},
                                           {"from", 0}, {"to", 50000000}}));
  json by_index = Ok(Post("/api/text", json{{"trace", kTrace}, {"function", "State As Is"}, {"object_index", 1},
                                            {"from", 0}, {"to", 50000000}}));
  EXPECT_EQ(by_index["object"], "THREAD 1.1.2");
  EXPECT_EQ(by_index["intervals"], by_name["intervals"]);
  EXPECT_EQ(by_index["events"], by_name["events"]);
  ExpectPostError("/api/text", {{"trace", kTrace}, {"function", "State As Is"}, {"object_index", 2}}, 422);
}

TEST_F(ServerCfgTest, PostedTextAndAnalyze) {
  auto get = Get(std::string("/api/text?trace=") + kTrace + "&cfg=" + kViewCfg + "&object=TASK%201.1&from=0&to=50000000");
  ASSERT_EQ(get->status, 200) << get->body;
  auto post = Post("/api/text", json{{"trace", kTrace}, {"cfg_text", ReadFile(Root() / kViewCfg)}, {"object", "TASK 1.1"},
                                     {"from", 0}, {"to", 50000000}});
  ASSERT_EQ(post->status, 200) << post->body;
  json g = Json(get), p = Json(post);
  EXPECT_FALSE(g["intervals"].empty());
  EXPECT_EQ(p["intervals"], g["intervals"]);
  EXPECT_EQ(p["window"], g["window"]);
  json fn = Ok(Post("/api/text", json{{"trace", kTrace}, {"function", "State As Is"}, {"object", "THREAD 1.1.1"},
                                      {"from", 0}, {"to", 100000000}}));
  EXPECT_EQ(fn["to"], 100000000);

  json tables = Ok(Post("/api/analyze", json{{"trace", kTrace}, {"cfg_text", ReadFile(Root() / kAnalysisCfg)}}))["tables"];
  json from_file = Ok(Get(std::string("/api/analyze?trace=") + kTrace + "&cfg=" + kAnalysisCfg))["tables"];
  EXPECT_EQ(tables, from_file);
  ASSERT_FALSE(tables.empty());
  const json& t = tables[0];
  for (const char* k : {"control_window", "data_window", "extra_window"}) EXPECT_TRUE(t[k].is_number_integer()) << k;
  EXPECT_GE(t["control_window"].get<int>(), 0);
  const json& plane = t["planes"][0];
  EXPECT_EQ(plane["row_objects"].size(), plane["rows"].size());
  ASSERT_EQ(plane["column_ranges"].size(), plane["columns"].size());
  for (const auto& range : plane["column_ranges"]) {
    ASSERT_EQ(range.size(), 2u);
    EXPECT_TRUE(range[0].is_number() || range[0].is_null());
  }
  ExpectPostError("/api/analyze", {{"trace", kTrace}, {"function", "State As Is"}}, 400);  // needs a cfg
  ExpectPostError("/api/analyze", {{"trace", kTrace}, {"cfg", kAnalysisCfg}, {"all", "yes"}}, 400);
}

TEST_F(ServerCfgTest, EditRoundTripChangesTheFunction) {
  json start = Ok(Post("/api/cfg/function", json{{"trace", kTrace}, {"function", "State As Is"}}));
  json doc = start["document"];
  auto thread_function = [](json& d) -> json& {
    for (auto& f : d["windows"][0]["functions"])
      if (f["slot"] == "thread") return f;
    ADD_FAILURE() << "no thread slot in " << d;
    return d;
  };
  thread_function(doc)["name"] = "Useful";
  thread_function(doc)["params"] = json::array();
  json edited = Ok(Post("/api/cfg/edit", json{{"trace", kTrace}, {"text", start["text"]}, {"name", "mine.cfg"}, {"document", doc}}));
  ASSERT_TRUE(edited["text"].is_string()) << edited;
  EXPECT_NE(edited["text"], start["text"]);
  bool useful = false;
  for (const auto& f : edited["document"]["windows"][0]["functions"])
    useful = useful || (f["slot"] == "thread" && f["name"] == "Useful");
  EXPECT_TRUE(useful) << edited["document"];

  auto draw = [](const json& text) {
    auto r = Post("/api/timeline", json{{"trace", kTrace}, {"cfg_text", text}, {"format", "json"}, {"width", 300}});
    EXPECT_EQ(r->status, 200) << r->body;
    return r->body;
  };
  EXPECT_NE(draw(start["text"]), draw(edited["text"]));

  // Strict types, with the field's path in the message.
  json bad = doc;
  bad["windows"][0]["name"] = 5;
  json e = ExpectPostError("/api/cfg/edit", {{"trace", kTrace}, {"text", start["text"]}, {"document", bad}}, 400);
  EXPECT_NE(e["error"].get<std::string>().find("document.windows[0].name"), std::string::npos) << e;
  bad = doc;
  bad["windows"][0]["filter"]["from"]["values"] = json::array({"x"});
  e = ExpectPostError("/api/cfg/edit", {{"trace", kTrace}, {"text", start["text"]}, {"document", bad}}, 400);
  EXPECT_NE(e["error"].get<std::string>().find("document.windows[0].filter.from.values[0]"), std::string::npos) << e;
  bad = doc;
  bad["windows"][0]["pixel_size"] = -1;
  ExpectPostError("/api/cfg/edit", {{"trace", kTrace}, {"text", start["text"]}, {"document", bad}}, 400);
  bad = doc;
  bad["windows"][0]["colour_mode"] = "code";  // misspelt
  e = ExpectPostError("/api/cfg/edit", {{"trace", kTrace}, {"text", start["text"]}, {"document", bad}}, 400);
  EXPECT_NE(e["error"].get<std::string>().find("colour_mode"), std::string::npos) << e;
  ExpectPostError("/api/cfg/edit", {{"trace", kTrace}, {"text", start["text"]}, {"document", json::array()}}, 400);
  ExpectPostError("/api/cfg/edit", {{"trace", kTrace}, {"text", start["text"]}}, 400);
  ExpectPostError("/api/cfg/edit", {{"trace", kTrace}, {"document", doc}}, 400);
  // The core refuses what it cannot apply.
  bad = doc;
  thread_function(bad)["name"] = "No Such Function";
  ExpectPostError("/api/cfg/edit", {{"trace", kTrace}, {"text", start["text"]}, {"document", bad}}, 422);
}

TEST(CfgDocumentJson, MissingFieldsTakeTheDefaultsAndNullIsNaN) {
  CfgDocument doc;
  std::string error;
  ASSERT_TRUE(FromJson(json::object(), "document", &doc, &error)) << error;
  EXPECT_TRUE(doc.windows.empty());
  json j = {{"windows", {{{"name", "w"}, {"functions", {{{"slot", "thread"}, {"params", {{1, nullptr}}}}}}}}}};
  ASSERT_TRUE(FromJson(j, "document", &doc, &error)) << error;
  ASSERT_EQ(doc.windows.size(), 1u);
  const CfgWindowSettings& w = doc.windows[0];
  EXPECT_EQ(w.name, "w");
  EXPECT_EQ(w.parent0, -1);
  EXPECT_EQ(w.pixel_size, 1u);
  EXPECT_TRUE(w.filter.logical);
  EXPECT_EQ(w.filter.from.op, "All");
  ASSERT_EQ(w.functions.size(), 1u);
  ASSERT_EQ(w.functions[0].params.size(), 1u);
  EXPECT_EQ(w.functions[0].params[0][0], 1);
  EXPECT_TRUE(std::isnan(w.functions[0].params[0][1]));
  // What ToJson writes reads back the same.
  CfgDocument again;
  ASSERT_TRUE(FromJson(ToJson(doc), "document", &again, &error)) << error;
  EXPECT_EQ(ToJson(again), ToJson(doc));
  EXPECT_FALSE(FromJson(json{{"windows", {{{"parent0", 1.5}}}}}, "document", &doc, &error));
  EXPECT_EQ(error, "document.windows[0].parent0: expected an integer, got number");
}

TEST_F(ServerCfgTest, SavesCfgsInsideTheRootOnly) {
  std::string text = ReadFile(Root() / kViewCfg);
  json saved = Ok(Post("/api/cfg/save", json{{"path", "saved/new.cfg"}, {"text", text}}));
  EXPECT_EQ(saved["path"], "saved/new.cfg");
  EXPECT_EQ(ReadFile(Root() / "saved/new.cfg"), text);
  json listed = Ok(Get("/api/files?dir=saved"))["entries"];
  ASSERT_EQ(listed.size(), 1u) << listed;  // no temporary file left behind
  EXPECT_EQ(listed[0]["path"], "saved/new.cfg");
  EXPECT_EQ(listed[0]["windows"].size(), 3u);

  // No overwrite unless asked.
  json e = ExpectPostError("/api/cfg/save", {{"path", "saved/new.cfg"}, {"text", text}}, 409);
  EXPECT_TRUE(e.contains("hint"));
  std::string other = ReadFile(Root() / kAnalysisCfg);
  Ok(Post("/api/cfg/save", json{{"path", "saved/new.cfg"}, {"text", other}, {"overwrite", true}}));
  EXPECT_EQ(ReadFile(Root() / "saved/new.cfg"), other);
  // At the root, and by an absolute path inside it.
  Ok(Post("/api/cfg/save", json{{"path", "top.cfg"}, {"text", text}}));
  EXPECT_TRUE(fs::exists(Root() / "top.cfg"));
  Ok(Post("/api/cfg/save", json{{"path", (Root() / "saved/abs.cfg").string()}, {"text", text}}));
  EXPECT_TRUE(fs::exists(Root() / "saved/abs.cfg"));

  // Never outside the root.
  for (const std::string& path : std::vector<std::string>{"../outside/x.cfg", "saved/../../outside/x.cfg", "saved/../x.cfg", "outdir/x.cfg",
                           (base_ / "outside/x.cfg").string(), "/tmp/x.cfg"})
    ExpectPostError("/api/cfg/save", {{"path", path}, {"text", text}}, 403);
  EXPECT_FALSE(fs::exists(base_ / "outside/x.cfg"));
  // Nor through a symlink, even with overwrite.
  std::ofstream(base_ / "outside/target.cfg") << "outside";
  fs::create_symlink(base_ / "outside/target.cfg", Root() / "saved/link.cfg");
  ExpectPostError("/api/cfg/save", {{"path", "saved/link.cfg"}, {"text", text}, {"overwrite", true}}, 403);
  EXPECT_EQ(ReadFile(base_ / "outside/target.cfg"), "outside");
  fs::remove(Root() / "saved/link.cfg");

  ExpectPostError("/api/cfg/save", {{"path", "saved/new.txt"}, {"text", text}}, 400);
  ExpectPostError("/api/cfg/save", {{"path", "saved/.hidden.cfg"}, {"text", text}}, 400);
  ExpectPostError("/api/cfg/save", {{"path", "saved"}, {"text", text}}, 400);
  ExpectPostError("/api/cfg/save", {{"path", "nodir/x.cfg"}, {"text", text}}, 404);
  ExpectPostError("/api/cfg/save", {{"path", "cfgs"}, {"text", text}, {"overwrite", true}}, 400);
  ExpectPostError("/api/cfg/save", {{"path", "saved/x.cfg"}}, 400);
  ExpectPostError("/api/cfg/save", {{"path", "saved/x.cfg"}, {"text", text}, {"overwrite", "yes"}}, 400);
  ExpectPostError("/api/cfg/save", {{"path", "saved/junk.cfg"}, {"text", "this is not a cfg\n"}}, 422);
  EXPECT_FALSE(fs::exists(Root() / "saved/junk.cfg"));
  listed = Ok(Get("/api/files?dir=saved"))["entries"];
  EXPECT_EQ(listed.size(), 2u) << listed;
  size_t files = 0;
  for ([[maybe_unused]] const auto& f : fs::directory_iterator(Root() / "saved")) ++files;
  EXPECT_EQ(files, 2u);  // new.cfg and abs.cfg: no temporary files
}

TEST_F(ServerCfgTest, MalformedBodiesAndWrongTypes) {
  for (const char* route : {"/api/timeline", "/api/text", "/api/analyze", "/api/cfg/function", "/api/cfg/edit",
                            "/api/cfg/save"}) {
    for (const char* body : {"{", "", "[1, 2]", "\"trace\"", "{\"trace\": }", "nope"})
      ExpectErrorResponse(Post(route, std::string(body)), 400, std::string(route) + " " + body);
    ExpectErrorResponse(Post(route, std::string(100, '[') + std::string(100, ']')), 400, route);
  }
  std::string fn = "State As Is";
  ExpectPostError("/api/timeline", {{"trace", kTrace}, {"function", fn}, {"width", "640"}}, 400);
  ExpectPostError("/api/timeline", {{"trace", kTrace}, {"function", fn}, {"width", 6.5}}, 400);
  ExpectPostError("/api/timeline", {{"trace", kTrace}, {"function", fn}, {"width", -5}}, 400);
  ExpectPostError("/api/timeline", {{"trace", kTrace}, {"function", fn}, {"from", -1}}, 400);
  ExpectPostError("/api/timeline", {{"trace", kTrace}, {"function", fn}, {"flags", 1}}, 400);
  ExpectPostError("/api/timeline", {{"trace", kTrace}, {"function", fn}, {"min", "0"}}, 400);
  ExpectPostError("/api/timeline", {{"trace", kTrace}, {"function", fn}, {"highlight_min", "0"}}, 400);
  ExpectPostError("/api/timeline", {{"trace", kTrace}, {"function", 3}}, 400);
  ExpectPostError("/api/timeline", {{"trace", 3}, {"function", fn}}, 400);
  ExpectPostError("/api/timeline", {{"trace", kTrace}, {"function", fn}, {"cfg", kViewCfg}}, 400);
  ExpectPostError("/api/timeline", {{"trace", kTrace}, {"cfg_text", "x"}, {"cfg", kViewCfg}}, 400);
  ExpectPostError("/api/timeline", {{"trace", kTrace}, {"cfg", "../outside/x.cfg"}}, 403);
  ExpectPostError("/api/text", {{"trace", kTrace}, {"function", fn}, {"object", 1}}, 400);
  // Null counts as absent.
  Ok(Post("/api/timeline", json{{"trace", kTrace}, {"function", fn}, {"format", "json"}, {"height", nullptr}}));
}

TEST_F(ServerCfgTest, BodiesAreCappedAtOneMebibyte) {
  json body = {{"trace", kTrace}, {"function", "State As Is"}, {"format", "json"}, {"width", 100}};
  body["padding"] = std::string((1 << 20) - 200, ' ');  // unknown fields are ignored
  ASSERT_LE(body.dump().size(), size_t{1} << 20);
  Ok(Post("/api/timeline", body));
  body["padding"] = std::string(1 << 20, ' ');
  ExpectErrorResponse(Post("/api/timeline", body), 413, "over 1 MiB");
  ExpectErrorResponse(Post("/api/cfg/save", json{{"path", "saved/big.cfg"}, {"text", std::string(1 << 20, '#')}}), 413,
                      "over 1 MiB");
  EXPECT_FALSE(fs::exists(Root() / "saved/big.cfg"));
}

TEST_F(ServerCfgTest, PostNeedsTheToken) {
  json body = {{"trace", kTrace}, {"function", "State As Is"}, {"format", "json"}};
  for (const char* route : {"/api/timeline", "/api/text", "/api/analyze", "/api/cfg/function", "/api/cfg/edit",
                            "/api/cfg/save", "/api/no-such-route"}) {
    auto r = Checked(Client()->Post(route, body.dump(), "application/json"), "direct request");
    ExpectErrorResponse(r, 403, route);
    auto wrong = Checked(Client()->Post(route, {{"X-Parallax-Token", "nope"}}, body.dump(), "application/json"), "direct request");
    ExpectErrorResponse(wrong, 403, route);
  }
  auto save = Checked(Client()->Post("/api/cfg/save", json{{"path", "saved/token.cfg"}, {"text", "x"}}.dump(), "application/json"), "direct request");
  EXPECT_EQ(save->status, 403);
  EXPECT_FALSE(fs::exists(Root() / "saved/token.cfg"));
  ExpectErrorResponse(Post("/api/no-such-route", json::object()), 404, "unknown POST route");
}

}  // namespace
}  // namespace parallax::server
