// SDDF (ASCII and binary) and KSR gist/brief: the Pablo report's examples, round trips of real
// Paraver traces through SDDF, and malformed input located by line or byte offset.

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "include/parallax/trace.h"
#include "src/io/import/trace_import.h"
#include "src/io/ksr/ksr_reader.h"
#include "src/io/sddf/sddf.h"
#include "src/io/sddf/sddf_trace.h"

namespace parallax::io {
namespace {

using model::ThreadIndex;
using model::Time;

const std::string kData = PARALLAX_TEST_DATA;

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string TempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("parallax-sddf-test-" + std::to_string(::getpid()) + "-" + name)).string();
}

// Collects every packet as text, to compare streams.
class Recorder : public SddfHandler {
 public:
  Status OnAttributes(const SddfAttributes& a, uint64_t) override {
    for (const auto& [k, v] : a) out += "attr " + k + "=" + v + "\n";
    return Status::Ok();
  }
  Status OnDescriptor(const SddfDescriptor& d, uint64_t) override {
    out += "desc #" + std::to_string(d.tag) + " " + d.name;
    for (const auto& f : d.fields) out += " " + std::string(SddfTypeName(f.type)) + ":" + f.name + ":" + std::to_string(f.dims);
    for (const auto& [k, v] : d.attributes) out += " @" + k + "=" + v;
    out += "\n";
    return Status::Ok();
  }
  Status OnRecord(const SddfDescriptor& d, std::span<const SddfValue> v, uint64_t) override {
    out += "rec " + d.name;
    records.emplace_back();
    for (const auto& x : v) {
      out += " [";
      for (auto n : x.shape) out += std::to_string(n) + ";";
      out += "]";
      for (auto i : x.ints) out += " " + std::to_string(i);
      for (auto r : x.reals) out += " " + std::to_string(r);
      out += " '" + x.text + "'";
      records.back().push_back(x.AsInt());
    }
    out += "\n";
    return Status::Ok();
  }
  Status OnCommand(int32_t tag, uint64_t) override {
    out += "cmd " + std::to_string(tag) + "\n";
    return Status::Ok();
  }
  std::string out;
  std::vector<std::vector<int64_t>> records;
};

// ---------------------------------------------------------------- KSR (the Pablo report)

TEST(Ksr, GistConvertsToTheSddfOfTheReport) {
  std::string gist = Slurp(kData + "/ksr/pablo_example.gist");
  Diagnostics diags;
  auto sddf = KsrToSddf(gist, "pablo_example.gist", false, &diags);
  ASSERT_TRUE(sddf.ok()) << sddf.status().ToString();
  // The report's section 5.3 output with its braces restored and the data field of the log.
  EXPECT_EQ(*sddf, Slurp(kData + "/ksr/pablo_example.sddf"));
  EXPECT_EQ(diags.problems(), 0u);
}

TEST(Ksr, BriefGivesTheSameRecordsWithComputedDeltas) {
  Diagnostics d1, d2;
  auto gist = KsrToSddf(Slurp(kData + "/ksr/pablo_example.gist"), "g", false, &d1);
  auto brief = KsrToSddf(Slurp(kData + "/ksr/pablo_example.brief"), "b", false, &d2);
  ASSERT_TRUE(gist.ok() && brief.ok());
  Recorder g, b;
  Diagnostics dg, db;
  ASSERT_TRUE(ParseSddf(*gist, "g", g, dg).ok());
  ASSERT_TRUE(ParseSddf(*brief, "b", b, db).ok());
  ASSERT_EQ(g.records.size(), 26u);
  ASSERT_EQ(b.records.size(), 26u);
  for (size_t i = 0; i < 26; ++i) {
    for (size_t f : {0u, 1u, 3u, 4u}) EXPECT_EQ(g.records[i][f], b.records[i][f]) << "record " << i << " field " << f;
    // The brief log has no delta: it gets the time since the previous event.
    EXPECT_EQ(b.records[i][2], i ? b.records[i][1] - b.records[i - 1][1] : 0) << "record " << i;
  }
  // The gist's deltas are kept as printed, even where they are not the time differences
  // (351 for 350, 8 for 27901, ... in the report's transcription).
  EXPECT_EQ(g.records[8][2], 351);
  EXPECT_EQ(g.records[17][2], 8);
  EXPECT_EQ(g.records[25][2], 11);
  // Same descriptors (names from the KSR codes of the report), same order.
  auto descs = [](const std::string& s) {
    std::string out;
    std::istringstream in(s);
    for (std::string line; std::getline(in, line);)
      if (line.rfind("desc", 0) == 0) out += line + "\n";
    return out;
  };
  EXPECT_EQ(descs(g.out), descs(b.out));
}

