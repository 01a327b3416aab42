#include "src/cfg/cfg_reader.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "src/cfg/cfg_writer.h"
#include "src/semantic/function_table.h"

namespace parallax::cfg {
namespace {

using filter::CriterionOp;
using model::Level;
using semantic::Slot;

constexpr const char* kHeader = "#ParaverCFG\nConfigFile.Version: 3.4\nConfigFile.NumWindows: 1\n";

// cfg-format.md §7 without the explanatory "# ..." annotations.
constexpr const char* kExample1 = R"(#ParaverCFG
ConfigFile.Version: 3.4
ConfigFile.NumWindows: 1
ConfigFile.BeginDescription
Last MPI point-to-point call per thread.
ConfigFile.EndDescription

################################################################################
< NEW DISPLAYING WINDOW MPI p2p >
################################################################################
window_name MPI p2p
window_type single
window_id 1
window_position_x 100
window_position_y 100
window_width 600
window_height 115
window_comm_lines_enabled true
window_flags_enabled false
window_noncolor_mode true
window_custom_color_enabled false
window_semantic_scale_min_at_zero false
window_logical_filtered true
window_physical_filtered false
window_intracomms_enabled true
window_intercomms_enabled true
window_comm_fromto true
window_comm_tagsize true
window_comm_typeval true
window_units Microseconds
window_maximum_y 200.000000000000
window_minimum_y 1.000000000000
window_compute_y_max false
window_level thread
window_scale_relative 1.000000000000
window_end_time_relative 1.000000000000
window_object appl { 1, { All } }
window_begin_time_relative 0.000000000000
window_open true
window_drawmode draw_last
window_drawmode_rows draw_maximum
window_pixel_size 1
window_labels_to_draw 1
window_object_axis_position 0
window_selected_functions { 14, { {cpu, Active Thd}, {appl, Adding}, {task, Adding}, {thread, Last Evt Val}, {node, Adding}, {system, Adding}, {workload, Adding}, {from_obj, All}, {to_obj, All}, {tag_msg, All}, {size_msg, All}, {bw_msg, All}, {evt_type, =}, {evt_value, All} } }
window_compose_functions { 9, { {compose_cpu, As Is}, {compose_appl, As Is}, {compose_task, As Is}, {compose_thread, As Is}, {compose_node, As Is}, {compose_system, As Is}, {compose_workload, As Is}, {topcompose1, As Is}, {topcompose2, As Is} } }
window_filter_module evt_type 1 50000001
window_filter_module evt_type_label 1 "MPI Point-to-point"
)";

// The windows of cfg-format.md §8; the histogram part follows in kExample2Histogram.
constexpr const char* kExample2Windows = R"(#ParaverCFG
ConfigFile.Version: 3.4
ConfigFile.NumWindows: 2
ConfigFile.BeginDescription
Average MPI p2p value per state.
ConfigFile.EndDescription

################################################################################
< NEW DISPLAYING WINDOW States >
################################################################################
window_name States
window_type single
window_id 1
window_units Nanoseconds
window_maximum_y 20.000000000000
window_minimum_y 0.000000000000
window_level thread
window_end_time_relative 1.000000000000
window_begin_time_relative 0.000000000000
window_open false
window_selected_functions { 14, { {cpu, Active Thd}, {appl, Adding}, {task, Adding}, {thread, State As Is}, {node, Adding}, {system, Adding}, {workload, Adding}, {from_obj, All}, {to_obj, All}, {tag_msg, All}, {size_msg, All}, {bw_msg, All}, {evt_type, All}, {evt_value, All} } }
window_compose_functions { 9, { {compose_cpu, As Is}, {compose_appl, As Is}, {compose_task, As Is}, {compose_thread, As Is}, {compose_node, As Is}, {compose_system, As Is}, {compose_workload, As Is}, {topcompose1, As Is}, {topcompose2, As Is} } }

################################################################################
< NEW DISPLAYING WINDOW MPI p2p >
################################################################################
window_name MPI p2p
window_type single
window_id 2
window_units Nanoseconds
window_level thread
window_end_time_relative 1.000000000000
window_begin_time_relative 0.000000000000
window_open false
window_selected_functions { 14, { {cpu, Active Thd}, {appl, Adding}, {task, Adding}, {thread, Last Evt Val}, {node, Adding}, {system, Adding}, {workload, Adding}, {from_obj, All}, {to_obj, All}, {tag_msg, All}, {size_msg, All}, {bw_msg, All}, {evt_type, =}, {evt_value, All} } }
window_compose_functions { 9, { {compose_cpu, As Is}, {compose_appl, As Is}, {compose_task, As Is}, {compose_thread, As Is}, {compose_node, As Is}, {compose_system, As Is}, {compose_workload, As Is}, {topcompose1, As Is}, {topcompose2, As Is} } }
window_filter_module evt_type 1 50000001
)";

constexpr const char* kExample2Histogram = R"(
< NEW ANALYZER2D >
Analyzer2D.Name: State profile of MPI p2p
Analyzer2D.ControlWindow: 1
Analyzer2D.DataWindow: 2
)";

