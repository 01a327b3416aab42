#pragma once
// The descriptor table as a session sees it: the built-in FunctionTable() plus the functions a
// plug-in or a front end added (include/parallax/functions.h). A registry is built at startup,
// then shared read-only; it is passed explicitly (TraceView, CfgContext), never global. Added
// functions get a FunctionDesc like the built-in ones, pointing to their CustomFunction: the rows
// call it with batches of intervals (rows.h), and the generic kernels (CustomThread,
// CustomCompose, CustomDerived) with one interval (stateful thread functions).

#include <memory>
#include <string_view>
#include <vector>

#include "include/parallax/functions.h"
#include "include/parallax/status.h"
#include "src/semantic/function_table.h"

namespace parallax::semantic {

class FunctionRegistry {
 public:
  // The registry of the built-in functions only (immutable).
  static const FunctionRegistry& Builtin();

  // Adds a function (see parallax::FunctionRegistry::Add for what is refused).
  Status Add(CustomFunction f);

  const FunctionDesc* Find(std::string_view name, Slot slot) const;
  const FunctionDesc* FindAnyGroup(std::string_view name) const;
  // Built-in functions in table order, then the added ones in the order they were added.
  std::vector<const FunctionDesc*> All() const;

 private:
  struct Entry;  // an added function: its owned strings, descriptor and kernels
  std::vector<std::shared_ptr<const Entry>> added_;
};

// The registry a pointer names, or the built-in one when null.
inline const FunctionRegistry& RegistryOr(const FunctionRegistry* r) { return r ? *r : FunctionRegistry::Builtin(); }

}  // namespace parallax::semantic
