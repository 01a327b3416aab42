// The Pajé reader against pajeng's test traces: what it loads must agree with the records
// pj_dump prints for them (tests/data/paje/*.tesh, parsed here), under the mapping of
// docs/formats.md (states as `pj_dump --no-imbrication` prints them, links as
// communications, events and variables as Paraver events).

#include "src/io/paje/paje_reader.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <tuple>
#include <sstream>

namespace parallax::io {
namespace {

using model::ThreadIndex;
using model::Time;

std::string ReadData(const std::string& name) {
  std::ifstream in(std::string(PARALLAX_TEST_DATA) + "/paje/" + name, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string Trim(std::string s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '"')) s.erase(s.begin());
  while (!s.empty() && (s.back() == ' ' || s.back() == '"')) s.pop_back();
  return s;
}

// The "> " lines pj_dump printed for `command` in a .tesh file, split at commas.
std::vector<std::vector<std::string>> Expected(const std::string& tesh, const std::string& command) {
  std::istringstream in(ReadData(tesh));
  std::string line;
  bool inside = false;
  std::vector<std::vector<std::string>> out;
  while (std::getline(in, line)) {
    if (line.rfind("$ ", 0) == 0) inside = line == "$ " + command;
    else if (inside && line.rfind("> ", 0) == 0) {
      std::vector<std::string> fields;
      std::istringstream f(line.substr(2));
      std::string field;
      while (std::getline(f, field, ',')) fields.push_back(Trim(field));
      out.push_back(fields);
    }
  }
  return out;
}

Time Ns(const std::string& seconds) { return static_cast<Time>(std::llround(std::stod(seconds) * 1e9)); }

struct Loaded {
  ImportedTrace t;
  std::map<std::string, uint32_t> thread;  // by container name
  std::string Label(int64_t value) const {
    const std::string* l = t.pcf.StateLabel(value);
    return l ? *l : "?";
  }
};

Loaded Load(const std::string& name) {
  auto r = ParsePajeTrace(ReadData(name), name);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  Loaded l{std::move(r.value()), {}};
  const auto* labels = l.t.row->Labels(model::Level::kThread);
  for (uint32_t i = 0; labels && i < labels->size(); ++i) l.thread[(*labels)[i]] = i;
  return l;
}

TEST(PajeReader, StatesAsPjDumpWithoutImbrication) {
  Loaded l = Load("states.trace");
  auto expected = Expected("pj_dump_small.tesh", "./pj_dump --no-imbrication ../traces/states.trace");
  size_t n = 0;
  const auto& st = l.t.prv.store.thread(ThreadIndex(l.thread.at("p1"))).states;
  for (const auto& e : expected) {
    if (e[0] != "State") continue;
    ASSERT_LT(n, st.size());
    EXPECT_EQ(st.begin[n], Ns(e[3]));
    EXPECT_EQ(st.end[n], Ns(e[4]));
    EXPECT_EQ(l.Label(st.state[n]), e[7]);
    ++n;
  }
  EXPECT_EQ(n, 5u);
  EXPECT_EQ(st.size(), n);
  EXPECT_EQ(l.t.prv.store.end_time(), Ns("1.34"));
  EXPECT_EQ(l.t.prv.diagnostics.problems(), 0u);
}

TEST(PajeReader, LinksAreCommunications) {
  Loaded l = Load("links.trace");
  auto expected = Expected("pj_dump_small.tesh", "./pj_dump ../traces/links.trace");
  const auto& c = l.t.prv.store.comms();
  size_t n = 0;
  for (const auto& e : expected) {
    if (e[0] != "Link") continue;
    ASSERT_LT(n, c.rows());
    EXPECT_EQ(c.log_send[n], Ns(e[3]));
    EXPECT_EQ(c.log_recv[n], Ns(e[4]));
    EXPECT_EQ(c.sender[n], l.thread.at(e[7]));
    EXPECT_EQ(c.receiver[n], l.thread.at(e[8]));
    ++n;
  }
  EXPECT_EQ(n, 2u);
  EXPECT_EQ(c.rows(), n);
}

TEST(PajeReader, EventsAndTheirValueNames) {
  Loaded l = Load("events.trace");
  auto expected = Expected("pj_dump_small.tesh", "./pj_dump ../traces/events.trace");
  const auto& ev = l.t.prv.store.thread(ThreadIndex(l.thread.at("p1"))).events;
  size_t n = 0;
  for (const auto& e : expected) {
    if (e[0] != "Event") continue;
    ASSERT_LT(n, ev.size());
    EXPECT_EQ(ev.time[n], Ns(e[3]));
    EXPECT_EQ(ev.type[n], kPajeEventTypeBase);
    EXPECT_EQ(*l.t.pcf.EventValueLabel(kPajeEventTypeBase, ev.value[n]), e[4]);
    ++n;
  }
  EXPECT_EQ(n, 2u);
  EXPECT_EQ(*l.t.pcf.EventTypeLabel(kPajeEventTypeBase), "EV");
}

TEST(PajeReader, VariablesAreEventsAtEveryChange) {
  Loaded l = Load("variables.trace");
  auto expected = Expected("pj_dump_small.tesh", "./pj_dump ../traces/variables.trace");
  const auto& ev = l.t.prv.store.thread(ThreadIndex(l.thread.at("p1"))).events;
  size_t n = 0;
  for (const auto& e : expected) {
    if (e[0] != "Variable") continue;
    ASSERT_LT(n, ev.size());
    EXPECT_EQ(ev.time[n], Ns(e[3]));
    EXPECT_EQ(ev.value[n], std::llround(std::stod(e[6])));
    ++n;
  }
  EXPECT_EQ(n, 3u);
  EXPECT_EQ(ev.size(), n);
}

TEST(PajeReader, ContainerHierarchyBecomesTasksAndThreads) {
  Loaded l = Load("containers.trace");
  auto expected = Expected("pj_dump_small.tesh", "./pj_dump ../traces/containers.trace");
  // Every THREAD container of pj_dump is a thread of the task named by its parent.
  const auto& pm = l.t.prv.header.processes;
  const auto& tasks = *l.t.row->Labels(model::Level::kTask);
  const auto& threads = *l.t.row->Labels(model::Level::kThread);
  std::multiset<std::pair<std::string, std::string>> want, got;
  for (const auto& e : expected)
    if (e[0] == "Container" && e[2] == "THREAD") want.insert({e[1], e[6]});
  for (uint32_t t = 0; t < pm.threads(); ++t) got.insert({tasks[pm.thread(ThreadIndex(t)).task.value], threads[t]});
  EXPECT_EQ(got, want);
  EXPECT_EQ(pm.tasks(), 3u);
  EXPECT_EQ(pm.threads(), 6u);
}

TEST(PajeReader, SimGridCategoriesTrace) {
  Loaded l = Load("categories.trace");
  auto expected = Expected("pj_dump_categories.tesh", "./pj_dump ../traces/categories.trace");
  size_t containers = 0, links = 0;
  // (container, variable, start) -> value: pj_dump's intervals; several updates at one time
  // give one interval with the last value, as Paraver's "last event value" reads them.
  std::map<std::tuple<std::string, std::string, Time>, int64_t> want, got;
  for (const auto& e : expected) {
    containers += e[0] == "Container" && e[2] != "0";
    links += e[0] == "Link";
    if (e[0] == "Variable") want[{e[1], e[2], Ns(e[3])}] = std::llround(std::stod(e[6]));
  }
  ASSERT_GT(links, 0u);
  ASSERT_GT(want.size(), 100u);
  EXPECT_EQ(l.t.prv.header.processes.threads(), containers);
  EXPECT_EQ(l.t.prv.store.comms().rows(), links);
  const auto& threads = *l.t.row->Labels(model::Level::kThread);
  for (uint32_t t = 0; t < l.t.prv.header.processes.threads(); ++t) {
    const auto& ev = l.t.prv.store.thread(ThreadIndex(t)).events;
    for (size_t i = 0; i < ev.size(); ++i)
      if (ev.type[i] >= kPajeVariableBase)
        got[{threads[t], *l.t.pcf.EventTypeLabel(ev.type[i]), ev.time[i]}] = ev.value[i];
  }
  // pj_dump keeps variable values in single precision (41279125 prints as 41279124).
  for (const auto& [k, v] : want)
    EXPECT_TRUE(got.count(k)) << "pj_dump has " << std::get<0>(k) << " " << std::get<1>(k) << " at " << std::get<2>(k);
  for (const auto& [k, v] : got)
    EXPECT_TRUE(want.count(k)) << "Parallax has " << std::get<0>(k) << " " << std::get<1>(k) << " at " << std::get<2>(k);
  ASSERT_EQ(got.size(), want.size());
  for (auto g = got.begin(), w = want.begin(); g != got.end(); ++g, ++w) {
    ASSERT_EQ(g->first, w->first);
    EXPECT_LE(std::abs(g->second - w->second), std::max<int64_t>(1, std::abs(w->second) >> 23)) << std::get<0>(g->first);
  }
  EXPECT_EQ(l.t.prv.diagnostics.problems(), 0u);
}

TEST(PajeReader, MalformedLinesAreCountedAndLocated) {
  std::string text = ReadData("states.trace");
  text += "99 1.5 p1 VAR x\n"          // no %EventDef 99
          "11 1.5 p1\n"                // too few fields
          "11 abc p1 VAR Fim\n"        // bad time
          "11 1.6 nobody VAR Fim\n"    // undefined container
          "14 1.7 p1 VAR\n"            // pop with an empty stack (the stack was closed at 1.34)
          "11 1.8 p1 VAR \"unclosed\n";
  auto r = ParsePajeTrace(text, "bad.trace");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto& d = r->prv.diagnostics;
  size_t base = static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) - 6;
  ASSERT_EQ(d.count(DiagKind::kUnknownRecordType), 1u);
  EXPECT_EQ(d.examples(DiagKind::kUnknownRecordType)[0].line, base + 1);
  EXPECT_EQ(d.count(DiagKind::kTooFewFields), 1u);
  ASSERT_EQ(d.count(DiagKind::kSyntax), 2u);
  EXPECT_EQ(d.examples(DiagKind::kSyntax)[0].line, base + 3);
  EXPECT_EQ(d.examples(DiagKind::kSyntax)[1].line, base + 6);
  EXPECT_EQ(d.count(DiagKind::kUndefinedName), 1u);
  EXPECT_EQ(d.count(DiagKind::kUnmatchedEnd), 1u);
}

TEST(PajeReader, BrokenHeaderIsFatalWithItsLine) {
  auto r = ParsePajeTrace("%EventDef PajeSetState 1\n%  Time date\n1 0.5\n", "h.trace");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().where().line, 3u);
  auto r2 = ParsePajeTrace("% Time date\n", "h2.trace");
  ASSERT_FALSE(r2.ok());
  EXPECT_EQ(r2.status().where().line, 1u);
  auto r3 = ParsePajeTrace("%EventDef PajeSetState 1\n", "h3.trace");
  ASSERT_FALSE(r3.ok());
  auto r4 = ParsePajeTrace("# only a comment\n", "h4.trace");
  ASSERT_FALSE(r4.ok());
  EXPECT_NE(r4.status().message().find("no container"), std::string::npos);
}

TEST(PajeReader, EveryPrefixIsHandled) {
  std::string text = ReadData("links.trace");
  for (size_t n = 0; n <= text.size(); n += 7) {
    auto r = ParsePajeTrace(std::string_view(text).substr(0, n), "prefix.trace");
    if (!r.ok()) EXPECT_GT(r.status().message().size(), 0u);
  }
}

}  // namespace
}  // namespace parallax::io
