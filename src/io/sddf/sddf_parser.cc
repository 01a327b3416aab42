// SDDF parser, ASCII and binary. Values are decoded into buffers owned by the descriptor table
// and reused for every record of that descriptor, so records cost no allocation once the
// buffers have grown.

#include <fmt/format.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <unordered_map>

#include "src/io/builder/trace_builder.h"
#include "src/io/sddf/sddf.h"

namespace parallax::io {

namespace {

struct NameHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
};

// Descriptors seen so far; a later descriptor with the same tag or name replaces the earlier
// one entirely: the replaced descriptor is forgotten under its other key too, so a name and a tag
// always lead to the same descriptor (handlers key their own tables by tag).
struct DescTable {
  std::vector<SddfDescriptor> descs;
  std::vector<std::vector<SddfValue>> values;
  std::unordered_map<std::string, size_t, NameHash, std::equal_to<>> by_name;
  std::unordered_map<int32_t, size_t> by_tag;

  size_t Add(SddfDescriptor d) {
    size_t i = descs.size();
    if (auto t = by_tag.find(d.tag); t != by_tag.end()) {
      auto n = by_name.find(descs[t->second].name);
      if (n != by_name.end() && n->second == t->second) by_name.erase(n);
    }
    if (auto n = by_name.find(d.name); n != by_name.end()) {
      auto t = by_tag.find(descs[n->second].tag);
      if (t != by_tag.end() && t->second == n->second) by_tag.erase(t);
    }
    by_tag[d.tag] = i;
    by_name[d.name] = i;
    values.emplace_back(d.fields.size());
    descs.push_back(std::move(d));
    return i;
  }
};

bool TypeFromName(std::string_view s, SddfType* t) {
  static constexpr std::pair<std::string_view, SddfType> kTypes[] = {
      {"char", SddfType::kChar}, {"byte", SddfType::kByte},   {"short", SddfType::kShort}, {"int", SddfType::kInt},
      {"long", SddfType::kLong}, {"float", SddfType::kFloat}, {"double", SddfType::kDouble}};
  for (const auto& [n, ty] : kTypes)
    if (s == n) return *t = ty, true;
  return false;
}

bool InRange(SddfType t, int64_t v) {
  switch (t) {
    case SddfType::kChar:
    case SddfType::kByte: return v >= -128 && v <= 255;
    case SddfType::kShort: return v >= -32768 && v <= 65535;
    case SddfType::kInt: return v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<uint32_t>::max();
    default: return true;
  }
}

constexpr uint32_t kMaxDims = 8;

// ---------------------------------------------------------------- ASCII

class AsciiParser {
 public:
  AsciiParser(std::string_view text, const std::string& file, SddfHandler& h, Diagnostics& diags)
      : t_(text), file_(file), h_(h), diags_(diags), lines_(text) {}

  Result<SddfParseResult> Run() {
    SddfParseResult res;
    p_ = 5;  // "SDDFA"
    std::vector<std::pair<std::string, std::string>> pending;  // "//" attributes before a descriptor
    for (;;) {
      SkipWs();
      if (p_ >= t_.size()) break;
      size_t start = p_;
      char c = t_[p_];
      Status s = Status::Ok();
      if (c == '/' && Peek(1) == '*') {
        s = CommentOrAttributes(start);
      } else if (c == '/' && Peek(1) == '/') {
        s = AttrLine(&pending);
      } else if (c == '#') {
        s = Descriptor(start, &pending);
      } else if (c == '%') {
        s = CommandPacket(start);
      } else if (c == '"') {
        if (!Record(start)) continue;  // counted and skipped
      } else {
        s = Fail(start, fmt::format("unexpected '{}'", Printable(c)),
                 "expected a record descriptor (#TAG:), a data record (\"Name\" { ... };;), a command (%TAG:) or a comment");
      }
      if (!s.ok()) return s;
      ++res.packets;
    }
    res.lines = lines_.LineOf(t_.size());
    return res;
  }

