#pragma once
// The Paraver header a trace-event file written by Parallax carries in otherData.parallax
// (json_writer.cc writes it), read back as strictly as a .prv header: every member must have
// the type the writer gives it, and the header must obey the rules of a .prv header
// (src/io/prv/prv_checks.h: tasks on declared nodes, at least one thread per task, bounded
// counts). Any problem is a fatal error that names the member, what it must be and what it is.
//
//   {"unit": "ns"|"us"|"ms", "unit_suffix": STRING, "date": STRING, "end_time": UINT,
//    "cpus_per_node": [UINT, ...], "appls": [[[THREADS, NODE], ...], ...],
//    "communicators": [STRING, ...], "unsigned_value_types": [UINT32, ...],
//    "spelling": {"space_before_date": BOOL, "resources_bare": BOOL,
//                 "appl_separator": ONE-CHARACTER STRING, "has_comm_count": BOOL},
//    "pcf": STRING, "row": STRING}
// Only "appls" is required (it marks the file as Parallax's); null counts as absent.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "include/parallax/status.h"
#include "src/model/trace_header.h"

namespace parallax::io {

struct PaxHeader {
  model::TraceHeader header;
  int64_t ns_per_unit = 1;  // the file's timestamps are ns; the header's unit may be coarser
  std::optional<std::string> pcf, row;
  std::vector<uint32_t> unsigned_value_types;
};

// True when `parallax` (the value of otherData.parallax) marks a file Parallax wrote.
bool IsPaxHeader(const nlohmann::json& parallax);

// Reads otherData.parallax; `where` locates otherData in the file for the messages.
Result<PaxHeader> ReadPaxHeader(const nlohmann::json& parallax, const Location& where);

}  // namespace parallax::io
