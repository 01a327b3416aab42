// A cpu row started at any time t gives the same intervals as the row walked from time 0: the
// interval containing t, then the same ones after it. Checked on the real traces of tests/data
// with a resource model, for state, event and derived-state thread functions, and on generated
// traces where three threads share two cpus with communications and events in between.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "src/io/prv/prv_reader.h"
#include "src/semantic/evaluator.h"
#include "tests/unit/semantic/semantic_test_util.h"

namespace parallax::semantic {
namespace {

struct Case {
  std::string trace;
  std::string function;
};

class CpuRowSeek : public ::testing::TestWithParam<Case> {};

WindowSpec CpuWindow(const std::string& fn, model::TimeUnit unit) {
  WindowSpec w;
  w.level = model::Level::kCpu;
  w.unit = unit;
  w.functions[static_cast<size_t>(Slot::kThread)] = FunctionSpec{fn, {}};
  return w;
}

// Every cpu row of a cpu-level window of `fn`: Init at many times against the walk from 0.
void ExpectSeekMatchesWalk(const TraceView& view, const std::string& fn) {
  auto ev = WindowEvaluator::Create(view, {CpuWindow(fn, view.header->unit)}, 0);
  ASSERT_TRUE(ev.ok()) << ev.status().ToString();
  const model::Time end = ev.value()->end_time();
  size_t checked = 0;
  for (uint32_t cpu = 0; cpu < view.header->resources.cpus(); ++cpu) {
    auto row = ev.value()->MakeRow(cpu);
    row->Init(0);
    std::vector<Interval> all;
    for (int guard = 0; guard < 2000000; ++guard) {
      all.push_back(row->current());
      if (row->current().end >= end) break;
      row->Next();
    }
    // Times: spread over the trace, plus the begins of some intervals (and one before them).
    std::vector<model::Time> times;
    for (int k = 1; k < 40; ++k) times.push_back(end / 40 * k);
    for (size_t i = 1; i < all.size(); i += std::max<size_t>(1, all.size() / 60)) {
      times.push_back(all[i].begin);
      if (all[i].begin > 0) times.push_back(all[i].begin - 1);
    }
    auto fresh = ev.value()->MakeRow(cpu);
    for (model::Time t : times) {
      // The first interval of the walk that ends after t (as Init positions).
      auto it = std::find_if(all.begin(), all.end(), [t](const Interval& i) { return i.end > t; });
      if (it == all.end()) continue;
      fresh->Init(t);
      for (int k = 0; k < 4 && it != all.end(); ++k, ++it) {
        const Interval& got = fresh->current();
        ASSERT_EQ(got.begin, it->begin) << fn << " cpu " << cpu << " Init(" << t << ") step " << k;
        ASSERT_EQ(got.end, it->end) << fn << " cpu " << cpu << " Init(" << t << ") step " << k;
        ASSERT_EQ(got.value, it->value) << fn << " cpu " << cpu << " Init(" << t << ") step " << k;
        ++checked;
        if (got.end >= end) break;
        fresh->Next();
      }
    }
  }
  EXPECT_GT(checked, 100u) << fn;
}

TEST_P(CpuRowSeek, SameIntervalsAsFromTheStart) {
  io::PrvReadOptions o;
  auto prv = io::ReadPrv(std::string(PARALLAX_TEST_DATA) + "/" + GetParam().trace, o);
  ASSERT_TRUE(prv.ok()) << prv.status().ToString();
  ExpectSeekMatchesWalk(TraceView{&prv->header, &prv->store, nullptr}, GetParam().function);
}

// Three threads, each moving between two cpus, with events and messages whose records land on
// either cpu: intervals of one cpu alternate between threads and are cut by other threads'
// events, the case where where to start walking matters.
std::string SharedCpuTrace(uint32_t seed) {
  uint64_t x = seed * 2654435761u + 1;
  auto rnd = [&x](uint64_t n) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return (x >> 33) % n;
  };
  std::vector<std::pair<uint64_t, std::string>> lines;
  const uint64_t end = 20000;
  for (int th = 1; th <= 3; ++th) {
    for (uint64_t t = 0; t < end;) {
      uint64_t d = 1 + rnd(300);
      uint64_t e = std::min(end, t + d);
      lines.emplace_back(t, "1:" + std::to_string(1 + rnd(2)) + ":1:" + std::to_string(th) + ":1:" + std::to_string(t) +
                                ":" + std::to_string(e) + ":" + std::to_string(rnd(3)));
      t = e;
    }
    for (int k = 0; k < 60; ++k) {
      uint64_t t = rnd(end);
      lines.emplace_back(t, "2:" + std::to_string(1 + rnd(2)) + ":1:" + std::to_string(th) + ":1:" + std::to_string(t) +
                                ":100:" + std::to_string(1 + rnd(5)));
    }
  }
  for (int k = 0; k < 80; ++k) {
    uint64_t s = rnd(end - 500), r = s + rnd(400);
    int from = 1 + static_cast<int>(rnd(3)), to = 1 + static_cast<int>(rnd(3));
    lines.emplace_back(s, "3:" + std::to_string(1 + rnd(2)) + ":1:" + std::to_string(from) + ":1:" + std::to_string(s) +
                              ":" + std::to_string(s) + ":" + std::to_string(1 + rnd(2)) + ":1:" + std::to_string(to) +
                              ":1:" + std::to_string(r) + ":" + std::to_string(r) + ":64:7");
  }
  std::stable_sort(lines.begin(), lines.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string text = "#Paraver (01/01/2026 at 00:00):20000_ns:1(2):1:3(1:1,1:1,1:1)\n";
  for (const auto& l : lines) text += l.second + "\n";
  return text;
}

TEST(CpuRowSeekShared, GeneratedTracesWithSharedCpus) {
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    auto t = testing::Load(SharedCpuTrace(seed));
    for (const char* fn : {"State As Is", "Last Evt Val", "Useful", "Next Evt Val"}) {
      SCOPED_TRACE(std::string("seed ") + std::to_string(seed));
      ExpectSeekMatchesWalk(t.view(), fn);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    RealTraces, CpuRowSeek,
    ::testing::Values(Case{"epoch/epoch_4proc.prv.gz", "State As Is"}, Case{"epoch/epoch_4proc.prv.gz", "Last Evt Val"},
                      Case{"omp/omp2.prv.gz", "State As Is"}, Case{"omp/omp2.prv.gz", "Last Evt Val"},
                      Case{"compss_cholesky/cholesky_autoparallel.prv", "State As Is"},
                      Case{"compss_cholesky/cholesky_autoparallel.prv", "Useful"},
                      Case{"qsort_beo3/qsort_beo3.prv", "State As Is"},
                      Case{"qsort_beo3/qsort_beo3.prv", "Last Evt Val"},
                      Case{"profet/test1.prv", "State As Is"}),
    [](const ::testing::TestParamInfo<Case>& info) {
      std::string n = info.param.trace.substr(0, info.param.trace.find('/')) + "_" + info.param.function;
      std::replace_if(n.begin(), n.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
      return n + "_" + std::to_string(info.index);
    });

}  // namespace
}  // namespace parallax::semantic
