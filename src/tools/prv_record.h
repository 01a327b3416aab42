#pragma once
// One body line of a .prv trace, parsed in place for the streaming tools (trace-format.md §3):
//   1:cpu:appl:task:thread:begin:end:state
//   2:cpu:appl:task:thread:time:type:value[:type:value...]
//   3:cpu:appl:task:thread:lsend:psend:cpu:appl:task:thread:lrecv:precv:size:tag
//   4:cpu:appl:task:thread:time:field[:field...]   global operation (see ParseGlobalOp)
//   #...  comment;  anything else (and type-4 lines for ParsePrvRecord) is kind 'o'.
// Fields are decimal integers; event values and communication sizes and tags keep their text
// so that a tool writes them back exactly as read. The parser reuses its storage: no
// allocation per record once the largest event line has been seen.

#include <cstdint>
#include <string_view>
#include <vector>

#include "include/parallax/status.h"

namespace parallax::tools {

struct EventPair {
  uint64_t type = 0;
  int64_t value = 0;            // the value as a signed number (text kept below)
  std::string_view value_text;  // as written in the input
};

struct PrvRecord {
  char kind = 'o';  // '1' state, '2' events, '3' communication, '#' comment, 'o' other
  uint32_t cpu = 0, appl = 0, task = 0, thread = 0;
  uint64_t t1 = 0, t2 = 0;  // state begin/end, event time, logical/physical send
  uint32_t state = 0;
  std::vector<EventPair> events;
  // Communications: the receiver and its times; size and tag as text.
  uint32_t cpu2 = 0, appl2 = 0, task2 = 0, thread2 = 0;
  uint64_t t3 = 0, t4 = 0;
  std::string_view size_text, tag_text;
  std::string_view line;  // the whole line
  // Offsets in `line`: just after the thread field's ':' (where the first time begins) and,
  // for events and global operations, one past the ':' after the time (where the pairs or the
  // global operation's fields begin, as written).
  uint32_t times_at = 0, pairs_at = 0;
  // Set by a RecordRewrite on the parse workers (record_stream.h): the record's new line, the
  // time it sorts at and the latest time it holds.
  std::string_view rewritten;
  uint64_t rewritten_time = 0, rewritten_end = 0;
  uint64_t rewritten_at = 0, rewritten_size = 0;  // in its block's buffer (internal)
};

// Parses `line` (without newline) into `rec`. Errors name the file, line and column and say
// what was expected. With `skip_pairs`, an event line is read up to its time only (rec->events
// stays empty; the rest of the line is not checked).
Status ParsePrvRecord(std::string_view line, const std::string& file, uint64_t line_no,
                      PrvRecord* rec, bool skip_pairs = false);

// What ReadPrvRecord does with the pairs of an event line: read them into rec->events, skip
// them (the line is read up to its time only and not checked further), or check them without
// keeping them (rec->events stays empty; for tools that copy the pairs as text).
enum class Pairs : uint8_t { kRead, kSkip, kCheck };

// The same, for hot loops: false with *error set on a malformed line (no Status is built for a
// good one).
bool ReadPrvRecord(std::string_view line, const std::string& file, uint64_t line_no, PrvRecord* rec,
                   Status* error, Pairs pairs = Pairs::kRead);

// True for a type-4 line ("4:..."), which ParsePrvRecord leaves as kind 'o'.
inline bool IsGlobalOpLine(std::string_view line) {
  return line.size() >= 2 && line[0] == '4' && line[1] == ':';
}

// Parses a type-4 global operation line, `4:cpu:appl:task:thread:time:` followed by one or more
// integer fields (in the traces seen: communicator, bytes sent, bytes received, operation id
// and a last flag; Paraver ignores these lines). Fills kind '4', the object fields, t1 (the
// time) and pairs_at (where the fields after the time begin); those fields are checked to be
// integers and kept as text. Errors are located as ParsePrvRecord's.
Status ParseGlobalOp(std::string_view line, const std::string& file, uint64_t line_no,
                     PrvRecord* rec);

}  // namespace parallax::tools
