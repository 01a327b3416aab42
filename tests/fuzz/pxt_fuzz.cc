// Fuzz target of the tracer's per-process files (`*.pxt`, tracing/src/record_format.h) and of
// the merge that reads them (`parallax merge`, and the runtime at the end of a traced run): the
// input is one or more process files, separated by the 8 bytes "PXTNEXT!" (at most 8), each
// read by the .pxt reader; the files that read are merged in memory (clock correction, message
// matching, causality repair), without writing the .prv. A file or a merge may fail with a
// message, never crash, hang or take memory out of proportion with the input.
//
// The module map of a file (its `module` lines) is dropped before the merge: the call sites are
// resolved by reading the ELF objects it names on this machine, not the input's bytes.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tracing/src/merge/merge_model.h"
#include "tracing/src/merge/pxt_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace parallax::tracing;
  constexpr std::string_view kSeparator = "PXTNEXT!";
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  std::vector<ProcessFile> files;
  std::string error;
  while (files.size() < 8) {
    const size_t cut = rest.find(kSeparator);
    ProcessFile f;
    if (ParseProcessFile(rest.substr(0, cut), "fuzz.pxt", false, &f, &error)) {
      f.modules.clear();
      files.push_back(std::move(f));
    }
    if (cut == std::string_view::npos) break;
    rest.remove_prefix(cut + kSeparator.size());
  }
  if (files.empty()) return 0;
  MergeOptions options;
  MergeReport report;
  MergedTrace trace;
  if (MergeProcesses(&files, options, &report, &trace, &error)) (void)trace.threads.size();
  return 0;
}
