#include "src/semantic/info_type.h"

#include "src/filter/filter.h"

namespace parallax::semantic {

namespace {

using model::Level;

// The compose slot and the aggregation (or cpu) slot of a level.
std::pair<Slot, Slot> LevelSlots(Level l) {
  switch (l) {
    case Level::kWorkload:
      return {Slot::kComposeWorkload, Slot::kWorkload};
    case Level::kAppl:
      return {Slot::kComposeAppl, Slot::kAppl};
    case Level::kTask:
      return {Slot::kComposeTask, Slot::kTask};
    case Level::kThread:
      return {Slot::kComposeThread, Slot::kThread};
    case Level::kSystem:
      return {Slot::kComposeSystem, Slot::kSystem};
    case Level::kNode:
      return {Slot::kComposeNode, Slot::kNode};
    case Level::kCpu:
      return {Slot::kComposeCpu, Slot::kCpu};
  }
  return {Slot::kComposeThread, Slot::kThread};
}

// The slots scanned from the top, below the top composes: compose and function of every level
// from `top` down to `low` (the function of `low` itself only when `include_low`), and from the
// CPU level down to the thread level for resource windows.
std::vector<Slot> ChainSlots(Level top, Level low, bool include_low) {
  std::vector<Level> levels;
  if (top >= Level::kSystem) {
    for (int l = static_cast<int>(top); l <= static_cast<int>(Level::kCpu); ++l)
      levels.push_back(static_cast<Level>(l));
    if (low >= Level::kSystem) {
      while (!levels.empty() && levels.back() > low) levels.pop_back();
    } else {
      levels.push_back(Level::kThread);
    }
  } else {
    for (int l = static_cast<int>(top); l <= static_cast<int>(low); ++l)
      levels.push_back(static_cast<Level>(l));
  }
  std::vector<Slot> out;
  for (Level l : levels) {
    out.push_back(LevelSlots(l).first);
    if (l != low || include_low) out.push_back(LevelSlots(l).second);
  }
  return out;
}

// The first type in the list that is not "same as below"; kSameAsBelow when all are.
InfoType FirstType(const WindowSpec& w, const std::vector<Slot>& slots, const FunctionRegistry& reg) {
  for (auto it = w.extra_composes.rbegin(); it != w.extra_composes.rend(); ++it) {
    const auto* d = reg.FindAnyGroup(it->name);
    if (d && d->info != InfoType::kSameAsBelow) return d->info;
  }
  for (Slot s : slots) {
    const auto* d = reg.Find(SlotFunction(w, s).name, s);
    if (!d) return InfoType::kNone;
    if (d->info != InfoType::kSameAsBelow) return d->info;
  }
  return InfoType::kSameAsBelow;
}

// The info type and the window whose chain decided it.
std::pair<InfoType, size_t> InfoTypeAndSource(const std::vector<WindowSpec>& ws, size_t index,
                                              const FunctionRegistry& reg) {
  const WindowSpec& w = ws[index];
  std::vector<Slot> slots = {Slot::kTopCompose1, Slot::kTopCompose2};
  if (!w.derived) {
    std::vector<Slot> chain = ChainSlots(w.level, Level::kThread, true);
    slots.insert(slots.end(), chain.begin(), chain.end());
    InfoType t = FirstType(w, slots, reg);
    return {t == InfoType::kSameAsBelow ? InfoType::kNone : t, index};
  }
  Level low = w.level;
  for (int p : {w.parent0, w.parent1})
    if (p >= 0 && ws[static_cast<size_t>(p)].level > low &&
        (ws[static_cast<size_t>(p)].level >= Level::kSystem) == (low >= Level::kSystem))
      low = ws[static_cast<size_t>(p)].level;
  std::vector<Slot> chain = ChainSlots(w.level, low, false);
  slots.insert(slots.end(), chain.begin(), chain.end());
  slots.push_back(Slot::kDerived);
  InfoType t = FirstType(w, slots, reg);
  if (t != InfoType::kSameAsBelow) return {t, index};
  if (w.parent0 < 0) return {InfoType::kNone, index};
  return InfoTypeAndSource(ws, static_cast<size_t>(w.parent0), reg);
}

}  // namespace

InfoType WindowInfoType(const std::vector<WindowSpec>& ws, size_t index,
                        const FunctionRegistry* functions) {
  return InfoTypeAndSource(ws, index, RegistryOr(functions)).first;
}

ValueLabels WindowValueLabels(const std::vector<WindowSpec>& ws, size_t index,
                              const model::PcfCatalog* pcf, const FunctionRegistry* functions) {
  auto [info, source] = InfoTypeAndSource(ws, index, RegistryOr(functions));
  ValueLabels out{info, {}};
  if (info != InfoType::kEventValue) return out;
  if (pcf != nullptr)
    for (uint32_t type : pcf->EventTypes())
      if (filter::Passes(ws[source].filter.event_type, type) && pcf->HasValueLabels(type))
        out.event_types.push_back(type);
  if (out.event_types.empty()) out.info = InfoType::kNone;
  return out;
}

}  // namespace parallax::semantic
