#pragma once
// Reader of Paraver .cfg files (cfg-format.md) into CfgFile: timeline windows as
// semantic::WindowSpec plus their display settings.
//
// Accepted input, line by line ("\n" or "\r\n" endings; blanks at the end of a value that is
// not free text are ignored):
//   - the file is a cfg when some line's first token is `#ParaverCFG`, or there are both
//     `ConfigFile.Version:` and `ConfigFile.NumWindows:` lines, or both `version` and
//     `number_of_windows` lines (old syntax);
//   - empty lines and lines starting with '#' are skipped;
//   - the key is the whole line when it starts with '<', else the text up to the first space;
//     the value is the rest after that space;
//   - header lines (`ConfigFile.*`, `version`, `number_of_windows`), `window_id`,
//     `window_number_of_row` and `< NEW DISPLAYING WINDOW ... >` are ignored, as Paraver does;
//   - lines between `ConfigFile.BeginDescription` (or `begin_description`) and
//     `ConfigFile.EndDescription` (`end_description`) are the description, kept verbatim;
//   - every `window_*` key of cfg-format.md §3, `cfg4d*` GUI alias lines (kept verbatim) and
//     `CFG4D_ENABLED` are read; `window_*` keys before any `window_type` and keys that are not
//     cfg keys at all are ignored like Paraver does, with a notice;
//   - histogram keys (`< NEW ANALYZER2D >`, `Analyzer2D.*`, `Analyzer3D.*`, cfg-format.md §5)
//     build HistogramSpecs; an error in a histogram key (or any error once a histogram has
//     started) drops that histogram and stops reading, keeping the windows read so far
//     (CfgFile::histogram_error says why);
//   - limits (docs/compatibility.md, "Limits"): at most semantic::kMaxWindows windows (an error
//     at the next `window_type`); a derived window names only earlier windows; a histogram whose
//     fixed columns, planes or cells exceed the limits of histogram_spec.h is a histogram error
//     at the line of its last column or plane key.
// Errors: a known key whose value cannot be read fails with file, line, column, what was
// expected and a hint. A key or function Paraver knows and Parallax does not handle fails with
// the message "unsupported: <key or function> at line N". A file without windows fails.

#include <string>
#include <string_view>

#include "include/parallax/status.h"
#include "src/cfg/cfg_file.h"

namespace parallax::cfg {

// True when the text is recognised as a cfg (the first rule above).
bool LooksLikeCfg(std::string_view text);

// Parses cfg text; `file` is only used in messages.
Result<CfgFile> ParseCfg(std::string_view text, const std::string& file, const CfgContext& ctx);

// Reads and parses a cfg file.
Result<CfgFile> ReadCfg(const std::string& path, const CfgContext& ctx);

}  // namespace parallax::cfg
