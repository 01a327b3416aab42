#pragma once
// What the two OpenMP tracers share (ompt_tool.cc for LLVM's libomp, gomp_wrappers.cc for GCC's
// libgomp): Extrae's OpenMP event types and values, their .pcf names, and whether the process
// runs libgomp.

#include <link.h>

#include <cstdint>
#include <cstring>
#include <utility>

#include "tracing/src/runtime.h"

namespace parallax::tracing::omp {

inline constexpr uint32_t kParallel = 60000001;
inline constexpr uint32_t kBarrier = 60000005;
inline constexpr uint32_t kNamedLock = 60000006;
inline constexpr uint32_t kUnnamedLock = 60000007;
inline constexpr uint32_t kParallelFunction = 60000018;
inline constexpr uint32_t kTaskFunction = 60000023;
inline constexpr uint32_t kTaskInstantiated = 60000024;
inline constexpr int64_t kRegion = 3, kLoop = 1, kSections = 2;
inline constexpr int64_t kLockWait = 3, kLocked = 6, kUnlocked = 0;

// The .pcf names of the types and values above, and of the Idle state of worker threads.
inline void NameTypes(Runtime& rt) {
  rt.NameType(kParallel, "Parallel (OMP)");
  for (auto [v, l] : {std::pair<int64_t, const char*>{0, "close"}, {kLoop, "DO (open)"},
                      {kSections, "SECTIONS (open)"}, {kRegion, "REGION (open)"}})
    rt.NameValue(kParallel, v, l);
  rt.NameType(kBarrier, "OpenMP barrier");
  rt.NameValue(kBarrier, 0, "End");
  rt.NameValue(kBarrier, 1, "Begin");
  rt.NameType(kNamedLock, "OpenMP named-Lock");
  rt.NameType(kUnnamedLock, "OpenMP unnamed-Lock");
  for (uint32_t type : {kNamedLock, kUnnamedLock})
    for (auto [v, l] : {std::pair<int64_t, const char*>{kUnlocked, "Unlocked status"},
                        {kLockWait, "Lock"}, {kLocked, "Locked status"}})
      rt.NameValue(type, v, l);
  rt.NameType(kParallelFunction, "Executed OpenMP parallel function");
  rt.NameType(kParallelFunction + 100, "Executed OpenMP parallel function line and file");
  rt.NameType(kTaskFunction, "Executed OpenMP task function");
  rt.NameType(kTaskFunction + 100, "Executed OpenMP task function line and file");
  rt.NameType(kTaskInstantiated, "Instantiated OpenMP task function");
  rt.NameType(kTaskInstantiated + 100, "Instantiated OpenMP task function line and file");
  rt.NameState(PXT_STATE_IDLE, "Idle");
}

// Whether GCC's libgomp is loaded in this process.
inline bool UsesLibgomp() {
  bool found = false;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* out) {
        if (info->dlpi_name != nullptr && std::strstr(info->dlpi_name, "libgomp") != nullptr)
          *static_cast<bool*>(out) = true;
        return 0;
      },
      &found);
  return found;
}

}  // namespace parallax::tracing::omp