TEST(Ksr, BinaryAndAsciiHoldTheSameRecords) {
  std::string gist = Slurp(kData + "/ksr/pablo_example.gist");
  auto a = KsrToSddf(gist, "g", false, nullptr);
  auto b = KsrToSddf(gist, "g", true, nullptr);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(b->substr(0, 4), "SDDF");
  Recorder ra, rb;
  Diagnostics d;
  ASSERT_TRUE(ParseSddf(*a, "a", ra, d).ok());
  auto pb = ParseSddf(*b, "b", rb, d);
  ASSERT_TRUE(pb.ok()) << pb.status().ToString();
  EXPECT_TRUE(pb->binary);
  EXPECT_EQ(ra.out, rb.out);
  EXPECT_EQ(d.problems(), 0u);
}

struct StateRow {
  Time begin, end;
  std::string name;
  friend bool operator==(const StateRow&, const StateRow&) = default;
};
std::ostream& operator<<(std::ostream& os, const StateRow& s) { return os << s.name << "[" << s.begin << "," << s.end << ")"; }

std::vector<StateRow> States(const ImportedTrace& t, uint32_t thread) {
  std::vector<StateRow> out;
  const auto& st = t.prv.store.thread(ThreadIndex(thread)).states;
  for (size_t i = 0; i < st.size(); ++i) out.push_back({st.begin[i], st.end[i], *t.pcf.StateLabel(st.state[i])});
  return out;
}

TEST(Ksr, GistGivesStatesPerThread) {
  const std::string path = kData + "/ksr/pablo_example.gist";
  EXPECT_EQ(DetectTraceFormatOfFile(path), TraceFormat::kKsr);
  EXPECT_EQ(DetectTraceFormatOfFile(kData + "/ksr/pablo_example.brief"), TraceFormat::kKsr);
  auto r = ReadKsrTrace(path);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->prv.header.processes.threads(), 5u);  // trace ids 0..4
  // Worked out by hand from the log: the innermost open Begin/End pair is the state.
  EXPECT_EQ(States(*r, 0), (std::vector<StateRow>{{0, 9762, "serial"},
                                                  {9762, 360610, "program"},
                                                  {360610, 361016, "Parallel Region"},
                                                  {361016, 474174, "program"},
                                                  {474174, 665469, "serial"},
                                                  {665469, 665586, "program"},
                                                  {665586, 2724154, "Parallel Sections"},
                                                  {2724154, 186393498, "program"}}));
  EXPECT_EQ(States(*r, 1), (std::vector<StateRow>{{462212, 462562, "Parallel Region"}}));
  EXPECT_EQ(States(*r, 2), (std::vector<StateRow>{{472599, 473902, "Parallel Region"}, {2752055, 170008404, "Parallel Tiling"}}));
  EXPECT_EQ(States(*r, 3), (std::vector<StateRow>{{416640, 417360, "Parallel Region"}, {3110626, 184039879, "Parallel Tiling"}}));
  EXPECT_EQ(States(*r, 4), (std::vector<StateRow>{{666441, 2273876, "Parallel Sections"}}));
  size_t events = 0;
  for (uint32_t t = 0; t < 5; ++t) events += r->prv.store.thread(ThreadIndex(t)).events.size();
  EXPECT_EQ(events, 26u);
  const auto& ev = r->prv.store.thread(ThreadIndex(2)).events;
  ASSERT_EQ(ev.size(), 5u);
  EXPECT_EQ(ev.time[3], 2752214u);  // "new tile"
  EXPECT_EQ(ev.type[3], kSddfRecordType);
  EXPECT_EQ(ev.value[3], 23);
  // End Parallel Tiling on threads 0 and 1 has no begin there; End serial at 360319 closes
  // "serial" while "program" is open inside it.
  EXPECT_EQ(r->prv.diagnostics.count(DiagKind::kUnmatchedEnd), 2u);
  EXPECT_EQ(r->prv.diagnostics.examples(DiagKind::kUnmatchedEnd)[0].line, 23u);  // thread 1 first in time
  EXPECT_EQ(r->prv.diagnostics.count(DiagKind::kEndNotInnermost), 1u);
  EXPECT_EQ(r->prv.diagnostics.examples(DiagKind::kEndNotInnermost)[0].line, 3u);
}

