#pragma once
// The set-up the server tests share: a server started in process on a free port, serving a
// temporary root that holds a copy of tests/data/omp and two cfgs, next to an "outside"
// directory the server must never open (reached from the root by symlinks). Each test suite
// derives from ServerFixture and starts its own server (StartServer in SetUpTestSuite).

#include <gtest/gtest.h>
#include <httplib.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "apps/server/server.h"

namespace parallax::server {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kToken = "0123456789abcdef0123456789abcdef";
constexpr const char* kTrace = "traces/omp2.prv.gz";
constexpr const char* kViewCfg = "cfgs/User_function_excl_MPI.cfg";
constexpr const char* kAnalysisCfg = "cfgs/2dc_cyc_ipc.cfg";

class ServerFixture : public ::testing::Test {
 protected:
  // `tag` keeps the temporary folders of the suites apart.
  // `configure` may change the options (limits, the test hook) before the server starts.
  static void StartServer(const std::string& tag,
                          const std::function<void(ServerOptions&)>& configure = {}) {
    base_ = fs::temp_directory_path() /
            ("parallax_server_" + tag + "_test_" + std::to_string(getpid()));
    fs::remove_all(base_);
    fs::path root = base_ / "root";
    fs::create_directories(root / "traces");
    fs::create_directories(root / "cfgs");
    fs::create_directories(base_ / "outside");
    fs::path data = PARALLAX_TEST_DATA;
    for (const char* f : {"omp2.prv.gz", "omp2.pcf", "omp2.row"}) fs::copy_file(data / "omp" / f, root / "traces" / f);
    fs::copy_file(data / "cfg/bsc/General/views/User_function_excl_MPI.cfg", root / kViewCfg);
    fs::copy_file(data / "cfg/bsc/General/analysis/2dc_cyc_ipc.cfg", root / kAnalysisCfg);
    fs::copy_file(data / "omp/omp2.prv.gz", base_ / "outside/secret.prv.gz");
    fs::create_symlink(base_ / "outside/secret.prv.gz", root / "traces/escape.prv.gz");
    fs::create_symlink(base_ / "outside", root / "outdir");
    // A trace inside the root whose .pcf is a symlink to a file outside it.
    fs::copy_file(data / "omp/omp2.prv.gz", root / "traces/leaky.prv.gz");
    fs::copy_file(data / "omp/omp2.pcf", base_ / "outside/secret.pcf");
    fs::create_symlink(base_ / "outside/secret.pcf", root / "traces/leaky.pcf");

    ServerOptions o;
    o.root = root.string();
    o.token = kToken;
    // No compute-time limit: a loaded machine only makes the tests slower (the limit has its
    // own test, ServerTimeLimitTest).
    o.request_time_limit = 0;
    if (configure) configure(o);
    std::string error;
    server_ = Server::Create(o, &error).release();
    ASSERT_NE(server_, nullptr) << error;
    thread_ = new std::thread([] { server_->Run(); });
  }

  static void StopServer() {
    if (server_ != nullptr) server_->Stop();
    if (thread_ != nullptr) thread_->join();
    delete thread_;
    delete server_;
    thread_ = nullptr;
    server_ = nullptr;
    fs::remove_all(base_);
  }

  static fs::path Root() { return base_ / "root"; }

  static std::unique_ptr<httplib::Client> Client() {
    auto c = std::make_unique<httplib::Client>("127.0.0.1", server_->port());
    c->set_read_timeout(120, 0);
    return c;
  }

  // A request that got no response (timeout on a loaded machine, connection refused) is a test
  // failure, not a null response for the test to dereference: it becomes a response with
  // status -1 whose body says what happened, so `r->status` fails the test's expectations.
  static httplib::Result Checked(httplib::Result r, const std::string& what) {
    if (r) return r;
    const httplib::Error error = r.error();
    ADD_FAILURE() << what << ": no response (" << httplib::to_string(error) << ")";
    auto stand_in = std::make_unique<httplib::Response>();
    stand_in->status = -1;
    stand_in->body = "no response: " + httplib::to_string(error);
    return httplib::Result(std::move(stand_in), error);
  }

  // GET with the token header; `query` is already URL-encoded.
  static httplib::Result Get(const std::string& path_and_query) {
    return Checked(Client()->Get(path_and_query.c_str(), {{"X-Parallax-Token", kToken}}),
                   "GET " + path_and_query);
  }

  // POST of a JSON body with the token header.
  static httplib::Result Post(const std::string& path, const std::string& body) {
    return Checked(
        Client()->Post(path.c_str(), {{"X-Parallax-Token", kToken}}, body, "application/json"),
        "POST " + path);
  }
  static httplib::Result Post(const std::string& path, const json& body) { return Post(path, body.dump()); }

  // The JSON body; null (and a failure) when it is not JSON.
  // The JSON of a response that must be 200.
  static json Ok(const httplib::Result& r) {
    EXPECT_TRUE(r);
    if (!r) return {};
    EXPECT_EQ(r->status, 200) << r->body;
    return json::parse(r->body, nullptr, false);
  }

  static json Json(const httplib::Result& r) {
    json j = json::parse(r->body, nullptr, false);
    if (j.is_discarded()) {
      ADD_FAILURE() << "not JSON: " << r->body.substr(0, 200);
      return {};
    }
    return j;
  }

  // A JSON error with `status`; returns the error object.
  static json ExpectErrorResponse(const httplib::Result& r, int status, const std::string& what) {
    if (!r) {
      ADD_FAILURE() << what << ": no response";
      return {};
    }
    EXPECT_EQ(r->status, status) << what << ": " << r->body;
    EXPECT_EQ(r->get_header_value("Content-Type"), "application/json") << what;
    json j = json::parse(r->body, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << r->body;
    EXPECT_TRUE(j.is_object() && j.contains("error")) << r->body;
    return j;
  }

  static void ExpectError(const std::string& path_and_query, int status) {
    ExpectErrorResponse(Get(path_and_query), status, path_and_query);
  }

  static json ExpectPostError(const std::string& path, const json& body, int status) {
    return ExpectErrorResponse(Post(path, body), status, path + " " + body.dump().substr(0, 200));
  }

  static inline fs::path base_;
  static inline Server* server_ = nullptr;
  static inline std::thread* thread_ = nullptr;
};

}  // namespace
}  // namespace parallax::server
