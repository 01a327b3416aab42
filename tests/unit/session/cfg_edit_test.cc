// include/parallax/cfg.h on real cfgs and traces: DescribeCfg gives what the cfg says, EditCfg
// changes what the values change (and nothing else), FunctionCfg draws like a thread-function
// request, cfg_text reads like cfg_path, and the analyzer's new row/column fields.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <tuple>

#include "include/parallax/cfg.h"
#include "include/parallax/render.h"
#include "include/parallax/trace.h"
#include "src/base/input_buffer.h"
#include "src/cfg/cfg_writer.h"
#include "src/cfg/histogram_spec.h"
#include "src/session/trace_impl.h"

namespace parallax {
namespace {

std::string Data(const std::string& rel) { return std::string(PARALLAX_TEST_DATA) + "/" + rel; }

std::string ReadText(const std::string& path) {
  auto in = base::InputBuffer::Open(path);
  EXPECT_TRUE(in.ok()) << in.status().ToString();
  return in.ok() ? std::string(in->view()) : std::string();
}

const std::string kMpiStats = "cfg/bsc/mpi/analysis/mpi_stats.cfg";
const std::string kStateAsIs = "cfg/bsc/General/views/state_as_is.cfg";

// epoch_2proc, loaded once for the whole binary.
const Trace& Epoch() {
  static const std::unique_ptr<Trace> trace = [] {
    auto t = Trace::Open(Data("epoch/epoch_2proc.prv.gz"));
    EXPECT_TRUE(t.ok()) << t.status().ToString();
    return std::move(t.value());
  }();
  return *trace;
}

const CfgFunction* FunctionOf(const CfgWindowSettings& w, const std::string& slot) {
  for (const CfgFunction& f : w.functions)
    if (f.slot == slot) return &f;
  return nullptr;
}

std::vector<std::string> Slots(const CfgWindowSettings& w) {
  std::vector<std::string> out;
  for (const CfgFunction& f : w.functions) out.push_back(f.slot);
  return out;
}

CfgDocument Describe(const std::string& text) {
  auto doc = DescribeCfg(Epoch(), text, "test.cfg");
  EXPECT_TRUE(doc.ok()) << doc.status().ToString();
  return doc.ok() ? doc.value() : CfgDocument{};
}

std::string Edit(const std::string& text, const CfgDocument& doc) {
  auto out = EditCfg(Epoch(), text, "test.cfg", doc);
  EXPECT_TRUE(out.ok()) << out.status().ToString();
  return out.ok() ? out.value() : std::string();
}

std::string RenderJson(TimelineRequest req) {
  req.format = "json";
  req.width = 400;
  auto images = RenderTimeline(Epoch(), req);
  EXPECT_TRUE(images.ok()) << images.status().ToString();
  if (!images.ok() || images->empty()) return {};
  return images.value()[0].data;
}

std::vector<TextInterval> Intervals(const std::string& cfg_text, const std::string& window = "") {
  TextRequest req;
  req.cfg_text = cfg_text;
  req.window = window;
  req.object = "THREAD 1.1.1";
  auto view = Epoch().Text(req);
  EXPECT_TRUE(view.ok()) << view.status().ToString();
  return view.ok() ? view->intervals : std::vector<TextInterval>{};
}

double ValueAt(const std::vector<TextInterval>& v, uint64_t t) {
  for (const TextInterval& i : v)
    if (i.begin <= t && t < i.end) return i.value;
  return NAN;
}

// --- DescribeCfg ---------------------------------------------------------------------------

// mpi_stats.cfg: one thread window "MPI call" (Last Evt Val, event types [x,y] 50000001 ..
// 50000005 by label "MPI Point-to-point"), code colours, closed; one histogram "MPI call
// profile" of "% Time" with hidden empty columns.
TEST(DescribeCfg, MpiStats) {
  CfgDocument doc = Describe(ReadText(Data(kMpiStats)));
  ASSERT_EQ(doc.windows.size(), 1u);
  const CfgWindowSettings& w = doc.windows[0];
  EXPECT_EQ(w.name, "MPI call");
  EXPECT_EQ(w.level, "thread");
  EXPECT_EQ(Slots(w),
            (std::vector<std::string>{"thread", "compose_thread", "top_compose1", "top_compose2"}));
  EXPECT_EQ(FunctionOf(w, "thread")->name, "Last Evt Val");
  EXPECT_EQ(FunctionOf(w, "compose_thread")->name, "As Is");
  EXPECT_TRUE(FunctionOf(w, "thread")->params.empty());
  EXPECT_EQ(w.filter.event_type.op, "[x,y]");
  ASSERT_EQ(w.filter.event_type.values.size(), 2u);
  EXPECT_EQ(w.filter.event_type.values[1], 50000005);
  EXPECT_EQ(w.filter.event_value.op, "All");
  EXPECT_TRUE(w.filter.logical);
  EXPECT_FALSE(w.filter.physical);
  EXPECT_FALSE(w.derived);
  EXPECT_EQ(w.color_mode, "code");
  EXPECT_EQ(w.draw_mode, "maximum");
  EXPECT_EQ(w.object_draw_mode, "maximum");
  EXPECT_FALSE(w.open);
  EXPECT_FALSE(w.comm_lines);
  EXPECT_EQ(w.max_y, 70);
  ASSERT_EQ(doc.histograms.size(), 1u);
  const CfgHistogramSettings& h = doc.histograms[0];
  EXPECT_EQ(h.name, "MPI call profile");
  EXPECT_EQ(h.statistic, "% Time");
  EXPECT_EQ(h.statistics.size(), std::size(cfg::kSemanticStatistics));
  EXPECT_FALSE(h.communications);
  EXPECT_EQ(h.control, 0);
  EXPECT_EQ(h.data, 0);
  EXPECT_EQ(h.extra, -1);
  EXPECT_TRUE(h.hide_empty_columns);
  EXPECT_TRUE(h.horizontal);
}

// A parameter the cfg does not give is shown with its default; a null gradient window.
TEST(DescribeCfg, ParametersAndGradient) {
  CfgDocument doc = Describe(ReadText(Data("cfg/bsc/General/views/useful_duration.cfg")));
  ASSERT_EQ(doc.windows.size(), 1u);
  const CfgFunction* f = FunctionOf(doc.windows[0], "thread");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->name, "State Record Dur.");
  EXPECT_EQ(f->params, (std::vector<std::vector<double>>{{1}}));
  EXPECT_EQ(doc.windows[0].color_mode, "null-gradient");
}

// A task-level window lists the thread and task slots (Thread i with its parameter, 1).
TEST(DescribeCfg, TaskLevel) {
  CfgDocument doc =
      Describe(ReadText(Data("cfg/bsc/General/views/user_function_nesting_level.cfg")));
  ASSERT_EQ(doc.windows.size(), 1u);
  const CfgWindowSettings& w = doc.windows[0];
  EXPECT_EQ(w.level, "task");
  EXPECT_EQ(Slots(w), (std::vector<std::string>{"thread", "compose_thread", "task", "compose_task",
                                                "top_compose1", "top_compose2"}));
  EXPECT_EQ(FunctionOf(w, "task")->name, "Thread i");
  EXPECT_EQ(FunctionOf(w, "task")->params, (std::vector<std::vector<double>>{{1}}));
}

// io_read_size.cfg: window 3 is the product of windows 1 and 2 (thread level).
TEST(DescribeCfg, DerivedWindow) {
  CfgDocument doc = Describe(ReadText(Data("cfg/bsc/General/views/io_read_size.cfg")));
  ASSERT_EQ(doc.windows.size(), 3u);
  const CfgWindowSettings& w = doc.windows[2];
  EXPECT_EQ(w.name, "I/O Read size");
  EXPECT_TRUE(w.derived);
  EXPECT_EQ(w.parent0, 0);
  EXPECT_EQ(w.parent1, 1);
  EXPECT_EQ(w.factor0, 1);
  EXPECT_EQ(Slots(w), (std::vector<std::string>{"derived", "compose_thread", "top_compose1",
                                                "top_compose2"}));
  EXPECT_EQ(FunctionOf(w, "derived")->name, "product");
}

// Communication histograms offer the 10 communication statistics.
TEST(DescribeCfg, CommunicationHistogram) {
  CfgDocument doc = Describe(ReadText(Data("cfg/bsc/mpi/analysis/other/communication_matrix.cfg")));
  ASSERT_FALSE(doc.histograms.empty());
  const CfgHistogramSettings& h = doc.histograms.back();
  EXPECT_EQ(h.statistic, "Bytes sent");
  EXPECT_TRUE(h.communications);
  EXPECT_EQ(h.statistics.size(), std::size(cfg::kCommStatistics));
}

TEST(DescribeCfg, MalformedTextGivesTheLine) {
  std::string text = ReadText(Data(kStateAsIs));
  size_t at = text.find("window_level thread");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 19, "window_level nowhere");
  auto doc = DescribeCfg(Epoch(), text, "bad.cfg");
  ASSERT_FALSE(doc.ok());
  uint64_t line = 1 + static_cast<uint64_t>(std::count(text.begin(), text.begin() + at, '\n'));
  EXPECT_EQ(doc.status().where().line, line);
  EXPECT_EQ(doc.status().where().file, "bad.cfg");
  // The same error through a render request with cfg_text.
  TimelineRequest req;
  req.cfg_text = text;
  req.format = "json";
  auto images = RenderTimeline(Epoch(), req);
  ASSERT_FALSE(images.ok());
  EXPECT_EQ(images.status().where().line, line);
  EXPECT_EQ(images.status().where().file, "cfg");
}

