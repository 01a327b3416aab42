#pragma once
// The public API of Parallax's core: open a trace, summarise it, write it back. Front ends
// (the command line, later the server) see only this folder.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "include/parallax/status.h"

namespace parallax {

class FunctionRegistry;  // include/parallax/functions.h
struct Distribution;      // below

// LoadOptions::cache_dir that puts each cache next to its trace (TRACE.pxc).
inline constexpr const char kCacheBeside[] = ":beside:";

struct LoadOptions {
  bool strict = false;     // a malformed or out-of-order record is fatal
  unsigned threads = 0;    // worker threads, 0 = all cores
  size_t chunk_bytes = 0;  // parse chunk size, 0 = automatic
  // Bytes the load may use (records and inflated text); 0 = 3/4 of the physical memory or of
  // the address-space limit. A trace that needs more is refused with an error naming the limit.
  uint64_t memory_limit = 0;
  std::function<void(uint64_t done, uint64_t total)> progress;  // called from the loading thread
  // The semantic functions cfgs may name: null for the built-in ones; a registry with plug-in
  // or Python functions (docs/plugins.md) is shared by the trace, read-only.
  std::shared_ptr<const FunctionRegistry> functions;
  // The on-disk cache of a .prv (docs/formats.md, "Trace cache"): when on, a valid cache is
  // read instead of parsing the trace, and a missing, stale or damaged one is (re)built.
  bool use_cache = false;
  // Where: "" = the user's cache folder ($XDG_CACHE_HOME/parallax, ~/.cache/parallax, else a
  // private /tmp/parallax-UID), kCacheBeside = TRACE.pxc next to the trace (when its folder is
  // writable), else the folder named.
  std::string cache_dir;
  // A missing cache is written only for traces of at least this many bytes of text (a .prv.gz
  // counts 8 times its size); smaller ones load fast enough without. An existing valid cache is
  // read whatever the size. 0 = every trace.
  uint64_t cache_min_bytes = 0;
  // In the user's cache folder: after a cache is written, the least recently used others are
  // removed until the folder's caches take at most this many bytes. 0 = no limit.
  uint64_t cache_max_bytes = 0;
  // Compact records (docs/scale.md "Compact records"): once loaded, every thread's states and
  // events are held coded in blocks (about 5 bytes per record instead of 22) and decoded when
  // something reads them; decoded threads no reader holds are kept within a quarter of the
  // memory limit, the least recently read dropped first.
  bool compact = false;
  // Bytes of decoded threads a compact store keeps when no reader holds them; -1 = a quarter of
  // the memory limit, 0 = none (every read decodes).
  int64_t compact_resident = -1;
  // One line each time a cache is rebuilt or cannot be written; empty = printed on stderr.
  std::function<void(const std::string&)> notice;
  // Set: this open is one process' part of a distributed run (Distribution, below); every
  // process opens the same trace. With the cache, rank 0 writes it when needed and each
  // process checks only its share of it; the event-type scan is shared too. Notices and
  // progress come from rank 0 only.
  const Distribution* distribution = nullptr;
  // Without the cache only: keep the states alone. Event lines give only their time (to the
  // trace end, as a full load would), communication lines nothing, and neither is reported;
  // the trace has no events
  // and no communications, and `info` counts the lines passed over (diagnostic
  // "passed_over"). For a load that serves only cfgs that read states alone
  // (CfgSummary::reads_states_only), such as a first paramedir run without a cache.
  bool states_only = false;
};

// A state value or event type seen in the trace, with its .pcf label and how often it occurs.
struct LabelCount {
  int64_t id = 0;
  std::string label;  // empty when the .pcf has none
  uint64_t count = 0;
};

// One kind of diagnostic with its count and first locations ("file:line:col: detail").
struct DiagnosticInfo {
  std::string kind;
  std::string severity;  // info, warning, error
  std::string description;
  uint64_t count = 0;
  std::vector<std::string> examples;
};

// Everything `parallax info` reports about a loaded trace.
struct TraceInfo {
  std::string path;
  std::string date;
  uint64_t end_time = 0;    // header end time, trace units
  uint64_t trace_end = 0;   // max(header end, record times)
  std::string time_unit;    // ns, us, ms
  uint64_t first_time = 0;  // earliest record time
  uint64_t last_time = 0;   // latest record time (state ends included)
  uint32_t nodes = 0, cpus = 0, appls = 0, tasks = 0, threads = 0;
  uint64_t communicators = 0;
  uint64_t states = 0;       // state records
  uint64_t events = 0;       // event lines
  uint64_t event_pairs = 0;  // type:value pairs (event records)
  uint64_t comms = 0;        // communication records
  uint64_t global_comms = 0;  // type-4 lines, skipped
  // Messages received before they are sent (physical receive < physical send; logical
  // receive < logical send): parallax clocks reports them by pair of tasks.
  uint64_t backward_physical = 0, backward_logical = 0;
  uint64_t records = 0;      // states + event_pairs + comms
  uint64_t file_bytes = 0;   // uncompressed .prv size
  // Bytes of the store's records, held or mapped from a trace cache (compact records at their
  // coded size).
  uint64_t store_bytes = 0;
  double load_seconds = 0;
  // The trace cache of this open: where it is ("" when none is used) and what the open did
  // with it: "read", "written", "not written: ..." (a small trace, a folder that cannot be
  // used), or "off".
  std::string cache_path, cache_use;
  bool has_pcf = false, has_row = false;
  std::vector<LabelCount> state_values;  // by state value
  std::vector<LabelCount> event_types;   // by event type, count of pairs
  std::vector<DiagnosticInfo> diagnostics;  // kinds with a non-zero count
  // False for Trace::Summary(): first_time, last_time, state_values and event_types were not
  // computed (they need a pass over every record).
  bool scanned = true;
};

// The lines every front end shows after a load (the CLI on stderr, the browser as a banner,
// Python as warnings): what the load could not take from the file, or took with doubt. One
// line per diagnostic kind of warning or error severity, with its count and first location;
// empty for a clean trace. `--strict` (LoadOptions::strict) refuses such a trace instead.
std::vector<std::string> LoadWarnings(const TraceInfo& info);

// What the textual view shows: which window (a cfg, or one thread function), which object,
// which time range.
struct TextRequest {
  std::string cfg_path;            // a cfg; its last window unless `window` names another
  std::string cfg_text;            // the cfg's content instead of reading cfg_path (which then
                                   // only names it in messages)
  std::string window;              // window name inside the cfg
  std::string thread_function;     // instead of a cfg: a thread-level window with this function
  std::vector<double> parameters;  // its first parameter (e.g. state values)
  std::string object;              // "THREAD 1.2.1", "TASK 1.2", "APPL 1", "WORKLOAD" or "1.2.1"
  // Instead of `object`: the 0-based object at the window's level, any level (the `object` of
  // a row in a timeline's layout).
  std::optional<uint32_t> object_index;
  std::optional<uint64_t> from, to;  // trace units; default: the whole trace
  double time_limit = 0;             // seconds of computing allowed; 0 = no limit
  uint64_t memory_limit = 0;         // bytes the view may hold; 0 = no limit
  bool records = true;               // false: the intervals only (no events, no communications)
};

struct TextInterval {
  uint64_t begin = 0, end = 0;  // trace units
  double value = 0;
  std::string label;  // .pcf label of the value when the window's values are states/events
};
struct TextEvent {
  uint64_t time = 0;
  uint32_t type = 0;
  int64_t value = 0;
  std::string type_label, value_label;
  std::string thread;  // "THREAD a.t.h"
};
struct TextComm {
  bool send = true;  // sent by (true) or received by (false) a thread of the object
  std::string thread, partner;  // "THREAD a.t.h"
  uint64_t log_send = 0, phy_send = 0, log_recv = 0, phy_recv = 0;
  int64_t size = 0, tag = 0;
};
struct TextView {
  std::string window;
  std::string object;
  std::string function;  // top function of the chain, for the header
  std::string time_unit;  // trace unit
  uint64_t from = 0, to = 0;
  std::vector<TextInterval> intervals;
  std::vector<TextEvent> events;
  std::vector<TextComm> comms;
};

// One analysis spread over several processes (MPI ranks, docs/scale.md): every process opens
// the same trace and makes the same calls; each computes its share of the histogram rows (row i
// when i % ranks == rank), and the shares meet through `allgather`, which every process calls
// the same number of times: it takes this process' bytes and returns every process' bytes, in
// rank order. Results are identical to a single process'; only rank 0's outputs are meant to be
// written.
struct Distribution {
  unsigned rank = 0;
  unsigned ranks = 1;
  unsigned threads = 0;  // worker threads of this process (its share of a node); 0 = all cores
  std::function<std::vector<std::string>(const std::string& mine)> allgather;
};

// A process of a distributed run that cannot call Trace::Open (its own options are wrong)
// calls this instead, so that the others stop with an error instead of waiting for it.
void LeaveDistributedOpen(const Distribution& distribution);

// paramedir-compatible batch output of one cfg.
struct ParamedirOptions {
  bool trace_units = false;  // -tu
  bool no_precision_limit = false;  // -npr: 10 decimals in tables
  bool one_file_per_object = false;  // -m
  bool hide_empty_columns = false;   // -e: hide the columns whose total is 0 (histograms)
  bool selected_plane_only = false;  // -p: only the selected plane of 3D histograms
  // A portion of the trace, trace units (see TraceRange): histograms use it in place of the
  // cfg's Analyzer2D.AnalysisLimits, timeline dumps in place of the window's begin/end time.
  std::optional<uint64_t> from = std::nullopt, to = std::nullopt;
  // Set: this call is one process' part of a distributed run. Every process calls allgather
  // exactly once per Paramedir call, whatever happens, so none waits for ever.
  const Distribution* distribution = nullptr;
};
struct ParamedirOutput {
  std::string file_name;  // relative name to write, as paramedir names it
  std::string content;    // may be empty: a 3D histogram whose planes are all empty is a 0-byte file
  std::vector<std::string> notices;  // messages paramedir prints
  // False where paramedir writes no file at all (none of the filtered event types is in the
  // trace, a window without objects): scripts test for the file's existence.
  bool write = true;
};

// The histograms of a cfg as tables (`parallax analyze`, analysis.md).
struct AnalyzeRequest {
  std::string cfg_path;
  std::string cfg_text;             // the cfg's content instead of reading cfg_path
  bool all_histograms = true;       // false: only the last one (as paramedir)
  bool hide_empty_columns = false;  // besides the cfg's Analyzer2D.HideCols
  double time_limit = 0;            // seconds of computing allowed; 0 = no limit
  uint64_t memory_limit = 0;        // bytes the histograms may hold; 0 = no limit
  // Analyse only [from, to), trace units (see TraceRange), in place of the cfg's
  // Analyzer2D.AnalysisLimits; unset: the cfg's limits.
  std::optional<uint64_t> from = std::nullopt, to = std::nullopt;
  // Set: one process' part of a distributed run (as ParamedirOptions::distribution); only
  // rank 0's tables are complete (the others hold their share of the rows only).
  const Distribution* distribution = nullptr;
};
struct AnalyzePlane {
  std::string label;  // 3D plane label; empty for 2D histograms
  std::vector<std::string> columns;         // column labels (.pcf labels, bin ranges, objects)
  std::vector<std::string> rows;            // row labels
  std::vector<uint32_t> row_objects;        // 0-based object (at the control window's level) of each row
  // The control-window values each column counts: [low, high) for bins; low == high for a
  // column of one discrete value; both NaN for communication histograms' partner columns.
  std::vector<std::pair<double, double>> column_ranges;
  std::vector<std::vector<double>> values;  // [row][column]; missing cells are 0, NaN kept
  std::vector<std::string> total_names;     // Total, Average, Maximum, Minimum, StDev, Avg/Max
  std::vector<std::vector<double>> totals;  // [total][column]
};
struct AnalyzeTable {
  std::string name;       // Analyzer2D.Name
  std::string statistic;  // the printed statistic
  // Of the statistic's values: the control window's time unit for times, "%", "count",
  // "bytes", the data window's value unit (WindowIntervals::unit) for its values.
  std::string unit;
  int control_window = -1;  // 0-based cfg window indices
  int data_window = -1;
  int extra_window = -1;    // -1 for 2D histograms
  std::vector<AnalyzePlane> planes;
  // False where paramedir writes no file for this cfg (ParamedirOutput::write): none of the
  // filtered event types is in the trace, or a window has no object.
  bool paramedir_writes = true;
};

// A loaded trace (.prv with its .pcf and .row).
class Trace {
 public:
  virtual ~Trace() = default;

