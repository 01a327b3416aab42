#pragma once
// A scratch folder for tests that write hand-made inputs: created under the system temp
// folder, removed with everything in it when the test ends, so no test leaves a file in the
// repository or in the shared folders.

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace parallax::test {

class ScratchFolder {
 public:
  ScratchFolder() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "parallax-test-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) != nullptr) path_ = tmpl;
  }
  ~ScratchFolder() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;

  const std::string& path() const { return path_; }
  // Writes `text` to the file `name` of the folder; returns its path.
  std::string Write(const std::string& name, std::string_view text) const {
    std::string file = path_ + "/" + name;
    std::ofstream out(file, std::ios::binary);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    return file;
  }

 private:
  std::string path_;
};

}  // namespace parallax::test
