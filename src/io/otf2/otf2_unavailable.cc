// OTF2 entry points of a build without libotf2: every call says so.

#include "src/io/otf2/otf2_trace.h"

namespace parallax::io {

namespace {
Status Unsupported(const std::string& path) {
  return Status::Error("this Parallax was built without OTF2 support", Location{path, 0, 0},
                       "install libopen-trace-format2-dev (scripts/setup.sh) and rebuild");
}
}  // namespace

bool Otf2Supported() { return false; }
Result<ImportedTrace> ReadOtf2Trace(const std::string& path) { return Unsupported(path); }
Status WriteOtf2Trace(const TraceView&, const std::string& path, bool) { return Unsupported(path); }

}  // namespace parallax::io
