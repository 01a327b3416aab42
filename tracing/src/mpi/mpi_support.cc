#include "tracing/src/mpi/mpi_support.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <link.h>
#include <unwind.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "tracing/src/mpi_calls.h"

namespace parallax::tracing::mpi {

namespace {

// A request whose completion or start records something.
struct TrackedRequest {
  enum class Kind { kRecv, kPersistentSend, kPersistentRecv } kind;
  MPI_Comm comm;
  int call;  // Extrae value of the call that created it
  bool active = false;
  uint64_t post_time = 0, ordinal = 0;
  // persistent sends
  int peer = 0, tag = 0, count = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
};

// Receives that could not be recorded, by reason and posting call.
struct LostCounts {
  std::map<int, uint64_t> never_completed, freed_active, cancelled;
};

struct CommGroups {
  std::vector<int> local, remote;  // world ranks; remote only for inter-communicators
  bool inter = false;
};

struct State {
  std::mutex mutex;
  std::map<MPI_Comm, CommGroups> comms;
  std::map<std::tuple<uint64_t, int, int>, uint64_t> send_seq;  // (comm, peer, tag)
  uint64_t recv_ordinal = 0;
  std::map<MPI_Request, TrackedRequest> requests;
  std::map<MPI_Message, MatchedMessage> messages;
  LostCounts lost;
  std::map<uint64_t, std::vector<int>> created_comms;  // key -> members' world ranks
  MPI_Comm sync_comm = MPI_COMM_NULL;  // private, so sync messages never match user receives
};

State& S() {
  static State* s = new State();  // never destroyed: used until the last MPI call
  return *s;
}

std::vector<int> GroupWorldRanks(MPI_Group group) {
  MPI_Group world;
  int n = 0;
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  PMPI_Group_size(group, &n);
  std::vector<int> ranks(static_cast<size_t>(n)), out(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) ranks[static_cast<size_t>(i)] = i;
  PMPI_Group_translate_ranks(group, n, ranks.data(), world, out.data());
  PMPI_Group_free(&world);
  return out;
}

// The world ranks of the local group of `comm` and, for an inter-communicator, of its remote
// group (the group that point-to-point partners' ranks and collective roots refer to).
const CommGroups& GroupsLocked(MPI_Comm comm) {
  auto [it, inserted] = S().comms.try_emplace(comm);
  if (inserted) {
    MPI_Group group;
    PMPI_Comm_group(comm, &group);
    it->second.local = GroupWorldRanks(group);
    PMPI_Group_free(&group);
    int inter = 0;
    PMPI_Comm_test_inter(comm, &inter);
    if (inter) {
      PMPI_Comm_remote_group(comm, &group);
      it->second.remote = GroupWorldRanks(group);
      it->second.inter = true;
      PMPI_Group_free(&group);
    }
  }
  return it->second;
}

// The members of `comm` as its communicator line lists them: an inter-communicator's two groups,
// the one holding the lower world rank first, so that every member process lists them in the
// same order.
std::vector<int> MembersLocked(MPI_Comm comm, size_t* first_group = nullptr) {
  const CommGroups& g = GroupsLocked(comm);
  if (first_group) *first_group = g.local.size();
  if (!g.inter) return g.local;
  bool local_first = g.remote.empty() || (!g.local.empty() && g.local[0] < g.remote[0]);
  std::vector<int> members = local_first ? g.local : g.remote;
  const std::vector<int>& second = local_first ? g.remote : g.local;
  if (first_group) *first_group = members.size();
  members.insert(members.end(), second.begin(), second.end());
  return members;
}

uint64_t CommKeyLocked(MPI_Comm comm) {
  if (comm == MPI_COMM_WORLD) return 0;
  size_t first_group = 0;
  std::vector<int> members = MembersLocked(comm, &first_group);
  uint64_t h = 1469598103934665603ull;  // FNV-1a over the members' world ranks
  auto mix = [&h](uint64_t v) { h = (h ^ v) * 1099511628211ull; };
  for (size_t i = 0; i < members.size(); ++i) {
    // An inter-communicator mixes a 0 (never a member's r + 1) between its groups: its key
    // differs from that of an intra-communicator over the same processes (Intercomm_merge).
    if (GroupsLocked(comm).inter && i == first_group) mix(0);
    mix(static_cast<uint64_t>(members[i] + 1));
  }
  return h >> 1;  // small positive: never 0 (world)
}

// The world rank of a peer's `rank` in `comm`: in the remote group of an inter-communicator.
int WorldRankLocked(MPI_Comm comm, int rank) {
  if (comm == MPI_COMM_WORLD || rank < 0) return rank;
  const CommGroups& g = GroupsLocked(comm);
  const auto& ranks = g.inter ? g.remote : g.local;
  return rank < static_cast<int>(ranks.size()) ? ranks[static_cast<size_t>(rank)] : rank;
}

}  // namespace

int WorldRank(MPI_Comm comm, int rank) {
  std::lock_guard lock(S().mutex);
  return WorldRankLocked(comm, rank);
}

uint64_t CommKey(MPI_Comm comm) {
  std::lock_guard lock(S().mutex);
  return CommKeyLocked(comm);
}

void ForgetComm(MPI_Comm comm) {
  std::lock_guard lock(S().mutex);
  S().comms.erase(comm);
}

MessageInfo SendInfo(MPI_Comm comm, int peer, int tag, int count, MPI_Datatype type) {
  int type_size = 0;
  PMPI_Type_size(type, &type_size);
  std::lock_guard lock(S().mutex);
  uint64_t key = CommKeyLocked(comm);
  int world = WorldRankLocked(comm, peer);
  uint64_t seq = S().send_seq[{key, world, tag}]++;
  return {world, tag, key, static_cast<uint64_t>(count) * static_cast<uint64_t>(type_size), seq};
}

uint64_t NextRecvOrdinal() {
  std::lock_guard lock(S().mutex);
  return S().recv_ordinal++;
}

MessageInfo RecvInfo(MPI_Comm comm, const MPI_Status& status, uint64_t ordinal) {
  int bytes = 0;
  PMPI_Get_count(&status, MPI_BYTE, &bytes);
  std::lock_guard lock(S().mutex);
  uint64_t key = CommKeyLocked(comm);
  int world = WorldRankLocked(comm, status.MPI_SOURCE);
  return {world, status.MPI_TAG, key, static_cast<uint64_t>(std::max(bytes, 0)), ordinal};
}

void AddPendingRecv(MPI_Request request, MPI_Comm comm, uint64_t post_time, uint64_t ordinal,
                    int call) {
  std::lock_guard lock(S().mutex);
  TrackedRequest r{TrackedRequest::Kind::kRecv, comm, call};
  r.active = true, r.post_time = post_time, r.ordinal = ordinal;
  S().requests[request] = r;
}

void AddPersistentSend(MPI_Request request, MPI_Comm comm, int dest, int tag, int count,
                       MPI_Datatype type, int call) {
  std::lock_guard lock(S().mutex);
  TrackedRequest r{TrackedRequest::Kind::kPersistentSend, comm, call};
  r.peer = dest, r.tag = tag, r.count = count, r.type = type;
  S().requests[request] = r;
}

void AddPersistentRecv(MPI_Request request, MPI_Comm comm, int call) {
  std::lock_guard lock(S().mutex);
  S().requests[request] = TrackedRequest{TrackedRequest::Kind::kPersistentRecv, comm, call};
}

void StartRequest(ThreadBuffer* b, MPI_Request request, uint64_t now) {
  TrackedRequest send{};
  {
    std::lock_guard lock(S().mutex);
    auto it = S().requests.find(request);
    if (it == S().requests.end()) return;
    TrackedRequest& r = it->second;
    r.active = true;
    if (r.kind == TrackedRequest::Kind::kPersistentRecv) {
      r.post_time = now, r.ordinal = S().recv_ordinal++;
      return;
    }
    if (r.kind != TrackedRequest::Kind::kPersistentSend) return;
    send = r;
  }
  if (b && send.peer != MPI_PROC_NULL)
    RecordSend(b, SendInfo(send.comm, send.peer, send.tag, send.count, send.type), now, now);
}

void CompleteRequest(ThreadBuffer* b, MPI_Request request, const MPI_Status& status, uint64_t now) {
  TrackedRequest r{};
  {
    std::lock_guard lock(S().mutex);
    auto it = S().requests.find(request);
    if (it == S().requests.end() || !it->second.active) return;
    r = it->second;
    if (r.kind == TrackedRequest::Kind::kRecv)
      S().requests.erase(it);
    else
      it->second.active = false;  // persistent: inactive until the next MPI_Start
    if (r.kind == TrackedRequest::Kind::kPersistentSend) return;
    int cancelled = 0;
    PMPI_Test_cancelled(&status, &cancelled);
    if (cancelled) {
      ++S().lost.cancelled[r.call];
      return;
    }
  }
  if (b && status.MPI_SOURCE >= 0)
    RecordRecv(b, RecvInfo(r.comm, status, r.ordinal), r.post_time, now);
}

void FreeRequest(MPI_Request request) {
  std::lock_guard lock(S().mutex);
  auto it = S().requests.find(request);
  if (it == S().requests.end()) return;
  if (it->second.active && it->second.kind != TrackedRequest::Kind::kPersistentSend)
    ++S().lost.freed_active[it->second.call];
  S().requests.erase(it);
}

void AddMatchedMessage(MPI_Message message, MPI_Comm comm, uint64_t post_time, uint64_t ordinal) {
  std::lock_guard lock(S().mutex);
  S().messages[message] = {comm, post_time, ordinal};
}

bool TakeMatchedMessage(MPI_Message message, MatchedMessage* out) {
  std::lock_guard lock(S().mutex);
  auto it = S().messages.find(message);
  if (it == S().messages.end()) return false;
  *out = it->second;
  S().messages.erase(it);
  return true;
}

void RegisterComm(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) return;
  std::lock_guard lock(S().mutex);
  S().created_comms[CommKeyLocked(comm)] = MembersLocked(comm);
}

