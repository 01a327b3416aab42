// The Pajé reader's rules on hand-made traces written into a scratch folder, each checked
// against what pajeng's simulator (pj_dump) does with the same events: destroying containers
// (the root included), the scope of link keys, the field names of Pajé's first format,
// zero-duration states and which state type becomes the Paraver states.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "src/io/paje/paje_reader.h"
#include "tests/unit/scratch_folder.h"

namespace parallax::io {
namespace {

using model::ThreadIndex;
using model::Time;

constexpr Time kSecond = 1000000000;

// Pajé's reference header (lang-paje, section 5, with aliases), ids 0 to 11.
const char kHeader[] = R"(%EventDef PajeDefineContainerType 0
%  Alias string
%  Type string
%  Name string
%EndEventDef
%EventDef PajeDefineStateType 1
%  Alias string
%  Type string
%  Name string
%EndEventDef
%EventDef PajeDefineLinkType 2
%  Alias string
%  Type string
%  StartContainerType string
%  EndContainerType string
%  Name string
%EndEventDef
%EventDef PajeCreateContainer 3
%  Time date
%  Alias string
%  Type string
%  Container string
%  Name string
%EndEventDef
%EventDef PajeDestroyContainer 4
%  Time date
%  Type string
%  Name string
%EndEventDef
%EventDef PajeSetState 5
%  Time date
%  Container string
%  Type string
%  Value string
%EndEventDef
%EventDef PajePushState 6
%  Time date
%  Container string
%  Type string
%  Value string
%EndEventDef
%EventDef PajePopState 7
%  Time date
%  Container string
%  Type string
%EndEventDef
%EventDef PajeStartLink 8
%  Time date
%  Container string
%  Type string
%  StartContainer string
%  Value string
%  Key string
%EndEventDef
%EventDef PajeEndLink 9
%  Time date
%  Container string
%  Type string
%  EndContainer string
%  Value string
%  Key string
%EndEventDef
%EventDef PajeNewEvent 10
%  Time date
%  Container string
%  Type string
%  Value string
%EndEventDef
%EventDef PajeDefineEventType 11
%  Alias string
%  Type string
%  Name string
%EndEventDef
)";

// Two processes of two threads each, a state type and a link type per process.
const char kHierarchy[] = R"(0 P 0 Process
0 T P Thread
1 S T "Thread state"
1 M T "MPI state"
2 L P T T Message
11 E T Mark
3 0 p1 P 0 "proc 1"
3 0 p2 P 0 "proc 2"
3 0 t1 T p1 "thread 1"
3 0 t1b T p1 "thread 1b"
3 0 t2 T p2 "thread 2"
3 0 t2b T p2 "thread 2b"
)";

struct Loaded {
  ImportedTrace t;
  uint32_t Thread(const std::string& name) const {
    const auto& labels = *t.row->Labels(model::Level::kThread);
    for (uint32_t i = 0; i < labels.size(); ++i)
      if (labels[i] == name) return i;
    ADD_FAILURE() << "no thread " << name;
    return 0;
  }
  // (begin, end, label) of a thread's states.
  std::vector<std::tuple<Time, Time, std::string>> States(const std::string& thread) const {
    std::vector<std::tuple<Time, Time, std::string>> out;
    const auto& st = t.prv.store.thread(ThreadIndex(Thread(thread))).states;
    for (size_t i = 0; i < st.size(); ++i) {
      const std::string* l = t.pcf.StateLabel(st.state[i]);
      out.emplace_back(st.begin[i], st.end[i], l ? *l : "?");
    }
    return out;
  }
  const Diagnostics& diags() const { return t.prv.diagnostics; }
};

// Writes the trace into a scratch folder and reads it as a file, as `parallax` does.
Loaded Read(const std::string& text) {
  test::ScratchFolder dir;
  auto r = ReadPajeTrace(dir.Write("hand.trace", text));
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return Loaded{std::move(r.value())};
}

std::string Problems(const Diagnostics& d) {
  std::string s;
  for (size_t k = 0; k < static_cast<size_t>(DiagKind::kCount); ++k) {
    auto kind = static_cast<DiagKind>(k);
    if (d.count(kind) == 0 || DiagKindSeverity(kind) == Severity::kInfo) continue;
    s += std::string(DiagKindName(kind)) + " x" + std::to_string(d.count(kind));
    if (!d.examples(kind).empty()) s += " (" + d.examples(kind)[0].detail + ")";
    s += "; ";
  }
  return s;
}

