// Otf2Messages: libotf2's error reports kept per thread instead of printed (otf2_internal.h).

#include <cstdarg>
#include <cstdio>
#include <mutex>
#include <string>

#include "src/io/otf2/otf2_internal.h"

namespace parallax::io {

// The Otf2Messages active on this thread (innermost), or null: libotf2 then prints.
thread_local Otf2Messages* t_current = nullptr;

struct Otf2MessageSink {
  static OTF2_ErrorCode Report(void*, const char* file, uint64_t line, const char*, OTF2_ErrorCode code,
                               const char* format, va_list va) {
    char text[512];
    std::vsnprintf(text, sizeof text, format != nullptr ? format : "", va);
    Otf2Messages* m = t_current;
    if (m == nullptr) {
      std::fprintf(stderr, "[OTF2] %s:%llu: error: %s: %s\n", file != nullptr ? file : "?",
                   static_cast<unsigned long long>(line), OTF2_Error_GetDescription(code), text);
      return code;
    }
    if (m->count_++ == 0) m->first_ = std::string(OTF2_Error_GetDescription(code)) + ": " + text;
    return code;
  }
};

Otf2Messages::Otf2Messages() {
  static std::once_flag installed;
  std::call_once(installed, [] { OTF2_Error_RegisterCallback(&Otf2MessageSink::Report, nullptr); });
  outer_ = t_current;
  t_current = this;
}

Otf2Messages::~Otf2Messages() { t_current = outer_; }

Status Otf2Messages::Annotate(Status s) const {
  if (s.ok() || first_.empty()) return s;
  std::string message = s.message() + " (libotf2: " + first_;
  if (count_ > 1) message += "; " + std::to_string(count_ - 1) + " more after it";
  message += ")";
  return s.limit() ? Status::Limit(message, s.where(), s.hint()) : Status::Error(message, s.where(), s.hint());
}

}  // namespace parallax::io
