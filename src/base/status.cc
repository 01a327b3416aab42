#include "include/parallax/status.h"

#include <fmt/format.h>

#include "src/base/text_safety.h"

namespace parallax {

std::string Status::ToString() const {
  if (ok()) return "ok";
  std::string out;
  if (!where_.file.empty()) {
    out += where_.file;
    if (where_.line > 0) out += fmt::format(":{}", where_.line);
    if (where_.column > 0) out += fmt::format(":{}", where_.column);
    out += ": ";
  }
  // Messages may quote input: control bytes never reach a terminal raw.
  out += "error: ";
  out += base::EscapeControl(message_);
  if (!hint_.empty()) out += "\n  hint: " + base::EscapeControl(hint_);
  return out;
}

}  // namespace parallax