// pajeng destroys a container with everything it holds, and the root "0" (type "0") like any
// other: destroying it ends every container. Neither is an error.
TEST(PajeRules, DestroyingAContainerEndsItsChildrenAndTheRootEndsAll) {
  Loaded l = Read(std::string(kHeader) + kHierarchy +
                  "5 1 t1 S run\n"
                  "5 1 t2 S run\n"
                  "4 3 P p1\n"      // ends thread 1 and thread 1b
                  "4 6 0 0\n"       // the root: ends thread 2
                  "10 8 t2 E x\n");  // kept (pajeng ignores it): the trace ends at 8 s
  EXPECT_EQ(Problems(l.diags()), "");
  using S = std::vector<std::tuple<Time, Time, std::string>>;
  EXPECT_EQ(l.States("thread 1"), (S{{1 * kSecond, 3 * kSecond, "run"}}));
  EXPECT_EQ(l.States("thread 2"), (S{{1 * kSecond, 6 * kSecond, "run"}}));
  EXPECT_EQ(l.t.prv.store.end_time(), 8 * kSecond);
  EXPECT_EQ(l.t.prv.store.thread(ThreadIndex(l.Thread("thread 2"))).events.size(), 3u);  // run, end, x
}

// pajeng keeps the pending links of each container (the link's Container field) by link type
// and key: the same key in two containers names two links. Start and end containers are not
// part of the key.
TEST(PajeRules, LinkKeysAreMatchedWithinTheLinksContainer) {
  Loaded l = Read(std::string(kHeader) + kHierarchy +
                  "8 1 p1 L t1 m k\n"     // link k of proc 1 starts
                  "8 1.5 p2 L t2 m k\n"   // link k of proc 2 starts: another link
                  "9 2 p2 L t2b m k\n"    // ends proc 2's link
                  "9 3 p1 L t1b m k\n");  // ends proc 1's link
  EXPECT_EQ(Problems(l.diags()), "");
  const auto& c = l.t.prv.store.comms();
  std::vector<std::tuple<uint32_t, uint32_t, Time, Time>> got, want = {
      {l.Thread("thread 1"), l.Thread("thread 1b"), 1 * kSecond, 3 * kSecond},
      {l.Thread("thread 2"), l.Thread("thread 2b"), 3 * kSecond / 2, 2 * kSecond}};
  for (size_t i = 0; i < c.rows(); ++i) got.emplace_back(c.sender[i], c.receiver[i], c.log_send[i], c.log_recv[i]);
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  EXPECT_EQ(got, want);
}

// Pajé's first format (lang-paje's change log, versions 1.1 to 1.2.1; pajeng reads these names
// unless it runs in strict mode): ContainerType and EntityType for Type, SourceContainer and
// DestContainer for StartContainer and EndContainer, SourceContainerType and DestContainerType
// for StartContainerType and EndContainerType; types and containers referred to by name or by
// alias alike.
TEST(PajeRules, FirstFormatFieldNamesAreRead) {
  const char old_format[] = R"(%EventDef PajeDefineContainerType 0
%  Alias string
%  ContainerType string
%  Name string
%EndEventDef
%EventDef PajeDefineStateType 1
%  Alias string
%  ContainerType string
%  Name string
%EndEventDef
%EventDef PajeDefineLinkType 2
%  Alias string
%  ContainerType string
%  SourceContainerType string
%  DestContainerType string
%  Name string
%EndEventDef
%EventDef PajeDefineEntityValue 3
%  Alias string
%  EntityType string
%  Name string
%EndEventDef
%EventDef PajeCreateContainer 4
%  Time date
%  Alias string
%  Type string
%  Container string
%  Name string
%EndEventDef
%EventDef PajeSetState 5
%  Time date
%  Container string
%  EntityType string
%  Value string
%EndEventDef
%EventDef PajeStartLink 6
%  Time date
%  Container string
%  EntityType string
%  SourceContainer string
%  Value string
%  Key string
%EndEventDef
%EventDef PajeEndLink 7
%  Time date
%  Container string
%  EntityType string
%  DestContainer string
%  Value string
%  Key string
%EndEventDef
0 P 0 Process
0 T P Thread
1 S T "Thread state"
2 L P T T Message
3 r S Running
4 0 p1 P 0 "proc 1"
4 0 t1 T p1 "thread 1"
4 0 t2 T p1 "thread 2"
5 1 t1 S r
5 2 "thread 1" "Thread state" Idle
5 3 t1 S r
6 1 p1 L t1 m k1
7 2 "proc 1" Message "thread 2" m k1
)";
  Loaded l = Read(old_format);
  EXPECT_EQ(Problems(l.diags()), "");
  using S = std::vector<std::tuple<Time, Time, std::string>>;
  EXPECT_EQ(l.States("thread 1"),
            (S{{1 * kSecond, 2 * kSecond, "Running"}, {2 * kSecond, 3 * kSecond, "Idle"}}));
  const auto& c = l.t.prv.store.comms();
  ASSERT_EQ(c.rows(), 1u);
  EXPECT_EQ(c.sender[0], l.Thread("thread 1"));
  EXPECT_EQ(c.receiver[0], l.Thread("thread 2"));
}

