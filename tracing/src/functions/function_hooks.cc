// libparallax-functions.so: user functions of programs built with -finstrument-functions, as
// Extrae's event 60000019 "User function" (the function's address, resolved to its name by the
// merge) and 60000119 its line, 0 at exit. GCC and clang call __cyg_profile_func_enter/_exit at
// the entry and exit of every function of an object built with the flag; glibc defines them as
// no-ops, so the program runs unchanged without this library, and preloading it (or linking it)
// puts these definitions first.
//
// PXT_FUNCTIONS=FILE keeps only the functions FILE names (one symbol name a line, `#` comments):
// the names are looked up once, at load, in the symbol tables (.symtab, else .dynsym) of the
// program and the libraries loaded with it, and each call is then a binary search among the
// addresses found, with no allocation and no lock. Nothing here is built with the flag itself
// (no_instrument_function on every function, in case a build adds it).

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "parallax/trace.h"
#include "tracing/src/runtime.h"

#define PXT_NO_INSTRUMENT __attribute__((no_instrument_function))

namespace parallax::tracing {
namespace {

constexpr uint32_t kUserFunctionType = 60000019;  // Extrae's "User function" (+100: its line)

bool g_filter = false;              // PXT_FUNCTIONS given
std::vector<uintptr_t> g_kept;      // sorted entry addresses of the listed functions (g_filter)

struct Lookup {
  const std::set<std::string>* names;
  std::vector<uintptr_t>* found;
  std::set<std::string>* matched;
};

// Adds the addresses of the listed function symbols of the ELF file `path` loaded at `bias`.
PXT_NO_INSTRUMENT void ScanObject(const std::string& path, uintptr_t bias, const Lookup& l) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < static_cast<off_t>(sizeof(ElfW(Ehdr)))) {
    close(fd);
    return;
  }
  const size_t size = static_cast<size_t>(st.st_size);
  void* map = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (map == MAP_FAILED) return;
  const auto* base = static_cast<const uint8_t*>(map);
  const auto* eh = reinterpret_cast<const ElfW(Ehdr)*>(base);
  auto inside = [&](size_t off, size_t len) { return off <= size && len <= size - off; };
  if (std::memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0 && eh->e_shentsize == sizeof(ElfW(Shdr)) &&
      inside(eh->e_shoff, size_t{eh->e_shnum} * sizeof(ElfW(Shdr)))) {
    const auto* sh = reinterpret_cast<const ElfW(Shdr)*>(base + eh->e_shoff);
    // .symtab when the object has one (not stripped), else the dynamic symbols.
    for (uint32_t kind : {uint32_t{SHT_SYMTAB}, uint32_t{SHT_DYNSYM}}) {
      bool any = false;
      for (int i = 0; i < eh->e_shnum; ++i) {
        if (sh[i].sh_type != kind || sh[i].sh_link >= eh->e_shnum) continue;
        const ElfW(Shdr)& strs = sh[sh[i].sh_link];
        if (!inside(sh[i].sh_offset, sh[i].sh_size) || !inside(strs.sh_offset, strs.sh_size)) continue;
        any = true;
        const auto* syms = reinterpret_cast<const ElfW(Sym)*>(base + sh[i].sh_offset);
        const char* names = reinterpret_cast<const char*>(base + strs.sh_offset);
        for (size_t k = 0; k < sh[i].sh_size / sizeof(ElfW(Sym)); ++k) {
          const ElfW(Sym)& s = syms[k];
          if ((ELF64_ST_TYPE(s.st_info) != STT_FUNC && ELF64_ST_TYPE(s.st_info) != STT_GNU_IFUNC) ||
              s.st_value == 0 || s.st_shndx == SHN_UNDEF || s.st_name >= strs.sh_size)
            continue;
          const char* name = names + s.st_name;
          if (strnlen(name, strs.sh_size - s.st_name) == strs.sh_size - s.st_name) continue;
          if (l.names->count(name)) {
            l.found->push_back(bias + s.st_value);
            l.matched->insert(name);
          }
        }
      }
      if (any) break;
    }
  }
  munmap(map, size);
}

