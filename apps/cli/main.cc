// parallax: the command-line front end. One *_command.cc per subcommand; this file only
// dispatches.

#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "include/parallax/output.h"
#include "apps/cli/commands.h"
#include "apps/cli/progress.h"

namespace {
constexpr const char* kVersion = "0.1.0";

int Run(int argc, char** argv) {
  CLI::App app{"Parallax: understand how parallel programs behave in time (Paraver-compatible)",
               "parallax"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("parallax ") + kVersion);
  // Accepted before or after the subcommand; handed to the loader through the environment
  // variable it reads (apps/cli/progress.cc), so the commands need not know about it.
  std::string memory_limit;
  app.add_option("--memory-limit", memory_limit,
                 "most memory a trace load may use (e.g. 8G, 512M; default: 3/4 of the physical "
                 "memory, of ulimit -v or of the job's cgroup); also PARALLAX_MEMORY_LIMIT");
  // Plug-ins (docs/plugins.md): appended to PARALLAX_PLUGINS, which every command reads
  // (apps/cli/progress.cc); all are loaded once here so that a bad one stops any command.
  std::vector<std::string> plugins;
  app.add_option("--plugin", plugins,
                 "load semantic functions from a plug-in library (repeatable); also "
                 "PARALLAX_PLUGINS (colon-separated)");
  bool no_cache = false, cache_all = false;
  std::string cache_dir;
  app.add_flag("--no-cache", no_cache, "neither read nor write trace caches; also PARALLAX_CACHE=off");
  app.add_flag("--cache", cache_all,
               "write a cache for every trace opened, small ones too (by default only traces of "
               "PARALLAX_CACHE_MIN=64M of text or more); also PARALLAX_CACHE=on");
  bool compact = false;
  app.add_flag("--compact", compact,
               "hold the records coded in blocks (about 5 bytes each instead of 22) and decode each "
               "thread as it is read; also PARALLAX_COMPACT=on. A trace whose plain cache would "
               "exceed half the memory limit is cached so anyway");
  app.add_option("--cache-dir", cache_dir,
                 "keep trace caches in DIR (default: ~/.cache/parallax, kept within "
                 "PARALLAX_CACHE_MAX=16G); 'beside' keeps TRACE.pxc next to each trace; also "
                 "PARALLAX_CACHE_DIR");
  app.fallthrough();
  std::vector<parallax::cli::Command> commands = {
      parallax::cli::AddInfoCommand(app),
      parallax::cli::AddConvertCommand(app),
      parallax::cli::AddTextCommand(app),
      parallax::cli::AddParamedirCommand(app),
      parallax::cli::AddFunctionsCommand(app),
      parallax::cli::AddViewsCommand(app),
      parallax::cli::AddMergeCommand(app),
      parallax::cli::AddPopCommand(app),
      parallax::cli::AddReplayCommand(app),
      parallax::cli::AddTimelineCommand(app),
      parallax::cli::AddServeCommand(app),
      parallax::cli::AddAnalyzeCommand(app),
      parallax::cli::AddCutCommand(app),
      parallax::cli::AddFilterCommand(app),
      parallax::cli::AddSoftCountersCommand(app),
      parallax::cli::AddClocksCommand(app),
      parallax::cli::AddCacheCommand(app),
      parallax::cli::AddSortCommand(app),
      parallax::cli::AddShiftCommand(app),
      parallax::cli::AddDiagnoseCommand(app),
      parallax::cli::AddStructureCommand(app),
      parallax::cli::AddCompareCommand(app),
      parallax::cli::AddCheckCommand(app),
      parallax::cli::AddReportCommand(app),
  };
  // paramedir spells its long options with one dash (-tu, -npr); CLI11 wants two.
  std::vector<std::string> args(argv, argv + argc);
  // Installed as `paramedir` (a link to this binary): behave as paramedir, which replaces
  // its output files.
  std::string_view self = args[0];
  if (self.substr(self.find_last_of('/') + 1) == "paramedir") {
    args.insert(args.begin() + 1, {"paramedir", "--force"});
  }
  // Scripts probe `paramedir -v` / `--version` to find the tool: answer on stdout, exit 0.
  if (args.size() > 2 && args[1] == "paramedir") {
    for (size_t i = 2; i < args.size(); ++i) {
      if (args[i] != "-v" && args[i] != "--version") continue;
      std::printf("paramedir (Parallax %s): Paraver's paramedir batch mode\n", kVersion);
      return 0;
    }
  }
  for (auto& s : args) {
    if (s == "-tu") s = "--tu";
    if (s == "-npr") s = "--npr";
  }
  // paramedir's two-letter options: the shifts -t (threads), -tt (tasks), -ta (applications),
  // -tw (the whole trace), each with a file, and -g TYPE (event-driven cutter).
  if (args.size() > 1 && args[1] == "paramedir") {
    for (auto& s : args) {
      if (s == "-t") s = "--thread-shifter";
      if (s == "-tt") s = "--task-shifter";
      if (s == "-ta") s = "--app-shifter";
      if (s == "-tw") s = "--workload-shifter";
      if (s == "-g") s = "--event-cutter";
      if (s == "-et") s = "--event-translator";
    }
  }
  std::vector<char*> argp;
  for (auto& s : args) argp.push_back(s.data());
  try {
    app.parse(static_cast<int>(argp.size()), argp.data());
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  if (!memory_limit.empty()) {
    if (!parallax::cli::ParseByteSize(memory_limit)) {
      std::fprintf(stderr,
                   "parallax: error: --memory-limit '%s' is not a size\n  hint: write bytes or a "
                   "number with K, M, G or T (powers of 1024), e.g. 8G\n",
                   memory_limit.c_str());
      return 2;
    }
    setenv("PARALLAX_MEMORY_LIMIT", memory_limit.c_str(), 1);
  }
  if (!plugins.empty()) {
    std::string list = std::getenv("PARALLAX_PLUGINS") ? std::getenv("PARALLAX_PLUGINS") : "";
    for (const auto& p : plugins) list += (list.empty() ? "" : ":") + p;
    setenv("PARALLAX_PLUGINS", list.c_str(), 1);
  }
  std::shared_ptr<const parallax::FunctionRegistry> functions;
  if (!parallax::cli::LoadFunctionsOrReport(&functions)) return 1;
  if (cache_all) setenv("PARALLAX_CACHE", "on", 1);
  if (no_cache) setenv("PARALLAX_CACHE", "off", 1);
  if (!cache_dir.empty()) setenv("PARALLAX_CACHE_DIR", cache_dir.c_str(), 1);
  if (compact) setenv("PARALLAX_COMPACT", "on", 1);
  parallax::RemoveTemporaryFilesOnSignals();
  for (auto& c : commands) {
    if (!c.sub->parsed()) continue;
    int status = c.run();
    // What a command printed must have arrived: a full disk or a closed pipe is an error.
    if (parallax::Status out = parallax::FinishStandardOutput(); !out.ok()) {
      std::fprintf(stderr, "parallax: %s\n", out.ToString().c_str());
      if (status == 0) status = 1;
    }
    return status;
  }
  return 2;
}

}  // namespace

// No exception ends the program unreported: running out of memory or an internal error is a
// message and a non-zero exit, never an abort.
int main(int argc, char** argv) {
  try {
    return Run(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fputs(
        "parallax: error: out of memory\n  hint: use a machine with more memory, or cut the "
        "trace to a time range or a subset of threads first\n",
        stderr);
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(
        stderr,
        "parallax: internal error: %s\n  hint: please report this with the input that causes it\n",
        e.what());
  } catch (...) {
    std::fputs("parallax: internal error: unknown exception\n", stderr);
  }
  return 70;
}
