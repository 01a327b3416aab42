#pragma once
// Small hand-made traces for the replay tests, parsed from text, and a one-call replay.

#include <gtest/gtest.h>

#include <string>

#include "src/io/prv/prv_reader.h"
#include "src/replay/engine.h"
#include "src/replay/machine_model.h"
#include "src/replay/program.h"

namespace parallax::replay::testing {

inline io::PrvTrace ParseTrace(const std::string& text) {
  io::PrvReadOptions o;
  o.threads = 1;
  auto r = io::ParsePrv(text, "t.prv", o);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return std::move(r.value());
}

struct Replayed {
  Program program;
  Result<Simulation> sim = Status::Error("not run");
};

// Replays a trace in nanoseconds on `model`.
inline Replayed Replay(const io::PrvTrace& t, const MachineModel& model) {
  Replayed r;
  r.program = BuildProgram(t.header, t.store, nullptr, ProgramOptions{model.add_init_barrier});
  r.sim = Simulate(r.program, model, 1e9, t.header);
  return r;
}

inline std::string Data(const std::string& rel) {
  return std::string(PARALLAX_TEST_DATA) + "/" + rel;
}

}  // namespace parallax::replay::testing
