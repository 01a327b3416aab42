#include "src/io/sddf/sddf_trace.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>

#include "src/base/input_buffer.h"
#include "src/io/pcf/pcf_reader.h"
#include "src/io/pcf/pcf_writer.h"
#include "src/io/prv/prv_header_parser.h"
#include "src/io/prv/prv_writer.h"
#include "src/io/row/row_reader.h"
#include "src/io/row/row_writer.h"
#include "src/store/block_reader.h"

namespace parallax::io {

namespace {

// ------------------------------------------------------------ the lossless descriptors

// Adds a diagnostic at a packet position: a line, or a byte offset for binary files.
void AddAt(Diagnostics& d, bool offsets, DiagKind kind, uint64_t where, std::string detail) {
  if (offsets) d.Add(kind, 0, 0, fmt::format("{} (byte offset {})", detail, where));
  else d.Add(kind, where, 0, detail);
}


constexpr std::string_view kModelName = "Parallax trace";

SddfField F(std::string name, SddfType type, uint32_t dims = 0) { return SddfField{std::move(name), type, dims, {}}; }

std::vector<SddfDescriptor> ParaverDescriptors() {
  using T = SddfType;
  std::vector<SddfDescriptor> d(4);
  d[0] = {1, std::string(kModelName), {{"description", "Paraver header line, .pcf and .row of the trace"}},
          {F("prv header", T::kChar, 1), F("pcf", T::kChar, 1), F("row", T::kChar, 1), F("unsigned value types", T::kLong, 1)}};
  d[1] = {2, "State", {{"description", "Paraver state record (1-based cpu, appl, task, thread; end -1 = open)"}},
          {F("cpu", T::kInt), F("appl", T::kInt), F("task", T::kInt), F("thread", T::kInt), F("begin time", T::kLong),
           F("end time", T::kLong), F("state", T::kInt)}};
  d[2] = {3, "Event", {{"description", "Paraver event (one type:value pair)"}},
          {F("cpu", T::kInt), F("appl", T::kInt), F("task", T::kInt), F("thread", T::kInt), F("time stamp", T::kLong),
           F("event type", T::kLong), F("event value", T::kLong)}};
  d[3] = {4, "Communication", {{"description", "Paraver communication"}},
          {F("send cpu", T::kInt), F("send appl", T::kInt), F("send task", T::kInt), F("send thread", T::kInt),
           F("logical send", T::kLong), F("physical send", T::kLong), F("receive cpu", T::kInt), F("receive appl", T::kInt),
           F("receive task", T::kInt), F("receive thread", T::kInt), F("logical receive", T::kLong),
           F("physical receive", T::kLong), F("size", T::kLong), F("tag", T::kLong)}};
  return d;
}

// Reads what WriteSddfTrace writes.
class LosslessReader {
 public:
  explicit LosslessReader(const std::string& file) : file_(file) {}
  void SetPositionsAreOffsets(bool offsets) { offsets_ = offsets; }

