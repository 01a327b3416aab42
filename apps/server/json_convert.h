#pragma once
// The JSON the API returns for the core's result types, and the one it reads back: a cfg's
// editable settings (CfgDocument). `parallax info/text/functions --json` print the same
// conversions; `parallax analyze --format json` has its own, older table shape (rows with
// labels, totals by name), kept for scripts that read it.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "include/parallax/cfg.h"
#include "include/parallax/functions.h"
#include "include/parallax/trace.h"

namespace parallax::server {

nlohmann::json ToJson(const TraceInfo& info);
nlohmann::json ToJson(const TextView& view);
nlohmann::json ToJson(const std::vector<AnalyzeTable>& tables);
nlohmann::json ToJson(const std::vector<FunctionInfo>& functions);

// Field names as in the C++ structs (include/parallax/cfg.h); NaN and infinities become null.
nlohmann::json ToJson(const CfgDocument& doc);

// Reads what ToJson(CfgDocument) writes. Missing (or null) fields keep the struct defaults; null
// inside a list of numbers is NaN. A wrong type, an out-of-range integer or an unknown field is an
// error: false, with `error` naming the field ("document.windows[0].filter.from.op: ...").
// `path` names `j` itself in messages.
bool FromJson(const nlohmann::json& j, const std::string& path, CfgDocument* doc, std::string* error);

}  // namespace parallax::server