// --- EditCfg -------------------------------------------------------------------------------

// Editing with the values DescribeCfg gave changes nothing: the text is the writer's form of
// the cfg as read, for every cfg of the BSC set that reads on this trace.
TEST(EditCfg, UnchangedValuesRewriteTheSameCfg) {
  const auto& impl = dynamic_cast<const session::TraceImpl&>(Epoch());
  int checked = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(Data("cfg/bsc"))) {
    if (e.path().extension() != ".cfg") continue;
    std::string text = ReadText(e.path().string());
    auto doc = DescribeCfg(Epoch(), text, e.path().string());
    if (!doc.ok()) continue;
    auto file = impl.LoadCfgText(text, "x");
    ASSERT_TRUE(file.ok());
    if (!file->histogram_error.empty()) continue;
    auto edited = EditCfg(Epoch(), text, e.path().string(), doc.value());
    if (!edited.ok()) {
      // Only windows that cannot be evaluated on this trace are refused.
      EXPECT_NE(edited.status().message().find("window"), std::string::npos)
          << e.path() << ": " << edited.status().ToString();
      continue;
    }
    EXPECT_EQ(edited.value(), cfg::WriteCfg(file.value())) << e.path();
    ++checked;
  }
  EXPECT_GT(checked, 200);
  std::printf("unchanged edits: %d cfgs rewritten identically\n", checked);
}