 private:
  char Peek(size_t k) const { return p_ + k < t_.size() ? t_[p_ + k] : '\0'; }
  static std::string Printable(char c) {
    if (static_cast<unsigned char>(c) < 32 || static_cast<unsigned char>(c) > 126) return fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
    return std::string(1, c);
  }
  void SkipWs() {
    while (p_ < t_.size() && (t_[p_] == ' ' || t_[p_] == '\t' || t_[p_] == '\n' || t_[p_] == '\r')) ++p_;
  }
  uint64_t Line(size_t off) { return lines_.LineOf(off); }
  Status Fail(size_t off, std::string what, std::string hint = {}) {
    uint64_t line = lines_.LineOf(off);
    return Status::Error(std::move(what), Location{file_, line, lines_.ColumnOf(off)}, std::move(hint));
  }
  bool Expect(char c) {
    SkipWs();
    if (p_ < t_.size() && t_[p_] == c) return ++p_, true;
    return false;
  }
  std::string Found() const {
    if (p_ >= t_.size()) return "the end of the file";
    return fmt::format("'{}'", Printable(t_[p_]));
  }
  bool Quoted(std::string* out) {
    SkipWs();
    if (p_ >= t_.size() || t_[p_] != '"') return false;
    out->clear();
    for (size_t i = p_ + 1; i < t_.size(); ++i) {
      char c = t_[i];
      if (c == '\\' && i + 1 < t_.size()) {
        out->push_back(t_[++i]);
      } else if (c == '"') {
        p_ = i + 1;
        return true;
      } else {
        out->push_back(c);
      }
    }
    return false;
  }
  std::string_view Token() {
    SkipWs();
    size_t b = p_;
    while (p_ < t_.size()) {
      char c = t_[p_];
      if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '+' || c == '.' || c == '_')
        ++p_;
      else
        break;
    }
    return t_.substr(b, p_ - b);
  }
  static bool Int(std::string_view s, int64_t* v) {
    auto [e, ec] = std::from_chars(s.data(), s.data() + s.size(), *v);
    return ec == std::errc() && e == s.data() + s.size() && !s.empty();
  }
  static bool Real(std::string_view s, double* v) {
    if (s.empty() || s.size() > 64) return false;
    char tmp[72];
    std::memcpy(tmp, s.data(), s.size());
    tmp[s.size()] = '\0';
    char* end = nullptr;
    *v = std::strtod(tmp, &end);
    return end == tmp + s.size();
  }

  Status CommentOrAttributes(size_t start) {
    size_t close = t_.find("*/", p_ + 2);
    if (close == std::string_view::npos) return Fail(start, "unterminated comment", "a comment ends with */");
    std::string_view body = t_.substr(p_ + 2, close - p_ - 2);
    p_ = close + 2;
    size_t save = p_;
    SkipWs();
    if (!(Peek(0) == ';' && Peek(1) == ';')) {
      p_ = save;
      return Status::Ok();  // a plain comment
    }
    p_ += 2;
    // Stream attributes: quoted key/value pairs inside the comment.
    SddfAttributes attrs;
    std::string k, v;
    size_t i = 0;
    auto next = [&](std::string* out) {
      size_t q = body.find('"', i);
      if (q == std::string_view::npos) return false;
      out->clear();
      for (size_t j = q + 1; j < body.size(); ++j) {
        if (body[j] == '\\' && j + 1 < body.size()) {
          out->push_back(body[++j]);
        } else if (body[j] == '"') {
          i = j + 1;
          return true;
        } else {
          out->push_back(body[j]);
        }
      }
      return false;
    };
    while (next(&k)) {
      if (!next(&v)) return Fail(start, fmt::format("stream attribute \"{}\" has no value", k), "attributes are \"key\" \"value\" pairs");
      attrs.emplace_back(k, v);
    }
    return h_.OnAttributes(attrs, Line(start));
  }

  Status AttrLine(SddfAttributes* out) {
    size_t start = p_;
    size_t eol = t_.find('\n', p_);
    if (eol == std::string_view::npos) eol = t_.size();
    p_ += 2;
    std::string k, v;
    while (true) {
      SkipInline();
      if (p_ >= eol) break;
      if (!Quoted(&k) || p_ > eol) return Fail(start, "expected a quoted attribute name after //", "attribute lines are // \"key\" \"value\"");
      SkipInline();
      if (!Quoted(&v) || p_ > eol) return Fail(start, fmt::format("attribute \"{}\" has no value on its line", k), "attribute lines are // \"key\" \"value\"");
      out->emplace_back(k, v);
    }
    return Status::Ok();
  }
  void SkipInline() {
    while (p_ < t_.size() && (t_[p_] == ' ' || t_[p_] == '\t' || t_[p_] == '\r')) ++p_;
  }

