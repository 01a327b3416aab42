#include "src/check/expression.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <initializer_list>
#include <utility>

namespace parallax::check {

const char* CompareText(Compare c) {
  switch (c) {
    case Compare::kLess:
      return "<";
    case Compare::kLessEqual:
      return "<=";
    case Compare::kGreater:
      return ">";
    case Compare::kGreaterEqual:
      return ">=";
    case Compare::kEqual:
      return "==";
    case Compare::kNotEqual:
      return "!=";
  }
  return "?";
}

bool Holds(Compare c, double lhs, double rhs) {
  switch (c) {
    case Compare::kLess:
      return lhs < rhs;
    case Compare::kLessEqual:
      return lhs <= rhs;
    case Compare::kGreater:
      return lhs > rhs;
    case Compare::kGreaterEqual:
      return lhs >= rhs;
    case Compare::kEqual:
      return lhs == rhs;
    case Compare::kNotEqual:
      return lhs != rhs;
  }
  return false;
}

namespace {

constexpr size_t kMaxDepth = 64;    // nesting of parentheses and calls
constexpr size_t kMaxLine = 4096;   // characters of one assertion

// A recursive-descent parser over one line.
class LineParser {
 public:
  LineParser(std::string_view line, const std::string& file, uint32_t number, const Names& names)
      : s_(line), file_(file), line_(number), names_(names) {}

  Result<Assertion> Run() {
    Assertion a;
    a.file = file_;
    a.line = line_;
    auto lhs = Expr();
    if (!lhs.ok()) return lhs.status();
    Space();
    const size_t at = pos_;
    std::optional<Compare> c = Comparison();
    if (!c)
      return Error(at, AtEnd() ? "expected a comparison (<, <=, >, >=, == or !=) after the expression"
                               : fmt::format("expected a comparison (<, <=, >, >=, == or !=), found '{}'", Rest()),
                   "an assertion compares two expressions: pop.parallel_efficiency >= 0.85");
    auto rhs = Expr();
    if (!rhs.ok()) return rhs.status();
    Space();
    if (!AtEnd()) {
      if (Comparison()) return Error(pos_ - 1, "one comparison per assertion", "write each condition on its own line");
      return Error(pos_, fmt::format("unexpected '{}' after the assertion", Rest()));
    }
    a.lhs = std::move(lhs.value());
    a.rhs = std::move(rhs.value());
    a.compare = *c;
    a.uses_baseline = baseline_seen_;
    return a;
  }