TEST(EditCfg, ThreadFunctionChangesTheValues) {
  std::string text = ReadText(Data(kStateAsIs));
  CfgDocument doc = Describe(text);
  ASSERT_EQ(doc.windows.size(), 1u);
  for (CfgFunction& f : doc.windows[0].functions)
    if (f.slot == "thread") f.name = "Last Evt Val";
  std::string edited = Edit(text, doc);
  ASSERT_FALSE(edited.empty());
  EXPECT_NE(edited.find("{thread, Last Evt Val}"), std::string::npos);
  CfgDocument again = Describe(edited);
  EXPECT_EQ(FunctionOf(again.windows[0], "thread")->name, "Last Evt Val");
  // The values are now the last event values, not states.
  std::vector<TextInterval> before = Intervals(text), after = Intervals(edited);
  ASSERT_FALSE(before.empty());
  ASSERT_FALSE(after.empty());
  EXPECT_NE(before.size(), after.size());
  bool big = false;
  for (const TextInterval& i : after) big = big || i.value > 1000;
  EXPECT_TRUE(big) << "event values expected";
  TextRequest direct;
  direct.thread_function = "Last Evt Val";
  direct.object = "THREAD 1.1.1";
  auto want = Epoch().Text(direct);
  ASSERT_TRUE(want.ok());
  ASSERT_EQ(after.size(), want->intervals.size());
  for (size_t k = 0; k < after.size(); ++k) EXPECT_EQ(after[k].value, want->intervals[k].value);
  // And the image differs.
  TimelineRequest r1, r2;
  r1.cfg_text = text;
  r2.cfg_text = edited;
  EXPECT_NE(RenderJson(r1), RenderJson(r2));
}

TEST(EditCfg, DisplaySettingsAndName) {
  std::string text = ReadText(Data(kStateAsIs));
  CfgDocument doc = Describe(text);
  CfgWindowSettings& w = doc.windows[0];
  w.name = "Renamed";
  w.color_mode = "gradient";
  w.draw_mode = "last";
  w.object_draw_mode = "average";
  w.pixel_size = 4;
  w.flags = !w.flags;
  w.max_y = 7;
  EXPECT_EQ(w.synchronize, 0u);  // the cfg has no window_synchronize
  w.synchronize = 3;
  std::string edited = Edit(text, doc);
  EXPECT_NE(edited.find("window_synchronize 3\n"), std::string::npos);
  CfgDocument again = Describe(edited);
  const CfgWindowSettings& a = again.windows[0];
  EXPECT_EQ(a.synchronize, 3u);
  EXPECT_EQ(a.name, "Renamed");
  EXPECT_EQ(a.color_mode, "gradient");
  EXPECT_EQ(a.draw_mode, "last");
  EXPECT_EQ(a.object_draw_mode, "average");
  EXPECT_EQ(a.pixel_size, 4u);
  EXPECT_EQ(a.flags, w.flags);
  EXPECT_EQ(a.max_y, 7);
  // Group 0 takes the window out of every group: the key goes.
  again.windows[0].synchronize = 0;
  std::string none = Edit(edited, again);
  EXPECT_EQ(none.find("window_synchronize"), std::string::npos);
  EXPECT_EQ(Describe(none).windows[0].synchronize, 0u);
}

// The time unit of a window's values: described, changed, kept by a new window copied from
// another cfg (as the UI's "Save all windows" does), refused when unknown.
TEST(EditCfg, TimeUnit) {
  std::string text = ReadText(Data(kStateAsIs));
  CfgDocument doc = Describe(text);
  EXPECT_EQ(doc.windows[0].unit, "us");  // window_units Microseconds
  doc.windows[0].unit = "ms";
  CfgWindowSettings copy = Describe(ReadText(Data(kMpiStats))).windows[0];
  copy.unit = "us";
  doc.windows.push_back(copy);
  CfgWindowSettings fresh;
  fresh.name = "Fresh";
  fresh.functions = {{"thread", "State As Is", {}}};
  doc.windows.push_back(fresh);
  std::string edited = Edit(text, doc);
  EXPECT_NE(edited.find("window_units Milliseconds"), std::string::npos) << edited;
  CfgDocument again = Describe(edited);
  ASSERT_EQ(again.windows.size(), 3u);
  EXPECT_EQ(again.windows[0].unit, "ms");
  EXPECT_EQ(again.windows[1].unit, "us");
  EXPECT_EQ(again.windows[2].unit, "ns");  // a new window without a unit: the trace's
  doc.windows[0].unit = "fortnights";
  auto bad = EditCfg(Epoch(), text, "state_as_is.cfg", doc);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("unknown time unit 'fortnights'"), std::string::npos) << bad.status().message();
}

