#include "src/plugin/plugin_loader.h"

#include <dlfcn.h>
#include <sys/stat.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <memory>
#include <stdexcept>

#include "include/parallax/plugin.h"
#include "src/base/regular_file.h"
#include "src/base/text_safety.h"

namespace parallax::plugin {

using Handle = std::shared_ptr<void>;

// What parallax_plugin_register fills through the host's callback.
struct Collector {
  std::string path;
  Handle handle;
  std::vector<CustomFunction> functions;
  std::string error;  // the first refusal
};

}  // namespace parallax::plugin

// The opaque px_registry of the ABI is the collector.
struct px_registry {
  parallax::plugin::Collector collector;
};

namespace parallax::plugin {

namespace {

// The parameters as the ABI passes them, without allocating (FunctionRegistry::Add refuses
// more than kMaxFunctionParams parameters).
struct ParamView {
  std::array<px_values, kMaxFunctionParams> v{};
  size_t n = 0;
  explicit ParamView(const FunctionParams& p) : n(std::min(p.size(), v.size())) {
    for (size_t i = 0; i < n; ++i) v[i] = px_values{p[i].data(), p[i].size()};
  }
};

px_record ToPx(const FunctionRecord& r) {
  return px_record{r.kind, r.cpu, 0, r.thread, r.partner, r.time, r.state, r.event_type, r.event_value, r.size, r.tag};
}

[[noreturn]] void KernelFailed(const std::string& name, const std::string& path, int code) {
  throw FunctionError(fmt::format("plug-in function '{}' ({}) failed with code {}", name, path, code));
}

// Refuses a description; returns non-zero to the plug-in.
int Refuse(Collector& c, const std::string& why) {
  if (c.error.empty()) c.error = why;
  return 1;
}

int RegisterFunction(px_registry* reg, const px_function* f) {
  Collector& c = reg->collector;
  try {
    if (f == nullptr || f->name == nullptr) return Refuse(c, "a function without a name was registered");
    CustomFunction out;
    // Names are what cfgs and JSON outputs carry: they must be UTF-8 (a name in another
    // encoding could not be written in a cfg, nor listed by `functions --json`); descriptions
    // in another encoding are read as Latin-1.
    if (!base::IsValidUtf8(f->name))
      return Refuse(c, fmt::format("a function name is not UTF-8 ('{}')", base::EscapeControl(base::RepairUtf8(f->name))));
    out.name = f->name;
    out.origin = c.path;
    out.info = base::RepairUtf8(f->info ? f->info : "same as below");
    out.doc = base::RepairUtf8(f->doc ? f->doc : "");
    if (f->param_count > 0 && f->params == nullptr)
      return Refuse(c, fmt::format("function '{}': param_count is {} but params is NULL", out.name, f->param_count));
    for (size_t i = 0; i < f->param_count; ++i) {
      const px_param& p = f->params[i];
      if (p.name == nullptr) return Refuse(c, fmt::format("function '{}': parameter {} has no name", out.name, i + 1));
      if (!base::IsValidUtf8(p.name))
        return Refuse(c, fmt::format("function '{}': the name of parameter {} is not UTF-8", out.name, i + 1));
      if (p.default_count > 0 && p.defaults == nullptr)
        return Refuse(c, fmt::format("function '{}': parameter '{}' has defaults NULL", out.name, p.name));
      out.params.push_back({p.name, std::vector<double>(p.defaults, p.defaults + p.default_count)});
    }
    std::string name = out.name, path = c.path;
    void* user = f->user;
    Handle keep = c.handle;  // every kernel keeps the library loaded
    switch (f->kind) {
      case PX_THREAD: {
        out.kind = "thread";
        out.records = f->records;
        out.stateful = f->stateful != 0;
        px_thread_kernel k = f->thread;
        if (k == nullptr) return Refuse(c, fmt::format("thread function '{}' has no thread kernel", name));
        out.thread = [k, user, keep, name, path](size_t n, const FunctionRecord* r, const double* prev,
                                                 const FunctionParams& params, double* o) {
          ParamView pv(params);
          std::array<px_record, 64> rec;  // converted a chunk at a time: no allocation per call
          for (size_t i = 0; i < n; i += rec.size()) {
            size_t m = std::min(rec.size(), n - i);
            for (size_t j = 0; j < m; ++j) rec[j] = ToPx(r[i + j]);
            if (int code = k(user, m, rec.data(), prev + i, pv.v.data(), pv.n, o + i)) KernelFailed(name, path, code);
          }
        };
        break;
      }
      case PX_COMPOSE: {
        out.kind = "compose";
        px_compose_kernel k = f->compose;
        if (k == nullptr) return Refuse(c, fmt::format("compose function '{}' has no compose kernel", name));
        out.compose = [k, user, keep, name, path](size_t n, const double* v, const uint64_t* b, const uint64_t* e,
                                                  const FunctionParams& params, double* o) {
          ParamView pv(params);
          if (int code = k(user, n, v, b, e, pv.v.data(), pv.n, o)) KernelFailed(name, path, code);
        };
        break;
      }
      case PX_DERIVED: {
        out.kind = "derived";
        px_derived_kernel k = f->derived;
        if (k == nullptr) return Refuse(c, fmt::format("derived function '{}' has no derived kernel", name));
        out.derived = [k, user, keep, name, path](size_t n, const double* a, const double* b,
                                                  const FunctionParams& params, double* o) {
          ParamView pv(params);
          if (int code = k(user, n, a, b, pv.v.data(), pv.n, o)) KernelFailed(name, path, code);
        };
        break;
      }
      default:
        return Refuse(c, fmt::format("function '{}' has kind {} (expected PX_THREAD 1, PX_COMPOSE 2 or PX_DERIVED 3)",
                                     name, f->kind));
    }
    c.functions.push_back(std::move(out));
    return 0;
  } catch (const std::exception& e) {
    return Refuse(c, e.what());
  }
}

Status Fail(const std::string& path, const std::string& what, const std::string& hint) {
  return Status::Error(fmt::format("cannot load plug-in {}: {}", path, what), {}, hint);
}

}  // namespace

Result<std::vector<CustomFunction>> LoadPluginFunctions(const std::string& path) {
  dlerror();
  // A path without '/' would make dlopen search the library path: name the file itself.
  std::string file = path.find('/') == std::string::npos ? "./" + path : path;
  // dlopen opens it in blocking mode: a named pipe there would wait for a writer forever.
  if (struct stat st {}; ::stat(file.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    return Fail(path, "is " + base::NonRegularKind(st.st_mode) + ", not a regular file",
                "give the path of a shared library (.so)");
  void* raw = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (raw == nullptr) {
    const char* why = dlerror();
    return Fail(path, why ? why : "dlopen failed",
                "give the path of a shared library built for this machine (see docs/plugins.md); "
                "a missing symbol means a library it needs is not loaded");
  }
  Handle handle(raw, [](void* h) { dlclose(h); });
  auto version = reinterpret_cast<px_abi_version_fn>(dlsym(raw, "parallax_plugin_abi_version"));
  auto reg = reinterpret_cast<px_register_fn>(dlsym(raw, "parallax_plugin_register"));
  const char* missing = version == nullptr ? "parallax_plugin_abi_version"
                        : reg == nullptr   ? "parallax_plugin_register"
                                           : nullptr;
  if (missing != nullptr)
    return Fail(path, fmt::format("the library does not export {}", missing),
                "a plug-in defines PARALLAX_PLUGIN_ABI() and parallax_plugin_register with C linkage "
                "(include/parallax/plugin.h)");
  uint32_t v = version();
  if (v != PARALLAX_PLUGIN_ABI_VERSION)
    return Fail(path, fmt::format("it was built for plug-in ABI version {}, this Parallax has version {}", v,
                                  PARALLAX_PLUGIN_ABI_VERSION),
                "rebuild the plug-in against this Parallax's include/parallax/plugin.h");
  px_registry registry;
  registry.collector.path = path;
  registry.collector.handle = handle;
  px_host host{PARALLAX_PLUGIN_ABI_VERSION, &registry, RegisterFunction};
  int rc = reg(&host);
  Collector& c = registry.collector;
  if (!c.error.empty())
    return Fail(path, c.error, "fix the function's description in the plug-in (docs/plugins.md)");
  if (rc != 0)
    return Fail(path, fmt::format("parallax_plugin_register returned {}", rc),
                "the plug-in reported a failure while registering its functions");
  if (c.functions.empty())
    return Fail(path, "it registered no function", "call host->register_function for each function");
  return std::move(c.functions);
}

}  // namespace parallax::plugin
