// Fuzz target: the OTF2 reader (libotf2 plus Parallax's mapping) on a damaged archive. The
// ping-pong archive of tests/data/otf2 is copied once into a temp folder; each input replaces
// one of its files, chosen by the input's first byte (0 anchor traces.otf2, 1 global
// definitions traces.def, 2 local definitions traces/0.def, 3 events traces/0.evt), with the
// rest of the input. The reader must return a trace or a Status, never crash or hang.
// Covered: the anchor header, definition and event parsing of libotf2 as Parallax drives it,
// and every callback of the mapping; not covered: archives with other layouts (SIONlib, zlib).

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "src/io/otf2/otf2_trace.h"

namespace {

namespace fs = std::filesystem;

const fs::path& Archive() {
  static const fs::path dir = [] {
    std::string tmpl = (fs::temp_directory_path() / "parallax-otf2-fuzz-XXXXXX").string();
    fs::path d = ::mkdtemp(tmpl.data());
    fs::copy(fs::path(PARALLAX_TEST_DATA) / "otf2" / "ping-pong-otf2", d / "pp", fs::copy_options::recursive);
    return d / "pp";
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const char* const kFiles[] = {"traces.otf2", "traces.def", "traces/0.def", "traces/0.evt"};
  const fs::path& dir = Archive();
  const fs::path target = dir / kFiles[data[0] % 4];
  const fs::path original = fs::path(PARALLAX_TEST_DATA) / "otf2" / "ping-pong-otf2" / kFiles[data[0] % 4];
  {
    std::ofstream out(target, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data + 1), static_cast<std::streamsize>(size - 1));
  }
  auto r = parallax::io::ReadOtf2Trace((dir / "traces.otf2").string());
  if (r.ok()) (void)r->prv.store.state_records();
  fs::copy_file(original, target, fs::copy_options::overwrite_existing);
  return 0;
}
