#pragma once
// Readers of Dimemas' configuration files (docs/replay.md "Dimemas configuration files"):
//
// - the machine configuration (.cfg): SDDF records, one per line or spread over lines,
//     "record name" {field, field, ...};;
//   fields are numbers, "quoted strings" or arrays `[n] {v1, ..., vn}`; `/* ... */` comments
//   and a first line `#DIMEMAS_CONFIGURATION` are skipped. The generic part (ParseSddf) knows
//   nothing of Dimemas, so a later SDDF reader can take it over; ApplyDimemasRecords maps the
//   records onto a MachineModel. Placeholders that modelfactors fills in before running Dimemas
//   (REPLACE_BY_..., @NAME@) are accepted where a task or node count goes: the replay uses the
//   trace's task count there.
// - the collectives file: lines `Machine globalop: MACHINE ID FANIN_MODEL FANIN_SIZE
//   FANOUT_MODEL FANOUT_SIZE`, models 0, CTE, LIN, LOG, sizes MIN, MAX, MEAN, 2MAX, S+R.
//
// Errors name the file, line and column, say what was expected and how to fix it.

#include <string>
#include <string_view>
#include <vector>

#include "include/parallax/status.h"
#include "src/replay/machine_model.h"

namespace parallax::replay {

struct SddfValue {
  enum class Kind : uint8_t { kNumber, kString, kArray, kWord };
  Kind kind = Kind::kNumber;
  std::string text;                // number or word as written, string without quotes
  std::vector<std::string> items;  // array elements as written
  uint64_t line = 0, column = 0;
};

struct SddfRecord {
  std::string name;
  std::vector<SddfValue> fields;
  uint64_t line = 0, column = 0;
};

Result<std::vector<SddfRecord>> ParseSddf(std::string_view text, const std::string& file);

Result<std::map<uint32_t, CollectiveModel>> ParseCollectives(std::string_view text,
                                                             const std::string& file);

// Reads a Dimemas configuration file and the collectives file it names (relative to its own
// folder); a collectives path that is a placeholder or empty keeps the default models.
Result<MachineModel> ReadDimemasConfig(const std::string& path);
// The same from text; `collectives_text` is used when the configuration names a collectives
// file (empty: the file is read from disk).
Result<MachineModel> ParseDimemasConfig(std::string_view text, const std::string& file);

}  // namespace parallax::replay