void WriteMpiNotes() {
  {
    std::lock_guard lock(S().mutex);
    for (const auto& [key, ranks] : S().created_comms) {
      // Appends only: GCC 12 warns (-Wrestrict, a false positive) on `const char* + string`.
      std::string line = "comm ";
      line.append(std::to_string(key));
      for (int r : ranks) line.append(" ").append(std::to_string(r));
      Runtime::Get().AddMetaLine(line);
    }
  }
  std::lock_guard lock(S().mutex);
  LostCounts& lost = S().lost;
  for (const auto& [request, r] : S().requests)
    if (r.active && r.kind != TrackedRequest::Kind::kPersistentSend) ++lost.never_completed[r.call];
  S().requests.clear();
  auto report = [](const std::map<int, uint64_t>& counts, const char* what) {
    for (const auto& [call, n] : counts)
      Runtime::Get().AddNote(std::to_string(n) + " receive(s) posted by " + MpiCallName(call) +
                             " " + what);
  };
  report(lost.never_completed, "never completed before MPI_Finalize (not recorded)");
  report(lost.freed_active, "freed by MPI_Request_free before completion (not recorded)");
  report(lost.cancelled, "cancelled (no message)");
}

namespace {

// The executable segments of this library, found once: [low, high) pairs.
struct OwnCode {
  uintptr_t ranges[8][2] = {};
  int n = 0;
};

int FindOwnSegments(dl_phdr_info* info, size_t, void* data) {
  auto* own = static_cast<OwnCode*>(data);
  Dl_info self;
  if (!dladdr(reinterpret_cast<void*>(&FindOwnSegments), &self)) return 1;
  if (reinterpret_cast<uintptr_t>(self.dli_fbase) != info->dlpi_addr) return 0;
  for (int i = 0; i < info->dlpi_phnum && own->n < 8; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X)) continue;
    own->ranges[own->n][0] = info->dlpi_addr + ph.p_vaddr;
    own->ranges[own->n][1] = info->dlpi_addr + ph.p_vaddr + ph.p_memsz;
    ++own->n;
  }
  return 1;
}