// The window's time range: described (BSC's cfgs: relative, the whole trace), set to an
// absolute zoom (what the UI's Save cfg writes: window_begin_time / window_stop_time), read
// back, and refused when it is not a range.
TEST(EditCfg, TimeRange) {
  std::string text = ReadText(Data(kStateAsIs));
  CfgDocument doc = Describe(text);
  EXPECT_TRUE(doc.windows[0].range_relative);
  EXPECT_EQ(doc.windows[0].range_begin, 0);
  EXPECT_EQ(doc.windows[0].range_end, 1);
  doc.windows[0].range_relative = false;
  doc.windows[0].range_begin = 1000000000;
  doc.windows[0].range_end = 2500000000;
  std::string edited = Edit(text, doc);
  EXPECT_NE(edited.find("window_begin_time 1000000000"), std::string::npos) << edited;
  EXPECT_NE(edited.find("window_stop_time 2500000000"), std::string::npos) << edited;
  EXPECT_EQ(edited.find("window_begin_time_relative"), std::string::npos) << edited;
  CfgDocument again = Describe(edited);
  EXPECT_FALSE(again.windows[0].range_relative);
  EXPECT_EQ(again.windows[0].range_begin, 1000000000);
  EXPECT_EQ(again.windows[0].range_end, 2500000000);
  for (auto [relative, b, e] : {std::tuple{false, 5.0, 5.0}, std::tuple{true, 0.2, 1.5}, std::tuple{false, -1.0, 4.0}}) {
    CfgDocument bad = doc;
    bad.windows[0].range_relative = relative;
    bad.windows[0].range_begin = b;
    bad.windows[0].range_end = e;
    auto out = EditCfg(Epoch(), text, "state_as_is.cfg", bad);
    ASSERT_FALSE(out.ok()) << b << ".." << e;
    EXPECT_NE(out.status().message().find("is not a range"), std::string::npos) << out.status().message();
  }
}

// A changed event filter replaces the lists as written (and their labels).
TEST(EditCfg, EventFilter) {
  std::string text = ReadText(Data(kMpiStats));
  ASSERT_NE(text.find("evt_type_label"), std::string::npos);
  CfgDocument doc = Describe(text);
  doc.windows[0].filter.event_type = CfgCriterion{"=", {50000002}};
  std::string edited = Edit(text, doc);
  EXPECT_NE(edited.find("{evt_type, =}"), std::string::npos);
  EXPECT_NE(edited.find("window_filter_module evt_type 1 50000002\n"), std::string::npos);
  EXPECT_EQ(edited.find("evt_type_label"), std::string::npos);
  CfgDocument again = Describe(edited);
  EXPECT_EQ(again.windows[0].filter.event_type.op, "=");
  EXPECT_EQ(again.windows[0].filter.event_type.values, std::vector<double>{50000002});
}

// A new derived window, the product of two windows, renders and gives the product.
TEST(EditCfg, AddDerivedWindow) {
  std::string text = ReadText(Data(kStateAsIs));
  CfgDocument doc = Describe(text);
  CfgWindowSettings events;
  events.name = "Events";
  events.level = "thread";
  events.functions = {{"thread", "Last Evt Val", {}}};
  doc.windows.push_back(events);
  CfgWindowSettings product;
  product.name = "Product";
  product.level = "thread";
  product.derived = true;
  product.parent0 = 0;
  product.parent1 = 1;
  product.functions = {{"derived", "product", {}}};
  doc.windows.push_back(product);
  std::string edited = Edit(text, doc);
  ASSERT_FALSE(edited.empty());
  CfgDocument again = Describe(edited);
  ASSERT_EQ(again.windows.size(), 3u);
  EXPECT_TRUE(again.windows[2].derived);
  EXPECT_EQ(again.windows[2].parent0, 0);
  EXPECT_EQ(again.windows[2].parent1, 1);
  EXPECT_EQ(FunctionOf(again.windows[2], "derived")->name, "product");
  TimelineRequest req;
  req.cfg_text = edited;
  req.window = "Product";
  EXPECT_NE(RenderJson(req).find("\"rects\""), std::string::npos);
  std::vector<TextInterval> a = Intervals(edited, again.windows[0].name);
  std::vector<TextInterval> b = Intervals(edited, "Events");
  std::vector<TextInterval> p = Intervals(edited, "Product");
  ASSERT_GT(p.size(), 10u);
  int nonzero = 0;
  // Checked inside intervals of some length (at one instant the parents may change several
  // times: zero-length intervals).
  for (size_t k = 0; k < p.size(); k += std::max<size_t>(1, p.size() / 50)) {
    if (p[k].end == p[k].begin) continue;
    uint64_t t = p[k].begin + (p[k].end - p[k].begin) / 2;
    EXPECT_EQ(p[k].value, ValueAt(a, t) * ValueAt(b, t)) << "at " << t;
    nonzero += p[k].value != 0;
  }
  EXPECT_GT(nonzero, 0);
}

