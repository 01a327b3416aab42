#pragma once
// The body of parallax::FunctionRegistry: the semantic registry the core passes explicitly to
// the cfg reader (CfgContext) and the evaluator (TraceView).

#include "include/parallax/functions.h"
#include "src/semantic/function_registry.h"

namespace parallax {

struct FunctionRegistry::Impl {
  semantic::FunctionRegistry functions;
};

namespace session {
// The semantic registry of a public one (null: the built-in functions).
inline const semantic::FunctionRegistry* SemanticRegistry(const FunctionRegistry* r) {
  return r ? &r->impl().functions : nullptr;
}
}  // namespace session

}  // namespace parallax
