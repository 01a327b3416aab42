// Fuzz target of the streaming tools' record parser (src/tools/prv_record.h): every line of
// the input is parsed as the tools parse it (with and without event pairs, and type-4 lines as
// global operations). Nothing may crash; an error names its line; a global operation that
// parses, written back from its fields, parses to the same fields.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "src/tools/prv_record.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string file = "fuzz.prv";
  parallax::tools::PrvRecord rec, again;
  uint64_t line_no = 0;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++line_no;
    for (bool skip : {false, true}) {
      parallax::Status s = parallax::tools::ParsePrvRecord(line, file, line_no, &rec, skip);
      if (!s.ok() && s.where().line != line_no) std::abort();
    }
    if (!parallax::tools::IsGlobalOpLine(line)) continue;
    parallax::Status s = parallax::tools::ParseGlobalOp(line, file, line_no, &rec);
    if (!s.ok()) {
      if (s.where().line != line_no || s.where().column == 0) std::abort();
      continue;
    }
    if (rec.kind != '4' || rec.pairs_at > line.size()) std::abort();
    std::string written = "4:" + std::to_string(rec.cpu) + ":" + std::to_string(rec.appl) + ":" +
                          std::to_string(rec.task) + ":" + std::to_string(rec.thread) + ":" +
                          std::to_string(rec.t1) + std::string(line.substr(rec.pairs_at - 1));
    s = parallax::tools::ParseGlobalOp(written, file, line_no, &again);
    if (!s.ok() || again.cpu != rec.cpu || again.appl != rec.appl || again.task != rec.task ||
        again.thread != rec.thread || again.t1 != rec.t1 ||
        written.substr(again.pairs_at) != line.substr(rec.pairs_at))
      std::abort();
  }
  return 0;
}
