#pragma once
// What the OTF2 writer and reader agree on so that an archive Parallax writes reads back
// without loss: archive properties holding the Paraver header, .pcf and .row; region
// descriptions marking state regions; metric member descriptions naming event types; and the
// attributes carrying what OTF2 records have no field for.

#include <otf2/otf2.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "src/model/time.h"

namespace parallax::io {

inline constexpr const char* kOtf2HeaderProperty = "PARALLAX::PRV_HEADER";
inline constexpr const char* kOtf2PcfProperty = "PARALLAX::PCF";
inline constexpr const char* kOtf2RowProperty = "PARALLAX::ROW";
inline constexpr const char* kOtf2UnsignedTypesProperty = "PARALLAX::UNSIGNED_VALUE_TYPES";
inline constexpr std::string_view kOtf2StatePrefix = "Paraver state ";
inline constexpr std::string_view kOtf2EventTypePrefix = "Paraver event type ";
inline constexpr OTF2_AttributeRef kNoAttr = OTF2_UNDEFINED_ATTRIBUTE;

// Attributes (UINT64) Parallax adds to records: the cpu of a record when not 0, the physical
// send time on MpiSend, the logical receive time on MpiRecv, and a flag on the Leave of a state
// that has no end in the Paraver trace.
struct Otf2Attributes {
  OTF2_AttributeRef cpu = kNoAttr, physical_send = kNoAttr, logical_recv = kNoAttr, open_end = kNoAttr;
  static constexpr const char* kCpu = "Paraver::cpu";
  static constexpr const char* kPhysicalSend = "Paraver::physical_send";
  static constexpr const char* kLogicalRecv = "Paraver::logical_receive";
  static constexpr const char* kOpenEnd = "Paraver::open_end";
  void Recognise(std::string_view name, OTF2_AttributeRef ref) {
    if (name == kCpu) cpu = ref;
    else if (name == kPhysicalSend) physical_send = ref;
    else if (name == kLogicalRecv) logical_recv = ref;
    else if (name == kOpenEnd) open_end = ref;
  }
};

// Timer resolution of a trace unit (ticks per second); units above seconds use 1.
inline uint64_t UnitsPerSecond(model::TimeUnit u) {
  switch (u) {
    case model::TimeUnit::kNs: return 1000000000;
    case model::TimeUnit::kUs: return 1000000;
    case model::TimeUnit::kMs: return 1000;
    default: return 1;
  }
}

}  // namespace parallax::io
