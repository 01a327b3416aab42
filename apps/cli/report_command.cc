// `parallax report TRACE... -o report.html|report.md [--format html|md] [--width N] [--title T]
// [--force]`: a performance report of a run or a scaling series (docs/report.md). HTML is one
// self-contained file; Markdown has its images and cfgs in REPORT_files/ beside it. Nothing is
// left behind when it fails.

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "apps/cli/commands.h"
#include "include/parallax/output.h"
#include "include/parallax/report.h"

namespace parallax::cli {

namespace {

namespace fs = std::filesystem;

struct ReportArgs {
  std::vector<std::string> traces;
  std::string output, format, title;
  uint32_t width = 1000;
  bool force = false;
};

int Fail(const Status& s) {
  std::fprintf(stderr, "%s\n", s.ToString().c_str());
  return 1;
}

int Run(const ReportArgs& a, const Distribution* dist) {
  const bool quiet = dist != nullptr && dist->rank != 0;  // process 0 writes the report
  ReportRequest req;
  req.distribution = dist;
  if (dist != nullptr) req.load.threads = dist->threads;
  req.traces = a.traces;
  req.width = a.width;
  req.title = a.title;
  const std::string ext = fs::path(a.output).extension().string();
  req.format = !a.format.empty() ? a.format : (ext == ".md" || ext == ".markdown") ? "md" : "html";
  const fs::path out(a.output);
  const fs::path folder = out.parent_path() / (out.stem().string() + "_files");
  req.files_folder = folder.filename().string();
  std::error_code ec;
  // Every process checks the same files (one file system), so all stop together.
  if (!a.force && fs::exists(out, ec))
    return Fail(Status::Error(fmt::format("{} exists", a.output), {}, "use --force to replace it"));
  if (req.format == "md" && !a.force && fs::exists(folder, ec))
    return Fail(Status::Error(fmt::format("{} exists", folder.string()), {},
                              "use --force to replace the report's files in it"));
  for (const std::string& t : a.traces)
    if (fs::weakly_canonical(t, ec) == fs::weakly_canonical(out, ec))
      return Fail(Status::Error(fmt::format("the report {} would replace its trace", a.output)));
  auto r = BuildReport(req);
  if (!r.ok()) {
    if (quiet) std::fprintf(stderr, "[rank %u] ", dist->rank);
    return Fail(r.status());
  }
  if (quiet) return 0;
  // Markdown: the files first, the report last, so that a report never links to missing files;
  // after an error, what this run wrote is removed.
  std::vector<fs::path> written;
  bool made_folder = false;
  auto undo = [&] {
    for (const fs::path& p : written) fs::remove(p, ec);
    if (made_folder) fs::remove(folder, ec);
  };
  if (req.format == "md" && !r.value().files.empty()) {
    made_folder = fs::create_directory(folder, ec);
    if (ec) return Fail(Status::Error(fmt::format("cannot create {}: {}", folder.string(), ec.message())));
    for (const ReportFile& f : r.value().files) {
      const fs::path p = folder / f.name;
      if (Status s = WriteOutputFile(p.string(), f.data, a.force); !s.ok()) {
        undo();
        return Fail(s);
      }
      written.push_back(p);
    }
  }
  if (Status s = WriteOutputFile(a.output, r.value().text, a.force); !s.ok()) {
    undo();
    return Fail(s);
  }
  std::printf("%s: %s report of %zu trace%s", a.output.c_str(), req.format == "md" ? "Markdown" : "HTML",
              a.traces.size(), a.traces.size() == 1 ? "" : "s");
  if (!written.empty()) std::printf(", %zu files in %s", written.size(), folder.string().c_str());
  std::printf("\n");
  for (const std::string& n : r.value().notes) std::printf("note: %s\n", n.c_str());
  return 0;
}

}  // namespace

Command AddReportCommand(CLI::App& app, const Distribution* dist) {
  auto args = std::make_shared<ReportArgs>();
  CLI::App* sub = app.add_subcommand(
      "report", "a self-contained performance report of a run or a scaling series: POP, timelines, wait states, "
                "structure (HTML, or Markdown with images beside it)");
  sub->add_option("traces", args->traces, "the trace, or the traces of a scaling series")->required();
  sub->add_option("-o,--output", args->output, "the report: .html, or .md (its files go to NAME_files/)")->required();
  sub->add_option("--format", args->format, "html or md (default: from the output's extension)")
      ->check(CLI::IsMember({"html", "md"}));
  sub->add_option("--width", args->width, "width of the timelines and the chart, pixels")->default_val(1000);
  sub->add_option("--title", args->title, "the report's title");
  sub->add_flag("--force", args->force, "replace an existing report (and its files)");
  return {sub, [args, dist] { return Run(*args, dist); }};
}

}  // namespace parallax::cli
