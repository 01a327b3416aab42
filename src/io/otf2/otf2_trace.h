#pragma once
// OTF2 (Score-P's trace format, read by Vampir and Scalasca) through Debian's libotf2: an
// archive is an anchor file NAME.otf2, global definitions NAME.def and a folder NAME/ with one
// event (and local definition) file per location. The mapping onto Paraver's model is in
// docs/formats.md; in short:
//   location group -> task, location -> thread, system tree parent of a group -> node (one cpu
//     per location);
//   Enter/Leave -> the innermost region is the state (Extrae's state of an MPI call, Running for
//     other regions) plus Extrae-like events: MPI regions -> 50000001/2/3 (point-to-point,
//     collective, other) with Extrae's values, other regions -> 60000019 (user function, the value
//     names the region; a Leave gives back the enclosing function, 0 outside any);
//   MpiSend/MpiIsend + MpiRecv/MpiIrecv (matched in order by communicator, sender, receiver and
//     tag) -> communications; MpiCollectiveEnd -> Extrae's 50100001..4 (sizes, root, comm);
//   Metric -> one event type per metric member; ProgramBegin/End -> 40000001 (1/0).
// Archives written by Parallax carry the Paraver header, .pcf and .row as archive properties and
// mark their regions, metrics and attributes so that they read back without loss.

#include <cstdint>
#include <string>
#include <vector>

#include "include/parallax/status.h"
#include "src/io/builder/trace_builder.h"
#include "src/io/json/json_trace.h"

namespace parallax::io {

inline constexpr uint32_t kOtf2ApplicationType = 40000001;  // Extrae: Application (1 begin, 0 end)
inline constexpr uint32_t kOtf2MpiP2pType = 50000001;
inline constexpr uint32_t kOtf2MpiCollectiveType = 50000002;
inline constexpr uint32_t kOtf2MpiOtherType = 50000003;
inline constexpr uint32_t kOtf2CollectiveSendSizeType = 50100001;
inline constexpr uint32_t kOtf2CollectiveRecvSizeType = 50100002;
inline constexpr uint32_t kOtf2CollectiveRootType = 50100003;
inline constexpr uint32_t kOtf2CollectiveCommType = 50100004;
inline constexpr uint32_t kOtf2UserFunctionType = 60000019;  // Extrae: User function
inline constexpr uint32_t kOtf2MetricTypeBase = 60006100;    // + metric member index

// True when Parallax was built with libotf2.
bool Otf2Supported();

// Reads an archive given by its anchor file (NAME.otf2) or by a folder holding exactly one.
Result<ImportedTrace> ReadOtf2Trace(const std::string& path);

// Writes an archive: `path` names the anchor file (must end in .otf2); NAME.def and the folder
// NAME/ are created next to it. Nothing existing is replaced unless `overwrite`.
Status WriteOtf2Trace(const TraceView& trace, const std::string& path, bool overwrite);

// The anchor file of `path` when it is a folder holding exactly one *.otf2 file, else `path`.
std::string Otf2AnchorOf(const std::string& path);

// Every path libotf2 may open for the anchor file `anchor` (NAME.otf2): the anchor, NAME.def,
// the folder NAME/ and each entry of that folder, whether or not they exist. Only `anchor`
// when it does not end in .otf2 (libotf2 refuses such an anchor: "no valid file extension").
std::vector<std::string> Otf2ArchiveFiles(const std::string& anchor);

}  // namespace parallax::io
