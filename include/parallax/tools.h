#pragma once
// Trace-processing tools over the public API: cut a time range out of a trace, filter its
// records, summarise it with software counters. Each tool streams the input in file order
// (bounded memory whatever the trace size) and writes a .prv (or .prv.gz) with its .pcf and
// .row under temporary names renamed at the end, never replacing an existing file unless
// asked. The options mirror the keys of paramedir's XML parameter files (docs/tools.md).

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <string_view>
#include <vector>

#include "include/parallax/status.h"

namespace parallax {

// A range of task numbers (1-based, inclusive); a single task has first == last.
struct TaskRange {
  uint32_t first = 0, last = 0;
};

// Paraver's by-time cutter (cutter section of the XML).
struct CutOptions {
  bool by_time = true;          // false: use the percentages of the header end time
  uint64_t begin = 0, end = 0;  // trace units, when by_time
  double begin_percent = 0, end_percent = 100;
  std::vector<TaskRange> tasks;      // empty: every task
  bool original_time = false;        // keep absolute times (forces break_states off)
  bool break_states = true;          // clip states at the cut limits
  bool remove_first_states = false;  // drop states that start before the cut
  bool remove_last_states = false;   // drop states that end after the cut
  bool keep_events = false;          // keep events at the boundaries of kept states
  uint64_t max_trace_size_mb = 0;    // accepted for compatibility; must be 0 (not supported)
  // Pablo's record range: when last_record > 0, the cut goes from the time of body record
  // first_record to the time of body record last_record (1-based, counting state, event and
  // communication lines in file order; a state or communication counts by its first time).
  uint64_t first_record = 0, last_record = 0;
  // Event-driven cut (when by_event): from the first_occurrence-th to the last_occurrence-th
  // occurrence of the event on each thread (1-based; last_occurrence 0: the last one). The cut
  // goes from the earliest thread's first to the latest thread's last of those occurrences.
  // An occurrence is a pair of event_type with value event_value (when has_event_value) or
  // with any value but 0 (0 conventionally closes a region). Only the selected tasks count.
  bool by_event = false;
  uint64_t event_type = 0;
  bool has_event_value = false;
  int64_t event_value = 0;
  uint64_t first_occurrence = 1, last_occurrence = 0;
};

// One event type (or range of types) a filter keeps or discards, optionally only some values.
struct EventTypeSelector {
  uint64_t type = 0, last_type = 0;  // last_type > type: a range
  std::vector<int64_t> values;       // empty: every value
};

// One end of a communication a filter keeps: a task (thread 0: any of its threads) or one
// thread of it (1-based).
struct CommPartner {
  uint32_t task = 0, thread = 0;
};

// Paraver's filter (filter section of the XML).
struct FilterOptions {
  bool keep_states = true;               // discard_states = 0
  bool all_states = true;                // states: All
  std::vector<std::string> state_names;  // .pcf labels or numbers, when !all_states
  uint64_t min_state_time = 0;           // states shorter than this are dropped
  bool keep_events = true;               // discard_events = 0
  bool discard_given_types = false;      // <types use="discard">
  std::vector<EventTypeSelector> types;  // empty: every type
  bool keep_comms = true;                // discard_communications = 0
  int64_t min_comm_size = 0;             // communications smaller than this are dropped

