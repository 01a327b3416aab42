#pragma once
// What a lenient text reader (.pcf, .row) skipped: how many lines, and the first few with their
// location. Shared by the companion-file readers.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "include/parallax/status.h"
#include "src/base/input_buffer.h"

namespace parallax::io {

// One skipped line or other problem. Line and column are 1-based.
struct LineIssue {
  uint64_t line = 0;
  uint64_t column = 0;
  std::string reason;
};

struct LineIssues {
  static constexpr size_t kMaxKept = 10;
  std::string file;
  uint64_t count = 0;
  std::vector<LineIssue> first;

  void Add(uint64_t line, uint64_t column, std::string reason);
  // "file:line:col: reason" per kept issue, then "... and N more" when some were not kept.
  std::string ToString() const;
};

// True when the text has line ends and every one is "\r\n": a CRLF file, whose writers put one
// '\r' back on every line. Any bare '\n' makes it a LF file in which '\r' is text, so that
// reading and writing a file always round-trips (a first line alone could be dropped as
// malformed, and then decide differently the second time).
bool IsCrlfText(std::string_view text);

// Opens a file that may legitimately be absent (the .pcf or .row next to a trace): when it does
// not exist the result is an error and `*absent` (when given) is set; any other failure leaves
// `*absent` false. `what` and `hint` make the message ("no .pcf file", what it provides).
Result<base::InputBuffer> OpenCompanionFile(const std::string& path, bool* absent, const char* what,
                                            const char* hint);

}  // namespace parallax::io
