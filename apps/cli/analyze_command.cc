// `parallax analyze TRACE --cfg X.cfg [--format tsv|csv|json|markdown]`: the histograms of a
// cfg (analysis.md) as tables for people and scripts, labelled from the .pcf and .row.

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "apps/cli/commands.h"
#include "include/parallax/views.h"
#include "apps/cli/progress.h"
#include "apps/cli/range_options.h"
#include "include/parallax/trace.h"

namespace parallax::cli {

namespace {

struct AnalyzeArgs {
  std::string trace;
  AnalyzeRequest req;
  std::string format = "tsv";
  int precision = 2;
  bool last_only = false;
  std::string view;  // a standard view instead of --cfg
  RangeArgs range;
};

std::string Number(double v, int precision) {
  if (std::isnan(v)) return "nan";
  return fmt::format("{:.{}f}", v, precision);
}

std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string MarkdownField(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

// One table as delimited text: a header line, one line per row, then the totals.
std::string Delimited(const AnalyzeTable& t, const AnalyzePlane& p, const AnalyzeArgs& a) {
  bool csv = a.format == "csv", md = a.format == "markdown";
  auto field = [&](const std::string& s) { return csv ? CsvField(s) : md ? MarkdownField(s) : s; };
  std::string sep = csv ? "," : md ? " | " : "\t";
  std::string out, head = field(t.statistic);
  for (const std::string& c : p.columns) head += sep + field(c);
  auto line = [&](const std::string& label, const std::vector<double>& values) {
    std::string l = field(label);
    for (double v : values) l += sep + Number(v, a.precision);
    out += md ? "| " + l + " |\n" : l + "\n";
  };
  out += md ? "| " + head + " |\n|" : head + "\n";
  if (md) {
    for (size_t i = 0; i <= p.columns.size(); ++i) out += i == 0 ? "---|" : "---:|";
    out += "\n";
  }
  for (size_t r = 0; r < p.rows.size(); ++r) line(p.rows[r], p.values[r]);
  for (size_t k = 0; k < p.totals.size(); ++k) line(p.total_names[k], p.totals[k]);
  return out;
}

nlohmann::json Values(const std::vector<double>& v) {
  nlohmann::json out = nlohmann::json::array();
  for (double x : v) out.push_back(std::isfinite(x) ? nlohmann::json(x) : nlohmann::json());
  return out;
}

nlohmann::json ToJson(const std::vector<AnalyzeTable>& tables) {
  nlohmann::json out = nlohmann::json::array();
  for (const AnalyzeTable& t : tables) {
    nlohmann::json planes = nlohmann::json::array();
    for (const AnalyzePlane& p : t.planes) {
      nlohmann::json rows = nlohmann::json::array(), totals = nlohmann::json::object();
      for (size_t r = 0; r < p.rows.size(); ++r)
        rows.push_back({{"label", p.rows[r]}, {"values", Values(p.values[r])}});
      for (size_t k = 0; k < p.totals.size(); ++k) totals[p.total_names[k]] = Values(p.totals[k]);
      planes.push_back(
          {{"label", p.label}, {"columns", p.columns}, {"rows", rows}, {"totals", totals}});
    }
    out.push_back({{"name", t.name}, {"statistic", t.statistic}, {"planes", planes}});
  }
  return out;
}

int Run(AnalyzeArgs& a, const Distribution* dist) {
  if (a.view.empty() && a.req.cfg_path.empty()) {
    std::fprintf(stderr, "error: give a cfg (--cfg FILE) or a standard view (--view NAME)\n  hint: `parallax views` lists the views\n");
    return 2;
  }
  if (!a.view.empty()) {
    auto text = ViewCfg(a.view);
    if (!text.ok()) {
      std::fprintf(stderr, "%s\n", text.status().ToString().c_str());
      return 1;
    }
    a.req.cfg_text = std::move(text.value());
  }
  auto trace = LoadTraceOrReport(a.trace, false, dist != nullptr ? dist->threads : 0, dist);
  a.req.all_histograms = !a.last_only;
  AnalyzeRequest req = a.req;
  req.distribution = dist;
  if (!AllOk(dist, trace && ApplyRange(a.range, *trace, a.trace, &req.from, &req.to))) return 1;
  auto tables = Analyze(*trace, req);
  const bool quiet = dist != nullptr && dist->rank != 0;  // rank 0 prints the tables
  if (!tables.ok()) {
    if (quiet) std::fprintf(stderr, "[rank %u] ", dist->rank);
    std::fprintf(stderr, "%s\n", tables.status().ToString().c_str());
    return 1;
  }
  if (quiet) return 0;
  if (a.format == "json") {
    std::puts(ToJson(tables.value()).dump(2).c_str());
    return 0;
  }
  std::string out;
  for (const AnalyzeTable& t : tables.value()) {
    if (a.format == "markdown")
      out += "### " + t.name + "\n\n";
    else if (tables.value().size() > 1)
      out += "# " + t.name + "\n";
    for (const AnalyzePlane& p : t.planes) {
      if (!p.label.empty())
        out += (a.format == "markdown" ? "plane " : "# plane ") + p.label + "\n";
      out += Delimited(t, p, a);
      out += "\n";
    }
  }
  std::fputs(out.c_str(), stdout);
  return 0;
}

}  // namespace

Command AddAnalyzeCommand(CLI::App& app, const Distribution* dist) {
  auto args = std::make_shared<AnalyzeArgs>();
  CLI::App* sub = app.add_subcommand("analyze", "2D/3D histograms of a cfg as tables");
  sub->add_option("trace", args->trace, "trace file (.prv or .prv.gz)")->required();
  auto* cfg = sub->add_option("--cfg", args->req.cfg_path, "a Paraver .cfg with histograms");
  sub->add_option("--view", args->view, "a standard view with histograms (parallax views), e.g. mpi-profile")
      ->excludes(cfg);
  sub->add_option("--format", args->format, "tsv, csv, json or markdown")
      ->check(CLI::IsMember({"tsv", "csv", "json", "markdown"}));
  sub->add_option("--precision", args->precision, "decimals of numbers (tsv, csv, markdown)")
      ->check(CLI::Range(0, 17));
  sub->add_flag("--last", args->last_only, "only the last histogram (as paramedir)");
  sub->add_flag("-e,--hide-empty", args->req.hide_empty_columns, "hide columns whose total is 0");
  AddRangeOptions(sub, &args->range);
  return {sub, [args, dist] { return Run(*args, dist); }};
}

}  // namespace parallax::cli
