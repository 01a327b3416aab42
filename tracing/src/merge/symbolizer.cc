#include "tracing/src/merge/symbolizer.h"

#ifdef PXT_HAVE_LIBDW
#include <elfutils/libdwfl.h>
#include <unistd.h>

#include "tracing/src/input_file.h"
#endif

namespace parallax::tracing {
namespace {

std::string BaseName(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

#ifdef PXT_HAVE_LIBDW
// The source line of `pc` in `mod`. dwfl_module_getsrc finds the compilation unit through
// .debug_aranges, which clang does not emit by default (libdw 0.188 builds no table from the
// units themselves), so without a match each unit's own address ranges are tried.
bool SourceLine(Dwfl_Module* mod, GElf_Addr pc, const char** file, int* line) {
  if (Dwfl_Line* l = dwfl_module_getsrc(mod, pc)) {
    *file = dwfl_lineinfo(l, nullptr, line, nullptr, nullptr, nullptr);
    return *file != nullptr;
  }
  Dwarf_Addr bias = 0;
  for (Dwarf_Die* cu = dwfl_module_nextcu(mod, nullptr, &bias); cu != nullptr;
       cu = dwfl_module_nextcu(mod, cu, &bias)) {
    if (dwarf_haspc(cu, pc - bias) <= 0) continue;
    Dwarf_Line* l = dwarf_getsrc_die(cu, pc - bias);
    if (l == nullptr || dwarf_lineno(l, line) != 0) return false;
    *file = dwarf_linesrc(l, nullptr, nullptr);
    return *file != nullptr;
  }
  return false;
}
#endif

}  // namespace

struct Symbolizer::Impl {
  std::vector<ProcessFile::Module> modules;
#ifdef PXT_HAVE_LIBDW
  Dwfl* dwfl = nullptr;
  // One reported module per object path (an object has several segments).
  std::map<std::string, Dwfl_Module*> reported;
  Dwfl_Callbacks callbacks{};

  Impl() {
    callbacks.find_elf = dwfl_build_id_find_elf;
    callbacks.find_debuginfo = dwfl_standard_find_debuginfo;
    callbacks.section_address = dwfl_offline_section_address;
    dwfl = dwfl_begin(&callbacks);
  }
  ~Impl() {
    if (dwfl) dwfl_end(dwfl);
  }

  Dwfl_Module* ModuleOf(const ProcessFile::Module& m) {
    auto it = reported.find(m.path);
    if (it != reported.end()) return it->second;
    Dwfl_Module* mod = nullptr;
    // The path comes from the process file: only a regular file is opened, never by a blocking
    // open (a named pipe there would hold the merge forever, a device would be read without end).
    std::string why;
    const int fd = dwfl ? OpenInputFd(m.path, &why) : -1;
    if (fd >= 0) {
      dwfl_report_begin_add(dwfl);
      // On success libdwfl keeps the descriptor (and closes it with the module).
      mod = dwfl_report_elf(dwfl, BaseName(m.path).c_str(), m.path.c_str(), fd,
                            static_cast<GElf_Addr>(m.bias), false);
      dwfl_report_end(dwfl, nullptr, nullptr);
      if (mod == nullptr) ::close(fd);
    }
    reported[m.path] = mod;
    return mod;
  }
#endif
};

Symbolizer::Symbolizer(const std::vector<ProcessFile::Module>& modules) : impl_(new Impl) {
  impl_->modules = modules;
}

Symbolizer::~Symbolizer() = default;

bool Symbolizer::Available() {
#ifdef PXT_HAVE_LIBDW
  return true;
#else
  return false;
#endif
}

const CallSite& Symbolizer::Resolve(uint64_t return_address) {
  auto cached = cache_.find(return_address);
  if (cached != cache_.end()) return cached->second;
  CallSite site{"Unresolved", "0 (Unresolved)"};
  const ProcessFile::Module* module = nullptr;
  for (const auto& m : impl_->modules)
    if (return_address >= m.low && return_address < m.high) module = &m;
  if (module != nullptr) {
    site = {"_NOT_Found", "0 (_NOT_Found)"};
#ifdef PXT_HAVE_LIBDW
    if (Dwfl_Module* mod = impl_->ModuleOf(*module)) {
      // The call instruction ends just before the return address.
      auto pc = static_cast<GElf_Addr>(return_address - 1);
      if (const char* name = dwfl_module_addrname(mod, pc)) site.function = name;
      const char* file = nullptr;
      int lineno = 0;
      if (SourceLine(mod, pc, &file, &lineno) && lineno > 0)
        site.line =
            std::to_string(lineno) + " (" + BaseName(file) + ", " + BaseName(module->path) + ")";
    }
#endif
  }
  return cache_.emplace(return_address, std::move(site)).first->second;
}

}  // namespace parallax::tracing
