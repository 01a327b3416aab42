#pragma once
// Each subcommand registers its options on the CLI11 app and returns the function that runs it.

#include <CLI/CLI.hpp>

#include <functional>

#include "include/parallax/trace.h"

namespace parallax::cli {

// A registered subcommand and the function that runs it once parsed (returns the exit code).
struct Command {
  CLI::App* sub = nullptr;
  std::function<int()> run;
};

Command AddInfoCommand(CLI::App& app);
Command AddConvertCommand(CLI::App& app);
Command AddTextCommand(CLI::App& app);
// `dist`: run as one process of a distributed run (apps/mpi: each rank computes its share of
// the histogram rows, rank 0 writes the files).
Command AddParamedirCommand(CLI::App& app, const Distribution* dist = nullptr);
Command AddFunctionsCommand(CLI::App& app);
Command AddViewsCommand(CLI::App& app);
Command AddMergeCommand(CLI::App& app);
// `dist`: as AddParamedirCommand's (one trace's rows, or several traces, dealt out; rank 0
// prints the report).
Command AddPopCommand(CLI::App& app, const Distribution* dist = nullptr);
Command AddReplayCommand(CLI::App& app);
// `dist`: as AddParamedirCommand's (each window's rows dealt out; rank 0 writes the images).
Command AddTimelineCommand(CLI::App& app, const Distribution* dist = nullptr);
Command AddServeCommand(CLI::App& app);
// `dist`: as AddParamedirCommand's (only rank 0 prints the tables).
Command AddAnalyzeCommand(CLI::App& app, const Distribution* dist = nullptr);
Command AddCutCommand(CLI::App& app);
Command AddFilterCommand(CLI::App& app);
Command AddSoftCountersCommand(CLI::App& app);
Command AddClocksCommand(CLI::App& app);
Command AddCacheCommand(CLI::App& app);
Command AddSortCommand(CLI::App& app);
Command AddShiftCommand(CLI::App& app);
Command AddDiagnoseCommand(CLI::App& app);
Command AddStructureCommand(CLI::App& app);
Command AddCompareCommand(CLI::App& app);
// `dist`: as AddPopCommand's (the POP factors and histograms computed together; process 0
// reports).
Command AddCheckCommand(CLI::App& app, const Distribution* dist = nullptr);
// `dist`: as AddPopCommand's (POP and the timelines computed together; process 0 writes).
Command AddReportCommand(CLI::App& app, const Distribution* dist = nullptr);

}  // namespace parallax::cli