  Status Descriptor(size_t start, SddfAttributes* pending) {
    ++p_;
    SddfDescriptor d;
    int64_t tag = 0;
    std::string_view tok = Token();
    if (!Int(tok, &tag) || tag < std::numeric_limits<int32_t>::min() || tag > std::numeric_limits<int32_t>::max())
      return Fail(start, fmt::format("expected an integer tag after '#', found \"{}\"", tok), "a record descriptor starts with #TAG:");
    d.tag = static_cast<int32_t>(tag);
    if (!Expect(':')) return Fail(p_, fmt::format("expected ':' after the tag, found {}", Found()));
    d.attributes = std::move(*pending);
    pending->clear();
    for (;;) {
      SkipWs();
      if (Peek(0) == '/' && Peek(1) == '/') {
        if (Status s = AttrLine(&d.attributes); !s.ok()) return s;
      } else {
        break;
      }
    }
    if (!Quoted(&d.name)) return Fail(p_, fmt::format("expected the quoted record name, found {}", Found()));
    if (!Expect('{')) return Fail(p_, fmt::format("expected '{{' after the record name, found {}", Found()));
    SddfAttributes field_attrs;
    for (;;) {
      SkipWs();
      if (Peek(0) == '}') {
        ++p_;
        break;
      }
      if (Peek(0) == '/' && Peek(1) == '/') {
        if (Status s = AttrLine(&field_attrs); !s.ok()) return s;
        continue;
      }
      SddfField f;
      size_t at = p_;
      std::string_view type = Token();
      if (!TypeFromName(type, &f.type))
        return Fail(at, type.empty() ? fmt::format("expected a field type or '}}', found {}", Found())
                                     : fmt::format("unknown field type \"{}\"", type),
                    "field types are char, byte, short, int, long, float and double");
      if (!Quoted(&f.name)) return Fail(p_, fmt::format("expected the quoted field name, found {}", Found()));
      while (Expect('[')) {
        if (!Expect(']')) return Fail(p_, fmt::format("expected ']' in the field's dimensions, found {}", Found()));
        if (++f.dims > kMaxDims) return Fail(at, fmt::format("more than {} array dimensions", kMaxDims));
      }
      if (!Expect(';')) return Fail(p_, fmt::format("expected ';' after field \"{}\", found {}", f.name, Found()));
      f.attributes = std::move(field_attrs);
      field_attrs.clear();
      d.fields.push_back(std::move(f));
    }
    if (!Expect(';') || !Expect(';')) return Fail(p_, fmt::format("expected \";;\" after the record descriptor, found {}", Found()));
    uint64_t line = Line(start);
    size_t i = tab_.Add(std::move(d));
    return h_.OnDescriptor(tab_.descs[i], line);
  }

  Status CommandPacket(size_t start) {
    ++p_;
    int64_t tag = 0;
    std::string_view tok = Token();
    if (!Int(tok, &tag) || tag < std::numeric_limits<int32_t>::min() || tag > std::numeric_limits<int32_t>::max())
      return Fail(start, fmt::format("expected an integer tag after '%', found \"{}\"", tok), "a command is %TAG: ;;");
    if (!Expect(':') || !Expect(';') || !Expect(';')) return Fail(p_, fmt::format("expected \": ;;\" after the command tag, found {}", Found()));
    return h_.OnCommand(static_cast<int32_t>(tag), Line(start));
  }

