// ListViews and ViewCfg (include/parallax/views.h): the compiled-in cfgs of views/, read once
// with the cfg reader (no trace: names only).

#include "include/parallax/views.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "src/cfg/cfg_reader.h"
#include "src/views/embedded_views.h"

namespace parallax {

namespace {

// Edit distance, for "did you mean".
size_t Distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

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
  std::vector<std::pair<size_t, std::string>> near;
  for (size_t i = 0; i < views::kEmbeddedViewCount; ++i) {
    const views::EmbeddedView& v = views::kEmbeddedViews[i];
    if (name == v.name) return std::string(v.text);
    near.emplace_back(Distance(name, v.name), v.name);
  }
  std::sort(near.begin(), near.end());
  std::string hint = "`parallax views` lists them";
  if (!near.empty()) {
    std::string closest;
    for (size_t k = 0; k < near.size() && k < 3; ++k) closest += (k ? ", " : "") + near[k].second;
    hint = fmt::format("the closest: {} (`parallax views` lists them all)", closest);
  }
  return Status::Error(fmt::format("no view named '{}'", name), {}, hint);
}

}  // namespace parallax
