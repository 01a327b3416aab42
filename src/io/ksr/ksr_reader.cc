#include "src/io/ksr/ksr_reader.h"

#include <fmt/format.h>

#include <deque>
#include <charconv>
#include <unordered_map>

#include "src/base/input_buffer.h"
#include "src/io/sddf/sddf.h"
#include "src/io/sddf/sddf_trace.h"

namespace parallax::io {

namespace {

// Event codes and names of the KSR example in the Pablo report (used for brief logs).
std::string_view KnownName(int64_t code) {
  switch (code) {
    case 1: return "BEGIN program";
    case 11: return "Begin serial";
    case 12: return "End serial";
    case 21: return "Begin Parallel Tiling";
    case 22: return "End Parallel Tiling";
    case 23: return "new tile";
    case 31: return "Begin Parallel Sections";
    case 32: return "End Parallel Section";
    case 41: return "Begin Parallel Region";
    case 42: return "End Parallel Region";
    case 99: return "END program";
    default: return {};
  }
}

bool Int(std::string_view s, int64_t* v) {
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2), base = 16;
  auto [e, ec] = std::from_chars(s.data(), s.data() + s.size(), *v, base);
  return !s.empty() && ec == std::errc() && e == s.data() + s.size();
}

// 1-based column of a field of `line`.
uint64_t Column(std::string_view line, std::string_view field) { return static_cast<uint64_t>(field.data() - line.data()) + 1; }

std::string_view FirstLine(std::string_view head) {
  size_t p = head.find_first_not_of(" \t\r\n");
  if (p == std::string_view::npos) return {};
  head.remove_prefix(p);
  return head.substr(0, head.find('\n'));
}

}  // namespace

bool LooksLikeKsrLog(std::string_view head) {
  std::string_view line = FirstLine(head);
  std::vector<std::string_view> t;
  SplitBlankFields(line, &t);
  int64_t v = 0;
  if (t.size() >= 6 && t[0] == "E") return Int(t[1], &v) && Int(t[2], &v) && Int(t[4], &v);
  return t.size() == 4 && t[0][0] != '-' && Int(t[0], &v) && Int(t[1], &v) && Int(t[2], &v) && Int(t[3], &v);
}

Result<uint64_t> ParseKsrLog(std::string_view text, const std::string& file, Diagnostics& diags,
                             const std::function<Status(const KsrEvent&)>& fn) {
  std::vector<std::string_view> t;
  uint64_t line_no = 0, events = 0;
  int64_t prev_time = 0;
  std::string brief_name;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    ++line_no;
    SplitBlankFields(line, &t);
    if (t.empty()) {
      diags.Count(DiagKind::kBlankLine);
      continue;
    }
    KsrEvent e;
    e.line = line_no;
    if (t[0] == "E") {
      if (t.size() < 6) {
        diags.Add(DiagKind::kTooFewFields, line_no, 0, "expected E TRACE_ID TIME DELTA EVENT NAME... DATA");
        continue;
      }
      size_t bad = 0;
      if (!Int(t[1], &e.thread)) bad = 1;
      else if (!Int(t[2], &e.time)) bad = 2;
      else if (!Int(t[3], &e.delta)) bad = 3;
      else if (!Int(t[4], &e.code)) bad = 4;
      else if (!Int(t.back(), &e.data)) bad = t.size() - 1;
      if (bad) {
        static const char* kWhat[] = {"", "trace id", "time", "delta time", "event code"};
        diags.Add(DiagKind::kSyntax, line_no, Column(line, t[bad]),
                  fmt::format("expected an integer {}, got \"{}\"", bad < 5 ? kWhat[bad] : "data (the last field)", t[bad]));
        continue;
      }
      size_t nb = Column(line, t[5]) - 1, ne = Column(line, t.back()) - 1;
      e.name = t.size() > 6 ? line.substr(nb, ne - nb) : std::string_view();
      while (!e.name.empty() && (e.name.back() == ' ' || e.name.back() == '\t')) e.name.remove_suffix(1);
      if (e.name.empty()) {
        diags.Add(DiagKind::kTooFewFields, line_no, nb + 1, "expected the event name between the event code and the data");
        continue;
      }
    } else {
      if (t.size() != 4) {
        diags.Add(t.size() < 4 ? DiagKind::kTooFewFields : DiagKind::kExtraFields, line_no, 0,
                  fmt::format("expected TRACE_ID TIME EVENT DATA (brief) or E TRACE_ID TIME DELTA EVENT NAME DATA (gist), found {} fields", t.size()));
        continue;
      }
      static const char* kWhat[] = {"trace id", "time", "event code", "data"};
      int64_t* dst[] = {&e.thread, &e.time, &e.code, &e.data};
      size_t bad = 4;
      for (size_t i = 0; i < 4 && bad == 4; ++i)
        if (!Int(t[i], dst[i])) bad = i;
      if (bad < 4) {
        diags.Add(DiagKind::kSyntax, line_no, Column(line, t[bad]), fmt::format("expected an integer {}, got \"{}\"", kWhat[bad], t[bad]));
        continue;
      }
      e.delta = e.time - prev_time;
      e.name = KnownName(e.code);
      if (e.name.empty()) {
        brief_name = fmt::format("event {}", e.code);
        e.name = brief_name;
      }
    }
    if (e.thread < 0 || e.thread > INT32_MAX) {
      diags.Add(DiagKind::kUnknownObject, line_no, Column(line, t[0]), fmt::format("trace id {} out of range", e.thread));
      continue;
    }
    if (e.time < 0) {
      diags.Add(DiagKind::kNegativeTime, line_no, 0, fmt::format("negative time {}", e.time));
      continue;
    }
    prev_time = e.time;
    ++events;
    if (Status s = fn(e); !s.ok()) return s;
  }
  if (events == 0)
    return Status::Error("no KSR event in the file", Location{file, 0, 0},
                         "gist lines are `E TRACE_ID TIME DELTA EVENT NAME DATA`, brief lines `TRACE_ID TIME EVENT DATA`");
  return line_no;
}

