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

// The damaged copy of the archive, removed when the fuzzer exits.
struct Archive {
  fs::path root, dir;
  Archive() {
    std::string tmpl = (fs::temp_directory_path() / "parallax-otf2-fuzz-XXXXXX").string();
    root = ::mkdtemp(tmpl.data());
    dir = root / "pp";
    fs::copy(fs::path(PARALLAX_TEST_DATA) / "otf2" / "ping-pong-otf2", dir, fs::copy_options::recursive);
  }
  ~Archive() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
};

}  // namespace

// libotf2 3.0.2 leaks on some error paths: the archive it was building when OTF2_Reader_Open
// fails on a damaged anchor file (about 10 KB), and a record's array when an event file ends
// inside it (otf2_evt_reader_read). Nothing Parallax can free (the calls return NULL or an
// error), so leaks allocated inside libotf2 are suppressed; Parallax's own state lives in
// RAII containers, and leaks allocated outside libotf2 are still reported.
extern "C" const char* __lsan_default_suppressions() { return "leak:libopen-trace-format2.so\n"; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const char* const kFiles[] = {"traces.otf2", "traces.def", "traces/0.def", "traces/0.evt"};
  static const Archive archive;
  const fs::path& dir = archive.dir;
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