TEST(EditCfg, Errors) {
  std::string text = ReadText(Data(kMpiStats));
  const CfgDocument doc = Describe(text);
  auto expect_error = [&](const CfgDocument& d, const std::string& part) {
    auto out = EditCfg(Epoch(), text, "test.cfg", d);
    ASSERT_FALSE(out.ok()) << "expected an error about " << part;
    EXPECT_NE(out.status().message().find(part), std::string::npos) << out.status().ToString();
  };
  CfgDocument d = doc;
  d.windows[0].functions[0].name = "No Such Function";
  expect_error(d, "unknown function 'No Such Function'");
  d = doc;
  d.windows[0].functions[0].name = "Adding";  // an aggregation function in the thread slot
  expect_error(d, "cannot be used in slot thread");
  d = doc;
  d.windows[0].functions.push_back({"nowhere", "As Is", {}});
  expect_error(d, "unknown slot 'nowhere'");
  d = doc;
  d.windows[0].filter.event_value.op = "~";
  expect_error(d, "criterion '~'");
  d = doc;
  d.windows[0].level = "galaxy";
  expect_error(d, "unknown level 'galaxy'");
  d = doc;
  d.windows[0].color_mode = "plaid";
  expect_error(d, "unknown colour mode 'plaid'");
  d = doc;
  d.windows[0].draw_mode = "loudest";
  expect_error(d, "unknown draw mode 'loudest'");
  d = doc;
  d.histograms[0].statistic = "Bogus";
  expect_error(d, "unknown statistic 'Bogus'");
  d = doc;
  d.histograms[0].statistic = "#Sends";  // a communication statistic on a semantic histogram
  expect_error(d, "unknown statistic '#Sends'");
  d = doc;
  d.histograms[0].control = 3;
  expect_error(d, "control");
  d = doc;
  CfgWindowSettings derived;
  derived.name = "Derived";
  derived.derived = true;
  derived.parent0 = 0;
  derived.parent1 = 1;  // itself: not an earlier window
  derived.functions = {{"derived", "product", {}}};
  d.windows.push_back(derived);
  expect_error(d, "parent 1 is not an earlier window");
  d.windows.back().parent1 = 0;
  d.windows.back().functions = {{"derived", "Last Evt Val", {}}};
  expect_error(d, "cannot be used in slot derived");
  d = doc;
  d.windows[0].derived = true;
  expect_error(d, "cannot become derived");
}

// Changing the statistic changes what Analyze prints.
TEST(EditCfg, HistogramStatistic) {
  std::string text = ReadText(Data(kMpiStats));
  CfgDocument doc = Describe(text);
  doc.histograms[0].statistic = "# Bursts";
  std::string edited = Edit(text, doc);
  EXPECT_NE(edited.find("Analyzer2D.Statistic: # Bursts"), std::string::npos);
  AnalyzeRequest r1, r2;
  r1.cfg_text = text;
  r2.cfg_text = edited;
  auto a = Analyze(Epoch(), r1), b = Analyze(Epoch(), r2);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(a.value()[0].statistic, "% Time");
  EXPECT_EQ(b.value()[0].statistic, "# Bursts");
  const AnalyzePlane &pa = a.value()[0].planes[0], &pb = b.value()[0].planes[0];
  ASSERT_EQ(pa.columns, pb.columns);
  EXPECT_NE(pa.values, pb.values);
  // Burst counts are whole numbers; percentages of one row add up to 100.
  for (const auto& row : pb.values)
    for (double v : row) EXPECT_EQ(v, std::floor(v));
  double sum = 0;
  for (double v : pa.values[0]) sum += v;
  EXPECT_NEAR(sum, 100, 1e-6);
}

