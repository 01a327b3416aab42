// Thread function kernels (semantics.md §4). Each computes the value of the interval that starts
// at the cursor's record.

#include <algorithm>
#include <cmath>

#include "src/diagnose/trace_diagnosis.h"
#include "src/semantic/kernels.h"

namespace parallax::semantic::kernels {

namespace {

using K = RecKind;

const ThreadRecords& Tr(const ThreadCall& c) { return c.at.records(); }
K Kind(const ThreadCall& c) { return c.rec().kind; }
bool InList(const Params& p, double x) {
  return !p.empty() && std::find(p[0].begin(), p[0].end(), x) != p[0].end();
}
double First(const Params& p, size_t i, double fallback) {
  return i < p.size() && !p[i].empty() ? p[i][0] : fallback;
}
double State(const ThreadCall& c) { return Tr(c).states().state[c.rec().index]; }
double ToW(const ThreadCall& c, double d) { return c.env.ToWindow(d); }

// Event value as semantic functions see it (scaled by the .pcf precision).
double EventValue(const ThreadCall& c, uint32_t i) {
  const auto& ev = Tr(c).events();
  return c.env.filter->ScaledValue(ev.type[i], ev.value[i]);
}

// The first event after the record that passes the filter; false if none.
bool NextEvent(const ThreadCall& c, uint32_t* out) {
  if (c.at.at_end()) return false;
  const auto& ev = Tr(c).events();
  uint32_t i = Kind(c) == K::kEvent ? c.rec().index + 1 : 0;
  for (; i < ev.size(); ++i) {
    if (c.env.filter->PassEvent(ev.type[i], ev.value[i])) {
      *out = i;
      return true;
    }
  }
  return false;
}

const store::CommTable& Comms(const ThreadCall& c) { return Tr(c).store().comms(); }
uint32_t CommId(const ThreadCall& c) { return c.rec().index; }
double Size(const ThreadCall& c) { return static_cast<double>(Comms(c).size[CommId(c)]); }

bool NegativeL(const store::CommTable& t, uint32_t i) {
  return (t.log_recv[i] > t.phy_recv[i] && t.log_recv[i] <= t.log_send[i]) ||
         (t.log_recv[i] <= t.phy_recv[i] && t.phy_recv[i] <= t.log_send[i]);
}
bool NegativeP(const store::CommTable& t, uint32_t i) { return t.phy_recv[i] <= t.phy_send[i]; }
bool Negative(const ThreadCall& c) {
  return c.env.filter->logical() ? NegativeL(Comms(c), CommId(c)) : NegativeP(Comms(c), CommId(c));
}

// Whether the record is the effective receive of its communication (§4.3): the logical one
// when lrecv > precv, the physical one otherwise.
bool EffectiveRecv(const ThreadCall& c, K logical, K physical) {
  const auto& t = Comms(c);
  uint32_t i = CommId(c);
  return (Kind(c) == logical && t.log_recv[i] > t.phy_recv[i]) ||
         (Kind(c) == physical && t.phy_recv[i] >= t.log_recv[i]);
}

// In-transit style counters: +delta at the "add" record, -delta at the "subtract" record.
double Transit(const ThreadCall& c, double delta, K add_l, K sub_l, K sub_p_l, K add_p, K sub_p) {
  if (Kind(c) == K::kEmpty) return 0;
  double v = c.state.prev;
  if (Negative(c)) return v;
  if (c.env.filter->logical()) {
    if (Kind(c) == add_l) return v + delta;
    if (EffectiveRecv(c, sub_l, sub_p_l)) return v - delta;
    return v;
  }
  if (Kind(c) == add_p) return v + delta;
  if (Kind(c) == sub_p) return v - delta;
  return v;
}

}  // namespace

// --- State group ---------------------------------------------------------------------------

double StateAsIs(const ThreadCall& c) { return Kind(c) == K::kStateBegin ? State(c) : 0; }
double Useful(const ThreadCall& c) { return Kind(c) == K::kStateBegin && State(c) == 1 ? 1 : 0; }
double StateSign(const ThreadCall& c) { return Kind(c) == K::kStateBegin && State(c) != 0 ? 1 : 0; }
double GivenState(const ThreadCall& c) {
  return Kind(c) == K::kStateBegin && InList(c.params, State(c)) ? State(c) : 0;
}
double InState(const ThreadCall& c) {
  if (Kind(c) == K::kStateBegin) return InList(c.params, State(c)) ? 1 : 0;
  if (Kind(c) == K::kStateEnd) return InList(c.params, 0) ? 1 : 0;
  return 0;
}
double NotInState(const ThreadCall& c) {
  if (Kind(c) == K::kStateBegin) return InList(c.params, State(c)) ? 0 : 1;
  if (Kind(c) == K::kStateEnd) return InList(c.params, 0) ? 0 : 1;
  return 0;
}

double StateRecordDur(const ThreadCall& c) {
  const auto& st = Tr(c).states();
  if (Kind(c) == K::kStateBegin) {
    uint32_t i = c.rec().index;
    if (!InList(c.params, st.state[i])) return 0;
    Time end = st.end[i] == model::kNoEnd ? Tr(c).end_time() : st.end[i];
    return ToW(c, static_cast<double>(end) - static_cast<double>(st.begin[i]));
  }
  if (Kind(c) == K::kStateEnd && InList(c.params, 0)) {
    Time t = c.rec().time;
    auto it = std::lower_bound(st.begin.begin(), st.begin.end(), t);
    if (it == st.begin.end()) return ToW(c, static_cast<double>(t));  // kernel quirk
    return ToW(c, static_cast<double>(*it - t));
  }
  return 0;
}

// --- Event group ---------------------------------------------------------------------------

double LastEvtType(const ThreadCall& c) {
  return Kind(c) == K::kEvent ? Tr(c).events().type[c.rec().index] : 0;
}
// Diagnosis functions: the MPI call (or computation burst) the thread runs where the interval
// starts, looked up in the trace's diagnosis (docs/diagnose.md).
double MpiWaitTime(const ThreadCall& c) {
  if (c.env.diagnosis == nullptr) return 0;
  const diagnose::WaitInstance* w = c.env.diagnosis->Get().WaitAt(Tr(c).thread(), c.rec().time);
  return w != nullptr ? ToW(c, static_cast<double>(w->wait)) : 0;
}
double MpiWaitPattern(const ThreadCall& c) {
  if (c.env.diagnosis == nullptr) return 0;
  const diagnose::WaitInstance* w = c.env.diagnosis->Get().WaitAt(Tr(c).thread(), c.rec().time);
  return w != nullptr ? 1 + static_cast<double>(w->pattern) : 0;
}
double OnCriticalPath(const ThreadCall& c) {
  if (c.env.diagnosis == nullptr) return 0;
  return c.env.diagnosis->Get().PathShareAt(Tr(c).thread(), c.rec().time);
}

double LastEvtVal(const ThreadCall& c) { return Kind(c) == K::kEvent ? EventValue(c, c.rec().index) : 0; }
double LastEvtValNoBursts(const ThreadCall& c) {
  if (Kind(c) != K::kEvent) return 0;
  double v = EventValue(c, c.rec().index);
  return v == 0 ? c.state.prev : v;
}
double NextEvtType(const ThreadCall& c) {
  uint32_t n;
  return NextEvent(c, &n) ? Tr(c).events().type[n] : 0;
}
double NextEvtVal(const ThreadCall& c) {
  uint32_t n;
  return NextEvent(c, &n) ? EventValue(c, n) : 0;
}
double AvgNextEvtVal(const ThreadCall& c) {
  uint32_t n;
  if (!NextEvent(c, &n)) return 0;
  double delta = static_cast<double>(Tr(c).events().time[n] - c.rec().time);
  if (delta == 0) return 0;
  return EventValue(c, n) * First(c.params, 0, 1) / ToW(c, delta);
}
double AvgLastEvtVal(const ThreadCall& c) {
  uint32_t n;
  if (Kind(c) != K::kEvent || !NextEvent(c, &n)) return 0;
  double delta = static_cast<double>(Tr(c).events().time[n] - c.rec().time);
  if (delta == 0) return 0;
  return EventValue(c, c.rec().index) * First(c.params, 0, 1) / ToW(c, delta);
}
double GivenEvtVal(const ThreadCall& c) {
  double v = LastEvtVal(c);
  return Kind(c) == K::kEvent && InList(c.params, v) ? v : 0;
}
double InEvtVal(const ThreadCall& c) { return Kind(c) == K::kEvent && InList(c.params, LastEvtVal(c)) ? 1 : 0; }
double NotInEvtVal(const ThreadCall& c) {
  return Kind(c) == K::kEvent && !InList(c.params, LastEvtVal(c)) ? 1 : 0;
}
double InEvtRange(const ThreadCall& c) {
  if (Kind(c) != K::kEvent) return 0;
  double v = LastEvtVal(c);
  return First(c.params, 0, 0) <= v && v <= First(c.params, 1, 1) ? 1 : 0;
}
double IntBetweenEvt(const ThreadCall& c) {
  uint32_t n;
  if (Kind(c) != K::kEvent || !NextEvent(c, &n)) return 0;
  return ToW(c, static_cast<double>(Tr(c).events().time[n] - c.rec().time));
}

namespace {

bool IsSend(K k) { return k == K::kLogSend || k == K::kPhySend; }
bool IsPhy(K k) { return k == K::kPhySend || k == K::kPhyRecv; }

bool Passes(const ThreadCall& c, const RecordRef& r) {
  return c.env.filter->PassComm(r.index, IsLogical(r.kind), IsRecvSide(r.kind));
}

// Backward pass of Event Bytes (§4.2.1): sends at the event's own time before it.
double BytesBefore(const ThreadCall& c) {
  bool l = c.env.filter->logical(), p = c.env.filter->physical();
  RecordCursor back = c.at;
  double sum = 0;
  while (back.Prev() && !back.at_start() && back.current().time == c.rec().time) {
    K k = back.current().kind;
    bool take = (k == K::kPhySend && p && !l) || (k == K::kLogSend && l);
    if (take && Passes(c, back.current()))
      sum += static_cast<double>(Comms(c).size[back.current().index]);
  }
  return sum;
}


double BytesForward(const ThreadCall& c, Time t1, bool sent_only) {
  bool l = c.env.filter->logical(), p = c.env.filter->physical();
  const auto& t = Comms(c);
  RecordCursor f = c.at;
  double sum = 0;
  Time t0 = c.rec().time;
  while (f.Next() && !f.at_end() && f.current().time <= t1) {
    const RecordRef& r = f.current();
    if (r.kind != K::kLogSend && r.kind != K::kPhySend && r.kind != K::kLogRecv && r.kind != K::kPhyRecv) continue;
    if (!Passes(c, r)) continue;
    double size = static_cast<double>(t.size[r.index]);
    if (sent_only) {
      if (IsSend(r.kind) && r.time < t1) sum += size;
      continue;
    }
    if (r.time == t0) {
      if (IsSend(r.kind)) sum += size;
    } else if (p && !l) {
      if (IsPhy(r.kind) && (r.time < t1 || r.kind == K::kPhyRecv)) sum += size;
    } else if (IsLogical(r.kind) || r.kind == K::kPhyRecv) {
      if (l && p && r.kind == K::kLogRecv && t.phy_recv[r.index] >= t.log_recv[r.index]) continue;
      bool effective = (r.kind == K::kLogRecv && t.log_recv[r.index] > t.phy_recv[r.index]) ||
                       (r.kind == K::kPhyRecv && t.phy_recv[r.index] >= t.log_recv[r.index]);
      if (r.time < t1 || effective) sum += size;
    }
  }
  return sum;
}

double EventBytesImpl(const ThreadCall& c, bool sent_only) {
  uint32_t n;
  if (Kind(c) != K::kEvent || !NextEvent(c, &n)) return 0;
  return BytesBefore(c) + BytesForward(c, Tr(c).events().time[n], sent_only);
}

}  // namespace

double EventBytes(const ThreadCall& c) { return EventBytesImpl(c, false); }
double EventSentBytes(const ThreadCall& c) { return EventBytesImpl(c, true); }

// --- Communication group ----------------------------------------------------------------------

double LastTag(const ThreadCall& c) {
  return Kind(c) == K::kPhyRecv ? static_cast<double>(Comms(c).tag[CommId(c)]) : 0;
}
double CommSize(const ThreadCall& c) { return IsComm(Kind(c)) ? Size(c) : 0; }

double CommRecvPartner(const ThreadCall& c) {
  if (Kind(c) == K::kEmpty) return 0;
  const auto& t = Comms(c);
  RecordCursor f = c.at;
  while (f.Next() && !f.at_end()) {
    const RecordRef& r = f.current();
    bool found = (r.kind == K::kLogRecv && t.log_recv[r.index] >= t.phy_recv[r.index]) ||
                 (r.kind == K::kPhyRecv && t.phy_recv[r.index] > t.log_recv[r.index]);
    if (found) return 1.0 + t.sender[r.index];
  }
  return 0;
}

double CommPartner(const ThreadCall& c) {
  return IsSend(Kind(c)) ? 1.0 + Comms(c).receiver[CommId(c)] : 0;
}

double LastSendDur(const ThreadCall& c) {
  if (Kind(c) != K::kLogSend) return 0;
  const auto& t = Comms(c);
  Time recv = std::max(t.log_recv[CommId(c)], t.phy_recv[CommId(c)]);
  return ToW(c, static_cast<double>(recv) - static_cast<double>(c.rec().time));
}

double NextRecvDur(const ThreadCall& c) {
  if (Kind(c) != K::kLogRecv) return 0;
  RecordCursor f = c.at;
  while (f.Next() && !f.at_end()) {
    K k = f.current().kind;
    if (k == K::kLogRecv || k == K::kPhyRecv) {
      double lsend = static_cast<double>(Comms(c).log_send[f.current().index]);
      return ToW(c, lsend - static_cast<double>(c.rec().time));
    }
  }
  return 0;
}

double LastSendSize(const ThreadCall& c) { return Kind(c) == K::kLogSend ? Size(c) : 0; }

double SendBytesInTransit(const ThreadCall& c) {
  if (Kind(c) == K::kEmpty) return 0;
  return Transit(c, Size(c), K::kLogSend, K::kRRecvLog, K::kRRecvPhy, K::kPhySend, K::kRRecvPhy);
}
double SendMessagesInTransit(const ThreadCall& c) {
  return Transit(c, 1, K::kLogSend, K::kRRecvLog, K::kRRecvPhy, K::kPhySend, K::kRRecvPhy);
}
double RecvBytesInTransit(const ThreadCall& c) {
  if (Kind(c) == K::kEmpty) return 0;
  return Transit(c, Size(c), K::kRSendLog, K::kLogRecv, K::kPhyRecv, K::kRSendPhy, K::kPhyRecv);
}
double RecvMessagesInTransit(const ThreadCall& c) {
  return Transit(c, 1, K::kRSendLog, K::kLogRecv, K::kPhyRecv, K::kRSendPhy, K::kPhyRecv);
}

namespace {

double NegativeCount(const ThreadCall& c, double delta) {
  if (Kind(c) == K::kEmpty) return 0;
  double v = c.state.prev;
  const auto& t = Comms(c);
  uint32_t i = CommId(c);
  if (c.env.filter->logical()) {
    if (!NegativeL(t, i)) return v;
    if (Kind(c) == K::kRSendLog) return v - delta;
    if (EffectiveRecv(c, K::kLogRecv, K::kPhyRecv)) return v + delta;
    return v;
  }
  if (!NegativeP(t, i)) return v;
  if (Kind(c) == K::kRSendPhy) return v - delta;
  if (Kind(c) == K::kPhyRecv) return v + delta;
  return v;
}

// Send/Recv BandWidth (§4.3.1): an integer accumulator of rates in 1e-12 units.
double Bandwidth(const ThreadCall& c, K add_l, K sub_l, K sub_p_l, K add_p, K sub_p) {
  if (Kind(c) == K::kEmpty) return 0;
  const auto& t = Comms(c);
  uint32_t i = CommId(c);
  bool l = c.env.filter->logical(), p = c.env.filter->physical();
  double time;
  if (l && t.log_recv[i] > t.phy_recv[i]) time = static_cast<double>(t.log_recv[i]) - static_cast<double>(t.log_send[i]);
  else if (p) time = static_cast<double>(t.phy_recv[i]) - static_cast<double>(t.phy_send[i]);
  else time = static_cast<double>(t.phy_recv[i]) - static_cast<double>(t.log_send[i]);
  int64_t& acc = c.state.acc;
  if (time == 0) return static_cast<double>(acc) * 1e-12;
  time = ToW(c, std::fabs(time));
  double rate = (Size(c) / First(c.params, 0, 1)) / time;
  // Paraver truncates to a 64-bit integer the way x86 does (out of range gives INT64_MIN) and
  // the accumulator wraps; both are done explicitly here, as C++ leaves them undefined.
  double scaled = rate * 1e12;
  int64_t step = scaled >= -9.2233720368547758e18 && scaled < 9.2233720368547758e18 ? static_cast<int64_t>(scaled)
                                                                                    : INT64_MIN;
  auto wrap_add = [](int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b)); };
  auto wrap_sub = [](int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b)); };
  if (!Negative(c)) {
    if (l) {
      if (Kind(c) == add_l) acc = wrap_add(acc, step);
      else if (EffectiveRecv(c, sub_l, sub_p_l)) acc = wrap_sub(acc, step);
    } else {
      if (Kind(c) == add_p) acc = wrap_add(acc, step);
      else if (Kind(c) == sub_p) acc = wrap_sub(acc, step);
    }
  }
  return static_cast<double>(acc) * 1e-12;
}

