#pragma once
// The on-disk cache of a loaded .prv trace (docs/formats.md, "Trace cache"): what the reader
// built (header, columns, communication table and indices, cpu view, diagnostics), so that a
// second open reads it back instead of parsing the text again.
//
// Layout (little-endian, every field 8-byte aligned):
//   fixed header  magic "PXCACHE\n", format version u32, byte-order mark u32, payload bytes u64,
//                 payload checksum u64 (XXH3-64 of the XXH3-64s of its 16 MiB blocks),
//                 source size u64, source mtime (ns) i64,
//                 source head/tail hash u64
//   payload       sections: tag u32, pad u32, length u64, then `length` bytes (padded to 8):
//                 the thread records, either plain columns (a directory of offsets and
//                 lengths, then the columns) or compact ones (per thread its record counts,
//                 block index and block bytes: store/compact_records.h), then meta, the
//                 send/receive indices, the communication table, the cpu view, the state
//                 summaries by blocks
// A cache whose magic, version, byte order, length, checksum or source stamp does not match is
// never used: the caller rebuilds it. The .pcf/.row are not cached (they are small and may be
// edited on their own); they are read again on every open.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "include/parallax/status.h"
#include "src/base/input_buffer.h"
#include "src/io/prv/prv_reader.h"

namespace parallax::io::cache {

// 2: XXH3-64 checksum, columns mapped in place; 3: the event types in the meta section;
// 4: the thread columns first, placed by a directory (written in place while parsing);
// 5: the state summaries of every thread (store/state_blocks.h) in a section of their own;
// 6: the thread records may be compact (coded in blocks) instead of plain columns;
// 7: compact thread records keep every thread's blocks in one array (written as they are coded)
inline constexpr uint32_t kFormatVersion = 7;
inline constexpr std::string_view kMagic = "PXCACHE\n";

// What identifies the source a cache was built from.
struct SourceStamp {
  uint64_t size = 0;
  int64_t mtime_ns = 0;
  // XXH3 of the file's device, inode and ctime, its first and last 64 KiB and 64 blocks of
  // 4 KiB spread over it (StampOf)
  uint64_t hash = 0;
  bool operator==(const SourceStamp&) const = default;
};

Result<SourceStamp> StampOf(const std::string& path);

// The cache_dir that puts caches next to their traces (LoadOptions::cache_dir, kCacheBeside).
inline constexpr std::string_view kCacheBesideTrace = ":beside:";

// Where the cache of `trace_path` lives (docs/formats.md, "Trace cache"): in `cache_dir` when it
// names a folder; next to the trace (TRACE.pxc) when it is kCacheBeside and the trace's folder is
// writable; else (and by default, "") in the user's cache folder (UserCacheFolder). Outside the
// trace's folder the name carries a hash of the absolute path.
std::string CachePathFor(const std::string& trace_path, const std::string& cache_dir);
// The same with the writability test given (tests: a read-only folder when running as root).
std::string CachePathFor(const std::string& trace_path, const std::string& cache_dir,
                         const std::function<bool(const std::string& folder)>& folder_writable);
// $XDG_CACHE_HOME/parallax, else ~/.cache/parallax, else /tmp/parallax-UID (a folder that
// must be private: EnsurePrivateFolder).
std::string UserCacheFolder();
// Creates `folder` (mode 0700 for the last component) when missing, and checks that it is a
// folder of this user that nobody else can write into, not a symbolic link: else an error
// saying what is wrong (another user could plant or replace caches there).
Status EnsurePrivateFolder(const std::string& folder);
// Removes the least recently used caches (*.pxc with their seals) of `folder` until the caches
// there take at most `max_bytes`; `keep` (the cache just written or read) is never removed. A
// cache's last use is the later of its own and its seal's modification times (a read touches the
// seal). Returns the number of caches removed.
uint64_t EvictCaches(const std::string& folder, uint64_t max_bytes, const std::string& keep);
// Marks the cache at `cache_path` as used now (for EvictCaches).
void TouchCache(const std::string& cache_path);

struct WriteOptions {
  // Tests: fail as a full disk would after this many bytes were written.
  uint64_t fail_after_bytes = UINT64_MAX;
  // Write the thread records compact (store/compact_records.h; about 5 bytes per record
  // instead of 22). A trace whose store is compact is always written so. ParsePrvIntoCache
  // then also makes the returned trace's store compact, keeping up to `resident_budget` bytes
  // of decoded threads (TraceStore::Compact); it parses in one pass, coding each thread's
  // records as they come and writing the blocks straight to the file, unless a thread's records
  // are out of time order from one part of the file to the next.
  bool compact = false;
  uint64_t resident_budget = UINT64_MAX;
};

// Writes the cache of `trace` to `path` through a temporary name and a rename, so a reader
// never sees a partial cache; creates the folder when needed. On failure nothing is left.
Status WriteCache(const PrvTrace& trace, const SourceStamp& stamp, const std::string& path,
                  const WriteOptions& options = {});

// Parses the .prv at `trace_path` straight into a new cache at `cache_path`: once the reader's
// first pass has counted each thread's records, the thread section is reserved in the file
// (posix_fallocate) and mapped, and the second pass writes the columns in place; the other
// sections and the checksum follow. The returned trace's columns view that file, so the
// columns are never copied and are the kernel's reclaimable page cache (a trace whose columns
// exceed the memory budget loads). When the cache cannot be written (`*written` says why), the
// trace is loaded all the same: from memory when the file could not be reserved, from the
// unlinked file's pages otherwise. Parse errors are returned as ReadPrv's, and leave no file.
Result<PrvTrace> ParsePrvIntoCache(const std::string& trace_path, const SourceStamp& stamp,
                                   const std::string& cache_path, const PrvReadOptions& read_options,
                                   Status* written, const WriteOptions& options = {});

// What the fixed header of a cache says (for `parallax cache info`).
struct CacheHeader {
  uint32_t version = 0;
  uint64_t payload_bytes = 0;
  uint64_t payload_hash = 0;  // XXH3-64 of the payload
  SourceStamp source;
};

// Checks the fixed header of `bytes` (magic, version, byte order, length).
Result<CacheHeader> ReadHeader(std::string_view bytes, const std::string& path);

struct DecodeOptions {
  bool verify_checksum = true;  // the fuzz target turns it off to reach the decoder
  const SourceStamp* expect = nullptr;  // the source must match, when given
  // Called with byte ranges of `bytes` that were read and will not be read again (ReadCache
  // lets the kernel drop those mapped pages, so the cache and its copy are not both resident).
  std::function<void(size_t begin, size_t end)> release;
  // When set, the store's columns view `bytes` (no copy) and hold `keep` to keep them alive;
  // `release` is then not called for column data. Otherwise columns are copied.
  std::shared_ptr<const void> keep;
  unsigned threads = 0;  // checksum blocks hashed in parallel; 0: all cores
  // When set, replaces the checksum test (a distributed run: each process hashes its share of
  // the blocks and the processes agree): called once, after the header and source checks
  // passed, with the payload and the header's checksum; true when the payload matches.
  std::function<bool(std::string_view payload, uint64_t expected)> verify;
  // ReadCache: trust the cache's seal (SealPathFor) instead of hashing the payload, when the
  // seal names the file as it is now; after a full check, seal it.
  bool use_seal = true;
  // A cache with compact thread records gives a compact store keeping up to this many bytes of
  // decoded threads (TraceStore::Compact).
  uint64_t resident_budget = UINT64_MAX;
};

// The seal of a cache: CACHE.ok, one line naming the cache file as it was (device, inode, size,
// mtime, ctime) when its payload was written or last hashed and found to match the checksum.
// Any change to the file moves its ctime, so a matching seal means the bytes were not written
// since; a seal that does not match is ignored, and so is one written in the same clock tick
// as the cache's last change (file times are coarse: a change in that tick would not show).
// Written through a temporary name; a folder that cannot be written has no seals, and its
// caches are hashed on every open.
std::string SealPathFor(const std::string& cache_path);
bool WriteSeal(const std::string& cache_path, const base::FileIdentity& id, uint64_t payload_hash);  // false: not written
bool Sealed(const std::string& cache_path, const base::FileIdentity& id, uint64_t payload_hash);

// The payload's checksum is the XXH3-64 of the XXH3-64s of its blocks (16 MiB, the last one
// shorter): the number of blocks of a payload, the hashes of blocks [first, last) computed on
// `threads` workers (0: all cores), and the checksum of all the blocks' hashes.
size_t ChecksumBlocks(uint64_t payload_bytes);
std::vector<uint64_t> HashBlocks(std::string_view payload, size_t first, size_t last, unsigned threads);
uint64_t CombineBlockHashes(const std::vector<uint64_t>& block_hashes);

// Decodes a whole cache; every length and index is checked, so any bytes give a trace or an
// error, never a crash.
Result<PrvTrace> DecodeCache(std::string_view bytes, const std::string& path,
                             const DecodeOptions& options);

// Maps and decodes the cache file at `path`.
Result<PrvTrace> ReadCache(const std::string& path, const DecodeOptions& options);

}  // namespace parallax::io::cache