  // Reads a data record; on a malformed one, counts it, skips past the next ";;" and
  // returns false.
  bool Record(size_t start) {
    uint64_t line = Line(start);
    std::string err;
    DiagKind kind = DiagKind::kSyntax;
    size_t err_at = start;
    auto fail = [&](DiagKind k, std::string what) {
      kind = k, err = std::move(what), err_at = p_;
      return false;
    };
    auto body = [&]() -> bool {
      if (!Quoted(&name_)) return fail(DiagKind::kSyntax, "unterminated record name");
      auto f = tab_.by_name.find(std::string_view(name_));
      if (f == tab_.by_name.end()) return fail(DiagKind::kUndefinedName, fmt::format("record \"{}\" has no record descriptor before it", name_));
      const SddfDescriptor& d = tab_.descs[f->second];
      auto& vals = tab_.values[f->second];
      if (!Expect('{')) return fail(DiagKind::kSyntax, fmt::format("expected '{{' after the record name, found {}", Found()));
      for (size_t i = 0; i < d.fields.size(); ++i) {
        if (i && !Expect(',')) return fail(DiagKind::kTooFewFields, fmt::format("expected ',' and the value of field \"{}\", found {}", d.fields[i].name, Found()));
        if (!Value(d.fields[i], vals[i], &err)) return fail(DiagKind::kSyntax, fmt::format("field \"{}\": {}", d.fields[i].name, err));
      }
      if (!Expect('}')) return fail(DiagKind::kExtraFields, fmt::format("expected '}}' after {} values, found {}", d.fields.size(), Found()));
      if (!Expect(';') || !Expect(';')) return fail(DiagKind::kSyntax, fmt::format("expected \";;\" after the record, found {}", Found()));
      status_ = h_.OnRecord(d, vals, line);
      return true;
    };
    if (body()) return status_.ok() || Stop();
    uint64_t l = lines_.LineOf(std::max(err_at, start));
    diags_.Add(kind, l, lines_.ColumnOf(std::max(err_at, start)), err);
    size_t next = t_.find(";;", std::max(p_, start + 1));
    p_ = next == std::string_view::npos ? t_.size() : next + 2;
    return false;
  }
  bool Stop() {
    p_ = t_.size();
    return false;
  }

  bool Value(const SddfField& f, SddfValue& v, std::string* err) {
    v.Clear();
    size_t count = 1;
    for (uint32_t d = 0; d < f.dims; ++d) {
      if (!Expect('[')) return *err = fmt::format("expected '[' and the extent of dimension {}, found {}", d + 1, Found()), false;
      int64_t n = 0;
      std::string_view tok = Token();
      if (!Int(tok, &n) || n < 0) return *err = fmt::format("expected an array extent, found \"{}\"", tok), false;
      if (!Expect(']')) return *err = fmt::format("expected ']' after the array extent, found {}", Found()), false;
      // Every element takes at least one byte of the file: larger arrays cannot be present.
      if (n > static_cast<int64_t>(t_.size()) || (n > 0 && count > t_.size() / static_cast<size_t>(n)))
        return *err = fmt::format("array extent {} is larger than the file", n), false;
      count *= static_cast<size_t>(n);
      v.shape.push_back(static_cast<uint32_t>(n));
    }
    if (f.type == SddfType::kChar) {
      if (f.dims > 0) {
        if (!Quoted(&v.text)) return *err = fmt::format("expected a quoted string, found {}", Found()), false;
        if (v.text.size() != count) return *err = fmt::format("string of {} characters for an array of {}", v.text.size(), count), false;
        return true;
      }
      SkipWs();
      if (Peek(0) == '\'') {
        size_t q = p_ + 1;
        if (q < t_.size() && t_[q] == '\\') ++q;
        if (q + 1 >= t_.size() || t_[q + 1] != '\'') return *err = "expected a character in single quotes", false;
        v.text.assign(1, t_[q]);
        p_ = q + 2;
        return true;
      }
    }
    bool array = f.dims > 0;
    if (array && !Expect('{')) return *err = fmt::format("expected '{{' before the array elements, found {}", Found()), false;
    for (size_t i = 0; i < count; ++i) {
      if (i && !Expect(',')) return *err = fmt::format("expected ',' after element {} of {}, found {}", i, count, Found()), false;
      std::string_view tok = Token();
      if (SddfIsReal(f.type)) {
        double r = 0;
        if (!Real(tok, &r)) return *err = fmt::format("expected a number, found \"{}\"", tok.empty() ? Found() : std::string(tok)), false;
        v.reals.push_back(r);
      } else {
        int64_t n = 0;
        if (!Int(tok, &n)) return *err = fmt::format("expected an integer, found \"{}\"", tok.empty() ? Found() : std::string(tok)), false;
        if (!InRange(f.type, n)) return *err = fmt::format("{} does not fit a {}", n, SddfTypeName(f.type)), false;
        if (f.type == SddfType::kChar)
          v.text.push_back(static_cast<char>(n));
        else
          v.ints.push_back(n);
      }
    }
    if (array && !Expect('}')) return *err = fmt::format("expected '}}' after {} array elements, found {}", count, Found()), false;
    return true;
  }

  std::string_view t_;
  const std::string& file_;
  SddfHandler& h_;
  Diagnostics& diags_;
  LineCounter lines_;
  DescTable tab_;
  size_t p_ = 0;
  std::string name_;
  Status status_ = Status::Ok();

