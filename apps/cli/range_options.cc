#include "apps/cli/range_options.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string_view>

#include "include/parallax/tools.h"

namespace parallax::cli {

void AddRangeOptions(CLI::App* sub, RangeArgs* args) {
  sub->add_option("--from", args->from,
                  "begin of the portion: trace units, a time with a unit (1.5ms, 200us, 3s) or a "
                  "percentage of the trace end (40%)");
  sub->add_option("--to", args->to, "end of the portion (as --from; default: the trace end)");
  sub->add_option("--records", args->records,
                  "the portion from the time of body record A to that of record B: A..B");
}

namespace {

// Nanoseconds per unit; 0 for an unknown unit.
uint64_t NanosecondsPer(std::string_view unit) {
  if (unit == "ns") return 1;
  if (unit == "us") return 1000;
  if (unit == "ms") return 1000000;
  if (unit == "s") return 1000000000;
  return 0;
}

Status BadLimit(const std::string& option, const std::string& text, const std::string& why) {
  return Status::Error("bad " + option + " \"" + text + "\": " + why, {},
                       "give a time in trace units (1500), with a unit (1.5ms, 200us, 3s, "
                       "10ns) or a percentage of the trace end (40%)");
}

// A whole number with its suffix, in integers end to end: times of 2^53 units and more (an
// absolute time in ns today is about 1.7e18) are not all doubles, so a few units between --from
// and --to must not be lost on the way.
Result<uint64_t> WholeLimit(uint64_t v, std::string_view suffix, const std::string& text,
                            const std::string& option, const std::string& unit, uint64_t end_time) {
  if (suffix.empty()) return v;
  if (suffix == "%") {
    if (v > 100) return BadLimit(option, text, "a percentage above 100");
    // As the cutter (and Paraver's): the end time divided by 100 (integer), times the
    // percentage, so that `cut --from 20%` and `analyze --from 20%` cover the same portion.
    return end_time / 100 * v;
  }
  const uint64_t per = NanosecondsPer(suffix);
  if (per == 0) return BadLimit(option, text, "unknown unit \"" + std::string(suffix) + "\"");
  const uint64_t trace_per = std::max<uint64_t>(NanosecondsPer(unit), 1);
  // Units are powers of 1000 apart: a product, or a quotient rounded to the nearest trace unit
  // as the decimal form is.
  if (per >= trace_per) {
    uint64_t t = 0;
    if (__builtin_mul_overflow(v, per / trace_per, &t)) return BadLimit(option, text, "too large");
    return t;
  }
  const uint64_t divisor = trace_per / per;
  return v / divisor + (v % divisor >= (divisor + 1) / 2 ? 1 : 0);
}

}  // namespace

Result<uint64_t> ParseTimeLimit(const std::string& text, const std::string& option,
                                const std::string& unit, uint64_t end_time) {
  std::string_view s = text;
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  if (s.empty() || s.front() == '-' || s.front() == '+')
    return BadLimit(option, text, "expected a non-negative number");
  auto suffix_after = [&](const char* p) {
    std::string_view suffix(p, static_cast<size_t>(s.data() + s.size() - p));
    while (!suffix.empty() && suffix.front() == ' ') suffix.remove_prefix(1);
    return suffix;
  };
  uint64_t whole = 0;
  auto w = std::from_chars(s.data(), s.data() + s.size(), whole);
  const bool decimal_form =
      w.ptr != s.data() + s.size() && (*w.ptr == '.' || *w.ptr == 'e' || *w.ptr == 'E');
  if (w.ec == std::errc::result_out_of_range && !decimal_form)
    return BadLimit(option, text, "too large");
  if (w.ec == std::errc() && !decimal_form)
    return WholeLimit(whole, suffix_after(w.ptr), text, option, unit, end_time);
  double v = 0;
  auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec != std::errc() || !std::isfinite(v))
    return BadLimit(option, text, "expected a non-negative number");
  std::string_view suffix = suffix_after(r.ptr);
  double t = 0;
  if (suffix == "%") {
    if (v > 100) return BadLimit(option, text, "a percentage above 100");
    t = std::floor(static_cast<double>(end_time / 100) * v);
  } else if (suffix.empty()) {
    t = v;
    if (t != std::floor(t))
      return BadLimit(option, text, "a fraction of the trace unit (" + unit + ")");
  } else {
    const uint64_t per = NanosecondsPer(suffix),
                   trace_per = std::max<uint64_t>(NanosecondsPer(unit), 1);
    if (per == 0) return BadLimit(option, text, "unknown unit \"" + std::string(suffix) + "\"");
    t = std::round(v * static_cast<double>(per) / static_cast<double>(trace_per));
  }
  if (t >= 18446744073709549568.0) return BadLimit(option, text, "too large");
  return static_cast<uint64_t>(t);
}

Result<std::optional<TimeSpan>> ResolveRange(const RangeArgs& a, const Trace& trace,
                                             const std::string& path) {
  if (!a.given()) return std::optional<TimeSpan>();
  if (!a.records.empty()) {
    if (!a.from.empty() || !a.to.empty())
      return Status::Error("--records cannot be combined with --from/--to", {},
                           "give either a record range or a time range");
    size_t dots = a.records.find("..");
    std::string first = a.records.substr(0, dots),
                last = dots == std::string::npos ? "" : a.records.substr(dots + 2);
    uint64_t f = 0, l = 0;
    auto r1 = std::from_chars(first.data(), first.data() + first.size(), f);
    auto r2 = std::from_chars(last.data(), last.data() + last.size(), l);
    if (dots == std::string::npos || first.empty() || last.empty() || r1.ec != std::errc() ||
        r2.ec != std::errc() || r1.ptr != first.data() + first.size() ||
        r2.ptr != last.data() + last.size())
      return Status::Error("bad --records \"" + a.records + "\"", {},
                           "--records A..B: the 1-based body records A to B, e.g. 100..2000");
    auto times = RecordRangeTimes(path, f, l);
    if (!times.ok()) return times.status();
    auto span = TraceRange(trace, times->first, times->second);
    if (!span.ok()) return span.status();
    return std::optional<TimeSpan>(span.value());
  }
  TraceInfo info = trace.Summary();  // the unit and end time: no pass over the records
  std::optional<uint64_t> from, to;
  if (!a.from.empty()) {
    auto t = ParseTimeLimit(a.from, "--from", info.time_unit, info.end_time);
    if (!t.ok()) return t.status();
    from = t.value();
  }
  if (!a.to.empty()) {
    auto t = ParseTimeLimit(a.to, "--to", info.time_unit, info.end_time);
    if (!t.ok()) return t.status();
    to = t.value();
  }
  auto span = TraceRange(trace, from, to);
  if (!span.ok()) return span.status();
  return std::optional<TimeSpan>(span.value());
}

bool ApplyRange(const RangeArgs& args, const Trace& trace, const std::string& path,
                std::optional<uint64_t>* from, std::optional<uint64_t>* to) {
  auto span = ResolveRange(args, trace, path);
  if (!span.ok()) {
    std::fprintf(stderr, "%s\n", span.status().ToString().c_str());
    return false;
  }
  if (span.value()) {
    *from = span.value()->from;
    *to = span.value()->to;
  }
  return true;
}

}  // namespace parallax::cli
