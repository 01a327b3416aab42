#pragma once
// Evaluates a window's FilterSpec on events and communications (semantics.md §3).

#include <cstddef>
#include <cstdint>
#include <vector>

#include "src/filter/filter_spec.h"
#include "src/model/objects.h"
#include "src/model/pcf_catalog.h"
#include "src/model/trace_header.h"
#include "src/store/trace_store.h"

namespace parallax::filter {

class Filter {
 public:
  // `level` is the window level (from/to objects are mapped to it); `pcf` may be null.
  Filter(FilterSpec spec, const model::TraceHeader& header, const store::TraceStore& store,
         const model::PcfCatalog* pcf, model::Level level, model::TimeUnit window_unit);

  const FilterSpec& spec() const { return spec_; }
  bool logical() const { return spec_.logical; }
  bool physical() const { return spec_.physical; }

  // An event passes when its type and (precision-scaled) value pass.
  bool PassEvent(uint32_t type, int64_t value) const;
  // A communication record passes (§3.3). `logical_record`: the record is a logical one (LOG
  // SEND, LOG RECV, RSEND+LOG, RRECV+LOG); `recv_side`: it describes a receive.
  bool PassComm(uint32_t comm, bool logical_record, bool recv_side) const;
  // Event value as the semantic functions see it (raw value × 10^-precision).
  double ScaledValue(uint32_t type, int64_t value) const;
  // Whether PassEvent can depend on the value; when not, the type alone decides it.
  bool EventValueMatters() const {
    return !spec_.event_value.values.empty() && spec_.event_value.op != CriterionOp::kAll;
  }
  // When the events that pass are exactly those of at most `limit` types, whatever their
  // values (a type criterion "=" with a short list, or a short "[x,y]" range, and no value
  // criterion that could widen it): true, with those types, sorted, in `types`.
  bool FewPassingTypes(size_t limit, std::vector<uint32_t>* types) const;

 private:
  double ObjectOf(uint32_t thread, uint16_t cpu) const;

  FilterSpec spec_;
  const model::TraceHeader* header_;
  const store::TraceStore* store_;
  const model::PcfCatalog* pcf_;
  model::Level level_;
  model::TimeUnit unit_;
};

// Whether datum d passes a criterion.
bool Passes(const Criterion& c, double d);

}  // namespace parallax::filter
