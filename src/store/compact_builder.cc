#include "src/store/compact_builder.h"

#include <algorithm>
#include <atomic>
#include <numeric>

#include "src/base/check.h"
#include "src/base/parallel.h"

namespace parallax::store {

namespace {

template <typename T>
void AppendColumn(Column<T>& to, const Column<T>& from) {
  const size_t n = to.size();
  to.resize(n + from.size());  // grows geometrically, and keeps its capacity when it shrinks
  std::copy(from.begin(), from.end(), to.begin() + static_cast<ptrdiff_t>(n));
}

// Drops the first `m` values, keeping the capacity for the records to come.
template <typename T>
void DropFront(Column<T>& c, size_t m) {
  std::copy(c.begin() + static_cast<ptrdiff_t>(m), c.end(), c.begin());
  c.resize(c.size() - m);
}

template <typename T>
uint64_t Held(const Column<T>& c) {
  return c.capacity() * sizeof(T);
}

}  // namespace

CompactBuilder::CompactBuilder(size_t threads, uint32_t cpus, Sink sink, const compact::EncodeOptions& options,
                               unsigned workers)
    : lanes_(threads),
      cpus_(cpus),
      sink_(std::move(sink)),
      options_(options),
      workers_(workers == 0 ? base::DefaultThreads() : workers) {
  const size_t block = std::clamp<uint32_t>(options.block_records, 1, compact::kMaxBlockRecords);
  step_ = std::lcm(block, StateBlocks::kLarge);
}

uint64_t CompactBuilder::PendingBytes() const {
  uint64_t n = 0;
  for (const Lane& l : lanes_)
    n += Held(l.states.begin) + Held(l.states.end) + Held(l.states.state) + Held(l.states.cpu) +
         Held(l.events.time) + Held(l.events.type) + Held(l.events.value) + Held(l.events.cpu);
  return n;
}

void CompactBuilder::TrackRuns(Lane& l, size_t t, bool states, size_t count, bool last) {
  TimedRun& open = states ? l.state_run : l.event_run;
  bool& is_open = states ? l.state_run_open : l.event_run_open;
  std::vector<TimedRun>& closed = states ? l.state_runs : l.event_runs;
  const Column<uint16_t>& cpu = states ? l.states.cpu : l.events.cpu;
  const Column<model::Time>& time = states ? l.states.begin : l.events.time;
  const uint64_t base = states ? l.states_coded : l.events_coded;
  auto close = [&] {
    if (is_open && open.cpu != 0 && open.cpu <= cpus_) closed.push_back(open);
    is_open = false;
  };
  for (size_t i = 0; i < count;) {
    size_t j = i + 1;
    while (j < count && cpu[j] == cpu[i]) ++j;
    if (is_open && open.cpu == cpu[i]) {
      open.run.last = static_cast<uint32_t>(base + j);
    } else {
      close();
      open = TimedRun{time[i], cpu[i],
                      CpuRun{static_cast<uint32_t>(t), static_cast<uint32_t>(base + i), static_cast<uint32_t>(base + j)}};
      is_open = true;
    }
    i = j;
  }
  if (last) close();
}

void CompactBuilder::Code(size_t t, bool last) {
  Lane& l = lanes_[t];
  // A state's summary needs the next state's begin: one state stays behind until the end.
  const size_t ns = l.states.size();
  const size_t ms = last ? ns : (ns == 0 ? 0 : (ns - 1) / step_ * step_);
  if (ms > 0) {
    l.new_states = compact::EncodeStates(l.states, ms, options_);
    l.summaries.Append(l.states, ms);
  }
  TrackRuns(l, t, true, ms, last);
  DropFront(l.states.begin, ms);
  DropFront(l.states.end, ms);
  DropFront(l.states.state, ms);
  DropFront(l.states.cpu, ms);
  l.states_coded += ms;

  const size_t ne = l.events.size();
  const size_t me = last ? ne : ne / step_ * step_;
  if (me > 0) l.new_events = compact::EncodeEvents(l.events, me, options_);
  TrackRuns(l, t, false, me, last);
  DropFront(l.events.time, me);
  DropFront(l.events.type, me);
  DropFront(l.events.value, me);
  DropFront(l.events.cpu, me);
  l.events_coded += me;
}

Status CompactBuilder::Flush() {
  auto give = [&](compact::CompactColumns& coded, std::vector<compact::BlockEntry>& blocks) -> Status {
    if (coded.blocks.empty()) return Status::Ok();
    Result<uint64_t> at = sink_(std::span<const uint8_t>(coded.bytes.data(), coded.bytes.size()));
    if (!at.ok()) return at.status();
    for (compact::BlockEntry b : coded.blocks) {
      b.offset += at.value();
      blocks.push_back(b);
    }
    coded = compact::CompactColumns{};
    return Status::Ok();
  };
  for (Lane& l : lanes_) {
    Status s = give(l.new_states, l.state_blocks);
    if (s.ok()) s = give(l.new_events, l.event_blocks);
    if (!s.ok()) {
      failed_ = true;
      return s;
    }
  }
  return Status::Ok();
}

Status CompactBuilder::Add(TraceStore& segment) {
  PARALLAX_CHECK(!failed_ && segment.threads() == lanes_.size() && !segment.compact());
  std::atomic<bool> back{false};
  base::ParallelFor(lanes_.size(), workers_, [&](size_t t) {
    ThreadRecords& r = segment.thread(model::ThreadIndex(static_cast<uint32_t>(t)));
    Lane& l = lanes_[t];
    // Each segment's records are sorted: a thread's last time so far is its last segment's.
    const bool had_states = l.states_coded > 0 || l.states.size() > 0;
    const bool had_events = l.events_coded > 0 || l.events.size() > 0;
    if (r.states.size() > 0 && had_states && r.states.begin[0] < l.last_state_begin) back = true;
    if (r.events.size() > 0 && had_events && r.events.time[0] < l.last_event_time) back = true;
    if (back) return;
    if (r.states.size() > 0) l.last_state_begin = r.states.begin.back();
    if (r.events.size() > 0) l.last_event_time = r.events.time.back();
    AppendColumn(l.states.begin, r.states.begin);
    AppendColumn(l.states.end, r.states.end);
    AppendColumn(l.states.state, r.states.state);
    AppendColumn(l.states.cpu, r.states.cpu);
    AppendColumn(l.events.time, r.events.time);
    AppendColumn(l.events.type, r.events.type);
    AppendColumn(l.events.value, r.events.value);
    AppendColumn(l.events.cpu, r.events.cpu);
    r.states = StateColumns{};
    r.events = EventColumns{};
    Code(t, false);
  });
  if (back) {
    unsorted_ = true;
    failed_ = true;
    return Status::Error("a thread's records go back in time from one part of the trace to the next", {},
                         "the trace is loaded in two passes instead");
  }
  return Flush();
}

Result<BuiltThreads> CompactBuilder::Finish() {
  PARALLAX_CHECK(!failed_);
  base::ParallelFor(lanes_.size(), workers_, [&](size_t t) { Code(t, true); });
  if (Status s = Flush(); !s.ok()) return s;
  failed_ = true;  // no Add after this
  BuiltThreads out;
  out.threads.resize(lanes_.size());
  out.state_blocks.resize(lanes_.size());
  std::vector<std::vector<TimedRun>> state_runs(cpus_), event_runs(cpus_);
  for (size_t t = 0; t < lanes_.size(); ++t) {
    Lane& l = lanes_[t];
    CodedThread& c = out.threads[t];
    c.states.blocks = Column<compact::BlockEntry>(std::move(l.state_blocks));
    c.events.blocks = Column<compact::BlockEntry>(std::move(l.event_blocks));
    c.state_count = l.states_coded;
    c.event_count = l.events_coded;
    out.state_blocks[t] = std::move(l.summaries);
    for (const TimedRun& r : l.state_runs) state_runs[r.cpu - 1].push_back(r);
    for (const TimedRun& r : l.event_runs) event_runs[r.cpu - 1].push_back(r);
    l = Lane{};
  }
  // Each cpu's runs by the time of their first record, then by thread (BuildCpuView's order).
  auto order = [](std::vector<TimedRun>& runs, std::vector<CpuRun>& out_runs) {
    std::stable_sort(runs.begin(), runs.end(), [](const TimedRun& a, const TimedRun& b) {
      return a.first_time != b.first_time ? a.first_time < b.first_time : a.run.thread < b.run.thread;
    });
    out_runs.reserve(runs.size());
    for (const TimedRun& r : runs) out_runs.push_back(r.run);
    runs = {};
  };
  out.cpu_view.state_runs.resize(cpus_);
  out.cpu_view.event_runs.resize(cpus_);
  base::ParallelFor(cpus_, workers_, [&](size_t c) {
    order(state_runs[c], out.cpu_view.state_runs[c]);
    order(event_runs[c], out.cpu_view.event_runs[c]);
  });
  return out;
}

}  // namespace parallax::store