namespace {

// One descriptor per event name, tagged with the event's code, in order of first appearance.
class KsrDescriptors {
 public:
  const SddfDescriptor* Find(std::string_view name) const {
    auto f = index_.find(std::string(name));
    return f == index_.end() ? nullptr : &descs_[f->second];
  }
  const SddfDescriptor& Get(const KsrEvent& e, bool* created) {
    auto f = index_.find(std::string(e.name));
    *created = f == index_.end();
    if (!*created) return descs_[f->second];
    SddfDescriptor d;
    d.tag = static_cast<int32_t>(e.code);
    d.name = std::string(e.name);
    for (const char* n : {"thread id", "time stamp", "delta time", "event id", "data"})
      d.fields.push_back(SddfField{n, SddfType::kInt, 0, {}});
    index_.emplace(d.name, descs_.size());
    descs_.push_back(std::move(d));
    return descs_.back();
  }
  const std::deque<SddfDescriptor>& all() const { return descs_; }

 private:
  std::deque<SddfDescriptor> descs_;  // references stay valid as it grows
  std::unordered_map<std::string, size_t> index_;
};

}  // namespace

Result<ImportedTrace> ParseKsrTrace(std::string_view text, const std::string& file) {
  Diagnostics diags;
  SddfMapper mapper;
  KsrDescriptors descs;
  std::vector<SddfValue> v(5);
  auto lines = ParseKsrLog(text, file, diags, [&](const KsrEvent& e) -> Status {
    bool created = false;
    const SddfDescriptor& d = descs.Get(e, &created);
    if (created) {
      if (Status s = mapper.OnDescriptor(d, e.line); !s.ok()) return s;
    }
    int64_t f[5] = {e.thread, e.time, e.delta, e.code, e.data};
    for (size_t i = 0; i < 5; ++i) v[i].ints.assign(1, f[i]);
    return mapper.OnRecord(d, v, e.line);
  });
  if (!lines.ok()) return lines.status();
  auto out = mapper.Finish(std::move(diags), file, text.size(), *lines);
  if (out.ok()) out->format = "ksr";
  return out;
}

Result<ImportedTrace> ReadKsrTrace(const std::string& path) {
  auto buf = base::InputBuffer::Open(path);
  if (!buf.ok()) return buf.status();
  return buf->Parse([&](std::string_view text) { return ParseKsrTrace(text, path); });
}

namespace {

// Two passes, as ksr2sddf's output shows every descriptor before the data records.
Status WriteKsr(std::string_view text, const std::string& file, SddfWriter& w, Diagnostics& diags) {
  KsrDescriptors descs;
  Diagnostics first_pass;
  auto r = ParseKsrLog(text, file, first_pass, [&](const KsrEvent& e) {
    bool created = false;
    descs.Get(e, &created);
    return Status::Ok();
  });
  if (!r.ok()) return r.status();
  for (const auto& d : descs.all())
    if (!w.Descriptor(d)) return Status::Error("write failed", Location{file, 0, 0});
  auto r2 = ParseKsrLog(text, file, diags, [&](const KsrEvent& e) -> Status {
    const int64_t f[5] = {e.thread, e.time, e.delta, e.code, e.data};
    if (!w.IntRecord(*descs.Find(e.name), f)) return Status::Error("write failed", Location{file, 0, 0});
    return Status::Ok();
  });
  if (!r2.ok()) return r2.status();
  if (!w.Finish()) return Status::Error("write failed", Location{file, 0, 0});
  return Status::Ok();
}

}  // namespace

Result<std::string> KsrToSddf(std::string_view text, const std::string& file, bool binary, Diagnostics* diags) {
  std::string out;
  Diagnostics local;
  SddfWriter w(SddfWriter::NativeForm(binary), [&](std::string_view s) {
    out.append(s);
    return true;
  });
  if (Status s = WriteKsr(text, file, w, diags ? *diags : local); !s.ok()) return s;
  return out;
}

Status ConvertKsrToSddf(const std::string& in, const std::string& out, bool binary, bool overwrite) {
  auto buf = base::InputBuffer::Open(in);
  if (!buf.ok()) return buf.status();
  auto o = AtomicOutput::Create(out, overwrite);
  if (!o.ok()) return o.status();
  AtomicOutput& f = **o;
  SddfWriter w(SddfWriter::NativeForm(binary), [&](std::string_view s) { return f.Write(s); });
  Diagnostics diags;
  if (Status s = buf->Parse([&](std::string_view t) { return WriteKsr(t, in, w, diags); }); !s.ok()) return s;
  return f.Commit();
}

}  // namespace parallax::io
