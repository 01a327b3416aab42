// Reader of OTF2 archives through libotf2's global definition and global (time-merged) event
// readers. Definitions are collected first (with the local mapping tables Score-P writes), then
// the process model is built and events stream into a TraceBuilder.

#include <fmt/format.h>
#include <otf2/otf2.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "src/base/regular_file.h"
#include "src/io/otf2/otf2_internal.h"
#include "src/io/otf2/otf2_trace.h"
#include "src/io/pcf/pcf_reader.h"
#include "src/io/prv/prv_header_parser.h"
#include "src/io/row/row_reader.h"

namespace parallax::io {

namespace {

// Extrae's values of the MPI call event types (the .pcf Extrae writes), by call name.
struct MpiCall {
  const char* name;
  int64_t value;
  uint32_t type;
  uint32_t state;
};
constexpr uint32_t kP2p = kOtf2MpiP2pType, kColl = kOtf2MpiCollectiveType, kOther = kOtf2MpiOtherType;
constexpr MpiCall kMpiCalls[] = {
    {"MPI_Send", 1, kP2p, 4},       {"MPI_Recv", 2, kP2p, 3},         {"MPI_Isend", 3, kP2p, 10},
    {"MPI_Irecv", 4, kP2p, 11},     {"MPI_Wait", 5, kP2p, 8},         {"MPI_Waitall", 6, kP2p, 8},
    {"MPI_Bcast", 7, kColl, 13},    {"MPI_Barrier", 8, kColl, 5},     {"MPI_Reduce", 9, kColl, 13},
    {"MPI_Allreduce", 10, kColl, 13}, {"MPI_Alltoall", 11, kColl, 13}, {"MPI_Alltoallv", 12, kColl, 13},
    {"MPI_Gather", 13, kColl, 13},  {"MPI_Gatherv", 14, kColl, 13},   {"MPI_Scatter", 15, kColl, 13},
    {"MPI_Scatterv", 16, kColl, 13}, {"MPI_Allgather", 17, kColl, 13}, {"MPI_Allgatherv", 18, kColl, 13},
    {"MPI_Comm_rank", 19, kOther, 15}, {"MPI_Comm_size", 20, kOther, 15}, {"MPI_Comm_create", 21, kOther, 15},
    {"MPI_Comm_dup", 22, kOther, 15}, {"MPI_Comm_split", 23, kOther, 15}, {"MPI_Comm_free", 25, kOther, 15},
    {"MPI_Scan", 30, kColl, 13},    {"MPI_Init", 31, kOther, 15},     {"MPI_Finalize", 32, kOther, 15},
    {"MPI_Bsend", 33, kP2p, 4},     {"MPI_Ssend", 34, kP2p, 4},       {"MPI_Rsend", 35, kP2p, 4},
    {"MPI_Ibsend", 36, kP2p, 10},   {"MPI_Issend", 37, kP2p, 10},     {"MPI_Irsend", 38, kP2p, 10},
    {"MPI_Test", 39, kP2p, 6},      {"MPI_Cancel", 40, kP2p, 15},     {"MPI_Sendrecv", 41, kP2p, 16},
    {"MPI_Sendrecv_replace", 42, kP2p, 16}, {"MPI_Cart_create", 43, kOther, 15},
    {"MPI_Reduce_scatter", 80, kColl, 13},
};

// Extrae's state names (the first 18 of the STATES block of its .pcf).
constexpr const char* kExtraeStates[] = {
    "Idle",          "Running",           "Not created", "Waiting a message", "Blocking send",
    "Synchronization", "Test/Probe",      "Sched. and Fork/Join", "Wait/WaitAll", "Blocked",
    "Immediate Send", "Immediate Receive", "I/O",        "Group Communication", "Tracing Disabled",
    "Others",        "Send Receive",      "Memory transfer"};

struct Region {
  std::string name;
  bool parallax_state = false;  // a region Parallax wrote for a state: only the state is read
  uint32_t state = 1;
  uint32_t type = 0;  // event type of Enter/Leave (0 for Parallax state regions)
  int64_t value = 0;
};

struct MetricMember {
  uint32_t type = 0;
  OTF2_Type value_type = OTF2_TYPE_INT64;
  // Mode ACCUMULATED_START (Score-P's PAPI counters): each sample is the count since the start
  // of the measurement, while Paraver's counter events hold the count since the thread's
  // previous sample, as Extrae writes them.
  bool since_start = false;
};

// A metric value as a Paraver event value (doubles rounded, saturated; NaN gives 0).
int64_t EventValue(OTF2_Type type, const OTF2_MetricValue& v) {
  switch (type) {
    case OTF2_TYPE_DOUBLE:
      return std::isnan(v.floating_point) ? 0 : std::llround(std::clamp(v.floating_point, -9.2e18, 9.2e18));
    case OTF2_TYPE_UINT64: return static_cast<int64_t>(v.unsigned_int);
    default: return v.signed_int;
  }
}

// The count between two samples of an accumulated metric: `total` minus `previous` (integers
// modulo 2^64, so a counter that went back gives a negative value).
OTF2_MetricValue Difference(OTF2_Type type, const OTF2_MetricValue& total, const OTF2_MetricValue& previous) {
  OTF2_MetricValue d;
  switch (type) {
    case OTF2_TYPE_DOUBLE: d.floating_point = total.floating_point - previous.floating_point; break;
    case OTF2_TYPE_UINT64: d.unsigned_int = total.unsigned_int - previous.unsigned_int; break;
    default:
      d.signed_int = static_cast<int64_t>(static_cast<uint64_t>(total.signed_int) - static_cast<uint64_t>(previous.signed_int));
      break;
  }
  return d;
}

struct Pending {  // one half of a point-to-point message waiting for the other
  model::Time log, phy;
  uint32_t thread;
  uint16_t cpu;
  uint64_t size;
  uint64_t order;  // of a send: its position among the sends read
};

// A UINT64 attribute of a record, when the archive defines it and the record has it.
bool GetAttr(const OTF2_AttributeList* a, OTF2_AttributeRef ref, uint64_t* v) {
  return ref != kNoAttr && a && OTF2_AttributeList_TestAttributeByID(a, ref) &&
         OTF2_AttributeList_GetUint64(a, ref, v) == OTF2_SUCCESS;
}

struct Reader {
  std::string file;
  Diagnostics diags;
  std::unordered_map<uint64_t, std::string> strings;
  uint64_t resolution = 1000000000, offset = 0;
  // Definitions.
  struct LocGroup {
    uint64_t id;
    std::string name;
    uint64_t parent;
  };
  std::vector<LocGroup> loc_groups;
  struct Loc {
    uint64_t id;
    std::string name;
    uint64_t group;
  };
  std::vector<Loc> locs;
  std::unordered_map<uint64_t, Region> regions;
  std::unordered_map<uint64_t, std::vector<uint64_t>> comm_location_groups;  // paradigm groups
  struct Group {
    OTF2_GroupType type;
    OTF2_Paradigm paradigm;
    std::vector<uint64_t> members;
  };
  std::unordered_map<uint64_t, Group> groups;
  std::unordered_map<uint64_t, uint64_t> comms;  // comm -> group
  std::unordered_map<uint64_t, std::vector<uint64_t>> metric_classes;  // class/instance -> members
  std::unordered_map<uint64_t, MetricMember> metric_members;
  // The last sample of each accumulated metric member on each thread: (thread << 32 | member).
  std::unordered_map<uint64_t, OTF2_MetricValue> metric_totals;
  std::vector<std::pair<uint32_t, std::string>> metric_labels;
  std::unordered_map<uint64_t, std::string> attribute_names;
  Otf2Attributes attrs;  // refs of Parallax's attributes, when present
  // Events.
  std::unique_ptr<TraceBuilder> builder;
  std::unordered_map<uint64_t, uint32_t> thread_of;  // location -> thread
  std::vector<uint16_t> cpu_of;                      // thread -> cpu (0 without resources)
  uint32_t units_per_second_target = 1000000000;
  struct Stack {
    std::vector<std::pair<uint64_t, model::Time>> open;  // region, enter time
    model::Time since = 0;
  };
  std::vector<Stack> stacks;
  std::map<std::tuple<uint64_t, uint32_t, uint32_t, uint32_t>, std::deque<Pending>> sends, recvs;
  // Matched messages with the order of their send: they go to the store in that order, so the
  // sends of one thread at one time keep the order they were written in (they are matched in
  // the order of their receives).
  std::vector<std::pair<uint64_t, TraceBuilder::Comm>> messages;
  uint64_t sends_read = 0;
  std::map<std::pair<uint32_t, uint64_t>, model::Time> irecv_requests;
  NameTable user_functions{1};
  std::map<uint32_t, NameTable> mpi_other_values;  // calls not in Extrae's table
  bool header_from_parallax = false;
  bool failed = false;
  std::string failure;

