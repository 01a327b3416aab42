#include "src/io/pcf/pcf_reader.h"

#include <sys/stat.h>

#include <cerrno>
#include <charconv>
#include <limits>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "src/base/input_buffer.h"
#include "src/base/text_safety.h"

namespace parallax::io {

using model::PcfCatalog;
using model::PcfEventBlock;
using model::PcfSection;
using model::PcfSpelling;


namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t'; }

// Labels keep their inner spaces, but tabs become spaces as in Paraver.
std::string Untab(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c == '\t') c = ' ';
  }
  return out;
}

enum class IntError { kNone, kNotNumber, kOutOfRange };

// A whole token as a decimal integer within [lo, hi]; an optional '+' is accepted.
IntError ParseInt(std::string_view token, int64_t lo, int64_t hi, int64_t* out) {
  if (!token.empty() && token[0] == '+') token.remove_prefix(1);
  int64_t value = 0;
  auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec == std::errc::result_out_of_range && end == token.data() + token.size()) {
    return IntError::kOutOfRange;
  }
  if (ec != std::errc() || end != token.data() + token.size() || token.empty()) {
    return IntError::kNotNumber;
  }
  if (value < lo || value > hi) return IntError::kOutOfRange;
  *out = value;
  return IntError::kNone;
}

constexpr int64_t kInt32Min = std::numeric_limits<int32_t>::min();
constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();

// One line split into its first field, the blanks after it, and the rest (trimmed). Offsets
// are positions in the raw line, for diagnostics.
struct Split {
  std::string_view head;
  size_t head_at = 0;
  std::string_view gap;
  std::string_view rest;
  size_t rest_at = 0;
};

Split SplitFirst(std::string_view line, size_t from, size_t end) {
  Split s;
  size_t i = from;
  while (i < end && !IsBlank(line[i])) ++i;
  s.head = line.substr(from, i - from);
  s.head_at = from;
  size_t j = i;
  while (j < end && IsBlank(line[j])) ++j;
  s.gap = line.substr(i, j - i);
  s.rest = line.substr(j, end - j);
  s.rest_at = j;
  return s;
}

// Parses one .pcf text; see pcf_reader.h for the accepted format.
class PcfParser {
 public:
  PcfParser(std::string_view text, PcfDiagnostics* diags) : text_(text), diags_(diags) {}

  PcfCatalog Run();

 private:
  void Line(std::string_view raw);
  void Issue(size_t at, std::string reason) {
    if (diags_ != nullptr) diags_->Add(line_no_, at + 1, std::move(reason));
  }
  PcfSpelling Spell(std::string_view gap1 = {}, std::string_view gap2 = {}) {
    return PcfSpelling{std::exchange(pending_, {}), std::string(raw_.substr(0, begin_)),
                       std::string(gap1), std::string(gap2), std::string(raw_.substr(end_))};
  }
  bool Number(std::string_view token, size_t at, int64_t lo, int64_t hi, const char* what,
              int64_t* out);
  void StartSection(PcfSection section);
  void Option(std::vector<model::PcfOption>* into);
  void Label(std::vector<model::PcfLabel>* into, const char* what);
  void Color(std::vector<model::PcfColor>* into);
  void EventLine();
  void Precision(PcfEventBlock& block);
  void TypeLine(PcfEventBlock& block);
  void ValueLine(PcfEventBlock& block);

  std::string_view text_;
  PcfDiagnostics* diags_;
  PcfCatalog catalog_;
  std::optional<PcfSection> section_;
  bool in_values_ = false;
  std::string pending_;  // blank and comment lines not yet attached to a line
  uint64_t line_no_ = 0;
  std::string_view raw_;  // current line without its line ending
  size_t begin_ = 0;      // first non-blank of raw_
  size_t end_ = 0;        // one past the last non-blank of raw_
};

