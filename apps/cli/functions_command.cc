// `parallax functions [--markdown] [--json]`: the semantic functions of the descriptor table.

#include <fmt/format.h>

#include <cstdio>
#include <memory>

#include "apps/cli/commands.h"
#include "apps/cli/progress.h"
#include "apps/server/json_convert.h"
#include "include/parallax/functions.h"

namespace parallax::cli {

namespace {

struct FunctionsArgs {
  bool markdown = false;
  bool json = false;
};

int Run(const FunctionsArgs& a) {
  std::shared_ptr<const FunctionRegistry> functions;
  if (!LoadFunctionsOrReport(&functions)) return 1;
  if (a.markdown) {
    std::fputs(FunctionsMarkdown().c_str(), stdout);
    return 0;
  }
  auto list = ListFunctions(functions.get());
  if (a.json) {
    std::puts(server::ToJson(list).dump(2).c_str());
    return 0;
  }
  for (const auto& f : list) {
    std::printf("%-14s %-28s %s", f.group.c_str(), f.name.c_str(), f.doc.c_str());
    if (!f.origin.empty()) std::printf(" [%s]", f.origin.c_str());
    std::printf("\n");
  }
  return 0;
}

}  // namespace

Command AddFunctionsCommand(CLI::App& app) {
  auto args = std::make_shared<FunctionsArgs>();
  CLI::App* sub = app.add_subcommand("functions", "List the semantic functions (Paraver names)");
  sub->add_flag("--markdown", args->markdown, "print docs/functions.md");
  sub->add_flag("--json", args->json, "print JSON");
  return {sub, [args] { return Run(*args); }};
}

}  // namespace parallax::cli
