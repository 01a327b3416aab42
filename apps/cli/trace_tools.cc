#include "apps/cli/trace_tools.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>

#include "apps/cli/progress.h"

namespace parallax::cli {

namespace {

bool Exists(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0;
}

const char* Suffix(ToolStep::Kind kind) {
  switch (kind) {
    case ToolStep::Kind::kCut:
      return ".chop";
    case ToolStep::Kind::kFilter:
      return ".filter";
    case ToolStep::Kind::kSoftCounters:
      return ".sc";
    case ToolStep::Kind::kShift:
      return ".shift";
    case ToolStep::Kind::kTranslate:
      return ".translated";
  }
  return ".out";
}

const char* Verb(ToolStep::Kind kind) {
  switch (kind) {
    case ToolStep::Kind::kCut:
      return "cutting";
    case ToolStep::Kind::kFilter:
      return "filtering";
    case ToolStep::Kind::kSoftCounters:
      return "counting";
    case ToolStep::Kind::kShift:
      return "shifting";
    case ToolStep::Kind::kTranslate:
      return "translating";
  }
  return "processing";
}

void RemoveTrace(const std::string& prv) {
  unlink(prv.c_str());
  unlink(TraceCompanion(prv, ".pcf").c_str());
  unlink(TraceCompanion(prv, ".row").c_str());
}

}  // namespace

std::string DefaultToolOutput(const std::string& input, ToolStep::Kind kind) {
  std::string base = TraceCompanion(input, "");
  for (int n = 1;; ++n) {
    std::string name = base + Suffix(kind) + std::to_string(n) + ".prv";
    if (!Exists(name)) return name;
  }
}

int RunToolChain(const std::string& prog, const std::string& input,
                 const std::vector<ToolStep>& steps, const std::string& output, bool force,
                 std::string* written, bool paramedir_output) {
  std::string current = input;
  std::vector<std::string> temporaries;
  int status = 0;
  for (size_t i = 0; i < steps.size(); ++i) {
    const ToolStep& step = steps[i];
    bool last = i + 1 == steps.size();
    ToolRun run;
    run.input = current;
    run.force = force;
    if (last) {
      run.output = output.empty() ? DefaultToolOutput(current, step.kind) : output;
      run.paramedir_output = paramedir_output;
    } else {
      run.output = DefaultToolOutput(output.empty() ? current : output, step.kind);
      temporaries.push_back(run.output);
    }
    ProgressBar bar(Verb(step.kind));
    run.progress = [&bar](uint64_t d, uint64_t t) { bar.Update(d, t); };
    Result<ToolReport> report = Status::Ok();
    switch (step.kind) {
      case ToolStep::Kind::kCut:
        report = CutTrace(run, step.cut);
        break;
      case ToolStep::Kind::kFilter:
        report = FilterTrace(run, step.filter);
        break;
      case ToolStep::Kind::kSoftCounters:
        report = SoftwareCountersTrace(run, step.softcounters);
        break;
      case ToolStep::Kind::kShift:
        report = ShiftTrace(run, step.shift);
        break;
      case ToolStep::Kind::kTranslate:
        report = TranslateEventsTrace(run, step.translate);
        break;
    }
    if (!report.ok()) {
      std::fprintf(stderr, "%s: %s\n", prog.c_str(), report.status().ToString().c_str());
      status = 1;
      break;
    }
    for (const std::string& note : report.value().notes)
      std::fprintf(stderr, "%s: warning: %s\n", prog.c_str(), note.c_str());
    current = run.output;
    if (last) *written = run.output;
  }
  for (const std::string& t : temporaries) RemoveTrace(t);
  return status;
}

}  // namespace parallax::cli

namespace parallax::cli {

namespace {

bool HasSuffix(const std::string& s, const std::string& suffix) {
  return s.size() > suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

const char* SectionName(ToolStep::Kind kind) {
  switch (kind) {
    case ToolStep::Kind::kCut:
      return "<cutter>";
    case ToolStep::Kind::kFilter:
      return "<filter>";
    case ToolStep::Kind::kSoftCounters:
      return "<software_counters>";
    case ToolStep::Kind::kShift:
    case ToolStep::Kind::kTranslate:
      return "";
  }
  return "";
}

}  // namespace

int RunParamedirTools(const std::vector<std::string>& args, const std::vector<ToolStep>& order,
                      const std::string& output_name, bool force,
                      std::vector<std::string>* remaining) {
  const std::string prog = "paramedir";
  std::string trace, xml;
  std::vector<std::string> cfg_part;
  for (const std::string& s : args) {
    if (trace.empty() && (HasSuffix(s, ".prv") || HasSuffix(s, ".prv.gz"))) {
      trace = s;
    } else if (HasSuffix(s, ".xml")) {
      if (!xml.empty()) {
        std::fprintf(stderr,
                     "%s: error: two parameter files (%s and %s)\n  hint: give one .xml with every "
                     "section\n",
                     prog.c_str(), xml.c_str(), s.c_str());
        return 2;
      }
      xml = s;
    } else {
      cfg_part.push_back(s);
    }
  }
  if (trace.empty()) {
    std::fprintf(stderr, "%s: error: no trace (.prv or .prv.gz) among the arguments\n",
                 prog.c_str());
    return 2;
  }
  bool needs_xml = false;
  for (const ToolStep& step : order)
    needs_xml = needs_xml || (step.kind != ToolStep::Kind::kShift && !step.from_command_line);
  if (xml.empty() && needs_xml) {
    std::fprintf(stderr, "%s: error: -c/-f/-s need a parameter file (.xml)\n", prog.c_str());
    return 2;
  }
  if (order.empty()) {
    std::fprintf(stderr,
                 "%s: error: %s given without a tool\n  hint: add -c (cutter), -f (filter) or -s "
                 "(software counters)\n",
                 prog.c_str(), xml.c_str());
    return 2;
  }
  Result<std::vector<ToolStep>> parsed = std::vector<ToolStep>();
  if (!xml.empty()) parsed = ReadToolXml(xml);
  if (!parsed.ok()) {
    std::fprintf(stderr, "%s: %s\n", prog.c_str(), parsed.status().ToString().c_str());
    return 1;
  }
  std::vector<ToolStep> steps;
  for (const ToolStep& given : order) {
    ToolStep::Kind kind = given.kind;
    if (kind == ToolStep::Kind::kShift || given.from_command_line) {
      steps.push_back(given);
      continue;
    }
    const ToolStep* found = nullptr;
    for (const ToolStep& s : parsed.value())
      if (s.kind == kind) found = &s;
    if (found == nullptr) {
      std::fprintf(stderr, "%s: %s: error: no %s section for the tool asked on the command line\n",
                   prog.c_str(), xml.c_str(), SectionName(kind));
      return 1;
    }
    steps.push_back(*found);
  }
  std::string written;
  int status = RunToolChain(prog, trace, steps, output_name, force, &written, true);
  if (status != 0) return status;
  remaining->clear();
  if (!cfg_part.empty()) {
    remaining->push_back(written);
    remaining->insert(remaining->end(), cfg_part.begin(), cfg_part.end());
  }
  return 0;
}

}  // namespace parallax::cli
