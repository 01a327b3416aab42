// The automatic merge at the end of a run (single process at exit, MPI rank 0 in
// MPI_Finalize): the same code as `parallax merge`, over this run's files only.

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>

#include "tracing/src/merge/merger.h"
#include "tracing/src/runtime.h"

namespace parallax::tracing {

bool MergeOwnSession() {
  TracerSection section;
  const Runtime& rt = Runtime::Get();
  const Options& o = rt.options();
  std::vector<std::string> files;
  std::string note, error;
  bool ok = ListSessionFiles(o.ProcessDir(), rt.identity().session, &files, &note, &error);
  if (ok && rt.identity().rank >= 0 && static_cast<int>(files.size()) != rt.identity().size) {
    error =
        "found " + std::to_string(files.size()) + " of " + std::to_string(rt.identity().size) +
        " process files in " + o.ProcessDir() +
        " (other nodes' files are not visible here): copy them together and run `parallax merge`";
    ok = false;
  }
  // A merged trace written since this process started, or by another program of this run (one
  // traced shell running two programs), is not ours to replace: write NAME.PID.prv.
  std::string output = o.MergedTrace();
  struct stat st {};
  if (stat(output.c_str(), &st) == 0 &&
      (static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec >=
           rt.start_wall_ns() ||
       OtherSessionOfRun(o.ProcessDir(), rt.run_id(), rt.identity().session))) {
    output = o.output_dir + "/" + o.output_name + "." + std::to_string(getpid()) + ".prv";
    std::fprintf(stderr,
                 "parallax-trace: %s was written by another process of this run; "
                 "writing %s\n",
                 o.MergedTrace().c_str(), output.c_str());
  }
  MergeReport report;
  if (ok) ok = MergeTraceFiles({files, output, true}, &report, &error);
  if (!ok) {
    std::fprintf(stderr, "parallax-trace: merge failed: %s\n", error.c_str());
    return false;
  }
  if (o.verbose)
    for (const std::string& line : report.lines)
      std::fprintf(stderr, "parallax-trace: %s\n", line.c_str());
  return true;
}

}  // namespace parallax::tracing
