// paramedir's event translator (-et REFERENCE): renumbers the event values of a trace so that
// they mean what the reference trace's .pcf says. A value whose label the reference gives to
// another value of the same type takes that value; a value the reference uses for another
// label moves to a free value; the rest stay. The body is streamed; only event lines with a
// translated value are rewritten.

#include <algorithm>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "include/parallax/tools.h"
#include "src/io/pcf/pcf_reader.h"
#include "src/io/pcf/pcf_writer.h"
#include "src/io/prv/prv_writer.h"
#include "src/tools/output_file.h"
#include "src/tools/trace_stream.h"

namespace parallax {

namespace {

using ValueMap = std::unordered_map<int64_t, int64_t>;

struct Translation {
  std::unordered_map<uint64_t, ValueMap> values;  // type -> source value -> reference value
  model::PcfCatalog pcf;                          // the reference's, plus what the source adds
  std::vector<std::string> changes;               // "type T: v -> w (label)"
};

Result<model::PcfCatalog> ReadCompanionPcf(const std::string& trace, const std::string& role) {
  bool absent = false;
  std::string path = TraceCompanion(trace, ".pcf");
  auto pcf = io::ReadPcf(path, nullptr, &absent);
  if (absent)
    return Status::Error("the " + role + " trace has no .pcf (" + path + ")", {trace},
                         "the translation matches event value labels of the two .pcf files");
  return pcf;
}

// Every (type, value, label) of a catalog, as its lookups resolve them.
std::vector<std::pair<std::pair<uint32_t, int32_t>, std::string>> ValueLabels(
    const model::PcfCatalog& c) {
  std::set<std::pair<uint32_t, int32_t>> seen;
  std::vector<std::pair<std::pair<uint32_t, int32_t>, std::string>> out;
  for (const model::PcfEventBlock& b : c.event_blocks)
    for (const model::PcfEventType& t : b.types)
      for (const model::PcfEventValue& v : b.values)
        if (seen.insert({t.type, v.value}).second)
          if (const std::string* l = c.EventValueLabel(t.type, v.value))
            out.push_back({{t.type, v.value}, *l});
  return out;
}

Translation Build(const model::PcfCatalog& source, const model::PcfCatalog& reference) {
  Translation tr;
  tr.pcf = reference;
  tr.pcf.layout.clear();
  // The states are the input's business: those the reference lacks are kept.
  for (const model::PcfLabel& st : source.states)
    if (!reference.StateLabel(st.number)) tr.pcf.states.push_back(st);
  for (const model::PcfColor& c : source.states_color)
    if (!reference.StateColor(c.value)) tr.pcf.states_color.push_back(c);
  // Per type of the reference: label -> value, and the largest value in use.
  std::unordered_map<uint32_t, std::unordered_map<std::string, int32_t>> by_label;
  std::unordered_map<uint32_t, int64_t> top;
  for (const auto& [key, label] : ValueLabels(reference)) {
    by_label[key.first].emplace(label, key.second);
    top[key.first] = std::max<int64_t>(top[key.first], key.second);
  }
  const auto src = ValueLabels(source);
  for (const auto& [key, label] : src) top[key.first] = std::max<int64_t>(top[key.first], key.second);
  std::unordered_map<uint32_t, std::vector<model::PcfEventValue>> added;
  for (const auto& [key, label] : src) {
    const auto [type, value] = key;
    const std::string* ref = reference.EventValueLabel(type, value);
    if (ref && *ref == label) continue;
    int64_t to = value;
    auto labels = by_label.find(type);
    auto same = labels == by_label.end() ? nullptr : &labels->second;
    if (same && same->count(label)) {
      to = same->at(label);
    } else if (ref) {
      to = ++top[type];  // the reference uses this value for something else
    }
    if (to != value) {
      tr.values[type][value] = to;
      tr.changes.push_back("type " + std::to_string(type) + ": " + std::to_string(value) +
                           " -> " + std::to_string(to) + " (" + label + ")");
    }
    if (!same || !same->count(label)) {
      model::PcfEventValue v;
      v.value = static_cast<int32_t>(to);
      v.label = label;
      added[type].push_back(v);
    }
  }
  // What the reference lacks: a block per type (with the type's label, the reference's when
  // it has one).
  std::vector<uint32_t> types;
  for (const auto& [type, values] : added) types.push_back(type);
  for (uint32_t t : source.EventTypes())
    if (!reference.EventTypeLabel(t) && !added.count(t)) types.push_back(t);
  std::sort(types.begin(), types.end());
  for (uint32_t type : types) {
    model::PcfEventBlock b;
    model::PcfEventType t;
    t.type = type;
    const std::string* l = reference.EventTypeLabel(type);
    if (!l) l = source.EventTypeLabel(type);
    t.label = l ? *l : "";
    b.types.push_back(t);
    b.precision = source.Precision(type) ? std::optional<int32_t>(source.Precision(type)) : std::nullopt;
    auto a = added.find(type);
    if (a != added.end()) {
      b.values = a->second;
      b.values_line = true;
    }
    tr.pcf.event_blocks.push_back(std::move(b));
  }
  tr.pcf.Finalize();
  return tr;
}

class TranslateEngine {
 public:
  static constexpr bool kGlobalOps = true;  // ProcessRecords passes type-4 lines as kind '4'

