#pragma once
// Helpers for messages that quote input: control bytes are shown escaped, never raw.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace parallax::base {

// `text` with every control byte (below 0x20, and 0x7f) written as \xNN; other bytes, UTF-8
// included, are kept.
std::string EscapeControl(std::string_view text);

// Whether `text` is valid UTF-8 (no overlong forms, no surrogates, at most U+10FFFF).
bool IsValidUtf8(std::string_view text);

// `text` as valid UTF-8: its valid UTF-8 sequences kept, and every other byte read as Latin-1
// (older Paraver setups wrote labels such as "Ejecución" in Latin-1), so that every label can
// go into JSON and to the browser.
std::string RepairUtf8(std::string_view text);

// Position of the first NUL byte among the first `limit` bytes of `text`, if any. Text formats
// never contain NUL, so one near the start means binary data.
std::optional<size_t> FindNul(std::string_view text, size_t limit);

}  // namespace parallax::base
