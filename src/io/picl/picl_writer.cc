// PICL writer (docs/formats.md, "PICL"): what picl_reader.cc reads, in the record layout
// Tape/PVM's t2p wrote for ParaGraph. Output is streamed in 1 MB pieces through AtomicOutput.

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "src/io/picl/picl_reader.h"
#include "src/io/text_file.h"
#include "src/store/block_reader.h"

namespace parallax::io {

namespace {

constexpr int kSend = -21, kRecv = -52;
constexpr int kIntType = 2;  // PICL data type code written before integer items

struct Line {
  uint64_t ns;
  uint32_t thread;
  std::string text;
};

uint64_t NsPerTick(model::TimeUnit u) {
  switch (u) {
    case model::TimeUnit::kUs: return 1000;
    case model::TimeUnit::kMs: return 1000000;
    case model::TimeUnit::kS: return 1000000000;
    default: return 1;
  }
}

}  // namespace

bool WritePicl(const TraceView& tv, const std::function<bool(std::string_view)>& sink) {
  const auto& pm = tv.header->processes;
  const auto& st = *tv.store;
  const uint64_t k = NsPerTick(tv.header->unit);
  std::string buf;
  auto it = std::back_inserter(buf);
  auto flush = [&] {
    bool ok = buf.empty() || sink(buf);
    buf.clear();
    return ok;
  };
  // RECORD EVENT TIME NODE PROCESS N [DATATYPE ITEM...]; node = global task, process = thread
  // in the task. Records of one thread are time-ordered; the reader sorts across threads.
  auto head = [&](int record, int64_t event, model::Time t, uint32_t thread) {
    const auto& th = pm.thread(model::ThreadIndex(thread));
    uint64_t ns = t * k;
    fmt::format_to(it, "{} {} {}.{:09} {} {}", record, event, ns / 1000000000, ns % 1000000000, th.task.value, th.number_in_task);
  };
  const auto& cm = st.comms();
  for (uint32_t t = 0; t < pm.threads(); ++t) {
    // A block at a time, so a compact store is never decoded whole.
    const bool states_ok = store::ForEachRecord<store::StateColumns>(
        st, model::ThreadIndex(t), [&](const store::StateColumns& s, size_t i) {
          model::Time end = s.end[i] == model::kNoEnd ? std::max(s.begin[i], st.end_time()) : s.end[i];
          head(kPiclOpen, s.state[i], s.begin[i], t);
          buf += " 0\n";
          head(kPiclClose, s.state[i], end, t);
          buf += " 0\n";
          return buf.size() <= (1u << 20) || flush();
        });
    if (!states_ok) return false;
    const bool events_ok = store::ForEachRecord<store::EventColumns>(
        st, model::ThreadIndex(t), [&](const store::EventColumns& e, size_t i) {
          head(kPiclParaverEvent, e.type[i], e.time[i], t);
          fmt::format_to(it, " 1 {} {}\n", kIntType, e.value[i]);
          return buf.size() <= (1u << 20) || flush();
        });
    if (!events_ok) return false;
  }
  for (size_t i = 0; i < cm.rows(); ++i) {
    const auto& s = pm.thread(model::ThreadIndex(cm.sender[i]));
    const auto& r = pm.thread(model::ThreadIndex(cm.receiver[i]));
    head(kPiclOpen, kSend, cm.log_send[i], cm.sender[i]);
    fmt::format_to(it, " 4 {} {} {} {} {}\n", kIntType, cm.size[i], cm.tag[i], r.task.value, r.number_in_task);
    head(kPiclClose, kSend, cm.log_send[i], cm.sender[i]);
    buf += " 0\n";
    head(kPiclOpen, kRecv, cm.log_recv[i], cm.receiver[i]);
    buf += " 0\n";
    head(kPiclClose, kRecv, std::max(cm.log_recv[i], cm.phy_recv[i]), cm.receiver[i]);
    fmt::format_to(it, " 4 {} {} {} {} {}\n", kIntType, cm.size[i], cm.tag[i], s.task.value, s.number_in_task);
    if (buf.size() > (1u << 20) && !flush()) return false;
  }
  return flush();
}

Status WritePiclTrace(const TraceView& trace, const std::string& path, bool overwrite) {
  auto out = AtomicOutput::Create(path, overwrite);
  if (!out.ok()) return out.status();
  AtomicOutput& o = **out;
  WritePicl(trace, [&](std::string_view s) { return o.Write(s); });
  return o.Commit();
}

}  // namespace parallax::io
