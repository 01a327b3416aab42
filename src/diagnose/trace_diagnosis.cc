#include "src/diagnose/trace_diagnosis.h"

#include <algorithm>

namespace parallax::diagnose {

namespace {

// The phases of the run's main loop, found by the structure analysis (iterations by MPI calls
// and markers; no burst clustering: a phase is named by its calls).
// Fills `phases` and returns the phase of each call's following computation.
std::vector<std::vector<uint16_t>> FindLoopPhases(const model::TraceHeader& header, const store::TraceStore& store,
                                                  const model::PcfCatalog* pcf, const calls::CallTable& table,
                                                  structure::Phases* phases) {
  if (table.ranks.size() < 2) return {};
  const structure::Iterations its = structure::FindIterations(header, store, pcf, table);
  *phases = structure::FindPhases(table, its, structure::BurstTable{}, structure::Clustering{}, pcf);
  if (phases->phases.empty()) return {};
  return structure::PhaseOfCalls(table, its, *phases);
}

}  // namespace

TraceDiagnosis::TraceDiagnosis(const model::TraceHeader& header, const store::TraceStore& store,
                               const model::PcfCatalog* pcf, const WaitStateOptions& options)
    : table_(calls::BuildCallTable(header, store, pcf, {0, structure::MarkerTypes()})),
      waits_(FindWaitStates(table_, store.comms(), options)),
      path_(FindCriticalPath(table_, waits_)),
      omp_(FindOmpWaits(header, store)) {
  const auto phase_of_call = FindLoopPhases(header, store, pcf, table_, &phases_);
  costs_ = FindDelayCosts(table_, waits_, phase_of_call.empty() ? nullptr : &phase_of_call);
  // The markers were read for the iterations only: the table lives as long as the trace.
  for (calls::Rank& r : table_.ranks) std::vector<calls::OtherEvent>().swap(r.other);
  table_.also_read.clear();
  segments_of_rank_.resize(table_.ranks.size());
  for (const PathSegment& s : path_.segments) segments_of_rank_[s.rank].push_back(s);
}


const WaitInstance* TraceDiagnosis::WaitAt(uint32_t thread, Time t) const {
  if (thread >= table_.rank_of_thread.size()) return nullptr;
  const uint32_t rank = table_.rank_of_thread[thread];
  if (rank == calls::kNoRank) return nullptr;
  const auto& calls = table_.ranks[rank].calls;
  const uint32_t c = calls::LastCallEnteredBy(calls, t);
  if (c == calls::kNoCall || t >= calls[c].exit) return nullptr;
  return waits_.Find(rank, c);
}

double TraceDiagnosis::PathShareAt(uint32_t thread, Time t) const {
  if (thread >= table_.rank_of_thread.size()) return 0;
  const uint32_t rank = table_.rank_of_thread[thread];
  if (rank == calls::kNoRank) return 0;
  const auto& calls = table_.ranks[rank].calls;
  // The call running at t, else the burst between the previous call's exit and the next entry.
  const uint32_t c = calls::LastCallEnteredBy(calls, t);
  Time b, e;
  if (c != calls::kNoCall && t < calls[c].exit) {
    b = calls[c].entry, e = calls[c].exit;
  } else {
    b = c == calls::kNoCall ? table_.ranks[rank].first_record : calls[c].exit;
    e = c + 1 < calls.size() && c != calls::kNoCall ? calls[c + 1].entry
        : c == calls::kNoCall && !calls.empty()     ? calls[0].entry
                                                    : std::max(table_.ranks[rank].last_record, b);
  }
  if (e <= b) return 0;
  Time on = 0;
  const auto& segs = segments_of_rank_[rank];
  auto it = std::upper_bound(segs.begin(), segs.end(), b,
                             [](Time v, const PathSegment& s) { return v < s.end; });
  for (; it != segs.end() && it->begin < e; ++it) {
    const Time lo = std::max(it->begin, b), hi = std::min(it->end, e);
    if (hi > lo) on += hi - lo;
  }
  return static_cast<double>(on) / static_cast<double>(e - b);
}

const TraceDiagnosis& LazyDiagnosis::Get() const {
  if (const TraceDiagnosis* done = ready_.load(std::memory_order_acquire)) return *done;
  std::lock_guard<std::mutex> lock(mutex_);
  if (!value_) {
    value_ = std::make_unique<TraceDiagnosis>(*header_, *store_, pcf_);
    ready_.store(value_.get(), std::memory_order_release);
  }
  return *value_;
}

}  // namespace parallax::diagnose
