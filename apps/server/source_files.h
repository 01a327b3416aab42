#pragma once
// Source files for click-back (GET /api/source): the "LINE (FILE[, MODULE])" labels of caller
// line events parsed to a location, the file found under the served root, and a bounded window
// of its lines read.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "apps/server/root_dir.h"

namespace parallax::server {

struct SourceLocation {
  std::string file;  // as the label names it
  uint64_t line = 0;  // 1-based
};

// "42 (mpi_example.c, mpi_example)" (the tracing library), "42 (file.c)" (Extrae). Nothing for
// any other label (e.g. "Unresolved", or a line 0).
std::optional<SourceLocation> ParseSourceLabel(std::string_view label);

// The canonical path under the root of the file a label names: the path itself when it exists
// there (relative to the root, or absolute inside it), else the one file under the root with the
// same name (and the same trailing directories, when the label gives some). At most
// `max_entries` directory entries are looked at; symlinks are not followed. Errors: 404 none,
// 409 more than one (the message lists some), 413 the search was cut short.
std::string FindSourceFile(const RootDir& root, const std::string& file, PathError* error,
                           size_t max_entries = 100000);

struct SourceLines {
  uint64_t first = 0;  // the line number of lines[0]
  uint64_t total = 0;  // lines in the file
  std::vector<std::string> lines;
};

constexpr uint64_t kMaxSourceBytes = uint64_t{8} << 20;
constexpr uint64_t kMaxSourceContext = 1000;  // lines either side: at most 2001 lines returned

// Lines line-context .. line+context of the text file `path` (canonical). Errors: 400 not a
// regular file, binary (a NUL byte) or `line` past the end, 404 unreadable, 413 over
// kMaxSourceBytes. `shown` names the file in messages.
SourceLines ReadSourceLines(const std::string& path, const std::string& shown, uint64_t line,
                            uint64_t context, PathError* error);

}  // namespace parallax::server