// The control scale typed (0 .. 1 ms of useful duration by 0.1 ms, no autofit) makes exactly those
// ten columns, and sorting by the Total row orders them by it, largest first; the cfg keeps both.
TEST(EditCfg, HistogramScaleAndSorting) {
  std::string text = ReadText(Data("cfg/bsc/General/analysis/2dh_useful_duration.cfg"));
  CfgDocument doc = Describe(text);
  ASSERT_EQ(doc.histograms.size(), 1u);
  CfgHistogramSettings& h = doc.histograms[0];
  EXPECT_TRUE(h.compute_scale);
  EXPECT_DOUBLE_EQ(h.minimum, 0.783);
  EXPECT_DOUBLE_EQ(h.delta, 33658.151971500003);
  EXPECT_FALSE(h.sort_columns);
  EXPECT_EQ(h.sort_criteria, "Average");
  h.compute_scale = false;
  h.minimum = 0;
  h.maximum = 1000000;
  h.delta = 100000;
  std::string edited = Edit(text, doc);
  EXPECT_NE(edited.find("Analyzer2D.ComputeYScale: False"), std::string::npos);
  EXPECT_NE(edited.find("Analyzer2D.Delta: 100000"), std::string::npos);
  CfgDocument again = Describe(edited);
  EXPECT_FALSE(again.histograms[0].compute_scale);
  EXPECT_EQ(again.histograms[0].maximum, 1000000);
  AnalyzeRequest req;
  req.cfg_text = edited;
  auto tables = Analyze(Epoch(), req);
  ASSERT_TRUE(tables.ok()) << tables.status().ToString();
  const AnalyzePlane& p = tables.value()[0].planes[0];
  ASSERT_EQ(p.column_ranges.size(), 10u);
  for (size_t k = 0; k < 10; ++k) {
    EXPECT_DOUBLE_EQ(p.column_ranges[k].first, 100000.0 * k) << k;
    EXPECT_DOUBLE_EQ(p.column_ranges[k].second, 100000.0 * (k + 1)) << k;
  }

  again.histograms[0].sort_columns = true;
  again.histograms[0].sort_criteria = "Total";
  std::string sorted = Edit(edited, again);
  EXPECT_NE(sorted.find("Analyzer2D.SortCols: True"), std::string::npos);
  EXPECT_NE(sorted.find("Analyzer2D.SortCriteria: Total"), std::string::npos);
  req.cfg_text = sorted;
  auto st = Analyze(Epoch(), req);
  ASSERT_TRUE(st.ok()) << st.status().ToString();
  const AnalyzePlane& q = st.value()[0].planes[0];
  ASSERT_EQ(q.total_names[0], "Total");
  for (size_t k = 1; k < q.totals[0].size(); ++k) EXPECT_GE(q.totals[0][k - 1], q.totals[0][k]) << k;
  EXPECT_NE(q.columns, p.columns);  // the order changed

  CfgDocument bad = Describe(edited);
  bad.histograms[0].delta = 0;
  EXPECT_FALSE(EditCfg(Epoch(), edited, "h.cfg", bad).ok());
  bad = Describe(edited);
  bad.histograms[0].minimum = 2000000;
  EXPECT_FALSE(EditCfg(Epoch(), edited, "h.cfg", bad).ok());
  bad = Describe(edited);
  bad.histograms[0].sort_criteria = "Median";
  auto e = EditCfg(Epoch(), edited, "h.cfg", bad);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.status().message().find("Median"), std::string::npos);
}

// --- FunctionCfg ---------------------------------------------------------------------------

TEST(FunctionCfg, DrawsLikeAThreadFunctionRequest) {
  for (auto [function, params] : {std::pair<std::string, std::vector<double>>{"State As Is", {}},
                                  {"Last Evt Val", {}},
                                  {"State Record Dur.", {1}}}) {
    auto text = FunctionCfg(Epoch(), function, params);
    ASSERT_TRUE(text.ok()) << text.status().ToString();
    CfgDocument doc = Describe(text.value());
    ASSERT_EQ(doc.windows.size(), 1u);
    EXPECT_EQ(doc.windows[0].level, "thread");
    EXPECT_EQ(FunctionOf(doc.windows[0], "thread")->name, function);
    TimelineRequest by_function, by_cfg;
    by_function.thread_function = function;
    by_function.parameters = params;
    // The states of a trace with more of them than a frame has pixels (epoch_2proc): the first
    // view draws the mode (the dominant state), not Paraver's maximum.
    if (function == "State As Is") {
      EXPECT_EQ(doc.windows[0].draw_mode, "mode");
      by_function.draw_mode = "mode";
    } else {
      EXPECT_EQ(doc.windows[0].draw_mode, "maximum");
    }
    by_cfg.cfg_text = text.value();
    std::string want = RenderJson(by_function);
    EXPECT_FALSE(want.empty());
    EXPECT_EQ(RenderJson(by_cfg), want) << function;
  }
  auto bad = FunctionCfg(Epoch(), "Adding", {});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("unknown thread function"), std::string::npos);
}

// --- cfg_text ------------------------------------------------------------------------------

TEST(CfgText, SameAsCfgPath) {
  const std::string path = Data(kMpiStats);
  const std::string text = ReadText(path);
  TimelineRequest r1, r2;
  r1.cfg_path = path;
  r2.cfg_text = text;
  r1.window = r2.window = "MPI call";
  EXPECT_EQ(RenderJson(r1), RenderJson(r2));
  TextRequest t1, t2;
  t1.cfg_path = path;
  t2.cfg_text = text;
  auto v1 = Epoch().Text(t1), v2 = Epoch().Text(t2);
  ASSERT_TRUE(v1.ok() && v2.ok());
  ASSERT_EQ(v1->intervals.size(), v2->intervals.size());
  for (size_t k = 0; k < v1->intervals.size(); ++k)
    EXPECT_EQ(v1->intervals[k].value, v2->intervals[k].value);
  AnalyzeRequest a1, a2;
  a1.cfg_path = path;
  a2.cfg_text = text;
  auto h1 = Analyze(Epoch(), a1), h2 = Analyze(Epoch(), a2);
  ASSERT_TRUE(h1.ok() && h2.ok());
  EXPECT_EQ(h1.value()[0].planes[0].values, h2.value()[0].planes[0].values);
  EXPECT_EQ(h1.value()[0].planes[0].columns, h2.value()[0].planes[0].columns);
}

