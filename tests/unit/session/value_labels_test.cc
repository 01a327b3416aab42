// Which windows get .pcf labels (issue 19): IPC.cfg (counters_PAPI/performance) divides two
// Next Evt Val windows on PAPI counters. Semantics §10 makes it an event value window (divide is
// "same as below", then parent 0), but its event type (42000050, PAPI_TOT_INS) has no value
// labels, so it is numeric: the legend and the textual view show numbers. Before, the derived
// window's own (empty) event filter let every type of the .pcf label the values: "End", "Begin"
// (40000001's 0 and 1), "__GI___libc_malloc", ...

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "include/parallax/render.h"
#include "include/parallax/trace.h"

namespace parallax {
namespace {

const std::string kData = PARALLAX_TEST_DATA;
const std::string kIpc = kData + "/cfg/bsc/counters_PAPI/performance/IPC.cfg";

std::unique_ptr<Trace> Open(const std::string& path) {
  auto t = Trace::Open(kData + path);
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return t.ok() ? std::move(t.value()) : nullptr;
}

// The legend texts of a JSON frame: the texts that are gone when the legend is turned off.
std::vector<std::string> LegendTexts(const Trace& trace, const std::string& cfg,
                                     const std::string& window) {
  std::set<std::pair<int, std::string>> without;
  std::vector<std::string> out;
  for (bool legend : {false, true}) {
    TimelineRequest r;
    r.cfg_path = cfg;
    r.window = window;
    r.format = "json";
    r.width = 600;
    r.legend = legend;
    auto images = RenderTimeline(trace, r);
    EXPECT_TRUE(images.ok()) << images.status().ToString();
    if (!images.ok()) return {};
    auto j = nlohmann::json::parse(images.value()[0].data);
    for (const auto& t : j["texts"]) {
      std::pair<int, std::string> key{t[1].get<int>(), t[2].get<std::string>()};
      if (!legend) {
        without.insert(key);
      } else if (!without.count(key)) {
        out.push_back(key.second);
      }
    }
  }
  return out;
}

// A number as the renderer writes it: digits grouped by commas, maybe a fraction.
bool IsNumber(std::string s) {
  std::erase(s, ',');
  if (s.empty()) return false;
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  return end != nullptr && *end == '\0';
}

TEST(ValueLabels, IpcIsNumericOnEpochAndProfet) {
  for (const char* path : {"/epoch/epoch_1proc.prv.gz", "/profet/test1.prv"}) {
    auto trace = Open(path);
    ASSERT_NE(trace, nullptr);
    auto legend = LegendTexts(*trace, kIpc, "Instructions per cycle");
    ASSERT_GE(legend.size(), 2u) << path;
    for (const auto& l : legend) EXPECT_TRUE(IsNumber(l)) << path << ": legend entry '" << l << "'";

    TextRequest req;
    req.cfg_path = kIpc;
    req.window = "Instructions per cycle";
    auto view = trace->Text(req);
    ASSERT_TRUE(view.ok()) << view.status().ToString();
    size_t non_zero = 0;
    for (const auto& i : view.value().intervals) {
      EXPECT_EQ(i.label, "") << path << ": " << i.value << " labelled";
      non_zero += i.value > 0;
    }
    EXPECT_GT(non_zero, 0u) << path;  // IPC values were there to be mislabelled
  }
}

// The parents too: a Next Evt Val window on PAPI_TOT_INS is a count.
TEST(ValueLabels, CounterWindowIsNumeric) {
  auto trace = Open("/epoch/epoch_1proc.prv.gz");
  ASSERT_NE(trace, nullptr);
  for (const auto& l : LegendTexts(*trace, kIpc, "Instructions"))
    EXPECT_TRUE(IsNumber(l)) << "legend entry '" << l << "'";
}

// Categorical windows keep their labels: an event value window whose type has value labels
// (Application, 40000001: End / Begin), and a state window.
TEST(ValueLabels, LabelledTypesAndStatesKeepTheirLabels) {
  auto trace = Open("/epoch/epoch_1proc.prv.gz");
  ASSERT_NE(trace, nullptr);
  const std::string cfg =
      "#ParaverCFG\nConfigFile.Version: 3.4\nConfigFile.NumWindows: 2\n\n"
      "window_name app\nwindow_type single\nwindow_level thread\n"
      "window_selected_functions { 2, { {thread, Last Evt Val}, {evt_type, =} } }\n"
      "window_filter_module evt_type 1 40000001\n\n"
      "window_name states\nwindow_type single\nwindow_level thread\n"
      "window_selected_functions { 1, { {thread, State As Is} } }\n";
  TextRequest req;
  req.cfg_text = cfg;
  req.window = "app";
  auto app = trace->Text(req);
  ASSERT_TRUE(app.ok()) << app.status().ToString();
  bool begin = false;
  for (const auto& i : app.value().intervals) begin = begin || (i.value == 1 && i.label == "Begin");
  EXPECT_TRUE(begin);
  req.window = "states";
  auto states = trace->Text(req);
  ASSERT_TRUE(states.ok()) << states.status().ToString();
  bool running = false;
  for (const auto& i : states.value().intervals) running = running || i.label == "Running";
  EXPECT_TRUE(running);
}

}  // namespace
}  // namespace parallax
