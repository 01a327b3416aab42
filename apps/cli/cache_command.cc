// `parallax cache build|info|clear TRACE`: the on-disk cache of a trace (docs/tools.md).

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "apps/cli/commands.h"
#include "apps/cli/progress.h"
#include "include/parallax/cache.h"

namespace parallax::cli {

namespace {

struct CacheArgs {
  std::string action;
  std::string trace;
};

void PrintInfo(const CacheInfo& c) {
  std::string out = fmt::format("cache        {}\n", c.path);
  if (!c.exists) {
    out += "state        absent (built by the next command that opens the trace, or `parallax cache build`)\n";
  } else if (!c.usable) {
    out += fmt::format("state        not usable: {} (rebuilt on the next open)\n", c.problem);
  } else {
    out += "state        up to date\n";
  }
  if (c.exists) out += fmt::format("version      {}\n", c.version);
  out += fmt::format("size         {} bytes (trace {} bytes)\n", c.file_bytes, c.trace_bytes);
  if (c.usable) {
    out += fmt::format("records      {} ({:.1f} bytes per record)\n", c.records,
                       c.records ? static_cast<double>(c.file_bytes) / static_cast<double>(c.records) : 0.0);
    out += fmt::format("layout       {}\n", c.compact ? "compact records (coded in blocks)" : "plain columns");
  }
  std::fputs(out.c_str(), stdout);
}

int Run(const CacheArgs& a) {
  LoadOptions opts;
  ApplyCacheEnvironment(opts);
  if (a.action == "clear") {
    auto removed = ClearCache(a.trace, opts.cache_dir);
    if (!removed.ok()) {
      std::fprintf(stderr, "%s\n", removed.status().ToString().c_str());
      return 1;
    }
    std::printf("%s\n", removed.value() ? "removed" : "no cache to remove");
    return 0;
  }
  auto info = a.action == "build" ? BuildCache(a.trace, opts) : InspectCache(a.trace, opts.cache_dir);
  if (!info.ok()) {
    std::fprintf(stderr, "%s\n", info.status().ToString().c_str());
    return 1;
  }
  PrintInfo(info.value());
  return 0;
}

}  // namespace

Command AddCacheCommand(CLI::App& app) {
  auto args = std::make_shared<CacheArgs>();
  CLI::App* sub = app.add_subcommand(
      "cache", "build, describe or remove the on-disk cache that makes a trace reopen fast");
  sub->add_option("action", args->action, "build, info or clear")
      ->required()
      ->check(CLI::IsMember({"build", "info", "clear"}));
  sub->add_option("trace", args->trace, "the .prv or .prv.gz trace")->required();
  return {sub, [args] { return Run(*args); }};
}

}  // namespace parallax::cli