model::PcfCatalog Pcf(std::vector<std::pair<uint32_t, std::string>> types,
                      std::vector<std::pair<int32_t, std::string>> values = {}) {
  model::PcfCatalog pcf;
  model::PcfEventBlock block;
  for (auto& [t, l] : types) block.types.push_back(model::PcfEventType{"0", t, l, {}});
  for (auto& [v, l] : values) block.values.push_back(model::PcfEventValue{v, l, {}});
  pcf.event_blocks.push_back(block);
  pcf.Finalize();
  return pcf;
}

// A process model of `tasks` tasks with `threads` threads each, one appl, and one node of 4 cpus.
struct Models {
  model::ProcessModel process;
  model::ResourceModel resources{std::vector<uint32_t>{4}};
  Models(uint32_t tasks, uint32_t threads) {
    process.AddAppl(std::vector<std::pair<uint32_t, uint32_t>>(tasks, {threads, 1}));
  }
  CfgContext Context(const model::PcfCatalog* pcf = nullptr) const {
    return CfgContext{&process, &resources, pcf, nullptr};
  }
};

// One single window with the given body lines.
std::string Window(const std::string& body, const std::string& name = "w") {
  return std::string(kHeader) + "window_name " + name + "\nwindow_type single\n" + body;
}

CfgFile MustParse(const std::string& text, const CfgContext& ctx) {
  Result<CfgFile> r = ParseCfg(text, "t.cfg", ctx);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? r.value() : CfgFile{};
}

Status MustFail(const std::string& text, const CfgContext& ctx) {
  Result<CfgFile> r = ParseCfg(text, "t.cfg", ctx);
  EXPECT_FALSE(r.ok());
  return r.ok() ? Status::Ok() : r.status();
}

TEST(CfgReaderTest, Example1TimelineOfSection7) {
  Models m(2, 1);
  model::PcfCatalog pcf = Pcf({{50000001, "MPI Point-to-point"}});
  CfgFile f = MustParse(kExample1, m.Context(&pcf));
  ASSERT_EQ(f.windows.size(), 1u);
  const semantic::WindowSpec& w = f.windows[0];
  EXPECT_EQ(w.name, "MPI p2p");
  EXPECT_EQ(w.level, Level::kThread);
  EXPECT_EQ(w.unit, model::TimeUnit::kUs);
  EXPECT_EQ(semantic::SlotFunction(w, Slot::kThread).name, "Last Evt Val");
  EXPECT_EQ(w.functions[static_cast<size_t>(Slot::kTask)].name, "");  // default Adding
  EXPECT_EQ(w.range, (semantic::TimeRange{true, 0, 1}));
  EXPECT_TRUE(w.filter.logical);
  EXPECT_FALSE(w.filter.physical);
  EXPECT_EQ(w.filter.event_type.op, CriterionOp::kEqual);
  EXPECT_EQ(w.filter.event_type.values, std::vector<double>{50000001});
  EXPECT_EQ(w.filter.event_value.op, CriterionOp::kAll);
  for (const auto& sel : w.selected) EXPECT_TRUE(sel.empty());
  EXPECT_FALSE(w.derived);
  const WindowDisplay& d = f.window_info[0].display;
  EXPECT_EQ(d.maximum_y, 200);
  EXPECT_EQ(d.minimum_y, 1);
  EXPECT_EQ(d.draw_time, DrawMode::kLast);
  EXPECT_EQ(d.draw_rows, DrawMode::kMaximum);
  EXPECT_EQ(d.color, ColorMode::kCode);
  EXPECT_TRUE(d.comm_lines);
  EXPECT_EQ(d.height, 115);
  EXPECT_EQ(f.description, std::vector<std::string>{"Last MPI point-to-point call per thread."});
  EXPECT_TRUE(f.notices.empty());
}

// Parallax's palette rides in a comment line, which Paraver skips: read, written back, and an
// unknown name is a notice (Paraver's palette is used).
TEST(CfgReaderTest, PaletteCommentLine) {
  Models m(2, 1);
  model::PcfCatalog pcf = Pcf({{50000001, "MPI Point-to-point"}});
  std::string text = kExample1;
  text.insert(text.find('\n') + 1, "# parallax: palette colorblind\r\n");
  CfgFile f = MustParse(text, m.Context(&pcf));
  EXPECT_EQ(f.palette, "colorblind");
  EXPECT_TRUE(f.notices.empty());
  const std::string written = WriteCfg(f);
  EXPECT_NE(written.find("\n# parallax: palette colorblind\n"), std::string::npos) << written;
  EXPECT_EQ(MustParse(written, m.Context(&pcf)).palette, "colorblind");
  EXPECT_EQ(MustParse(kExample1, m.Context(&pcf)).palette, "");
  std::string odd = kExample1;
  odd.insert(odd.find('\n') + 1, "# parallax: palette rainbow\n");
  CfgFile g = MustParse(odd, m.Context(&pcf));
  EXPECT_EQ(g.palette, "");
  ASSERT_EQ(g.notices.size(), 1u);
  EXPECT_NE(g.notices[0].text.find("unknown palette 'rainbow'"), std::string::npos);
}

