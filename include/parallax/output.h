#pragma once
// What front ends write besides traces: whole output files (tables, images, dumps) and the
// standard output. Both are checked: a full disk or a closed pipe is an error, never exit 0,
// and nothing partial is left under a final name.

#include <string>
#include <string_view>

#include "include/parallax/status.h"

namespace parallax {

// Writes `content` to `path` through a temporary name in the same folder, renamed into place
// once every byte is written and flushed; after an error nothing is left. An existing `path` is
// refused unless `overwrite`; a device or a pipe (/dev/stdout, a FIFO) is written in place.
Status WriteOutputFile(const std::string& path, std::string_view content, bool overwrite);

// Flushes the standard output (C stdio and C++ streams) and says whether everything written to
// it arrived: a command whose output was lost (a full disk, a closed pipe) must fail.
Status FinishStandardOutput();

// `bytes` in base64 (RFC 4648, with padding): images inside JSON answers and HTML reports.
std::string EncodeBase64(std::string_view bytes);

// From now on, a signal that ends the process (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGXCPU)
// first removes the temporary files of outputs being written, so an interrupted command leaves
// nothing behind. For programs (the command line); a library user with signal handlers of its
// own does not call it.
void RemoveTemporaryFilesOnSignals();

// A scratch folder "<TMPDIR or /tmp>/PREFIX-XXXXXX" (mode 0700) for files a command makes on
// its way (a cut before a conversion): removed with the files directly in it when the object
// goes out of scope, or by a signal after RemoveTemporaryFilesOnSignals. path() is empty when
// the folder could not be made (errno says why).
class ScratchFolder {
 public:
  explicit ScratchFolder(const std::string& prefix);
  ~ScratchFolder();
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace parallax
