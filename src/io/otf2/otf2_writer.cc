// Writer of OTF2 archives through libotf2. Per thread the records are merged in time order
// (state Leave before Enter at equal times) and written by one event writer at a time, so
// memory holds one thread's ordering plus libotf2's chunk buffer. Global definitions follow the
// events (locations carry their event counts). The archive is written under a temporary name
// next to the target and renamed into place.

#include <fmt/format.h>
#include <otf2/otf2.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>

#include "src/io/otf2/otf2_internal.h"
#include "src/io/otf2/otf2_trace.h"
#include "src/io/pcf/pcf_writer.h"
#include "src/io/prv/prv_writer.h"
#include "src/io/row/row_writer.h"
#include "src/store/block_reader.h"

namespace parallax::io {

namespace {

namespace fs = std::filesystem;

OTF2_FlushType PreFlush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) { return OTF2_FLUSH; }
OTF2_TimeStamp PostFlush(void*, OTF2_FileType, OTF2_LocationRef) { return 0; }

struct ArchiveDeleter {
  void operator()(OTF2_Archive* a) const { OTF2_Archive_Close(a); }
};
struct AttrListDeleter {
  void operator()(OTF2_AttributeList* a) const { OTF2_AttributeList_Delete(a); }
};

// String definitions, each written once.
class Strings {
 public:
  OTF2_StringRef Ref(const std::string& s) {
    auto [it, inserted] = ids_.try_emplace(s, static_cast<OTF2_StringRef>(ids_.size()));
    if (inserted) order_.push_back(&it->first);
    return it->second;
  }
  bool Write(OTF2_GlobalDefWriter* w) const {
    for (size_t i = 0; i < order_.size(); ++i)
      if (OTF2_GlobalDefWriter_WriteString(w, static_cast<OTF2_StringRef>(i), order_[i]->c_str()) != OTF2_SUCCESS)
        return false;
    return true;
  }