// records = false: the same intervals, without the events and communications.
TEST(TextView, IntervalsOnly) {
  TextRequest full;
  full.cfg_path = Data(kMpiStats);
  TextRequest bare = full;
  bare.records = false;
  auto a = Epoch().Text(full), b = Epoch().Text(bare);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_FALSE(a->events.empty());
  EXPECT_FALSE(a->comms.empty());
  EXPECT_TRUE(b->events.empty());
  EXPECT_TRUE(b->comms.empty());
  ASSERT_EQ(a->intervals.size(), b->intervals.size());
  for (size_t k = 0; k < a->intervals.size(); ++k) {
    EXPECT_EQ(a->intervals[k].begin, b->intervals[k].begin);
    EXPECT_EQ(a->intervals[k].value, b->intervals[k].value);
    EXPECT_EQ(a->intervals[k].label, b->intervals[k].label);
  }
}

// --- Analyze: windows, row objects, column ranges ------------------------------------------

// mpi_stats: discrete columns (MPI call values), one row per thread.
TEST(AnalyzeFields, DiscreteColumns) {
  AnalyzeRequest req;
  req.cfg_path = Data(kMpiStats);
  auto tables = Analyze(Epoch(), req);
  ASSERT_TRUE(tables.ok()) << tables.status().ToString();
  const AnalyzeTable& t = tables.value()[0];
  EXPECT_EQ(t.control_window, 0);
  EXPECT_EQ(t.data_window, 0);
  EXPECT_EQ(t.extra_window, -1);
  const AnalyzePlane& p = t.planes[0];
  ASSERT_EQ(p.row_objects.size(), p.rows.size());
  for (size_t i = 0; i < p.row_objects.size(); ++i) EXPECT_EQ(p.row_objects[i], i);
  ASSERT_EQ(p.column_ranges.size(), p.columns.size());
  std::set<double> values;
  for (auto [low, high] : p.column_ranges) {
    EXPECT_EQ(low, high);
    EXPECT_EQ(low, std::floor(low));
    values.insert(low);
  }
  EXPECT_EQ(values.size(), p.columns.size());
  // Hidden empty columns: every printed column has some time, and it is where the control
  // window takes that value (checked for value 0, outside MPI, which every thread has).
  EXPECT_TRUE(values.count(0));
}

// 2dh_useful_duration: bins of a continuous value; not hidden, so the ranges tile the scale.
TEST(AnalyzeFields, BinColumns) {
  AnalyzeRequest req;
  req.cfg_path = Data("cfg/bsc/General/analysis/2dh_useful_duration.cfg");
  auto tables = Analyze(Epoch(), req);
  ASSERT_TRUE(tables.ok()) << tables.status().ToString();
  const AnalyzePlane& p = tables.value()[0].planes[0];
  ASSERT_EQ(p.column_ranges.size(), p.columns.size());
  ASSERT_GT(p.column_ranges.size(), 2u);
  for (size_t k = 0; k < p.column_ranges.size(); ++k) {
    EXPECT_LT(p.column_ranges[k].first, p.column_ranges[k].second) << k;
    if (k > 0) EXPECT_DOUBLE_EQ(p.column_ranges[k].first, p.column_ranges[k - 1].second) << k;
  }
}

TEST(AnalyzeFields, CommunicationColumns) {
  AnalyzeRequest req;
  req.cfg_path = Data("cfg/bsc/mpi/analysis/other/communication_matrix.cfg");
  auto tables = Analyze(Epoch(), req);
  ASSERT_TRUE(tables.ok()) << tables.status().ToString();
  const AnalyzePlane& p = tables.value().back().planes[0];
  ASSERT_EQ(p.column_ranges.size(), p.columns.size());
  ASSERT_FALSE(p.column_ranges.empty());
  for (auto [low, high] : p.column_ranges) EXPECT_TRUE(std::isnan(low) && std::isnan(high));
}

// --- highlight -----------------------------------------------------------------------------