double CountSendsOrRecvs(const ThreadCall& c, double delta, bool sends) {
  if (Kind(c) == K::kEmpty) return 0;
  double v = c.state.prev;
  bool l = c.env.filter->logical(), p = c.env.filter->physical();
  if (sends) {
    if (p && Kind(c) == K::kPhySend) return v + delta;
    if (l && Kind(c) == K::kLogSend) return v + delta;
    return v;
  }
  if (p && Kind(c) == K::kPhyRecv) return v + delta;
  if (l && EffectiveRecv(c, K::kLogRecv, K::kPhyRecv)) return v + delta;
  return v;
}

}  // namespace

double SendBandWidth(const ThreadCall& c) {
  return Bandwidth(c, K::kLogSend, K::kRRecvLog, K::kRRecvPhy, K::kPhySend, K::kRRecvPhy);
}
double RecvBandWidth(const ThreadCall& c) {
  return Bandwidth(c, K::kRSendLog, K::kLogRecv, K::kPhyRecv, K::kRSendPhy, K::kPhyRecv);
}
double RecvNegativeMessages(const ThreadCall& c) { return NegativeCount(c, 1); }
double RecvNegativeBytes(const ThreadCall& c) { return Kind(c) == K::kEmpty ? 0 : NegativeCount(c, Size(c)); }
double NumberOfSends(const ThreadCall& c) { return CountSendsOrRecvs(c, 1, true); }
double NumberOfSendBytes(const ThreadCall& c) { return Kind(c) == K::kEmpty ? 0 : CountSendsOrRecvs(c, Size(c), true); }
double NumberOfReceives(const ThreadCall& c) { return CountSendsOrRecvs(c, 1, false); }
double NumberOfReceiveBytes(const ThreadCall& c) {
  return Kind(c) == K::kEmpty ? 0 : CountSendsOrRecvs(c, Size(c), false);
}

