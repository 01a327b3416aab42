#pragma once
// Base64 (RFC 4648, with padding), for images inside JSON answers and HTML reports.

#include <string>
#include <string_view>

namespace parallax::base {

std::string Base64(std::string_view bytes);

}  // namespace parallax::base
