// The filter module (semantics.md §3) on hand-made events and communications.

#include "src/filter/filter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "src/io/prv/prv_reader.h"

namespace parallax::filter {
namespace {

using Op = CriterionOp;

TEST(Criterion, EveryOperator) {
  EXPECT_TRUE(Passes({Op::kAll, {}}, 5));
  EXPECT_FALSE(Passes({Op::kNone, {5}}, 5));
  EXPECT_TRUE(Passes({Op::kEqual, {3, 5}}, 5));
  EXPECT_FALSE(Passes({Op::kEqual, {3}}, 5));
  EXPECT_TRUE(Passes({Op::kNotEqual, {3, 4}}, 5));
  EXPECT_FALSE(Passes({Op::kNotEqual, {5}}, 5));
  EXPECT_TRUE(Passes({Op::kGreater, {4}}, 5));
  EXPECT_FALSE(Passes({Op::kGreater, {5}}, 5));
  EXPECT_TRUE(Passes({Op::kLess, {6}}, 5));
  EXPECT_TRUE(Passes({Op::kRange, {5, 7}}, 5));
  EXPECT_FALSE(Passes({Op::kRange, {6, 7}}, 5));
  // An empty list fails every criterion but All.
  for (Op op : {Op::kNone, Op::kEqual, Op::kNotEqual, Op::kGreater, Op::kLess, Op::kRange})
    EXPECT_FALSE(Passes({op, {}}, 5)) << CriterionName(op);
  CriterionOp parsed;
  ASSERT_TRUE(ParseCriterionName("[x,y]", &parsed));
  EXPECT_EQ(parsed, Op::kRange);
  EXPECT_FALSE(ParseCriterionName("==", &parsed));
}

class FilterTest : public ::testing::Test {
 protected:
  // Two nodes of one cpu; comm 0 inside node 1 (1.1.1 -> 1.1.2), comm 1 across nodes
  // (1.1.1 -> 1.2.1) received physically before logically.
  void SetUp() override {
    io::PrvReadOptions o;
    o.threads = 1;
    auto r = io::ParsePrv(
        "#Paraver (x):1000_ns:2(2,1):1:2(2:1,1:2)\n"
        "1:1:1:1:1:0:1000:1\n"
        "3:1:1:1:1:100:110:2:1:1:2:200:190:64:7\n"
        "3:1:1:1:1:300:310:3:1:2:1:500:520:4096:9\n",
        "t.prv", o);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    trace_ = std::move(r.value());
  }
  Filter Make(FilterSpec spec, model::Level level = model::Level::kThread) {
    return Filter(std::move(spec), trace_.header, trace_.store, nullptr, level, model::TimeUnit::kNs);
  }
  io::PrvTrace trace_;
};

TEST_F(FilterTest, LogicalAndPhysical) {
  FilterSpec logical;  // default: L on, P off
  auto f = Make(logical);
  EXPECT_TRUE(f.PassComm(0, true, false));    // logical send
  EXPECT_FALSE(f.PassComm(0, false, false));  // physical send
  EXPECT_FALSE(f.PassComm(0, false, true));   // physical receive 190 < logical 200
  EXPECT_TRUE(f.PassComm(1, false, true));    // physical receive 520 >= logical 500 stands for it
  FilterSpec none;
  none.logical = false;
  EXPECT_FALSE(Make(none).PassComm(0, true, false));
  FilterSpec phys;
  phys.logical = false;
  phys.physical = true;
  EXPECT_TRUE(Make(phys).PassComm(0, false, false));
  EXPECT_FALSE(Make(phys).PassComm(0, true, false));
}

TEST_F(FilterTest, IntraAndInterNode) {
  FilterSpec intra;
  intra.inter_node = false;
  EXPECT_TRUE(Make(intra).PassComm(0, true, false));
  EXPECT_FALSE(Make(intra).PassComm(1, true, false));
  FilterSpec inter;
  inter.intra_node = false;
  EXPECT_FALSE(Make(inter).PassComm(0, true, false));
  EXPECT_TRUE(Make(inter).PassComm(1, true, false));
}

TEST_F(FilterTest, PartnersTagSizeBandwidth) {
  FilterSpec to_task1;  // receiver task (0-based) at a TASK-level window
  to_task1.to = {Op::kEqual, {1}};
  EXPECT_FALSE(Make(to_task1, model::Level::kTask).PassComm(0, true, false));
  EXPECT_TRUE(Make(to_task1, model::Level::kTask).PassComm(1, true, false));
  FilterSpec from_or;  // OR: a matching sender accepts whatever the rest says
  from_or.from_to_and = false;
  from_or.from = {Op::kEqual, {0}};
  from_or.to = {Op::kNone, {}};
  EXPECT_TRUE(Make(from_or).PassComm(0, true, false));
  FilterSpec tag;
  tag.tag = {Op::kEqual, {9}};
  EXPECT_FALSE(Make(tag).PassComm(0, true, false));
  EXPECT_TRUE(Make(tag).PassComm(1, true, false));
  FilterSpec size;
  size.size = {Op::kGreater, {100}};
  EXPECT_FALSE(Make(size).PassComm(0, true, false));
  EXPECT_TRUE(Make(size).PassComm(1, true, false));
  FilterSpec bw;  // comm 1: L on, lrecv 500 <= precv 520, P off: 4096 bytes over precv - lsend = 220 ns
  bw.bandwidth = {Op::kRange, {18.6, 18.7}};
  EXPECT_TRUE(Make(bw).PassComm(1, true, false));
  EXPECT_FALSE(Make(bw).PassComm(0, true, false));
}

TEST_F(FilterTest, EventsTypeAndValue) {
  FilterSpec and_spec;
  and_spec.event_type = {Op::kEqual, {7}};
  and_spec.event_value = {Op::kGreater, {10}};
  auto f = Make(and_spec);
  EXPECT_TRUE(f.PassEvent(7, 11));
  EXPECT_FALSE(f.PassEvent(7, 10));
  EXPECT_FALSE(f.PassEvent(8, 11));
  FilterSpec or_spec = and_spec;
  or_spec.type_value_and = false;  // OR: a matching type is enough
  auto g = Make(or_spec);
  EXPECT_TRUE(g.PassEvent(7, 1));
  EXPECT_TRUE(g.PassEvent(8, 11));
  EXPECT_FALSE(g.PassEvent(8, 1));
}

// The few passing types a fast row may compare with, and only when no value can widen them;
// each answer agrees with PassEvent on every type from 0 to 100 and on large ones.
TEST_F(FilterTest, FewPassingTypes) {
  auto few = [&](const FilterSpec& spec) {
    auto f = Make(spec);
    std::vector<uint32_t> types;
    if (!f.FewPassingTypes(8, &types)) return std::string("no");
    for (uint32_t t = 0; t <= 100; ++t)
      EXPECT_EQ(f.PassEvent(t, 5), std::binary_search(types.begin(), types.end(), t)) << t;
    for (uint32_t t : {50000001u, 50000003u, 50000009u, UINT32_MAX})
      EXPECT_EQ(f.PassEvent(t, 5), std::binary_search(types.begin(), types.end(), t)) << t;
    std::string out;
    for (uint32_t t : types) out += std::to_string(t) + " ";
    return out;
  };
  FilterSpec s;
  EXPECT_EQ(few(s), "no");  // every type passes
  s.event_type = {Op::kEqual, {20, 10, 10, 10.5, -3}};
  EXPECT_EQ(few(s), "10 20 ");  // sorted, once each; no type is 10.5 or -3
  s.event_type = {Op::kRange, {50000001, 50000005}};
  EXPECT_EQ(few(s), "50000001 50000002 50000003 50000004 50000005 ");
  s.event_type = {Op::kRange, {2.5, 4}};
  EXPECT_EQ(few(s), "3 4 ");
  s.event_type = {Op::kRange, {1, 60000000}};
  EXPECT_EQ(few(s), "no");  // too many
  s.event_type = {Op::kEqual, {1, 2, 3, 4, 5, 6, 7, 8, 9}};
  EXPECT_EQ(few(s), "no");
  s.event_type = {Op::kNone, {}};
  EXPECT_EQ(few(s), "");  // none passes
  s.event_type = {Op::kNotEqual, {7}};
  EXPECT_EQ(few(s), "no");
  s.event_type = {Op::kEqual, {7}};
  s.event_value = {Op::kGreater, {10}};
  EXPECT_EQ(few(s), "no");  // the value decides too
  s.event_value = {Op::kAll, {1}};
  EXPECT_EQ(few(s), "7 ");  // "and" with a value criterion that passes everything
  s.type_value_and = false;
  EXPECT_EQ(few(s), "no");  // "or" with it: every event passes
  s.event_value = {};
  EXPECT_EQ(few(s), "7 ");
}

}  // namespace
}  // namespace parallax::filter
