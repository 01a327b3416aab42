// `parallax views [NAME] [--json]`: the standard views (docs/views.md); with a name, its cfg, to
// keep or to edit (`parallax views mpi-profile > mine.cfg`).

#include <cstdio>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "apps/cli/commands.h"
#include "include/parallax/views.h"

namespace parallax::cli {

namespace {

struct ViewsArgs {
  std::string name;
  bool json = false;
};

std::string Joined(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

int Run(const ViewsArgs& a) {
  if (!a.name.empty()) {
    auto text = ViewCfg(a.name);
    if (!text.ok()) {
      std::fprintf(stderr, "%s\n", text.status().ToString().c_str());
      return 1;
    }
    std::fputs(text->c_str(), stdout);
    return std::ferror(stdout) ? 1 : 0;
  }
  const std::vector<ViewInfo> views = ListViews();
  if (a.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const ViewInfo& v : views)
      out.push_back({{"name", v.name}, {"title", v.title}, {"description", v.description}, {"windows", v.windows},
                     {"histograms", v.histograms}, {"needs", v.needs}});
    std::puts(out.dump(2).c_str());
    return 0;
  }
  for (const ViewInfo& v : views) {
    std::printf("%-26s %s%s\n", v.name.c_str(), v.histograms.empty() ? "timeline " : "histogram",
                v.needs.empty() ? "" : ("  needs " + Joined(v.needs)).c_str());
    std::printf("    %s\n", v.description.c_str());
  }
  std::printf("\nUse: parallax timeline TRACE --view NAME -o out.png; parallax analyze TRACE --view NAME; "
              "parallax views NAME > NAME.cfg\n");
  return 0;
}

}  // namespace

Command AddViewsCommand(CLI::App& app) {
  auto args = std::make_shared<ViewsArgs>();
  CLI::App* sub = app.add_subcommand("views", "List the standard views (cfgs shipped with Parallax), or print one");
  sub->add_option("name", args->name, "a view's name: print its cfg");
  sub->add_flag("--json", args->json, "print the list as JSON");
  return {sub, [args] { return Run(*args); }};
}

}  // namespace parallax::cli
