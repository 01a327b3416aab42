#pragma once
// The binary layout of a per-process trace file (`*.pxt`), shared by the recorder and the
// merger.
//
// A file is a sequence of chunks, each a ChunkHeader followed by `length` bytes:
//   - kData: the records of one thread, flushed from its buffer. Each record is one kind byte,
//     the time since the previous record of the chunk (unsigned LEB128; the first is relative
//     to `base_time`), then the kind's fields as LEB128 (signed ones zigzag-encoded). A typical
//     user event takes 6-10 bytes instead of ~40 in .prv text, so buffers flush less often.
//   - kMeta: text lines describing the process (written once, at the end): see runtime.cc.
// Readers skip chunks of unknown kind, so the format can grow.

#include <cstddef>
#include <cstdint>

namespace parallax::tracing {

inline constexpr uint32_t kChunkMagic = 0x31545850;  // "PXT1" little endian

enum class ChunkKind : uint32_t { kData = 0, kMeta = 1 };

struct ChunkHeader {
  uint32_t magic;
  uint32_t kind;
  uint32_t thread;  // 0-based index of the thread in its process (kData)
  uint32_t reserved;
  uint64_t base_time;
  uint64_t length;
};
static_assert(sizeof(ChunkHeader) == 32);

// Bounds on the ids a file may name, those of a Paraver trace: a thread index of a process and
// the cpus of a host (a .prv holds at most 2^20 threads and 65535 cpus). A file naming more is
// damaged; the merge refuses it instead of sizing its tables from it.
inline constexpr uint32_t kMaxThreadsPerProcess = uint32_t{1} << 20;
inline constexpr int kMaxCpus = 65535;

// The "abnormal" metadata code of a run ended by MPI_Abort (signals are 1..64).
inline constexpr int kAbnormalMpiAbort = 1000;

// Record kinds and their fields after the time delta.
enum class RecordKind : uint8_t {
  kEvent = 1,       // type, zigzag value
  kStateEnter = 2,  // state
  kStateLeave = 3,  // -
  kLocation = 4,    // location id (precedes the event or state entry it locates)
  kCpu = 5,         // cpu the thread now runs on (only written when it changes)
  kSend = 6,        // dst world rank, zigzag tag, comm key, size, sequence, physical - logical
  kRecv = 7,        // src world rank, zigzag tag, comm key, size, sequence, physical - logical
                    // (the record's time is the physical receive)
  kThreadEnd = 8,   // -
  kCaller = 9,      // code address of the call site of the MPI call recorded next (the merge
                    // resolves it to function and file:line with the process's module map)
  kCodeEvent = 10,  // type, code address: written as events `type` (the function) and
                    // `type + 100` ("LINE (FILE, MODULE)"), Extrae's OpenMP function types
  kCallerAt = 11,   // level (2..32), return address: the caller at that level of the call stack
                    // of the MPI call recorded next (PXT_CALLERS > 1; level 1 is kCaller),
                    // written as Extrae's 7000000L (function) and 8000000L (line)
};

// A record never takes more than this many bytes (kind + 7 varints of at most 10 bytes).
inline constexpr size_t kMaxRecordBytes = 1 + 7 * 10;

inline uint8_t* PutVarint(uint8_t* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<uint8_t>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<uint8_t>(v);
  return p;
}

inline uint64_t ZigZag(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
inline int64_t UnZigZag(uint64_t v) {
  return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
}

// Reads one varint; returns nullptr when the input ends in the middle of it.
inline const uint8_t* GetVarint(const uint8_t* p, const uint8_t* end, uint64_t* out) {
  uint64_t v = 0;
  for (int shift = 0; p < end && shift < 64; shift += 7) {
    uint8_t b = *p++;
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *out = v;
      return p;
    }
  }
  return nullptr;
}

}  // namespace parallax::tracing
