#include "src/pop/pop_format.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <nlohmann/json.hpp>

#include "src/pop/pop_metrics.h"

namespace parallax {

const char* PopScalingName(PopScaling scaling) {
  switch (scaling) {
    case PopScaling::kAuto:
      return "auto";
    case PopScaling::kStrong:
      return "strong";
    case PopScaling::kWeak:
      return "weak";
  }
  return "";
}

namespace pop {

namespace {

// Python's '{:.Nf}' spelling, with modelfactors' `NaN` for missing values.
std::string Number(double v, int decimals) {
  if (std::isnan(v)) return "NaN";
  return fmt::format("{:.{}f}", v, decimals);
}

std::string TextValue(const PopLine& l, double v) {
  if (!l.unavailable.empty() || std::isnan(v) || std::isinf(v)) return "n/a";
  return l.percent ? fmt::format("{:.2f}%", v) : fmt::format("{:.2f}", v);
}

// "4", or "4x2" (processes x threads per process) for hybrid runs.
std::string ColumnLabel(const PopTraceInfo& t) {
  if (t.processes == 0 || t.threads == t.processes) return fmt::format("{}", t.processes);
  if (t.threads % t.processes == 0)
    return fmt::format("{}x{}", t.processes, t.threads / t.processes);
  return fmt::format("{}/{}", t.processes, t.threads);
}

struct Layout {
  size_t name = 0, value = 10;
};

Layout Measure(const PopReport& r) {
  Layout w;
  for (const auto* lines : {&r.factors, &r.raw, &r.waiting})
    for (const PopLine& l : *lines) {
      w.name = std::max(w.name, l.name.size() + 2 * static_cast<size_t>(l.depth));
      for (double v : l.values) w.value = std::max(w.value, TextValue(l, v).size());
    }
  for (const PopTraceInfo& t : r.traces) w.value = std::max(w.value, ColumnLabel(t).size());
  return w;
}

void TextRow(std::string& out, const Layout& w, const std::string& name,
             const std::vector<std::string>& cells) {
  fmt::format_to(std::back_inserter(out), "{:<{}}", name, w.name);
  for (const std::string& c : cells)
    fmt::format_to(std::back_inserter(out), " | {:>{}}", c, w.value);
  while (!out.empty() && out.back() == ' ') out.pop_back();
  out += '\n';
}

void TextLines(std::string& out, const Layout& w, const std::vector<PopLine>& lines, bool gaps) {
  for (const PopLine& l : lines) {
    std::vector<std::string> cells;
    for (double v : l.values) cells.push_back(TextValue(l, v));
    TextRow(out, w, std::string(2 * static_cast<size_t>(l.depth), ' ') + l.name, cells);
    if (gaps && (l.key == "global_efficiency" || l.key == "frequency_scalability"))
      TextRow(out, w, "", std::vector<std::string>(l.values.size()));
  }
}

void TextNotes(std::string& out, const PopReport& r) {
  std::string last;
  for (const auto* lines : {&r.factors, &r.raw})
    for (const PopLine& l : *lines) {
      if (l.unavailable.empty()) continue;
      if (l.unavailable != last) fmt::format_to(std::back_inserter(out), "  {}:\n", l.unavailable);
      fmt::format_to(std::back_inserter(out), "    {}\n", l.name);
      last = l.unavailable;
    }
}

std::string ScalingText(const PopReport& r) {
  return fmt::format("{} scaling{}", PopScalingName(r.scaling),
                     r.scaling_detected ? " (guessed from the useful instructions)" : "");
}

nlohmann::json LinesJson(const std::vector<PopLine>& lines) {
  nlohmann::json out = nlohmann::json::array();
  for (const PopLine& l : lines) {
    nlohmann::json values = nlohmann::json::array();
    for (double v : l.values)
      values.push_back(std::isfinite(v) && l.unavailable.empty() ? nlohmann::json(v) : nullptr);
    nlohmann::json j = {
        {"key", l.key}, {"name", l.name}, {"percent", l.percent}, {"values", values}};
    if (!l.unavailable.empty()) j["unavailable"] = l.unavailable;
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace

std::string FormatText(const PopReport& r) {
  const Layout w = Measure(r);
  std::string out = fmt::format("POP model factors, {}; reference: {}\n\n", ScalingText(r),
                                r.traces.empty() ? std::string() : r.traces[r.reference].path);
  std::vector<std::string> header;
  for (const PopTraceInfo& t : r.traces) header.push_back(ColumnLabel(t));
  TextRow(out, w, "Number of processes", header);
  out += std::string(w.name + r.traces.size() * (w.value + 3), '=') + '\n';
  TextLines(out, w, r.factors, true);
  out += "\nRaw data (times in us)\n";
  TextLines(out, w, r.raw, false);
  if (!r.waiting.empty()) {
    out += "\nTime in MPI, % of the processes' time (parallax diagnose)\n";
    TextLines(out, w, r.waiting, false);
  }
  std::string notes;
  TextNotes(notes, r);
  if (!notes.empty()) out += "\nNot available (n/a):\n" + notes;
  out += "\nTraces:\n";
  for (const PopTraceInfo& t : r.traces)
  {
    fmt::format_to(std::back_inserter(out), "  {}: {} processes, {} threads", t.path, t.processes,
                   t.threads);
    if (t.portion)
      fmt::format_to(std::back_inserter(out), ", portion [{}, {}) {}", t.portion->from,
                     t.portion->to, t.time_unit);
    out += '\n';
  }
  if (!r.warnings.empty()) out += "\nWarnings:\n";
  for (const std::string& s : r.warnings) fmt::format_to(std::back_inserter(out), "  {}\n", s);
  return out;
}

std::string FormatCsv(const PopReport& r) {
  std::string out = "Number of processes";
  for (const PopTraceInfo& t : r.traces)
    fmt::format_to(std::back_inserter(out), ";{}", t.processes);
  out += '\n';
  for (const PopLine& l : r.factors) {
    out += l.name;
    for (double v : l.values)
      fmt::format_to(std::back_inserter(out), ";{}", Number(l.unavailable.empty() ? v : kNaN, 6));
    out += '\n';
  }
  out += "#\n";
  for (const PopLine& l : r.raw) {
    fmt::format_to(std::back_inserter(out), "#{}", l.name);
    for (double v : l.values)
      fmt::format_to(std::back_inserter(out), ";{}", Number(l.unavailable.empty() ? v : kNaN, 2));
    out += '\n';
  }
  return out;
}

std::string FormatJson(const PopReport& r) {
  nlohmann::json traces = nlohmann::json::array();
  for (const PopTraceInfo& t : r.traces) {
    nlohmann::json j = {{"path", t.path}, {"processes", t.processes}, {"threads", t.threads}};
    if (t.portion) {
      j["from"] = t.portion->from;
      j["to"] = t.portion->to;
      j["time_unit"] = t.time_unit;
    }
    traces.push_back(std::move(j));
  }
  nlohmann::json j = {{"scaling", PopScalingName(r.scaling)},
                      {"scaling_detected", r.scaling_detected},
                      {"reference", r.reference},
                      {"traces", traces},
                      {"factors", LinesJson(r.factors)},
                      {"raw", LinesJson(r.raw)},
                      {"waiting", LinesJson(r.waiting)},
                      {"warnings", r.warnings}};
  return j.dump(2) + "\n";
}

}  // namespace pop
}  // namespace parallax