TEST(CfgReaderTest, Example1FollowsTheLabelToAnotherType) {
  Models m(2, 1);
  model::PcfCatalog pcf = Pcf({{50000099, "MPI Point-to-point"}});
  CfgFile f = MustParse(kExample1, m.Context(&pcf));
  EXPECT_EQ(f.windows[0].filter.event_type.values, std::vector<double>{50000099});
  // The file's own numbers stay in the CfgWindow, so the writer writes them again.
  EXPECT_EQ(f.window_info[0].events.types, std::vector<double>{50000001});
}

TEST(CfgReaderTest, Example2WindowsOfSection8) {
  Models m(2, 1);
  CfgFile f = MustParse(kExample2Windows, m.Context());
  ASSERT_EQ(f.windows.size(), 2u);
  EXPECT_EQ(f.windows[0].name, "States");
  EXPECT_EQ(f.windows[0].unit, model::TimeUnit::kNs);
  EXPECT_EQ(semantic::SlotFunction(f.windows[0], Slot::kThread).name, "State As Is");
  EXPECT_EQ(f.windows[0].filter, filter::FilterSpec{});
  EXPECT_FALSE(f.window_info[0].display.open);
  EXPECT_EQ(f.window_info[0].display.maximum_y, 20);
  EXPECT_EQ(f.windows[1].name, "MPI p2p");
  EXPECT_EQ(f.windows[1].filter.event_type.values, std::vector<double>{50000001});
}

TEST(CfgReaderTest, HistogramKeysOfSection8) {
  Models m(2, 1);
  CfgFile f = MustParse(std::string(kExample2Windows) + kExample2Histogram +
                            "Analyzer2D.Statistic: Average value\n"
                            "Analyzer2D.ComputeYScale: False\n"
                            "Analyzer2D.Minimum: 0.000000000000\n"
                            "Analyzer2D.Maximum: 20.000000000000\n"
                            "Analyzer2D.Delta: 1.000000000000\n"
                            "Analyzer2D.Parameters: 4 -1 1 -2 2\n"
                            "Analyzer2D.PixelSize: 1\n",
                        m.Context());
  ASSERT_EQ(f.histograms.size(), 1u);
  const HistogramSpec& h = f.histograms[0].spec;
  EXPECT_EQ(h.name, "State profile of MPI p2p");
  EXPECT_EQ(h.control, 0);
  EXPECT_EQ(h.data, 1);
  EXPECT_EQ(h.statistic, "Average value");
  EXPECT_FALSE(h.compute_y_scale);
  EXPECT_TRUE(h.use_fixed_delta);  // analysis.md §2.3: no NumColumns line
  EXPECT_EQ(h.maximum, 20);
  EXPECT_EQ(h.parameters, (std::vector<double>{-1, 1, -2, 2}));
  EXPECT_EQ(f.histograms[0].gui_lines, (std::vector<std::string>{"Analyzer2D.PixelSize: 1"}));
}

TEST(CfgReaderTest, BadHistogramKeyDropsTheHistogramAndKeepsTheWindows) {
  Models m(2, 1);
  CfgFile f = MustParse(std::string(kExample2Windows) + kExample2Histogram +
                            "Analyzer2D.Minimum: @histlo@\nwindow_name ignored\n",
                        m.Context());
  EXPECT_TRUE(f.histograms.empty());
  EXPECT_EQ(f.windows.size(), 2u);
  EXPECT_NE(f.histogram_error.find("Analyzer2D.Minimum: expected a number"), std::string::npos)
      << f.histogram_error;
}

// --- Tokenisation (cfg-format.md §3.3) -------------------------------------------------------

TEST(CfgReaderTest, SemanticModuleExamplesOfSection33) {
  Models m(2, 1);
  CfgFile f = MustParse(
      Window(
          "window_selected_functions { 1, { {thread, Given State} } }\n"
          "window_compose_functions { 1, { {compose_thread, Select Range} } }\n"
          "window_semantic_module thread Given State { 1, { 2 3.000000000000 5.000000000000 } }\n"
          "window_semantic_module compose_thread Select Range { 2, { 1 10.000000000000, 1 "
          "2.000000000000 } }\n"),
      m.Context());
  const semantic::WindowSpec& w = f.windows[0];
  EXPECT_EQ(w.functions[static_cast<size_t>(Slot::kThread)],
            (semantic::FunctionSpec{"Given State", {{3, 5}}}));
  EXPECT_EQ(w.functions[static_cast<size_t>(Slot::kComposeThread)],
            (semantic::FunctionSpec{"Select Range", {{10}, {2}}}));
}

