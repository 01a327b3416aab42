#pragma once
// Pablo's Self-Defining Data Format (SDDF), ASCII ("SDDFA") and binary ("SDDFB" big-endian,
// "SDDFb" little-endian): a streaming parser that hands every packet to a handler, and a
// writer of both forms. The grammar and the binary layout are documented in docs/formats.md.
//
// A file is a stream attribute header followed by packets of four kinds:
//   stream attributes   /* "key" "value" ... */ ;;
//   record descriptors  #TAG: // "key" "value"
//                       "Name" { // "key" "value"
//                                TYPE "field"[][]; ... };;
//   data records        "Name" { value, [n] { v, ... }, [n] "text", 'c', ... };;
//   commands            %TAG: ;;
// Comments are /* ... */ not followed by ";;". Field types: char, byte, short, int, long,
// float, double; each "[]" after a field name adds an array dimension.

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "include/parallax/status.h"
#include "src/io/diagnostics.h"

namespace parallax::io {

// Codes are those of the binary form (docs/formats.md).
enum class SddfType : int32_t { kChar = 1, kByte = 2, kShort = 3, kInt = 4, kLong = 5, kFloat = 6, kDouble = 7 };
std::string_view SddfTypeName(SddfType t);
inline bool SddfIsReal(SddfType t) { return t == SddfType::kFloat || t == SddfType::kDouble; }

using SddfAttributes = std::vector<std::pair<std::string, std::string>>;

struct SddfField {
  std::string name;
  SddfType type = SddfType::kInt;
  uint32_t dims = 0;  // 0 = scalar
  SddfAttributes attributes;
};

struct SddfDescriptor {
  int32_t tag = 0;
  std::string name;
  SddfAttributes attributes;
  std::vector<SddfField> fields;
};

// One field of a data record. Scalars hold one element; arrays hold `shape` (one extent per
// dimension) and the elements in row-major order. Char fields keep their bytes in `text`,
// integer fields in `ints`, float/double fields in `reals`.
struct SddfValue {
  std::vector<uint32_t> shape;
  std::vector<int64_t> ints;
  std::vector<double> reals;
  std::string text;

  void Clear() {
    shape.clear();
    ints.clear();
    reals.clear();
    text.clear();
  }
  int64_t AsInt() const { return ints.empty() ? (reals.empty() ? (text.empty() ? 0 : text[0]) : static_cast<int64_t>(reals[0])) : ints[0]; }
  double AsReal() const { return reals.empty() ? static_cast<double>(AsInt()) : reals[0]; }
};

// Receives the packets in file order. `where` is the 1-based line of the packet (ASCII) or
// its byte offset (binary). A handler returns an error to stop the parse.
class SddfHandler {
 public:
  virtual ~SddfHandler() = default;
  virtual Status OnAttributes(const SddfAttributes& attributes, uint64_t where) {
    (void)attributes, (void)where;
    return Status::Ok();
  }
  virtual Status OnDescriptor(const SddfDescriptor& d, uint64_t where) = 0;
  virtual Status OnRecord(const SddfDescriptor& d, std::span<const SddfValue> values, uint64_t where) = 0;
  virtual Status OnCommand(int32_t tag, uint64_t where) {
    (void)tag, (void)where;
    return Status::Ok();
  }
};

struct SddfParseResult {
  bool binary = false;
  bool little_endian = false;
  uint64_t packets = 0;
  uint64_t lines = 0;  // ASCII only
};

// Parses a whole SDDF stream (either form, told by the first five bytes). A malformed data
// record is counted and located in `diags` and skipped; a malformed descriptor or header is an
// error with the file, line (ASCII) or byte offset (binary) and what was expected.
Result<SddfParseResult> ParseSddf(std::string_view bytes, const std::string& file, SddfHandler& handler,
                                  Diagnostics& diags);

// Writes SDDF to a byte sink in either form. Descriptors must be written before their records.
class SddfWriter {
 public:
  enum class Form { kAscii, kBinaryBig, kBinaryLittle };
  using Sink = std::function<bool(std::string_view)>;  // false = write error
  SddfWriter(Form form, Sink sink);
  // ASCII, or binary in this machine's byte order.
  static Form NativeForm(bool binary);
  ~SddfWriter();

  bool Attributes(const SddfAttributes& attributes);
  bool Descriptor(const SddfDescriptor& d);
  // Values of the descriptor's fields, in order.
  bool Record(const SddfDescriptor& d, std::span<const SddfValue> values);
  // Record of scalar integers only (the fast path of writers such as ksr2sddf).
  bool IntRecord(const SddfDescriptor& d, std::span<const int64_t> values);
  bool Command(int32_t tag);
  bool Finish();  // flushes

 private:
  bool MaybeFlush();
  void PutInt(int64_t v, int bytes);
  void PutString(std::string_view s);
  void BeginPacket(int32_t type, int32_t tag);
  void EndPacket();
  void AsciiAttributes(const SddfAttributes& a, const char* indent);
  void AsciiValue(SddfType type, const SddfValue& v);
  void BinaryValue(SddfType type, uint32_t dims, const SddfValue& v);

  Form form_;
  Sink sink_;
  std::string buf_;
  size_t packet_start_ = 0;
};

// Packet type codes of the binary form.
inline constexpr int32_t kSddfPacketDescriptor = 1;
inline constexpr int32_t kSddfPacketData = 2;
inline constexpr int32_t kSddfPacketAttributes = 3;
inline constexpr int32_t kSddfPacketCommand = 4;

// Appends `s` as an SDDF ASCII quoted string (backslash escapes for '"' and '\\').
void AppendSddfQuoted(std::string& out, std::string_view s);

}  // namespace parallax::io