  Status Record(const SddfDescriptor& d, std::span<const SddfValue> v, uint64_t where, Diagnostics& diags) {
    auto ints_ok = [&](size_t n) {
      if (v.size() == n) return true;
      AddAt(diags, offsets_, DiagKind::kTooFewFields, where, fmt::format("record \"{}\" has {} fields, expected {}", d.name, v.size(), n));
      return false;
    };
    if (d.name == kModelName) {
      if (builder_) return Status::Error("a second \"Parallax trace\" record", Location{file_, where, 0});
      if (v.size() < 3) return Status::Error("the \"Parallax trace\" record lacks fields", Location{file_, where, 0});
      // The header line, then its communicator lines.
      std::string_view text = v[0].text;
      size_t nl = text.find('\n');
      auto header = ParsePrvHeader(text.substr(0, nl), file_);
      if (!header.ok()) return header.status();
      for (size_t i = 0; i < header->communicators.size(); ++i) {
        if (nl == std::string_view::npos)
          return Status::Error(fmt::format("the header announces {} communicators; {} are present", header->communicators.size(), i),
                               Location{file_, where, 0});
        text.remove_prefix(nl + 1);
        nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        if (Status s = CheckCommunicatorLine(line, file_, where); !s.ok()) return s;
        header->communicators[i] = std::string(line);
      }
      PcfDiagnostics pd;
      auto pcf = ParsePcf(v[1].text, file_, &pd);
      if (pcf.ok()) pcf_ = std::move(pcf.value());
      if (!v[2].text.empty()) {
        RowDiagnostics rd;
        auto row = ParseRow(v[2].text, file_, &rd);
        if (row.ok()) row_ = std::move(row.value());
      }
      if (v.size() > 3)
        for (int64_t t : v[3].ints) unsigned_types_.push_back(static_cast<uint32_t>(t));
      header_ = header.value();
      builder_ = std::make_unique<TraceBuilder>(header.value());
      return Status::Ok();
    }
    if (!builder_) return Status::Error(fmt::format("record \"{}\" before the \"Parallax trace\" record", d.name), Location{file_, where, 0});
    auto thread = [&](size_t at, uint32_t* out) {
      model::ThreadIndex t;
      auto appl = v[at + 1].AsInt(), task = v[at + 2].AsInt(), th = v[at + 3].AsInt();
      if (appl < 1 || task < 1 || th < 1 || appl > UINT32_MAX || task > UINT32_MAX || th > UINT32_MAX ||
          !header_.processes.FindThread(static_cast<uint32_t>(appl), static_cast<uint32_t>(task), static_cast<uint32_t>(th), &t)) {
        AddAt(diags, offsets_, DiagKind::kUnknownObject, where, fmt::format("thread {}.{}.{} is not in the header", appl, task, th));
        return false;
      }
      *out = t.value;
      return true;
    };
    auto time = [&](const SddfValue& x) { return static_cast<model::Time>(x.AsInt()); };
    auto cpu = [&](const SddfValue& x) { return static_cast<uint16_t>(x.AsInt()); };
    uint32_t th = 0, to = 0;
    if (d.name == "State") {
      if (!ints_ok(7) || !thread(0, &th)) return Status::Ok();
      builder_->AddState(th, time(v[4]), time(v[5]), static_cast<uint32_t>(v[6].AsInt()), cpu(v[0]));
    } else if (d.name == "Event") {
      if (!ints_ok(7) || !thread(0, &th)) return Status::Ok();
      builder_->AddEvent(th, time(v[4]), static_cast<uint32_t>(v[5].AsInt()), v[6].AsInt(), cpu(v[0]));
    } else if (d.name == "Communication") {
      if (!ints_ok(14) || !thread(0, &th) || !thread(6, &to)) return Status::Ok();
      TraceBuilder::Comm c;
      c.sender = th, c.receiver = to;
      c.sender_cpu = cpu(v[0]), c.receiver_cpu = cpu(v[6]);
      c.log_send = time(v[4]), c.phy_send = time(v[5]), c.log_recv = time(v[10]), c.phy_recv = time(v[11]);
      c.size = v[12].AsInt(), c.tag = v[13].AsInt();
      builder_->AddComm(c);
    } else {
      AddAt(diags, offsets_, DiagKind::kUnsupportedRecord, where, fmt::format("record \"{}\" in a Parallax SDDF trace", d.name));
    }
    return Status::Ok();
  }

  Result<ImportedTrace> Finish(Diagnostics diags, uint64_t bytes, uint64_t lines) {
    if (!builder_) return Status::Error("no \"Parallax trace\" record", Location{file_, 0, 0}, "the file is truncated");
    ImportedTrace out;
    out.format = "sddf";
    out.pcf = std::move(pcf_);
    out.row = std::move(row_);
    out.prv = builder_->Finish(std::move(diags), bytes, lines);
    out.prv.unsigned_value_types = std::move(unsigned_types_);
    return out;
  }

