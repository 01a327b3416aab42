// Fuzz target of the assertion language of `parallax check` (src/check): any text parses to
// assertions or to one located error, never crashes or recurses without bound; every parsed
// assertion evaluates (on a source giving fixed values, 0 for some names to reach the division
// by zero) to a value or an error, and its text is the line's trimmed assertion.

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "src/check/expression.h"

namespace {

using namespace parallax;

void Check(bool ok) {
  if (!ok) std::abort();
}

class FixedSource : public check::Source {
 public:
  Result<double> Metric(const std::string& name, bool baseline) override {
    if (name.find("zero") != std::string::npos) return 0.0;
    if (name.find("missing") != std::string::npos) return Status::Error("not available");
    return baseline ? 2.0 : double(name.size());
  }
  Result<double> Histogram(const std::vector<std::string>& args, bool cell, bool) override {
    Check(args.size() == 3);
    return cell ? 1.5 : double(args[0].size());
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  check::Names names;
  names.known = [](const std::string& n) { return n.find('.') != std::string::npos; };
  names.hint = [](const std::string&) { return std::string("a.b"); };
  auto parsed = check::Parse(text, "fuzz.txt", names);
  if (!parsed.ok()) {
    Check(!parsed.status().message().empty());
    Check(parsed.status().where().line >= 1);
    return 0;
  }
  FixedSource source;
  for (const check::Assertion& a : parsed.value()) {
    Check(a.lhs && a.rhs && !a.text.empty() && a.line >= 1);
    Check(a.text.front() != ' ' && a.text.back() != ' ');
    std::vector<std::pair<std::string, double>> read;
    auto l = check::Evaluate(*a.lhs, source, false, &read);
    auto r = check::Evaluate(*a.rhs, source, false, &read);
    if (l.ok() && r.ok()) (void)check::Holds(a.compare, l.value(), r.value());
  }
  return 0;
}
