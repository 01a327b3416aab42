#include "src/semantic/record_stream.h"

#include <algorithm>
#include <numeric>

namespace parallax::semantic {

int Rank(RecKind k) {
  switch (k) {
    case RecKind::kStateEnd: return 0;
    case RecKind::kPhyRecv: return 1;
    case RecKind::kLogSend: return 4;
    case RecKind::kPhySend:
    case RecKind::kRSendPhy:
    case RecKind::kRRecvPhy: return 5;
    case RecKind::kStateBegin: return 8;
    default: return 6;  // events and the logical receive-side / remote records
  }
}

ThreadRecords::ThreadRecords(const store::TraceStore& store, uint32_t thread, bool with_comms)
    : store_(&store), thread_(thread) {
  pin_ = store.Pin(model::ThreadIndex(thread));
  const store::ThreadRecords& tr = *pin_;
  states_ = &tr.states;
  events_ = &tr.events;
  const auto& end = states_->end;
  bool plain = std::is_sorted(end.begin(), end.end()) &&
               (end.empty() || end.back() != model::kNoEnd);
  if (plain) {
    plain_ends_ = static_cast<uint32_t>(end.size());
  } else {
    for (uint32_t i = 0; i < end.size(); ++i)
      if (end[i] != model::kNoEnd) end_order_.push_back(i);
    std::stable_sort(end_order_.begin(), end_order_.end(),
                     [&](uint32_t a, uint32_t b) { return end[a] < end[b]; });
    if (end_order_.empty()) plain_ends_ = 0;
  }
  if (!with_comms) return;
  const store::CommTable& c = store.comms();
  struct Tmp {
    CommRecord r;
    int order;
  };
  std::vector<Tmp> tmp;
  tmp.reserve(4 * (tr.sent.size() + tr.received.size()));
  for (uint32_t id : tr.sent) {
    tmp.push_back({{c.log_send[id], id, RecKind::kLogSend}, 0});
    tmp.push_back({{c.phy_send[id], id, RecKind::kPhySend}, 1});
    tmp.push_back({{c.log_recv[id], id, RecKind::kRRecvLog}, 2});
    tmp.push_back({{c.phy_recv[id], id, RecKind::kRRecvPhy}, 3});
  }
  for (uint32_t id : tr.received) {
    tmp.push_back({{c.log_recv[id], id, RecKind::kLogRecv}, 4});
    tmp.push_back({{c.phy_recv[id], id, RecKind::kPhyRecv}, 5});
    tmp.push_back({{c.log_send[id], id, RecKind::kRSendLog}, 6});
    tmp.push_back({{c.phy_send[id], id, RecKind::kRSendPhy}, 7});
  }
  std::sort(tmp.begin(), tmp.end(), [](const Tmp& a, const Tmp& b) {
    if (a.r.time != b.r.time) return a.r.time < b.r.time;
    int ra = Rank(a.r.kind), rb = Rank(b.r.kind);
    if (ra != rb) return ra < rb;
    if (a.r.comm != b.r.comm) return a.r.comm < b.r.comm;
    return a.order < b.order;
  });
  comms_.reserve(tmp.size());
  for (const Tmp& t : tmp) comms_.push_back(t.r);
}

bool ThreadRecords::StateBeginsAt(Time t, uint32_t state) const {
  const auto& b = states_->begin;  // sorted
  const size_t n = b.size();
  if (state < n && b[state] < t) {  // usually the next state begins where `state` ends
    if (state + 1 == n) return false;  // every begin is <= b[state] < t
    if (b[state + 1] == t) return true;
    if (b[state + 1] > t) return false;  // b[i] <= b[state] < t < b[state + 1] for the rest
  }
  return std::binary_search(b.begin(), b.end(), t);
}

uint32_t RecordCursor::Size(Stream s) const {
  static constexpr uint8_t kStreamBit[] = {kStateStreams, kStateStreams, kEventStream, kCommStream};
  if (s >= kNone || !(streams_ & kStreamBit[s])) return 0;
  switch (s) {
    case kBegins: return static_cast<uint32_t>(tr_->states().size());
    case kEnds: return tr_->end_count();
    case kEvents: return static_cast<uint32_t>(tr_->events().size());
    case kComms: return static_cast<uint32_t>(tr_->comms().size());
    default: return 0;
  }
}

RecordRef RecordCursor::Head(Stream s, uint32_t pos) const {
  RecordRef r;
  switch (s) {
    case kBegins:
      r = {tr_->states().begin[pos], RecKind::kStateBegin, tr_->states().cpu[pos], pos};
      break;
    case kEnds: {
      uint32_t st = tr_->EndState(pos);
      r = {tr_->states().end[st], RecKind::kStateEnd, tr_->states().cpu[st], st};
      break;
    }
    case kEvents:
      r = {tr_->events().time[pos], RecKind::kEvent, tr_->events().cpu[pos], pos};
      break;
    case kComms: {
      const auto& c = tr_->comms()[pos];
      const store::CommTable& t = tr_->store().comms();
      bool sender_side = c.kind <= RecKind::kRRecvPhy;
      r = {c.time, c.kind, sender_side ? t.sender_cpu[c.comm] : t.receiver_cpu[c.comm], c.comm};
      break;
    }
    default: break;
  }
  return r;
}

bool RecordCursor::Before(const RecordRef& a, Stream sa, uint32_t pa, const RecordRef& b, Stream sb,
                          uint32_t pb) const {
  if (a.time != b.time) return a.time < b.time;
  int ra = Rank(a.kind), rb = Rank(b.kind);
  if (ra != rb) return ra < rb;
  if (sa != sb) return sa < sb;
  return pa < pb;
}

void RecordCursor::Reset() {
  for (auto& p : pos_) p = 0;
  current_ = RecordRef{};
  current_stream_ = kNone;
  at_start_ = true;
  at_end_ = false;
}

bool RecordCursor::Next() {
  if (at_end_) return false;
  Stream best = kNone;
  RecordRef best_ref;
  for (int s = kBegins; s <= kComms; ++s) {
    auto st = static_cast<Stream>(s);
    if (pos_[s] >= Size(st)) continue;
    RecordRef r = Head(st, pos_[s]);
    if (best == kNone || Before(r, st, pos_[s], best_ref, best, pos_[best])) {
      best = st;
      best_ref = r;
    }
  }
  at_start_ = false;
  if (best == kNone) {
    at_end_ = true;
    current_ = RecordRef{tr_->end_time(), RecKind::kEmpty, current_.cpu, 0};
    current_stream_ = kNone;
    return true;
  }
  ++pos_[best];
  current_ = best_ref;
  current_stream_ = best;
  return true;
}

void RecordCursor::SetCurrentToLatest() {
  at_end_ = false;
  at_start_ = false;
  Stream best = kNone;
  RecordRef best_ref;
  for (int s = kBegins; s <= kComms; ++s) {
    if (pos_[s] == 0) continue;
    auto st = static_cast<Stream>(s);
    RecordRef r = Head(st, pos_[s] - 1);
    if (best == kNone || Before(best_ref, best, pos_[best] - 1, r, st, pos_[s] - 1)) {
      best = st;
      best_ref = r;
    }
  }
  if (best == kNone) {
    Reset();
    return;
  }
  current_ = best_ref;
  current_stream_ = best;
}

bool RecordCursor::Prev() {
  if (at_start_) return false;
  if (!at_end_ && current_stream_ != kNone) --pos_[current_stream_];
  SetCurrentToLatest();
  return true;
}

void RecordCursor::SeekAfter(Time t) {
  const auto& b = tr_->states().begin;
  pos_[kBegins] = static_cast<uint32_t>(std::upper_bound(b.begin(), b.end(), t) - b.begin());
  uint32_t lo = 0, hi = tr_->end_count();
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    if (tr_->EndTime(mid) <= t) lo = mid + 1;
    else hi = mid;
  }
  pos_[kEnds] = lo;
  const auto& ev = tr_->events().time;
  pos_[kEvents] = static_cast<uint32_t>(std::upper_bound(ev.begin(), ev.end(), t) - ev.begin());
  const auto& cm = tr_->comms();
  pos_[kComms] = static_cast<uint32_t>(
      std::upper_bound(cm.begin(), cm.end(), t, [](Time x, const ThreadRecords::CommRecord& r) { return x < r.time; }) -
      cm.begin());
  for (int s = kBegins; s <= kComms; ++s) pos_[s] = std::min(pos_[s], Size(static_cast<Stream>(s)));
  SetCurrentToLatest();
}

}  // namespace parallax::semantic
