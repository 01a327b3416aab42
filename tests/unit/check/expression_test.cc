// The assertion language of `parallax check` (src/check/expression.h, docs/check.md): worked
// examples of parsing and evaluation, and malformed assertions rejected with their line and
// column.

#include "src/check/expression.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

namespace parallax::check {
namespace {

Names TestNames() {
  Names n;
  n.known = [](const std::string& name) {
    return name == "pop.parallel_efficiency" || name == "structure.iteration_s" || name == "diagnose.wait_s" ||
           name == "x.zero" || name == "x.missing";
  };
  n.hint = [](const std::string&) { return std::string("pop.parallel_efficiency, ..."); };
  return n;
}

class MapSource : public Source {
 public:
  std::map<std::string, double> trace, base;
  Result<double> Metric(const std::string& name, bool baseline) override {
    if (name == "x.missing") return Status::Error("x.missing is not available");
    auto& m = baseline ? base : trace;
    return m.count(name) ? m[name] : 0.0;
  }
  Result<double> Histogram(const std::vector<std::string>& args, bool cell, bool) override {
    if (cell) return args[1] == "THREAD 1.1.1" ? 4.0 : 1.0;
    return args[2] == "Maximum" ? 6.0 : 5.0;
  }
};

struct Outcome {
  bool holds = false;
  double lhs = 0, rhs = 0;
};

Outcome Check(const std::string& text, MapSource& src) {
  auto parsed = Parse(text, "a.txt", TestNames());
  EXPECT_TRUE(parsed.ok()) << parsed.status().ToString();
  if (!parsed.ok() || parsed.value().size() != 1) return {};
  const Assertion& a = parsed.value()[0];
  auto l = Evaluate(*a.lhs, src, false, nullptr);
  auto r = Evaluate(*a.rhs, src, false, nullptr);
  EXPECT_TRUE(l.ok() && r.ok());
  return {Holds(a.compare, l.value(), r.value()), l.value(), r.value()};
}

Status ErrorOf(const std::string& text) {
  auto parsed = Parse(text, "a.txt", TestNames());
  EXPECT_FALSE(parsed.ok()) << text;
  return parsed.ok() ? Status::Ok() : parsed.status();
}

TEST(CheckExpressionTest, PercentAndTimeUnits) {
  MapSource s;
  s.trace["pop.parallel_efficiency"] = 0.9;
  s.trace["structure.iteration_s"] = 0.0015;
  Outcome o = Check("pop.parallel_efficiency >= 85%", s);
  EXPECT_TRUE(o.holds);
  EXPECT_DOUBLE_EQ(o.rhs, 0.85);
  o = Check("structure.iteration_s < 2ms", s);
  EXPECT_TRUE(o.holds);
  EXPECT_DOUBLE_EQ(o.rhs, 0.002);
  EXPECT_DOUBLE_EQ(Check("structure.iteration_s > 1500us", s).rhs, 0.0015);
  EXPECT_FALSE(Check("structure.iteration_s > 1500us", s).holds);  // equal: not greater
  EXPECT_DOUBLE_EQ(Check("structure.iteration_s == 1.5e6ns", s).rhs, 0.0015);
}

TEST(CheckExpressionTest, PrecedenceParenthesesAndFunctions) {
  MapSource s;
  EXPECT_DOUBLE_EQ(Check("1 + 2 * 3 == 7", s).lhs, 7);
  EXPECT_DOUBLE_EQ(Check("(1 + 2) * 3 == 9", s).lhs, 9);
  EXPECT_DOUBLE_EQ(Check("8 / 4 / 2 == 1", s).lhs, 1);  // left to right
  EXPECT_DOUBLE_EQ(Check("2 - 3 - 4 < 0", s).lhs, -5);
  EXPECT_DOUBLE_EQ(Check("-2 * -3 > 0", s).lhs, 6);
  EXPECT_DOUBLE_EQ(Check("abs(-3) + min(1, 2) + max(1, 2) == 6", s).lhs, 6);
}

TEST(CheckExpressionTest, HistogramsAndTheBaseline) {
  MapSource s;
  s.trace["structure.iteration_s"] = 0.0021;
  s.base["structure.iteration_s"] = 0.0020;
  // 5% slower than the baseline at most: 2.1 ms <= 1.05 * 2.0 ms holds (just).
  auto parsed = Parse("structure.iteration_s <= 1.05 * baseline(structure.iteration_s)", "", TestNames());
  ASSERT_TRUE(parsed.ok());
  EXPECT_TRUE(parsed.value()[0].uses_baseline);
  std::vector<std::pair<std::string, double>> read;
  auto rhs = Evaluate(*parsed.value()[0].rhs, s, false, &read);
  ASSERT_TRUE(rhs.ok());
  EXPECT_NEAR(rhs.value(), 0.0021, 1e-15);
  ASSERT_EQ(read.size(), 1u);
  EXPECT_EQ(read[0].first, "baseline(structure.iteration_s)");
  Outcome o = Check("hist(\"m.cfg\", \"MPI_Waitall\", \"Maximum\") / hist(\"m.cfg\", \"MPI_Waitall\", \"Average\") <= 1.2", s);
  EXPECT_TRUE(o.holds);
  EXPECT_DOUBLE_EQ(o.lhs, 1.2 * 1.0);  // 6 / 5
  EXPECT_DOUBLE_EQ(Check("cell(\"m.cfg\", \"THREAD 1.1.1\", \"Running\") == 4", s).lhs, 4);
  // Strings keep # and escaped quotes.
  EXPECT_TRUE(Check("cell(\"m#1.cfg\", \"THREAD 1.1.1\", \"a \\\" b\") == 4  # the cell", s).holds);
}

TEST(CheckExpressionTest, FilesHaveCommentsBlankLinesAndCarriageReturns) {
  auto parsed = Parse("# CI gate\n\n  pop.parallel_efficiency >= 0.85  # efficiency\r\n\tdiagnose.wait_s < 1\n",
                      "gate.txt", TestNames());
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  ASSERT_EQ(parsed.value().size(), 2u);
  EXPECT_EQ(parsed.value()[0].line, 3u);
  EXPECT_EQ(parsed.value()[0].text, "pop.parallel_efficiency >= 0.85");
  EXPECT_EQ(parsed.value()[1].line, 4u);
  EXPECT_EQ(parsed.value()[1].text, "diagnose.wait_s < 1");
}

TEST(CheckExpressionTest, MalformedAssertionsAreLocated) {
  Status s = ErrorOf("\n\n  pop.paralel_efficiency > 0.5");
  EXPECT_EQ(s.message(), "unknown metric 'pop.paralel_efficiency'");
  EXPECT_EQ(s.where().file, "a.txt");
  EXPECT_EQ(s.where().line, 3u);
  EXPECT_EQ(s.where().column, 3u);
  EXPECT_EQ(s.hint(), "pop.parallel_efficiency, ...");
  s = ErrorOf("pop.parallel_efficiency 0.85");
  EXPECT_EQ(s.where().column, 25u);
  EXPECT_NE(s.message().find("expected a comparison"), std::string::npos);
  EXPECT_EQ(ErrorOf("1 < 2 < 3").message(), "one comparison per assertion");
  EXPECT_EQ(ErrorOf("(1 < 2").message(), "expected ')'");
  EXPECT_EQ(ErrorOf("1 < 2furlongs").where().column, 6u);
  EXPECT_NE(ErrorOf("hist(\"a.cfg\", \"x\") < 1").message().find("takes 3 strings"), std::string::npos);
  EXPECT_NE(ErrorOf("hist(\"a.cfg\", \"x\", \"Median\") < 1").message().find("unknown statistic 'Median'"),
            std::string::npos);
  EXPECT_NE(ErrorOf("cell(\"a.cfg, \"x\", \"y\") < 1").message().find("takes 3 strings"), std::string::npos);
  EXPECT_NE(ErrorOf("cell(\"a.cfg\", \"x\", \"y) < 1").message().find("not closed"), std::string::npos);
  EXPECT_NE(ErrorOf("sqrt(4) < 3").message().find("unknown function 'sqrt'"), std::string::npos);
  EXPECT_NE(ErrorOf("baseline(baseline(x.zero)) < 1").message().find("inside baseline"), std::string::npos);
  EXPECT_NE(ErrorOf("\"a\" < 1").message().find("only an argument"), std::string::npos);
  EXPECT_NE(ErrorOf("1 <").message().find("end of the line"), std::string::npos);
  EXPECT_NE(ErrorOf("1 < 2\x01").message().find("control character"), std::string::npos);
  EXPECT_NE(ErrorOf(std::string(200, '(') + "1" + std::string(200, ')') + " < 2").message().find("nested too deeply"),
            std::string::npos);
  EXPECT_NE(ErrorOf(std::string(100, '-') + "1 < 2").message().find("nested too deeply"), std::string::npos);
}

TEST(CheckExpressionTest, EvaluationErrorsAreNotValues) {
  MapSource s;
  auto parsed = Parse("1 / x.zero > 0\nx.missing > 0", "a.txt", TestNames());
  ASSERT_TRUE(parsed.ok());
  auto div = Evaluate(*parsed.value()[0].lhs, s, false, nullptr);
  ASSERT_FALSE(div.ok());
  EXPECT_NE(div.status().message().find("division by zero"), std::string::npos);
  auto missing = Evaluate(*parsed.value()[1].lhs, s, false, nullptr);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(), "x.missing is not available");
}

}  // namespace
}  // namespace parallax::check
