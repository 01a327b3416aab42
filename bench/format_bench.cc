// Reader throughput of the non-Paraver formats: converts a .prv (e.g. parallax-gen's) with
// Parallax's writers into each format, then times each reader on the result and prints MB/s.
//
//   parallax-format-bench TRACE.prv OUT_DIR [json|paje|otf2|sddf|sddfb|ksr]
//
// The JSON file is about 8 times the .prv, Pajé and SDDF about 3 times: pick the .prv size
// (parallax-gen --size) for each format to get a file of about 100 MB. The OTF2 archive
// (anchor, definitions and event folder, counted together) is about the size of the .prv.
//
// Pajé has no writer in the core; the bench writes a Pajé file from the same trace itself
// (states as PajeSetState, events as PajeNewEvent, communications as links). SDDF (ASCII and
// binary both about 3 times the .prv) comes from Parallax's writer; the KSR gist log is
// written here (each state as Begin/End lines, each event as one line).

#include <fmt/format.h>

#include <chrono>
#include <ctime>
#include <cstdio>
#include <filesystem>
#include <string>

#include "src/io/json/json_trace.h"
#include "src/io/otf2/otf2_trace.h"
#include "src/io/ksr/ksr_reader.h"
#include "src/io/paje/paje_reader.h"
#include "src/io/sddf/sddf_trace.h"
#include "src/session/trace_impl.h"