TEST(Ksr, MalformedLinesAreCountedAndLocated) {
  std::string text = Slurp(kData + "/ksr/pablo_example.gist");
  text += "E 0x1 12x 5 11 Begin serial 1\n"  // 27: bad time
          "E 0x1 100 5 11\n"                 // 28: too few fields
          "E 0x1 100 5 11 Begin serial z\n"  // 29: bad data
          "1 2 3\n";                         // 30: brief with 3 fields
  auto r = ParseKsrTrace(text, "bad.gist");
  ASSERT_TRUE(r.ok());
  const auto& d = r->prv.diagnostics;
  ASSERT_EQ(d.count(DiagKind::kSyntax), 2u);
  EXPECT_EQ(d.examples(DiagKind::kSyntax)[0].line, 27u);
  EXPECT_EQ(d.examples(DiagKind::kSyntax)[0].column, 7u);
  EXPECT_NE(d.examples(DiagKind::kSyntax)[0].detail.find("time"), std::string::npos);
  EXPECT_EQ(d.examples(DiagKind::kSyntax)[1].line, 29u);
  ASSERT_EQ(d.count(DiagKind::kTooFewFields), 2u);
  EXPECT_EQ(d.examples(DiagKind::kTooFewFields)[0].line, 28u);
  EXPECT_EQ(d.examples(DiagKind::kTooFewFields)[1].line, 30u);
  auto empty = ParseKsrTrace("\n\nnonsense\n", "empty.gist");
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.status().ToString().find("empty.gist"), std::string::npos);
}

// ---------------------------------------------------------------- SDDF

const char kConcessions[] =
    "SDDFA\n#1:\n\"Concessions\" {\n    int    \"Inning\";\n    int    \"Hot Dogs Sold\";\n};;\n\n"
    "#2:\n\"Player Record\" {\n    int    \"Team\";\n    int    \"Player Number\";\n    int    \"Hits\";\n"
    "    int    \"At-Bats\";\n};;\n\n"
    "\"Concessions\" { 1, 100 };;\n\"Concessions\" { 2, 300 };;\n\"Concessions\" { 3, 200 };;\n"
    "\"Concessions\" { 4, 500 };;\n\"Concessions\" { 5, 909 };;\n\"Concessions\" { 6, 1200 };;\n"
    "\"Concessions\" { 7, 2300 };;\n\"Concessions\" { 9, 300 };;\n\"Concessions\" { 8, 100 };;\n\n"
    "\"Player Record\" { 1, 4, 4, 5 };;\n\"Player Record\" { 1, 3, 2, 5 };;\n\"Player Record\" { 1, 7, 0, 4 };;\n"
    "\"Player Record\" { 1, 5, 4, 5 };;\n";