TEST(CfgReaderTest, SemanticModuleForAnotherFunctionIsIgnoredWithANotice) {
  Models m(2, 1);
  CfgFile f = MustParse(Window("window_semantic_module thread Given State { 1, { 1 3.0 } }\n"),
                        m.Context());
  EXPECT_EQ(f.windows[0].functions[static_cast<size_t>(Slot::kThread)].name, "");
  ASSERT_EQ(f.notices.size(), 1u);
  EXPECT_EQ(f.notices[0].line, 6u);
}

TEST(CfgReaderTest, FunctionListNeedsExactlyOneSpaceAfterTheComma) {
  Models m(2, 1);
  // Without the space the first letter of the name is lost, as in Paraver.
  Status s =
      MustFail(Window("window_selected_functions { 1, { {thread,Last Evt Val} } }\n"), m.Context());
  EXPECT_EQ(s.message(), "unsupported: ast Evt Val at line 6");
  // With two spaces the name starts with a space.
  s = MustFail(Window("window_selected_functions { 1, { {thread,  Useful} } }\n"), m.Context());
  EXPECT_EQ(s.message(), "unsupported:  Useful at line 6");
}

TEST(CfgReaderTest, FunctionListReadsOnlyTheAnnouncedEntries) {
  Models m(2, 1);
  CfgFile f =
      MustParse(Window("window_selected_functions { 1, { {thread, Useful}, {task, Nonsense} } }\n"),
                m.Context());
  EXPECT_EQ(f.windows[0].functions[static_cast<size_t>(Slot::kThread)].name, "Useful");
  EXPECT_EQ(f.windows[0].functions[static_cast<size_t>(Slot::kTask)].name, "");
}

TEST(CfgReaderTest, ComposeLevelsAndExtraTopCompose) {
  Models m(2, 1);
  CfgFile f = MustParse(
      Window(
          "window_compose_functions { 3, { {thread, Sign}, {topcompose, Abs}, {extratopcompose1, "
          "Prod} } }\n"
          "window_semantic_module extratopcompose1 Prod { 1, { 1 4.000000000000 } }\n"),
      m.Context());
  const semantic::WindowSpec& w = f.windows[0];
  EXPECT_EQ(w.functions[static_cast<size_t>(Slot::kComposeThread)].name, "Sign");
  EXPECT_EQ(w.functions[static_cast<size_t>(Slot::kTopCompose2)].name, "Abs");
  ASSERT_EQ(w.extra_composes.size(), 1u);
  EXPECT_EQ(w.extra_composes[0], (semantic::FunctionSpec{"Prod", {{4}}}));
}

// --- Symbol picking (§3.4) ------------------------------------------------------------------

TEST(CfgReaderTest, WildcardLabelPicksEveryMatchingType) {
  Models m(2, 1);
  model::PcfCatalog pcf =
      Pcf({{50000001, "MPI Point-to-point"}, {50000002, "MPI Collective Comm"}, {7, "Other"}});
  CfgFile f = MustParse(Window("window_filter_module evt_type 2 1 2\n"
                               "window_filter_module evt_type_label 2 \"MPI *\" \"Unknown\"\n"),
                        m.Context(&pcf));
  EXPECT_EQ(f.windows[0].filter.event_type.values, (std::vector<double>{50000001, 50000002, 2}));
}

TEST(CfgReaderTest, UnknownOrMissingLabelsKeepTheNumbers) {
  Models m(2, 1);
  model::PcfCatalog pcf = Pcf({{10, "Ten"}});
  CfgFile f = MustParse(Window("window_filter_module evt_type 3 1 2 3\n"
                               "window_filter_module evt_type_label 3 \"Ten\" \"\" \"Absent\"\n"),
                        m.Context(&pcf));
  EXPECT_EQ(f.windows[0].filter.event_type.values, (std::vector<double>{10, 2, 3}));
  CfgFile no_pcf = MustParse(Window("window_filter_module evt_type 1 1\n"
                                    "window_filter_module evt_type_label 1 \"Ten\"\n"),
                             m.Context());
  EXPECT_EQ(no_pcf.windows[0].filter.event_type.values, std::vector<double>{1});
}

TEST(CfgReaderTest, ValueLabelsNamingSeveralValuesInsertAllWithANotice) {
  Models m(2, 1);
  model::PcfCatalog pcf;
  pcf.event_blocks.push_back({{{"0", 1, "A", {}}}, {}, {{5, "read()", {}}, {6, "x", {}}}});
  pcf.event_blocks.push_back({{{"0", 2, "B", {}}}, {}, {{9, "read()", {}}}});
  pcf.Finalize();
  CfgFile f = MustParse(Window("window_filter_module evt_value 2 1.000000000000 0.000000000000\n"
                               "window_filter_module evt_value_label 2 \"read()\" \"Unknown\"\n"),
                        m.Context(&pcf));
  EXPECT_EQ(f.windows[0].filter.event_value.values, (std::vector<double>{5, 9, 0}));
  ASSERT_EQ(f.notices.size(), 1u);
  EXPECT_NE(f.notices[0].text.find("names 2 event values"), std::string::npos);
}

