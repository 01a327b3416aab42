#pragma once
// The assertion language of `parallax check` (docs/check.md): one assertion per line,
// `EXPR OP EXPR` with OP one of < <= > >= == !=, EXPR arithmetic (+ - * /, parentheses, unary
// minus) over numbers (with an optional % or time unit: 85% is 0.85, 2ms is 0.002), metrics
// (`pop.parallel_efficiency`, `structure.iteration_s`), histogram values (`hist("cfg", "column",
// "statistic")`, `cell("cfg", "row", "column")`), `baseline(EXPR)` (EXPR on the baseline trace)
// and abs/min/max. `#` starts a comment outside strings. Parsing is separate from evaluation:
// a whole file is checked, with the line and column of every error, before anything is computed.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "include/parallax/status.h"

namespace parallax::check {

struct Node {
  enum class Kind { kNumber, kMetric, kHist, kCell, kBaseline, kAbs, kMin, kMax, kNeg, kAdd, kSub, kMul, kDiv };
  Kind kind = Kind::kNumber;
  double number = 0;
  std::string name;                  // metric name
  std::vector<std::string> strings;  // hist/cell arguments
  std::vector<std::unique_ptr<Node>> kids;
  uint32_t column = 0;               // 1-based, in the assertion's line
};

enum class Compare { kLess, kLessEqual, kGreater, kGreaterEqual, kEqual, kNotEqual };
const char* CompareText(Compare c);

struct Assertion {
  std::string text;  // as written, trimmed, without its comment
  std::string file;  // "" for the command line
  uint32_t line = 0;
  std::unique_ptr<Node> lhs, rhs;
  Compare compare = Compare::kLess;
  bool uses_baseline = false;
};

// Parses the assertions of `text` (a file's content, or one command-line assertion), checking
// metric names with `known` (true when a name exists; `namespaces_hint` lists them for the
// error). `first_line` numbers the lines.
struct Names {
  std::function<bool(const std::string&)> known;
  std::function<std::string(const std::string&)> hint;  // the names like an unknown one, for its error
};
Result<std::vector<Assertion>> Parse(std::string_view text, const std::string& file, const Names& names);

// What an expression reads: metrics and histogram values of the trace (or of the baseline,
// inside baseline()). NaN: not available (the reason in `why`).
class Source {
 public:
  virtual ~Source() = default;
  virtual Result<double> Metric(const std::string& name, bool baseline) = 0;
  // hist: statistic of a column's totals line; cell: a row's value in a column.
  virtual Result<double> Histogram(const std::vector<std::string>& args, bool cell, bool baseline) = 0;
};

// The value of an expression; every metric read is appended to `read` with its value (for the
// report). A metric that is not available fails with why.
Result<double> Evaluate(const Node& node, Source& source, bool baseline,
                        std::vector<std::pair<std::string, double>>* read);

bool Holds(Compare c, double lhs, double rhs);

}  // namespace parallax::check
