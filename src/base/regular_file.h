#pragma once
// Opening an input file without ever blocking. A named pipe (FIFO) in place of a trace, a .pcf,
// a .row, a cache or its seal blocks open(2) until some process writes to it, and a terminal or
// another device blocks read(2) or never ends: the load would hang, and with it every server
// request for that trace. So every reader opens its files through OpenRegularFile, which keeps
// only regular files and never waits.

#include <sys/stat.h>

#include <string>

#include "include/parallax/status.h"

namespace parallax::base {

// Opens `path` read-only (close-on-exec) when it is a regular file: a stat first, so that no
// device or pipe is even opened, then open(2) with O_NONBLOCK (a pipe swapped in meanwhile does
// not block it) and fstat of what was opened, which must be the regular file; the descriptor is
// then put back in blocking mode. `st` (when given) gets what fstat said. Anything else is an
// error naming the kind of file and the path, with a hint.
Result<int> OpenRegularFile(const std::string& path, struct stat* st = nullptr);

// "a named pipe (FIFO)", "a directory", ... for a file mode that is not a regular file; empty
// for a regular file.
std::string NonRegularKind(mode_t mode);

// Reads the whole regular file `path` (at most `max_bytes`; a larger file is an error).
Result<std::string> ReadRegularFile(const std::string& path, size_t max_bytes);

}  // namespace parallax::base
