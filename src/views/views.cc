// ListViews and ViewCfg (include/parallax/views.h): the compiled-in cfgs of views/, read once
// with the cfg reader (no trace: names only).

#include "include/parallax/views.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "src/base/closest.h"
#include "src/cfg/cfg_reader.h"
#include "src/views/embedded_views.h"

namespace parallax {

namespace {

// What a view reads, from the event types its windows filter on and their functions.
std::vector<std::string> Needs(const cfg::CfgFile& file) {
  std::vector<std::string> out;
  auto add = [&](const char* what) {
    if (std::find(out.begin(), out.end(), what) == out.end()) out.push_back(what);
  };
  for (const cfg::CfgWindow& w : file.window_info)
    for (double t : w.events.types) {
      if (t >= 50000001 && t <= 50000005) add("MPI");
      else if (t >= 60000001 && t <= 60000024) add(t == 60000019 ? "user functions" : "OpenMP");
      else if (t >= 42000000 && t < 43000000) add("counters");
      else if (t == 61000000) add("pthreads (Parallax's tracer)");
    }
  return out;
}

}  // namespace

std::vector<ViewInfo> ListViews() {
  std::vector<ViewInfo> out;
  for (size_t i = 0; i < views::kEmbeddedViewCount; ++i) {
    const views::EmbeddedView& v = views::kEmbeddedViews[i];
    ViewInfo info;
    info.name = v.name;
    auto file = cfg::ParseCfg(v.text, info.name + ".cfg", cfg::CfgContext{});
    if (!file.ok()) continue;  // tests/unit/views keeps every view readable
    std::string text;
    for (const std::string& line : file->description) text += (text.empty() ? "" : " ") + line;
    info.description = text;
    const size_t colon = text.find(':');
    info.title = colon == std::string::npos ? info.name : text.substr(0, colon);
    for (const auto& w : file->windows) info.windows.push_back(w.name);
    for (const auto& h : file->histograms) info.histograms.push_back(h.spec.name);
    info.needs = Needs(file.value());
    out.push_back(std::move(info));
  }
  return out;
}

Result<std::string> ViewCfg(const std::string& name) {
  std::vector<std::string> names;
  for (size_t i = 0; i < views::kEmbeddedViewCount; ++i) {
    const views::EmbeddedView& v = views::kEmbeddedViews[i];
    if (name == v.name) return std::string(v.text);
    names.push_back(v.name);
  }
  std::string hint = "`parallax views` lists them";
  const std::vector<std::string> closest = base::ClosestNames(name, names, 3, true);
  if (!closest.empty()) {
    std::string list;
    for (const std::string& n : closest) list += (list.empty() ? "" : ", ") + n;
    hint = fmt::format("the closest: {} (`parallax views` lists them all)", list);
  }
  return Status::Error(fmt::format("no view named '{}'", name), {}, hint);
}

}  // namespace parallax
