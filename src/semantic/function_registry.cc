#include "src/semantic/function_registry.h"

#include <fmt/format.h>

#include <string>

#include "src/semantic/kernels.h"

namespace parallax::semantic {

struct FunctionRegistry::Entry {
  CustomFunction fn;             // owns the strings the descriptor views
  FunctionDesc desc;
};

namespace {

constexpr std::string_view kHint =
    "see docs/plugins.md: a function needs a unique name, a kind (thread, compose or derived) and "
    "the kernel of that kind";

Status Refuse(const CustomFunction& f, const std::string& why) {
  std::string from = f.origin.empty() ? "" : fmt::format(" (from {})", f.origin);
  return Status::Error(fmt::format("cannot add function '{}'{}: {}", f.name, from, why), {}, std::string(kHint));
}

bool ParseInfo(std::string_view name, InfoType* out) {
  for (int i = 0; i <= static_cast<int>(InfoType::kBandwidth); ++i) {
    if (InfoTypeName(static_cast<InfoType>(i)) == name) {
      *out = static_cast<InfoType>(i);
      return true;
    }
  }
  return false;
}

}  // namespace

const FunctionRegistry& FunctionRegistry::Builtin() {
  static const FunctionRegistry kBuiltin;
  return kBuiltin;
}

Status FunctionRegistry::Add(CustomFunction f) {
  if (f.name.empty()) return Refuse(f, "the name is empty");
  if (f.name.find_first_of("{},\n\r\t") != std::string::npos || f.name.front() == ' ' || f.name.back() == ' ')
    return Refuse(f, "a name cannot contain braces, commas, tabs or line breaks, nor start or end with a space "
                     "(cfg files could not name it)");
  if (const FunctionDesc* d = FindAnyGroup(f.name)) {
    if (d->custom == nullptr) return Refuse(f, "a built-in function has this name");
    return Refuse(f, fmt::format("a function of {} already has this name", d->origin.empty() ? "another origin" : d->origin));
  }
  InfoType info;
  if (!ParseInfo(f.info, &info)) return Refuse(f, fmt::format("unknown info type '{}'", f.info));
  if (f.params.size() > kMaxFunctionParams)
    return Refuse(f, fmt::format("{} parameters (at most {})", f.params.size(), kMaxFunctionParams));
  for (const auto& p : f.params)
    if (p.name.empty()) return Refuse(f, "a parameter has no name");

  auto e = std::make_shared<Entry>();
  FunctionDesc& d = e->desc;
  d.info = info;
  if (f.kind == "thread") {
    if (!f.thread) return Refuse(f, "a thread function needs a thread kernel");
    if ((f.records & (kRecordStates | kRecordEvents | kRecordSends | kRecordReceives)) == 0 ||
        (f.records & ~(kRecordStates | kRecordEvents | kRecordSends | kRecordReceives)) != 0)
      return Refuse(f, fmt::format("records mask {} is not a combination of states (1), events (2), sends (4) "
                                   "and receives (8)", f.records));
    d.group = (f.records & kRecordEvents) ? FunctionGroup::kEvent
              : (f.records & (kRecordSends | kRecordReceives)) ? FunctionGroup::kComm
                                                                 : FunctionGroup::kState;
    d.valid = ((f.records & kRecordStates) ? kValidStates : 0u) | ((f.records & kRecordEvents) ? kValidEvents : 0u) |
              ((f.records & kRecordSends) ? kValidLogSend : 0u) | ((f.records & kRecordReceives) ? kValidLogRecv : 0u);
    d.stateful = f.stateful;
    d.thread = kernels::CustomThread;
  } else if (f.kind == "compose") {
    if (!f.compose) return Refuse(f, "a compose function needs a compose kernel");
    d.group = FunctionGroup::kCompose;
    d.compose = kernels::CustomCompose;
  } else if (f.kind == "derived") {
    if (!f.derived) return Refuse(f, "a derived function needs a derived kernel");
    d.group = FunctionGroup::kDerived;
    d.derived = kernels::CustomDerived;
  } else {
    return Refuse(f, fmt::format("unknown kind '{}' (expected thread, compose or derived)", f.kind));
  }
  e->fn = std::move(f);
  const CustomFunction& fn = e->fn;
  d.name = fn.name;
  d.doc = fn.doc;
  d.origin = fn.origin;
  d.custom = &fn;
  for (const auto& p : fn.params) d.params.push_back(ParamDesc{p.name, p.defaults});
  added_.push_back(std::move(e));
  return Status::Ok();
}

const FunctionDesc* FunctionRegistry::Find(std::string_view name, Slot slot) const {
  if (const FunctionDesc* d = FindFunction(name, slot)) return d;
  for (const auto& e : added_)
    if (e->desc.name == name && SlotAccepts(slot, e->desc.group)) return &e->desc;
  return nullptr;
}

const FunctionDesc* FunctionRegistry::FindAnyGroup(std::string_view name) const {
  if (const FunctionDesc* d = FindFunctionAnyGroup(name)) return d;
  for (const auto& e : added_)
    if (e->desc.name == name) return &e->desc;
  return nullptr;
}

std::vector<const FunctionDesc*> FunctionRegistry::All() const {
  std::vector<const FunctionDesc*> out;
  for (const FunctionDesc& d : FunctionTable()) out.push_back(&d);
  for (const auto& e : added_) out.push_back(&e->desc);
  return out;
}

}  // namespace parallax::semantic
