#pragma once
// What the OTF2 writer and reader agree on so that an archive Parallax writes reads back
// without loss: archive properties holding the Paraver header, .pcf and .row; region
// descriptions marking state regions; metric member descriptions naming event types; and the
// attributes carrying what OTF2 records have no field for.

#include <otf2/otf2.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "include/parallax/status.h"
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

// libotf2 prints every error it meets to stderr ("[OTF2] src/OTF2_Buffer.c:1405: error: ..."),
// several lines for one damaged file. While an Otf2Messages lives on a thread, what libotf2
// reports from that thread is kept instead (the first message: the cause; later ones are the
// layers above giving up) and Annotate adds it to the Status Parallax returns. libotf2's
// callback is process-wide: it is installed once and stays; on threads without an
// Otf2Messages it prints as libotf2 would.
class Otf2Messages {
 public:
  Otf2Messages();
  ~Otf2Messages();
  Otf2Messages(const Otf2Messages&) = delete;
  Otf2Messages& operator=(const Otf2Messages&) = delete;
  const std::string& first() const { return first_; }
  // `s` with "(libotf2: FIRST)" after its message when libotf2 reported something.
  Status Annotate(Status s) const;

 private:
  friend struct Otf2MessageSink;
  std::string first_;
  uint64_t count_ = 0;
  Otf2Messages* outer_ = nullptr;
};

}  // namespace parallax::io