const OwnCode& Own() {
  static const OwnCode own = [] {
    OwnCode o;
    dl_iterate_phdr(FindOwnSegments, &o);
    return o;
  }();
  return own;
}

bool InLibrary(uintptr_t a) {
  const OwnCode& own = Own();
  for (int i = 0; i < own.n; ++i)
    if (a >= own.ranges[i][0] && a < own.ranges[i][1]) return true;
  return false;
}

}  // namespace

uintptr_t CallerOutsideLibrary(uintptr_t address) {
  if (!InLibrary(address)) return address;
  void* frames[16];
  int n = backtrace(frames, 16);
  // The first frame outside the library after its own: a sanitizer's backtrace() interceptor
  // puts its own frame first.
  bool own = false;
  for (int i = 0; i < n; ++i) {
    auto a = reinterpret_cast<uintptr_t>(frames[i]);
    if (InLibrary(a)) {
      own = true;
    } else if (own) {
      return a;
    }
  }
  return 0;
}

namespace {

// The frames of one walk: the library's own first (RecordCallStack, the wrapper, a Fortran
// wrapper calling the C one), then the program's, kept until `want` of them.
struct StackWalk {
  uintptr_t pcs[Options::kMaxCallers];
  int want = 0, n = 0, own = 0;
};

_Unwind_Reason_Code WalkStep(_Unwind_Context* context, void* arg) {
  auto* w = static_cast<StackWalk*>(arg);
  const auto pc = static_cast<uintptr_t>(_Unwind_GetIP(context));
  if (pc == 0) return _URC_END_OF_STACK;
  if (w->n == 0 && InLibrary(pc)) {
    ++w->own;
    return w->own > 16 ? _URC_END_OF_STACK : _URC_NO_REASON;
  }
  w->pcs[w->n++] = pc;
  return w->n >= w->want ? _URC_END_OF_STACK : _URC_NO_REASON;  // stops the walk there
}

}  // namespace

void RecordCallStack(ThreadBuffer* b, uint64_t t, int levels) {
  // libgcc's unwinder, stopped as soon as the levels are found (backtrace() would walk a fixed
  // number of frames): about 130 ns per frame walked (bench/README.md).
  StackWalk w;
  w.want = std::min(levels, Options::kMaxCallers);
  _Unwind_Backtrace(WalkStep, &w);
  for (int i = 0; i < w.n; ++i) {
    b->Reserve();
    if (i == 0) {
      b->Commit(PutVarint(b->Open(RecordKind::kCaller, t), w.pcs[0]));
    } else {
      uint8_t* p = PutVarint(b->Open(RecordKind::kCallerAt, t), static_cast<uint64_t>(i + 1));
      b->Commit(PutVarint(p, w.pcs[i]));
    }
  }
}

}  // namespace parallax::tracing::mpi
