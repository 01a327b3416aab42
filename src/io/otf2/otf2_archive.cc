// The files of an OTF2 archive, by name only: what libotf2 opens for an anchor file, so that
// Parallax can check them before libotf2 does (built with or without libotf2).

#include <filesystem>

#include "src/base/input_buffer.h"
#include "src/io/otf2/otf2_trace.h"

namespace parallax::io {

std::string Otf2AnchorOf(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_directory(path, ec)) return path;
  std::string found;
  for (const auto& entry : std::filesystem::directory_iterator(path, ec)) {
    if (entry.path().extension() != ".otf2") continue;
    if (!found.empty()) return path;  // ambiguous: the caller reports the folder
    found = entry.path().string();
  }
  return found.empty() ? path : found;
}

std::vector<std::string> Otf2ArchiveFiles(const std::string& anchor) {
  std::vector<std::string> files{anchor};
  if (!base::EndsWith(anchor, ".otf2")) return files;
  const std::string base = anchor.substr(0, anchor.size() - 5);
  files.push_back(base + ".def");
  files.push_back(base);
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(base, ec)) files.push_back(e.path().string());
  return files;
}

}  // namespace parallax::io
