// SDDF writer: ASCII as the Pablo report prints it, binary as length-prefixed packets
// (docs/formats.md). Output goes through a buffer flushed to the sink every MB.

#include <fmt/format.h>

#include <bit>
#include <cstring>

#include "src/io/sddf/sddf.h"

namespace parallax::io {

std::string_view SddfTypeName(SddfType t) {
  switch (t) {
    case SddfType::kChar: return "char";
    case SddfType::kByte: return "byte";
    case SddfType::kShort: return "short";
    case SddfType::kInt: return "int";
    case SddfType::kLong: return "long";
    case SddfType::kFloat: return "float";
    case SddfType::kDouble: return "double";
  }
  return "int";
}

void AppendSddfQuoted(std::string& out, std::string_view s) {
  out.push_back('"');
  for (char c : s) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  out.push_back('"');
}

SddfWriter::SddfWriter(Form form, Sink sink) : form_(form), sink_(std::move(sink)) {
  buf_ = form_ == Form::kAscii ? "SDDFA\n" : form_ == Form::kBinaryBig ? "SDDFB" : "SDDFb";
}

SddfWriter::~SddfWriter() = default;

SddfWriter::Form SddfWriter::NativeForm(bool binary) {
  if (!binary) return Form::kAscii;
  return std::endian::native == std::endian::little ? Form::kBinaryLittle : Form::kBinaryBig;
}

bool SddfWriter::MaybeFlush() { return buf_.size() < (1u << 20) || Finish(); }

bool SddfWriter::Finish() {
  bool ok = buf_.empty() || sink_(buf_);
  buf_.clear();
  return ok;
}

namespace {
void Encode(int64_t v, int bytes, bool big, char* out) {
  auto u = static_cast<uint64_t>(v);
  for (int i = 0; i < bytes; ++i) {
    int shift = big ? 8 * (bytes - 1 - i) : 8 * i;
    out[i] = static_cast<char>((u >> shift) & 0xFF);
  }
}
}  // namespace

void SddfWriter::PutInt(int64_t v, int bytes) {
  char b[8];
  Encode(v, bytes, form_ == Form::kBinaryBig, b);
  buf_.append(b, static_cast<size_t>(bytes));
}

void SddfWriter::PutString(std::string_view s) {
  PutInt(static_cast<int64_t>(s.size()), 4);
  buf_.append(s);
}

void SddfWriter::BeginPacket(int32_t type, int32_t tag) {
  packet_start_ = buf_.size();
  PutInt(0, 4);  // length, patched by EndPacket
  PutInt(type, 4);
  PutInt(tag, 4);
}

void SddfWriter::EndPacket() {
  Encode(static_cast<int64_t>(buf_.size() - packet_start_), 4, form_ == Form::kBinaryBig, buf_.data() + packet_start_);
}

void SddfWriter::AsciiAttributes(const SddfAttributes& a, const char* indent) {
  for (const auto& [k, v] : a) {
    buf_ += indent;
    buf_ += "// ";
    AppendSddfQuoted(buf_, k);
    buf_ += ' ';
    AppendSddfQuoted(buf_, v);
    buf_ += '\n';
  }
}

bool SddfWriter::Attributes(const SddfAttributes& attributes) {
  if (form_ == Form::kAscii) {
    buf_ += "/*\n";
    for (const auto& [k, v] : attributes) {
      buf_ += " * ";
      AppendSddfQuoted(buf_, k);
      buf_ += ' ';
      AppendSddfQuoted(buf_, v);
      buf_ += '\n';
    }
    buf_ += " */ ;;\n\n";
  } else {
    BeginPacket(kSddfPacketAttributes, 0);
    PutInt(static_cast<int64_t>(attributes.size()), 4);
    for (const auto& [k, v] : attributes) PutString(k), PutString(v);
    EndPacket();
  }
  return MaybeFlush();
}

bool SddfWriter::Descriptor(const SddfDescriptor& d) {
  if (form_ == Form::kAscii) {
    fmt::format_to(std::back_inserter(buf_), "#{}:\n", d.tag);
    AsciiAttributes(d.attributes, "");
    AppendSddfQuoted(buf_, d.name);
    buf_ += " {\n";
    for (const SddfField& f : d.fields) {
      AsciiAttributes(f.attributes, "\t");
      buf_ += '\t';
      buf_ += SddfTypeName(f.type);
      buf_ += '\t';
      AppendSddfQuoted(buf_, f.name);
      for (uint32_t i = 0; i < f.dims; ++i) buf_ += "[]";
      buf_ += ";\n";
    }
    buf_ += "};;\n\n";
  } else {
    BeginPacket(kSddfPacketDescriptor, d.tag);
    PutString(d.name);
    PutInt(static_cast<int64_t>(d.attributes.size()), 4);
    for (const auto& [k, v] : d.attributes) PutString(k), PutString(v);
    PutInt(static_cast<int64_t>(d.fields.size()), 4);
    for (const SddfField& f : d.fields) {
      PutString(f.name);
      PutInt(static_cast<int64_t>(f.attributes.size()), 4);
      for (const auto& [k, v] : f.attributes) PutString(k), PutString(v);
      PutInt(static_cast<int32_t>(f.type), 4);
      PutInt(f.dims, 4);
    }
    EndPacket();
  }
  return MaybeFlush();
}

void SddfWriter::AsciiValue(SddfType type, const SddfValue& v) {
  auto it = std::back_inserter(buf_);
  for (uint32_t n : v.shape) fmt::format_to(it, "[{}]", n);
  if (!v.shape.empty()) buf_ += ' ';
  if (type == SddfType::kChar) {
    if (!v.shape.empty()) {
      AppendSddfQuoted(buf_, v.text);
    } else {
      char c = v.text.empty() ? '\0' : v.text[0];
      buf_ += '\'';
      if (c == '\'' || c == '\\') buf_ += '\\';
      buf_ += c;
      buf_ += '\'';
    }
    return;
  }
  bool real = SddfIsReal(type);
  size_t n = real ? v.reals.size() : v.ints.size();
  if (!v.shape.empty()) buf_ += "{ ";
  for (size_t i = 0; i < n; ++i) {
    if (i) buf_ += ", ";
    if (real) {
      fmt::format_to(it, "{}", v.reals[i]);
    } else {
      fmt::format_to(it, "{}", v.ints[i]);
    }
  }
  if (!v.shape.empty()) buf_ += " }";
}

void SddfWriter::BinaryValue(SddfType type, uint32_t dims, const SddfValue& v) {
  size_t count = 1;
  for (uint32_t i = 0; i < dims; ++i) {
    uint32_t n = i < v.shape.size() ? v.shape[i] : 0;
    PutInt(n, 4);
    count *= n;
  }
  for (size_t i = 0; i < count; ++i) {
    switch (type) {
      case SddfType::kChar: buf_ += i < v.text.size() ? v.text[i] : '\0'; break;
      case SddfType::kByte: PutInt(i < v.ints.size() ? v.ints[i] : 0, 1); break;
      case SddfType::kShort: PutInt(i < v.ints.size() ? v.ints[i] : 0, 2); break;
      case SddfType::kInt: PutInt(i < v.ints.size() ? v.ints[i] : 0, 4); break;
      case SddfType::kLong: PutInt(i < v.ints.size() ? v.ints[i] : 0, 8); break;
      case SddfType::kFloat:
        PutInt(std::bit_cast<uint32_t>(static_cast<float>(i < v.reals.size() ? v.reals[i] : 0.0)), 4);
        break;
      case SddfType::kDouble:
        PutInt(static_cast<int64_t>(std::bit_cast<uint64_t>(i < v.reals.size() ? v.reals[i] : 0.0)), 8);
        break;
    }
  }
}

bool SddfWriter::Record(const SddfDescriptor& d, std::span<const SddfValue> values) {
  if (form_ == Form::kAscii) {
    AppendSddfQuoted(buf_, d.name);
    buf_ += " { ";
    for (size_t i = 0; i < d.fields.size() && i < values.size(); ++i) {
      if (i) buf_ += ", ";
      AsciiValue(d.fields[i].type, values[i]);
    }
    buf_ += " };;\n";
  } else {
    BeginPacket(kSddfPacketData, d.tag);
    for (size_t i = 0; i < d.fields.size() && i < values.size(); ++i)
      BinaryValue(d.fields[i].type, d.fields[i].dims, values[i]);
    EndPacket();
  }
  return MaybeFlush();
}

bool SddfWriter::IntRecord(const SddfDescriptor& d, std::span<const int64_t> values) {
  if (form_ == Form::kAscii) {
    AppendSddfQuoted(buf_, d.name);
    buf_ += " { ";
    for (size_t i = 0; i < values.size(); ++i) fmt::format_to(std::back_inserter(buf_), "{}{}", i ? ", " : "", values[i]);
    buf_ += " };;\n";
  } else {
    BeginPacket(kSddfPacketData, d.tag);
    static const int kBytes[] = {0, 1, 1, 2, 4, 8, 4, 8};
    for (size_t i = 0; i < values.size() && i < d.fields.size(); ++i)
      PutInt(values[i], kBytes[static_cast<int>(d.fields[i].type)]);
    EndPacket();
  }
  return MaybeFlush();
}

bool SddfWriter::Command(int32_t tag) {
  if (form_ == Form::kAscii) {
    fmt::format_to(std::back_inserter(buf_), "%{}: ;;\n", tag);
  } else {
    BeginPacket(kSddfPacketCommand, tag);
    EndPacket();
  }
  return MaybeFlush();
}

}  // namespace parallax::io
