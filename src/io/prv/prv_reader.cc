#include "src/io/prv/prv_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <numeric>

#include "src/base/gzip_stream.h"
#include "src/base/memory_budget.h"
#include "src/base/parallel.h"
#include "src/base/text_safety.h"
#include "src/io/prv/prv_body_feed.h"
#include "src/io/prv/prv_body_parser.h"
#include "src/io/prv/prv_header_parser.h"

namespace parallax::io {

namespace {

using model::Time;
using prv_internal::BodyFeed;
using prv_internal::ChunkComm;
using prv_internal::ChunkResult;
using prv_internal::CountChunk;
using prv_internal::GzipFeed;
using prv_internal::MemoryFeed;
using prv_internal::ParseChunk;
using prv_internal::Piece;

// Finds the end of line `pos` (exclusive of '\n'), returning the next line's start in `next`
// and whether the line ended with a newline in `complete`.
std::string_view NextLine(std::string_view text, size_t pos, size_t* next,
                          bool* complete = nullptr) {
  size_t nl = text.find('\n', pos);
  if (complete != nullptr) *complete = nl != std::string_view::npos;
  if (nl == std::string_view::npos) {
    *next = text.size();
    return text.substr(pos);
  }
  *next = nl + 1;
  return text.substr(pos, nl - pos);
}

// Bytes at the start of the input searched for NUL: a text trace has none anywhere, so one this
// early means binary data (and saves scanning gigabytes of it).
constexpr size_t kBinaryProbe = 64 << 10;

Status CheckNotBinary(std::string_view text, const std::string& file) {
  auto nul = base::FindNul(text, kBinaryProbe);
  if (!nul) return Status::Ok();
  uint64_t line = 1 + static_cast<uint64_t>(std::count(
                          text.begin(), text.begin() + static_cast<ptrdiff_t>(*nul), '\n'));
  size_t line_start = text.rfind('\n', *nul);
  uint64_t column = *nul - (line_start == std::string_view::npos ? 0 : line_start + 1) + 1;
  return Status::Error(
      fmt::format("binary data: a NUL byte at byte offset {}; a .prv trace is text", *nul),
      Location{file, line, column},
      "is this a Paraver trace? a compressed trace must have a name ending in .gz");
}

// Parses the header line and the communicator lines. When `need_more` is given, `text` is only
// the beginning of the input: if it ends before the header does, *need_more is set instead of
// failing.
Result<size_t> ParseHeaderLines(std::string_view text, const std::string& file,
                                model::TraceHeader* out, bool* need_more = nullptr) {
  if (need_more != nullptr) *need_more = false;
  Status binary = CheckNotBinary(text, file);
  if (!binary.ok()) return binary;
  size_t pos = 0;
  bool complete = false;
  std::string_view first = NextLine(text, 0, &pos, &complete);
  if (!complete && need_more != nullptr) {
    *need_more = true;
    return size_t{0};
  }
  if (first.substr(0, 10) == "new format")
    return Status::Error("unsupported .prv variant 'new format' (Paraver's legacy v2 body)",
                         Location{file, 1, 1}, "convert the trace with a current Paraver first");
  if (text.empty())
    return Status::Error("empty file: expected a '#Paraver' header line", Location{file, 1, 1},
                         "is this the right file?");
  auto header = ParsePrvHeader(first, file);
  if (!header.ok()) return header.status();
  *out = std::move(header.value());
  for (size_t i = 0; i < out->communicators.size(); ++i) {
    const bool at_end = pos >= text.size();
    std::string_view line;
    complete = false;
    if (!at_end) line = NextLine(text, pos, &pos, &complete);
    if (at_end || !complete) {
      if (need_more != nullptr) {
        *need_more = true;
        return size_t{0};
      }
      if (at_end)
        return Status::Error(fmt::format("expected communicator line {} of {}, found end of file",
                                         i + 1, out->communicators.size()),
                             Location{file, i + 2, 1},
                             "the header's communicator count (after the last ',') is too large");
    }
    // Every trailing '\r' goes (not only a CRLF's): the line is kept as text and written back
    // with '\n', so a kept '\r' would be lost one per read and write.
    while (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    Status s = CheckCommunicatorLine(line, file, i + 2);
    if (!s.ok()) return s;
    out->communicators[i] = std::string(line);
  }
  return pos;
}

// In place: the column may be a writable view of the cache file being written.
template <typename T>
void ApplyPermutation(store::Column<T>& v, const std::vector<uint32_t>& perm) {
  std::vector<T> tmp(v.size());
  const store::Column<T>& in = v;
  for (size_t i = 0; i < perm.size(); ++i) tmp[i] = in[perm[i]];
  std::copy(tmp.begin(), tmp.end(), v.begin());
}

// Stable sort of one thread's columns by their time key, when the parser found them unsorted.
void SortThread(store::ThreadRecords& tr) {
  auto sort_by = [](const store::Column<Time>& key) {
    std::vector<uint32_t> perm(key.size());
    std::iota(perm.begin(), perm.end(), 0u);
    std::stable_sort(perm.begin(), perm.end(), [&](uint32_t a, uint32_t b) { return key[a] < key[b]; });
    return perm;
  };
  if (!std::is_sorted(tr.states.begin.begin(), tr.states.begin.end())) {
    auto perm = sort_by(tr.states.begin);
    ApplyPermutation(tr.states.begin, perm);
    ApplyPermutation(tr.states.end, perm);
    ApplyPermutation(tr.states.state, perm);
    ApplyPermutation(tr.states.cpu, perm);
  }
  if (!std::is_sorted(tr.events.time.begin(), tr.events.time.end())) {
    auto perm = sort_by(tr.events.time);
    ApplyPermutation(tr.events.time, perm);
    ApplyPermutation(tr.events.type, perm);
    ApplyPermutation(tr.events.value, perm);
    ApplyPermutation(tr.events.cpu, perm);
  }
}

// Appends the chunks' communications to the table.
void AppendComms(const std::vector<ChunkResult>& chunks, store::CommTable& table) {
  size_t i = table.rows(), n = i;
  for (const auto& c : chunks) n += c.comms.size();
  table.Resize(n);
  for (const auto& c : chunks) {
    for (const ChunkComm& m : c.comms) {
      table.sender[i] = m.sender;
      table.receiver[i] = m.receiver;
      table.sender_cpu[i] = m.sender_cpu;
      table.receiver_cpu[i] = m.receiver_cpu;
      table.log_send[i] = m.log_send;
      table.phy_send[i] = m.phy_send;
      table.log_recv[i] = m.log_recv;
      table.phy_recv[i] = m.phy_recv;
      table.size[i] = m.size;
      table.tag[i] = m.tag;
      ++i;
    }
  }
}


// Closes the holes left by records that pass 1 counted but pass 2 rejected, reports records
// out of order across chunk boundaries, and sorts the thread when needed.
template <typename Columns>
bool FinishColumns(std::vector<ChunkResult>& chunks, size_t t, bool states, Columns& cols,
                   const store::Column<Time>& key, const std::vector<uint64_t>& line_offset,
                   std::unique_ptr<Diagnostics>& diags) {
  uint64_t write = 0;
  bool unsorted = false, have_last = false;
  Time last = 0;
  for (size_t k = 0; k < chunks.size(); ++k) {
    ChunkResult& c = chunks[k];
    uint64_t begin = states ? c.state_begin[t] : c.event_begin[t];
    uint64_t end = states ? c.state_cursor[t] : c.event_cursor[t];
    if (end == begin) continue;
    unsorted = unsorted || c.any_out_of_order;
    if (have_last && key[begin] < last) {
      unsorted = true;
      uint64_t line = states ? c.first_state_line[t] : c.first_event_line[t];
      if (!diags) diags = std::make_unique<Diagnostics>();  // rare: none for most threads
      diags->Add(DiagKind::kOutOfOrder, line_offset[k] + line, 0,
                 fmt::format("time {} comes after {} on the same thread", key[begin], last));
    }
    last = key[end - 1];
    have_last = true;
    if (write != begin) cols.MoveRange(begin, end, write);
    write += end - begin;
  }
  if (write != cols.size()) cols.Truncate(write);
  return unsorted;
}

// What the parsed chunks add up to, in file order: their lines, diagnostics, communications
// and the finishing of every thread's columns (holes closed, sorted when needed).
class BodyTotals {
 public:
  explicit BodyTotals(const PrvTrace& trace)
      : lines_(1 + trace.header.communicators.size()), end_(trace.header.end_time) {}

  // The chunks parsed into `store` (the trace's, or a segment's), which follow the ones added
  // before them.
  void Add(std::vector<ChunkResult>& chunks, PrvTrace& trace, store::TraceStore& store, unsigned workers) {
    const size_t nthreads = store.threads();
    std::vector<uint64_t> line_offset(chunks.size());
    for (size_t k = 0; k < chunks.size(); ++k) {
      line_offset[k] = lines_;
      lines_ += chunks[k].lines;
    }
    std::vector<std::unique_ptr<Diagnostics>> boundary(nthreads);
    base::ParallelFor(nthreads, workers, [&](size_t t) {
      auto& tr = store.thread(model::ThreadIndex(static_cast<uint32_t>(t)));
      bool unsorted = FinishColumns(chunks, t, true, tr.states, tr.states.begin, line_offset, boundary[t]);
      unsorted = FinishColumns(chunks, t, false, tr.events, tr.events.time, line_offset, boundary[t]) || unsorted;
      if (unsorted) SortThread(tr);
    });
    AppendComms(chunks, trace.store.comms());
    for (size_t k = 0; k < chunks.size(); ++k) {
      const ChunkResult& c = chunks[k];
      trace.diagnostics.Merge(c.diags, line_offset[k]);
      trace.body_lines += c.lines;
      trace.event_lines += c.event_lines;
      trace.global_comm_lines += c.global_comms;
      trace.passed_over_lines += c.passed_over;
      dash_ += c.open_end_dash;
      number_ += c.open_end_number;
      end_ = std::max(end_, c.max_time);
      for (uint32_t t : c.unsigned_types)
        if (std::find(trace.unsigned_value_types.begin(), trace.unsigned_value_types.end(), t) ==
            trace.unsigned_value_types.end())
          trace.unsigned_value_types.push_back(t);
    }
    trace.chunks += chunks.size();
    for (const auto& d : boundary)
      if (d) trace.diagnostics.Merge(*d, 0);
  }

  void Finish(PrvTrace& trace) const {
    trace.open_end_as_number = number_ > 0 && dash_ == 0;
    std::sort(trace.unsigned_value_types.begin(), trace.unsigned_value_types.end());
    trace.store.set_end_time(end_);
  }

 private:
  uint64_t lines_;
  Time end_;
  uint64_t dash_ = 0, number_ = 0;
};

}  // namespace

// The first problem in file order (what --strict reports): the earliest example of any
// warning or error kind; a problem of the whole input (no line, such as a truncated .gz) comes
// first, since it explains the others.
Status StrictCheck(const Diagnostics& d, const std::string& file) {
  const DiagExample* first = nullptr;
  DiagKind first_kind = DiagKind::kCount;
  for (size_t k = 0; k < static_cast<size_t>(DiagKind::kCount); ++k) {
    DiagKind kind = static_cast<DiagKind>(k);
    if (DiagKindSeverity(kind) == Severity::kInfo || d.count(kind) == 0) continue;
    const auto& ex = d.examples(kind);
    if (first_kind == DiagKind::kCount) first_kind = kind;
    if (!ex.empty() && (first == nullptr || ex[0].line < first->line)) {
      first = &ex[0];
      first_kind = kind;
    }
  }
  if (first_kind == DiagKind::kCount) return Status::Ok();
  Location where{file, first ? first->line : 0, first ? first->column : 0};
  return Status::Error(
      fmt::format("{} ({} in all){}{}", DiagKindDescription(first_kind), d.count(first_kind),
                  first ? ": " : "", first ? first->detail : ""),
      where,
      "strict mode refuses any malformed or out-of-order record; drop --strict to load it anyway");
}

// The error for a body without any record: names what was rejected, so the reason is visible
// even though the diagnostics table is not returned.
Status EmptyBodyError(const Diagnostics& d, const std::string& file) {
  if (d.skipped() == 0)
    return Status::Error("empty body: the trace has no valid state, event or communication record",
                         Location{file, 0, 0}, "the file holds only a header");
  const DiagExample* first = nullptr;
  DiagKind first_kind = DiagKind::kCount;
  for (size_t k = 0; k < static_cast<size_t>(DiagKind::kCount); ++k) {
    DiagKind kind = static_cast<DiagKind>(k);
    if (DiagKindSeverity(kind) != Severity::kError || d.count(kind) == 0) continue;
    const auto& ex = d.examples(kind);
    if (first_kind == DiagKind::kCount) first_kind = kind;
    if (!ex.empty() && (first == nullptr || ex[0].line < first->line)) {
      first = &ex[0];
      first_kind = kind;
    }
  }
  return Status::Error(
      fmt::format("empty body: every record was rejected ({} skipped); the first: {}{}{}",
                  d.skipped(), DiagKindDescription(first_kind), first ? ": " : "",
                  first ? first->detail : ""),
      Location{file, first ? first->line : 0, first ? first->column : 0},
      "check that the header declares the objects the records use; `parallax info` on a "
      "partly valid trace lists every kind of problem");
}

namespace {

// Bytes the store will need for the counted records of a chunk (architecture.md, "Memory
// layout"), plus the chunk's bookkeeping; without the state and event columns when they are
// placed outside the process' memory (PrvReadOptions::place_columns).
uint64_t ChunkBytes(const ChunkResult& c, size_t nthreads, bool columns = true) {
  constexpr uint64_t kState = 2 * sizeof(Time) + sizeof(uint32_t) + sizeof(uint16_t);
  constexpr uint64_t kEvent = sizeof(Time) + sizeof(uint32_t) + sizeof(int64_t) + sizeof(uint16_t);
  constexpr uint64_t kComm = 68 + sizeof(ChunkComm);
  uint64_t states = 0, events = 0;
  if (columns) {
    for (uint64_t n : c.state_count) states += n;
    for (uint64_t n : c.event_count) events += n;
  }
  return states * kState + events * kEvent + c.comm_count * kComm + nthreads * 8 * sizeof(uint64_t);
}

Status BudgetError(uint64_t need, uint64_t budget, bool whole, const std::string& file) {
  return Status::Error(
      fmt::format("the trace does not fit in the memory budget: its records need {} {}, the budget "
                  "is {}",
                  whole ? "about" : "more than", base::FormatBytes(need),
                  base::FormatBytes(budget)),
      Location{file, 0, 0},
      "raise the memory limit if the machine has the memory (the default is 3/4 of the physical "
      "memory, of `ulimit -v` or of the job's cgroup), or cut the trace to a time range or a subset of threads first");
}

// Every chunk keeps a few counters per thread of the trace: a chunk is made at least as large as
// those (when there are many threads), so that a small file with a header declaring a million
// threads does not cost gigabytes when it is cut into small chunks.
size_t ChunkFloor(size_t chunk, size_t nthreads) {
  constexpr size_t kManyThreads = 1024;
  return nthreads > kManyThreads ? std::max(chunk, nthreads * 8 * sizeof(uint64_t)) : chunk;
}

// Where each chunk's records of each thread begin among the thread's records (the counts of
// the chunks before it), and each thread's total.
void SetChunkBegins(std::vector<ChunkResult>& chunks, size_t nthreads, unsigned workers,
                    std::vector<uint64_t>& state_total, std::vector<uint64_t>& event_total) {
  for (auto& c : chunks) {
    c.state_begin.resize(nthreads);
    c.event_begin.resize(nthreads);
  }
  base::ParallelFor(nthreads, workers, [&](size_t t) {
    uint64_t ns = 0, ne = 0;
    for (auto& c : chunks) {
      c.state_begin[t] = ns;
      c.event_begin[t] = ne;
      ns += c.state_count[t];
      ne += c.event_count[t];
    }
    state_total[t] = ns;
    event_total[t] = ne;
  });
}

// Parses the body delivered by `feed` into `trace` (whose header is set), in two passes.
Status ParseBody(BodyFeed& feed, PrvTrace& trace, const std::string& file,
                 const PrvReadOptions& options) {
  const prv_internal::ChunkOptions chunk_options{options.states_only};
  const unsigned workers = options.threads ? options.threads : base::DefaultThreads();
  const uint64_t budget = base::EffectiveMemoryBudget(options.memory_budget);
  const size_t nthreads = trace.header.processes.threads();
  std::vector<ChunkResult> chunks;
  std::vector<Piece> batch;
  std::atomic<uint64_t> done{0};
  int pass = 0;
  auto poll = [&] {
    if (options.progress) {
      auto [d, t] = feed.Progress(done.load(), pass);
      options.progress(d, t);
    }
  };

  // Pass 1: how many records each chunk gives each thread.
  uint64_t need = nthreads * (sizeof(store::ThreadRecords) + sizeof(void*));
  Status s = feed.Restart();
  if (!s.ok()) return s;
  for (;;) {
    s = feed.NextBatch(batch);
    if (!s.ok()) return s;
    if (batch.empty()) break;
    const size_t first = chunks.size();
    chunks.resize(first + batch.size());
    base::ParallelFor(
        batch.size(), workers,
        [&](size_t k) {
          CountChunk(trace.header, batch[k].text, chunks[first + k], chunk_options);
          // Mapped pages are dropped after each pass (page-cache refaults are cheap), so a large
          // file never stays resident next to the store.
          feed.Release(batch[k]);
          done += batch[k].text.size();
        },
        poll);
    // Stop as soon as the records counted so far exceed the budget.
    for (size_t k = first; k < chunks.size(); ++k)
      need += ChunkBytes(chunks[k], nthreads, !options.place_columns);
    if (need + feed.buffer_bytes() > budget)
      return BudgetError(need + feed.buffer_bytes(), budget, feed.exhausted(), file);
  }

  // Every thread's columns are sized once; chunk k writes from offset sum(counts of chunks < k).
  trace.store = store::TraceStore(nthreads);
  std::vector<uint64_t> state_total(nthreads), event_total(nthreads);
  SetChunkBegins(chunks, nthreads, workers, state_total, event_total);
  bool placed = false;
  if (options.place_columns) {
    placed = options.place_columns(state_total, event_total, trace.store).ok();
    if (!placed) {  // allocated after all: the budget counts them again
      trace.store = store::TraceStore(nthreads);
      need = nthreads * (sizeof(store::ThreadRecords) + sizeof(void*));
      for (const auto& c : chunks) need += ChunkBytes(c, nthreads);
      if (need + feed.buffer_bytes() > budget)
        return BudgetError(need + feed.buffer_bytes(), budget, true, file);
    }
  }
  if (!placed) {
    base::ParallelFor(nthreads, workers, [&](size_t t) {
      auto& tr = trace.store.thread(model::ThreadIndex(static_cast<uint32_t>(t)));
      tr.states.Resize(state_total[t]);
      tr.events.Resize(event_total[t]);
    });
  }

  // Pass 2: parse and write in place.
  pass = 1;
  done = 0;
  s = feed.Restart();
  if (!s.ok()) return s;
  for (size_t next = 0;;) {
    s = feed.NextBatch(batch);
    if (!s.ok()) return s;
    if (batch.empty()) {
      if (next != chunks.size())
        return Status::Error("the input changed while it was read", Location{file, 0, 0},
                             "load it again");
      break;
    }
    if (next + batch.size() > chunks.size())
      return Status::Error("the input changed while it was read", Location{file, 0, 0},
                           "load it again");
    const size_t first = next;
    base::ParallelFor(
        batch.size(), workers,
        [&](size_t k) {
          ChunkResult& c = chunks[first + k];
          c.state_cursor = c.state_begin;
          c.event_cursor = c.event_begin;
          ParseChunk(trace.header, batch[k].text, first + k + 1 == chunks.size(), trace.store, c,
                     chunk_options);
          feed.Release(batch[k]);
          done += batch[k].text.size();
        },
        poll);
    next += batch.size();
  }

  BodyTotals totals(trace);
  totals.Add(chunks, trace, trace.store, workers);
  totals.Finish(trace);
  chunks.clear();
  trace.text_buffer_bytes = feed.buffer_bytes();
  return Status::Ok();
}

// Parses the body in one pass, a segment of a chunk per worker at a time, each segment into a
// store of its own that is handed to options.segments (PrvReadOptions) and then dropped.
Status ParseSegments(BodyFeed& feed, PrvTrace& trace, const std::string& file, const PrvReadOptions& options) {
  const prv_internal::ChunkOptions chunk_options{options.states_only};
  const unsigned workers = options.threads ? options.threads : base::DefaultThreads();
  const uint64_t budget = base::EffectiveMemoryBudget(options.memory_budget);
  const size_t nthreads = trace.header.processes.threads();
  std::vector<Piece> batch;
  std::atomic<uint64_t> done{0};
  auto poll = [&] {
    if (options.progress) {
      auto [d, t] = feed.Progress(done.load(), 0);  // (d, t) of a first pass of two: one pass is 2d
      options.progress(std::min(2 * d, t), t);
    }
  };
  trace.store = store::TraceStore(nthreads);
  BodyTotals totals(trace);
  Status s = feed.Restart();
  if (!s.ok()) return s;
  for (;;) {
    s = feed.NextBatch(batch);
    if (!s.ok()) return s;
    if (batch.empty()) break;
    for (size_t g = 0; g < batch.size(); g += workers) {
      const size_t n = std::min<size_t>(workers, batch.size() - g);
      std::vector<ChunkResult> chunks(n);
      base::ParallelFor(
          n, workers, [&](size_t k) { CountChunk(trace.header, batch[g + k].text, chunks[k], chunk_options); },
          poll);
      uint64_t need = trace.store.comms().MemoryBytes() + feed.buffer_bytes();
      for (const ChunkResult& c : chunks) need += ChunkBytes(c, nthreads);
      // The need of the whole trace when this segment is all of it, else a lower bound.
      const bool whole = trace.chunks == 0 && feed.exhausted() && g + n == batch.size();
      if (need > budget) return BudgetError(need, budget, whole, file);
      store::TraceStore segment(nthreads);
      std::vector<uint64_t> state_total(nthreads), event_total(nthreads);
      SetChunkBegins(chunks, nthreads, workers, state_total, event_total);
      base::ParallelFor(nthreads, workers, [&](size_t t) {
        auto& tr = segment.thread(model::ThreadIndex(static_cast<uint32_t>(t)));
        tr.states.Resize(state_total[t]);
        tr.events.Resize(event_total[t]);
      });
      base::ParallelFor(
          n, workers,
          [&](size_t k) {
            ChunkResult& c = chunks[k];
            c.state_cursor = c.state_begin;
            c.event_cursor = c.event_begin;
            ParseChunk(trace.header, batch[g + k].text, feed.exhausted() && g + k + 1 == batch.size(), segment, c,
                       chunk_options);
            feed.Release(batch[g + k]);
            done += batch[g + k].text.size();
          },
          poll);
      totals.Add(chunks, trace, segment, workers);
      trace.segment_records += segment.state_records() + segment.event_records();
      s = options.segments(trace.header, segment);
      if (!s.ok()) return s;
    }
  }
  totals.Finish(trace);
  trace.text_buffer_bytes = feed.buffer_bytes();
  return Status::Ok();
}

// What every load does after the body: strict check, empty body, indices.
Status FinishTrace(PrvTrace& trace, const std::string& file, const PrvReadOptions& options) {
  const unsigned workers = options.threads ? options.threads : base::DefaultThreads();
  if (options.strict) {
    Status s = StrictCheck(trace.diagnostics, file);
    if (!s.ok()) return s;
  }
  // A states-only load of a trace without states has records all the same: none is an error.
  if (trace.store.state_records() + trace.store.event_records() + trace.segment_records +
          trace.store.comms().rows() + trace.passed_over_lines ==
      0)
    return EmptyBodyError(trace.diagnostics, file);
  store::BuildCommIndices(trace.store, workers);
  store::BuildCpuView(trace.store, trace.header.resources.cpus(), workers);
  return Status::Ok();
}

// The largest chunk of the one-pass parse (PrvReadOptions::segments): a segment holds a chunk per
// worker as plain columns (about 1.3 bytes per byte of text), so chunks of 16 MiB at most, and
// small enough for a segment to take a quarter of the budget.
size_t SegmentChunkCap(uint64_t budget, unsigned workers) {
  return static_cast<size_t>(std::clamp<uint64_t>(budget / 4 / workers, 4 << 10, 16 << 20));
}

// Reads a gzip stream: the header from a prefix of the inflated text, then the body streamed.
Result<PrvTrace> ParseGzipStream(base::GzipStream& z, const std::string& file,
                                 const PrvReadOptions& options) {
  PrvTrace trace;
  const uint64_t budget = base::EffectiveMemoryBudget(options.memory_budget);
  const uint64_t max_line = std::max<uint64_t>(budget / 4, 1 << 16);
  std::string prefix;
  size_t want = 1 << 16;
  bool complete = false;
  uint64_t body_begin = 0;
  for (;;) {
    while (prefix.size() < want && !complete) {
      size_t old = prefix.size();
      prefix.resize(want);
      auto got = z.Read(prefix.data() + old, want - old);
      if (!got.ok()) return got.status();
      prefix.resize(old + got.value());
      complete = got.value() == 0 || z.truncated();
    }
    bool need_more = false;
    auto r = ParseHeaderLines(prefix, file, &trace.header, complete ? nullptr : &need_more);
    if (!r.ok()) return r.status();
    if (!need_more) {
      body_begin = r.value();
      break;
    }
    if (want >= max_line)
      return Status::Error(fmt::format("the header is longer than {}", base::FormatBytes(max_line)),
                           Location{file, 1, 0},
                           "this is not a Paraver trace, or its memory budget is far too small");
    want *= 2;
  }
  prefix = std::string();
  const unsigned workers = options.threads ? options.threads : base::DefaultThreads();
  size_t chunk = options.chunk_bytes;
  if (chunk == 0) {
    chunk = static_cast<size_t>(std::clamp<uint64_t>(budget / 64 / workers, 1 << 20, 16 << 20));
    if (options.segments) chunk = std::min(chunk, SegmentChunkCap(budget, workers));
  }
  // With more than one worker, the next batch is inflated while this one is parsed.
  GzipFeed feed(z, body_begin, ChunkFloor(chunk, trace.header.processes.threads()), workers,
                max_line, workers > 1);
  Status s = options.segments ? ParseSegments(feed, trace, file, options) : ParseBody(feed, trace, file, options);
  if (!s.ok()) return s;
  trace.file_bytes = feed.inflated_bytes();
  if (z.truncated())
    trace.diagnostics.Add(
        DiagKind::kTruncatedInput, 0, 0,
        fmt::format("the compressed data stops at byte {} inside a gzip member; the "
                    "text after byte {} of the inflated trace is missing",
                    z.compressed_offset(), feed.inflated_bytes()));
  if (z.trailing_bytes() > 0)
    trace.diagnostics.Add(
        DiagKind::kTrailingData, 0, 0,
        fmt::format("{} bytes after the end of the gzip data were ignored", z.trailing_bytes()));
  s = FinishTrace(trace, file, options);
  if (!s.ok()) return s;
  // The end of the second pass, with the total of the feed's reports (two passes).
  uint64_t c = std::max<uint64_t>(z.compressed_size(), 1);  // as GzipFeed::Progress
  if (options.progress) options.progress(2 * c, 2 * c);
  return trace;
}

}  // namespace

Result<PrvTrace> ParsePrv(std::string_view text, const std::string& file,
                          const PrvReadOptions& options) {
  PrvTrace trace;
  trace.file_bytes = text.size();
  auto body = ParseHeaderLines(text, file, &trace.header);
  if (!body.ok()) return body.status();
  const unsigned workers = options.threads ? options.threads : base::DefaultThreads();
  size_t chunk = options.chunk_bytes;
  if (chunk == 0) {
    const size_t most = options.segments ? SegmentChunkCap(base::EffectiveMemoryBudget(options.memory_budget), workers)
                                         : size_t{64} << 20;
    chunk = std::clamp<size_t>(text.size() / (workers * 4 + 1), std::min<size_t>(1 << 20, most), most);
  }
  MemoryFeed feed(text, body.value(), ChunkFloor(chunk, trace.header.processes.threads()),
                  options.release_input);
  Status s = options.segments ? ParseSegments(feed, trace, file, options) : ParseBody(feed, trace, file, options);
  if (!s.ok()) return s;
  s = FinishTrace(trace, file, options);
  if (!s.ok()) return s;
  if (options.progress) options.progress(2 * text.size(), 2 * text.size());  // as MemoryFeed::Progress
  return trace;
}

Result<PrvTrace> ParsePrvGzip(std::string_view compressed, const std::string& file,
                              const PrvReadOptions& options) {
  auto z = base::GzipStream::FromMemory(compressed, file);
  if (!z.ok()) return z.status();
  return ParseGzipStream(*z.value(), file, options);
}

Result<PrvTrace> ReadPrv(const std::string& path, const PrvReadOptions& options) {
  if (base::GzipStream::IsGzipFile(path)) {
    auto z = base::GzipStream::OpenFile(path);
    if (!z.ok()) return z.status();
    return ParseGzipStream(*z.value(), path, options);
  }
  auto input = base::InputBuffer::Open(path, options.progress, options.memory_budget);
  if (!input.ok()) return input.status();
  PrvReadOptions with_release = options;
  const base::InputBuffer& buffer = input.value();
  with_release.release_input = [&buffer](size_t b, size_t e) { buffer.Release(b, e); };
  // A .prv truncated while it is parsed reads as zeros from the cut on: reported as changed.
  return buffer.Parse([&](std::string_view text) { return ParsePrv(text, path, with_release); });
}

}  // namespace parallax::io
