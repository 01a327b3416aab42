#pragma once
// What every importer of a non-Paraver format produces, and the helper that builds it: records
// are appended per thread in any order, then Finish() sorts them (stably, by time), computes
// the trace end and builds the communication indices and the cpu view, giving the same store
// the .prv reader fills. Labels that a .pcf would hold go into a model::PcfCatalog and object
// names into model::RowNames, so every command and the UI show them.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "src/io/diagnostics.h"
#include "src/io/prv/prv_reader.h"
#include "src/model/pcf_catalog.h"
#include "src/model/row_names.h"

namespace parallax::io {

// A trace read from any format: the Paraver view of it.
struct ImportedTrace {
  PrvTrace prv;
  model::PcfCatalog pcf;
  std::optional<model::RowNames> row;
  std::string format;  // "json", "paje", ... (as DetectTraceFormat names it)
};

// Collects records per thread; the process model must be final before the first record.
class TraceBuilder {
 public:
  explicit TraceBuilder(model::TraceHeader header);

  uint32_t threads() const { return static_cast<uint32_t>(threads_.size()); }
  void AddState(uint32_t thread, model::Time begin, model::Time end, uint32_t state, uint16_t cpu = 0);
  void AddEvent(uint32_t thread, model::Time time, uint32_t type, int64_t value, uint16_t cpu = 0);
  struct Comm {
    uint32_t sender = 0;
    uint32_t receiver = 0;
    uint16_t sender_cpu = 0;
    uint16_t receiver_cpu = 0;
    model::Time log_send = 0, phy_send = 0, log_recv = 0, phy_recv = 0;
    int64_t size = 0;
    int64_t tag = 0;
  };
  void AddComm(const Comm& c);

  // Builds the store. A header end time of 0 becomes the time of the last record; the store's
  // end is always max(header end, last record time), as for .prv.
  PrvTrace Finish(Diagnostics diagnostics, uint64_t file_bytes, uint64_t lines);

 private:
  struct State {
    model::Time begin, end;
    uint32_t state;
    uint16_t cpu;
  };
  struct Event {
    model::Time time;
    int64_t value;
    uint32_t type;
    uint16_t cpu;
  };
  struct PerThread {
    std::vector<State> states;
    std::vector<Event> events;
  };
  model::TraceHeader header_;
  std::vector<PerThread> threads_;
  std::vector<Comm> comms_;
  uint64_t event_records_ = 0;
};

// Turns begin/end pairs nested on each thread into Paraver states: call Boundary before every
// push or pop with the state that was innermost until then (none when nothing was open); each
// interval becomes a state, adjacent intervals of one state merge. Flush each thread at the end.
class StateNester {
 public:
  StateNester(TraceBuilder& builder, uint32_t threads) : b_(builder), tracks_(threads) {}
  void Boundary(uint32_t thread, int64_t t, std::optional<uint32_t> innermost);
  void Flush(uint32_t thread);

 private:
  struct Track {
    int64_t since = 0;
    int64_t pending_begin = 0, pending_end = -1;
    uint32_t pending_state = 0;
  };
  TraceBuilder& b_;
  std::vector<Track> tracks_;
};

// Gives stable small integers to names, in order of first appearance (state and event value
// labels of the .pcf).
class NameTable {
 public:
  explicit NameTable(int64_t first_id) : next_(first_id) {}
  int64_t Id(std::string_view name);
  // (id, name) in id order.
  const std::vector<std::pair<int64_t, std::string>>& entries() const { return entries_; }

 private:
  // Transparent hashing: looking a name up does not build a std::string.
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  int64_t next_;
  std::unordered_map<std::string, int64_t, Hash, std::equal_to<>> ids_;
  std::vector<std::pair<int64_t, std::string>> entries_;
};

// Appends an EVENT_TYPE block for one type with optional value labels.
void AddEventTypeLabel(model::PcfCatalog& pcf, uint32_t type, std::string label,
                       const std::vector<std::pair<int64_t, std::string>>& values = {});

// Splits a line into its fields separated by blanks (spaces, tabs, a carriage return).
void SplitBlankFields(std::string_view line, std::vector<std::string_view>* out);

// 1-based line of byte `offset` in `text`, counted incrementally (offsets must not decrease
// between calls), so locating every diagnostic costs one pass over the file in total.
class LineCounter {
 public:
  explicit LineCounter(std::string_view text) : text_(text) {}
  uint64_t LineOf(size_t offset);
  // 1-based column of `offset` in its line (call after LineOf for the same offset).
  uint64_t ColumnOf(size_t offset) const { return offset - line_start_ + 1; }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  size_t line_start_ = 0;
  uint64_t line_ = 1;
};

}  // namespace parallax::io