 private:
  const std::string& file_;
  bool offsets_ = false;
  model::TraceHeader header_;
  std::unique_ptr<TraceBuilder> builder_;
  model::PcfCatalog pcf_;
  std::optional<model::RowNames> row_;
  std::vector<uint32_t> unsigned_types_;
};

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// "Parallel Sections" and "parallel section" name the same state.
std::string StateKey(std::string_view x) {
  std::string l = Lower(x), out;
  size_t i = 0;
  while (i < l.size()) {
    size_t e = l.find(' ', i);
    if (e == std::string::npos) e = l.size();
    std::string_view w(l.data() + i, e - i);
    if (w.size() > 1 && w.back() == 's') w.remove_suffix(1);
    if (!w.empty()) {
      if (!out.empty()) out += ' ';
      out += w;
    }
    i = e + 1;
  }
  return out;
}

}  // namespace

// ------------------------------------------------------------ the convention for other files

struct SddfMapper::Impl {
  struct Desc {
    SddfDescriptor d;
    int time_field = -1, thread_field = -1;
    bool time_real = false;
    int state = 0;  // +1 begin, -1 end, 0 neither
    std::string state_key, state_label;
    uint64_t records = 0, line = 0;
  };
  struct Rec {
    int64_t thread_key;
    int64_t time;  // ns
    uint32_t desc;
    uint64_t line;
  };
  std::vector<Desc> descs;
  std::map<int32_t, uint32_t> by_tag;  // latest descriptor of each tag
  std::vector<Rec> recs;
  bool any_time = false;
  bool offsets = false;
  Diagnostics extra;
};

SddfMapper::SddfMapper() : impl_(std::make_unique<Impl>()) {}
SddfMapper::~SddfMapper() = default;

void SddfMapper::SetPositionsAreOffsets(bool offsets) { impl_->offsets = offsets; }

Status SddfMapper::OnDescriptor(const SddfDescriptor& d, uint64_t where) {
  Impl::Desc x;
  x.d = d;
  x.line = where;
  int time_weak = -1;
  static const char* kThreadWords[] = {"thread", "node", "processor", "process", "task", "rank"};
  for (const char* w : kThreadWords) {
    for (size_t i = 0; i < d.fields.size() && x.thread_field < 0; ++i) {
      const SddfField& f = d.fields[i];
      if (f.dims == 0 && !SddfIsReal(f.type) && f.type != SddfType::kChar && Lower(f.name).find(w) != std::string::npos)
        x.thread_field = static_cast<int>(i);
    }
  }
  for (size_t i = 0; i < d.fields.size(); ++i) {
    const SddfField& f = d.fields[i];
    if (f.dims != 0 || f.type == SddfType::kChar) continue;
    std::string l = Lower(f.name);
    if (l == "time stamp" || l == "timestamp" || l == "time" || l == "seconds") {
      x.time_field = static_cast<int>(i);
      break;
    }
    if (time_weak < 0 && l.find("time") != std::string::npos && l.find("delta") == std::string::npos) time_weak = static_cast<int>(i);
  }
  if (x.time_field < 0) x.time_field = time_weak;
  if (x.time_field >= 0) {
    x.time_real = SddfIsReal(d.fields[static_cast<size_t>(x.time_field)].type);
    impl_->any_time = true;
  }
  std::string l = Lower(d.name);
  if (l.rfind("begin ", 0) == 0) {
    x.state = 1;
    x.state_label = d.name.substr(6);
  } else if (l.rfind("end ", 0) == 0) {
    x.state = -1;
    x.state_label = d.name.substr(4);
  }
  if (x.state) x.state_key = StateKey(x.state_label);
  impl_->by_tag[d.tag] = static_cast<uint32_t>(impl_->descs.size());
  impl_->descs.push_back(std::move(x));
  return Status::Ok();
}

Status SddfMapper::OnRecord(const SddfDescriptor& d, std::span<const SddfValue> values, uint64_t where) {
  auto found = impl_->by_tag.find(d.tag);
  // The parser resolves every record to the latest descriptor of its tag; anything else would be
  // a bug, so guard the field positions rather than trust them.
  if (found == impl_->by_tag.end() || impl_->descs[found->second].d.fields.size() != values.size())
    return Status::Error(fmt::format("SDDF record \"{}\" does not match its descriptor #{}", d.name, d.tag));
  uint32_t di = found->second;
  Impl::Desc& x = impl_->descs[di];
  ++x.records;
  if (x.time_field < 0) return Status::Ok();
  const SddfValue& tv = values[static_cast<size_t>(x.time_field)];
  int64_t t = 0;
  if (x.time_real) {
    double s = tv.AsReal();
    if (!std::isfinite(s) || s < 0 || s > 9.0e9) {
      AddAt(impl_->extra, impl_->offsets, DiagKind::kNegativeTime, where, fmt::format("record \"{}\": time {} s is negative or out of range", d.name, s));
      return Status::Ok();
    }
    t = std::llround(s * 1e9);
  } else {
    t = tv.AsInt();
    if (t < 0) {
      AddAt(impl_->extra, impl_->offsets, DiagKind::kNegativeTime, where, fmt::format("record \"{}\": negative time {}", d.name, t));
      return Status::Ok();
    }
  }
  int64_t key = x.thread_field >= 0 ? values[static_cast<size_t>(x.thread_field)].AsInt() : 0;
  impl_->recs.push_back(Impl::Rec{key, t, di, where});
  return Status::Ok();
}

Result<ImportedTrace> SddfMapper::Finish(Diagnostics diags, const std::string& file, uint64_t bytes, uint64_t lines) {
  Impl& m = *impl_;
  diags.Merge(m.extra, 0);
  ImportedTrace out;
  out.format = "sddf";
  model::TraceHeader header;
  header.unit = model::TimeUnit::kNs;
  header.unit_suffix = "_ns";
  model::RowNames row;
  if (!m.any_time) {
    // Nothing to place in time: summarise the descriptors as labelled event types.
    header.processes.AddAppl({{1, 0}});
    TraceBuilder b(header);
    for (size_t i = 0; i < m.descs.size(); ++i) {
      const auto& x = m.descs[i];
      std::string fields;
      for (const auto& f : x.d.fields) fields += (fields.empty() ? "" : ", ") + f.name;
      auto type = static_cast<uint32_t>(kSddfSummaryTypeBase + i);
      AddEventTypeLabel(out.pcf, type, fmt::format("SDDF #{} \"{}\" ({}): {} records, no time field", x.d.tag, x.d.name, fields, x.records));
      b.AddEvent(0, 0, type, static_cast<int64_t>(x.records));
    }
    if (m.descs.empty())
      return Status::Error("no record descriptor in the SDDF file", Location{file, 0, 0}, "an SDDF file declares its records with #TAG: descriptors");
    diags.Add(DiagKind::kUnsupportedRecord, 0, 0, "no record descriptor has a time field: records are summarised, not placed in time");
    row.SetLabels(model::Level::kThread, {"SDDF file"});
    out.pcf.Finalize();
    out.row = std::move(row);
    out.prv = b.Finish(std::move(diags), bytes, lines);
    return out;
  }
  std::map<int64_t, uint32_t> threads;
  for (const auto& r : m.recs) threads[r.thread_key] = 0;
  if (threads.empty()) threads[0] = 0;
  std::vector<std::string> labels;
  std::string word = "thread";
  for (const auto& x : m.descs)
    if (x.thread_field >= 0) {
      word = x.d.fields[static_cast<size_t>(x.thread_field)].name;
      break;
    }
  uint32_t n = 0;
  for (auto& [k, id] : threads) {
    id = n++;
    labels.push_back(fmt::format("{} {}", word, k));
  }
  header.processes.AddAppl({{n, 0}});
  std::stable_sort(m.recs.begin(), m.recs.end(), [](const Impl::Rec& a, const Impl::Rec& b) { return a.time < b.time; });
  TraceBuilder b(header);
  NameTable states(1);
  struct Open {
    std::string key;
    uint32_t state;
    uint64_t line;
  };
  std::vector<std::vector<Open>> stacks(n);
  StateNester nester(b, n);
  auto boundary = [&](uint32_t th, int64_t t) {
    const auto& open = stacks[th];
    nester.Boundary(th, t, open.empty() ? std::nullopt : std::optional<uint32_t>(open.back().state));
  };
  int64_t end = 0;
  for (const auto& r : m.recs) end = std::max(end, r.time);
  for (const auto& r : m.recs) {
    uint32_t th = threads[r.thread_key];
    const auto& x = m.descs[r.desc];
    b.AddEvent(th, static_cast<model::Time>(r.time), kSddfRecordType, x.d.tag);
    if (x.state == 1) {
      boundary(th, r.time);
      stacks[th].push_back(Open{x.state_key, static_cast<uint32_t>(states.Id(x.state_label)), r.line});
    } else if (x.state == -1) {
      auto& open = stacks[th];
      size_t i = open.size();
      while (i > 0 && open[i - 1].key != x.state_key) --i;
      if (i == 0) {
        AddAt(diags, m.offsets, DiagKind::kUnmatchedEnd, r.line, fmt::format("\"{}\" with no open \"Begin {}\" on its thread", x.d.name, x.state_label));
        continue;
      }
      if (i != open.size()) AddAt(diags, m.offsets, DiagKind::kEndNotInnermost, r.line, fmt::format("\"{}\" closes a state with inner states open", x.d.name));
      boundary(th, r.time);
      open.erase(open.begin() + static_cast<ptrdiff_t>(i - 1));
    }
  }
  for (uint32_t th = 0; th < n; ++th) {
    for (const Open& o : stacks[th])
      AddAt(diags, m.offsets, DiagKind::kUnclosedBegin, o.line, fmt::format("state \"{}\" opened here is never ended: closed at the trace end", o.key));
    boundary(th, end);
    nester.Flush(th);
  }
  for (const auto& [id, name] : states.entries()) out.pcf.states.push_back(model::PcfLabel{static_cast<int32_t>(id), name, {}});
  std::vector<std::pair<int64_t, std::string>> names;
  for (const auto& [tag, di] : m.by_tag) names.emplace_back(tag, m.descs[di].d.name);
  AddEventTypeLabel(out.pcf, kSddfRecordType, "SDDF record (value = descriptor tag)", names);
  out.pcf.Finalize();
  row.SetLabels(model::Level::kThread, std::move(labels));
  out.row = std::move(row);
  out.prv = b.Finish(std::move(diags), bytes, lines);
  return out;
}

namespace {

// Picks the lossless reader for files Parallax wrote, the convention otherwise.
class Dispatch : public SddfHandler {
 public:
  Dispatch(const std::string& file, bool offsets) : lossless_(file) {
    lossless_.SetPositionsAreOffsets(offsets);
    mapper_.SetPositionsAreOffsets(offsets);
  }
  Status OnDescriptor(const SddfDescriptor& d, uint64_t where) override {
    if (mode_ == 0) mode_ = d.name == kModelName ? 1 : 2;
    return mode_ == 2 ? mapper_.OnDescriptor(d, where) : Status::Ok();
  }
  Status OnRecord(const SddfDescriptor& d, std::span<const SddfValue> v, uint64_t where) override {
    return mode_ == 1 ? lossless_.Record(d, v, where, diags_) : mapper_.OnRecord(d, v, where);
  }
  Result<ImportedTrace> Finish(Diagnostics diags, const std::string& file, uint64_t bytes, uint64_t lines) {
    diags.Merge(diags_, 0);
    if (mode_ == 1) return lossless_.Finish(std::move(diags), bytes, lines);
    return mapper_.Finish(std::move(diags), file, bytes, lines);
  }