PcfCatalog PcfParser::Run() {
  size_t pos = 0;
  catalog_.crlf = IsCrlfText(text_);
  while (pos < text_.size()) {
    size_t nl = text_.find('\n', pos);
    size_t stop = nl == std::string_view::npos ? text_.size() : nl;
    std::string_view raw = text_.substr(pos, stop - pos);
    // In a CRLF file one '\r' per line belongs to the line end; in a LF file '\r' is text.
    if (catalog_.crlf && !raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    ++line_no_;
    Line(raw);
    pos = stop + 1;
  }
  catalog_.trailing = std::move(pending_);
  catalog_.Finalize();
  return std::move(catalog_);
}

void PcfParser::Line(std::string_view raw) {
  raw_ = raw;
  begin_ = 0;
  while (begin_ < raw.size() && IsBlank(raw[begin_])) ++begin_;
  end_ = raw.size();
  while (end_ > begin_ && IsBlank(raw[end_ - 1])) --end_;
  std::string_view content = raw.substr(begin_, end_ - begin_);
  if (content.empty() || content[0] == '#') {
    pending_.append(raw);
    pending_ += '\n';
    return;
  }
  if (auto section = model::ParsePcfSectionName(content)) {
    StartSection(*section);
    return;
  }
  if (!section_) {
    Issue(begin_, "line outside any section (expected a section name such as STATES)");
    return;
  }
  switch (*section_) {
    case PcfSection::kDefaultOptions:
      return Option(&catalog_.default_options);
    case PcfSection::kDefaultSemantic:
      return Option(&catalog_.default_semantic);
    case PcfSection::kStates:
      return Label(&catalog_.states, "state");
    case PcfSection::kStatesColor:
      return Color(&catalog_.states_color);
    case PcfSection::kEventType:
      return EventLine();
    case PcfSection::kGradientColor:
      return Color(&catalog_.gradient_color);
    case PcfSection::kGradientNames:
      return Label(&catalog_.gradient_names, "gradient index");
  }
}

bool PcfParser::Number(std::string_view token, size_t at, int64_t lo, int64_t hi, const char* what,
                       int64_t* out) {
  switch (ParseInt(token, lo, hi, out)) {
    case IntError::kNone:
      return true;
    case IntError::kNotNumber:
      Issue(at, fmt::format("{} '{}' is not an integer; line ignored", what, token));
      return false;
    case IntError::kOutOfRange:
      Issue(at, fmt::format("{} {} is outside [{}, {}]; line ignored as Paraver does", what, token,
                            lo, hi));
      return false;
  }
  return false;
}

void PcfParser::StartSection(PcfSection section) {
  section_ = section;
  in_values_ = false;
  catalog_.layout.push_back(model::PcfSectionSpan{section, 0, Spell()});
  if (section == PcfSection::kEventType) {
    catalog_.event_blocks.emplace_back();
    catalog_.layout.back().count = 1;
  }
}

void PcfParser::Option(std::vector<model::PcfOption>* into) {
  Split s = SplitFirst(raw_, begin_, end_);
  into->push_back(model::PcfOption{Untab(s.head), Untab(s.rest), Spell(s.gap)});
  ++catalog_.layout.back().count;
}

void PcfParser::Label(std::vector<model::PcfLabel>* into, const char* what) {
  Split s = SplitFirst(raw_, begin_, end_);
  int64_t number = 0;
  if (!Number(s.head, s.head_at, kInt32Min, kInt32Max, what, &number)) return;
  into->push_back(model::PcfLabel{static_cast<int32_t>(number), Untab(s.rest), Spell(s.gap)});
  ++catalog_.layout.back().count;
}

// "{r,g,b}", blanks allowed around the numbers, each in 0..255.
bool ParseRgb(std::string_view text, model::Rgb* out, size_t* bad_at) {
  if (text.size() < 2 || text.front() != '{' || text.back() != '}') {
    *bad_at = 0;
    return false;
  }
  uint8_t parts[3] = {0, 0, 0};
  size_t pos = 1;
  for (int i = 0; i < 3; ++i) {
    size_t stop = text.find(i < 2 ? ',' : '}', pos);
    if (stop == std::string_view::npos) {
      *bad_at = pos;
      return false;
    }
    std::string_view token = text.substr(pos, stop - pos);
    size_t lead = 0;
    while (lead < token.size() && IsBlank(token[lead])) ++lead;
    token.remove_prefix(lead);  // a blank-only component leaves an empty token, not a throw
    while (!token.empty() && IsBlank(token.back())) token.remove_suffix(1);
    int64_t v = 0;
    if (ParseInt(token, 0, 255, &v) != IntError::kNone) {
      *bad_at = pos + lead;
      return false;
    }
    parts[i] = static_cast<uint8_t>(v);
    pos = stop + 1;
  }
  if (pos != text.size()) {
    *bad_at = pos - 1;
    return false;
  }
  *out = model::Rgb{parts[0], parts[1], parts[2]};
  return true;
}

void PcfParser::Color(std::vector<model::PcfColor>* into) {
  Split s = SplitFirst(raw_, begin_, end_);
  int64_t value = 0;
  if (!Number(s.head, s.head_at, kInt32Min, kInt32Max, "colour index", &value)) return;
  model::Rgb rgb;
  size_t bad_at = 0;
  if (!ParseRgb(s.rest, &rgb, &bad_at)) {
    Issue(s.rest_at + bad_at,
          fmt::format("colour '{}' is not {{r,g,b}} with r, g, b in 0..255; line ignored", s.rest));
    return;
  }
  into->push_back(model::PcfColor{static_cast<int32_t>(value), rgb, Spell(s.gap)});
  ++catalog_.layout.back().count;
}

void PcfParser::EventLine() {
  PcfEventBlock& block = catalog_.event_blocks.back();
  std::string_view content = raw_.substr(begin_, end_ - begin_);
  if (content.starts_with("PRECISION")) return Precision(block);
  if (content == "VALUES") {
    if (in_values_) {
      Issue(begin_, "second VALUES line in one EVENT_TYPE block; ignored");
      return;
    }
    in_values_ = true;
    block.values_line = true;
    block.values_spelling = Spell();
    return;
  }
  // As in Paraver, a type line after VALUES is read as a value line.
  if (in_values_) return ValueLine(block);
  TypeLine(block);
}

void PcfParser::Precision(PcfEventBlock& block) {
  // Paraver only checks the prefix, so "PRECISION3" is precision 3 and "PRECISIONX 3" is a
  // malformed precision line.
  const size_t head_end = begin_ + 9;
  size_t at = head_end;
  while (at < end_ && IsBlank(raw_[at])) ++at;
  std::string_view gap = raw_.substr(head_end, at - head_end);
  std::string_view token = raw_.substr(at, end_ - at);
  if (token.empty()) {
    Issue(at, "PRECISION without a number; line ignored");
    return;
  }
  int64_t p = 0;
  if (!Number(token, at, 0, kInt32Max, "precision", &p)) return;
  if (block.precision) {
    Issue(begin_, fmt::format("second PRECISION in one EVENT_TYPE block; {} replaces {}", p,
                              *block.precision));
  }
  block.precision = static_cast<int32_t>(p);
  block.precision_spelling = Spell(gap);
  block.precision_position =
      static_cast<uint32_t>(block.types.size() + (block.values_line ? 1 : 0) + block.values.size());
}

void PcfParser::TypeLine(PcfEventBlock& block) {
  Split first = SplitFirst(raw_, begin_, end_);
  if (first.rest.empty()) {
    Issue(begin_, "event type line needs '<gradient> <type> <label>'; line ignored");
    return;
  }
  Split second = SplitFirst(raw_, first.rest_at, end_);
  int64_t type = 0;
  if (!Number(second.head, second.head_at, 0, kInt32Max, "event type", &type)) return;
  block.types.push_back(model::PcfEventType{std::string(first.head), static_cast<uint32_t>(type),
                                            Untab(second.rest), Spell(first.gap, second.gap)});
}

void PcfParser::ValueLine(PcfEventBlock& block) {
  Split s = SplitFirst(raw_, begin_, end_);
  int64_t value = 0;
  if (!Number(s.head, s.head_at, kInt32Min, kInt32Max, "event value", &value)) return;
  block.values.push_back(
      model::PcfEventValue{static_cast<int32_t>(value), Untab(s.rest), Spell(s.gap)});
}

}  // namespace

Result<PcfCatalog> ParsePcf(std::string_view text, const std::string& file_name,
                            PcfDiagnostics* diags) {
  if (diags != nullptr && diags->file.empty()) diags->file = file_name;
  // Labels from older setups may be Latin-1: read as UTF-8, so that every front end can show
  // them (JSON, the browser) the same.
  if (!base::IsValidUtf8(text)) {
    const std::string repaired = base::RepairUtf8(text);
    return PcfParser(repaired, diags).Run();
  }
  return PcfParser(text, diags).Run();
}

Result<PcfCatalog> ReadPcf(const std::string& path, PcfDiagnostics* diags, bool* absent) {
  Result<base::InputBuffer> buffer =
      OpenCompanionFile(path, absent, "no .pcf file", "labels and colours come from the .pcf next to the trace");
  if (!buffer.ok()) return buffer.status();
  return buffer->Parse([&](std::string_view text) { return ParsePcf(text, path, diags); });
}

}  // namespace parallax::io
