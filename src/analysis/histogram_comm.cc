#include "src/analysis/histogram_comm.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "src/base/parallel.h"
#include "src/filter/filter.h"

namespace parallax::analysis {

namespace {

using model::Level;
using model::Time;

struct CommAcc {
  double sends = 0, recvs = 0, bytes_sent = 0, bytes_recv = 0;
  double min_sent = 0, min_recv = 0, max_sent = 0, max_recv = 0;
};

// The object of a thread at a process level.
uint32_t ObjectOfThread(const model::ProcessModel& p, Level level, uint32_t thread) {
  const model::ThreadInfo& t = p.thread(model::ThreadIndex(thread));
  switch (level) {
    case Level::kThread:
      return thread;
    case Level::kTask:
      return t.task.value;
    case Level::kAppl:
      return t.appl.value;
    default:
      return 0;
  }
}

void Add(CommAcc& a, bool send, double size) {
  double& count = send ? a.sends : a.recvs;
  double& bytes = send ? a.bytes_sent : a.bytes_recv;
  double& mn = send ? a.min_sent : a.min_recv;
  double& mx = send ? a.max_sent : a.max_recv;
  count += 1;
  bytes += size;
  if (mn == 0 || size < mn) mn = size;  // §7.2: the accumulator starts at 0
  mx = std::max(mx, size);
}

CellStats Final(const CommAcc& a) {
  const double nan = -std::numeric_limits<double>::quiet_NaN();
  CellStats s{};
  s[0] = a.sends;
  s[1] = a.recvs;
  s[2] = a.bytes_sent;
  s[3] = a.bytes_recv;
  s[4] = a.sends != 0 ? a.bytes_sent / a.sends : nan;
  s[5] = a.recvs != 0 ? a.bytes_recv / a.recvs : nan;
  s[6] = a.min_sent;
  s[7] = a.min_recv;
  s[8] = a.max_sent;
  s[9] = a.max_recv;
  return s;
}

struct CommRowPass {
  const HistogramInput& in;
  const filter::Filter& filter;
  Level level;
  Time b, e;
  std::map<uint32_t, CommAcc> cells;

  bool InRange(Time t) const { return t >= b && t <= e; }
  void Entry(uint32_t partner_thread, bool send, Time t, int64_t size) {
    if (!InRange(t)) return;
    uint32_t col = ObjectOfThread(in.trace.header->processes, level, partner_thread);
    Add(cells[col], send, static_cast<double>(size));
  }
  void Thread(uint32_t th);
};

// analysis.md §7.1: entries of the records of one thread.
void CommRowPass::Thread(uint32_t th) {
  const store::TraceStore& st = *in.trace.store;
  const store::CommTable& c = st.comms();
  bool l = filter.logical(), p = filter.physical();
  for (uint32_t id : st.Sent(model::ThreadIndex(th))) {
    if (l && filter.PassComm(id, true, false))
      Entry(c.receiver[id], true, c.log_send[id], c.size[id]);
    if (p && filter.PassComm(id, false, false))
      Entry(c.receiver[id], true, c.phy_send[id], c.size[id]);
  }
  for (uint32_t id : st.Received(model::ThreadIndex(th))) {
    bool pass_l = l && filter.PassComm(id, true, true),
         pass_p = p && filter.PassComm(id, false, true);
    Time lr = c.log_recv[id], pr = c.phy_recv[id];
    if (lr > pr) {
      if (pass_l) Entry(c.sender[id], false, lr, c.size[id]);
      if (pass_p) Entry(c.sender[id], false, pr, c.size[id]);
    } else {
      if (pass_l) Entry(c.sender[id], false, pr, c.size[id]);
      if (pass_p) Entry(c.sender[id], false, pr, c.size[id]);
    }
  }
}

}  // namespace

Status CommRows(const HistogramInput& in, HistogramResult& out, unsigned threads) {
  const semantic::WindowSpec& c = in.windows[static_cast<size_t>(in.spec.control)];
  if (out.level >= Level::kSystem)
    return Status::Error("unsupported: communication histogram at a resource level");
  const model::ProcessModel& p = in.trace.header->processes;
  filter::Filter filter(c.filter, *in.trace.header, *in.trace.store, in.trace.pcf, c.level, c.unit);
  out.columns = Bins{0, 1, 1, semantic::ObjectCount(*in.trace.header, out.level)};
  out.three_d = false;
  base::ParallelFor(out.rows.size(), threads, [&](size_t i) {
    CommRowPass pass{in, filter, out.level, out.begin, out.end, {}};
    for (uint32_t th = 0; th < p.threads(); ++th)
      if (ObjectOfThread(p, out.level, th) == out.rows[i]) pass.Thread(th);
    for (const auto& [col, acc] : pass.cells) out.cells[i].push_back(Cell{col, 0, Final(acc)});
  });
  return Status::Ok();
}

}  // namespace parallax::analysis
