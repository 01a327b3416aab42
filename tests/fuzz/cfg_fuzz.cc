// Fuzz target of the .cfg reader and of what a cfg drives: the input is read as a cfg and
// evaluated on a small real trace (tests/data/qsort_beo3: 4 threads, 8 cpus, states, events and
// communications) through the public API, as the server does with a posted `cfg_text`: the
// textual dump of the last window's first object over the whole trace, and every histogram.
// Errors are expected; crashes, sanitizer reports, hangs and huge allocations are findings.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "include/parallax/trace.h"

namespace {

const parallax::Trace& SmallTrace() {
  static const std::unique_ptr<parallax::Trace> trace = [] {
    parallax::LoadOptions options;
    options.threads = 1;
    auto t = parallax::Trace::Open(PARALLAX_TEST_DATA "/qsort_beo3/qsort_beo3.prv", options);
    if (!t.ok()) std::abort();
    return std::move(t.value());
  }();
  return *trace;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const parallax::Trace& trace = SmallTrace();
  std::string text(reinterpret_cast<const char*>(data), size);

  parallax::TextRequest dump;
  dump.cfg_path = "fuzz.cfg";
  dump.cfg_text = text;
  dump.object_index = 0;
  (void)trace.Text(dump);

  parallax::AnalyzeRequest analyze;
  analyze.cfg_path = "fuzz.cfg";
  analyze.cfg_text = text;
  (void)parallax::Analyze(trace, analyze);
  return 0;
}