PXT_NO_INSTRUMENT int ScanModule(dl_phdr_info* info, size_t, void* arg) {
  std::string path = info->dlpi_name ? info->dlpi_name : "";
  if (path.empty()) {  // the program
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return 0;
    path.assign(exe, static_cast<size_t>(n));
  }
  if (path[0] == '/') ScanObject(path, info->dlpi_addr, *static_cast<const Lookup*>(arg));
  return 0;
}

// PXT_FUNCTIONS: the names of FILE, resolved to addresses; false when it cannot be read.
PXT_NO_INSTRUMENT bool LoadList(const std::string& file) {
  FILE* f = std::fopen(file.c_str(), "re");
  if (!f) {
    std::fprintf(stderr, "parallax-trace: PXT_FUNCTIONS=%s cannot be read: %s; no user function is recorded\n",
                 file.c_str(), std::strerror(errno));
    return false;
  }
  std::set<std::string> names;
  char line[1024];
  while (std::fgets(line, sizeof line, f)) {
    std::string s(line);
    if (size_t hash = s.find('#'); hash != std::string::npos) s.erase(hash);
    while (!s.empty() && std::strchr(" \t\r\n", s.back())) s.pop_back();
    size_t b = s.find_first_not_of(" \t");
    if (b != std::string::npos) names.insert(s.substr(b));
  }
  std::fclose(f);
  std::set<std::string> matched;
  Lookup l{&names, &g_kept, &matched};
  dl_iterate_phdr(ScanModule, &l);
  std::sort(g_kept.begin(), g_kept.end());
  g_kept.erase(std::unique(g_kept.begin(), g_kept.end()), g_kept.end());
  std::string missing;
  for (const auto& n : names)
    if (!matched.count(n)) missing += (missing.empty() ? "" : ", ") + n;
  if (!missing.empty() && Runtime::Get().options().verbose)
    std::fprintf(stderr, "parallax-trace: PXT_FUNCTIONS: no function named %s in the program or its libraries\n",
                 missing.c_str());
  return true;
}

PXT_NO_INSTRUMENT bool Kept(uintptr_t fn) {
  return !g_filter || std::binary_search(g_kept.begin(), g_kept.end(), fn);
}

bool g_ready = false;  // set once the list is loaded: calls before it (other constructors) are skipped

__attribute__((constructor, no_instrument_function)) void LoadFunctionTracing() {
  if (pxt_start() != 0 || !Runtime::Get().active()) return;
  Runtime& rt = Runtime::Get();
  const std::string& file = rt.options().functions;
  if (!file.empty()) {
    g_filter = true;
    if (!LoadList(file)) return;  // g_ready stays false: nothing recorded
  }
  rt.NameType(kUserFunctionType, "User function");
  rt.NameType(kUserFunctionType + 100, "User function line");
  g_ready = true;
}

}  // namespace
}  // namespace parallax::tracing

using parallax::tracing::CurrentBuffer;
using parallax::tracing::ThreadBuffer;

extern "C" {

PXT_NO_INSTRUMENT void __cyg_profile_func_enter(void* fn, void* /*call_site*/) {
  namespace pt = parallax::tracing;
  if (!pt::g_ready || pt::t_in_tracer) return;
  const auto address = reinterpret_cast<uintptr_t>(fn);
  if (!pt::Kept(address)) return;
  ThreadBuffer* b = CurrentBuffer();
  if (!b) return;
  // The entry address + 1: the merge resolves code addresses as return addresses (one byte
  // back), which must stay inside the function.
  pt::RecordCodeEvent(b, pt::Now(), pt::kUserFunctionType, address + 1);
}

PXT_NO_INSTRUMENT void __cyg_profile_func_exit(void* fn, void* /*call_site*/) {
  namespace pt = parallax::tracing;
  if (!pt::g_ready || pt::t_in_tracer) return;
  if (!pt::Kept(reinterpret_cast<uintptr_t>(fn))) return;
  ThreadBuffer* b = CurrentBuffer();
  if (!b) return;
  const uint64_t t = pt::Now();
  pt::RecordEvent(b, t, pt::kUserFunctionType, 0);
  pt::RecordEvent(b, t, pt::kUserFunctionType + 100, 0);
}

}  // extern "C"