// pj_dump prints states whose begin is their end. A Paraver state interval cannot show them:
// they are kept as events of their state type (60002000 + n) and counted, with the line that
// began them, so they are not lost silently. Only states of the type that gives the Paraver
// states count (the others are events anyway).
TEST(PajeRules, ZeroDurationStatesAreEventsAndCounted) {
  std::string body = std::string(kHeader) + kHierarchy;
  const size_t first = static_cast<size_t>(std::count(body.begin(), body.end(), '\n')) + 1;
  body += "6 1 t1 S run\n"   // first + 0
          "6 2 t1 S zero\n"  // first + 1: pushed and popped at 2 s
          "7 2 t1 S\n"
          "6 3 t1 M x\n"     // first + 3: zero-duration state of the other type: not counted
          "7 3 t1 M\n"
          "7 4 t1 S\n"
          "5 5 t1 S a\n"     // first + 6: replaced at once
          "5 5 t1 S b\n"
          "5 7 t1 S c\n"
          "4 9 T t1\n";
  Loaded l = Read(body);
  EXPECT_EQ(Problems(l.diags()), "");
  using S = std::vector<std::tuple<Time, Time, std::string>>;
  EXPECT_EQ(l.States("thread 1"), (S{{1 * kSecond, 2 * kSecond, "run"},
                                     {2 * kSecond, 4 * kSecond, "run"},
                                     {5 * kSecond, 7 * kSecond, "b"},
                                     {7 * kSecond, 9 * kSecond, "c"}}));
  // Every state, zero-duration ones included, is an event of its state type.
  std::vector<std::pair<Time, std::string>> events;
  const auto& ev = l.t.prv.store.thread(ThreadIndex(l.Thread("thread 1"))).events;
  for (size_t i = 0; i < ev.size(); ++i) {
    if (ev.type[i] != kPajeStateEventBase) continue;
    const std::string* v = l.t.pcf.EventValueLabel(ev.type[i], ev.value[i]);
    events.emplace_back(ev.time[i], ev.value[i] == 0 ? "-" : v ? *v : "?");
  }
  EXPECT_EQ(events, (std::vector<std::pair<Time, std::string>>{{1 * kSecond, "run"},
                                                               {2 * kSecond, "zero"},
                                                               {2 * kSecond, "run"},
                                                               {4 * kSecond, "-"},
                                                               {5 * kSecond, "a"},
                                                               {5 * kSecond, "b"},
                                                               {7 * kSecond, "c"},
                                                               {9 * kSecond, "-"}}));
  const Diagnostics& d = l.diags();
  ASSERT_EQ(d.count(DiagKind::kZeroDurationState), 2u);
  EXPECT_EQ(d.examples(DiagKind::kZeroDurationState)[0].line, first + 1);
  EXPECT_EQ(d.examples(DiagKind::kZeroDurationState)[1].line, first + 6);
}

// When a container has several state types, its Paraver states are those of the first type
// it uses in time (ties in file order), not the first type defined; the other types are
// events only. pj_dump has no such choice to follow (it prints every type's states).
TEST(PajeRules, TheFirstStateTypeUsedGivesTheStates) {
  Loaded l = Read(std::string(kHeader) + kHierarchy +
                  "5 1 t1 M mpi\n"   // "MPI state", defined second, used first
                  "5 2 t1 S run\n"
                  "5 1 t2 S run\n"   // another container: its own first type
                  "5 2 t2 M mpi\n"
                  "4 3 T t1\n"
                  "4 3 T t2\n");
  using S = std::vector<std::tuple<Time, Time, std::string>>;
  EXPECT_EQ(l.States("thread 1"), (S{{1 * kSecond, 3 * kSecond, "mpi"}}));
  EXPECT_EQ(l.States("thread 2"), (S{{1 * kSecond, 3 * kSecond, "run"}}));
}

}  // namespace
}  // namespace parallax::io
