// The trace-event JSON reader on hostile input (issue 39): nesting beyond kMaxJsonNesting, slice
// ends beyond the 64-bit nanosecond range, otherData that would take more memory than the budget.

#include <gtest/gtest.h>

#include <string>

#include "src/io/json/json_trace.h"
#include "src/io/json/member_dom.h"

namespace parallax::io {
namespace {

const char kOneSlice[] = R"({"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":2})";

std::string Nested(size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

// 200,000 nested arrays in otherData.parallax: the DOM's copy recursed once per level and
// overflowed the stack (every command crashed on a 513-byte .json.gz).
TEST(JsonHardening, DeepOtherDataIsALocatedErrorNotACrash) {
  const std::string text = std::string("{\"traceEvents\":[") + kOneSlice +
                           "],\n\"otherData\":{\"parallax\":" + Nested(200000) + "}}";
  auto r = ParseJsonTrace(text, "deep.json");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("more than 200 arrays or objects"), std::string::npos)
      << r.status().ToString();
  EXPECT_EQ(r.status().where().file, "deep.json");
  EXPECT_EQ(r.status().where().line, 2u);
  // the 201st '[' is the first too deep: otherData's '{' is the first level.
  EXPECT_EQ(r.status().where().column, std::string("\"otherData\":{\"parallax\":").size() + 200);
  EXPECT_FALSE(r.status().hint().empty());
}

TEST(JsonHardening, NestingUpToTheLimitIsRead) {
  const std::string text = std::string("{\"traceEvents\":[") + kOneSlice +
                           "],\"otherData\":{\"x\":" + Nested(kMaxJsonNesting - 1) + "}}";
  auto r = ParseJsonTrace(text, "ok.json");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->prv.diagnostics.count(DiagKind::kSyntax), 0u);
}

TEST(JsonHardening, DeepEventIsSkippedAndLocated) {
  const std::string text = std::string("[") + kOneSlice + ",\n" +
                           R"({"ph":"i","name":"b","pid":1,"tid":1,"ts":1,"args":{"x":)" +
                           Nested(100000) + "}}]";
  auto r = ParseJsonTrace(text, "deep-event.json");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const Diagnostics& d = r->prv.diagnostics;
  ASSERT_EQ(d.count(DiagKind::kSyntax), 1u);
  EXPECT_EQ(d.examples(DiagKind::kSyntax)[0].line, 2u);
  EXPECT_NE(d.examples(DiagKind::kSyntax)[0].detail.find("more than 200"), std::string::npos);
  EXPECT_EQ(r->prv.store.thread(model::ThreadIndex(0)).states.size(), 1u);
}

// ts + dur beyond INT64_MAX ns was computed in int64 (undefined behaviour; in practice the end
// wrapped negative and the slice was taken for an open B slice).
TEST(JsonHardening, SliceEndBeyondTheNanosecondRangeIsReported) {
  const std::string text = std::string("[") + kOneSlice + ",\n" +
                           R"({"ph":"X","name":"far","pid":1,"tid":1,"ts":9e15,"dur":9e15}])";
  auto r = ParseJsonTrace(text, "far.json");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const Diagnostics& d = r->prv.diagnostics;
  ASSERT_EQ(d.count(DiagKind::kNumberTooLarge), 1u);
  EXPECT_EQ(d.examples(DiagKind::kNumberTooLarge)[0].line, 2u);
  EXPECT_EQ(d.count(DiagKind::kUnclosedBegin), 0u);
  EXPECT_EQ(r->prv.store.thread(model::ThreadIndex(0)).states.size(), 1u);
}

// otherData.parallax is built as a DOM: within the budget, and only that member.
TEST(JsonHardening, OtherDataBeyondTheBudgetIsRefused) {
  std::string many;
  for (int i = 0; i < 100000; ++i) many += "[],";
  many += "[]";
  const std::string text = std::string("{\"traceEvents\":[") + kOneSlice +
                           "],\"otherData\":{\"parallax\":[" + many + "]}}";
  auto r = ParseJsonTrace(text, "wide.json", 1 << 20);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("does not fit in the memory budget"), std::string::npos)
      << r.status().ToString();
  EXPECT_NE(r.status().message().find("the budget is 1.0 MiB"), std::string::npos)
      << r.status().ToString();
  // Other members of otherData are passed over, not built.
  const std::string other =
      std::string("{\"traceEvents\":[") + kOneSlice + "],\"otherData\":{\"big\":[" + many + "]}}";
  auto skipped = ParseJsonTrace(other, "other.json", 1 << 20);
  EXPECT_TRUE(skipped.ok()) << skipped.status().ToString();
}

TEST(JsonHardening, EventsBeyondTheBudgetAreRefused) {
  std::string text = "[";
  for (int i = 0; i < 20000; ++i)
    text += std::string(i ? "," : "") + R"({"ph":"i","name":"b","pid":1,"tid":1,"ts":1})";
  text += "]";
  auto r = ParseJsonTrace(text, "many.json", 256 << 10);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("its events need more than"), std::string::npos)
      << r.status().ToString();
  EXPECT_TRUE(ParseJsonTrace(text, "many.json", 64 << 20).ok());
}

TEST(JsonHardening, MemberDomKeepsOnlyTheMember) {
  MemberDom m = BuildMemberDom(R"({"a":[1,2],"parallax":{"unit":"ns","x":[true,null]},"b":"c"})",
                               "parallax", 1 << 20);
  ASSERT_EQ(m.outcome, MemberDom::Outcome::kBuilt);
  EXPECT_EQ(m.value.dump(), R"({"unit":"ns","x":[true,null]})");
  EXPECT_GT(m.bytes, 0u);
  EXPECT_EQ(BuildMemberDom(R"({"parallax":5})", "parallax", 1 << 20).value, 5);
  EXPECT_EQ(BuildMemberDom(R"({"a":{"parallax":5}})", "parallax", 1 << 20).outcome,
            MemberDom::Outcome::kAbsent);
  EXPECT_EQ(BuildMemberDom(R"({"parallax":[1,)", "parallax", 1 << 20).outcome,
            MemberDom::Outcome::kMalformed);
  EXPECT_EQ(BuildMemberDom(R"({"parallax":"a long string"})", "parallax", 8).outcome,
            MemberDom::Outcome::kOverBudget);
}

}  // namespace
}  // namespace parallax::io