TEST(Sddf, ReportExampleWithoutTimeIsSummarised) {
  Recorder rec;
  Diagnostics d;
  auto r = ParseSddf(kConcessions, "concessions.sddf", rec, d);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(rec.records.size(), 13u);
  EXPECT_EQ(rec.records[7], (std::vector<int64_t>{9, 300}));
  EXPECT_EQ(d.problems(), 0u);
  auto t = ParseSddfTrace(kConcessions, "concessions.sddf");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->prv.header.processes.threads(), 1u);
  ASSERT_NE(t->pcf.EventTypeLabel(kSddfSummaryTypeBase), nullptr);
  EXPECT_EQ(*t->pcf.EventTypeLabel(kSddfSummaryTypeBase), "SDDF #1 \"Concessions\" (Inning, Hot Dogs Sold): 9 records, no time field");
  EXPECT_EQ(*t->pcf.EventTypeLabel(kSddfSummaryTypeBase + 1),
            "SDDF #2 \"Player Record\" (Team, Player Number, Hits, At-Bats): 4 records, no time field");
  EXPECT_EQ(t->prv.store.thread(ThreadIndex(0)).events.value[0], 9);
}

TEST(Sddf, AllFieldTypesArraysAttributesAndCommandsSurviveEveryForm) {
  const std::string text =
      "SDDFA\n/* a comment */\n/*\n * \"creation date\" \"1994\"\n * \"machine\" \"KSR-1\"\n */ ;;\n\n"
      "#7:\n// \"description\" \"every type\"\n\"All\" {\n"
      "\t// \"unit\" \"none\"\n\tchar \"c\";\n\tbyte \"b\";\n\tshort \"s\";\n\tint \"i\";\n\tlong \"l\";\n"
      "\tfloat \"f\";\n\tdouble \"d\";\n\tchar \"name\"[];\n\tint \"matrix\"[][];\n\tdouble \"v\"[];\n};;\n\n"
      "\"All\" { 'x', -5, 300, -70000, 9000000000, 0.5, 2.25, [5] \"he\\\"ll\", [2][3] { 1, 2, 3, 4, 5, 6 }, [0] {  } };;\n"
      "%3: ;;\n";
  Recorder r1;
  Diagnostics d;
  auto p1 = ParseSddf(text, "all.sddf", r1, d);
  ASSERT_TRUE(p1.ok()) << p1.status().ToString();
  EXPECT_EQ(d.problems(), 0u);
  EXPECT_EQ(r1.out,
            "attr creation date=1994\nattr machine=KSR-1\n"
            "desc #7 All char:c:0 byte:b:0 short:s:0 int:i:0 long:l:0 float:f:0 double:d:0 char:name:1 int:matrix:2 double:v:1 @description=every type\n"
            "rec All [] 'x' [] -5 '' [] 300 '' [] -70000 '' [] 9000000000 '' [] 0.500000 '' [] 2.250000 '' [5;] 'he\"ll' "
            "[2;3;] 1 2 3 4 5 6 '' [0;] ''\ncmd 3\n");
  // Re-write in each form through a handler that copies packets, then read back.
  for (auto form : {SddfWriter::Form::kAscii, SddfWriter::Form::kBinaryBig, SddfWriter::Form::kBinaryLittle}) {
    std::string out;
    SddfWriter w(form, [&](std::string_view s) {
      out.append(s);
      return true;
    });
    struct Copy : SddfHandler {
      SddfWriter* w;
      Status OnAttributes(const SddfAttributes& a, uint64_t) override { return w->Attributes(a), Status::Ok(); }
      Status OnDescriptor(const SddfDescriptor& x, uint64_t) override { return w->Descriptor(x), Status::Ok(); }
      Status OnRecord(const SddfDescriptor& x, std::span<const SddfValue> v, uint64_t) override { return w->Record(x, v), Status::Ok(); }
      Status OnCommand(int32_t tag, uint64_t) override { return w->Command(tag), Status::Ok(); }
    } copy;
    copy.w = &w;
    ASSERT_TRUE(ParseSddf(text, "all.sddf", copy, d).ok());
    w.Finish();
    Recorder r2;
    auto p2 = ParseSddf(out, "copy", r2, d);
    ASSERT_TRUE(p2.ok()) << p2.status().ToString();
    EXPECT_EQ(r2.out, r1.out) << static_cast<int>(form);
    EXPECT_EQ(p2->binary, form != SddfWriter::Form::kAscii);
  }
  // The binary header says the byte order.
  std::string big, little;
  SddfWriter wb(SddfWriter::Form::kBinaryBig, [&](std::string_view s) { return big.append(s), true; });
  SddfWriter wl(SddfWriter::Form::kBinaryLittle, [&](std::string_view s) { return little.append(s), true; });
  wb.Command(1), wl.Command(1), wb.Finish(), wl.Finish();
  EXPECT_EQ(big, std::string("SDDFB\0\0\0\x0c\0\0\0\x04\0\0\0\x01", 17));
  EXPECT_EQ(little, std::string("SDDFb\x0c\0\0\0\x04\0\0\0\x01\0\0\0", 17));
}