  const std::string& Str(uint64_t ref) {
    static const std::string kEmpty;
    auto f = strings.find(ref);
    return f == strings.end() ? kEmpty : f->second;
  }
  model::Time Time(uint64_t raw) {
    if (raw < offset) {
      diags.Count(DiagKind::kNegativeTime);
      return 0;
    }
    uint64_t t = raw - offset;
    if (resolution == units_per_second_target) return t;
    // Whole seconds, then the fraction: exact while both rates stay below 2^32 ticks per second.
    return t / resolution * units_per_second_target + t % resolution * units_per_second_target / resolution;
  }
  bool Thread(uint64_t loc, uint32_t* out) {
    auto f = thread_of.find(loc);
    if (f == thread_of.end()) {
      diags.Add(DiagKind::kUnknownObject, 0, 0, fmt::format("event of location {}, which is not defined", loc));
      return false;
    }
    *out = f->second;
    return true;
  }
  uint16_t Cpu(uint32_t th, const OTF2_AttributeList* a) {
    uint64_t v = 0;
    if (GetAttr(a, attrs.cpu, &v)) return static_cast<uint16_t>(v);
    return header_from_parallax ? 0 : cpu_of[th];
  }
  // Location of rank `rank` of communicator `comm`.
  bool RankLocation(uint64_t comm, uint32_t rank, uint64_t* loc) {
    auto c = comms.find(comm);
    if (c == comms.end()) return false;
    auto g = groups.find(c->second);
    if (g == groups.end()) return false;
    uint64_t member = rank;
    if (g->second.type == OTF2_GROUP_TYPE_COMM_SELF) return false;
    if (g->second.type == OTF2_GROUP_TYPE_COMM_GROUP) {
      if (rank >= g->second.members.size()) return false;
      member = g->second.members[rank];
    }
    auto l = comm_location_groups.find(g->second.paradigm);
    if (l == comm_location_groups.end() || member >= l->second.size()) return false;
    *loc = l->second[member];
    return true;
  }
  void StateBoundary(uint32_t th, model::Time t) {
    Stack& s = stacks[th];
    if (!s.open.empty() && t > s.since) {
      const Region& r = regions[s.open.back().first];
      builder->AddState(th, s.since, t, r.state, cpu_of[th]);
    }
    s.since = t;
  }
};

Region RegionFor(const std::string& name, const std::string& description, OTF2_Paradigm paradigm,
                 OTF2_RegionRole role) {
  Region r;
  r.name = name;
  if (description.rfind(kOtf2StatePrefix, 0) == 0) {
    r.parallax_state = true;
    r.state = static_cast<uint32_t>(std::strtoul(description.c_str() + kOtf2StatePrefix.size(), nullptr, 10));
    return r;
  }
  if (paradigm == OTF2_PARADIGM_MPI || name.rfind("MPI_", 0) == 0) {
    for (const MpiCall& c : kMpiCalls)
      if (name == c.name) {
        r.type = c.type, r.value = c.value, r.state = c.state;
        return r;
      }
    bool coll = role == OTF2_REGION_ROLE_BARRIER || role == OTF2_REGION_ROLE_COLL_ONE2ALL ||
                role == OTF2_REGION_ROLE_COLL_ALL2ONE || role == OTF2_REGION_ROLE_COLL_ALL2ALL ||
                role == OTF2_REGION_ROLE_COLL_OTHER;
    r.type = coll ? kColl : role == OTF2_REGION_ROLE_POINT2POINT ? kP2p : kOther;
    r.state = coll ? 13 : 15;
    r.value = -1;  // numbered at its first Enter, so that the .pcf names only the calls used
    return r;
  }
  r.type = kOtf2UserFunctionType;
  r.value = -1;
  return r;
}

// ---- definition callbacks ----
#define PX_READER(ud) (*static_cast<Reader*>(ud))

OTF2_CallbackCode OnString(void* ud, OTF2_StringRef self, const char* s) {
  PX_READER(ud).strings[self] = s ? s : "";
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode OnClock(void* ud, uint64_t resolution, uint64_t offset, uint64_t, uint64_t) {
  Reader& rd = PX_READER(ud);
  rd.resolution = resolution ? resolution : 1;
  rd.offset = offset;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode OnLocationGroup(void* ud, OTF2_LocationGroupRef self, OTF2_StringRef name, OTF2_LocationGroupType,
                                  OTF2_SystemTreeNodeRef parent, OTF2_LocationGroupRef) {
  Reader& rd = PX_READER(ud);
  rd.loc_groups.push_back({self, rd.Str(name), parent});
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode OnLocation(void* ud, OTF2_LocationRef self, OTF2_StringRef name, OTF2_LocationType, uint64_t,
                             OTF2_LocationGroupRef group) {
  Reader& rd = PX_READER(ud);
  rd.locs.push_back({self, rd.Str(name), group});
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode OnRegion(void* ud, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef, OTF2_StringRef description,
                           OTF2_RegionRole role, OTF2_Paradigm paradigm, OTF2_RegionFlag, OTF2_StringRef, uint32_t,
                           uint32_t) {
  Reader& rd = PX_READER(ud);
  rd.regions[self] = RegionFor(rd.Str(name), rd.Str(description), paradigm, role);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode OnGroup(void* ud, OTF2_GroupRef self, OTF2_StringRef, OTF2_GroupType type, OTF2_Paradigm paradigm,
                          OTF2_GroupFlag, uint32_t n, const uint64_t* members) {
  Reader& rd = PX_READER(ud);
  std::vector<uint64_t> m(members, members + n);
  if (type == OTF2_GROUP_TYPE_COMM_LOCATIONS) rd.comm_location_groups[paradigm] = m;
  rd.groups[self] = Reader::Group{type, paradigm, std::move(m)};
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode OnComm(void* ud, OTF2_CommRef self, OTF2_StringRef, OTF2_GroupRef group, OTF2_CommRef, OTF2_CommFlag) {
  PX_READER(ud).comms[self] = group;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode OnMetricMember(void* ud, OTF2_MetricMemberRef self, OTF2_StringRef name, OTF2_StringRef description,
                                 OTF2_MetricType, OTF2_MetricMode mode, OTF2_Type value_type, OTF2_Base, int64_t,
                                 OTF2_StringRef unit) {
  Reader& rd = PX_READER(ud);
  MetricMember m;
  m.value_type = value_type;
  m.since_start = mode == OTF2_METRIC_ACCUMULATED_START;
  const std::string& d = rd.Str(description);
  if (d.rfind(kOtf2EventTypePrefix, 0) == 0) {
    m.type = static_cast<uint32_t>(std::strtoul(d.c_str() + kOtf2EventTypePrefix.size(), nullptr, 10));
  } else {
    m.type = kOtf2MetricTypeBase + static_cast<uint32_t>(rd.metric_labels.size());
    const std::string& u = rd.Str(unit);
    rd.metric_labels.emplace_back(m.type, u.empty() || u == "#" ? rd.Str(name) : fmt::format("{} [{}]", rd.Str(name), u));
  }
  rd.metric_members[self] = m;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode OnMetricClass(void* ud, OTF2_MetricRef self, uint8_t n, const OTF2_MetricMemberRef* members,
                                OTF2_MetricOccurrence, OTF2_RecorderKind) {
  PX_READER(ud).metric_classes[self] = std::vector<uint64_t>(members, members + n);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode OnMetricInstance(void* ud, OTF2_MetricRef self, OTF2_MetricRef metric_class, OTF2_LocationRef,
                                   OTF2_MetricScope, uint64_t) {
  Reader& rd = PX_READER(ud);
  auto f = rd.metric_classes.find(metric_class);
  if (f != rd.metric_classes.end()) rd.metric_classes[self] = f->second;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode OnAttribute(void* ud, OTF2_AttributeRef self, OTF2_StringRef name, OTF2_StringRef, OTF2_Type) {
  Reader& rd = PX_READER(ud);
  rd.attrs.Recognise(rd.Str(name), self);
  return OTF2_CALLBACK_SUCCESS;
}

// ---- event callbacks ----
OTF2_CallbackCode OnEnter(OTF2_LocationRef loc, OTF2_TimeStamp time, void* ud, OTF2_AttributeList* a,
                          OTF2_RegionRef region) {
  Reader& rd = PX_READER(ud);
  uint32_t th = 0;
  if (!rd.Thread(loc, &th)) return OTF2_CALLBACK_SUCCESS;
  model::Time t = rd.Time(time);
  auto r = rd.regions.find(region);
  if (r == rd.regions.end()) {
    rd.diags.Add(DiagKind::kUndefinedName, 0, 0, fmt::format("Enter of region {}, which is not defined", region));
    return OTF2_CALLBACK_SUCCESS;
  }
  if (r->second.parallax_state) {
    // A state Parallax wrote: exact begin, end and cpu, no event.
    auto& s = rd.stacks[th];
    s.open.emplace_back(region, t);
    s.since = t;
    rd.cpu_of[th] = rd.Cpu(th, a);
    return OTF2_CALLBACK_SUCCESS;
  }
  Region& reg = r->second;
  if (reg.value < 0) {
    if (reg.type == kOtf2UserFunctionType) {
      reg.value = rd.user_functions.Id(reg.name);
    } else {
      auto [it, inserted] = rd.mpi_other_values.try_emplace(reg.type, 1000);
      reg.value = it->second.Id(reg.name);
    }
  }
  rd.StateBoundary(th, t);
  rd.stacks[th].open.emplace_back(region, t);
  rd.builder->AddEvent(th, t, r->second.type, r->second.value, rd.cpu_of[th]);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode OnLeave(OTF2_LocationRef loc, OTF2_TimeStamp time, void* ud, OTF2_AttributeList* a,
                          OTF2_RegionRef region) {
  Reader& rd = PX_READER(ud);
  uint32_t th = 0;
  if (!rd.Thread(loc, &th)) return OTF2_CALLBACK_SUCCESS;
  model::Time t = rd.Time(time);
  auto& s = rd.stacks[th];
  if (s.open.empty() || s.open.back().first != region) {
    rd.diags.Add(DiagKind::kUnmatchedEnd, 0, 0,
                 fmt::format("Leave of region {} on location {} that is not the innermost open region", region, loc));
    return OTF2_CALLBACK_SUCCESS;
  }
  const Region& r = rd.regions[region];
  if (r.parallax_state) {
    uint64_t open_end = 0;
    bool is_open = GetAttr(a, rd.attrs.open_end, &open_end) && open_end;
    rd.builder->AddState(th, s.open.back().second, is_open ? model::kNoEnd : t, r.state, rd.cpu_of[th]);
    s.open.pop_back();
    s.since = t;
    return OTF2_CALLBACK_SUCCESS;
  }
  rd.StateBoundary(th, t);
  s.open.pop_back();
  int64_t value = 0;
  if (r.type == kOtf2UserFunctionType) {
    // The enclosing user function is current again.
    for (auto it = s.open.rbegin(); it != s.open.rend(); ++it) {
      const Region& outer = rd.regions[it->first];
      if (outer.type == kOtf2UserFunctionType) {
        value = outer.value;
        break;
      }
    }
  }
  rd.builder->AddEvent(th, t, r.type, value, rd.cpu_of[th]);
  return OTF2_CALLBACK_SUCCESS;
}

// A message half: matched with the other half if it is already there, else queued.
void Message(Reader& rd, uint32_t th, uint64_t comm, uint32_t peer_rank, uint32_t tag, uint64_t size, bool is_send,
             model::Time log, model::Time phy, uint16_t cpu) {
  uint64_t peer_loc = 0;
  uint32_t peer = 0;
  if (!rd.RankLocation(comm, peer_rank, &peer_loc) || !rd.Thread(peer_loc, &peer)) {
    rd.diags.Add(DiagKind::kUnknownObject, 0, 0,
                 fmt::format("message with rank {} of communicator {}, which has no location", peer_rank, comm));
    return;
  }
  uint32_t sender = is_send ? th : peer, receiver = is_send ? peer : th;
  auto key = std::make_tuple(comm, sender, receiver, tag);
  auto& other = is_send ? rd.recvs[key] : rd.sends[key];
  Pending mine{log, phy, th, cpu, size, is_send ? rd.sends_read++ : 0};
  if (other.empty()) {
    (is_send ? rd.sends[key] : rd.recvs[key]).push_back(mine);
    return;
  }
  Pending o = other.front();
  other.pop_front();
  const Pending& s = is_send ? mine : o;
  const Pending& r = is_send ? o : mine;
  TraceBuilder::Comm c;
  c.sender = sender, c.receiver = receiver;
  c.sender_cpu = s.cpu, c.receiver_cpu = r.cpu;
  c.log_send = s.log, c.phy_send = s.phy, c.log_recv = r.log, c.phy_recv = r.phy;
  c.size = static_cast<int64_t>(s.size);
  c.tag = tag;
  rd.messages.emplace_back(s.order, c);
}

uint64_t AttrOr(const OTF2_AttributeList* a, OTF2_AttributeRef ref, uint64_t fallback) {
  uint64_t v = 0;
  return GetAttr(a, ref, &v) ? v : fallback;
}

OTF2_CallbackCode OnMpiSend(OTF2_LocationRef loc, OTF2_TimeStamp time, void* ud, OTF2_AttributeList* a,
                            uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t length) {
  Reader& rd = PX_READER(ud);
  uint32_t th = 0;
  if (!rd.Thread(loc, &th)) return OTF2_CALLBACK_SUCCESS;
  model::Time t = rd.Time(time);
  model::Time phy = AttrOr(a, rd.attrs.physical_send, t);
  Message(rd, th, comm, receiver, tag, length, true, t, phy, rd.Cpu(th, a));
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode OnMpiIsend(OTF2_LocationRef loc, OTF2_TimeStamp time, void* ud, OTF2_AttributeList* a,
                             uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t length, uint64_t) {
  return OnMpiSend(loc, time, ud, a, receiver, comm, tag, length);
}
OTF2_CallbackCode OnMpiRecv(OTF2_LocationRef loc, OTF2_TimeStamp time, void* ud, OTF2_AttributeList* a,
                            uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t length) {
  Reader& rd = PX_READER(ud);
  uint32_t th = 0;
  if (!rd.Thread(loc, &th)) return OTF2_CALLBACK_SUCCESS;
  model::Time t = rd.Time(time);
  // The logical receive is the entry of the receiving call when there is one.
  model::Time log = t;
  const auto& open = rd.stacks[th].open;
  if (!open.empty() && rd.regions[open.back().first].type == kP2p) log = open.back().second;
  log = AttrOr(a, rd.attrs.logical_recv, log);
  Message(rd, th, comm, sender, tag, length, false, log, t, rd.Cpu(th, a));
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode OnMpiIrecvRequest(OTF2_LocationRef loc, OTF2_TimeStamp time, void* ud, OTF2_AttributeList*,
                                    uint64_t request) {
  Reader& rd = PX_READER(ud);
  uint32_t th = 0;
  if (rd.Thread(loc, &th)) rd.irecv_requests[{th, request}] = rd.Time(time);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode OnMpiIrecv(OTF2_LocationRef loc, OTF2_TimeStamp time, void* ud, OTF2_AttributeList* a,
                             uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t length, uint64_t request) {
  Reader& rd = PX_READER(ud);
  uint32_t th = 0;
  if (!rd.Thread(loc, &th)) return OTF2_CALLBACK_SUCCESS;
  model::Time t = rd.Time(time), log = t;
  auto f = rd.irecv_requests.find({th, request});
  if (f != rd.irecv_requests.end()) {
    log = f->second;
    rd.irecv_requests.erase(f);
  }
  Message(rd, th, comm, sender, tag, length, false, log, t, rd.Cpu(th, a));
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode OnCollectiveEnd(OTF2_LocationRef loc, OTF2_TimeStamp time, void* ud, OTF2_AttributeList*,
                                  OTF2_CollectiveOp, OTF2_CommRef comm, uint32_t root, uint64_t sent, uint64_t received) {
  Reader& rd = PX_READER(ud);
  uint32_t th = 0;
  if (!rd.Thread(loc, &th)) return OTF2_CALLBACK_SUCCESS;
  model::Time t = rd.Time(time);
  uint16_t cpu = rd.cpu_of[th];
  rd.builder->AddEvent(th, t, kOtf2CollectiveSendSizeType, static_cast<int64_t>(sent), cpu);
  rd.builder->AddEvent(th, t, kOtf2CollectiveRecvSizeType, static_cast<int64_t>(received), cpu);
  if (root != OTF2_UNDEFINED_UINT32) rd.builder->AddEvent(th, t, kOtf2CollectiveRootType, root, cpu);
  rd.builder->AddEvent(th, t, kOtf2CollectiveCommType, static_cast<int64_t>(comm), cpu);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode OnMetric(OTF2_LocationRef loc, OTF2_TimeStamp time, void* ud, OTF2_AttributeList* a,
                           OTF2_MetricRef metric, uint8_t n, const OTF2_Type* types, const OTF2_MetricValue* values) {
  Reader& rd = PX_READER(ud);
  uint32_t th = 0;
  if (!rd.Thread(loc, &th)) return OTF2_CALLBACK_SUCCESS;
  auto c = rd.metric_classes.find(metric);
  if (c == rd.metric_classes.end()) {
    rd.diags.Add(DiagKind::kUndefinedName, 0, 0, fmt::format("Metric event of metric {}, which is not defined", metric));
    return OTF2_CALLBACK_SUCCESS;
  }
  model::Time t = rd.Time(time);
  uint16_t cpu = rd.Cpu(th, a);
  for (size_t i = 0; i < n && i < c->second.size(); ++i) {
    auto m = rd.metric_members.find(c->second[i]);
    if (m == rd.metric_members.end()) continue;
    OTF2_MetricValue v = values[i];
    if (m->second.since_start) {
      auto [last, first] = rd.metric_totals.try_emplace(uint64_t{th} << 32 | (c->second[i] & 0xffffffffu), v);
      if (!first) v = Difference(types[i], values[i], std::exchange(last->second, values[i]));
    }
    rd.builder->AddEvent(th, t, m->second.type, EventValue(types[i], v), cpu);
  }
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode OnProgramBegin(OTF2_LocationRef loc, OTF2_TimeStamp time, void* ud, OTF2_AttributeList*,
                                 OTF2_StringRef, uint32_t, const OTF2_StringRef*) {
  Reader& rd = PX_READER(ud);
  uint32_t th = 0;
  if (rd.Thread(loc, &th)) rd.builder->AddEvent(th, rd.Time(time), kOtf2ApplicationType, 1, rd.cpu_of[th]);
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode OnProgramEnd(OTF2_LocationRef loc, OTF2_TimeStamp time, void* ud, OTF2_AttributeList*, int64_t) {
  Reader& rd = PX_READER(ud);
  uint32_t th = 0;
  if (rd.Thread(loc, &th)) rd.builder->AddEvent(th, rd.Time(time), kOtf2ApplicationType, 0, rd.cpu_of[th]);
  return OTF2_CALLBACK_SUCCESS;
}
// Every event kind without a mapping (and records of kinds newer than this libotf2): counted,
// so that nothing is dropped silently. The parameters after the common four vary by kind.
template <typename... Rest>
OTF2_CallbackCode CountUnsupported(OTF2_LocationRef, OTF2_TimeStamp, void* ud, OTF2_AttributeList*, Rest...) {
  PX_READER(ud).diags.Count(DiagKind::kUnsupportedRecord);
  return OTF2_CALLBACK_SUCCESS;
}

#undef PX_READER

struct ReaderDeleter {
  void operator()(OTF2_Reader* r) const { OTF2_Reader_Close(r); }
};

std::string Property(OTF2_Reader* r, const char* name) {
  char* value = nullptr;
  if (OTF2_Reader_GetProperty(r, name, &value) != OTF2_SUCCESS || !value) return {};
  std::string s(value);
  std::free(value);
  return s;
}

Status Otf2Error(const std::string& file, const char* what, OTF2_ErrorCode code) {
  return Status::Error(fmt::format("{}: {} ({})", what, OTF2_Error_GetName(code), OTF2_Error_GetDescription(code)),
                       Location{file, 0, 0},
                       "an OTF2 archive is NAME.otf2 (anchor), NAME.def and the folder NAME/ with the event files");
}

// Builds the process model from the definitions (or the Paraver header Parallax stored).
Status BuildModel(Reader& rd, OTF2_Reader* r, ImportedTrace& out) {
  model::TraceHeader header;
  std::string prv_header = Property(r, kOtf2HeaderProperty);
  if (!prv_header.empty()) {
    size_t nl = prv_header.find('\n');
    auto h = ParsePrvHeader(std::string_view(prv_header).substr(0, nl), rd.file);
    if (h.ok() && h->processes.threads() == rd.locs.size()) {
      header = std::move(h.value());
      header.communicators.clear();  // the parser sized it from the header line; the lines follow
      for (size_t p = nl; p != std::string::npos && p + 1 < prv_header.size();) {
        size_t e = prv_header.find('\n', p + 1);
        header.communicators.emplace_back(prv_header.substr(p + 1, e == std::string::npos ? e : e - p - 1));
        p = e;
      }
      rd.header_from_parallax = true;
    } else {
      rd.diags.Add(DiagKind::kUnsupportedRecord, 0, 0, "the stored Paraver header does not match the locations: ignored");
    }
  }
  // Locations in definition order, grouped by location group (tasks), groups by node.
  std::vector<std::vector<size_t>> by_group(rd.loc_groups.size());
  std::unordered_map<uint64_t, size_t> group_index;
  for (size_t i = 0; i < rd.loc_groups.size(); ++i) group_index[rd.loc_groups[i].id] = i;
  for (size_t i = 0; i < rd.locs.size(); ++i) {
    auto g = group_index.find(rd.locs[i].group);
    if (g == group_index.end()) {
      group_index[rd.locs[i].group] = rd.loc_groups.size();
      rd.loc_groups.push_back({rd.locs[i].group, fmt::format("location group {}", rd.locs[i].group), OTF2_UNDEFINED_SYSTEM_TREE_NODE});
      by_group.emplace_back();
      g = group_index.find(rd.locs[i].group);
    }
    by_group[g->second].push_back(i);
  }
  std::vector<std::string> task_labels, thread_labels;
  std::map<uint64_t, uint32_t> nodes;  // system tree node -> 1-based node
  std::vector<uint32_t> cpus_per_node;
  std::vector<std::pair<uint32_t, uint32_t>> tasks;
  std::vector<std::pair<uint32_t, uint32_t>> node_and_slot;  // per thread
  uint32_t next = 0;
  for (size_t g = 0; g < rd.loc_groups.size(); ++g) {
    if (by_group[g].empty()) continue;
    auto [n, inserted] = nodes.try_emplace(rd.loc_groups[g].parent, static_cast<uint32_t>(nodes.size() + 1));
    if (inserted) cpus_per_node.push_back(0);
    tasks.emplace_back(static_cast<uint32_t>(by_group[g].size()), n->second);
    task_labels.push_back(rd.loc_groups[g].name);
    for (size_t i : by_group[g]) {
      rd.thread_of[rd.locs[i].id] = next++;
      thread_labels.push_back(rd.locs[i].name);
      node_and_slot.emplace_back(n->second, cpus_per_node[n->second - 1]++);
    }
  }
  // One cpu per location, numbered node after node as Paraver does.
  std::vector<uint32_t> first_cpu(cpus_per_node.size() + 1, 1);
  for (size_t k = 0; k < cpus_per_node.size(); ++k) first_cpu[k + 1] = first_cpu[k] + cpus_per_node[k];
  for (auto [node, slot] : node_and_slot) rd.cpu_of.push_back(static_cast<uint16_t>(first_cpu[node - 1] + slot));
  if (next > 65535) {
    // Records store cpus in 16 bits: beyond that, no resource model (cpu 0 everywhere).
    cpus_per_node.clear();
    for (auto& task : tasks) task.second = 0;
    std::fill(rd.cpu_of.begin(), rd.cpu_of.end(), 0);
  }
  if (next == 0)
    return Status::Error("the OTF2 archive defines no location", Location{rd.file, 0, 0},
                         "an archive needs Location definitions in its global definitions file (NAME.def)");
  if (rd.header_from_parallax) {
    // Threads in Paraver order: the writer defined one location per thread, in order.
    next = 0;
    for (const auto& l : rd.locs) rd.thread_of[l.id] = next++;
    std::fill(rd.cpu_of.begin(), rd.cpu_of.end(), 0);
    rd.units_per_second_target = static_cast<uint32_t>(UnitsPerSecond(header.unit));
    auto pcf = ParsePcf(Property(r, kOtf2PcfProperty), rd.file, nullptr);
    if (pcf.ok()) out.pcf = std::move(pcf.value());
    std::string row_text = Property(r, kOtf2RowProperty);
    if (!row_text.empty()) {
      auto row = ParseRow(row_text, rd.file, nullptr);
      if (row.ok()) out.row = std::move(row.value());
    }
  } else {
    header.unit = model::TimeUnit::kNs;
    header.unit_suffix = "_ns";
    header.resources = model::ResourceModel(cpus_per_node);
    header.processes.AddAppl(tasks);
    model::RowNames row;
    row.SetLabels(model::Level::kTask, std::move(task_labels));
    row.SetLabels(model::Level::kThread, std::move(thread_labels));
    out.row = std::move(row);
  }
  rd.stacks.resize(next);
  rd.builder = std::make_unique<TraceBuilder>(std::move(header));
  return Status::Ok();
}

void AddLabels(Reader& rd, ImportedTrace& out) {
  if (rd.header_from_parallax) return;  // the stored .pcf has them
  for (size_t s = 0; s < std::size(kExtraeStates); ++s)
    out.pcf.states.push_back(model::PcfLabel{static_cast<int32_t>(s), kExtraeStates[s], {}});
  AddEventTypeLabel(out.pcf, kOtf2ApplicationType, "Application", {{0, "End"}, {1, "Begin"}});
  for (uint32_t type : {kP2p, kColl, kOther}) {
    std::vector<std::pair<int64_t, std::string>> values{{0, "Outside MPI"}};
    for (const MpiCall& c : kMpiCalls)
      if (c.type == type) values.emplace_back(c.value, c.name);
    if (auto f = rd.mpi_other_values.find(type); f != rd.mpi_other_values.end())
      for (const auto& e : f->second.entries()) values.push_back(e);
    AddEventTypeLabel(out.pcf, type, type == kP2p ? "MPI Point-to-point" : type == kColl ? "MPI Collective Comm" : "MPI Other",
                      values);
  }
  AddEventTypeLabel(out.pcf, kOtf2CollectiveSendSizeType, "Send Size in MPI Global OP");
  AddEventTypeLabel(out.pcf, kOtf2CollectiveRecvSizeType, "Recv Size in MPI Global OP");
  AddEventTypeLabel(out.pcf, kOtf2CollectiveRootType, "Root in MPI Global OP");
  AddEventTypeLabel(out.pcf, kOtf2CollectiveCommType, "Communicator in MPI Global OP");
  std::vector<std::pair<int64_t, std::string>> functions{{0, "End"}};
  for (const auto& e : rd.user_functions.entries()) functions.push_back(e);
  AddEventTypeLabel(out.pcf, kOtf2UserFunctionType, "User function", functions);
  for (const auto& [type, label] : rd.metric_labels) AddEventTypeLabel(out.pcf, type, label);
}

// Bytes of the anchor, the global definitions and the per-location files.
uint64_t ArchiveBytes(const std::string& anchor) {
  std::error_code ec;
  uint64_t total = std::filesystem::file_size(anchor, ec);
  if (ec) total = 0;
  std::string base = anchor.substr(0, anchor.size() - (anchor.size() >= 5 ? 5 : 0));
  uint64_t def = std::filesystem::file_size(base + ".def", ec);
  if (!ec) total += def;
  for (const auto& e : std::filesystem::directory_iterator(base, ec))
    if (e.is_regular_file(ec)) total += e.file_size(ec);
  return total;
}

// libotf2 opens the archive's files itself, in blocking mode: a named pipe among them would
// block the open forever, a device could be read without end. So every file it may open (the
// anchor, NAME.def and the per-location files in NAME/) must be a regular file.
Status CheckArchiveFiles(const std::string& anchor) {
  for (const std::string& f : Otf2ArchiveFiles(anchor)) {
    struct stat st {};
    if (::stat(f.c_str(), &st) != 0 || S_ISREG(st.st_mode) || (S_ISDIR(st.st_mode) && f != anchor)) continue;
    return Status::Error(fmt::format("is {}, not a regular file: the OTF2 archive is not read", base::NonRegularKind(st.st_mode)),
                         Location{f, 0, 0},
                         "every file of an OTF2 archive (NAME.otf2, NAME.def, NAME/*.def, NAME/*.evt) must be a regular "
                         "file; a pipe or a device would block the read or never end");
  }
  return Status::Ok();
}

}  // namespace

bool Otf2Supported() { return true; }

// ReadOtf2Trace without the capture of libotf2's messages.
static Result<ImportedTrace> ReadArchive(const std::string& path) {
  std::string anchor = Otf2AnchorOf(path);
  struct stat st {};
  if (::stat(anchor.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
    return Status::Error("cannot open the OTF2 anchor file", Location{anchor, 0, 0},
                         "give the NAME.otf2 file of the archive, or a folder holding exactly one");
  if (Status s = CheckArchiveFiles(anchor); !s.ok()) return s;
  std::unique_ptr<OTF2_Reader, ReaderDeleter> r(OTF2_Reader_Open(anchor.c_str()));
  if (!r) return Status::Error("not a readable OTF2 anchor file", Location{anchor, 0, 0},
                               "libotf2 could not read the archive header; is the file truncated?");
  Reader rd;
  rd.file = anchor;
  OTF2_ErrorCode e = OTF2_Reader_SetSerialCollectiveCallbacks(r.get());
  if (e != OTF2_SUCCESS) return Otf2Error(anchor, "cannot set up the OTF2 reader", e);
  uint64_t nlocs = 0;
  e = OTF2_Reader_GetNumberOfLocations(r.get(), &nlocs);
  if (e != OTF2_SUCCESS) return Otf2Error(anchor, "the anchor file is malformed", e);

  OTF2_GlobalDefReader* gdr = OTF2_Reader_GetGlobalDefReader(r.get());
  if (!gdr) return Status::Error("cannot open the global definitions (NAME.def) of the archive", Location{anchor, 0, 0},
                                 "the .def file must sit next to the anchor file with the same name");
  OTF2_GlobalDefReaderCallbacks* dc = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(dc, OnString);
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(dc, OnClock);
  OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(dc, OnLocationGroup);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(dc, OnLocation);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(dc, OnRegion);
  OTF2_GlobalDefReaderCallbacks_SetGroupCallback(dc, OnGroup);
  OTF2_GlobalDefReaderCallbacks_SetCommCallback(dc, OnComm);
  OTF2_GlobalDefReaderCallbacks_SetMetricMemberCallback(dc, OnMetricMember);
  OTF2_GlobalDefReaderCallbacks_SetMetricClassCallback(dc, OnMetricClass);
  OTF2_GlobalDefReaderCallbacks_SetMetricInstanceCallback(dc, OnMetricInstance);
  OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(dc, OnAttribute);
  OTF2_Reader_RegisterGlobalDefCallbacks(r.get(), gdr, dc, &rd);
  OTF2_GlobalDefReaderCallbacks_Delete(dc);
  uint64_t n = 0;
  e = OTF2_Reader_ReadAllGlobalDefinitions(r.get(), gdr, &n);
  OTF2_Reader_CloseGlobalDefReader(r.get(), gdr);
  if (e != OTF2_SUCCESS) return Otf2Error(anchor + " (global definitions, NAME.def)", "malformed OTF2 definitions", e);

  ImportedTrace out;
  out.format = "otf2";
  if (Status s = BuildModel(rd, r.get(), out); !s.ok()) return s;

  for (const auto& l : rd.locs) OTF2_Reader_SelectLocation(r.get(), l.id);
  bool def_files = OTF2_Reader_OpenDefFiles(r.get()) == OTF2_SUCCESS;
  e = OTF2_Reader_OpenEvtFiles(r.get());
  if (e != OTF2_SUCCESS) return Otf2Error(anchor, "cannot open the event files of the archive", e);
  for (const auto& l : rd.locs) {
    if (def_files) {
      // Local definitions hold the id mappings Score-P writes; a location may have none.
      if (OTF2_DefReader* dr = OTF2_Reader_GetDefReader(r.get(), l.id)) {
        uint64_t dn = 0;
        OTF2_Reader_ReadAllLocalDefinitions(r.get(), dr, &dn);
        OTF2_Reader_CloseDefReader(r.get(), dr);
      }
    }
    if (!OTF2_Reader_GetEvtReader(r.get(), l.id))
      return Status::Error(fmt::format("cannot open the event file of location {}", l.id), Location{anchor, 0, 0},
                           "the folder NAME/ next to the anchor file must hold LOCATION.evt for every location");
  }
  if (def_files) OTF2_Reader_CloseDefFiles(r.get());

  OTF2_GlobalEvtReader* ger = OTF2_Reader_GetGlobalEvtReader(r.get());
  if (!ger) return Status::Error("cannot read the events of the archive", Location{anchor, 0, 0}, "");
  OTF2_GlobalEvtReaderCallbacks* ec = OTF2_GlobalEvtReaderCallbacks_New();
#define PX_COUNT(Kind) OTF2_GlobalEvtReaderCallbacks_Set##Kind##Callback(ec, &CountUnsupported)
  PX_COUNT(BufferFlush); PX_COUNT(CallingContextEnter); PX_COUNT(CallingContextLeave);
  PX_COUNT(CallingContextSample); PX_COUNT(CommCreate); PX_COUNT(CommDestroy); PX_COUNT(IoAcquireLock);
  PX_COUNT(IoChangeStatusFlags); PX_COUNT(IoCreateHandle); PX_COUNT(IoDeleteFile); PX_COUNT(IoDestroyHandle);
  PX_COUNT(IoDuplicateHandle); PX_COUNT(IoOperationBegin); PX_COUNT(IoOperationCancelled);
  PX_COUNT(IoOperationComplete); PX_COUNT(IoOperationIssued); PX_COUNT(IoOperationTest);
  PX_COUNT(IoReleaseLock); PX_COUNT(IoSeek); PX_COUNT(IoTryLock); PX_COUNT(MeasurementOnOff);
  PX_COUNT(MpiCollectiveBegin); PX_COUNT(MpiIsendComplete); PX_COUNT(MpiRequestCancelled);
  PX_COUNT(MpiRequestTest); PX_COUNT(NonBlockingCollectiveComplete); PX_COUNT(NonBlockingCollectiveRequest);
  PX_COUNT(OmpAcquireLock); PX_COUNT(OmpFork); PX_COUNT(OmpJoin); PX_COUNT(OmpReleaseLock);
  PX_COUNT(OmpTaskComplete); PX_COUNT(OmpTaskCreate); PX_COUNT(OmpTaskSwitch); PX_COUNT(ParameterInt);
  PX_COUNT(ParameterString); PX_COUNT(ParameterUnsignedInt); PX_COUNT(RmaAcquireLock); PX_COUNT(RmaAtomic);
  PX_COUNT(RmaCollectiveBegin); PX_COUNT(RmaCollectiveEnd); PX_COUNT(RmaGet); PX_COUNT(RmaGroupSync);
  PX_COUNT(RmaOpCompleteBlocking); PX_COUNT(RmaOpCompleteNonBlocking); PX_COUNT(RmaOpCompleteRemote);
  PX_COUNT(RmaOpTest); PX_COUNT(RmaPut); PX_COUNT(RmaReleaseLock); PX_COUNT(RmaRequestLock); PX_COUNT(RmaSync);
  PX_COUNT(RmaTryLock); PX_COUNT(RmaWaitChange); PX_COUNT(RmaWinCreate); PX_COUNT(RmaWinDestroy);
  PX_COUNT(ThreadAcquireLock); PX_COUNT(ThreadBegin); PX_COUNT(ThreadCreate); PX_COUNT(ThreadEnd);
  PX_COUNT(ThreadFork); PX_COUNT(ThreadJoin); PX_COUNT(ThreadReleaseLock); PX_COUNT(ThreadTaskComplete);
  PX_COUNT(ThreadTaskCreate); PX_COUNT(ThreadTaskSwitch); PX_COUNT(ThreadTeamBegin); PX_COUNT(ThreadTeamEnd);
  PX_COUNT(ThreadWait); PX_COUNT(Unknown);
#undef PX_COUNT
  OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(ec, OnEnter);
  OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(ec, OnLeave);
  OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(ec, OnMpiSend);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCallback(ec, OnMpiIsend);
  OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(ec, OnMpiRecv);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvRequestCallback(ec, OnMpiIrecvRequest);
  OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvCallback(ec, OnMpiIrecv);
  OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveEndCallback(ec, OnCollectiveEnd);
  OTF2_GlobalEvtReaderCallbacks_SetMetricCallback(ec, OnMetric);
  OTF2_GlobalEvtReaderCallbacks_SetProgramBeginCallback(ec, OnProgramBegin);
  OTF2_GlobalEvtReaderCallbacks_SetProgramEndCallback(ec, OnProgramEnd);
  OTF2_Reader_RegisterGlobalEvtCallbacks(r.get(), ger, ec, &rd);
  OTF2_GlobalEvtReaderCallbacks_Delete(ec);
  uint64_t events = 0;
  e = OTF2_Reader_ReadAllGlobalEvents(r.get(), ger, &events);
  OTF2_Reader_CloseGlobalEvtReader(r.get(), ger);
  OTF2_Reader_CloseEvtFiles(r.get());
  if (e != OTF2_SUCCESS)
    return Otf2Error(anchor + " (event files, NAME/*.evt)", fmt::format("malformed OTF2 events after {} events", events).c_str(), e);

  // Regions left open are closed at the last event; unmatched message halves are reported.
  model::Time end = 0;
  for (size_t th = 0; th < rd.stacks.size(); ++th) end = std::max(end, rd.stacks[th].since);
  for (uint32_t th = 0; th < rd.stacks.size(); ++th) {
    if (rd.stacks[th].open.empty()) continue;
    rd.diags.Add(DiagKind::kUnclosedBegin, 0, 0,
                 fmt::format("{} region(s) of thread {} never left: closed at the last event", rd.stacks[th].open.size(), th + 1));
    rd.StateBoundary(th, end);
  }
  std::sort(rd.messages.begin(), rd.messages.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& m : rd.messages) rd.builder->AddComm(m.second);
  rd.messages = {};
  size_t unmatched = 0;
  for (const auto& [k, q] : rd.sends) unmatched += q.size();
  for (const auto& [k, q] : rd.recvs) unmatched += q.size();
  if (unmatched) rd.diags.Add(DiagKind::kUnmatchedFlow, 0, 0, fmt::format("{} message half(s) without the other end", unmatched));

  AddLabels(rd, out);
  out.pcf.Finalize();
  std::string unsigned_types = Property(r.get(), kOtf2UnsignedTypesProperty);
  uint64_t bytes = ArchiveBytes(anchor);
  out.prv = rd.builder->Finish(std::move(rd.diags), bytes, events);
  for (const char* p = unsigned_types.c_str(); *p;) {
    char* endp = nullptr;
    unsigned long v = std::strtoul(p, &endp, 10);
    if (endp == p) break;
    out.prv.unsigned_value_types.push_back(static_cast<uint32_t>(v));
    p = *endp ? endp + 1 : endp;
  }
  return out;
}

Result<ImportedTrace> ReadOtf2Trace(const std::string& path) {
  Otf2Messages messages;
  auto r = ReadArchive(path);
  if (!r.ok()) return messages.Annotate(r.status());
  return r;
}

}  // namespace parallax::io
