// Writer of trace-event JSON (Object format). Timestamps are microseconds printed exactly from
// integer trace times (ns traces get three decimals). Output is produced through a bounded
// buffer flushed to the file, so memory does not grow with the trace.

#include <fmt/format.h>

#include <cstring>
#include <nlohmann/json.hpp>

#include "src/io/json/json_trace.h"
#include "src/io/pcf/pcf_writer.h"
#include "src/io/row/row_writer.h"
#include "src/io/text_file.h"
#include "src/store/block_reader.h"

namespace parallax::io {

namespace {

// Output sink: a string (tests) or a file (through AtomicOutput) flushed every MB.
class Sink {
 public:
  explicit Sink(std::string* str) : str_(str) {}
  explicit Sink(AtomicOutput* file) : file_(file) {}
  fmt::memory_buffer& buf() { return buf_; }
  bool MaybeFlush() { return buf_.size() < (1u << 20) || Flush(); }
  bool Flush() {
    if (str_) {
      str_->append(buf_.data(), buf_.size());
    } else if (!file_->Write(std::string_view(buf_.data(), buf_.size()))) {
      return false;
    }
    buf_.clear();
    return true;
  }

 private:
  std::string* str_ = nullptr;
  AtomicOutput* file_ = nullptr;
  fmt::memory_buffer buf_;
};

// Trace time -> microseconds, exactly.
struct UsFormat {
  model::TimeUnit unit;
  void Append(fmt::memory_buffer& b, model::Time t) const {
    switch (unit) {
      case model::TimeUnit::kNs: fmt::format_to(std::back_inserter(b), "{}.{:03}", t / 1000, t % 1000); break;
      case model::TimeUnit::kMs: fmt::format_to(std::back_inserter(b), "{}000", t); break;
      default: fmt::format_to(std::back_inserter(b), "{}", t); break;
    }
  }
};

std::string Quoted(std::string_view s) { return nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

bool WriteAll(const TraceView& tv, Sink& out) {
  const auto& h = *tv.header;
  const auto& st = *tv.store;
  const auto& pm = h.processes;
  UsFormat us{h.unit == model::TimeUnit::kNs || h.unit == model::TimeUnit::kMs ? h.unit : model::TimeUnit::kUs};
  nlohmann::json pax;
  pax["unit"] = std::string(model::TimeUnitName(us.unit));
  pax["unit_suffix"] = h.unit_suffix;
  pax["date"] = h.date;
  pax["end_time"] = h.end_time;
  nlohmann::json appls = nlohmann::json::array();
  for (uint32_t a = 0; a < pm.appls(); ++a) {
    nlohmann::json tasks = nlohmann::json::array();
    const auto& ai = pm.appl(model::ApplIndex(a));
    for (uint32_t t = 0; t < ai.tasks; ++t) {
      const auto& ti = pm.task(model::TaskIndex(ai.first_task.value + t));
      tasks.push_back({ti.threads, ti.node});
    }
    appls.push_back(tasks);
  }
  pax["appls"] = appls;
  pax["cpus_per_node"] = h.resources.cpus_per_node();
  pax["communicators"] = h.communicators;
  pax["spelling"] = {{"space_before_date", h.space_before_date}, {"resources_bare", h.resources_bare},
                     {"appl_separator", std::string(1, h.appl_separator)}, {"has_comm_count", h.has_comm_count}};
  if (tv.unsigned_value_types) pax["unsigned_value_types"] = *tv.unsigned_value_types;
  if (tv.pcf) pax["pcf"] = WritePcf(*tv.pcf);
  if (tv.row) pax["row"] = WriteRow(*tv.row);
  auto& b = out.buf();
  auto it = std::back_inserter(b);
  fmt::format_to(it, "{{\"displayTimeUnit\":\"ns\",\"otherData\":{{\"parallax\":{}}},\n\"traceEvents\":[\n",
                 pax.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  bool first = true;
  auto sep = [&] {
    if (!first) fmt::format_to(it, ",\n");
    first = false;
  };
  auto label_or = [](const std::string* l, std::string fallback) { return l ? *l : fallback; };
  // Names of tasks and threads, so Perfetto's tracks read like Paraver's rows.
  for (uint32_t t = 0; t < pm.threads(); ++t) {
    const auto& th = pm.thread(model::ThreadIndex(t));
    if (th.number_in_task == 0) {
      const std::string* l = tv.row ? tv.row->Label(model::Level::kTask, th.task.value) : nullptr;
      sep();
      fmt::format_to(it, R"({{"ph":"M","name":"process_name","pid":{},"tid":1,"args":{{"name":{}}}}})",
                     th.task.value + 1, Quoted(label_or(l, model::TaskName(pm, th.task))));
    }
    const std::string* l = tv.row ? tv.row->Label(model::Level::kThread, t) : nullptr;
    sep();
    fmt::format_to(it, R"({{"ph":"M","name":"thread_name","pid":{},"tid":{},"args":{{"name":{}}}}})",
                   th.task.value + 1, th.number_in_task + 1,
                   Quoted(label_or(l, model::ThreadName(pm, model::ThreadIndex(t)))));
  }
  std::unordered_map<uint32_t, std::string> state_names, type_names;
  auto state_name = [&](uint32_t s) -> const std::string& {
    auto f = state_names.find(s);
    if (f != state_names.end()) return f->second;
    const std::string* l = tv.pcf ? tv.pcf->StateLabel(s) : nullptr;
    return state_names.emplace(s, Quoted(l ? *l : fmt::format("State {}", s))).first->second;
  };
  auto type_name = [&](uint32_t ty) -> const std::string& {
    auto f = type_names.find(ty);
    if (f != type_names.end()) return f->second;
    const std::string* l = tv.pcf ? tv.pcf->EventTypeLabel(ty) : nullptr;
    return type_names.emplace(ty, Quoted(l ? *l : fmt::format("Event type {}", ty))).first->second;
  };
  for (uint32_t t = 0; t < pm.threads(); ++t) {
    const auto& th = pm.thread(model::ThreadIndex(t));
    uint32_t pid = th.task.value + 1, tid = th.number_in_task + 1;
    // A block at a time, so a compact store is never decoded whole.
    const bool states_ok = store::ForEachRecord<store::StateColumns>(
        st, model::ThreadIndex(t), [&](const store::StateColumns& s, size_t i) {
          model::Time begin = s.begin[i], end = s.end[i];
          bool open = end == model::kNoEnd;
          if (open) end = std::max(begin, st.end_time());
          sep();
          fmt::format_to(it, R"({{"ph":"X","pid":{},"tid":{},"name":{},"ts":)", pid, tid, state_name(s.state[i]));
          us.Append(b, begin);
          fmt::format_to(it, R"(,"dur":)");
          us.Append(b, end - begin);
          fmt::format_to(it, R"(,"args":{{"state":{},"cpu":{}{}}}}})", s.state[i], s.cpu[i],
                         open ? ",\"open\":1" : "");
          return out.MaybeFlush();
        });
    if (!states_ok) return false;
    const bool events_ok = store::ForEachRecord<store::EventColumns>(
        st, model::ThreadIndex(t), [&](const store::EventColumns& e, size_t i) {
          sep();
          fmt::format_to(it, R"({{"ph":"i","s":"t","pid":{},"tid":{},"name":{},"ts":)", pid, tid,
                         type_name(e.type[i]));
          us.Append(b, e.time[i]);
          fmt::format_to(it, R"(,"args":{{"type":{},"value":{},"cpu":{}}}}})", e.type[i], e.value[i], e.cpu[i]);
          return out.MaybeFlush();
        });
    if (!events_ok) return false;
  }
  const auto& cm = st.comms();
  for (size_t i = 0; i < cm.rows(); ++i) {
    const auto& s = pm.thread(model::ThreadIndex(cm.sender[i]));
    const auto& r = pm.thread(model::ThreadIndex(cm.receiver[i]));
    sep();
    fmt::format_to(it, R"({{"ph":"s","cat":"comm","name":"communication","id":{},"pid":{},"tid":{},"ts":)", i,
                   s.task.value + 1, s.number_in_task + 1);
    us.Append(b, cm.log_send[i]);
    fmt::format_to(it, R"(,"args":{{"size":{},"tag":{},"phy":{},"cpu":{}}}}})", cm.size[i], cm.tag[i], cm.phy_send[i],
                   cm.sender_cpu[i]);
    sep();
    fmt::format_to(it, R"({{"ph":"f","bp":"e","cat":"comm","name":"communication","id":{},"pid":{},"tid":{},"ts":)", i,
                   r.task.value + 1, r.number_in_task + 1);
    us.Append(b, cm.log_recv[i]);
    fmt::format_to(it, R"(,"args":{{"size":{},"tag":{},"phy":{},"cpu":{}}}}})", cm.size[i], cm.tag[i], cm.phy_recv[i],
                   cm.receiver_cpu[i]);
    if (!out.MaybeFlush()) return false;
  }
  fmt::format_to(it, "\n]}}\n");
  return out.Flush();
}

}  // namespace

std::string WriteJsonTraceToString(const TraceView& trace) {
  std::string s;
  Sink sink(&s);
  WriteAll(trace, sink);
  return s;
}

Status WriteJsonTrace(const TraceView& trace, const std::string& path, bool overwrite) {
  // Written under a temporary name renamed at the end: a failed write, or a damaged block of a
  // trace cache (store::DamagedRecords), leaves no partial file.
  auto out = AtomicOutput::Create(path, overwrite);
  if (!out.ok()) return out.status();
  Sink sink(out->get());
  WriteAll(trace, sink);  // a failed write is kept by AtomicOutput and reported by Commit
  return (*out)->Commit();
}

}  // namespace parallax::io