TEST(Sddf, GenericFileWithTimeFieldsBecomesEventsAndStates) {
  const std::string text =
      "SDDFA\n#10:\n\"Begin Compute\" {\n\tint \"processor number\";\n\tdouble \"seconds\";\n};;\n"
      "#11:\n\"End Compute\" {\n\tint \"processor number\";\n\tdouble \"seconds\";\n};;\n"
      "#12:\n\"Message\" {\n\tint \"processor number\";\n\tdouble \"seconds\";\n\tint \"bytes\";\n};;\n"
      "\"Begin Compute\" { 3, 0.5 };;\n\"Message\" { 3, 0.75, 100 };;\n\"End Compute\" { 3, 1.5 };;\n"
      "\"Message\" { 1, 2.0, 5 };;\n";
  auto t = ParseSddfTrace(text, "generic.sddf");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  ASSERT_EQ(t->prv.header.processes.threads(), 2u);  // processors 1 and 3
  EXPECT_EQ(*t->row->Label(model::Level::kThread, 1), "processor number 3");
  EXPECT_EQ(States(*t, 1), (std::vector<StateRow>{{500000000, 1500000000, "Compute"}}));
  const auto& ev = t->prv.store.thread(ThreadIndex(1)).events;
  ASSERT_EQ(ev.size(), 3u);
  EXPECT_EQ(ev.time[1], 750000000u);
  EXPECT_EQ(ev.value[1], 12);
  EXPECT_EQ(t->prv.store.thread(ThreadIndex(0)).events.time[0], 2000000000u);
}