 public:
  Status status() const { return status_; }
};

// ---------------------------------------------------------------- binary

class BinaryParser {
 public:
  BinaryParser(std::string_view bytes, const std::string& file, SddfHandler& h, Diagnostics& diags, bool big)
      : b_(bytes), file_(file), h_(h), diags_(diags), big_(big) {}

  Result<SddfParseResult> Run() {
    SddfParseResult res;
    res.binary = true;
    res.little_endian = !big_;
    size_t p = 5;
    while (p < b_.size()) {
      if (b_.size() - p < 12)
        return Fail(p, fmt::format("truncated packet header: {} bytes left, a packet header has 12", b_.size() - p));
      uint64_t len = U(p, 4);
      if (len < 12 || len > b_.size() - p)
        return Fail(p, fmt::format("packet length {} is {} than the {} bytes left", len, len < 12 ? "smaller than its header, or larger" : "larger", b_.size() - p),
                    "the file is truncated or not SDDF binary of this byte order");
      end_ = p + len;
      auto type = static_cast<int32_t>(U(p + 4, 4));
      auto tag = static_cast<int32_t>(U(p + 8, 4));
      q_ = p + 12;
      Status s = Status::Ok();
      switch (type) {
        case kSddfPacketDescriptor: s = Descriptor(p, tag); break;
        case kSddfPacketData: s = Data(p, tag); break;
        case kSddfPacketAttributes: s = Attributes(p); break;
        case kSddfPacketCommand: s = h_.OnCommand(tag, p); break;
        default:
          diags_.Add(DiagKind::kUnknownRecordType, 0, 0, fmt::format("packet of unknown type {} at byte offset {}", type, p));
          break;
      }
      if (!s.ok()) return s;
      ++res.packets;
      p = end_;
    }
    return res;
  }

