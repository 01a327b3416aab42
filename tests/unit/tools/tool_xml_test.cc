// Reading paramedir's XML parameter files: every key, the reference's layouts (a first child
// element right after the opening tag, text and elements mixed in <states>), and located
// errors for unknown keys and bad values.

#include <gtest/gtest.h>

#include "include/parallax/tools.h"

namespace parallax {
namespace {

TEST(ToolXmlTest, ReadsEveryCutterKey) {
  auto r = ParseToolXml(
      "<?xml "
      "version=\"1.0\"?>\n<config><cutter><tasks>1,3-5</tasks><max_trace_size>0</max_trace_size>"
      "<by_time>0</by_time><minimum_time>5</minimum_time><maximum_time>9</maximum_time>"
      "<minimum_time_percentage>10</minimum_time_percentage><maximum_time_percentage>20</"
      "maximum_time_percentage>"
      "<original_time>0</original_time><break_states>0</break_states><remove_first_states>1</"
      "remove_first_states>"
      "<remove_last_states>1</remove_last_states><keep_events>1</keep_events></cutter></config>\n",
      "c.xml");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const CutOptions& c = r.value()[0].cut;
  ASSERT_EQ(c.tasks.size(), 2u);
  EXPECT_EQ(c.tasks[1].first, 3u);
  EXPECT_EQ(c.tasks[1].last, 5u);
  EXPECT_FALSE(c.by_time);
  EXPECT_EQ(c.begin, 5u);
  EXPECT_EQ(c.end, 9u);
  EXPECT_EQ(c.begin_percent, 10);
  EXPECT_EQ(c.end_percent, 20);
  EXPECT_FALSE(c.original_time);
  EXPECT_FALSE(c.break_states);
  EXPECT_TRUE(c.remove_first_states);
  EXPECT_TRUE(c.remove_last_states);
  EXPECT_TRUE(c.keep_events);
}

TEST(ToolXmlTest, FirstChildIsReadEvenWithoutNewline) {
  // The reference skips the first child of <types>; here it is the type itself.
  auto r = ParseToolXml("<config><filter><types><type>50000001</type></types></filter></config>",
                        "f.xml");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r.value()[0].filter.types.size(), 1u);
  EXPECT_EQ(r.value()[0].filter.types[0].type, 50000001u);
}

TEST(ToolXmlTest, StatesTextAndMinimumTime) {
  auto r = ParseToolXml(
      "<config><filter><states>Running, Idle\n<min_state_time>7</min_state_time>\n</states>"
      "<types "
      "use=\"discard\"><type>10-20</type><type>30<value>1</value><value>2</value></type></types>"
      "<comms>100</comms></filter></config>",
      "f.xml");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const FilterOptions& f = r.value()[0].filter;
  EXPECT_FALSE(f.all_states);
  EXPECT_EQ(f.state_names, (std::vector<std::string>{"Running", "Idle"}));
  EXPECT_EQ(f.min_state_time, 7u);
  EXPECT_TRUE(f.discard_given_types);
  EXPECT_EQ(f.types[0].last_type, 20u);
  EXPECT_EQ(f.types[1].values, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(f.min_comm_size, 100);
}

TEST(ToolXmlTest, SoftwareCountersLists) {
  auto r = ParseToolXml(
      "<config><software_counters><range><by_intervals_vs_by_states>1</by_intervals_vs_by_states>"
      "<sampling_interval>100</sampling_interval><count_events>1;2</count_events>"
      "<acumm_events>3</acumm_events></range><algorithm><global_counters>1</global_counters>"
      "<keep_events>4;5</keep_events></algorithm></software_counters></config>",
      "s.xml");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const SoftCountersOptions& s = r.value()[0].softcounters;
  EXPECT_TRUE(s.by_intervals);
  EXPECT_EQ(s.sampling_interval, 100u);
  ASSERT_EQ(s.count_types.size(), 2u);
  EXPECT_EQ(s.count_types[1].type, 2u);
  EXPECT_EQ(s.accum_types[0].type, 3u);
  EXPECT_TRUE(s.global_counters);
  EXPECT_EQ(s.keep_types, (std::vector<uint64_t>{4, 5}));
}

TEST(ToolXmlTest, UnknownKeyNamesFileLineAndKey) {
  auto r = ParseToolXml(
      "<config>\n<cutter>\n<by_time>1</by_time>\n<begin>5</begin>\n</cutter>\n</config>\n",
      "c.xml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().where().file, "c.xml");
  EXPECT_EQ(r.status().where().line, 4u);
  EXPECT_NE(r.status().message().find("unknown key <begin> in <cutter>"), std::string::npos);
  EXPECT_NE(r.status().hint().find("minimum_time"), std::string::npos);
}

TEST(ToolXmlTest, BadValueNamesTheKey) {
  auto r = ParseToolXml(
      "<config>\n<cutter>\n<original_time>yes</original_time>\n</cutter>\n</config>\n", "c.xml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().where().line, 3u);
  EXPECT_NE(r.status().message().find("<original_time>: expected 0 or 1"), std::string::npos);
}

TEST(ToolXmlTest, MalformedXmlIsLocated) {
  auto r = ParseToolXml("<config>\n<cutter>\n<by_time>1</by_tim>\n</cutter></config>", "c.xml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().where().line, 3u);
  EXPECT_NE(r.status().message().find("not well-formed XML"), std::string::npos);
}

TEST(ToolXmlTest, EmptyStatesIsAnError) {
  auto r = ParseToolXml("<config><filter><states></states></filter></config>", "f.xml");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("<states> names no state"), std::string::npos);
}

}  // namespace
}  // namespace parallax
