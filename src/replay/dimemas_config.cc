#include "src/replay/dimemas_config.h"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "src/base/regular_file.h"

namespace parallax::replay {

namespace {

// A cursor over the text that knows its line and column.
class Cursor {
 public:
  Cursor(std::string_view text, const std::string& file) : text_(text), file_(file) {}

  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return AtEnd() ? '\0' : text_[pos_]; }
  void Advance() {
    if (text_[pos_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++pos_;
  }
  // Skips blanks, `/* */` comments and lines starting with '#'.
  Status SkipSpace() {
    for (;;) {
      while (!AtEnd() && std::isspace(static_cast<unsigned char>(Peek()))) Advance();
      if (Peek() == '#' && col_ == 1) {
        while (!AtEnd() && Peek() != '\n') Advance();
        continue;
      }
      if (text_.substr(pos_, 2) == "/*") {
        const uint64_t l = line_, c = col_;
        size_t end = text_.find("*/", pos_ + 2);
        if (end == std::string_view::npos)
          return Status::Error("comment not closed", Location{file_, l, c},
                               "end the comment with */");
        while (pos_ < end + 2) Advance();
        continue;
      }
      return Status::Ok();
    }
  }
  Status Error(const std::string& what, const std::string& hint) const {
    return Status::Error(what, Location{file_, line_, col_}, hint);
  }
  Status Expect(char c, const std::string& hint) {
    if (Peek() != c) {
      std::string got = AtEnd() ? "end of file" : fmt::format("'{}'", Peek());
      return Error(fmt::format("expected '{}', found {}", c, got), hint);
    }
    Advance();
    return Status::Ok();
  }
  // A "quoted string" (no escapes in Dimemas files).
  Result<std::string> String() {
    const uint64_t l = line_, c = col_;
    Advance();
    std::string s;
    while (!AtEnd() && Peek() != '"' && Peek() != '\n') {
      s += Peek();
      Advance();
    }
    if (Peek() != '"')
      return Status::Error("string not closed", Location{file_, l, c},
                           "end it with \" on the same line");
    Advance();
    return s;
  }
  // A bare token: number or word, up to a separator.
  std::string Token() {
    std::string s;
    while (!AtEnd() && !std::isspace(static_cast<unsigned char>(Peek())) && Peek() != ',' &&
           Peek() != '}' && Peek() != '{' && Peek() != ';' && Peek() != ']') {
      s += Peek();
      Advance();
    }
    return s;
  }
  uint64_t line() const { return line_; }
  const std::string& file() const { return file_; }
  uint64_t column() const { return col_; }

 private:
  std::string_view text_;
  const std::string& file_;
  size_t pos_ = 0;
  uint64_t line_ = 1, col_ = 1;
};

bool IsNumber(const std::string& s) {
  if (s.empty()) return false;
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

Result<SddfValue> ParseValue(Cursor& c) {
  SddfValue v;
  v.line = c.line();
  v.column = c.column();
  if (c.Peek() == '"') {
    auto s = c.String();
    if (!s.ok()) return s.status();
    v.kind = SddfValue::Kind::kString;
    v.text = std::move(s.value());
    return v;
  }
  if (c.Peek() == '[') {
    v.kind = SddfValue::Kind::kArray;
    c.Advance();
    std::string n = c.Token();
    if (Status s = c.Expect(']', "an array is written [n] {v1, ..., vn}"); !s.ok()) return s;
    if (Status s = c.SkipSpace(); !s.ok()) return s;
    if (Status s = c.Expect('{', "an array is written [n] {v1, ..., vn}"); !s.ok()) return s;
    for (;;) {
      if (Status s = c.SkipSpace(); !s.ok()) return s;
      if (c.Peek() == '}') break;
      std::string item;
      if (c.Peek() == '"') {
        auto q = c.String();
        if (!q.ok()) return q.status();
        item = std::move(q.value());
      } else {
        item = c.Token();
      }
      if (item.empty())
        return c.Error("expected an array element", "separate elements with commas");
      v.items.push_back(item);
      if (Status s = c.SkipSpace(); !s.ok()) return s;
      if (c.Peek() == ',') c.Advance();
    }
    c.Advance();
    if (!IsNumber(n) || std::strtod(n.c_str(), nullptr) != static_cast<double>(v.items.size()))
      return Status::Error(
          fmt::format("the array declares {} elements and has {}", n, v.items.size()),
          Location{c.file(), v.line, v.column}, "make the count in [n] match the elements");
    return v;
  }
  v.text = c.Token();
  if (v.text.empty())
    return c.Error("expected a value (number, \"string\" or [n] {array})", "check the commas");
  v.kind = IsNumber(v.text) ? SddfValue::Kind::kNumber : SddfValue::Kind::kWord;
  return v;
}

}  // namespace

Result<std::vector<SddfRecord>> ParseSddf(std::string_view text, const std::string& file) {
  Cursor c(text, file);
  std::vector<SddfRecord> records;
  const std::string hint = "a record is written \"name\" {field, field, ...};;";
  for (;;) {
    if (Status s = c.SkipSpace(); !s.ok()) return s;
    if (c.AtEnd()) return records;
    SddfRecord r;
    r.line = c.line();
    r.column = c.column();
    if (c.Peek() != '"') return c.Error("expected a record name in quotes", hint);
    auto name = c.String();
    if (!name.ok()) return name.status();
    r.name = std::move(name.value());
    if (Status s = c.SkipSpace(); !s.ok()) return s;
    if (Status s = c.Expect('{', hint); !s.ok()) return s;
    for (;;) {
      if (Status s = c.SkipSpace(); !s.ok()) return s;
      if (c.Peek() == '}' && r.fields.empty()) break;
      auto v = ParseValue(c);
      if (!v.ok()) return v.status();
      r.fields.push_back(std::move(v.value()));
      if (Status s = c.SkipSpace(); !s.ok()) return s;
      if (c.Peek() == ',') {
        c.Advance();
        continue;
      }
      if (c.Peek() == '}') break;
      return c.Error("expected ',' or '}' after a field", hint);
    }
    c.Advance();
    if (Status s = c.SkipSpace(); !s.ok()) return s;
    if (Status s = c.Expect(';', "end a record with ;;"); !s.ok()) return s;
    if (c.Peek() == ';') c.Advance();
    records.push_back(std::move(r));
  }
}

namespace {

bool IsPlaceholder(const SddfValue& v) {
  return v.kind == SddfValue::Kind::kWord &&
         (v.text.rfind("REPLACE_BY_", 0) == 0 ||
          (v.text.size() > 2 && v.text.front() == '@' && v.text.back() == '@'));
}

// Field `i` of a record as a number; placeholders give `placeholder`.
Result<double> Number(const SddfRecord& r, size_t i, const std::string& file, const char* what,
                      double placeholder = NAN) {
  if (i >= r.fields.size())
    return Status::Error(fmt::format("record \"{}\" has {} fields; field {} ({}) is missing",
                                     r.name, r.fields.size(), i + 1, what),
                         Location{file, r.line, r.column},
                         "see the record definition in Dimemas' manual");
  const SddfValue& v = r.fields[i];
  if (IsPlaceholder(v) && !std::isnan(placeholder)) return placeholder;
  if (v.kind != SddfValue::Kind::kNumber)
    return Status::Error(fmt::format("field {} of \"{}\" ({}) must be a number, found {}", i + 1,
                                     r.name, what, v.text.empty() ? "a string" : v.text),
                         Location{file, v.line, v.column}, "write a number such as 0.0 or 1");
  return std::strtod(v.text.c_str(), nullptr);  // IsNumber checked it; huge values become inf
}

Status NonNegative(double v, const SddfRecord& r, size_t i, const std::string& file,
                   const char* what) {
  if (v >= 0 && std::isfinite(v)) return Status::Ok();
  const SddfValue& f = r.fields[i];
  return Status::Error(fmt::format("{} must be zero or positive, found {}", what, f.text),
                       Location{file, f.line, f.column}, "0 means instantaneous or no limit");
}

std::string Folder(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

// A Dimemas configuration is a few kilobytes; anything near this is not one.
constexpr size_t kMaxConfigBytes = size_t{64} << 20;

Result<std::string> ReadFile(const std::string& path) { return base::ReadRegularFile(path, kMaxConfigBytes); }

// The fields of "node information" and "multi node information" from the cpu ratio on.
Status ApplyNode(const SddfRecord& r, size_t first, const std::string& file, MachineModel& m) {
  const char* names[] = {
      "relative processor speed",    "intra-node latency",     "intra-node bandwidth",
      "intra-node maximum messages", "intra-node input links", "intra-node output links",
      "inter-node latency",          "inter-node input links", "inter-node output links"};
  double v[9];
  for (size_t i = 0; i < 9; ++i) {
    auto x = Number(r, first + i, file, names[i]);
    if (!x.ok()) return x.status();
    if (Status s = NonNegative(x.value(), r, first + i, file, names[i]); !s.ok()) return s;
    v[i] = x.value();
  }
  if (v[0] == 0)
    return Status::Error("a processor speed ratio of 0 (instantaneous bursts) is not supported",
                         Location{file, r.fields[first].line, r.fields[first].column},
                         "use a positive ratio such as 1.0");
  for (size_t i : {4, 5, 7, 8})
    if (v[i] > kMaxLinks)
      return Status::Error(fmt::format("{} must be at most {}", names[i], kMaxLinks),
                           Location{file, r.fields[first + i].line, r.fields[first + i].column},
                           "0 means no link contention");
  m.cpu_ratio = v[0];
  m.intra_node.latency_s = v[1];
  m.intra_node.bandwidth_Bps = v[2] * kBytesPerMB;
  m.intra_node.links = static_cast<uint32_t>(std::min(v[4], v[5]));
  m.inter_node.latency_s = v[6];
  m.inter_node.links = static_cast<uint32_t>(std::min(v[7], v[8]));
  return Status::Ok();
}

Status ApplyRecord(const SddfRecord& r, const std::string& file, MachineModel& m,
                   std::string* collectives) {
  if (r.name == "environment information") {
    auto bw = Number(r, 4, file, "inter-node bandwidth");
    if (!bw.ok()) return bw.status();
    if (Status s = NonNegative(bw.value(), r, 4, file, "the inter-node bandwidth"); !s.ok())
      return s;
    m.inter_node.bandwidth_Bps = bw.value() * kBytesPerMB;
    return Status::Ok();
  }
  if (r.name == "node information") return ApplyNode(r, 3, file, m);
  if (r.name == "multi node information") return ApplyNode(r, 4, file, m);
  if (r.name == "predefined mapping information") {
    if (r.fields.empty() || r.fields.back().kind != SddfValue::Kind::kString)
      return Status::Error("expected the mapping as a string", Location{file, r.line, r.column},
                           "write \"1 TASKS_PER_NODE\"");
    const SddfValue& v = r.fields.back();
    std::istringstream in(v.text);
    std::string n, what;
    in >> n >> what;
    if (what != "TASKS_PER_NODE")
      return Status::Error(fmt::format("mapping \"{}\" is not supported", v.text),
                           Location{file, v.line, v.column},
                           "use \"N TASKS_PER_NODE\" (consecutive tasks share a node)");
    if (n.size() > 2 && n.front() == '@') {
      m.tasks_per_node = 1;
    } else {
      unsigned k = 0;
      auto [p, ec] = std::from_chars(n.data(), n.data() + n.size(), k);
      if (ec != std::errc() || p != n.data() + n.size() || k == 0)
        return Status::Error(
            fmt::format("expected a positive number of tasks per node, found \"{}\"", n),
            Location{file, v.line, v.column}, "write \"1 TASKS_PER_NODE\"");
      m.tasks_per_node = k;
    }
    return Status::Ok();
  }
  if (r.name == "configuration files") {
    if (r.fields.size() >= 3 && r.fields[2].kind == SddfValue::Kind::kString)
      *collectives = r.fields[2].text;
    return Status::Ok();
  }
  if (r.name == "wide area network information" || r.name == "file system parameters" ||
      r.name == "modules information" || r.name == "dedicated connection information" ||
      r.name == "mapping information")
    return Status::Ok();  // no effect on a single-machine replay (docs/replay.md)
  return Status::Error(
      fmt::format("unknown record \"{}\"", r.name), Location{file, r.line, r.column},
      "Dimemas' records are \"environment information\", \"node information\", \"multi node "
      "information\", \"predefined mapping information\", \"configuration files\", ...");
}

Result<MachineModel> ParseConfig(std::string_view text, const std::string& file,
                                 bool read_collectives) {
  auto records = ParseSddf(text, file);
  if (!records.ok()) return records.status();
  MachineModel m;
  std::string collectives;
  bool environment = false;
  for (const SddfRecord& r : records.value()) {
    if (Status s = ApplyRecord(r, file, m, &collectives); !s.ok()) return s;
    environment = environment || r.name == "environment information";
  }
  if (!environment)
    return Status::Error("no \"environment information\" record", Location{file, 0, 0},
                         "is this a Dimemas configuration file?");
  const bool placeholder = collectives.empty() || collectives.rfind("REPLACE_BY_", 0) == 0 ||
                           (collectives.size() > 2 && collectives.front() == '@');
  if (read_collectives && !placeholder) {
    const std::string path = collectives.front() == '/' ? collectives : Folder(file) + collectives;
    auto t = ReadFile(path);
    if (!t.ok())
      return Status::Error(
          fmt::format("cannot open the collectives file \"{}\" it names", collectives),
          Location{file, 0, 0}, "collectives paths are relative to the configuration file");
    auto c = ParseCollectives(t.value(), path);
    if (!c.ok()) return c.status();
    m.collectives = std::move(c.value());
  }
  return m;
}

Result<StageModel> Stage(const std::string& w) {
  if (w == "0") return StageModel::kNone;
  if (w == "CTE" || w == "CONSTANT" || w == "CONST") return StageModel::kConstant;
  if (w == "LIN" || w == "LINEAR") return StageModel::kLinear;
  if (w == "LOG" || w == "LOGARITHMIC") return StageModel::kLogarithmic;
  return Status::Error("");
}

Result<SizeModel> Size(const std::string& w) {
  if (w == "MIN") return SizeModel::kMin;
  if (w == "MAX") return SizeModel::kMax;
  if (w == "MEAN" || w == "AVG") return SizeModel::kMean;
  if (w == "2MAX") return SizeModel::kTwiceMax;
  if (w == "S+R") return SizeModel::kSendPlusRecv;
  return Status::Error("");
}

}  // namespace

Result<std::map<uint32_t, CollectiveModel>> ParseCollectives(std::string_view text,
                                                             const std::string& file) {
  std::map<uint32_t, CollectiveModel> out;
  uint64_t line = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    std::string_view l =
        text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    ++line;
    std::vector<std::pair<std::string, uint64_t>> words;  // word and 1-based column
    for (size_t i = 0; i < l.size();) {
      while (i < l.size() && std::isspace(static_cast<unsigned char>(l[i]))) ++i;
      size_t b = i;
      while (i < l.size() && !std::isspace(static_cast<unsigned char>(l[i]))) ++i;
      if (i > b) words.emplace_back(std::string(l.substr(b, i - b)), b + 1);
    }
    if (words.empty() || words[0].first[0] == '#') continue;
    const std::string hint =
        "write: Machine globalop: MACHINE ID FANIN_MODEL FANIN_SIZE FANOUT_MODEL FANOUT_SIZE";
    if (words.size() != 8 || words[0].first != "Machine" || words[1].first != "globalop:")
      return Status::Error("expected a \"Machine globalop:\" line with 6 values",
                           Location{file, line, 1}, hint);
    uint32_t id = 0;
    const std::string& ids = words[3].first;
    auto [p, ec] = std::from_chars(ids.data(), ids.data() + ids.size(), id);
    if (ec != std::errc() || p != ids.data() + ids.size())
      return Status::Error(fmt::format("expected a collective id (a number), found \"{}\"", ids),
                           Location{file, line, words[3].second}, hint);
    CollectiveModel cm;
    for (int phase = 0; phase < 2; ++phase) {
      const auto& mw = words[4 + 2 * phase];
      const auto& sw = words[5 + 2 * phase];
      auto st = Stage(mw.first);
      if (!st.ok())
        return Status::Error(
            fmt::format("expected a model 0, CTE, LIN or LOG, found \"{}\"", mw.first),
            Location{file, line, mw.second}, hint);
      auto sz = Size(sw.first);
      if (!sz.ok())
        return Status::Error(
            fmt::format("expected a size MIN, MAX, MEAN, 2MAX or S+R, found \"{}\"", sw.first),
            Location{file, line, sw.second}, hint);
      PhaseModel& ph = phase == 0 ? cm.fan_in : cm.fan_out;
      ph.stages = st.value();
      ph.size = sz.value();
    }
    out[id] = cm;
  }
  return out;
}

Result<MachineModel> ParseDimemasConfig(std::string_view text, const std::string& file) {
  return ParseConfig(text, file, true);
}

Result<MachineModel> ReadDimemasConfig(const std::string& path) {
  auto t = ReadFile(path);
  if (!t.ok()) return t.status();
  return ParseConfig(t.value(), path, true);
}

}  // namespace parallax::replay
