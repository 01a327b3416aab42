#pragma once
// Helpers for the tools tests: a scratch folder, whole-file reads (gzip-aware) and the
// normalisation of the cutter's provenance line (its date and input path differ per run).

#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdlib>
#include <regex>
#include <string>

namespace parallax::tools_test {

inline std::string Data(const std::string& rel) {
  return std::string(PARALLAX_TEST_DATA) + "/" + rel;
}

inline std::string ReadAll(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (f == nullptr) return "<missing " + path + ">";
  std::string s;
  char buf[1 << 16];
  int n;
  while ((n = gzread(f, buf, sizeof buf)) > 0) s.append(buf, static_cast<size_t>(n));
  gzclose(f);
  return s;
}

inline void WriteAll(const std::string& path, const std::string& text) {
  FILE* f = std::fopen(path.c_str(), "wb");
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
}

inline bool Exists(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0;
}

// "#<date>:CUTTER:ORIGINAL:"<path>":a:b:c" -> "#DATE:CUTTER:ORIGINAL:"PATH":a:b:c".
inline std::string NormaliseProvenance(const std::string& text) {
  static const std::regex re("#[0-9]+:CUTTER:ORIGINAL:\"[^\"]*\":");
  return std::regex_replace(text, re, "#DATE:CUTTER:ORIGINAL:\"PATH\":");
}

class ScratchDir {
 public:
  ScratchDir() {
    char tmpl[] = "/tmp/parallax_tools_XXXXXX";
    path_ = mkdtemp(tmpl);
  }
  ~ScratchDir() { std::system(("rm -rf '" + path_ + "'").c_str()); }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace parallax::tools_test