// --- Object group ---------------------------------------------------------------------------

namespace {
const model::ThreadInfo& Info(const ThreadCall& c) {
  return c.env.header->processes.thread(model::ThreadIndex(Tr(c).thread()));
}
double NodeOfRecord(const ThreadCall& c, bool one_based) {
  uint16_t cpu = c.rec().cpu;
  if (cpu == 0 || c.env.header->resources.empty()) return 0;
  double n = c.env.header->resources.NodeOfCpu(model::CpuId(cpu)).value;
  return one_based ? n + 1 : n;
}
double IfListed(const ThreadCall& c, double v) { return InList(c.params, v) ? v : 0; }
}  // namespace

double ApplicationId(const ThreadCall& c) { return Info(c).appl.value + 1.0; }
double TaskId(const ThreadCall& c) { return Info(c).task.value + 1.0; }
double ThreadId(const ThreadCall& c) { return Tr(c).thread() + 1.0; }
double NodeId(const ThreadCall& c) { return Kind(c) == K::kEmpty ? 0 : NodeOfRecord(c, true); }
double CpuId(const ThreadCall& c) { return Kind(c) == K::kEmpty ? 0 : c.rec().cpu; }
double InApplId(const ThreadCall& c) { return Kind(c) == K::kEmpty ? 0 : IfListed(c, ApplicationId(c)); }
double InTaskId(const ThreadCall& c) { return IfListed(c, TaskId(c)); }
double InThreadId(const ThreadCall& c) { return IfListed(c, ThreadId(c)); }
double InNodeId(const ThreadCall& c) { return IfListed(c, NodeOfRecord(c, false)); }
double InCpuId(const ThreadCall& c) { return IfListed(c, c.rec().cpu); }

}  // namespace parallax::semantic::kernels
