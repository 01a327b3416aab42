#include "src/io/builder/trace_builder.h"

#include <algorithm>
#include <cstring>

#include "src/base/parallel.h"

namespace parallax::io {

TraceBuilder::TraceBuilder(model::TraceHeader header)
    : header_(std::move(header)), threads_(header_.processes.threads()) {}

void TraceBuilder::AddState(uint32_t thread, model::Time begin, model::Time end, uint32_t state, uint16_t cpu) {
  threads_[thread].states.push_back(State{begin, end, state, cpu});
}

void TraceBuilder::AddEvent(uint32_t thread, model::Time time, uint32_t type, int64_t value, uint16_t cpu) {
  threads_[thread].events.push_back(Event{time, value, type, cpu});
  ++event_records_;
}

void TraceBuilder::AddComm(const Comm& c) { comms_.push_back(c); }

PrvTrace TraceBuilder::Finish(Diagnostics diagnostics, uint64_t file_bytes, uint64_t lines) {
  PrvTrace out;
  out.store = store::TraceStore(threads_.size());
  model::Time end = header_.end_time;
  for (size_t t = 0; t < threads_.size(); ++t) {
    PerThread& in = threads_[t];
    std::stable_sort(in.states.begin(), in.states.end(),
                     [](const State& a, const State& b) { return a.begin < b.begin; });
    std::stable_sort(in.events.begin(), in.events.end(),
                     [](const Event& a, const Event& b) { return a.time < b.time; });
    store::ThreadRecords& tr = out.store.thread(model::ThreadIndex(static_cast<uint32_t>(t)));
    tr.states.Resize(in.states.size());
    for (size_t i = 0; i < in.states.size(); ++i) {
      const State& s = in.states[i];
      tr.states.begin[i] = s.begin;
      tr.states.end[i] = s.end;
      tr.states.state[i] = s.state;
      tr.states.cpu[i] = s.cpu;
      end = std::max(end, s.begin);
      if (s.end != model::kNoEnd) end = std::max(end, s.end);
    }
    tr.events.Resize(in.events.size());
    for (size_t i = 0; i < in.events.size(); ++i) {
      const Event& e = in.events[i];
      tr.events.time[i] = e.time;
      tr.events.type[i] = e.type;
      tr.events.value[i] = e.value;
      tr.events.cpu[i] = e.cpu;
      end = std::max(end, e.time);
    }
    in = PerThread{};
  }
  store::CommTable& ct = out.store.comms();
  ct.Resize(comms_.size());
  for (size_t i = 0; i < comms_.size(); ++i) {
    const Comm& c = comms_[i];
    ct.sender[i] = c.sender;
    ct.receiver[i] = c.receiver;
    ct.sender_cpu[i] = c.sender_cpu;
    ct.receiver_cpu[i] = c.receiver_cpu;
    ct.log_send[i] = c.log_send;
    ct.phy_send[i] = c.phy_send;
    ct.log_recv[i] = c.log_recv;
    ct.phy_recv[i] = c.phy_recv;
    ct.size[i] = c.size;
    ct.tag[i] = c.tag;
    end = std::max({end, c.log_recv, c.phy_recv});
  }
  comms_.clear();
  if (header_.end_time == 0) header_.end_time = end;
  out.store.set_end_time(end);
  store::BuildCommIndices(out.store, base::DefaultThreads());
  store::BuildCpuView(out.store, header_.resources.cpus(), base::DefaultThreads());
  out.header = std::move(header_);
  out.diagnostics = std::move(diagnostics);
  out.file_bytes = file_bytes;
  out.body_lines = lines;
  out.event_lines = event_records_;
  return out;
}

void StateNester::Boundary(uint32_t thread, int64_t t, std::optional<uint32_t> innermost) {
  Track& s = tracks_[thread];
  if (innermost && t > s.since) {
    if (s.pending_end == s.since && s.pending_state == *innermost) {
      s.pending_end = t;
    } else {
      Flush(thread);
      s.pending_begin = s.since, s.pending_end = t, s.pending_state = *innermost;
    }
  }
  s.since = t;
}

void StateNester::Flush(uint32_t thread) {
  Track& s = tracks_[thread];
  if (s.pending_end > s.pending_begin)
    b_.AddState(thread, static_cast<model::Time>(s.pending_begin), static_cast<model::Time>(s.pending_end), s.pending_state);
  s.pending_end = -1;
}

void SplitBlankFields(std::string_view line, std::vector<std::string_view>* out) {
  out->clear();
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  for (size_t i = 0; i < line.size();) {
    while (i < line.size() && blank(line[i])) ++i;
    size_t b = i;
    while (i < line.size() && !blank(line[i])) ++i;
    if (i > b) out->push_back(line.substr(b, i - b));
  }
}

int64_t NameTable::Id(std::string_view name) {
  auto it = ids_.find(name);
  if (it != ids_.end()) return it->second;
  int64_t id = next_++;
  ids_.emplace(std::string(name), id);
  entries_.emplace_back(id, std::string(name));
  return id;
}

void AddEventTypeLabel(model::PcfCatalog& pcf, uint32_t type, std::string label,
                       const std::vector<std::pair<int64_t, std::string>>& values) {
  model::PcfEventBlock block;
  model::PcfEventType t;
  t.type = type;
  t.label = std::move(label);
  block.types.push_back(std::move(t));
  for (const auto& [v, name] : values) {
    model::PcfEventValue pv;
    pv.value = static_cast<int32_t>(v);
    pv.label = name;
    block.values.push_back(std::move(pv));
  }
  block.values_line = !block.values.empty();
  pcf.event_blocks.push_back(std::move(block));
}

uint64_t LineCounter::LineOf(size_t offset) {
  offset = std::min(offset, text_.size());
  while (pos_ < offset) {
    const void* nl = std::memchr(text_.data() + pos_, '\n', offset - pos_);
    if (!nl) {
      pos_ = offset;
      break;
    }
    pos_ = static_cast<size_t>(static_cast<const char*>(nl) - text_.data()) + 1;
    line_start_ = pos_;
    ++line_;
  }
  return line_;
}

}  // namespace parallax::io