TEST(CfgReaderTest, LabelCountDifferentFromNumberCountIsAnError) {
  Models m(2, 1);
  model::PcfCatalog pcf = Pcf({{10, "Ten"}});
  Status s = MustFail(Window("window_filter_module evt_type 2 1 2\n"
                             "window_filter_module evt_type_label 1 \"Ten\"\n"),
                      m.Context(&pcf));
  EXPECT_EQ(s.message(), "window_filter_module evt_type_label: 1 labels for 2 event types");
  EXPECT_EQ(s.where().line, 7u);
  EXPECT_FALSE(s.hint().empty());
}

TEST(CfgReaderTest, NoFilteredEventInTheTraceIsAFlagNotAnError) {
  Models m(2, 1);
  std::vector<uint32_t> in_trace = {40000001, 50000001};
  CfgContext ctx = m.Context();
  ctx.trace_event_types = &in_trace;
  std::string absent = Window(
      "window_selected_functions { 1, { {evt_type, =} } }\n"
      "window_filter_module evt_type 1 60000001\n");
  CfgFile f = MustParse(absent, ctx);
  EXPECT_TRUE(f.no_filtered_event_in_trace);
  EXPECT_EQ(f.notices.back().text,
            "None of the events specified in the filter appear in the trace");
  // A second window filtering on an existing type: only a notice about the missing one.
  std::string both = absent +
                     "window_name x\nwindow_type single\n"
                     "window_selected_functions { 1, { {evt_type, =} } }\n"
                     "window_filter_module evt_type 1 50000001\n";
  EXPECT_FALSE(MustParse(both, ctx).no_filtered_event_in_trace);
  // A window with evt_type All disables the check.
  std::string with_all = absent + "window_name y\nwindow_type single\n";
  EXPECT_FALSE(MustParse(with_all, ctx).no_filtered_event_in_trace);
}

TEST(CfgReaderTest, ATypeTheTraceLacksIsNotANoticeWhileAnotherOfTheWindowIsThere) {
  Models m(2, 1);
  std::vector<uint32_t> in_trace = {50000001, 50000002, 50000003};
  CfgContext ctx = m.Context();
  ctx.trace_event_types = &in_trace;
  // An MPI call window (50000001-50000005 as a list): MPI I/O and one-sided are not in the run.
  CfgFile f = MustParse(Window("window_selected_functions { 1, { {evt_type, =} } }\n"
                               "window_filter_module evt_type 5 50000001 50000002 50000003 50000004 50000005\n"),
                        ctx);
  for (const auto& n : f.notices) EXPECT_EQ(n.text.find("event types"), std::string::npos) << n.text;
  EXPECT_FALSE(f.no_filtered_event_in_trace);
  // None of a window's types: one line naming them.
  CfgFile g = MustParse(Window("window_selected_functions { 1, { {evt_type, =} } }\n"
                               "window_filter_module evt_type 2 50000004 50000005\n"),
                        ctx);
  ASSERT_FALSE(g.notices.empty());
  EXPECT_NE(g.notices.front().text.find("none of its event types is in the trace (50000004 50000005)"),
            std::string::npos)
      << g.notices.front().text;
}

// --- Object selection (§3.5) ----------------------------------------------------------------

TEST(CfgReaderTest, ObjectLinesSelectRowsAtEveryLevel) {
  Models m(3, 2);  // one appl, 3 tasks x 2 threads
  CfgFile f = MustParse(Window("window_level task\n"
                               "window_object appl { 1, { All } }\n"
                               "window_object task { 0, 3, { 1, 0, 1 } }\n"
                               "window_object thread { 0, 2, 2, { None, All } }\n"),
                        m.Context());
  const semantic::WindowSpec& w = f.windows[0];
  EXPECT_TRUE(w.selected[static_cast<size_t>(Level::kAppl)].empty());  // all selected
  EXPECT_EQ(w.selected[static_cast<size_t>(Level::kTask)], (std::vector<bool>{true, false, true}));
  EXPECT_EQ(w.selected[static_cast<size_t>(Level::kThread)],
            (std::vector<bool>{true, true, true, true, false, true}));
  ASSERT_EQ(f.window_info[0].objects.size(), 3u);
  EXPECT_TRUE(f.window_info[0].objects[1].numeric);
  EXPECT_FALSE(f.window_info[0].objects[2].numeric);
}

TEST(CfgReaderTest, ObjectLinesBeyondTheTraceAreIgnoredAndShortOnesArePartial) {
  Models m(3, 1);
  CfgFile f = MustParse(Window("window_level thread\n"
                               "window_object node { 32, { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, "
                               "1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 } }\n"
                               "window_object task { 1, 1, { None } }\n"
                               "window_object task { 0, 1, { None } }\n"),
                        m.Context());
  EXPECT_EQ(f.windows[0].selected[static_cast<size_t>(Level::kTask)],
            (std::vector<bool>{false, true, true}));
  EXPECT_EQ(f.notices.size(), 2u);  // node line (1 node) and appl 1 (one appl)
}

