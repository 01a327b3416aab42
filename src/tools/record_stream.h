#pragma once
// The record loop of the streaming tools, as a two-stage pipeline: worker threads read the
// body of a .prv in blocks of whole lines and parse each block into PrvRecords, while the
// caller's thread takes the records in file order (the tool's decisions, the formatting and
// the writing). Blocks are recycled from a small pool, so memory stays bounded (a few blocks of
// text and their records) whatever the trace size, and no record allocates once the pool's
// records have grown to the largest event line. Parse and read errors come out exactly where
// the sequential loop would have met them: after every record before them.

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "include/parallax/status.h"
#include "src/tools/line_source.h"
#include "src/tools/prv_record.h"

namespace parallax::tools {

// Work done on the parse workers right after a state, event or communication record is
// parsed, so that it runs on several threads at once: appends the record's new line (without
// newline) to `out` and sets rec.rewritten_time and rec.rewritten_end; the stream then points
// rec.rewritten at that text. Must not change any state of its own (workers call it at once).
// False, with *error located at `line_no` of `file`, stops the stream at that record as a parse
// error would.
class RecordRewrite {
 public:
  virtual ~RecordRewrite() = default;
  virtual bool Rewrite(PrvRecord& rec, const std::string& file, uint64_t line_no, std::string& out,
                       Status* error) const = 0;
};

struct RecordParse {
  Pairs pairs = Pairs::kRead;
  bool global_ops = false;  // type-4 lines parsed as kind '4' (ParseGlobalOp), else kind 'o'
  const RecordRewrite* rewrite = nullptr;  // run on each record by the workers when given
};

// Parsing threads by default: 2 when the machine has 2 cores or more, else 1.
unsigned DefaultParseThreads();

class RecordStream {
 public:
  // Reads the rest of `lines` (which must outlive the stream; nothing else may read it
  // meanwhile). `threads` == 0 parses on the caller's thread (no pipeline).
  RecordStream(LineSource& lines, RecordParse parse, unsigned threads = DefaultParseThreads());
  ~RecordStream();  // stops the workers (a caller may stop before the end)
  RecordStream(const RecordStream&) = delete;
  RecordStream& operator=(const RecordStream&) = delete;

  // The next line's record (valid until the next call); false at the end of the input or on
  // an error (status()).
  bool Next(const PrvRecord** rec);

  uint64_t line_number() const { return line_; }       // of the last record returned
  uint64_t bytes_done() const { return bytes_done_; }  // input bytes read up to its block
  uint64_t bytes_total() const { return lines_.bytes_total(); }
  const Status& status() const { return status_; }

 private:
  struct Block;
  void Work();
  // Reads the next block into `b` (under read_mutex_ when threaded); false when there is none.
  bool Read(Block* b);
  void Parse(Block* b) const;
  bool TakeBlock();  // the next block in order into cur_; false when the input is done

  LineSource& lines_;
  const RecordParse parse_;
  const std::string file_;
  std::vector<std::unique_ptr<Block>> pool_;
  std::vector<std::thread> workers_;
  std::mutex read_mutex_;  // the LineSource and next_seq_
  std::mutex mutex_;       // block states, done_, end_seq_, stop_
  std::condition_variable cv_;
  uint64_t next_seq_ = 0;  // sequence number of the next block read
  uint64_t end_seq_ = 0;   // when done_: the number of blocks read
  bool done_ = false;      // the input is exhausted (or failed)
  bool stop_ = false;
  // Consumer side.
  Block* cur_ = nullptr;
  size_t index_ = 0;
  uint64_t want_ = 0;  // sequence number of the next block to consume
  uint64_t line_ = 0;
  uint64_t block_base_ = 0;  // line number before cur_'s first line
  uint64_t bytes_done_ = 0;
  bool finished_ = false;
  Status status_;
};

}  // namespace parallax::tools
