#pragma once
// A performance report of a run or a scaling series (docs/report.md): the run's facts with its
// provenance and hash, the POP table and its efficiency chart, the timelines that explain each
// lost factor (useful duration, MPI calls, IPC when counters exist) with the cfg behind each,
// the diagnosis (wait states, root causes, critical path) and the structure (iterations,
// phases, clusters), each with the command that reproduces it. One self-contained HTML file
// (images inline, nothing fetched), or Markdown with the images as files beside it.

#include <cstdint>
#include <string>
#include <vector>

#include "include/parallax/status.h"
#include "include/parallax/trace.h"

namespace parallax {

struct ReportRequest {
  std::vector<std::string> traces;  // one run, or a series (its POP table is the series')
  std::string format = "html";      // html or md
  // md: the folder, relative to the Markdown file, its image and cfg links use.
  std::string files_folder = "report_files";
  uint32_t width = 1000;            // of the timeline images, pixels
  std::string title;                // default: from the traces' names
  LoadOptions load;
  // Set: one process of a distributed run (parallax-mpi report): the processes load the traces
  // and compute the POP factors and the timelines together; process 0 alone computes the rest
  // and has the report (the others' Report is empty).
  const Distribution* distribution = nullptr;
};

struct ReportFile {
  std::string name;  // inside files_folder
  std::string data;
};

struct Report {
  std::string text;               // the HTML or the Markdown
  std::vector<ReportFile> files;  // md: images and cfgs to write into files_folder
  std::vector<std::string> notes; // what is missing and why (also in the report)
};

// Fails when a trace cannot be loaded; parts that cannot be computed for these traces (POP
// without MPI, IPC without counters) are left out with a note saying why.
Result<Report> BuildReport(const ReportRequest& request);

}  // namespace parallax