 private:
  std::map<std::string, OTF2_StringRef> ids_;
  std::vector<const std::string*> order_;
};

struct Item {
  model::Time time;
  uint8_t kind;  // 0 leave, 1 enter, 2 metric, 3 send, 4 receive, 5 leave of a zero-length state
  uint64_t index;
  bool operator<(const Item& o) const { return time != o.time ? time < o.time : kind < o.kind; }
};

enum Attr : OTF2_AttributeRef { kCpuAttr = 0, kPhySendAttr, kLogRecvAttr, kOpenEndAttr };

Status Fail(const std::string& path, const std::string& what) {
  return Status::Error(what, Location{path, 0, 0}, "check that the folder is writable and has free space");
}

// Writes the archive DIR/NAME.{otf2,def} + DIR/NAME/.
Status WriteArchive(const TraceView& tv, const std::string& dir, const std::string& name, const std::string& shown) {
  const auto& h = *tv.header;
  const auto& st = *tv.store;
  const auto& pm = h.processes;
  std::unique_ptr<OTF2_Archive, ArchiveDeleter> archive(OTF2_Archive_Open(
      dir.c_str(), name.c_str(), OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX,
      OTF2_COMPRESSION_NONE));
  if (!archive) return Fail(shown, "cannot create the OTF2 archive");
  OTF2_FlushCallbacks flush{PreFlush, PostFlush};
  OTF2_Archive_SetFlushCallbacks(archive.get(), &flush, nullptr);
  OTF2_Archive_SetSerialCollectiveCallbacks(archive.get());
  OTF2_Archive_SetCreator(archive.get(), "Parallax");
  if (OTF2_Archive_OpenEvtFiles(archive.get()) != OTF2_SUCCESS) return Fail(shown, "cannot create the OTF2 event files");

  // Regions (one per state value) and metrics (one per event type), numbered in order of use.
  std::map<uint32_t, OTF2_RegionRef> regions;
  std::map<uint32_t, OTF2_MetricRef> metrics;
  for (uint32_t t = 0; t < pm.threads(); ++t) {
    store::ForEachRecord<store::StateColumns>(st, model::ThreadIndex(t), [&](const store::StateColumns& s, size_t i) {
      regions.try_emplace(s.state[i], 0);
      return true;
    });
    store::ForEachRecord<store::EventColumns>(st, model::ThreadIndex(t), [&](const store::EventColumns& e, size_t i) {
      metrics.try_emplace(e.type[i], 0);
      return true;
    });
  }
  OTF2_RegionRef next_region = 0;
  for (auto& [s, ref] : regions) ref = next_region++;
  OTF2_MetricRef next_metric = 0;
  for (auto& [ty, ref] : metrics) ref = next_metric++;

  const auto& cm = st.comms();
  std::vector<std::vector<uint64_t>> sent(pm.threads()), received(pm.threads());
  for (size_t i = 0; i < cm.rows(); ++i) {
    sent[cm.sender[i]].push_back(i);
    received[cm.receiver[i]].push_back(i);
  }
  std::vector<uint64_t> counts(pm.threads(), 0);
  std::unique_ptr<OTF2_AttributeList, AttrListDeleter> attrs(OTF2_AttributeList_New());
  auto cpu_attr = [&](uint16_t cpu) {
    if (cpu) OTF2_AttributeList_AddUint64(attrs.get(), kCpuAttr, cpu);
  };
  std::vector<Item> items;
  const model::Time trace_end = st.end_time();
  for (uint32_t t = 0; t < pm.threads(); ++t) {
    // One thread decoded at a time (its records are sorted together with its messages).
    const std::shared_ptr<const store::ThreadRecords> pinned = st.Pin(model::ThreadIndex(t));
    const store::ThreadRecords& rec = *pinned;
    items.clear();
    for (size_t i = 0; i < rec.states.size(); ++i) {
      model::Time b = rec.states.begin[i], e = rec.states.end[i];
      if (e == model::kNoEnd) e = std::max(b, trace_end);
      items.push_back({b, 1, i});
      items.push_back({e, static_cast<uint8_t>(e == b ? 5 : 0), i});
    }
    for (size_t i = 0; i < rec.events.size(); ++i) items.push_back({rec.events.time[i], 2, i});
    for (uint64_t c : sent[t]) items.push_back({cm.log_send[c], 3, c});
    for (uint64_t c : received[t]) items.push_back({cm.phy_recv[c], 4, c});
    std::stable_sort(items.begin(), items.end());
    OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(archive.get(), t);
    if (!w) return Fail(shown, fmt::format("cannot create the event writer of thread {}", t + 1));
    OTF2_ErrorCode e = OTF2_SUCCESS;
    for (const Item& it : items) {
      switch (it.kind) {
        case 1:
          cpu_attr(rec.states.cpu[it.index]);
          e = OTF2_EvtWriter_Enter(w, attrs.get(), it.time, regions[rec.states.state[it.index]]);
          break;
        case 0:
        case 5:
          if (rec.states.end[it.index] == model::kNoEnd) OTF2_AttributeList_AddUint64(attrs.get(), kOpenEndAttr, 1);
          e = OTF2_EvtWriter_Leave(w, attrs.get(), it.time, regions[rec.states.state[it.index]]);
          break;
        case 2: {
          cpu_attr(rec.events.cpu[it.index]);
          OTF2_Type type = OTF2_TYPE_INT64;
          OTF2_MetricValue v;
          v.signed_int = rec.events.value[it.index];
          e = OTF2_EvtWriter_Metric(w, attrs.get(), it.time, metrics[rec.events.type[it.index]], 1, &type, &v);
          break;
        }
        case 3:
        case 4: {
          // A message: MpiSend at the logical send, MpiRecv at the physical receive; the other
          // time of that side travels as an attribute when it differs.
          size_t c = it.index;
          bool send = it.kind == 3;
          cpu_attr(send ? cm.sender_cpu[c] : cm.receiver_cpu[c]);
          model::Time other = send ? cm.phy_send[c] : cm.log_recv[c];
          if (other != it.time) OTF2_AttributeList_AddUint64(attrs.get(), send ? kPhySendAttr : kLogRecvAttr, other);
          auto tag = static_cast<uint32_t>(cm.tag[c]);
          auto size = static_cast<uint64_t>(cm.size[c]);
          e = send ? OTF2_EvtWriter_MpiSend(w, attrs.get(), it.time, cm.receiver[c], 0, tag, size)
                   : OTF2_EvtWriter_MpiRecv(w, attrs.get(), it.time, cm.sender[c], 0, tag, size);
          break;
        }
      }
      if (e != OTF2_SUCCESS) {
        OTF2_Archive_CloseEvtWriter(archive.get(), w);
        return Fail(shown, fmt::format("writing the events of thread {} failed: {}", t + 1, OTF2_Error_GetName(e)));
      }
    }
    counts[t] = items.size();
    if (OTF2_Archive_CloseEvtWriter(archive.get(), w) != OTF2_SUCCESS)
      return Fail(shown, fmt::format("closing the event file of thread {} failed", t + 1));
  }
  OTF2_Archive_CloseEvtFiles(archive.get());

  // Empty local definition files: readers expect one per location.
  if (OTF2_Archive_OpenDefFiles(archive.get()) != OTF2_SUCCESS) return Fail(shown, "cannot create the definition files");
  for (uint32_t t = 0; t < pm.threads(); ++t)
    if (OTF2_DefWriter* dw = OTF2_Archive_GetDefWriter(archive.get(), t)) OTF2_Archive_CloseDefWriter(archive.get(), dw);
  OTF2_Archive_CloseDefFiles(archive.get());

  OTF2_GlobalDefWriter* g = OTF2_Archive_GetGlobalDefWriter(archive.get());
  if (!g) return Fail(shown, "cannot create the global definitions file");
  Strings str;
  auto label = [](const std::string* l, std::string fallback) { return l ? *l : fallback; };
  bool ok = OTF2_GlobalDefWriter_WriteClockProperties(g, UnitsPerSecond(h.unit), 0, trace_end, OTF2_UNDEFINED_TIMESTAMP) ==
            OTF2_SUCCESS;
  // Definitions refer to strings, which must come first: collect the definitions, then write.
  std::vector<std::function<OTF2_ErrorCode()>> defs;
  const char* attr_names[] = {Otf2Attributes::kCpu, Otf2Attributes::kPhysicalSend, Otf2Attributes::kLogicalRecv,
                              Otf2Attributes::kOpenEnd};
  for (OTF2_AttributeRef a = 0; a < 4; ++a) {
    OTF2_StringRef n = str.Ref(attr_names[a]), d = str.Ref("what the Paraver record holds beyond OTF2's fields");
    defs.push_back([=] { return OTF2_GlobalDefWriter_WriteAttribute(g, a, n, d, OTF2_TYPE_UINT64); });
  }
  OTF2_StringRef machine_name = str.Ref("machine"), machine_class = str.Ref("machine");
  defs.push_back([=] {
    return OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, machine_name, machine_class, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  });
  for (uint32_t n = 0; n < h.resources.nodes(); ++n) {
    const std::string* l = tv.row ? tv.row->Label(model::Level::kNode, n) : nullptr;
    OTF2_StringRef nn = str.Ref(label(l, fmt::format("node {}", n + 1))), nc = str.Ref("node");
    defs.push_back([=] { return OTF2_GlobalDefWriter_WriteSystemTreeNode(g, n + 1, nn, nc, 0); });
  }
  for (uint32_t t = 0; t < pm.tasks(); ++t) {
    const auto& ti = pm.task(model::TaskIndex(t));
    const std::string* l = tv.row ? tv.row->Label(model::Level::kTask, t) : nullptr;
    OTF2_StringRef tn = str.Ref(label(l, model::TaskName(pm, model::TaskIndex(t))));
    OTF2_SystemTreeNodeRef parent = ti.node <= h.resources.nodes() ? ti.node : 0;
    defs.push_back([=] {
      return OTF2_GlobalDefWriter_WriteLocationGroup(g, t, tn, OTF2_LOCATION_GROUP_TYPE_PROCESS, parent,
                                                    OTF2_UNDEFINED_LOCATION_GROUP);
    });
  }
  std::vector<uint64_t> all(pm.threads()), ranks(pm.threads());
  for (uint32_t t = 0; t < pm.threads(); ++t) {
    const auto& th = pm.thread(model::ThreadIndex(t));
    const std::string* l = tv.row ? tv.row->Label(model::Level::kThread, t) : nullptr;
    OTF2_StringRef tn = str.Ref(label(l, model::ThreadName(pm, model::ThreadIndex(t))));
    uint64_t count = counts[t];
    uint32_t task = th.task.value;
    defs.push_back([=] { return OTF2_GlobalDefWriter_WriteLocation(g, t, tn, OTF2_LOCATION_TYPE_CPU_THREAD, count, task); });
    all[t] = t, ranks[t] = t;
  }
  for (const auto& [s, ref] : regions) {
    const std::string* l = tv.pcf ? tv.pcf->StateLabel(s) : nullptr;
    OTF2_StringRef rn = str.Ref(label(l, fmt::format("State {}", s)));
    OTF2_StringRef rd = str.Ref(fmt::format("{}{}", kOtf2StatePrefix, s)), empty = str.Ref("");
    OTF2_RegionRef r = ref;
    defs.push_back([=] {
      return OTF2_GlobalDefWriter_WriteRegion(g, r, rn, rn, rd, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER,
                                              OTF2_REGION_FLAG_NONE, empty, 0, 0);
    });
  }
  for (const auto& [ty, ref] : metrics) {
    const std::string* l = tv.pcf ? tv.pcf->EventTypeLabel(ty) : nullptr;
    OTF2_StringRef mn = str.Ref(label(l, fmt::format("Event type {}", ty)));
    OTF2_StringRef md = str.Ref(fmt::format("{}{}", kOtf2EventTypePrefix, ty)), unit = str.Ref("#");
    OTF2_MetricRef m = ref;
    defs.push_back([=] {
      OTF2_ErrorCode e = OTF2_GlobalDefWriter_WriteMetricMember(g, m, mn, md, OTF2_METRIC_TYPE_OTHER,
                                                               OTF2_METRIC_ABSOLUTE_POINT, OTF2_TYPE_INT64,
                                                               OTF2_BASE_DECIMAL, 0, unit);
      if (e != OTF2_SUCCESS) return e;
      OTF2_MetricMemberRef member = m;
      return OTF2_GlobalDefWriter_WriteMetricClass(g, m, 1, &member, OTF2_METRIC_ASYNCHRONOUS, OTF2_RECORDER_KIND_ABSTRACT);
    });
  }
  // One MPI world over every thread (rank = thread index): the communicator of the messages.
  OTF2_StringRef gname = str.Ref("Parallax threads"), cname = str.Ref("MPI_COMM_WORLD");
  defs.push_back([=, &all] {
    return OTF2_GlobalDefWriter_WriteGroup(g, 0, gname, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                           OTF2_GROUP_FLAG_NONE, static_cast<uint32_t>(all.size()), all.data());
  });
  defs.push_back([=, &ranks] {
    return OTF2_GlobalDefWriter_WriteGroup(g, 1, cname, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                           OTF2_GROUP_FLAG_NONE, static_cast<uint32_t>(ranks.size()), ranks.data());
  });
  defs.push_back([=] { return OTF2_GlobalDefWriter_WriteComm(g, 0, cname, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE); });
  ok = ok && str.Write(g);
  for (const auto& d : defs) ok = ok && d() == OTF2_SUCCESS;
  if (!ok) return Fail(shown, "writing the global definitions failed");

  std::string unsigned_types;
  if (tv.unsigned_value_types)
    for (uint32_t ty : *tv.unsigned_value_types) unsigned_types += fmt::format("{}{}", unsigned_types.empty() ? "" : ",", ty);
  std::string pcf = tv.pcf ? WritePcf(*tv.pcf) : std::string();
  std::string row = tv.row ? WriteRow(*tv.row) : std::string();
  ok = OTF2_Archive_SetProperty(archive.get(), kOtf2HeaderProperty, FormatPrvHeader(h).c_str(), true) == OTF2_SUCCESS;
  if (!pcf.empty()) ok = ok && OTF2_Archive_SetProperty(archive.get(), kOtf2PcfProperty, pcf.c_str(), true) == OTF2_SUCCESS;
  if (!row.empty()) ok = ok && OTF2_Archive_SetProperty(archive.get(), kOtf2RowProperty, row.c_str(), true) == OTF2_SUCCESS;
  if (!unsigned_types.empty())
    ok = ok && OTF2_Archive_SetProperty(archive.get(), kOtf2UnsignedTypesProperty, unsigned_types.c_str(), true) == OTF2_SUCCESS;
  if (!ok) return Fail(shown, "writing the archive properties failed");
  if (OTF2_Archive_Close(archive.release()) != OTF2_SUCCESS) return Fail(shown, "closing the OTF2 archive failed");
  return Status::Ok();
}

// True when `dir` holds only what an OTF2 event folder holds (.evt and .def files).
bool LooksLikeEventFolder(const fs::path& dir) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    auto ext = e.path().extension();
    if (!e.is_regular_file(ec) || (ext != ".evt" && ext != ".def")) return false;
  }
  return !ec;
}

