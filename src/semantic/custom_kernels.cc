// The generic kernels of functions added to a FunctionRegistry: they hand one interval to the
// CustomFunction of the descriptor. The rows call the CustomFunction directly with batches of
// intervals (rows.cc); these kernels serve the stateful thread functions, whose `previous` is
// only known once the interval before is computed.

#include "include/parallax/functions.h"
#include "src/semantic/kernels.h"

namespace parallax::semantic::kernels {

FunctionRecord ToFunctionRecord(const WindowEnv& env, const RecordCursor& at) {
  const RecordRef& r = at.current();
  const ThreadRecords& tr = at.records();
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
      out.event_value = env.filter->ScaledValue(ev.type[r.index], ev.value[r.index]);
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

double CustomThread(const ThreadCall& c) {
  FunctionRecord rec = ToFunctionRecord(c.env, c.at);
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
