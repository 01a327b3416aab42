#pragma once
// Reader of PICL traces (the format ParaGraph displays; Tape/PVM's t2p and coNCePTuaL write
// it) into Paraver's model.
//
// Accepted input: one record per line, fields separated by blanks:
//   RECORD EVENT TIME NODE PROCESS N [DATATYPE ITEM...]
// RECORD -3 opens EVENT on (NODE, PROCESS) and -4 closes it; any other record type is an
// instant. TIME is in seconds. N data items follow a data type code when N > 0. For the send
// event (-21) the items of the opening record are (bytes, tag, destination node, destination
// process); for the receive event (-52) the items of the closing record are (bytes, tag,
// source node, source process).
//
// Mapping (docs/formats.md): NODE -> task, PROCESS -> thread of that task; open events nest
// and the innermost is the thread's state (value = 1 + the index of the event number, labelled
// "send", "receive" or "PICL event N"); every open/close also gives an event of type
// kPiclEventType (value = the event number negated at the open, 0 at the close); a send is
// matched in order with the receive of the same (source, destination, tag) and becomes a
// communication (logical and physical send = send open, logical receive = receive open,
// physical receive = receive close).

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "include/parallax/status.h"
#include "src/io/builder/trace_builder.h"
#include "src/io/json/json_trace.h"

namespace parallax::io {

inline constexpr uint32_t kPiclEventType = 60004000;
inline constexpr uint32_t kPiclInstantType = 60004001;
inline constexpr int kPiclOpen = -3;
inline constexpr int kPiclClose = -4;
// Parallax's record type for a Paraver event: EVENT is the event type, the one data item its
// value (read back as that type and value; any other instant record gives kPiclInstantType).
inline constexpr int kPiclParaverEvent = -10;

Result<ImportedTrace> ParsePiclTrace(std::string_view text, const std::string& file);
Result<ImportedTrace> ReadPiclTrace(const std::string& path);

// Writes PICL that ReadPiclTrace reads (docs/formats.md says what PICL cannot hold): each
// state as an open/close of event number = state value, each event as a kPiclParaverEvent
// record, each communication as a send (-21) open/close at the logical send and a receive
// (-52) opened at the logical receive and closed at the physical receive.
bool WritePicl(const TraceView& trace, const std::function<bool(std::string_view)>& sink);
Status WritePiclTrace(const TraceView& trace, const std::string& path, bool overwrite);

}  // namespace parallax::io