TEST(CfgReaderTest, NothingSelectedAtTheWindowLevelRaisesAFlag) {
  Models m(2, 1);
  CfgFile f =
      MustParse(Window("window_level task\nwindow_object task { 0, 2, { 0, 0 } }\n"), m.Context());
  EXPECT_TRUE(f.window_without_objects);
}

TEST(CfgReaderTest, ZoomObjectsAreClamped) {
  Models m(2, 1);
  CfgFile f = MustParse(Window("window_zoom_objects 1 47\n"), m.Context());
  EXPECT_EQ(f.window_info[0].display.zoom_objects, (std::pair<uint32_t, uint32_t>(1, 1)));
}

// --- Derived windows -------------------------------------------------------------------------

constexpr const char* kDerived = R"(#ParaverCFG
ConfigFile.Version: 3.4
ConfigFile.NumWindows: 3
window_name a
window_type single
window_level thread
window_name b
window_type single
window_level task
window_name c
window_type composed
window_factors 2.000000000000 0.500000000000
window_shifts 1 -1
window_operation controlled: clear by
window_identifiers 1 2
window_level thread
window_selected_functions { 5, { {appl, Adding}, {task, Maximum}, {node, Adding}, {system, Adding}, {workload, Adding}, } }
)";

TEST(CfgReaderTest, DerivedWindowsTakeParentsOperationFactorsAndShifts) {
  Models m(2, 2);
  CfgFile f = MustParse(kDerived, m.Context());
  ASSERT_EQ(f.windows.size(), 3u);
  const semantic::WindowSpec& c = f.windows[2];
  EXPECT_TRUE(c.derived);
  EXPECT_EQ(c.parent0, 0);
  EXPECT_EQ(c.parent1, 1);
  EXPECT_EQ(c.factor0, 2);
  EXPECT_EQ(c.factor1, 0.5);
  EXPECT_EQ(c.shift0, 1);
  EXPECT_EQ(c.shift1, -1);
  EXPECT_EQ(c.functions[static_cast<size_t>(Slot::kDerived)].name, "controlled: clear by");
  EXPECT_EQ(c.functions[static_cast<size_t>(Slot::kTask)].name, "Maximum");
  EXPECT_EQ(c.level, Level::kThread);  // not finer than the finest parent
}

TEST(CfgReaderTest, DerivedWindowErrors) {
  Models m(2, 2);
  std::string text = kDerived;
  std::string undefined = text;
  undefined.replace(undefined.find("window_identifiers 1 2"), 22, "window_identifiers 1 3");
  Status s = MustFail(undefined, m.Context());
  EXPECT_EQ(s.message(),
            "window_identifiers: derived window 3 ('c') cannot use window 3: a window can only use "
            "windows "
            "defined before it, so that no cycle is possible");
  EXPECT_EQ(s.where().line, 15u);
  EXPECT_EQ(s.where().column, 22u);
  undefined.replace(undefined.find("window_identifiers 1 3"), 22, "window_identifiers 0 1");
  EXPECT_EQ(MustFail(undefined, m.Context()).message(),
            "window_identifiers: expected a window number in 1..2, found '0'");
  std::string op = text;
  op.replace(op.find("controlled: clear by"), 20, "power");
  EXPECT_EQ(MustFail(op, m.Context()).message(), "unsupported: power at line 14");
  Status filt =
      MustFail(text + "window_selected_functions { 1, { {evt_type, =} } }\n", m.Context());
  EXPECT_EQ(filt.message(), "window_selected_functions: expected a level name, found 'evt_type'");
}

// --- Line endings, old syntax ----------------------------------------------------------------

TEST(CfgReaderTest, CrlfAndTrailingBlanksReadLikeTheCleanFile) {
  Models m(2, 1);
  std::string crlf;
  for (char c : std::string(kExample1)) {
    if (c == '\n')
      crlf += "\r\n";
    else
      crlf += c;
  }
  std::string blanks = kExample1;
  for (const char* key : {"window_level thread", "window_open true", "window_units Microseconds",
                          "window_maximum_y 200.000000000000",
                          "window_filter_module evt_type 1 "
                          "50000001"}) {
    size_t p = blanks.find(key);
    blanks.insert(p + std::string(key).size(), "  ");
  }
  CfgFile clean = MustParse(kExample1, m.Context());
  EXPECT_EQ(MustParse(crlf, m.Context()), clean);
  EXPECT_EQ(MustParse(blanks, m.Context()), clean);
  // Names keep their trailing blanks, as in Paraver.
  EXPECT_EQ(MustParse(Window("", "name "), m.Context()).windows[0].name, "name ");
}

TEST(CfgReaderTest, OldSyntax) {
  Models m(2, 1);
  std::string old =
      "version 3.4\nnumber_of_windows 1\nbegin_description\nold file\nend_description\n"
      "window_name old\nwindow_type single\nwindow_level task\n"
      "window_selected_functions { 1, { {thread, Useful} } }\n"
      "window_drawmode 5\nwindow_scale_relative 0.500000000000\n";
  CfgFile f = MustParse(old, m.Context());
  ASSERT_EQ(f.windows.size(), 1u);
  EXPECT_EQ(f.windows[0].level, Level::kTask);
  EXPECT_EQ(f.windows[0].range.end, 0.5);
  EXPECT_EQ(f.window_info[0].display.draw_time, DrawMode::kAverage);
  EXPECT_EQ(f.description, std::vector<std::string>{"old file"});
  EXPECT_FALSE(ParseCfg("window_name x\nwindow_type single\n", "t.cfg", m.Context()).ok());
}

