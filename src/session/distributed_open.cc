// Opening one trace in every process of a distributed run (LoadOptions::distribution,
// docs/scale.md): rank 0 makes sure the trace cache exists, every process maps it and checks
// only its share of the checksum blocks, and the processes agree on the verdict, so a damaged
// block seen by one of them makes all of them rebuild (or parse) the same way. The event-type
// scan is split the same way.

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "src/base/input_buffer.h"
#include "src/io/cache/trace_cache.h"
#include "src/io/prv/prv_compact_reader.h"
#include "src/session/distributed.h"

namespace parallax::session {

namespace {

constexpr char kHashes = 'H';  // a process' block hashes follow
constexpr char kUnusable = 'X';  // this process could not check the cache (header, mapping)

// Why the cache at `path` does not match the trace as it is now; Ok when it does. `missing`
// is set when there is no cache at all (built without a notice, as a first open does).
Status CacheHeaderProblem(const std::string& path, const io::cache::SourceStamp& stamp, bool* missing) {
  std::error_code ec;
  *missing = !std::filesystem::is_regular_file(path, ec);
  if (*missing) return Status::Error("no trace cache", Location{path, 0, 0});
  auto buffer = base::InputBuffer::Open(path);
  if (!buffer.ok()) return buffer.status();
  auto header = io::cache::ReadHeader(buffer->view(), path);
  if (!header.ok()) return header.status();
  if (!(header->source == stamp))
    return Status::Error("unusable trace cache: the trace changed since the cache was written (stale)",
                         Location{path, 0, 0});
  return Status::Ok();
}

// This process' share of the checksum blocks: [first, last).
std::pair<size_t, size_t> ShareOf(size_t blocks, unsigned rank, unsigned ranks) {
  return {blocks * rank / ranks, blocks * (rank + 1) / ranks};
}

// Every process maps the cache, hashes its blocks and decodes it. `*out` is set when the
// checksum matched on every process and every process decoded the cache; else `*problem` says
// what went wrong here, if anything. Two exchanges, whatever happens on this process; an error
// only when another process failed (the run stops).
Status OpenSharedCache(const std::string& cache_path, const io::cache::SourceStamp& stamp,
                       uint64_t resident_budget, DistributedCall& call,
                       std::optional<io::PrvTrace>* out, std::string* problem) {
  bool exchanged = false;
  Status shared = Status::Ok();
  io::cache::DecodeOptions d;
  d.expect = &stamp;
  d.threads = call.threads();
  d.resident_budget = resident_budget;
  d.verify = [&](std::string_view payload, uint64_t expected) {
    exchanged = true;
    size_t blocks = io::cache::ChecksumBlocks(payload.size());
    auto [first, last] = ShareOf(blocks, call.rank(), call.ranks());
    std::vector<uint64_t> mine = io::cache::HashBlocks(payload, first, last, call.threads());
    std::string bytes(1, kHashes);
    bytes.append(reinterpret_cast<const char*>(mine.data()), mine.size() * sizeof(uint64_t));
    auto parts = call.Share(bytes);
    if (!parts.ok()) {
      shared = parts.status();
      return false;
    }
    std::vector<uint64_t> all(blocks);
    for (unsigned p = 0; p < call.ranks(); ++p) {
      const std::string& part = parts.value()[p];
      auto [from, to] = ShareOf(blocks, p, call.ranks());
      if (part.size() != 1 + (to - from) * sizeof(uint64_t) || part[0] != kHashes) return false;
      if (to > from) std::memcpy(all.data() + from, part.data() + 1, (to - from) * sizeof(uint64_t));
    }
    return io::cache::CombineBlockHashes(all) == expected;
  };
  auto decoded = io::cache::ReadCache(cache_path, d);
  if (!exchanged) {  // the header did not pass here: the others still wait for this share
    auto parts = call.Share(std::string(1, kUnusable));
    if (!parts.ok()) return parts.status();
  }
  if (!shared.ok()) return shared;
  if (!decoded.ok()) *problem = decoded.status().message();
  auto verdicts = call.Share(decoded.ok() ? "1" : "0");
  if (!verdicts.ok()) return verdicts.status();
  if (std::all_of(verdicts->begin(), verdicts->end(), [](const std::string& v) { return v == "1"; }))
    *out = std::move(decoded.value());
  else if (problem->empty())
    *problem = "another process could not use it";
  return Status::Ok();
}

}  // namespace

Result<std::vector<uint32_t>> ShareEventTypes(const io::PrvTrace& prv, DistributedCall& call) {
  // Known from the cache (every process decoded the same one): rank 0 sends them; the call is
  // still made, so that the processes stay in step whatever each of them loaded.
  std::vector<uint32_t> mine;
  if (prv.event_types_known) {
    if (call.rank() == 0) mine = prv.event_types;
  } else {
    mine = store::ScanEventTypes(prv.store, call.rank(), call.ranks());
  }
  auto parts = call.Share(std::string(reinterpret_cast<const char*>(mine.data()), mine.size() * sizeof(uint32_t)));
  if (!parts.ok()) return parts.status();
  std::set<uint32_t> types;
  for (const std::string& part : parts.value()) {
    if (part.size() % sizeof(uint32_t) != 0)
      return Status::Error("a process sent a damaged list of event types", {},
                           "all processes must run the same Parallax on the same trace");
    for (size_t at = 0; at < part.size(); at += sizeof(uint32_t)) {
      uint32_t x;
      std::memcpy(&x, part.data() + at, sizeof x);
      types.insert(x);
    }
  }
  return std::vector<uint32_t>(types.begin(), types.end());
}

Result<io::PrvTrace> ReadPrvDistributed(const std::string& path, const std::string& cache_path,
                                        const io::PrvReadOptions& ro,
                                        const io::cache::WriteOptions& write, DistributedCall& call,
                                        const std::function<void(const std::string&)>& notice) {
  auto stamp = io::cache::StampOf(path);
  if (!stamp.ok()) return stamp.status();
  const bool first = call.rank() == 0;
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (first) {  // rank 0 writes the cache when it is missing, stale or (second attempt) damaged
      bool missing = false;
      Status problem = attempt == 0 ? CacheHeaderProblem(cache_path, stamp.value(), &missing) : Status::Ok();
      if (attempt == 0 && !problem.ok() && !missing)
        notice(fmt::format("parallax: note: {}: {}; rebuilding it", cache_path, problem.message()));
      if (attempt == 1 || !problem.ok()) {
        Status written;
        auto prv = io::cache::ParsePrvIntoCache(path, stamp.value(), cache_path, ro, &written, write);
        if (!prv.ok()) return prv.status();
        if (!written.ok()) notice(fmt::format("parallax: note: {}: {}", cache_path, written.message()));
      }
    }
    if (auto ready = call.Share(""); !ready.ok()) return ready.status();
    std::optional<io::PrvTrace> cached;
    std::string problem;
    if (Status st = OpenSharedCache(cache_path, stamp.value(), write.resident_budget, call, &cached, &problem);
        !st.ok())
      return st;
    if (cached) {
      // A strict open of a trace with problems: the reader says which (as without the cache).
      if (ro.strict && cached->diagnostics.problems() > 0) return io::ReadPrv(path, ro);
      return std::move(*cached);
    }
    if (first && attempt == 0) notice(fmt::format("parallax: note: {}: {}; rebuilding it", cache_path, problem));
  }
  if (first) notice(fmt::format("parallax: note: {}: still unusable; every process parses the trace", cache_path));
  return write.compact ? io::ReadPrvCompact(path, ro, write.resident_budget) : io::ReadPrv(path, ro);
}

}  // namespace parallax::session