  // Loads `path` (.prv or .prv.gz) and the .pcf/.row next to it, if present.
  static Result<std::unique_ptr<Trace>> Open(const std::string& path, const LoadOptions& options = {});

  virtual TraceInfo Info() const = 0;
  // Info without what needs a pass over every record (TraceInfo::scanned is false): what the
  // header, the counts and the communication table tell, at once whatever the trace's size.
  virtual TraceInfo Summary() const = 0;

  // Writes the trace as `prv_path` (.prv or .prv.gz) with a .pcf and .row beside it (when the
  // input had them). Existing files are never replaced unless `overwrite`.
  virtual Status Write(const std::string& prv_path, bool overwrite) const = 0;

  // The textual (what/where) view of one object of a window over a time range.
  virtual Result<TextView> Text(const TextRequest& request) const = 0;

  // What paramedir writes for `cfg_path` (one output, or one per object with -m);
  // `output_name` is the optional name argument.
  virtual Result<std::vector<ParamedirOutput>> Paramedir(const std::string& cfg_path, const std::string& output_name,
                                            const ParamedirOptions& options) const = 0;

  // Whether a file the trace's records are mapped from (its trace cache) was truncated while
  // in use (rsync --inplace or cp onto it): its records then read as zeros, and every call fails
  // saying that the trace changed. Open it again (the server does so by itself).
  virtual bool Changed() const { return false; }
};

// A portion of a trace: [from, to) in trace units. Histograms clip every interval to it
// (Paraver's Analyzer2D.AnalysisLimits, analysis.md §4) and count communications whose time is
// in [from, to].
struct TimeSpan {
  uint64_t from = 0, to = 0;
};

// The portion `from`..`to` of `trace` with its defaults filled (0 and the trace end), or an
// error when from >= to or the range reaches beyond the trace end.
Result<TimeSpan> TraceRange(const Trace& trace, std::optional<uint64_t> from,
                            std::optional<uint64_t> to);

// Computes the histograms of a cfg on a trace opened with Trace::Open.
Result<std::vector<AnalyzeTable>> Analyze(const Trace& trace, const AnalyzeRequest& request);

// Writes `trace` as Pablo SDDF (ASCII, or binary in this machine's byte order), which Parallax
// reads back without loss (docs/formats.md).
Status WriteSddf(const Trace& trace, const std::string& path, bool binary, bool overwrite);
// Whether `path` holds a KSR gist or brief event log, and Pablo's ksr2sddf conversion of one:
// one record descriptor per event name, one data record per event.
bool IsKsrLog(const std::string& path);
Status ConvertKsrLogToSddf(const std::string& log, const std::string& sddf, bool binary, bool overwrite);

// The .pcf and .row names Paraver derives from a trace name (strip "prv" or "prv.gz").
std::string CompanionPath(const std::string& prv_path, const std::string& extension);

// Every file an open of `path` may read, by name (whether or not each exists): the trace and
// its .pcf and .row, and for an OTF2 archive (a NAME.otf2 anchor, or a folder holding one) the
// anchor, NAME.def, the folder NAME/ and everything in it. Lets a front end check where each
// leads before the trace is opened (the server keeps them all under its root).
std::vector<std::string> TraceInputFiles(const std::string& path);

}  // namespace parallax
