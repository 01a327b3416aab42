#pragma once
// What the values of a window mean (semantics.md §10): scanning from the top of the chain, the
// info type of the first function that is not "same as below"; for a derived window the scan
// stops at the compose slot of the derived level, then the derived function, then parent 0.
// Used for labels and colours by the analyzer, the renderer and the textual view.

#include <cstdint>
#include <vector>

#include "src/model/pcf_catalog.h"
#include "src/semantic/function_registry.h"
#include "src/semantic/window_spec.h"

namespace parallax::semantic {

// `functions`: the registry the window's functions come from (null: the built-in ones).
InfoType WindowInfoType(const std::vector<WindowSpec>& windows, size_t index,
                        const FunctionRegistry* functions = nullptr);

// How the values of a window are labelled (renderer, textual view). The info type, except that
// an event-value window is numeric (kNone) when none of its event types has a value label in
// the .pcf (IPC = PAPI_TOT_INS / PAPI_TOT_CYC is an event value by §10, but a count). Its event
// types are those passing the event type filter of the window whose chain decided the info
// type: the window itself, or the parent 0 a derived window defers to (a derived window's own
// filter is empty).
struct ValueLabels {
  InfoType info = InfoType::kNone;
  std::vector<uint32_t> event_types;  // event value windows: the types that label values
};
ValueLabels WindowValueLabels(const std::vector<WindowSpec>& windows, size_t index,
                              const model::PcfCatalog* pcf,
                              const FunctionRegistry* functions = nullptr);

}  // namespace parallax::semantic
