#pragma once
// The semantic functions Parallax knows, as the descriptor table lists them (for `parallax
// functions`, the server and docs/functions.md).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "include/parallax/status.h"

namespace parallax {

struct FunctionParamInfo {
  std::string name;
  std::vector<double> defaults;
};

struct FunctionInfo {
  std::string name;   // as Paraver spells it
  std::string group;  // state, event, communication, object, compose, aggregation, cpu, derived
  std::vector<FunctionParamInfo> params;
  std::string info;   // what the values mean (for labels)
  bool stateful = false;
  bool implemented = true;
  std::string doc;
  std::string origin;  // "" for built-in functions; the plug-in library or "python"
};

// The record that starts an interval of a user-defined thread function (docs/plugins.md). The
// fields that do not apply to the kind are 0.
struct FunctionRecord {
  enum Kind : int { kNone = 0, kStateBegin = 1, kStateEnd = 2, kEvent = 3, kSend = 4, kReceive = 5 };
  int kind = kNone;          // kNone: the start of the trace (before any record)
  uint64_t time = 0;         // trace units
  uint32_t thread = 0;       // 0-based thread of the row
  uint16_t cpu = 0;          // 1-based cpu, 0 when unknown
  int64_t state = 0;         // state begin/end: the state value
  uint32_t event_type = 0;   // event: type and value (scaled by the .pcf precision)
  double event_value = 0;
  int64_t size = 0, tag = 0; // send/receive (logical records only)
  uint32_t partner = 0;      // send/receive: 0-based thread of the other side
};

// Parameters of a call: one vector per declared parameter (the cfg's values or the defaults).
using FunctionParams = std::vector<std::vector<double>>;

// Which records start an interval of a user-defined thread function (bit mask).
enum FunctionRecords : unsigned {
  kRecordStates = 1u,     // state begins (and ends, with the usual gap filling)
  kRecordEvents = 2u,     // events passing the window's filter
  kRecordSends = 4u,      // logical sends
  kRecordReceives = 8u,   // logical receives
};

// What a kernel of an added function throws to fail the request (other exceptions are reported
// as internal errors); the message names the function.
class FunctionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Most parameters an added function may declare.
constexpr size_t kMaxFunctionParams = 16;

// A semantic function defined outside the built-in table: by a plug-in (include/parallax/plugin.h)
// or by a front end (Python callables). Kernels are vectorised over n intervals: the evaluator
// calls them with batches of consecutive intervals of a row (up to 1024), stateful thread
// functions with one interval at a time (`previous` is the value just computed; 0 for the
// others). They may throw to report an error, which becomes the error of the request.
struct CustomFunction {
  std::string name;
  std::string kind;  // "thread", "compose" or "derived"
  std::vector<FunctionParamInfo> params;
  std::string info = "same as below";  // a value of FunctionInfo::info
  std::string doc;
  std::string origin;  // the library or front end, for listings and messages
  // thread: which records start an interval (FunctionRecords), and whether the function needs
  // the intervals from the start of the trace (`previous` is the value of the interval before).
  unsigned records = kRecordStates;
  bool stateful = false;
  std::function<void(size_t n, const FunctionRecord* records, const double* previous,
                     const FunctionParams& params, double* out)>
      thread;
  std::function<void(size_t n, const double* values, const uint64_t* begins, const uint64_t* ends,
                     const FunctionParams& params, double* out)>
      compose;
  std::function<void(size_t n, const double* a, const double* b, const FunctionParams& params,
                     double* out)>
      derived;
};

// The functions a session knows: the built-in table plus the functions added to it. Built once
// at startup and then shared read-only (LoadOptions::functions); adding to a registry that a
// trace already uses is not allowed (copy it instead: the copy is cheap).
class FunctionRegistry {
 public:
  FunctionRegistry();  // the built-in functions only
  FunctionRegistry(const FunctionRegistry&);
  FunctionRegistry& operator=(const FunctionRegistry&);
  ~FunctionRegistry();

  // Adds a function; refused when the name is already taken (by a built-in function or another
  // added one), when a kernel for its kind is missing, or when the kind or info is unknown.
  Status Add(CustomFunction f);
  // Loads a plug-in library (dlopen) and adds the functions it registers (docs/plugins.md).
  Status LoadPlugin(const std::string& path);
  // Loads every library of a colon-separated list (PARALLAX_PLUGINS); empty entries are skipped.
  Status LoadPlugins(const std::string& colon_list);

  struct Impl;
  const Impl& impl() const { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

// The functions of a registry (null: the built-in ones), in table order, added ones last.
std::vector<FunctionInfo> ListFunctions(const FunctionRegistry* registry = nullptr);

// docs/functions.md, generated from the table.
std::string FunctionsMarkdown();

}  // namespace parallax
