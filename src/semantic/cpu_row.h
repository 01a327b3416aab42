#pragma once
// The row of one cpu (semantics.md §7): the cpu's record stream (every record whose cpu field
// is this cpu, of all threads, by time then thread), cut into intervals at records that are
// boundaries for the thread function or that belong to another thread; each interval's input is
// the value of its thread's chain if that thread interval was started on this cpu, else 0.
// Internal to src/semantic.

#include <functional>
#include <map>
#include <memory>
#include <vector>

#include "src/semantic/rows.h"

namespace parallax::semantic {

class CpuRow : public Row {
 public:
  // `chain` builds the thread-level row (thread function + compose_thread) of a thread.
  using ChainFactory = std::function<std::unique_ptr<Row>(uint32_t thread)>;
  CpuRow(const WindowEnv& env, const BoundFunction& thread_fn, const BoundFunction& cpu_fn, uint16_t cpu,
         const std::vector<uint32_t>& threads, ChainFactory chain);
  void Init(model::Time t) override;
  void Next() override;

 private:
  // A position in the cpu stream: one cursor per thread on its next record of this cpu.
  struct Stream {
    std::vector<RecordCursor> cursors;  // positioned on the next record with this cpu, or at end
    int current = -1;                   // source of the current record; -1: leading EMPTY
    bool at_end = false;
    RecordRef rec;
    uint32_t thread = 0;
  };
  void Advance(RecordCursor& c) const;  // to the next record of this cpu
  bool Step(Stream& s) const;           // to the next stream record; false at the end
  bool Boundary(const Stream& s, uint32_t interval_thread) const;
  // Starts on the interval containing t from an interval start found in [t0, t]; false when
  // there is none there.
  bool InitFrom(model::Time t0, model::Time t);
  void Compute();
  double Input(uint32_t thread, model::Time t);

  const WindowEnv& env_;
  const BoundFunction& thread_fn_;
  const BoundFunction& cpu_fn_;
  uint16_t cpu_;
  std::vector<uint32_t> threads_;
  std::vector<std::unique_ptr<ThreadRecords>> records_;
  ChainFactory chain_factory_;
  std::map<uint32_t, std::unique_ptr<Row>> chains_;
  Stream at_;    // record starting the current interval
  Stream next_;  // record ending it
};

}  // namespace parallax::semantic
