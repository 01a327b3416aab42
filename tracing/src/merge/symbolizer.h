#pragma once
// Turns the call-site addresses the MPI wrappers record (kCaller) into a function name and a
// "LINE (FILE, MODULE)" label, the way Extrae's caller types 70000001 / 80000001 name them, by
// reading the DWARF line tables of the program and its libraries with elfutils' libdw. Runs at
// merge time, on the machine where the objects are (the program must be built with -g for
// lines; without it the function comes from the symbol table and the line is unknown).

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tracing/src/merge/pxt_reader.h"

namespace parallax::tracing {

struct CallSite {
  std::string function;  // "Unresolved" (no object), "_NOT_Found" (no symbol), or the name
  std::string line;      // "42 (file.c, program)", "0 (Unresolved)", "0 (_NOT_Found)"
};

class Symbolizer {
 public:
  explicit Symbolizer(const std::vector<ProcessFile::Module>& modules);
  ~Symbolizer();
  Symbolizer(const Symbolizer&) = delete;
  Symbolizer& operator=(const Symbolizer&) = delete;

  // The call site of a return address (cached per address).
  const CallSite& Resolve(uint64_t return_address);
  // True when the build has libdw (otherwise every site is "_NOT_Found" or "Unresolved").
  static bool Available();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::map<uint64_t, CallSite> cache_;
};

}  // namespace parallax::tracing
