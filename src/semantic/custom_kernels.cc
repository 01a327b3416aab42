// The generic kernels of functions added to a FunctionRegistry: they hand the interval to the
// CustomFunction of the descriptor (one interval per call; the CustomFunction API is vectorised
// so that a batching evaluator can call it with more).

#include "include/parallax/functions.h"
#include "src/semantic/kernels.h"

namespace parallax::semantic::kernels {

namespace {

FunctionRecord ToFunctionRecord(const ThreadCall& c) {
  const RecordRef& r = c.rec();
  const ThreadRecords& tr = c.at.records();
  FunctionRecord out;
  out.time = r.time;
  out.thread = tr.thread();
  out.cpu = r.cpu;
  switch (r.kind) {
    case RecKind::kEmpty: out.kind = FunctionRecord::kNone; break;
    case RecKind::kStateBegin:
    case RecKind::kStateEnd:
      out.kind = r.kind == RecKind::kStateBegin ? FunctionRecord::kStateBegin : FunctionRecord::kStateEnd;
      out.state = tr.states().state[r.index];
      break;
    case RecKind::kEvent: {
      const auto& ev = tr.events();
      out.kind = FunctionRecord::kEvent;
      out.event_type = ev.type[r.index];
      out.event_value = c.env.filter->ScaledValue(ev.type[r.index], ev.value[r.index]);
      break;
    }
    default: {
      const auto& t = tr.store().comms();
      bool send = r.kind == RecKind::kLogSend || r.kind == RecKind::kPhySend || r.kind == RecKind::kRRecvLog ||
                  r.kind == RecKind::kRRecvPhy;
      out.kind = send ? FunctionRecord::kSend : FunctionRecord::kReceive;
      out.size = t.size[r.index];
      out.tag = t.tag[r.index];
      out.partner = send ? t.receiver[r.index] : t.sender[r.index];
      break;
    }
  }
  return out;
}

}  // namespace

double CustomThread(const ThreadCall& c) {
  FunctionRecord rec = ToFunctionRecord(c);
  double prev = c.state.prev, out = 0;
  c.custom->thread(1, &rec, &prev, c.params, &out);
  return out;
}

double CustomCompose(ComposeCall& c) {
  double out = 0;
  uint64_t b = c.begin, e = c.end;
  c.custom->compose(1, &c.x, &b, &e, c.params, &out);
  return out;
}

double CustomDerived(DerivedCall& c) {
  double out = 0;
  c.custom->derived(1, &c.a, &c.b, *c.params, &out);
  return out;
}

}  // namespace parallax::semantic::kernels