 private:
  Status Error(size_t at, const std::string& what, const std::string& hint = {}) const {
    return Status::Error(what, Location{file_.empty() ? "--assert" : file_, line_, at + 1}, hint);
  }
  bool AtEnd() const { return pos_ >= s_.size(); }
  std::string Rest() const {
    std::string r(s_.substr(pos_, 16));
    return r;
  }
  void Space() {
    while (!AtEnd() && (s_[pos_] == ' ' || s_[pos_] == '\t')) ++pos_;
  }
  bool Take(char c) {
    Space();
    if (!AtEnd() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  std::optional<Compare> Comparison() {
    Space();
    auto two = [&](const char* t) { return s_.substr(pos_, 2) == t; };
    if (two("<=")) return pos_ += 2, Compare::kLessEqual;
    if (two(">=")) return pos_ += 2, Compare::kGreaterEqual;
    if (two("==")) return pos_ += 2, Compare::kEqual;
    if (two("!=")) return pos_ += 2, Compare::kNotEqual;
    if (!AtEnd() && s_[pos_] == '<') return ++pos_, Compare::kLess;
    if (!AtEnd() && s_[pos_] == '>') return ++pos_, Compare::kGreater;
    return std::nullopt;
  }

  std::unique_ptr<Node> Make(Node::Kind kind, size_t at) {
    auto n = std::make_unique<Node>();
    n->kind = kind;
    n->column = static_cast<uint32_t>(at + 1);
    return n;
  }

  // One precedence level: operands read by `operand`, joined left to right by `ops`.
  Result<std::unique_ptr<Node>> Level(Result<std::unique_ptr<Node>> (LineParser::*operand)(),
                                      std::initializer_list<std::pair<char, Node::Kind>> ops) {
    auto left = (this->*operand)();
    if (!left.ok()) return left;
    std::unique_ptr<Node> n = std::move(left.value());
    for (;;) {
      Space();
      const size_t at = pos_;
      const std::pair<char, Node::Kind>* taken = nullptr;
      for (const auto& o : ops)
        if (Take(o.first)) {
          taken = &o;
          break;
        }
      if (taken == nullptr) break;
      auto right = (this->*operand)();
      if (!right.ok()) return right;
      auto op = Make(taken->second, at);
      op->kids.push_back(std::move(n));
      op->kids.push_back(std::move(right.value()));
      n = std::move(op);
    }
    return n;
  }

  Result<std::unique_ptr<Node>> Expr() {
    if (++depth_ > kMaxDepth) return Error(pos_, "the expression is nested too deeply");
    auto n = Level(&LineParser::Term, {{'+', Node::Kind::kAdd}, {'-', Node::Kind::kSub}});
    if (n.ok()) --depth_;
    return n;
  }

  Result<std::unique_ptr<Node>> Term() {
    return Level(&LineParser::Factor, {{'*', Node::Kind::kMul}, {'/', Node::Kind::kDiv}});
  }

  Result<std::unique_ptr<Node>> Factor() {
    Space();
    const size_t at = pos_;
    if (AtEnd()) return Error(at, "expected a number, a metric or '(' at the end of the line");
    const char c = s_[pos_];
    if (c == '-') {
      ++pos_;
      if (++depth_ > kMaxDepth) return Error(at, "the expression is nested too deeply");
      auto inner = Factor();
      --depth_;
      if (!inner.ok()) return inner;
      auto n = Make(Node::Kind::kNeg, at);
      n->kids.push_back(std::move(inner.value()));
      return n;
    }
    if (c == '(') {
      ++pos_;
      auto inner = Expr();
      if (!inner.ok()) return inner;
      if (!Take(')')) return Error(pos_, "expected ')'", fmt::format("the '(' at column {} is not closed", at + 1));
      return inner;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return Number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return Name();
    if (c == '"') return Error(at, "a string is only an argument of hist() or cell()");
    return Error(at, fmt::format("expected a number, a metric or '(', found '{}'", Rest()));
  }

  Result<std::unique_ptr<Node>> Number() {
    const size_t at = pos_;
    size_t end = pos_;
    while (end < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[end])) || s_[end] == '.')) ++end;
    if (end < s_.size() && (s_[end] == 'e' || s_[end] == 'E')) {
      size_t e = end + 1;
      if (e < s_.size() && (s_[e] == '+' || s_[e] == '-')) ++e;
      if (e < s_.size() && std::isdigit(static_cast<unsigned char>(s_[e]))) {
        end = e;
        while (end < s_.size() && std::isdigit(static_cast<unsigned char>(s_[end]))) ++end;
      }
    }
    double v = 0;
    auto r = std::from_chars(s_.data() + at, s_.data() + end, v);
    if (r.ec != std::errc() || r.ptr != s_.data() + end || !std::isfinite(v))
      return Error(at, fmt::format("bad number '{}'", s_.substr(at, end - at)));
    pos_ = end;
    // A unit right after the number.
    if (!AtEnd() && s_[pos_] == '%') {
      ++pos_;
      v /= 100;
    } else if (!AtEnd() && std::isalpha(static_cast<unsigned char>(s_[pos_]))) {
      size_t u = pos_;
      while (u < s_.size() && std::isalpha(static_cast<unsigned char>(s_[u]))) ++u;
      const std::string_view unit = s_.substr(pos_, u - pos_);
      if (unit == "s") {
      } else if (unit == "ms") {
        v /= 1e3;
      } else if (unit == "us") {
        v /= 1e6;
      } else if (unit == "ns") {
        v /= 1e9;
      } else {
        return Error(pos_, fmt::format("unknown unit '{}' after {}", unit, s_.substr(at, end - at)),
                     "write % (85% is 0.85) or a time unit: s, ms, us, ns (in seconds then)");
      }
      pos_ = u;
    }
    auto n = Make(Node::Kind::kNumber, at);
    n->number = v;
    return n;
  }