TEST(CfgReaderTest, IgnoredKeysAreFineAndUnknownKeysGiveNotices) {
  Models m(2, 1);
  CfgFile f = MustParse(Window("window_id 7\nwindow_number_of_row 3\nwindow_end_time 5\n"
                               "cfg4d Semantic Maximum|Timeline color (max)\n"
                               "something_else 1\n"),
                        m.Context());
  ASSERT_EQ(f.notices.size(), 1u);
  EXPECT_EQ(f.notices[0].text, "ignored: 'something_else' is not a cfg key");
  EXPECT_EQ(f.window_info[0].display.cfg4d,
            std::vector<std::string>{"cfg4d Semantic Maximum|Timeline color (max)"});
}

TEST(CfgReaderTest, AbsoluteTimes) {
  Models m(2, 1);
  CfgFile f = MustParse(Window("window_begin_time 100\nwindow_stop_time 900\n"), m.Context());
  EXPECT_EQ(f.windows[0].range, (semantic::TimeRange{false, 100, 900}));
  Status s = MustFail(Window("window_begin_time 100\nwindow_end_time_relative 1.0\n"), m.Context());
  EXPECT_EQ(s.message(), "unsupported: window_end_time_relative at line 7");
}

// --- Malformed input -------------------------------------------------------------------------

struct BadCase {
  std::string body;
  std::string message;
  uint64_t column;
};

TEST(CfgReaderTest, MalformedValuesGiveKeyLineColumnAndHint) {
  Models m(2, 1);
  std::vector<BadCase> cases = {
      {"window_level threads", "window_level: expected a level name, found 'threads'", 14},
      {"window_open yes", "window_open: expected 'true' or 'false', found 'yes'", 13},
      {"window_logical_filtered True",
       "window_logical_filtered: expected 'true' or 'false', found 'True'", 25},
      {"window_maximum_y 2x", "window_maximum_y: expected a number, found '2x'", 18},
      {"window_width 70000", "window_width: expected an integer in 0..65535, found '70000'", 14},
      {"window_gradient_function gradient_function_cubic",
       "window_gradient_function: expected a gradient function, found "
       "'gradient_function_cubic'",
       26},
      {"window_factors 1.0 1.0", "", 0},  // ignored on a single window
      {"window_selected_functions { x, { {thread, Useful} } }",
       "window_selected_functions: expected a count, found 'x'", 29},
      {"window_selected_functions { 2, { {thread, Useful} } }",
       "window_selected_functions: expected entry 2 of 2, found ' } }'", 50},
      {"window_selected_functions { 1, { {threadd, Useful} } }",
       "window_selected_functions: expected a level or filter name, found 'threadd'", 35},
      {"window_selected_functions { 1, { {thread, Adding} } }",
       "window_selected_functions: function 'Adding' cannot be used at level thread", 43},
      {"window_selected_functions { 1, { {thread, Magic} } }", "unsupported: Magic at line 6", 43},
      {"window_selected_functions { 1, { {evt_type, ~} } }", "unsupported: ~ at line 6", 45},
      {"window_compose_functions { 1, { {compose_thread, Sine} } }", "unsupported: Sine at line 6",
       50},
      {"window_semantic_module thread Given State { 1, { 2 3.0 } }",
       "window_semantic_module: expected a number, found '}'", 56},
      {"window_semantic_module thread Given State { 1, { 1 x } }",
       "window_semantic_module: expected a number, found 'x'", 52},
      {"window_filter_module evt_type 2 1", "window_filter_module: expected 2 values, found ' 1'",
       32},
      {"window_filter_module evt_type 1 1.5",
       "window_filter_module: expected an integer, found '1.5'", 33},
      {"window_filter_module evt_types 1 1",
       "window_filter_module: expected a filter kind, found 'evt_types'", 22},
      {"window_filter_module evt_type_label 1 MPI",
       "window_filter_module: expected a label in double quotes, found 'MPI'", 39},
      {"window_object appl { 1, { All }", "window_object: expected ' }' at the end, found ''", 32},
      {"window_object task { 2, { 1, 1 } }",
       "window_object: expected 2 number(s) before the entries, found 'task { 2, { 1, 1 } }'", 15},
      {"window_object thread { 0, 0, 1, { 2 } }", "window_object: expected 1 or 0, found '2'", 35},
      {"window_object appl { 1, { All, None } }",
       "window_object: expected 1 entries, found "
       "'appl { 1, { All, None } }'",
       15},
      {"window_identifiers 1", "", 0},  // ignored on a single window
      {"window_type double", "window_type: expected 'single' or 'composed', found 'double'", 13},
  };
  for (const BadCase& c : cases) {
    Result<CfgFile> r = ParseCfg(Window(c.body + "\n"), "t.cfg", m.Context());
    if (c.message.empty()) {
      EXPECT_TRUE(r.ok()) << c.body << ": " << r.status().ToString();
      continue;
    }
    ASSERT_FALSE(r.ok()) << c.body;
    EXPECT_EQ(r.status().message(), c.message) << c.body;
    EXPECT_EQ(r.status().where().file, "t.cfg");
    EXPECT_EQ(r.status().where().line, 6u) << c.body;
    EXPECT_EQ(r.status().where().column, c.column) << c.body;
    EXPECT_FALSE(r.status().hint().empty()) << c.body;
  }
}

