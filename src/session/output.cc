#include "include/parallax/output.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include <fmt/format.h>

#include "src/base/base64.h"
#include "src/base/temp_files.h"
#include "src/io/text_file.h"

namespace parallax {

Status WriteOutputFile(const std::string& path, std::string_view content, bool overwrite) {
  return io::WriteTextFile(path, content, overwrite);
}

void RemoveTemporaryFilesOnSignals() { base::InstallTempFileCleanup(); }

ScratchFolder::ScratchFolder(const std::string& prefix) : path_(base::CreateTempDir(prefix)) {}

ScratchFolder::~ScratchFolder() { base::RemoveTempDir(path_); }

std::string EncodeBase64(std::string_view bytes) { return base::Base64(bytes); }

Status FinishStandardOutput() {
  std::cout.flush();
  const bool streams_ok = !std::cout.fail();
  errno = 0;
  const bool stdio_ok = std::fflush(stdout) == 0 && std::ferror(stdout) == 0;
  if (streams_ok && stdio_ok) return Status::Ok();
  const int err = errno != 0 ? errno : EIO;
  return Status::Error(fmt::format("cannot write the standard output: {}", std::strerror(err)),
                       Location{"<stdout>", 0, 0},
                       err == ENOSPC ? "the disk is full: free some space, or write elsewhere"
                                     : "check where the output goes (a closed pipe, a full disk)");
}

}  // namespace parallax