  // Not in paramedir's XML: when >= 0, communications larger than this are dropped.
  int64_t max_comm_size = -1;
  // When non-empty, a communication is kept only when its sender or receiver is one of these.
  std::vector<CommPartner> comm_partners;
  // When non-empty, only communications with one of these tags are kept.
  std::vector<int64_t> comm_tags;
};

// Paraver's software counters (software_counters section of the XML).
struct SoftCountersOptions {
  bool by_intervals = true;                    // false: per burst of the running state
  uint64_t sampling_interval = 0;              // trace units, when by_intervals
  uint64_t minimum_burst_time = 0;             // trace units, when by bursts
  std::vector<EventTypeSelector> count_types;  // counted: one per occurrence
  std::vector<EventTypeSelector> accum_types;  // accumulated: sum of values
  bool remove_states = false;
  bool summarize_useful_states = false;
  bool global_counters = false;  // never reset the counters
  bool only_in_burst_counting = false;
  std::vector<uint64_t> keep_types;  // event types copied to the output unchanged
};

// `parallax shift` (paramedir -t/-tt/-ta/-tw): time offsets per application, task or thread,
// or one for the whole trace (kWorkload).
struct ShiftOptions {
  enum class Level { kApplication, kTask, kThread, kWorkload };
  Level level = Level::kTask;
  std::vector<int64_t> offsets;                // one per object of the level, in the header's order
  std::string offsets_file;                    // where they were read (messages)
  uint64_t memory_bytes = uint64_t{64} << 20;  // for the sort of the shifted records
};

// paramedir's event translator (-et REFERENCE): the event values of the input renumbered to
// what the reference trace's .pcf calls them. Per event type, a value whose label the
// reference gives to another value takes that value; a value the reference uses for a
// different label moves to a free value (above every value in use); the others stay. The
// output .pcf is the reference's plus the values and types only the input has.
struct TranslateOptions {
  std::string reference;  // a trace (.prv/.prv.gz) whose .pcf gives the numbering
};

// One step of a paramedir XML parameter file, in file order (or a shift of paramedir's
// -t/-tt/-ta).
struct ToolStep {
  enum class Kind { kCut, kFilter, kSoftCounters, kShift, kTranslate };
  Kind kind = Kind::kCut;
  CutOptions cut;
  FilterOptions filter;
  SoftCountersOptions softcounters;
  ShiftOptions shift;
  TranslateOptions translate;
  // The options were given on the command line (paramedir's -g/-t/-tt/-ta/-tw), not read from
  // the .xml parameter file.
  bool from_command_line = false;
};

// Reads a paramedir XML parameter file (<config> with <cutter>, <filter> and/or
// <software_counters>). Unknown elements and bad values are errors naming the file, line and
// key.
Result<std::vector<ToolStep>> ReadToolXml(const std::string& path);
// The same from text (tests); `name` is used in messages.
Result<std::vector<ToolStep>> ParseToolXml(const std::string& text, const std::string& name);

// `parallax sort`: the body in the canonical writer's order (time, thread, kind).
struct SortOptions {
  // Lines held in memory at once; a bigger body is sorted in runs of this size written beside
  // the output and merged.
  uint64_t memory_bytes = uint64_t{64} << 20;
};

// Reads an offsets file: one integer per line ('#' comments, blank lines skipped); a bad line
// is an error with its file, line and column.
Result<std::vector<int64_t>> ReadShiftOffsets(const std::string& path);
// The same from text (tests, fuzzing); `name` is used in messages.
Result<std::vector<int64_t>> ParseShiftOffsets(std::string_view text, const std::string& name);

// Where a tool reads and writes.
struct ToolRun {
  std::string input;   // .prv or .prv.gz; its .pcf and .row are read and copied when present
  std::string output;  // .prv or .prv.gz; the .pcf and .row are written beside it
  bool force = false;  // replace existing outputs
  // paramedir's rule for the output: any name, always written as plain text (pypop asks for
  // X.prv.roifilter.gz and reads it as text). Otherwise the name ends in .prv or .prv.gz and
  // .gz means gzip.
  bool paramedir_output = false;
  std::function<void(uint64_t done, uint64_t total)> progress;  // input bytes
  // The date of the cutter's provenance line (YYYYMMDDhhmmss); empty: now (UTC).
  std::string provenance_date;
};

struct ToolReport {
  uint64_t input_records = 0;      // body lines read
  uint64_t output_records = 0;     // body lines written
  uint64_t input_bytes = 0;        // on-disk size of the input
  uint64_t output_bytes = 0;       // bytes written to the .prv (uncompressed)
  std::vector<std::string> notes;  // e.g. an empty result
};

Result<ToolReport> CutTrace(const ToolRun& run, const CutOptions& options);
Result<ToolReport> FilterTrace(const ToolRun& run, const FilterOptions& options);
Result<ToolReport> SoftwareCountersTrace(const ToolRun& run, const SoftCountersOptions& options);
Result<ToolReport> SortTrace(const ToolRun& run, const SortOptions& options);
Result<ToolReport> ShiftTrace(const ToolRun& run, const ShiftOptions& options);
Result<ToolReport> TranslateEventsTrace(const ToolRun& run, const TranslateOptions& options);

// New events merged into a trace by time (`parallax structure -o`): each is written before the
// first record of a later time; their types' .pcf sections are appended to the input's .pcf
// (a type the input's .pcf already describes keeps its labels, said in the notes).
struct AddedEvent {
  uint64_t time = 0;
  uint32_t cpu = 0, appl = 1, task = 1, thread = 1;  // 1-based, cpu 0 = none
  uint64_t type = 0;
  int64_t value = 0;
};
struct AnnotateOptions {
  std::vector<AddedEvent> events;  // in time order
  struct PcfSection {
    uint32_t type = 0;
    std::string text;  // "EVENT_TYPE\n0 TYPE Label\nVALUES\n..."
  };
  std::vector<PcfSection> pcf_sections;
};
Result<ToolReport> AnnotateTrace(const ToolRun& run, const AnnotateOptions& options);

// `parallax merge A.prv B.prv ... -o OUT.prv` (prvmerger -merge / -concat, docs/tools.md).
// Merge: the applications of every input side by side in one trace on the same time base
// (applications, nodes and cpus of input k numbered after those of inputs 1..k-1, records
// renumbered, the body a k-way merge by time). Concat: inputs of the same process and resource
// structure one after the other, input k's times shifted by the header end times of the ones
// before. Both merge the .pcf files (labels of all inputs; conflicting labels keep the first
// input's and are reported in the notes) and the .row files. Streamed: one block of each
// input in memory.
struct MergeOptions {
  std::vector<std::string> inputs;  // .prv or .prv.gz, at least two
  bool concat = false;
};
// run.input is not used (the inputs are in `options`); run.output, force and progress are.
Result<ToolReport> MergePrvTraces(const ToolRun& run, const MergeOptions& options);
// Whether `path` is a Paraver trace: its first line begins with "#Paraver" (.prv or .prv.gz).
bool IsParaverTrace(const std::string& path);

// Clock coherence (parallax clocks, docs/tools.md): messages received before they are sent.
// A communication is physically backward when its physical receive time is before its physical
// send time, logically backward when its logical receive is before its logical send.
struct ClockPair {
  uint32_t send_appl = 0, send_task = 0, recv_appl = 0, recv_task = 0;  // 1-based
  uint64_t messages = 0;                                  // communications of the pair
  uint64_t physical = 0, physical_max = 0, physical_total = 0;  // count; send - receive
  uint64_t logical = 0, logical_max = 0, logical_total = 0;
};

struct ClockReport {
  uint64_t messages = 0;             // communication records
  uint64_t physical = 0, logical = 0;  // backward ones
  std::vector<ClockPair> pairs;      // pairs with a backward message, by (sender, receiver)
};

// Reads `trace` once (streamed, memory bounded by the number of task pairs).
Result<ClockReport> CheckClocks(const std::string& trace,
                                std::function<void(uint64_t, uint64_t)> progress = {});

struct ClockCorrectOptions {
  uint64_t min_latency = 0;   // trace units: a receive is at least this long after its send
  double max_drift = 1e-3;    // bound of the drift search (1e-3 = 1000 ppm)
  bool logical_clock = true;  // fix what the linear model leaves backward
};

// The linear clock model of one task: corrected(t) = t + offset + drift * t + shift, where
// shift is the global shift of the whole trace (ClockCorrection::shift).
struct TaskClock {
  uint32_t appl = 0, task = 0;
  double offset = 0, drift = 0;
  uint64_t messages = 0;  // messages with already fitted tasks used by the fit
  bool fitted = false;    // false: no message, or the reference task (offset and drift 0)
  double margin = 0;      // half the width of the feasible band (< 0: the model cannot fit)
};

struct ClockCorrection {
  ClockReport before, after;
  std::vector<TaskClock> tasks;  // by (appl, task)
  uint32_t reference_appl = 0, reference_task = 0;
  uint64_t shift = 0;            // added to every time so that none is negative
  uint64_t receives_moved = 0;   // receives moved by the logical clock
  uint64_t max_move = 0;         // the largest move of a thread by the logical clock
  uint64_t unresolved = 0;       // receives in a causal cycle, left as they are
  ToolReport io;
};

// Two passes: collects the message pairs, fits each task's offset and drift to the one-way
// delay constraints, applies a logical clock where the linear model is not enough, and writes
// the corrected trace (run.output with its .pcf and .row).
Result<ClockCorrection> CorrectClocks(const ToolRun& run, const ClockCorrectOptions& options);

// The times of body records first..last of a .prv (Pablo's record range, counted as
// CutOptions::first_record/last_record), reading the file only up to record `last`.
Result<std::pair<uint64_t, uint64_t>> RecordRangeTimes(const std::string& prv_path,
                                                       uint64_t first, uint64_t last);

// The companion file of a trace: "x.prv" or "x.prv.gz" -> "x" + ext (ext = ".pcf", ".row").
std::string TraceCompanion(const std::string& trace, const std::string& ext);

}  // namespace parallax
