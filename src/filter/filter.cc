#include "src/filter/filter.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

namespace parallax::filter {

namespace {
constexpr std::array<const char*, 7> kCriterionNames = {"All", "None", "=", "!=", ">", "<", "[x,y]"};
}  // namespace

const char* CriterionName(CriterionOp op) { return kCriterionNames[static_cast<size_t>(op)]; }

bool ParseCriterionName(std::string_view name, CriterionOp* out) {
  for (size_t i = 0; i < kCriterionNames.size(); ++i) {
    if (name == kCriterionNames[i]) {
      *out = static_cast<CriterionOp>(i);
      return true;
    }
  }
  return false;
}

bool Passes(const Criterion& c, double d) {
  if (c.op == CriterionOp::kAll) return true;
  const auto& p = c.values;
  if (p.empty()) return false;
  switch (c.op) {
    case CriterionOp::kNone: return false;
    case CriterionOp::kEqual:
      for (double v : p)
        if (d == v) return true;
      return false;
    case CriterionOp::kNotEqual:
      for (double v : p)
        if (d == v) return false;
      return true;
    case CriterionOp::kGreater:
      for (double v : p)
        if (!(d > v)) return false;
      return true;
    case CriterionOp::kLess:
      for (double v : p)
        if (!(d < v)) return false;
      return true;
    case CriterionOp::kRange: return p.size() >= 2 && p[0] <= d && d <= p[1];
    default: return true;
  }
}

Filter::Filter(FilterSpec spec, const model::TraceHeader& header, const store::TraceStore& store,
               const model::PcfCatalog* pcf, model::Level level, model::TimeUnit window_unit)
    : spec_(std::move(spec)), header_(&header), store_(&store), pcf_(pcf), level_(level), unit_(window_unit) {}

double Filter::ScaledValue(uint32_t type, int64_t value) const {
  int p = pcf_ ? pcf_->Precision(type) : 0;
  double v = static_cast<double>(value);
  return p == 0 ? v : v * std::pow(10.0, -p);
}

bool Filter::PassEvent(uint32_t type, int64_t value) const {
  bool t = Passes(spec_.event_type, static_cast<double>(type));
  if (spec_.type_value_and && !t) return false;
  if (!spec_.type_value_and && t) return true;
  if (!spec_.event_value.values.empty()) return Passes(spec_.event_value, ScaledValue(type, value));
  return t;
}

bool Filter::FewPassingTypes(size_t limit, std::vector<uint32_t>* types) const {
  // PassEvent is then Passes(event_type, type): with "and", a value criterion that does not
  // matter passes every value; with "or", only an empty one adds nothing.
  if (EventValueMatters() || (!spec_.type_value_and && !spec_.event_value.values.empty())) return false;
  const Criterion& c = spec_.event_type;
  std::vector<uint32_t> out;
  auto add = [&out](double v) {
    if (v >= 0 && v <= static_cast<double>(UINT32_MAX) && v == std::floor(v)) out.push_back(static_cast<uint32_t>(v));
  };
  if (c.op == CriterionOp::kNone || (c.op != CriterionOp::kAll && c.values.empty())) {
    // nothing passes
  } else if (c.op == CriterionOp::kEqual) {
    for (double v : c.values) add(v);
  } else if (c.op == CriterionOp::kRange && c.values.size() >= 2) {
    const double lo = std::max(0.0, std::ceil(c.values[0]));
    const double hi = std::min(static_cast<double>(UINT32_MAX), std::floor(c.values[1]));
    if (hi >= lo && hi - lo >= static_cast<double>(limit)) return false;
    for (double v = lo; v <= hi; ++v) add(v);
  } else {
    return false;
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  if (out.size() > limit) return false;
  *types = std::move(out);
  return true;
}

double Filter::ObjectOf(uint32_t thread, uint16_t cpu) const {
  const auto& p = header_->processes;
  const auto& info = p.thread(model::ThreadIndex(thread));
  switch (level_) {
    case model::Level::kThread: return thread;
    case model::Level::kTask: return info.task.value;
    case model::Level::kAppl: return info.appl.value;
    case model::Level::kCpu: return cpu;
    case model::Level::kNode:
      return cpu == 0 || header_->resources.empty() ? 0 : header_->resources.NodeOfCpu(model::CpuId(cpu)).value;
    default: return 0;
  }
}

namespace {

// Step 1 of semantics.md §3.3: logical/physical records.
bool PassKind(const FilterSpec& f, const store::CommTable& c, uint32_t comm, bool logical_record, bool recv_side) {
  if (f.logical && f.physical) return true;
  if (!f.logical && !f.physical) return false;
  if (logical_record) return f.logical;
  if (f.physical) return true;
  // A physical receive stands for the logical one when it is the later of the two.
  return recv_side && c.log_recv[comm] <= c.phy_recv[comm];
}

}  // namespace

bool Filter::PassComm(uint32_t comm, bool logical_record, bool recv_side) const {
  const store::CommTable& c = store_->comms();
  if (!PassKind(spec_, c, comm, logical_record, recv_side)) return false;
  if (!spec_.intra_node && !spec_.inter_node) return false;
  if (spec_.intra_node != spec_.inter_node) {
    auto node = [&](uint16_t cpu) -> uint32_t {
      return cpu == 0 || header_->resources.empty() ? 0 : header_->resources.NodeOfCpu(model::CpuId(cpu)).value + 1;
    };
    bool same = node(c.sender_cpu[comm]) == node(c.receiver_cpu[comm]);
    if (same != spec_.intra_node) return false;
  }
  // Steps 3-6: sender, receiver, tag, size, each pair joined by AND or OR.
  bool from = Passes(spec_.from, ObjectOf(c.sender[comm], c.sender_cpu[comm]));
  if (spec_.from_to_and && !from) return false;
  if (!spec_.from_to_and && from) return true;
  if (!Passes(spec_.to, ObjectOf(c.receiver[comm], c.receiver_cpu[comm]))) return false;
  bool tag = Passes(spec_.tag, static_cast<double>(c.tag[comm]));
  if (spec_.tag_size_and && !tag) return false;
  if (!spec_.tag_size_and && tag) return true;
  if (!Passes(spec_.size, static_cast<double>(c.size[comm]))) return false;
  // Step 7: bandwidth over the duration the flags select.
  if (spec_.bandwidth.op == CriterionOp::kAll) return true;
  double duration;
  if (spec_.logical && c.log_recv[comm] > c.phy_recv[comm]) {
    duration = static_cast<double>(c.log_recv[comm]) - static_cast<double>(c.log_send[comm]);
  } else if (spec_.physical) {
    duration = static_cast<double>(c.phy_recv[comm]) - static_cast<double>(c.phy_send[comm]);
  } else {
    duration = static_cast<double>(c.phy_recv[comm]) - static_cast<double>(c.log_send[comm]);
  }
  double bw = static_cast<double>(c.size[comm]) / model::ConvertTime(duration, header_->unit, unit_);
  return Passes(spec_.bandwidth, bw);
}

}  // namespace parallax::filter