TEST(CfgReaderTest, ResourceLevelsNeedAResourceModel) {
  Models m(2, 1);
  CfgContext no_resources = m.Context();
  no_resources.resources = nullptr;
  Status s = MustFail(Window("window_level node\n"), no_resources);
  EXPECT_EQ(s.message(),
            "window_level: level 'node' needs a resource model and the trace has none");
  EXPECT_TRUE(ParseCfg(Window("window_level node\n"), "t.cfg", m.Context()).ok());
}

TEST(CfgReaderTest, FilesWithoutWindowsOrNotCfgsFail) {
  Models m(2, 1);
  EXPECT_EQ(MustFail(kHeader, m.Context()).message(), "the cfg defines no window");
  EXPECT_EQ(MustFail("hello\n", m.Context()).message(), "not a Paraver cfg file");
  Status desc = MustFail(std::string(kHeader) +
                             "ConfigFile.BeginDescription\nwindow_type single\n"
                             "ConfigFile.EndDescription\n",
                         m.Context());
  EXPECT_EQ(desc.message(), "unsupported: window_type at line 5");
}

// --- Writer ----------------------------------------------------------------------------------

TEST(CfgWriterTest, WritesParaverLayoutAndReadsBackEqual) {
  Models m(2, 1);
  model::PcfCatalog pcf = Pcf({{50000099, "MPI Point-to-point"}});
  CfgFile f = MustParse(kExample1, m.Context(&pcf));
  std::string text = WriteCfg(f);
  for (const char* line :
       {"#ParaverCFG\nConfigFile.Version: 3.4\nConfigFile.NumWindows: 1\n",
        "ConfigFile.BeginDescription\nLast MPI point-to-point call per thread.\n"
        "ConfigFile.EndDescription\n",
        "< NEW DISPLAYING WINDOW MPI p2p >\n", "window_maximum_y 200.000000000000\n",
        "window_object appl { 1, { All } }\n", "window_drawmode draw_last\n",
        "window_filter_module evt_type 1 50000001\n",
        "window_filter_module evt_type_label 1 \"MPI Point-to-point\"\n", "{thread, Last Evt Val}",
        "{evt_type, =}"})
    EXPECT_NE(text.find(line), std::string::npos) << line << "\n" << text;
  EXPECT_EQ(MustParse(text, m.Context(&pcf)), f);
  CfgFile derived = MustParse(kDerived, m.Context());
  std::string d = WriteCfg(derived);
  EXPECT_NE(d.find("window_identifiers 1 2\n"), std::string::npos);
  EXPECT_NE(d.find("window_shifts 1 -1\n"), std::string::npos);
  EXPECT_EQ(MustParse(d, m.Context()), derived);
}

TEST(CfgWriterTest, ParametersAndSelectionsRoundTrip) {
  Models m(3, 2);
  CfgFile f = MustParse(
      Window("window_level task\n"
             "window_object task { 0, 3, { 1, 0, 1 } }\n"
             "window_object thread { 0, 2, 2, { None, All } }\n"
             "window_selected_functions { 2, { {thread, Given State}, {from_obj, =} } }\n"
             "window_compose_functions { 2, { {topcompose2, Select Range}, {extratopcompose1, Abs} "
             "} }\n"
             "window_semantic_module thread Given State { 1, { 3 1.000000000000 3.000000000000 "
             "9223372036854775808.000000000000 } }\n"
             "window_semantic_module topcompose2 Select Range { 2, { 1 40.000000000000, 1 "
             "0.000000000000 } }\n"
             "window_filter_module from_obj 2 1 3\n"
             "window_begin_time 5\nwindow_stop_time 50\nwindow_noncolor_mode false\n"
             "window_compute_y_max\n"),
      m.Context());
  EXPECT_EQ(f.windows[0].filter.from.values, (std::vector<double>{0, 2}));
  std::string text = WriteCfg(f);
  EXPECT_NE(text.find("window_filter_module from_obj 2 1 3\n"), std::string::npos) << text;
  EXPECT_NE(text.find("window_object thread { 0, 2, 2, { None, All } }\n"), std::string::npos);
  EXPECT_EQ(MustParse(text, m.Context()), f);
  EXPECT_EQ(WriteCfg(MustParse(text, m.Context())), text);
}

}  // namespace
}  // namespace parallax::cfg