// WriteOtf2Trace without the capture of libotf2's messages.
Status WriteArchive(const TraceView& trace, const std::string& path, bool overwrite) {
  fs::path anchor(path);
  if (anchor.extension() != ".otf2")
    return Status::Error("an OTF2 output must name the anchor file NAME.otf2", Location{path, 0, 0},
                         "NAME.def and the folder NAME/ are written next to it");
  fs::path dir = anchor.parent_path().empty() ? fs::path(".") : anchor.parent_path();
  std::string name = anchor.stem().string();
  fs::path def = dir / (name + ".def"), evt_dir = dir / name;
  std::error_code ec;
  for (const fs::path& p : {anchor, def, evt_dir}) {
    if (!fs::exists(fs::symlink_status(p, ec))) continue;
    if (!overwrite) return Status::Error("output exists", Location{p.string(), 0, 0}, "use --force to replace the archive");
    if (p == evt_dir && (!fs::is_directory(p, ec) || !LooksLikeEventFolder(p)))
      return Status::Error("refusing to replace a folder that is not an OTF2 event folder", Location{p.string(), 0, 0},
                           "choose another output name");
  }
  std::string tmp = fmt::format(".{}.parallax-tmp-{}", name, ::getpid());
  auto cleanup = [&] {
    fs::remove(dir / (tmp + ".otf2"), ec);
    fs::remove(dir / (tmp + ".def"), ec);
    fs::remove_all(dir / tmp, ec);
  };
  cleanup();
  Status s = WriteArchive(trace, dir.string(), tmp, path);
  if (!s.ok()) {
    cleanup();
    return s;
  }
  if (fs::exists(evt_dir, ec)) fs::remove_all(evt_dir, ec);
  fs::rename(dir / tmp, evt_dir, ec);
  if (!ec) fs::rename(dir / (tmp + ".def"), def, ec);
  if (!ec) fs::rename(dir / (tmp + ".otf2"), anchor, ec);
  if (ec) {
    cleanup();
    return Status::Error(fmt::format("cannot move the archive into place: {}", ec.message()), Location{path, 0, 0}, "");
  }
  return Status::Ok();
}

}  // namespace

Status WriteOtf2Trace(const TraceView& trace, const std::string& path, bool overwrite) {
  Otf2Messages messages;
  return messages.Annotate(WriteArchive(trace, path, overwrite));
}

}  // namespace parallax::io