  TranslateEngine(const Translation& tr, tools::OutputFile* out) : tr_(tr), out_(out) {}

  void Process(const tools::PrvRecord& r) {
    if (r.kind == 'o') {
      if (!r.line.empty()) ++others_;
      return;
    }
    ++written_;
    // Type-4 global operations carry no event value: copied as read, as Paraver's translator
    // (its trace filter) copies them.
    if (r.kind != '2' || !Touches(r)) {
      out_->Text(r.line);
      out_->Char('\n');
      return;
    }
    ++rewritten_;
    out_->Text(r.line.substr(0, r.pairs_at));
    for (size_t i = 0; i < r.events.size(); ++i) {
      const tools::EventPair& p = r.events[i];
      if (i) out_->Char(':');
      out_->Num(p.type);
      out_->Char(':');
      auto t = tr_.values.find(p.type);
      auto v = t == tr_.values.end() ? ValueMap::const_iterator() : t->second.find(p.value);
      if (t != tr_.values.end() && v != t->second.end()) out_->Num(v->second);
      else out_->Text(p.value_text);
    }
    out_->Char('\n');
  }
  uint64_t written() const { return written_; }
  uint64_t rewritten() const { return rewritten_; }
  uint64_t others() const { return others_; }

 private:
  bool Touches(const tools::PrvRecord& r) const {
    for (const tools::EventPair& p : r.events) {
      auto t = tr_.values.find(p.type);
      if (t != tr_.values.end() && t->second.count(p.value)) return true;
    }
    return false;
  }

  const Translation& tr_;
  tools::OutputFile* out_;
  uint64_t written_ = 0, rewritten_ = 0, others_ = 0;
};

}  // namespace

Result<ToolReport> TranslateEventsTrace(const ToolRun& run, const TranslateOptions& options) {
  Status s = tools::CheckOutputs(run);
  if (!s.ok()) return s;
  auto source = ReadCompanionPcf(run.input, "input");
  if (!source.ok()) return source.status();
  auto reference = ReadCompanionPcf(options.reference, "reference");
  if (!reference.ok()) return reference.status();
  const Translation tr = Build(source.value(), reference.value());

  auto opened = tools::OpenInputTrace(run.input);
  if (!opened.ok()) return opened.status();
  tools::InputTrace in = std::move(opened).value();
  auto out = tools::CreateTraceOutput(run);
  if (!out.ok()) return out.status();
  out.value()->WriteBehind();
  auto pcf_out = tools::OutputFile::Create(TraceCompanion(run.output, ".pcf"), run.force);
  if (!pcf_out.ok()) return pcf_out.status();
  pcf_out.value()->Text(io::WritePcf(tr.pcf));
  out.value()->Text(io::FormatPrvHeader(in.header));
  TranslateEngine engine(tr, out.value().get());
  ToolReport report;
  s = tools::ProcessRecords(run, in, engine, report);
  if (!s.ok()) return s;
  report.output_records = engine.written();
  report.output_bytes = out.value()->bytes_written();
  s = out.value()->Commit();
  if (s.ok()) s = pcf_out.value()->Commit();
  bool copied = false;
  if (s.ok())
    s = tools::CopyCompanion(TraceCompanion(run.input, ".row"), TraceCompanion(run.output, ".row"),
                             run.force, &copied);
  if (!s.ok()) return s;
  if (tr.changes.empty()) {
    report.notes.push_back("the .pcf files agree: no event value needed a translation");
  } else {
    std::string list;
    for (size_t i = 0; i < tr.changes.size() && i < 10; ++i) list += (i ? "; " : "") + tr.changes[i];
    if (tr.changes.size() > 10) list += "; and " + std::to_string(tr.changes.size() - 10) + " more";
    report.notes.push_back(std::to_string(tr.changes.size()) + " event values translated (" + list +
                           "), " + std::to_string(engine.rewritten()) + " event lines rewritten");
  }
  if (engine.others()) report.notes.push_back(tools::SkippedLinesNote(engine.others()));
  return report;
}

}  // namespace parallax
