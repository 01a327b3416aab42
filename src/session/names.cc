#include "src/session/names.h"

#include "src/base/closest.h"

namespace parallax::session {

std::string ThreadFunctionHint(const semantic::FunctionRegistry& functions, std::string_view name) {
  std::vector<std::string> names;
  for (const semantic::FunctionDesc* f : functions.All())
    if (functions.Find(f->name, semantic::Slot::kThread) == f) names.emplace_back(f->name);
  const std::string closest = base::ClosestHint(name, names);
  const std::string rest = "see docs/functions.md (or `parallax functions`) for the names, as Paraver spells them";
  return closest.empty() ? rest : closest + "; " + rest;
}

std::string WindowNamesHint(const std::vector<semantic::WindowSpec>& windows, std::string_view name) {
  std::vector<std::string> names;
  for (const auto& w : windows) names.push_back(w.name);
  std::string out;
  for (const std::string& n : base::ClosestNames(name, names, names.size(), true))
    out += (out.empty() ? "the cfg's windows: " : ", ") + n;
  return out.empty() ? "the cfg has no window" : out;
}

}  // namespace parallax::session