  std::string Ident() {
    const size_t b = pos_;
    while (!AtEnd() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
    return std::string(s_.substr(b, pos_ - b));
  }

  Result<std::string> String() {
    Space();
    const size_t at = pos_;
    if (!Take('"')) return Error(at, "expected a string in double quotes");
    std::string out;
    while (!AtEnd() && s_[pos_] != '"') {
      if (s_[pos_] == '\\' && pos_ + 1 < s_.size()) ++pos_;
      out += s_[pos_++];
    }
    if (AtEnd()) return Error(at, "the string is not closed", "end it with \"");
    ++pos_;
    return out;
  }

  Result<std::unique_ptr<Node>> Name() {
    const size_t at = pos_;
    std::string name = Ident();
    while (!AtEnd() && s_[pos_] == '.' && pos_ + 1 < s_.size() &&
           (std::isalpha(static_cast<unsigned char>(s_[pos_ + 1])) || s_[pos_ + 1] == '_')) {
      ++pos_;
      name += "." + Ident();
    }
    Space();
    if (!AtEnd() && s_[pos_] == '(') return Call(name, at);
    if (!names_.known(name))
      return Error(at, fmt::format("unknown metric '{}'", name), names_.hint(name));
    auto n = Make(Node::Kind::kMetric, at);
    n->name = name;
    return n;
  }

  Result<std::unique_ptr<Node>> Call(const std::string& name, size_t at) {
    ++pos_;  // (
    if (name == "hist" || name == "cell") {
      auto n = Make(name == "hist" ? Node::Kind::kHist : Node::Kind::kCell, at);
      for (int i = 0; i < 3; ++i) {
        if (i > 0 && !Take(','))
          return Error(pos_, fmt::format("{}() takes 3 strings: {}", name,
                                         name == "hist" ? "the cfg, the column and the statistic"
                                                        : "the cfg, the row and the column"));
        auto s = String();
        if (!s.ok()) return s.status();
        n->strings.push_back(std::move(s.value()));
      }
      if (!Take(')')) return Error(pos_, fmt::format("expected ')' after the 3 arguments of {}()", name));
      if (name == "hist") {
        static const char* kStats[] = {"Total", "Average", "Maximum", "Minimum", "StDev", "Avg/Max"};
        if (std::find(std::begin(kStats), std::end(kStats), n->strings[2]) == std::end(kStats))
          return Error(at, fmt::format("unknown statistic '{}'", n->strings[2]),
                       "the totals lines of a histogram: Total, Average, Maximum, Minimum, StDev, Avg/Max");
      }
      return n;
    }
    Node::Kind kind;
    size_t args = 1;
    if (name == "baseline") {
      if (in_baseline_) return Error(at, "baseline() inside baseline()");
      kind = Node::Kind::kBaseline;
    } else if (name == "abs") {
      kind = Node::Kind::kAbs;
    } else if (name == "min" || name == "max") {
      kind = name == "min" ? Node::Kind::kMin : Node::Kind::kMax;
      args = 2;
    } else {
      return Error(at, fmt::format("unknown function '{}'", name), "functions: hist, cell, baseline, abs, min, max");
    }
    auto n = Make(kind, at);
    const bool was = in_baseline_;
    if (kind == Node::Kind::kBaseline) in_baseline_ = baseline_seen_ = true;
    for (size_t i = 0; i < args; ++i) {
      if (i > 0 && !Take(',')) return Error(pos_, fmt::format("{}() takes {} arguments", name, args));
      auto e = Expr();
      if (!e.ok()) return e;
      n->kids.push_back(std::move(e.value()));
    }
    in_baseline_ = was;
    if (!Take(')')) return Error(pos_, fmt::format("expected ')' to close {}(", name));
    return n;
  }

  std::string_view s_;
  const std::string& file_;
  uint32_t line_;
  const Names& names_;
  size_t pos_ = 0;
  size_t depth_ = 0;
  bool in_baseline_ = false, baseline_seen_ = false;
};

// The line without its comment (a # outside strings), trimmed.
std::string_view Strip(std::string_view line) {
  bool in_string = false;
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '"' && (i == 0 || line[i - 1] != '\\')) in_string = !in_string;
    if (line[i] == '#' && !in_string) {
      line = line.substr(0, i);
      break;
    }
  }
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.remove_suffix(1);
  return line;
}

}  // namespace