TEST(Sddf, MalformedAsciiIsLocated) {
  // A bad descriptor stops the parse with its line and column.
  auto bad_type = ParseSddfTrace("SDDFA\n#1:\n\"R\" {\n\tint \"a\";\n\tquad \"b\";\n};;\n", "t.sddf");
  ASSERT_FALSE(bad_type.ok());
  EXPECT_EQ(bad_type.status().where().line, 5u);
  EXPECT_EQ(bad_type.status().where().column, 2u);
  EXPECT_NE(bad_type.status().ToString().find("unknown field type \"quad\""), std::string::npos);
  auto no_semi = ParseSddfTrace("SDDFA\n#1:\n\"R\" {\n\tint \"a\"\n};;\n", "t.sddf");
  ASSERT_FALSE(no_semi.ok());
  EXPECT_NE(no_semi.status().ToString().find("expected ';' after field \"a\""), std::string::npos);
  auto comment = ParseSddfTrace("SDDFA\n/* never closed\n", "t.sddf");
  ASSERT_FALSE(comment.ok());
  EXPECT_EQ(comment.status().where().line, 2u);
  // Bad data records are counted, located and skipped; the good ones stay.
  const std::string text =
      "SDDFA\n#1:\n\"R\" {\n\tint \"thread\";\n\tlong \"time\";\n\tint \"v\"[];\n};;\n"
      "\"R\" { 0, 10, [1] { 1 } };;\n"   // 8: fine
      "\"R\" { 0, x, [1] { 1 } };;\n"    // 9: not a number
      "\"R\" { 0, 20 };;\n"              // 10: missing field
      "\"Q\" { 1 };;\n"                  // 11: no descriptor
      "\"R\" { 0, 30, [2] { 1 } };;\n"   // 12: array shorter than its extent
      "\"R\" { 0, 40, [1] { 7 } };;\n";  // 13: fine
  auto t = ParseSddfTrace(text, "t.sddf");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->prv.store.thread(ThreadIndex(0)).events.size(), 2u);
  const auto& d = t->prv.diagnostics;
  ASSERT_EQ(d.count(DiagKind::kSyntax), 2u);
  EXPECT_EQ(d.examples(DiagKind::kSyntax)[0].line, 9u);
  EXPECT_EQ(d.examples(DiagKind::kSyntax)[0].column, 11u);
  EXPECT_NE(d.examples(DiagKind::kSyntax)[0].detail.find("field \"time\": expected an integer, found \"x\""), std::string::npos);
  EXPECT_EQ(d.examples(DiagKind::kSyntax)[1].line, 12u);
  ASSERT_EQ(d.count(DiagKind::kTooFewFields), 1u);
  EXPECT_EQ(d.examples(DiagKind::kTooFewFields)[0].line, 10u);
  ASSERT_EQ(d.count(DiagKind::kUndefinedName), 1u);
  EXPECT_EQ(d.examples(DiagKind::kUndefinedName)[0].line, 11u);
}

TEST(Sddf, ARedefinedTagForgetsTheReplacedName) {
  // Found by the fuzzer: "#11" is first "Begin serial" with one field, then "X" with a thread
  // and a time field. A record still naming "Begin serial" used to reach the mapper with one
  // value while the mapper read field 1 of "X" (a heap overflow). The replaced name is gone.
  const std::string text =
      "SDDFA\n#11:\n\"Begin serial\" {\n\tint \"a\";\n};;\n"
      "#11:\n\"X\" {\n\tint \"thread\";\n\tint \"time\";\n};;\n"
      "\"Begin serial\" { 7 };;\n"  // 11: its descriptor was replaced
      "\"X\" { 0, 5 };;\n";
  auto t = ParseSddfTrace(text, "t.sddf");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  const auto& d = t->prv.diagnostics;
  ASSERT_EQ(d.count(DiagKind::kUndefinedName), 1u);
  EXPECT_EQ(d.examples(DiagKind::kUndefinedName)[0].line, 11u);
  const auto& ev = t->prv.store.thread(ThreadIndex(0)).events;
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev.time[0], 5u);
}

TEST(Sddf, MalformedBinaryIsLocatedByByteOffset) {
  std::string good = *KsrToSddf(Slurp(kData + "/ksr/pablo_example.gist"), "g", true, nullptr);
  // Truncated in the middle of the last packet.
  auto cut = ParseSddfTrace(good.substr(0, good.size() - 3), "cut.sddf");
  ASSERT_FALSE(cut.ok());
  EXPECT_NE(cut.status().ToString().find("byte offset"), std::string::npos);
  // A data packet whose length leaves out its last field: counted and skipped.
  std::string text = good;
  // The last packet is a data record of 12 + 20 bytes; shrink its length to 28 and drop 4 bytes.
  size_t last = text.size() - 32;
  bool little = text[4] == 'b';
  text[last + (little ? 0 : 3)] = 28;
  text.erase(text.size() - 4);
  auto t = ParseSddfTrace(text, "short.sddf");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->prv.diagnostics.count(DiagKind::kTooFewFields), 1u);
  EXPECT_NE(t->prv.diagnostics.examples(DiagKind::kTooFewFields)[0].detail.find(std::to_string(last)), std::string::npos);
  auto magic = ParseSddfTrace("SDDFX", "x.sddf");
  EXPECT_FALSE(magic.ok());
}