namespace {

using parallax::model::ThreadIndex;

bool WritePaje(const parallax::session::TraceImpl& t, const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return false;
  static const char* kHeader[][2] = {
      {"PajeDefineContainerType 0", "Alias string\n% Type string\n% Name string"},
      {"PajeDefineStateType 1", "Alias string\n% Type string\n% Name string"},
      {"PajeDefineEventType 2", "Alias string\n% Type string\n% Name string"},
      {"PajeDefineLinkType 3", "Alias string\n% Type string\n% StartContainerType string\n% EndContainerType string\n% Name string"},
      {"PajeCreateContainer 4", "Time date\n% Alias string\n% Type string\n% Container string\n% Name string"},
      {"PajeSetState 5", "Time date\n% Container string\n% Type string\n% Value string"},
      {"PajeNewEvent 6", "Time date\n% Container string\n% Type string\n% Value string"},
      {"PajeStartLink 7", "Time date\n% Container string\n% Type string\n% StartContainer string\n% Value string\n% Key string"},
      {"PajeEndLink 8", "Time date\n% Container string\n% Type string\n% EndContainer string\n% Value string\n% Key string"}};
  for (const auto& h : kHeader) fmt::print(f, "%EventDef {}\n% {}\n%EndEventDef\n", h[0], h[1]);
  fmt::print(f, "0 T 0 T\n1 S T S\n2 E T E\n3 L 0 T T L\n");
  const auto& pm = t.header().processes;
  const auto& st = t.store();
  for (uint32_t i = 0; i < pm.threads(); ++i) fmt::print(f, "4 0 t{} T 0 t{}\n", i, i);
  auto sec = [](uint64_t ns) { return fmt::format("{}.{:09}", ns / 1000000000, ns % 1000000000); };
  for (uint32_t i = 0; i < pm.threads(); ++i) {
    const auto& r = st.thread(ThreadIndex(i));
    for (size_t k = 0; k < r.states.size(); ++k)
      fmt::print(f, "5 {} t{} S s{}\n", sec(r.states.begin[k]), i, r.states.state[k]);
    for (size_t k = 0; k < r.events.size(); ++k)
      fmt::print(f, "6 {} t{} E e{}_{}\n", sec(r.events.time[k]), i, r.events.type[k], r.events.value[k] & 15);
  }
  const auto& c = st.comms();
  for (size_t k = 0; k < c.rows(); ++k) {
    fmt::print(f, "7 {} 0 L t{} v k{}\n", sec(c.log_send[k]), c.sender[k], k);
    fmt::print(f, "8 {} 0 L t{} v k{}\n", sec(c.log_recv[k]), c.receiver[k], k);
  }
  return std::fclose(f) == 0;
}

bool WriteKsrGist(const parallax::session::TraceImpl& t, const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return false;
  const auto& pm = t.header().processes;
  const auto& st = t.store();
  for (uint32_t i = 0; i < pm.threads(); ++i) {
    const auto& r = st.thread(ThreadIndex(i));
    for (size_t k = 0; k < r.states.size(); ++k) {
      fmt::print(f, "E 0x{:x} {} 0 {} Begin state {} 0\n", i, r.states.begin[k], 2 * r.states.state[k] + 100, r.states.state[k]);
      if (r.states.end[k] != parallax::model::kNoEnd)
        fmt::print(f, "E 0x{:x} {} 0 {} End state {} 0\n", i, r.states.end[k], 2 * r.states.state[k] + 101, r.states.state[k]);
    }
    for (size_t k = 0; k < r.events.size(); ++k)
      fmt::print(f, "E 0x{:x} {} 0 {} event {} {}\n", i, r.events.time[k], r.events.type[k] % 90, r.events.type[k] % 90,
                 r.events.value[k] & 0xFFFF);
  }
  return std::fclose(f) == 0;
}

template <typename Fn>
void Time(const char* name, const std::string& path, Fn&& read, uint64_t bytes = 0) {
  double mb = static_cast<double>(bytes ? bytes : std::filesystem::file_size(path)) / 1e6;
  auto t0 = std::chrono::steady_clock::now();
  std::clock_t c0 = std::clock();
  auto r = read(path);
  double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!r.ok()) {
    fmt::print(stderr, "{}: {}\n", name, r.status().ToString());
    return;
  }
  // CPU time too: on a shared machine the wall time says more about the neighbours.
  fmt::print("{:<6} {:8.1f} MB in {:6.2f} s = {:6.1f} MB/s (cpu {:6.2f} s = {:6.1f} MB/s)  ({} states, {} events, {} comms)\n",
             name, mb, s, mb / s, cpu, mb / cpu,
             r->prv.store.state_records(), r->prv.store.event_records(), r->prv.store.comms().rows());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    fmt::print(stderr, "usage: parallax-format-bench TRACE.prv OUT_DIR [json|paje|otf2|sddf|sddfb|ksr]\n");
    return 2;
  }
  std::filesystem::create_directories(argv[2]);
  auto trace = parallax::session::OpenTrace(argv[1], {});
  if (!trace.ok()) {
    fmt::print(stderr, "{}\n", trace.status().ToString());
    return 1;
  }
  std::string json = std::string(argv[2]) + "/bench.json", paje = std::string(argv[2]) + "/bench.trace";
  std::string only = argc == 4 ? argv[3] : "";
  if (only.empty() || only == "json") {
    auto s = (*trace)->Write(json, true);
    if (!s.ok()) {
      fmt::print(stderr, "cannot write {}: {}\n", json, s.ToString());
      return 1;
    }
    Time("json", json, [](const std::string& p) { return parallax::io::ReadJsonTrace(p); });
  }
  if (only.empty() || only == "paje") {
    if (!WritePaje(**trace, paje)) {
      fmt::print(stderr, "cannot write {}\n", paje);
      return 1;
    }
    Time("paje", paje, [](const std::string& p) { return parallax::io::ReadPajeTrace(p); });
  }
  if ((only.empty() && parallax::io::Otf2Supported()) || only == "otf2") {
    std::string otf2 = std::string(argv[2]) + "/bench.otf2";
    auto s = (*trace)->Write(otf2, true);
    if (!s.ok()) {
      fmt::print(stderr, "cannot write {}: {}\n", otf2, s.ToString());
      return 1;
    }
    uint64_t bytes = std::filesystem::file_size(otf2) + std::filesystem::file_size(std::string(argv[2]) + "/bench.def");
    for (const auto& e : std::filesystem::directory_iterator(std::string(argv[2]) + "/bench")) bytes += e.file_size();
    Time("otf2", otf2, [](const std::string& p) { return parallax::io::ReadOtf2Trace(p); }, bytes);
  }
  for (bool binary : {false, true}) {
    const char* name = binary ? "sddfb" : "sddf";
    if (!only.empty() && only != name) continue;
    std::string path = std::string(argv[2]) + "/bench." + name;
    auto s = parallax::WriteSddf(**trace, path, binary, true);
    if (!s.ok()) {
      fmt::print(stderr, "cannot write {}: {}\n", path, s.ToString());
      return 1;
    }
    Time(name, path, [](const std::string& p) { return parallax::io::ReadSddfTrace(p); });
  }
  if (only.empty() || only == "ksr") {
    std::string gist = std::string(argv[2]) + "/bench.gist";
    if (!WriteKsrGist(**trace, gist)) {
      fmt::print(stderr, "cannot write {}\n", gist);
      return 1;
    }
    Time("ksr", gist, [](const std::string& p) { return parallax::io::ReadKsrTrace(p); });
  }
  return 0;
}
