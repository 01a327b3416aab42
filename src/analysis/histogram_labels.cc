#include "src/analysis/histogram_labels.h"

#include "src/semantic/saturate.h"

#include <cmath>

#include <fmt/format.h>

#include "src/analysis/histogram.h"
#include "src/filter/filter.h"
#include "src/semantic/evaluator.h"

namespace parallax::analysis {

namespace {

using model::Level;
using semantic::InfoType;
using semantic::Slot;

std::string Group(std::string s) {
  bool neg = !s.empty() && s[0] == '-';
  size_t start = neg ? 1 : 0;
  size_t dot = s.find('.');
  size_t int_end = dot == std::string::npos ? s.size() : dot;
  std::string out = s.substr(0, start);
  size_t digits = int_end - start;
  for (size_t i = start; i < int_end; ++i) {
    out += s[i];
    size_t left = int_end - i - 1;
    if (left > 0 && left % 3 == 0 && digits > 3) out += ',';
  }
  return out + s.substr(int_end);
}

// rendering.md §6.1: the label of an event value.
std::string EventValueLabel(const LabelContext& ctx, const std::vector<semantic::WindowSpec>& ws,
                            size_t index, double v, bool short_labels) {
  size_t f = index;
  while (ws[f].derived && ws[f].parent0 >= 0) f = static_cast<size_t>(ws[f].parent0);
  const filter::Criterion& type = ws[f].filter.event_type;
  int64_t iv = semantic::SaturateCast<int64_t>(v);
  const std::string* label = nullptr;
  bool candidates = false;
  if (ctx.pcf && ctx.trace_event_types && !type.values.empty()) {
    for (uint32_t t : *ctx.trace_event_types) {
      if (!filter::Passes(type, static_cast<double>(t))) continue;
      candidates = true;
      if ((label = ctx.pcf->EventValueLabel(t, iv))) break;
    }
  }
  if (!label && !candidates && ctx.pcf) {
    for (uint32_t t : ctx.pcf->EventTypes())
      if ((label = ctx.pcf->EventValueLabel(t, iv))) break;
  }
  if (!label) return "value " + GroupedNumber(v, 2, false);
  std::string l = *label;
  size_t a = l.find('['), b = l.rfind(']');
  if (short_labels && a != std::string::npos && b != std::string::npos && b > a)
    l = l.substr(0, a) + l.substr(b + 1);
  return l;
}

std::string BandwidthUnit(model::TimeUnit u) {
  static constexpr const char* kUnits[] = {"GB/sec",    "MB/sec",     "KB/sec",   "bytes/sec",
                                           "bytes/min", "bytes/hour", "bytes/day"};
  return kUnits[static_cast<size_t>(u)];
}

}  // namespace

std::string GroupedNumber(double v, int precision, bool always_decimals) {
  bool frac = v != std::floor(v);
  return Group(fmt::format("{:.{}f}", v, frac || always_decimals ? precision : 0));
}


std::string ObjectLabel(const LabelContext& ctx, Level level, uint32_t o) {
  if (ctx.row)
    if (const std::string* l = ctx.row->Label(level, o)) return *l;
  const model::TraceHeader& h = *ctx.header;
  switch (level) {
    case Level::kThread:
      return model::ThreadName(h.processes, model::ThreadIndex(o));
    case Level::kTask:
      return model::TaskName(h.processes, model::TaskIndex(o));
    case Level::kAppl:
      return "APPL " + model::DefaultApplLabel(model::ApplIndex(o));
    case Level::kWorkload:
      return "WORKLOAD";
    case Level::kSystem:
      return "SYSTEM";
    case Level::kNode:
      return "NODE " + model::DefaultNodeLabel(model::NodeIndex(o));
    case Level::kCpu:
      return model::CpuName(h.resources, model::CpuId(o + 1));
  }
  return "";
}

std::string ValueLabel(const LabelContext& ctx, const std::vector<semantic::WindowSpec>& ws,
                       size_t index, double v, bool short_labels) {
  InfoType info = WindowInfoType(ws, index, ctx.functions);
  int64_t iv = semantic::SaturateCast<int64_t>(v);
  const model::TraceHeader& h = *ctx.header;
  switch (info) {
    case InfoType::kState:
      if (ctx.pcf)
        if (const std::string* l = ctx.pcf->StateLabel(iv)) return *l;
      return fmt::format("Unknown state {}", iv);
    case InfoType::kEventType:
      if (ctx.pcf)
        if (const std::string* l = ctx.pcf->EventTypeLabel(static_cast<uint32_t>(iv))) return *l;
      return fmt::format("type {}", iv);
    case InfoType::kEventValue:
      return EventValueLabel(ctx, ws, index, v, short_labels);
    case InfoType::kTime: {
      model::TimeUnit u = ws[index].unit;
      return GroupedNumber(v, u == model::TimeUnit::kNs ? 0 : 2, u != model::TimeUnit::kNs) + " " +
             std::string(model::TimeUnitName(u));
    }
    case InfoType::kCommSize:
      return GroupedNumber(v, 2, false) + " bytes";
    case InfoType::kBandwidth:
      return GroupedNumber(v, 2, false) + " " + BandwidthUnit(ws[index].unit);
    case InfoType::kObject:
      if (iv >= 1 && iv <= semantic::ObjectCount(h, ws[index].level))
        return ObjectLabel(ctx, ws[index].level, static_cast<uint32_t>(iv - 1));
      break;
    case InfoType::kAppl:
    case InfoType::kTask:
    case InfoType::kThread: {
      Level l = info == InfoType::kAppl   ? Level::kAppl
                : info == InfoType::kTask ? Level::kTask
                                          : Level::kThread;
      if (iv >= 1 && iv <= semantic::ObjectCount(h, l))
        return ObjectLabel(ctx, l, static_cast<uint32_t>(iv - 1));
      break;
    }
    case InfoType::kNode:
      if (iv >= 1 && iv <= semantic::ObjectCount(h, Level::kNode))
        return ObjectLabel(ctx, Level::kNode, static_cast<uint32_t>(iv - 1));
      break;
    case InfoType::kCpu:
      if (iv >= 1 && iv <= semantic::ObjectCount(h, Level::kCpu))
        return ObjectLabel(ctx, Level::kCpu, static_cast<uint32_t>(iv - 1));
      break;
    default:
      break;
  }
  return GroupedNumber(v, 2, false);
}

std::string ValueUnit(const std::vector<semantic::WindowSpec>& ws, size_t index,
                      const semantic::FunctionRegistry* functions) {
  const model::TimeUnit u = ws[index].unit;
  switch (WindowInfoType(ws, index, functions)) {
    case InfoType::kTime: return std::string(model::TimeUnitName(u));
    case InfoType::kCommSize: return "bytes";
    case InfoType::kBandwidth: return BandwidthUnit(u);
    case InfoType::kState: return "state";
    case InfoType::kEventType: return "event type";
    case InfoType::kEventValue: return "event value";
    case InfoType::kCommTag: return "tag";
    case InfoType::kObject: return "object";
    case InfoType::kAppl: return "appl";
    case InfoType::kTask: return "task";
    case InfoType::kThread: return "thread";
    case InfoType::kNode: return "node";
    case InfoType::kCpu: return "cpu";
    default: return "number";
  }
}

std::string StatisticUnit(std::string_view statistic, const std::vector<semantic::WindowSpec>& ws,
                          int control, int data, const semantic::FunctionRegistry* functions) {
  if (data < 0) data = control;
  if (control < 0 || static_cast<size_t>(control) >= ws.size() || static_cast<size_t>(data) >= ws.size())
    return "number";
  const std::string control_time(model::TimeUnitName(ws[static_cast<size_t>(control)].unit));
  const std::string data_time(model::TimeUnitName(ws[static_cast<size_t>(data)].unit));
  switch (CommStatisticIndex(statistic)) {
    case 0:
    case 1: return "count";
    case -1: break;
    default: return "bytes";
  }
  switch (SemanticStatisticIndex(statistic)) {
    case 0:   // Time
    case 10:  // Average Burst Time
    case 11:  // Stdev Burst Time
      return control_time;
    case 1:
    case 2:
    case 3:
    case 5: return "%";
    case 4:
    case 15: return "count";
    case 6: {  // Integral: |value| x duration in the data window's unit
      std::string v = ValueUnit(ws, static_cast<size_t>(data), functions);
      return v == "number" ? data_time : v + "*" + data_time;
    }
    default: return ValueUnit(ws, static_cast<size_t>(data), functions);
  }
}

}  // namespace parallax::analysis
