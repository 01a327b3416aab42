#include "src/io/pcf/pcf_reader.h"

#include <sys/stat.h>

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace parallax::io {
namespace {

using model::PcfCatalog;
using model::Rgb;
using TypeValue = std::pair<uint32_t, int64_t>;

const std::string kData = PARALLAX_TEST_DATA;

PcfCatalog Parse(std::string_view text, PcfDiagnostics* diags = nullptr) {
  Result<PcfCatalog> r = ParsePcf(text, "t.pcf", diags);
  EXPECT_TRUE(r.ok());
  return std::move(r).value();
}

PcfCatalog Read(const std::string& relative, PcfDiagnostics* diags) {
  Result<PcfCatalog> r = ReadPcf(kData + "/" + relative, diags);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return std::move(r).value();
}

std::string Str(const std::string* s) { return s == nullptr ? "<null>" : *s; }

// The example of trace-format.md §7.5, with the sections around it.
constexpr std::string_view kSpecExample =
    "STATES\n"
    "1    Running\n"
    "3    Waiting a message\n"
    "\n"
    "STATES_COLOR\n"
    "1 {0,0,255}\n"
    "\n"
    "EVENT_TYPE\n"
    "0    50000001    MPI Point-to-point\n"
    "0    50000002    MPI Collective Comm\n"
    "VALUES\n"
    "0      Outside MPI\n"
    "1      MPI_Send\n"
    "10     MPI_Bcast\n"
    "\n"
    "EVENT_TYPE\n"
    "9    42000050    PAPI_TOT_INS\n"
    "PRECISION 3\n";

TEST(PcfReaderTest, SpecExampleGroupsShareValuesAndPrecision) {
  PcfDiagnostics diags;
  PcfCatalog c = Parse(kSpecExample, &diags);
  EXPECT_EQ(diags.count, 0u);
  EXPECT_EQ(Str(c.StateLabel(3)), "Waiting a message");
  EXPECT_EQ(c.StateLabel(2), nullptr);
  EXPECT_EQ(c.StateColor(1), (Rgb{0, 0, 255}));
  EXPECT_FALSE(c.StateColor(3).has_value());
  ASSERT_EQ(c.event_blocks.size(), 2u);
  EXPECT_EQ(Str(c.EventTypeLabel(50000001)), "MPI Point-to-point");
  EXPECT_EQ(Str(c.EventTypeLabel(50000002)), "MPI Collective Comm");
  for (uint32_t type : {50000001u, 50000002u}) {
    EXPECT_EQ(Str(c.EventValueLabel(type, 0)), "Outside MPI");
    EXPECT_EQ(Str(c.EventValueLabel(type, 1)), "MPI_Send");
    EXPECT_EQ(Str(c.EventValueLabel(type, 10)), "MPI_Bcast");
    EXPECT_EQ(c.EventValueLabel(type, 2), nullptr);
    EXPECT_EQ(c.Precision(type), 0);
  }
  EXPECT_EQ(c.Precision(42000050), 3);
  EXPECT_EQ(c.EventValueLabel(42000050, 0), nullptr);
  EXPECT_EQ(c.EventTypeLabel(42), nullptr);
  EXPECT_EQ(c.EventTypes(), (std::vector<uint32_t>{42000050, 50000001, 50000002}));
  EXPECT_EQ(c.event_blocks[1].types[0].gradient, "9");
}

// Older Paraver setups wrote labels in Latin-1 ("Ejecución"): read as UTF-8, so that every
// front end can put them in JSON; valid UTF-8 is kept as it is, even in the same file.
TEST(PcfReaderTest, Latin1LabelsAreReadAsUtf8) {
  PcfCatalog pcf = Parse("STATES\n0 Ejecuci\xf3n\n1 Espa\xc3\xb1" "a\n\nEVENT_TYPE\n0 100 Regi\xf3n\nVALUES\n1 "
                         "C\xe1lculo\n");
  ASSERT_NE(pcf.StateLabel(0), nullptr);
  EXPECT_EQ(*pcf.StateLabel(0), "Ejecuci\xc3\xb3n");
  EXPECT_EQ(*pcf.StateLabel(1), "Espa\xc3\xb1" "a");
  EXPECT_EQ(*pcf.EventTypeLabel(100), "Regi\xc3\xb3n");
  EXPECT_EQ(*pcf.EventValueLabel(100, 1), "C\xc3\xa1" "lculo");
}

TEST(PcfReaderTest, LabelsKeepInnerSpacesAndLoseTabsAndTrailingBlanks) {
  PcfCatalog c = Parse("STATES\n  7\tTwo  words\t \nEVENT_TYPE\n1\t5\tA\tB  \nVALUES\n4 x\ty\n");
  EXPECT_EQ(Str(c.StateLabel(7)), "Two  words");
  EXPECT_EQ(Str(c.EventTypeLabel(5)), "A B");
  EXPECT_EQ(Str(c.EventValueLabel(5, 4)), "x y");
}

TEST(PcfReaderTest, LaterLinesWinAsInParaver) {
  PcfCatalog c = Parse(
      "STATES\n1 One\n1 Uno\n"
      "STATES_COLOR\n1 {1,2,3}\n1 {4,5,6}\n"
      "EVENT_TYPE\n0 10 First\nPRECISION 2\nVALUES\n1 a\n1 b\n2 c\n"
      "EVENT_TYPE\n0 10 Second\nVALUES\n2 d\n");
  EXPECT_EQ(Str(c.StateLabel(1)), "Uno");
  EXPECT_EQ(c.StateColor(1), (Rgb{4, 5, 6}));
  EXPECT_EQ(Str(c.EventTypeLabel(10)), "Second");
  EXPECT_EQ(Str(c.EventValueLabel(10, 1)), "b");  // kept from the first block
  EXPECT_EQ(Str(c.EventValueLabel(10, 2)), "d");
  EXPECT_EQ(c.Precision(10), 2);  // the second block sets none, so the first one stays
}

TEST(PcfReaderTest, TypeLineAfterValuesIsAValueLine) {
  PcfCatalog c = Parse("EVENT_TYPE\n0 1 A\nVALUES\n0    2    B\n");
  EXPECT_EQ(c.EventTypeLabel(2), nullptr);
  EXPECT_EQ(Str(c.EventValueLabel(1, 0)), "2    B");
}

TEST(PcfReaderTest, PrecisionAppliesToTheWholeGroupWhereverItIsWritten) {
  PcfCatalog c = Parse("EVENT_TYPE\n0 1 A\nPRECISION 4\n0 2 B\nVALUES\n1 one\n");
  EXPECT_EQ(c.Precision(1), 4);
  EXPECT_EQ(c.Precision(2), 4);
  PcfCatalog d = Parse("EVENT_TYPE\n0 1 A\nVALUES\n1 one\nPRECISION3\n");
  EXPECT_EQ(c.Precision(1), 4);
  EXPECT_EQ(d.Precision(1), 3);
  EXPECT_EQ(d.event_blocks[0].precision_position, 3u);
}

TEST(PcfReaderTest, TypesByLabelExactTakesTheLargestType) {
  PcfCatalog c =
      Parse("EVENT_TYPE\n0 300 Same\n0 100 Same\n0 200 Same\n0 5 Other thing\n0 6 MPI x\n");
  EXPECT_EQ(c.TypesByLabel("Same"), (std::vector<uint32_t>{300}));
  EXPECT_EQ(c.TypesByLabel("Missing"), (std::vector<uint32_t>{}));
  EXPECT_EQ(c.TypesByLabel("Sam"), (std::vector<uint32_t>{}));
  EXPECT_EQ(c.TypesByLabel("*"), (std::vector<uint32_t>{5, 6, 100, 200, 300}));
  EXPECT_EQ(c.TypesByLabel("S*e"), (std::vector<uint32_t>{100, 200, 300}));
  EXPECT_EQ(c.TypesByLabel("*thing"), (std::vector<uint32_t>{5}));
  EXPECT_EQ(c.TypesByLabel("*x*"), (std::vector<uint32_t>{6}));
  EXPECT_EQ(c.TypesByLabel("O*r"), (std::vector<uint32_t>{}));  // no implicit trailing '*'
}

TEST(PcfReaderTest, WildcardMatchTreatsEverythingButStarLiterally) {
  EXPECT_TRUE(model::WildcardMatch("a.c", "a.c"));
  EXPECT_FALSE(model::WildcardMatch("a.c", "abc"));
  EXPECT_TRUE(model::WildcardMatch("a*b*c", "aXXbYYbc"));
  EXPECT_FALSE(model::WildcardMatch("a*b*c", "aXXbYYb"));
  EXPECT_TRUE(model::WildcardMatch("**", ""));
  EXPECT_TRUE(model::WildcardMatch("[x]*", "[x] y"));
}

TEST(PcfReaderTest, ValuesByLabelListsEveryTypeOfTheGroup) {
  PcfCatalog c = Parse(kSpecExample);
  EXPECT_EQ(c.ValuesByLabel("MPI_Send"), (std::vector<TypeValue>{{50000001, 1}, {50000002, 1}}));
  EXPECT_EQ(c.ValuesByLabel("Outside MPI"), (std::vector<TypeValue>{{50000001, 0}, {50000002, 0}}));
  EXPECT_TRUE(c.ValuesByLabel("MPI_*").empty());
  PcfCatalog d = Parse("EVENT_TYPE\n0 1 A\nVALUES\n1 old\n1 new\n2 old\n");
  EXPECT_EQ(d.ValuesByLabel("old"), (std::vector<TypeValue>{{1, 2}}));
}

TEST(PcfReaderTest, KeepsOptionsSemanticAndGradients) {
  PcfCatalog c = Parse(
      "DEFAULT_OPTIONS\n\nLEVEL               THREAD\nNUM_OF_STATE_COLORS 1000\nMY_KEY x y\n"
      "DEFAULT_SEMANTIC\n\nTHREAD_FUNC          State As Is\n"
      "GRADIENT_COLOR\n0    {0,255,2}\n"
      "GRADIENT_NAMES\n1    Grad. 1/MPI Events\n");
  ASSERT_EQ(c.default_options.size(), 3u);
  EXPECT_EQ(c.default_options[0].key, "LEVEL");
  EXPECT_EQ(c.default_options[0].value, "THREAD");
  EXPECT_EQ(c.default_options[2].key, "MY_KEY");
  EXPECT_EQ(c.default_options[2].value, "x y");
  ASSERT_EQ(c.default_semantic.size(), 1u);
  EXPECT_EQ(c.default_semantic[0].value, "State As Is");
  ASSERT_EQ(c.gradient_color.size(), 1u);
  EXPECT_EQ(c.gradient_color[0].rgb, (Rgb{0, 255, 2}));
  ASSERT_EQ(c.gradient_names.size(), 1u);
  EXPECT_EQ(c.gradient_names[0].label, "Grad. 1/MPI Events");
  // Gradient colours are not state colours.
  EXPECT_FALSE(c.StateColor(0).has_value());
}

TEST(PcfReaderTest, CrlfLinesAreAccepted) {
  PcfDiagnostics diags;
  PcfCatalog c =
      Parse("STATES\r\n1    Running\r\n\r\nEVENT_TYPE\r\n0 7 Seven\r\nVALUES\r\n1 one\r\n", &diags);
  EXPECT_EQ(diags.count, 0u);
  EXPECT_TRUE(c.crlf);
  EXPECT_EQ(Str(c.StateLabel(1)), "Running");
  EXPECT_EQ(Str(c.EventTypeLabel(7)), "Seven");
  EXPECT_EQ(Str(c.EventValueLabel(7, 1)), "one");
}

TEST(PcfReaderTest, EmptyInputAndCommentsOnly) {
  PcfDiagnostics diags;
  PcfCatalog c = Parse("", &diags);
  EXPECT_EQ(c, PcfCatalog());
  PcfCatalog d = Parse("# a comment\n\n  # another\nSTATES\n# inside\n1 x\n", &diags);
  EXPECT_EQ(diags.count, 0u);
  EXPECT_EQ(Str(d.StateLabel(1)), "x");
  EXPECT_EQ(d.states[0].spelling.before, "# inside\n");
}

// One malformed line and the diagnostic expected for it.
struct BadLine {
  std::string text;
  uint64_t line;
  uint64_t column;
  std::string reason_part;
};

TEST(PcfReaderTest, EveryMalformedLineIsCountedWithItsLocation) {
  const std::vector<BadLine> cases = {
      {"1 Running\nSTATES\n", 1, 1, "outside any section"},
      {"STATES\n  x1 Idle\n", 2, 3, "state 'x1' is not an integer"},
      {"STATES\n3000000000 Big\n", 2, 1, "state 3000000000 is outside"},
      {"STATES\n1abc Idle\n", 2, 1, "not an integer"},
      {"STATES_COLOR\n1 {0,0}\n", 2, 6, "is not {r,g,b}"},
      {"STATES_COLOR\n1 {0,0,256}\n", 2, 8, "is not {r,g,b}"},
      {"STATES_COLOR\n1 0,0,0\n", 2, 3, "is not {r,g,b}"},
      {"STATES_COLOR\n1 {1,2,3}x\n", 2, 3, "is not {r,g,b}"},
      {"STATES_COLOR\n1\n", 2, 2, "is not {r,g,b}"},
      {"STATES_COLOR\nred {1,2,3}\n", 2, 1, "colour index 'red'"},
      {"GRADIENT_COLOR\n1 {1,-2,3}\n", 2, 6, "is not {r,g,b}"},
      // A blank or empty component used to throw std::out_of_range out of the parser.
      {"STATES_COLOR\n0 { ,0,0}\n", 2, 5, "is not {r,g,b}"},
      {"STATES_COLOR\n0 {,0,0}\n", 2, 4, "is not {r,g,b}"},
      {"STATES_COLOR\n0 {0,0,  }\n", 2, 10, "is not {r,g,b}"},
      {"GRADIENT_NAMES\nx name\n", 2, 1, "gradient index 'x'"},
      {"EVENT_TYPE\n0 2147483648 Too big\n", 2, 3, "event type 2147483648 is outside"},
      {"EVENT_TYPE\n0 99999999999999999999999 Huge\n", 2, 3, "is outside"},
      {"EVENT_TYPE\n0 -5 Negative\n", 2, 3, "event type -5 is outside"},
      {"EVENT_TYPE\n0 abc Label\n", 2, 3, "event type 'abc' is not an integer"},
      {"EVENT_TYPE\n 0\n", 2, 2, "needs '<gradient> <type> <label>'"},
      {"EVENT_TYPE\n0 1 A\nVALUES\n2147483648 v\n", 4, 1, "event value 2147483648 is outside"},
      {"EVENT_TYPE\n0 1 A\nVALUES\n-2147483649 v\n", 4, 1, "is outside"},
      {"EVENT_TYPE\n0 1 A\nVALUES\nv1 label\n", 4, 1, "event value 'v1' is not an integer"},
      {"EVENT_TYPE\n0 1 A\nVALUES\nVALUES\n", 4, 1, "second VALUES line"},
      {"EVENT_TYPE\n0 1 A\nPRECISION\n", 3, 10, "PRECISION without a number"},
      {"EVENT_TYPE\n0 1 A\nPRECISION x\n", 3, 11, "precision 'x' is not an integer"},
      {"EVENT_TYPE\n0 1 A\nPRECISION -1\n", 3, 11, "precision -1 is outside"},
      {"EVENT_TYPE\n0 1 A\nPRECISIONX 3\n", 3, 10, "precision 'X 3' is not an integer"},
      {"EVENT_TYPE\n0 1 A\nPRECISION 1\nPRECISION 2\n", 4, 1, "second PRECISION"},
      {"\r\nSTATES\r\n\tbad line\r\n", 3, 2, "state 'bad' is not an integer"},
  };
  for (const BadLine& bad : cases) {
    SCOPED_TRACE(bad.text);
    PcfDiagnostics diags;
    Parse(bad.text, &diags);
    ASSERT_EQ(diags.count, 1u);
    ASSERT_EQ(diags.first.size(), 1u);
    EXPECT_EQ(diags.file, "t.pcf");
    EXPECT_EQ(diags.first[0].line, bad.line);
    EXPECT_EQ(diags.first[0].column, bad.column);
    EXPECT_NE(diags.first[0].reason.find(bad.reason_part), std::string::npos)
        << diags.first[0].reason;
  }
}

TEST(PcfReaderTest, IgnoredLinesLoseOnlyThemselves) {
  PcfDiagnostics diags;
  PcfCatalog c =
      Parse("EVENT_TYPE\n0 3000000000 Big\n0 12 Fine\nVALUES\n5000000000 lost\n1 kept\n", &diags);
  EXPECT_EQ(diags.count, 2u);
  EXPECT_EQ(c.event_blocks[0].types.size(), 1u);
  EXPECT_EQ(Str(c.EventTypeLabel(12)), "Fine");
  EXPECT_EQ(Str(c.EventValueLabel(12, 1)), "kept");
  EXPECT_EQ(c.EventTypeLabel(3000000000u), nullptr);
}

TEST(PcfReaderTest, DiagnosticsKeepTheFirstTenAndCountAll) {
  std::string text = "STATES\n";
  for (int i = 0; i < 25; ++i) text += "bad\n";
  PcfDiagnostics diags;
  Parse(text, &diags);
  EXPECT_EQ(diags.count, 25u);
  ASSERT_EQ(diags.first.size(), PcfDiagnostics::kMaxKept);
  EXPECT_EQ(diags.first[0].line, 2u);
  EXPECT_EQ(diags.first[9].line, 11u);
  const std::string s = diags.ToString();
  EXPECT_NE(s.find("t.pcf:2:1: state 'bad' is not an integer"), std::string::npos) << s;
  EXPECT_NE(s.find("... and 15 more"), std::string::npos) << s;
}

TEST(PcfReaderTest, MissingFileIsAbsentNotUnreadable) {
  bool absent = false;
  Result<PcfCatalog> r = ReadPcf(kData + "/no_such_file.pcf", nullptr, &absent);
  EXPECT_FALSE(r.ok());
  EXPECT_TRUE(absent);
  EXPECT_EQ(r.status().where().file, kData + "/no_such_file.pcf");

  // A directory exists but cannot be read as a .pcf.
  r = ReadPcf(kData, nullptr, &absent);
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(absent);
}

TEST(PcfReaderTest, ExtraeEpochFile) {
  PcfDiagnostics diags;
  PcfCatalog c = Read("epoch/epoch_1proc.pcf", &diags);
  EXPECT_EQ(diags.count, 0u) << diags.ToString();
  EXPECT_EQ(c.states.size(), 32u);
  EXPECT_EQ(Str(c.StateLabel(0)), "Idle");
  EXPECT_EQ(Str(c.StateLabel(31)), "Freeing memory");
  EXPECT_EQ(c.StateColor(0), (Rgb{117, 195, 255}));
  EXPECT_EQ(c.StateColor(31), (Rgb{100, 216, 32}));
  ASSERT_EQ(c.default_options.size(), 7u);
  EXPECT_EQ(c.default_options[1].key, "UNITS");
  EXPECT_EQ(c.default_options[1].value, "NANOSEC");
  EXPECT_EQ(c.default_options[5].key, "NUM_OF_STATE_COLORS");
  EXPECT_EQ(Str(c.EventTypeLabel(50000002)), "MPI Collective Comm");
  EXPECT_EQ(Str(c.EventValueLabel(50000002, 10)), "MPI_Allreduce");
  EXPECT_EQ(Str(c.EventValueLabel(50000001, 41)), "MPI_Sendrecv");
  EXPECT_EQ(Str(c.EventTypeLabel(42000050)), "PAPI_TOT_INS [Instr completed]");
  EXPECT_EQ(Str(c.EventTypeLabel(40000018)), "Tracing mode:");
  EXPECT_EQ(Str(c.EventValueLabel(40000018, 2)), "CPU Bursts");
  // The three caller levels share one value table.
  for (uint32_t type : {70000001u, 70000002u, 70000003u}) {
    EXPECT_EQ(Str(c.EventValueLabel(type, 5)), "main");
  }
  EXPECT_EQ(Str(c.EventValueLabel(80000002, 27)), "1338 (boundary.F90, epoch2d)");
  EXPECT_EQ(c.TypesByLabel("MPI Other"), (std::vector<uint32_t>{50000003}));
  EXPECT_EQ(c.TypesByLabel("MPI *"), (std::vector<uint32_t>{50000001, 50000002, 50000003}));
  EXPECT_EQ(c.TypesByLabel("Caller at level *"),
            (std::vector<uint32_t>{70000001, 70000002, 70000003}));
  EXPECT_EQ(c.ValuesByLabel("MPI_Bcast"), (std::vector<TypeValue>{{50000002, 7}}));
  EXPECT_EQ(c.gradient_color.size(), 15u);
  EXPECT_EQ(c.gradient_names.size(), 15u);
  // Extrae appends event types after GRADIENT_NAMES; they count like the others.
  EXPECT_EQ(c.layout.back().section, model::PcfSection::kEventType);
}

TEST(PcfReaderTest, OldMpitraceFileWithSectionsInAnotherOrder) {
  PcfDiagnostics diags;
  PcfCatalog c = Read("qsort_beo3/qsort_beo3.pcf", &diags);
  EXPECT_EQ(diags.count, 0u) << diags.ToString();
  EXPECT_EQ(c.layout.front().section, model::PcfSection::kStates);
  EXPECT_EQ(Str(c.StateLabel(4)), "Bloking Send");
  ASSERT_EQ(c.default_options.size(), 5u);
  EXPECT_EQ(c.default_options[1].value, "MICROSEC");
  EXPECT_EQ(c.default_semantic[0].value, "Last Evt Val");
  EXPECT_EQ(Str(c.EventValueLabel(40000005, 1)), "Begin");
  EXPECT_EQ(Str(c.EventValueLabel(60000019, 3)), "sequential (qsort_jenui.c)");
  // One group lists the same three counters four times.
  const model::PcfEventBlock& counters = c.event_blocks[6];
  ASSERT_EQ(counters.types.size(), 12u);
  EXPECT_EQ(counters.types[4].type, 42000007u);
  EXPECT_EQ(Str(c.EventTypeLabel(42000007)), "Level 2 cache misses (L2 cache misses)");
  EXPECT_EQ(c.TypesByLabel("Total cycles*"), (std::vector<uint32_t>{42000060}));
}

TEST(PcfReaderTest, CompssFile) {
  PcfDiagnostics diags;
  PcfCatalog c = Read("compss_cholesky/cholesky_autoparallel.pcf", &diags);
  EXPECT_EQ(diags.count, 0u) << diags.ToString();
  EXPECT_EQ(Str(c.EventValueLabel(8000000, 4)), "S3");
  EXPECT_EQ(Str(c.EventValueLabel(8000001, 56)), "Acces Processor: Cancel all tasks");
  EXPECT_EQ(c.gradient_color.size(), 15u);
  EXPECT_EQ(c.TypesByLabel("Runtime"), (std::vector<uint32_t>{8000001}));
}

TEST(PcfReaderTest, TabsAndTrailingBlanksInAFusedPcf) {
  PcfDiagnostics diags;
  PcfCatalog c =
      Read("bigdft_headeronly/bigdft.extrae.128.small.clustered.codeblocks.fused.pcf", &diags);
  EXPECT_EQ(diags.count, 0u) << diags.ToString();
  EXPECT_EQ(c.StateColor(1), (Rgb{0, 0, 255}));
  EXPECT_EQ(c.states_color[1].spelling.gap1, "\t");
  EXPECT_EQ(Str(c.EventTypeLabel(42001022)), "(PEVT_CYCLES) Total CPU Cycles");
}

TEST(PcfReaderTest, EveryRealFileParsesWithoutDiagnostics) {
  for (const char* file :
       {"bigdft_headeronly/bigdft.extrae.128.small.clustered.codeblocks.fused.pcf",
        "compss_cholesky/cholesky_autoparallel.pcf", "epoch/epoch_1proc.pcf",
        "epoch/epoch_2proc.pcf", "epoch/epoch_4proc.pcf", "omp/omp2.pcf",
        "profet/lulesh_7+1_with_uncores_sockets1+2.chop8.pcf", "profet/test1.pcf",
        "profet/test2.pcf", "profet/test3.pcf", "qsort_beo3/qsort_beo3.pcf"}) {
    SCOPED_TRACE(file);
    PcfDiagnostics diags;
    PcfCatalog c = Read(file, &diags);
    EXPECT_EQ(diags.count, 0u) << diags.ToString();
    EXPECT_FALSE(c.states.empty());
    EXPECT_FALSE(c.event_blocks.empty());
  }
}

}  // namespace
}  // namespace parallax::io