 private:
  uint64_t U(size_t at, int n) const {
    uint64_t v = 0;
    for (int i = 0; i < n; ++i) {
      auto byte = static_cast<uint8_t>(b_[at + static_cast<size_t>(big_ ? i : n - 1 - i)]);
      v = (v << 8) | byte;
    }
    return v;
  }
  int64_t S(size_t at, int n) const {
    uint64_t v = U(at, n);
    if (n < 8 && (v >> (8 * n - 1)) & 1) v |= ~uint64_t{0} << (8 * n);
    return static_cast<int64_t>(v);
  }
  Status Fail(size_t at, std::string what, std::string hint = {}) {
    return Status::Error(fmt::format("{} (byte offset {})", what, at), Location{file_, 0, 0}, std::move(hint));
  }
  bool Need(size_t n) const { return n <= end_ - q_; }
  bool Int32(int64_t* v) {
    if (!Need(4)) return false;
    *v = S(q_, 4);
    q_ += 4;
    return true;
  }
  bool Str(std::string* s) {
    int64_t n = 0;
    if (!Int32(&n) || n < 0 || !Need(static_cast<size_t>(n))) return false;
    s->assign(b_.substr(q_, static_cast<size_t>(n)));
    q_ += static_cast<size_t>(n);
    return true;
  }
  bool Attrs(SddfAttributes* a) {
    int64_t n = 0;
    if (!Int32(&n) || n < 0 || static_cast<uint64_t>(n) > (end_ - q_) / 8) return false;
    std::string k, v;
    for (int64_t i = 0; i < n; ++i) {
      if (!Str(&k) || !Str(&v)) return false;
      a->emplace_back(k, v);
    }
    return true;
  }
  Status Attributes(size_t at) {
    SddfAttributes a;
    if (!Attrs(&a)) return Fail(at, "malformed stream attribute packet", "expected a count and that many pairs of length-prefixed strings");
    return h_.OnAttributes(a, at);
  }
  Status Descriptor(size_t at, int32_t tag) {
    SddfDescriptor d;
    d.tag = tag;
    int64_t n = 0;
    if (!Str(&d.name) || !Attrs(&d.attributes) || !Int32(&n) || n < 0 || static_cast<uint64_t>(n) > (end_ - q_) / 16)
      return Fail(at, fmt::format("malformed record descriptor #{}", tag), "expected name, attributes and a field count");
    for (int64_t i = 0; i < n; ++i) {
      SddfField f;
      int64_t type = 0, dims = 0;
      if (!Str(&f.name) || !Attrs(&f.attributes) || !Int32(&type) || !Int32(&dims))
        return Fail(at, fmt::format("malformed field {} of record descriptor #{}", i + 1, tag));
      if (type < 1 || type > 7) return Fail(at, fmt::format("field \"{}\" has unknown type code {}", f.name, type), "type codes are 1 (char) to 7 (double)");
      if (dims < 0 || dims > kMaxDims) return Fail(at, fmt::format("field \"{}\" has {} dimensions", f.name, dims));
      f.type = static_cast<SddfType>(type);
      f.dims = static_cast<uint32_t>(dims);
      d.fields.push_back(std::move(f));
    }
    if (q_ != end_) diags_.Add(DiagKind::kExtraFields, 0, 0, fmt::format("{} bytes after record descriptor #{} at byte offset {}", end_ - q_, tag, at));
    size_t i = tab_.Add(std::move(d));
    return h_.OnDescriptor(tab_.descs[i], at);
  }
  Status Data(size_t at, int32_t tag) {
    auto f = tab_.by_tag.find(tag);
    if (f == tab_.by_tag.end()) {
      diags_.Add(DiagKind::kUndefinedName, 0, 0, fmt::format("data packet with tag {} and no record descriptor before it, at byte offset {}", tag, at));
      return Status::Ok();
    }
    const SddfDescriptor& d = tab_.descs[f->second];
    auto& vals = tab_.values[f->second];
    for (size_t i = 0; i < d.fields.size(); ++i) {
      if (!Value(d.fields[i], vals[i])) {
        diags_.Add(DiagKind::kTooFewFields, 0, 0, fmt::format("record \"{}\" at byte offset {}: field \"{}\" runs past the packet's end", d.name, at, d.fields[i].name));
        return Status::Ok();
      }
    }
    if (q_ != end_) diags_.Add(DiagKind::kExtraFields, 0, 0, fmt::format("{} bytes after the fields of record \"{}\" at byte offset {}", end_ - q_, d.name, at));
    return h_.OnRecord(d, vals, at);
  }
  bool Value(const SddfField& f, SddfValue& v) {
    static const int kBytes[] = {0, 1, 1, 2, 4, 8, 4, 8};
    const auto size = static_cast<size_t>(kBytes[static_cast<int>(f.type)]);
    v.Clear();
    size_t count = 1;
    for (uint32_t d = 0; d < f.dims; ++d) {
      int64_t n = 0;
      if (!Int32(&n) || n < 0) return false;
      if (n > 0 && count > (end_ - q_) / static_cast<size_t>(n)) return false;
      count *= static_cast<size_t>(n);
      v.shape.push_back(static_cast<uint32_t>(n));
    }
    if (count > (end_ - q_) / size) return false;
    for (size_t i = 0; i < count; ++i, q_ += size) {
      switch (f.type) {
        case SddfType::kChar: v.text.push_back(b_[q_]); break;
        case SddfType::kByte: v.ints.push_back(S(q_, 1)); break;
        case SddfType::kShort: v.ints.push_back(S(q_, 2)); break;
        case SddfType::kInt: v.ints.push_back(S(q_, 4)); break;
        case SddfType::kLong: v.ints.push_back(S(q_, 8)); break;
        case SddfType::kFloat: v.reals.push_back(std::bit_cast<float>(static_cast<uint32_t>(U(q_, 4)))); break;
        case SddfType::kDouble: v.reals.push_back(std::bit_cast<double>(U(q_, 8))); break;
      }
    }
    return true;
  }

  std::string_view b_;
  const std::string& file_;
  SddfHandler& h_;
  Diagnostics& diags_;
  bool big_;
  DescTable tab_;
  size_t q_ = 0, end_ = 0;
};

}  // namespace

Result<SddfParseResult> ParseSddf(std::string_view bytes, const std::string& file, SddfHandler& handler,
                                  Diagnostics& diags) {
  std::string_view magic = bytes.substr(0, 5);
  if (magic == "SDDFA") {
    AsciiParser p(bytes, file, handler, diags);
    auto r = p.Run();
    if (r.ok() && !p.status().ok()) return p.status();
    return r;
  }
  if (magic == "SDDFB" || magic == "SDDFb") return BinaryParser(bytes, file, handler, diags, magic == "SDDFB").Run();
  return Status::Error("not an SDDF file", Location{file, 1, 1}, "SDDF files start with SDDFA (ASCII), SDDFB or SDDFb (binary)");
}

}  // namespace parallax::io
