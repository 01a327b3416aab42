#include "src/tools/record_stream.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <system_error>

namespace parallax::tools {

namespace {

// Text read per block: large enough that handing blocks between threads costs nothing, small
// enough that the pool stays a few MB.
constexpr size_t kBlockBytes = 128u << 10;

// `s` with its line counted from `base` (blocks number their lines from 1).
Status Relocated(const Status& s, uint64_t base) {
  Location where = s.where();
  if (where.line != 0) where.line += base;
  return s.limit() ? Status::Limit(s.message(), where, s.hint())
                   : Status::Error(s.message(), where, s.hint());
}

}  // namespace

unsigned DefaultParseThreads() { return std::thread::hardware_concurrency() >= 2 ? 2 : 1; }

struct RecordStream::Block {
  enum class State : uint8_t { kFree, kBusy, kReady };
  LineBlock text;
  std::string rewritten;        // the RecordRewrite's lines of the block
  std::vector<PrvRecord> recs;  // recs[0, n) hold the block's lines; the rest keep capacity
  size_t n = 0;
  uint64_t seq = 0;
  uint64_t bytes_done = 0;
  Status error;  // what stopped the block after recs[0, n), its line counted in the block
  State state = State::kFree;
};

RecordStream::RecordStream(LineSource& lines, RecordParse parse, unsigned threads)
    : lines_(lines), parse_(parse), file_(lines.path()) {
  line_ = block_base_ = lines.line_number();
  bytes_done_ = lines.bytes_done();
  pool_.push_back(std::make_unique<Block>());
  if (threads == 0) return;
  for (unsigned i = 0; i < threads + 1; ++i) pool_.push_back(std::make_unique<Block>());
  for (unsigned i = 0; i < threads; ++i) {
    try {
      workers_.emplace_back([this] { Work(); });
    } catch (const std::system_error&) {
      break;  // run with the workers that started (none: on this thread)
    }
  }
}

RecordStream::~RecordStream() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  cv_.notify_all();
  for (std::thread& t : workers_) t.join();
}

bool RecordStream::Read(Block* b) {
  b->n = 0;
  b->error = Status::Ok();
  if (lines_.TakeLines(&b->text, std::min(lines_.block_bytes(), kBlockBytes))) {
    b->bytes_done = lines_.bytes_done();
    return true;
  }
  if (lines_.status().ok()) return false;  // the end of the input
  const Status& s = lines_.status();
  b->error = Status::Error(s.message(), {s.where().file, 1, s.where().column}, s.hint());
  return true;  // a block that only reports the read error
}

void RecordStream::Parse(Block* b) const {
  if (!b->error.ok()) return;
  const char* p = b->text.data.get();
  const char* const end = p + b->text.size;
  size_t i = 0;
  b->rewritten.clear();
  try {
    while (p < end) {
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
      size_t len = static_cast<size_t>((nl != nullptr ? nl : end) - p);
      std::string_view line(p, len);
      if (len > 0 && line.back() == '\r') line.remove_suffix(1);
      if (i == b->recs.size()) b->recs.emplace_back();
      PrvRecord& r = b->recs[i];
      if (!ReadPrvRecord(line, file_, i + 1, &r, &b->error, parse_.pairs)) break;
      if (parse_.global_ops && r.kind == 'o' && IsGlobalOpLine(line)) {
        b->error = ParseGlobalOp(line, file_, i + 1, &r);
        if (!b->error.ok()) break;
      }
      if (parse_.rewrite != nullptr && (r.kind == '1' || r.kind == '2' || r.kind == '3')) {
        r.rewritten_at = b->rewritten.size();
        if (!parse_.rewrite->Rewrite(r, file_, i + 1, b->rewritten, &b->error)) break;
        r.rewritten_size = b->rewritten.size() - r.rewritten_at;
      }
      ++i;
      p = nl != nullptr ? nl + 1 : end;
    }
  } catch (const std::bad_alloc&) {
    b->error = Status::Limit("out of memory while reading " + file_, {file_, i + 1, 0},
                             "a line this long does not fit in memory");
  }
  b->n = i;
  if (parse_.rewrite != nullptr) {  // the buffer no longer moves: point the records at it
    for (size_t k = 0; k < i; ++k) {
      PrvRecord& r = b->recs[k];
      if (r.kind != '1' && r.kind != '2' && r.kind != '3') continue;
      r.rewritten = std::string_view(b->rewritten.data() + r.rewritten_at, r.rewritten_size);
    }
  }
}

void RecordStream::Work() {
  for (;;) {
    Block* b = nullptr;
    std::unique_lock<std::mutex> read_lock(read_mutex_);
    {
      std::unique_lock<std::mutex> lock(mutex_);
      cv_.wait(lock, [&] {
        if (stop_ || done_) return true;
        for (auto& p : pool_)
          if (p->state == Block::State::kFree) {
            b = p.get();
            return true;
          }
        return false;
      });
      if (stop_ || done_) return;
      b->state = Block::State::kBusy;
    }
    b->seq = next_seq_;
    bool got;
    try {
      got = Read(b);
    } catch (const std::bad_alloc&) {
      b->error = Status::Limit("out of memory while reading " + file_, {file_, 1, 0},
                               "a line this long does not fit in memory");
      got = true;
    }
    if (got) ++next_seq_;
    const bool last = !got || !b->error.ok();
    if (last) {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
      end_seq_ = next_seq_;
      if (!got) b->state = Block::State::kFree;
    }
    read_lock.unlock();
    if (got) {
      Parse(b);
      std::lock_guard<std::mutex> lock(mutex_);
      b->state = Block::State::kReady;
    }
    cv_.notify_all();
    if (last) return;
  }
}

bool RecordStream::TakeBlock() {
  if (workers_.empty()) {
    Block* b = pool_.front().get();
    if (!Read(b)) return false;
    Parse(b);
    cur_ = b;
    return true;
  }
  std::unique_lock<std::mutex> lock(mutex_);
  if (cur_ != nullptr) {
    cur_->state = Block::State::kFree;
    cur_ = nullptr;
    cv_.notify_all();
  }
  Block* found = nullptr;
  cv_.wait(lock, [&] {
    for (auto& p : pool_)
      if (p->state == Block::State::kReady && p->seq == want_) {
        found = p.get();
        return true;
      }
    return done_ && want_ == end_seq_;
  });
  if (found == nullptr) return false;
  ++want_;
  cur_ = found;
  return true;
}

bool RecordStream::Next(const PrvRecord** rec) {
  for (;;) {
    if (cur_ != nullptr) {
      if (index_ < cur_->n) {
        *rec = &cur_->recs[index_++];
        line_ = block_base_ + index_;
        return true;
      }
      if (!cur_->error.ok()) {
        status_ = Relocated(cur_->error, block_base_);
        finished_ = true;
      }
      block_base_ += cur_->n;
    }
    if (finished_) return false;
    if (!TakeBlock()) {
      finished_ = true;
      return false;
    }
    index_ = 0;
    bytes_done_ = cur_->bytes_done;
  }
}

}  // namespace parallax::tools