Result<std::vector<Assertion>> Parse(std::string_view text, const std::string& file, const Names& names) {
  std::vector<Assertion> out;
  uint32_t number = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    ++number;
    pos = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::string_view body = Strip(line);
    size_t lead = 0;
    while (lead < body.size() && std::isspace(static_cast<unsigned char>(body[lead]))) ++lead;
    if (lead == body.size()) {
      if (end == text.size()) break;
      continue;
    }
    const Location where{file.empty() ? "--assert" : file, number, 1};
    if (line.size() > kMaxLine)
      return Status::Error(fmt::format("the line is {} characters long, more than {}", line.size(), kMaxLine), where);
    for (size_t i = 0; i < line.size(); ++i)
      if (static_cast<unsigned char>(line[i]) < 0x20 && line[i] != '\t')
        return Status::Error("a control character in the line", Location{where.file, number, i + 1});
    // Columns count from the line's start: parse the line with its leading blanks.
    auto a = LineParser(body, file, number, names).Run();
    if (!a.ok()) return a.status();
    a.value().text = std::string(body.substr(lead));
    out.push_back(std::move(a.value()));
    if (end == text.size()) break;
  }
  return out;
}

Result<double> Evaluate(const Node& n, Source& source, bool baseline,
                        std::vector<std::pair<std::string, double>>* read) {
  auto kid = [&](size_t i, bool b) { return Evaluate(*n.kids[i], source, b, read); };
  switch (n.kind) {
    case Node::Kind::kNumber:
      return n.number;
    case Node::Kind::kMetric: {
      auto v = source.Metric(n.name, baseline);
      if (v.ok() && read) read->emplace_back(baseline ? "baseline(" + n.name + ")" : n.name, v.value());
      return v;
    }
    case Node::Kind::kHist:
    case Node::Kind::kCell: {
      auto v = source.Histogram(n.strings, n.kind == Node::Kind::kCell, baseline);
      if (v.ok() && read) {
        std::string what = fmt::format("{}(\"{}\", \"{}\", \"{}\")", n.kind == Node::Kind::kCell ? "cell" : "hist",
                                       n.strings[0], n.strings[1], n.strings[2]);
        read->emplace_back(baseline ? "baseline(" + what + ")" : what, v.value());
      }
      return v;
    }
    case Node::Kind::kBaseline:
      return kid(0, true);
    case Node::Kind::kAbs: {
      auto v = kid(0, baseline);
      if (!v.ok()) return v;
      return std::fabs(v.value());
    }
    case Node::Kind::kNeg: {
      auto v = kid(0, baseline);
      if (!v.ok()) return v;
      return -v.value();
    }
    default:
      break;
  }
  auto a = kid(0, baseline);
  if (!a.ok()) return a;
  auto b = kid(1, baseline);
  if (!b.ok()) return b;
  const double x = a.value(), y = b.value();
  switch (n.kind) {
    case Node::Kind::kMin:
      return std::min(x, y);
    case Node::Kind::kMax:
      return std::max(x, y);
    case Node::Kind::kAdd:
      return x + y;
    case Node::Kind::kSub:
      return x - y;
    case Node::Kind::kMul:
      return x * y;
    case Node::Kind::kDiv:
      if (y == 0)
        return Status::Error(fmt::format("division by zero at column {}", n.column), {},
                             "the divisor's metric is 0 on this trace");
      return x / y;
    default:
      return Status::Error("internal error: unknown expression node");
  }
}

}  // namespace parallax::check
