#include "src/io/row/row_reader.h"

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "src/base/input_buffer.h"
#include "src/base/text_safety.h"

namespace parallax::io {

using model::Level;
using model::RowBlock;
using model::RowNames;


namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t'; }

constexpr uint64_t kMaxReserve = 1 << 16;

std::optional<Level> ParseLevel(std::string_view name) {
  for (uint8_t i = 0; i <= static_cast<uint8_t>(Level::kCpu); ++i) {
    if (model::LevelName(static_cast<Level>(i)) == name) return static_cast<Level>(i);
  }
  return std::nullopt;
}

// A blank-separated field of a line and its 0-based position.
struct Field {
  std::string_view text;
  size_t at = 0;
};

std::vector<Field> Fields(std::string_view line) {
  std::vector<Field> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && IsBlank(line[i])) ++i;
    size_t start = i;
    while (i < line.size() && !IsBlank(line[i])) ++i;
    if (i > start) out.push_back(Field{line.substr(start, i - start), start});
  }
  return out;
}

// Parses one .row text; see row_reader.h for the accepted format.
class RowParser {
 public:
  RowParser(std::string_view text, RowDiagnostics* diags) : text_(text), diags_(diags) {}

  RowNames Run();

 private:
  void Line(std::string_view raw);
  void Header(std::string_view raw);
  void FinishBlock();
  void Issue(uint64_t line, size_t at, std::string reason) {
    if (diags_ != nullptr) diags_->Add(line, at + 1, std::move(reason));
  }

  std::string_view text_;
  RowDiagnostics* diags_;
  RowNames names_;
  std::string pending_;  // blank and comment lines not yet attached to a block
  uint64_t line_no_ = 0;

  // The block being read: its header line and the position of its SIZE, for diagnostics.
  std::optional<RowBlock> block_;
  uint64_t remaining_ = 0;
  uint64_t header_line_ = 0;
  size_t size_at_ = 0;
  std::array<uint64_t, 7> level_line_{};  // header line of the block used for each level
};

RowNames RowParser::Run() {
  size_t pos = 0;
  names_.crlf = IsCrlfText(text_);
  while (pos < text_.size()) {
    size_t nl = text_.find('\n', pos);
    size_t stop = nl == std::string_view::npos ? text_.size() : nl;
    std::string_view raw = text_.substr(pos, stop - pos);
    // In a CRLF file one '\r' per line belongs to the line end; in a LF file '\r' is text.
    if (names_.crlf && !raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    ++line_no_;
    Line(raw);
    pos = stop + 1;
  }
  if (block_) {
    Issue(header_line_, size_at_,
          fmt::format("LEVEL {} announces {} labels but the file ends after {}",
                      model::LevelName(block_->level), block_->labels.size() + remaining_,
                      block_->labels.size()));
    FinishBlock();
  }
  names_.trailing = std::move(pending_);
  return std::move(names_);
}

void RowParser::Line(std::string_view raw) {
  if (block_) {
    block_->labels.emplace_back(raw);
    if (--remaining_ == 0) FinishBlock();
    return;
  }
  size_t begin = 0;
  while (begin < raw.size() && IsBlank(raw[begin])) ++begin;
  if (begin == raw.size() || raw[begin] == '#') {
    pending_.append(raw);
    pending_ += '\n';
    return;
  }
  Header(raw);
}

void RowParser::Header(std::string_view raw) {
  std::vector<Field> f = Fields(raw);
  if (f[0].text != "LEVEL") {
    Issue(line_no_, f[0].at, "line outside any LEVEL block; ignored");
    return;
  }
  if (f.size() != 4 || f[2].text != "SIZE") {
    Issue(line_no_, f[0].at, "expected 'LEVEL <name> SIZE <n>'; header ignored");
    return;
  }
  std::optional<Level> level = ParseLevel(f[1].text);
  if (!level) {
    Issue(line_no_, f[1].at,
          fmt::format("unknown level '{}' (expected WORKLOAD, APPL, TASK, THREAD, SYSTEM, "
                      "NODE or CPU); header ignored",
                      f[1].text));
    return;
  }
  uint64_t n = 0;
  std::string_view size = f[3].text;
  auto [end, ec] = std::from_chars(size.data(), size.data() + size.size(), n);
  if (ec != std::errc() || end != size.data() + size.size() || n > UINT32_MAX) {
    Issue(line_no_, f[3].at, fmt::format("SIZE '{}' is not a count; header ignored", size));
    return;
  }
  block_.emplace();
  block_->level = *level;
  block_->before = std::exchange(pending_, {});
  block_->header = std::string(raw);
  // SIZE is only a claim: reserve no more than a modest bound, the rest grows as labels come
  // (a SIZE larger than the file is reported when the file ends).
  block_->labels.reserve(std::min<uint64_t>(n, kMaxReserve));
  remaining_ = n;
  header_line_ = line_no_;
  size_at_ = f[3].at;
  if (n == 0) FinishBlock();
}

void RowParser::FinishBlock() {
  const size_t level = static_cast<size_t>(block_->level);
  if (level_line_[level] != 0) {
    Issue(header_line_, 0,
          fmt::format("second LEVEL {} block replaces the one at line {}",
                      model::LevelName(block_->level), level_line_[level]));
  }
  level_line_[level] = header_line_;
  names_.AddBlock(std::move(*block_));
  block_.reset();
}

}  // namespace

Result<RowNames> ParseRow(std::string_view text, const std::string& file_name,
                          RowDiagnostics* diags) {
  if (diags != nullptr && diags->file.empty()) diags->file = file_name;
  // Labels from older setups may be Latin-1: read as UTF-8, so that every front end can show
  // them (JSON, the browser) the same.
  if (!base::IsValidUtf8(text)) {
    const std::string repaired = base::RepairUtf8(text);
    return RowParser(repaired, diags).Run();
  }
  return RowParser(text, diags).Run();
}

Result<RowNames> ReadRow(const std::string& path, RowDiagnostics* diags, bool* absent) {
  Result<base::InputBuffer> buffer =
      OpenCompanionFile(path, absent, "no .row file", "object names come from the .row next to the trace");
  if (!buffer.ok()) return buffer.status();
  return buffer->Parse([&](std::string_view text) { return ParseRow(text, path, diags); });
}

}  // namespace parallax::io
