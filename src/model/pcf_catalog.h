#pragma once
// The content of a Paraver .pcf file (trace-format.md §7): state names and colours, event type
// and value labels, precisions, and the sections no computation uses (DEFAULT_OPTIONS,
// DEFAULT_SEMANTIC, GRADIENT_COLOR, GRADIENT_NAMES), kept so that the file can be written back.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace parallax::model {

struct Rgb {
  uint8_t r = 0;
  uint8_t g = 0;
  uint8_t b = 0;
  friend bool operator==(const Rgb&, const Rgb&) = default;
};

// How one line was spelled in the file it came from, so that a catalog read from a file is
// written back byte for byte. It never takes part in equality. Empty gaps mean "write the
// canonical spacing" (a catalog built in code has no spelling at all).
struct PcfSpelling {
  std::string before;  // blank and comment lines just before this line, each ending in '\n'
  std::string indent;  // whitespace before the first field
  std::string gap1;    // whitespace after the first field
  std::string gap2;    // whitespace after the second field (EVENT_TYPE type lines only)
  std::string after;   // whitespace after the last field
};

// One "KEY value" line of DEFAULT_OPTIONS or DEFAULT_SEMANTIC; unknown keys are kept too.
struct PcfOption {
  std::string key;
  std::string value;
  PcfSpelling spelling;
  friend bool operator==(const PcfOption& a, const PcfOption& b) {
    return a.key == b.key && a.value == b.value;
  }
};

// "<state> <label>" (STATES) or "<index> <name>" (GRADIENT_NAMES).
struct PcfLabel {
  int32_t number = 0;
  std::string label;
  PcfSpelling spelling;
  friend bool operator==(const PcfLabel& a, const PcfLabel& b) {
    return a.number == b.number && a.label == b.label;
  }
};

// "<value> {r,g,b}" (STATES_COLOR, GRADIENT_COLOR).
struct PcfColor {
  int32_t value = 0;
  Rgb rgb;
  PcfSpelling spelling;
  friend bool operator==(const PcfColor& a, const PcfColor& b) {
    return a.value == b.value && a.rgb == b.rgb;
  }
};

// "<gradient> <type> <label>" inside an EVENT_TYPE block. Paraver ignores the first token; it
// is kept verbatim because it need not even be a number.
struct PcfEventType {
  std::string gradient = "0";  // never empty: it is the first field of the line
  uint32_t type = 0;           // < 2^31
  std::string label;
  PcfSpelling spelling;
  friend bool operator==(const PcfEventType& a, const PcfEventType& b) {
    return a.gradient == b.gradient && a.type == b.type && a.label == b.label;
  }
};

// "<value> <label>" after VALUES in an EVENT_TYPE block.
struct PcfEventValue {
  int32_t value = 0;
  std::string label;
  PcfSpelling spelling;
  friend bool operator==(const PcfEventValue& a, const PcfEventValue& b) {
    return a.value == b.value && a.label == b.label;
  }
};

// One EVENT_TYPE block: a group of types sharing an optional precision and the value labels.
struct PcfEventBlock {
  static constexpr uint32_t kCanonicalPosition = UINT32_MAX;

  std::vector<PcfEventType> types;
  std::optional<int32_t> precision;
  std::vector<PcfEventValue> values;

  // Layout only: the spelling of the VALUES and PRECISION lines, whether a VALUES line was
  // present with no value after it, and how many of the block's lines (types, VALUES, values,
  // in that order) preceded the PRECISION line (kCanonicalPosition: right after the types).
  bool values_line = false;
  PcfSpelling values_spelling;
  PcfSpelling precision_spelling;
  uint32_t precision_position = kCanonicalPosition;

  friend bool operator==(const PcfEventBlock& a, const PcfEventBlock& b) {
    return a.types == b.types && a.precision == b.precision && a.values == b.values;
  }
};

enum class PcfSection : uint8_t {
  kDefaultOptions,
  kDefaultSemantic,
  kStates,
  kStatesColor,
  kEventType,
  kGradientColor,
  kGradientNames,
};

std::string_view PcfSectionName(PcfSection section);  // "DEFAULT_OPTIONS", ...
std::optional<PcfSection> ParsePcfSectionName(std::string_view name);

// One section header of the source file, in file order, with the number of lines of that
// section it introduced (one block for EVENT_TYPE). Layout only.
struct PcfSectionSpan {
  PcfSection section = PcfSection::kStates;
  uint32_t count = 0;
  PcfSpelling header;
};

// Labels, colours and precisions of a trace. Fill the public vectors (in file order), then call
// Finalize() once to build the lookup tables; call it again after any change. Lookups follow
// Paraver: when a state, colour, type or value is given twice, the later line wins.
class PcfCatalog {
 public:
  std::vector<PcfOption> default_options;
  std::vector<PcfOption> default_semantic;
  std::vector<PcfLabel> states;
  std::vector<PcfColor> states_color;
  std::vector<PcfEventBlock> event_blocks;
  std::vector<PcfColor> gradient_color;
  std::vector<PcfLabel> gradient_names;

  // Layout of the source file (empty for a catalog built in code): the section headers in
  // file order, what followed the last line, and whether lines ended in "\r\n".
  std::vector<PcfSectionSpan> layout;
  std::string trailing;
  bool crlf = false;

  void Finalize();

  const std::string* StateLabel(int64_t state) const;
  std::optional<Rgb> StateColor(int64_t value) const;
  const std::string* EventTypeLabel(uint32_t type) const;
  const std::string* EventValueLabel(uint32_t type, int64_t value) const;
  int Precision(uint32_t type) const;  // 0 when the type has none
  // Whether some value of the type has a label.
  bool HasValueLabels(uint32_t type) const;
  // Every type that has a label, sorted.
  std::vector<uint32_t> EventTypes() const;
  // Exact label: the largest type with that label (0 or 1 element). A label containing '*' is
  // a wildcard ('*' = any sequence, the rest literal): every matching type, sorted.
  std::vector<uint32_t> TypesByLabel(std::string_view label) const;
  // Every (type, value) whose value label is exactly `label`, sorted.
  std::vector<std::pair<uint32_t, int64_t>> ValuesByLabel(std::string_view label) const;

  // Content equality: the layout members and the spellings are ignored.
  friend bool operator==(const PcfCatalog& a, const PcfCatalog& b);

 private:
  struct TypeEntry {
    uint32_t block = 0;  // block of the line giving the label
    uint32_t line = 0;   // index in that block's types
    int32_t precision = 0;
    std::vector<uint32_t> value_blocks;  // blocks whose values apply, in file order
  };

  std::unordered_map<int64_t, uint32_t> state_index_;
  std::unordered_map<int64_t, uint32_t> color_index_;
  std::unordered_map<uint32_t, TypeEntry> types_;
  // Per block: value -> index of the last line with that value.
  std::vector<std::unordered_map<int64_t, uint32_t>> block_values_;
};

// True when `text` matches `pattern`, where '*' matches any sequence of characters.
bool WildcardMatch(std::string_view pattern, std::string_view text);

}  // namespace parallax::model