// A tiny trace: one thread in state 1 on [0,10), 2 on [10,20), 3 on [20,30), 2 on [30,40).
std::unique_ptr<Trace> TinyTrace() {
  auto dir = std::filesystem::temp_directory_path() /
             ("parallax_cfg_edit_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string path = (dir / "tiny.prv").string();
  std::ofstream(path) << "#Paraver (x):40_ns:1(1):1:1(1:1)\n"
                         "1:1:1:1:1:0:10:1\n"
                         "1:1:1:1:1:10:20:2\n"
                         "1:1:1:1:1:20:30:3\n"
                         "1:1:1:1:1:30:40:2\n";
  auto t = Trace::Open(path);
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  std::filesystem::remove_all(dir);
  return t.ok() ? std::move(t.value()) : nullptr;
}

// The colours of the band rectangles of a json image (x, width, colour), in order.
std::vector<std::tuple<int, int, std::string>> Bands(const std::string& json) {
  std::vector<std::tuple<int, int, std::string>> out;
  size_t pos = json.find("\"rects\":[");
  size_t end = json.find("],\"lines\"");
  while (pos != std::string::npos && (pos = json.find('[', pos + 1)) < end) {
    int x = 0, y = 0, w = 0, h = 0;
    char color[8] = {};
    if (std::sscanf(json.c_str() + pos, "[%d,%d,%d,%d,\"%7[^\"]\"]", &x, &y, &w, &h, color) == 5)
      out.emplace_back(x, w, color);
  }
  return out;
}

TEST(Highlight, OnlyTheChosenValuesAreDrawn) {
  auto trace = TinyTrace();
  ASSERT_NE(trace, nullptr);
  TimelineRequest req;
  req.thread_function = "State As Is";
  req.format = "json";
  req.labels = req.axis = req.legend = req.title = false;
  req.comms = false;
  req.width = 40 + 1 + 6 + 12;  // 40 columns of 1 ns
  auto draw = [&](std::optional<double> lo, std::optional<double> hi) {
    req.highlight_min = lo;
    req.highlight_max = hi;
    auto images = RenderTimeline(*trace, req);
    EXPECT_TRUE(images.ok()) << images.status().ToString();
    return images.ok() ? Bands(images.value()[0].data) : decltype(Bands("")){};
  };
  auto all = draw(std::nullopt, std::nullopt);
  ASSERT_EQ(all.size(), 4u);
  const std::string c1 = std::get<2>(all[0]), c2 = std::get<2>(all[1]), c3 = std::get<2>(all[2]);
  const std::string bg = "#000000";
  using Band = std::tuple<int, int, std::string>;
  EXPECT_EQ(draw(2, 2), (std::vector<Band>{{6, 10, bg}, {16, 10, c2}, {26, 10, bg}, {36, 10, c2}}));
  EXPECT_EQ(draw(1, 3), (std::vector<Band>{{6, 10, c1}, {16, 10, c2}, {26, 10, bg}, {36, 10, c2}}));
  EXPECT_EQ(draw(3, std::nullopt), (std::vector<Band>{{6, 20, bg}, {26, 10, c3}, {36, 10, bg}}));
}

// --- SummarizeCfg --------------------------------------------------------------------------

TEST(SummarizeCfg, NamesWithoutATrace) {
  auto s = SummarizeCfg(Data("cfg/bsc/General/views/user_functions.cfg"));
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  ASSERT_FALSE(s->description.empty());
  EXPECT_EQ(s->description[0], "Color identifies user funciton being executed by each thread");
  EXPECT_EQ(s->windows, std::vector<std::string>{"User function x thread"});
  EXPECT_TRUE(s->histograms.empty());
  auto h = SummarizeCfg(Data(kMpiStats));
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->histograms, std::vector<std::string>{"MPI call profile"});
  EXPECT_FALSE(SummarizeCfg(Data("no/such.cfg")).ok());
}

// Which cfgs read states alone: windows of process levels whose thread function starts its
// intervals at state records only, without an event-type filter, and semantic statistics only.
TEST(SummarizeCfg, ReadsStatesOnly) {
  auto reads = [](const std::string& path) {
    auto s = SummarizeCfg(path);
    EXPECT_TRUE(s.ok()) << path << ": " << s.status().ToString();
    return s.ok() && s->reads_states_only;
  };
  EXPECT_TRUE(reads(Data("cfg/bsc/General/views/state_as_is.cfg")));
  EXPECT_TRUE(reads(Data("cfg/bsc/General/analysis/timings.cfg")));  // % of time per state
  EXPECT_TRUE(reads(Data("cfg/bsc/General/views/useful_duration.cfg")));  // a state function
  EXPECT_TRUE(reads(Data("cfg/pypop/total_useful_computation.cfg")));     // Useful
  EXPECT_TRUE(reads(Data("cfg/bsc/General/views/instantaneous_parallelism.cfg")));  // appl level
  EXPECT_FALSE(reads(Data(kMpiStats)));                               // MPI call events
  EXPECT_FALSE(reads(Data("cfg/bsc/mpi/analysis/other/communication_matrix.cfg")));  // Bytes sent
  EXPECT_FALSE(reads(Data("cfg/bsc/OpenMP/views/states_only_openmp.cfg")));  // events, derived
  // The same state window filtering on an event type: whether paramedir writes anything
  // depends on the trace's event types.
  std::string text = ReadText(Data("cfg/bsc/General/views/state_as_is.cfg"));
  const std::string path = ::testing::TempDir() + "/parallax_states_filter.cfg";
  const size_t criterion = text.find("{evt_type, All}");
  ASSERT_NE(criterion, std::string::npos);
  text.replace(criterion, 15, "{evt_type, =}");
  const size_t at = text.find("window_compose_functions");
  ASSERT_NE(at, std::string::npos);
  const size_t line_end = text.find('\n', at);
  {
    std::ofstream out(path);
    out << text.substr(0, line_end + 1) << "window_filter_module evt_type 1 50000001\n"
        << text.substr(line_end + 1);
  }
  auto filtered = SummarizeCfg(path);
  ASSERT_TRUE(filtered.ok()) << filtered.status().ToString();
  EXPECT_EQ(filtered->windows, std::vector<std::string>{"State as is"});
  EXPECT_FALSE(filtered->reads_states_only);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace parallax