 private:
  int mode_ = 0;
  LosslessReader lossless_;
  SddfMapper mapper_;
  Diagnostics diags_;
};

}  // namespace

Result<ImportedTrace> ParseSddfTrace(std::string_view bytes, const std::string& file) {
  Dispatch h(file, bytes.substr(0, 5) == "SDDFB" || bytes.substr(0, 5) == "SDDFb");
  Diagnostics diags;
  auto r = ParseSddf(bytes, file, h, diags);
  if (!r.ok()) return r.status();
  return h.Finish(std::move(diags), file, bytes.size(), r->lines);
}

Result<ImportedTrace> ReadSddfTrace(const std::string& path) {
  auto buf = base::InputBuffer::Open(path);
  if (!buf.ok()) return buf.status();
  return buf->Parse([&](std::string_view text) { return ParseSddfTrace(text, path); });
}

// ------------------------------------------------------------ writing

namespace {

bool WriteTrace(const TraceView& tv, SddfWriter& w) {
  const auto& pm = tv.header->processes;
  const auto& st = *tv.store;
  auto descs = ParaverDescriptors();
  if (!w.Attributes({{"generator", "Parallax"}, {"format", "Paraver trace as SDDF"}})) return false;
  for (const auto& d : descs)
    if (!w.Descriptor(d)) return false;
  std::vector<SddfValue> v(4);
  v[0].text = FormatPrvHeader(*tv.header);
  while (!v[0].text.empty() && (v[0].text.back() == '\n' || v[0].text.back() == '\r')) v[0].text.pop_back();
  if (tv.pcf) v[1].text = WritePcf(*tv.pcf);
  if (tv.row) v[2].text = WriteRow(*tv.row);
  for (int i = 0; i < 3; ++i) v[static_cast<size_t>(i)].shape = {static_cast<uint32_t>(v[static_cast<size_t>(i)].text.size())};
  if (tv.unsigned_value_types)
    for (uint32_t t : *tv.unsigned_value_types) v[3].ints.push_back(t);
  v[3].shape = {static_cast<uint32_t>(v[3].ints.size())};
  if (!w.Record(descs[0], v)) return false;
  int64_t f[14];
  auto who = [&](uint32_t thread, uint16_t cpu, int64_t* out) {
    const auto& th = pm.thread(model::ThreadIndex(thread));
    const auto& task = pm.task(th.task);
    out[0] = cpu;
    out[1] = task.appl.value + 1;
    out[2] = th.task.value - pm.appl(task.appl).first_task.value + 1;
    out[3] = th.number_in_task + 1;
  };
  for (uint32_t t = 0; t < pm.threads(); ++t) {
    // A block at a time, so a compact store is never decoded whole.
    const bool states_ok = store::ForEachRecord<store::StateColumns>(
        st, model::ThreadIndex(t), [&](const store::StateColumns& s, size_t i) {
          who(t, s.cpu[i], f);
          f[4] = static_cast<int64_t>(s.begin[i]);
          f[5] = s.end[i] == model::kNoEnd ? -1 : static_cast<int64_t>(s.end[i]);
          f[6] = s.state[i];
          return w.IntRecord(descs[1], std::span<const int64_t>(f, 7));
        });
    if (!states_ok) return false;
    const bool events_ok = store::ForEachRecord<store::EventColumns>(
        st, model::ThreadIndex(t), [&](const store::EventColumns& e, size_t i) {
          who(t, e.cpu[i], f);
          f[4] = static_cast<int64_t>(e.time[i]);
          f[5] = e.type[i];
          f[6] = e.value[i];
          return w.IntRecord(descs[2], std::span<const int64_t>(f, 7));
        });
    if (!events_ok) return false;
  }
  const auto& cm = st.comms();
  for (size_t i = 0; i < cm.rows(); ++i) {
    who(cm.sender[i], cm.sender_cpu[i], f);
    f[4] = static_cast<int64_t>(cm.log_send[i]);
    f[5] = static_cast<int64_t>(cm.phy_send[i]);
    who(cm.receiver[i], cm.receiver_cpu[i], f + 6);
    f[10] = static_cast<int64_t>(cm.log_recv[i]);
    f[11] = static_cast<int64_t>(cm.phy_recv[i]);
    f[12] = cm.size[i];
    f[13] = cm.tag[i];
    if (!w.IntRecord(descs[3], std::span<const int64_t>(f, 14))) return false;
  }
  return w.Finish();
}

}  // namespace

std::string WriteSddfTraceToString(const TraceView& trace, bool binary) {
  std::string out;
  SddfWriter w(SddfWriter::NativeForm(binary), [&](std::string_view s) {
    out.append(s);
    return true;
  });
  WriteTrace(trace, w);
  return out;
}

Status WriteSddfTrace(const TraceView& trace, const std::string& path, bool binary, bool overwrite) {
  auto out = AtomicOutput::Create(path, overwrite);
  if (!out.ok()) return out.status();
  AtomicOutput& o = **out;
  SddfWriter w(SddfWriter::NativeForm(binary), [&](std::string_view s) { return o.Write(s); });
  WriteTrace(trace, w);
  return o.Commit();
}

}  // namespace parallax::io
