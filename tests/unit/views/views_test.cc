// The standard views (views/, docs/views.md): every file is compiled in and listed, reads without
// a notice, comes back the same through Parallax's cfg writer (Paraver's format, as wxParaver
// reads it), and a wrong name says which views are closest.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "include/parallax/views.h"
#include "src/cfg/cfg_reader.h"
#include "src/cfg/cfg_writer.h"

namespace parallax {
namespace {

const std::filesystem::path kViews = std::filesystem::path(PARALLAX_TEST_DATA) / ".." / ".." / "views";

std::string ReadFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(Views, EveryFileIsListedAndIsItsCfg) {
  std::set<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(kViews))
    if (e.path().extension() == ".cfg") files.insert(e.path().stem().string());
  ASSERT_GE(files.size(), 12u);
  std::set<std::string> listed;
  for (const ViewInfo& v : ListViews()) {
    listed.insert(v.name);
    EXPECT_FALSE(v.title.empty()) << v.name;
    EXPECT_FALSE(v.description.empty()) << v.name;
    EXPECT_FALSE(v.windows.empty()) << v.name;
    auto text = ViewCfg(v.name);
    ASSERT_TRUE(text.ok()) << v.name;
    EXPECT_EQ(text.value(), ReadFile(kViews / (v.name + ".cfg"))) << v.name;
  }
  EXPECT_EQ(listed, files);
}

TEST(Views, ReadWithoutNoticesAndWriteBackTheSame) {
  for (const ViewInfo& v : ListViews()) {
    SCOPED_TRACE(v.name);
    const std::string text = ViewCfg(v.name).value();
    auto file = cfg::ParseCfg(text, v.name + ".cfg", cfg::CfgContext{});
    ASSERT_TRUE(file.ok()) << file.status().ToString();
    // Read without a trace, `window_object appl { 1, { All } }` names an application the empty
    // model does not have: the only notice allowed.
    for (const cfg::CfgNotice& n : file->notices)
      EXPECT_NE(n.text.find("objects the trace does not have"), std::string::npos) << n.text;
    EXPECT_TRUE(file->histogram_error.empty()) << file->histogram_error;
    auto again = cfg::ParseCfg(cfg::WriteCfg(file.value()), v.name + ".cfg", cfg::CfgContext{});
    ASSERT_TRUE(again.ok());
    EXPECT_TRUE(again.value() == file.value());
  }
}

TEST(Views, WhatTheyNeedAndTheirKinds) {
  std::map<std::string, ViewInfo> by;
  for (const ViewInfo& v : ListViews()) by[v.name] = v;
  EXPECT_EQ(by["mpi-profile"].needs, std::vector<std::string>{"MPI"});
  EXPECT_EQ(by["mpi-profile"].histograms, std::vector<std::string>{"MPI profile"});
  EXPECT_EQ(by["useful-ipc"].needs, std::vector<std::string>{"counters"});
  EXPECT_EQ(by["openmp-functions"].needs, std::vector<std::string>{"OpenMP"});
  EXPECT_TRUE(by["states"].needs.empty());
  EXPECT_TRUE(by["states"].histograms.empty());
  EXPECT_EQ(by["states"].title, "States");
}

TEST(Views, AWrongNameSaysTheClosest) {
  auto r = ViewCfg("mpi-profil");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "no view named 'mpi-profil'");
  EXPECT_NE(r.status().hint().find("the closest: mpi-profile"), std::string::npos) << r.status().hint();
}

}  // namespace
}  // namespace parallax