// ---------------------------------------------------------------- Paraver through SDDF

// prv -> sddf -> prv gives byte-identical .prv/.pcf/.row.
void RoundTrip(const std::string& prv, bool binary) {
  auto t = Trace::Open(prv);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  std::string sddf = TempPath(std::string("rt") + (binary ? "b" : "a") + ".sddf");
  std::string a = TempPath("a.prv"), b = TempPath("b.prv");
  ASSERT_TRUE(WriteSddf(**t, sddf, binary, true).ok());
  EXPECT_EQ(DetectTraceFormatOfFile(sddf), TraceFormat::kSddf);
  auto back = Trace::Open(sddf);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ((*back)->Info().diagnostics.size(), 0u);
  ASSERT_TRUE((*t)->Write(a, true).ok());
  ASSERT_TRUE((*back)->Write(b, true).ok());
  EXPECT_EQ(Slurp(a), Slurp(b)) << prv;
  for (const char* ext : {".pcf", ".row"}) {
    std::string pa = a.substr(0, a.size() - 4) + ext, pb = b.substr(0, b.size() - 4) + ext;
    EXPECT_EQ(Slurp(pa), Slurp(pb)) << prv << ext;
    std::remove(pa.c_str()), std::remove(pb.c_str());
  }
  std::remove(sddf.c_str()), std::remove(a.c_str()), std::remove(b.c_str());
}

TEST(SddfRoundTrip, EpochAscii) { RoundTrip(kData + "/epoch/epoch_2proc.prv.gz", false); }
TEST(SddfRoundTrip, EpochBinary) { RoundTrip(kData + "/epoch/epoch_2proc.prv.gz", true); }
TEST(SddfRoundTrip, OmpUnsignedValuesBinary) { RoundTrip(kData + "/omp/omp2.prv.gz", true); }
TEST(SddfRoundTrip, QsortAscii) { RoundTrip(kData + "/qsort_beo3/qsort_beo3.prv", false); }

TEST(SddfRoundTrip, ExistingOutputIsNotReplaced) {
  auto t = Trace::Open(kData + "/qsort_beo3/qsort_beo3.prv");
  ASSERT_TRUE(t.ok());
  std::string path = TempPath("exists.sddf");
  { std::ofstream(path) << "keep"; }
  Status s = WriteSddf(**t, path, false, false);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(Slurp(path), "keep");
  std::remove(path.c_str());
}

}  // namespace
}  // namespace parallax::io

namespace parallax::io {
namespace {

// Every input of the sddf and ksr fuzz corpora reads to a trace or a clean error.
TEST(SddfFuzzCorpus, EveryInputReadsOrFailsCleanly) {
  const auto root = std::filesystem::path(PARALLAX_TEST_DATA).parent_path() / "fuzz" / "corpus";
  size_t n = 0;
  for (const char* target : {"sddf", "ksr"}) {
    for (const auto& entry : std::filesystem::directory_iterator(root / target)) {
      std::string bytes = Slurp(entry.path().string());
      auto r = std::string(target) == "sddf" ? ParseSddfTrace(bytes, entry.path().string()) : ParseKsrTrace(bytes, entry.path().string());
      if (r.ok()) EXPECT_GE(r->prv.header.processes.threads(), 1u) << entry.path();
      ++n;
    }
  }
  EXPECT_GE(n, 10u);
}

}  // namespace
}  // namespace parallax::io
