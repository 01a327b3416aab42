// parallax._parallax: the Python binding of the core's public API (include/parallax/). The
// pure-Python package python/parallax/ wraps it (DataFrames, Jupyter display); this file only
// converts between C++ values and Python objects. Column data leaves as NumPy arrays that own
// the C++ vectors they were made from (no copy).

#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "include/parallax/diagnose.h"
#include "include/parallax/structure.h"
#include "include/parallax/compare.h"
#include "include/parallax/functions.h"
#include "include/parallax/pop.h"
#include "include/parallax/profile.h"
#include "include/parallax/render.h"
#include "include/parallax/tools.h"
#include "include/parallax/trace.h"
#include "include/parallax/views.h"
#include "include/parallax/window.h"

namespace py = pybind11;

namespace parallax::python {

namespace {

// Raises parallax.Error (defined at module import) carrying the Status's parts.
[[noreturn]] void Raise(const Status& s) {
  py::object type = py::module_::import("parallax._parallax").attr("Error");
  py::object e = type(s.ToString());
  e.attr("message") = s.message();
  e.attr("file") = s.where().file;
  e.attr("line") = s.where().line;
  e.attr("column") = s.where().column;
  e.attr("hint") = s.hint();
  PyErr_SetObject(type.ptr(), e.ptr());
  throw py::error_already_set();
}

template <typename T>
T Take(Result<T>&& r) {
  if (!r.ok()) Raise(r.status());
  return std::move(r).value();
}

// Runs `run` (a call of the core returning a Result) without the GIL, so other Python threads
// go on meanwhile; its value, or its error raised (with the GIL held again).
template <typename Run>
auto TakeReleased(Run&& run) {
  auto r = [&] {
    py::gil_scoped_release release;
    return run();
  }();
  return Take(std::move(r));
}

// A NumPy array over the vector's memory, owning the vector.
template <typename T>
py::array_t<T> Array(std::vector<T>&& v) {
  auto* owned = new std::vector<T>(std::move(v));
  py::capsule owner(owned, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>({static_cast<py::ssize_t>(owned->size())},
                        {static_cast<py::ssize_t>(sizeof(T))}, owned->data(), owner);
}

py::array_t<double> Matrix(const std::vector<std::vector<double>>& rows, size_t columns) {
  py::array_t<double> m({static_cast<py::ssize_t>(rows.size()), static_cast<py::ssize_t>(columns)});
  auto w = m.mutable_unchecked<2>();
  for (size_t i = 0; i < rows.size(); ++i)
    for (size_t j = 0; j < columns; ++j)
      w(static_cast<py::ssize_t>(i), static_cast<py::ssize_t>(j)) =
          j < rows[i].size() ? rows[i][j] : std::nan("");
  return m;
}

class PyTrace {
 public:
  explicit PyTrace(std::unique_ptr<Trace> t) : trace_(std::move(t)) {}
  const Trace& get() const { return *trace_; }

 private:
  std::unique_ptr<Trace> trace_;
};

// A set of semantic functions (the built-in ones, plug-ins, Python callables). Python code
// never changes one that a trace uses: adding returns a new registry (parallax/__init__.py).
using Registry = std::shared_ptr<FunctionRegistry>;

Registry NewRegistry() { return std::make_shared<FunctionRegistry>(); }

Registry LoadPlugin(const Registry& base, const std::string& path) {
  auto next = std::make_shared<FunctionRegistry>(*base);
  Status s = Status::Ok();
  {
    py::gil_scoped_release release;
    s = next->LoadPlugin(path);
  }
  if (!s.ok()) Raise(s);
  return next;
}

// The arguments of a Python kernel: `first`, then one NumPy array per declared parameter.
py::tuple KernelArgs(std::initializer_list<py::object> first, const FunctionParams& params) {
  py::tuple t(first.size() + params.size());
  size_t i = 0;
  for (const py::object& o : first) t[i++] = o;
  for (const auto& p : params) t[i++] = py::array_t<double>(static_cast<py::ssize_t>(p.size()), p.data());
  return t;
}

// "ValueError: the message (file.py, line 12, in fn)": the exception and the innermost frame of
// its traceback, on one line (the Status's message), not pybind11's multi-line what().
std::string Describe(const py::error_already_set& e) {
  try {
    std::string out = std::string(py::str(e.type().attr("__name__")));
    std::string text = py::str(e.value());
    if (!text.empty()) out += ": " + text;
    py::object tb = e.trace();
    if (tb.is_none()) return out;
    while (!tb.attr("tb_next").is_none()) tb = tb.attr("tb_next");
    py::object code = tb.attr("tb_frame").attr("f_code");
    return fmt::format("{} ({}, line {}, in {})", out, std::string(py::str(code.attr("co_filename"))),
                       tb.attr("tb_lineno").cast<long>(), std::string(py::str(code.attr("co_name"))));
  } catch (const std::exception&) {  // an exception whose str() raises, say
    return e.what();
  }
}

// Calls a Python kernel on a batch of n intervals and copies its n results to `out`. A Python
// exception, or a result that is not one number per interval (another length or shape, or a
// dtype other than bool, integer or float), becomes a FunctionError naming the function: the
// error of the request.
void CallPython(const std::string& name, const py::function& fn, py::tuple args, size_t n, double* out) {
  try {
    py::object result = fn(*args);
    py::array a = py::array::ensure(result);
    if (!a) {
      PyErr_Clear();
      throw FunctionError(fmt::format("Python function '{}' returned {}, not an array of numbers", name,
                                      std::string(py::str(result.get_type()))));
    }
    char kind = a.dtype().kind();
    if (kind != 'b' && kind != 'i' && kind != 'u' && kind != 'f') {
      std::string what = py::isinstance<py::array>(result)
                             ? "an array of dtype " + std::string(py::str(a.dtype()))
                             : "a " + std::string(py::str(result.get_type().attr("__name__")));
      throw FunctionError(fmt::format("Python function '{}' returned {} (expected a NumPy array of bool, "
                                      "integer or float values)", name, what));
    }
    if (a.ndim() != 1 || static_cast<size_t>(a.size()) != n)
      throw FunctionError(fmt::format("Python function '{}' returned {} values of shape {} for {} intervals "
                                      "(expected one value per interval)", name, a.size(),
                                      std::string(py::str(py::tuple(a.attr("shape")))), n));
    auto r = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(a);
    if (!r) throw py::error_already_set();
    std::copy(r.data(), r.data() + n, out);
  } catch (py::error_already_set& e) {
    throw FunctionError(fmt::format("Python function '{}' raised {}", name, Describe(e)));
  }
}

template <typename T>
py::array_t<T> Copy(size_t n, const T* p) { return py::array_t<T>(static_cast<py::ssize_t>(n), p); }

Registry AddFunction(const Registry& base, const std::string& name, const std::string& kind, py::function fn,
                     const std::vector<std::pair<std::string, std::vector<double>>>& params,
                     const std::string& info, const std::string& doc, unsigned records, bool stateful) {
  CustomFunction f;
  f.name = name;
  f.kind = kind;
  f.info = info;
  f.doc = doc;
  f.origin = "python";
  f.records = records;
  f.stateful = stateful;
  for (const auto& [n, d] : params) f.params.push_back({n, d});
  // The kernels hold the callable; they run on the core's worker threads, so each takes the GIL
  // (the bindings release it while the core works) and releases its reference under it. The
  // core calls them with batches of intervals (src/semantic/rows.h), so Python is entered once
  // per batch, and the inputs are copied once per batch into NumPy arrays.
  auto holder = std::shared_ptr<py::function>(new py::function(std::move(fn)), [](py::function* p) {
    py::gil_scoped_acquire gil;
    delete p;
  });
  if (kind == "compose") {
    f.compose = [holder, name](size_t n, const double* v, const uint64_t* b, const uint64_t* e,
                               const FunctionParams& params, double* out) {
      py::gil_scoped_acquire gil;
      py::tuple args = KernelArgs({Copy(n, v), Copy(n, b), Copy(n, e)}, params);
      CallPython(name, *holder, args, n, out);
    };
  } else if (kind == "derived") {
    f.derived = [holder, name](size_t n, const double* a, const double* b, const FunctionParams& params,
                               double* out) {
      py::gil_scoped_acquire gil;
      py::tuple args = KernelArgs({Copy(n, a), Copy(n, b)}, params);
      CallPython(name, *holder, args, n, out);
    };
  } else if (kind == "thread") {
    f.thread = [holder, name](size_t n, const FunctionRecord* r, const double* prev, const FunctionParams& params,
                              double* out) {
      py::gil_scoped_acquire gil;
      std::vector<int> kind(n);
      std::vector<uint64_t> time(n);
      std::vector<uint32_t> thread(n), type(n), partner(n);
      std::vector<int64_t> state(n), size(n), tag(n);
      std::vector<double> value(n);
      for (size_t i = 0; i < n; ++i) {
        kind[i] = r[i].kind;
        time[i] = r[i].time;
        thread[i] = r[i].thread;
        type[i] = r[i].event_type;
        partner[i] = r[i].partner;
        state[i] = r[i].state;
        size[i] = r[i].size;
        tag[i] = r[i].tag;
        value[i] = r[i].event_value;
      }
      py::dict rec(py::arg("kind") = Array(std::move(kind)), py::arg("time") = Array(std::move(time)),
                   py::arg("thread") = Array(std::move(thread)), py::arg("state") = Array(std::move(state)),
                   py::arg("event_type") = Array(std::move(type)), py::arg("event_value") = Array(std::move(value)),
                   py::arg("size") = Array(std::move(size)), py::arg("tag") = Array(std::move(tag)),
                   py::arg("partner") = Array(std::move(partner)));
      py::tuple args = KernelArgs({rec, Copy(n, prev)}, params);
      CallPython(name, *holder, args, n, out);
    };
  }
  auto next = std::make_shared<FunctionRegistry>(*base);
  Status s = next->Add(std::move(f));
  if (!s.ok()) Raise(s);
  return next;
}

std::shared_ptr<PyTrace> Open(const std::string& path, bool strict, unsigned threads,
                              std::function<void(uint64_t, uint64_t)> progress, const Registry& functions,
                              bool cache, const std::string& cache_dir, bool compact) {
  LoadOptions options;
  options.functions = functions;
  options.strict = strict;
  options.threads = threads;
  options.use_cache = cache;
  options.cache_dir = cache_dir;
  options.compact = compact;
  // An exception raised by the callback (KeyboardInterrupt included) stops the load, and is
  // raised again here as it was, not as an internal error of the load.
  std::unique_ptr<py::error_already_set> raised;  // touched under the GIL only
  if (progress) {
    options.progress = [progress, &raised](uint64_t done, uint64_t total) {
      py::gil_scoped_acquire gil;
      if (!raised) {
        try {
          progress(done, total);
          return;
        } catch (py::error_already_set& e) {
          raised = std::make_unique<py::error_already_set>(std::move(e));
        }
      }
      throw std::runtime_error("stopped by an exception in the progress callback");
    };
  }
  Result<std::unique_ptr<Trace>> t = Status::Ok();
  {
    py::gil_scoped_release release;
    t = Trace::Open(path, options);
  }
  if (raised) {
    raised->restore();
    throw py::error_already_set();
  }
  return std::make_shared<PyTrace>(Take(std::move(t)));
}

// What the load could not take from the file (LoadWarnings); parallax.open warns with them.
std::vector<std::string> LoadWarningsOf(const PyTrace& t) { return LoadWarnings(t.get().Summary()); }

py::dict Info(const PyTrace& t) {
  TraceInfo i = t.get().Info();
  py::dict d;
  d["path"] = i.path;
  d["date"] = i.date;
  d["time_unit"] = i.time_unit;
  d["end_time"] = i.end_time;
  d["trace_end"] = i.trace_end;
  d["first_time"] = i.first_time;
  d["last_time"] = i.last_time;
  d["nodes"] = i.nodes;
  d["cpus"] = i.cpus;
  d["appls"] = i.appls;
  d["tasks"] = i.tasks;
  d["threads"] = i.threads;
  d["communicators"] = i.communicators;
  d["states"] = i.states;
  d["events"] = i.events;
  d["event_pairs"] = i.event_pairs;
  d["comms"] = i.comms;
  d["records"] = i.records;
  d["file_bytes"] = i.file_bytes;
  d["store_bytes"] = i.store_bytes;
  d["load_seconds"] = i.load_seconds;
  d["cache_path"] = i.cache_path;
  d["cache_use"] = i.cache_use;
  d["has_pcf"] = i.has_pcf;
  d["has_row"] = i.has_row;
  auto labels = [](const std::vector<LabelCount>& v) {
    py::list out;
    for (const LabelCount& l : v) out.append(py::dict(py::arg("id") = l.id, py::arg("label") = l.label,
                                                      py::arg("count") = l.count));
    return out;
  };
  d["state_values"] = labels(i.state_values);
  d["event_types"] = labels(i.event_types);
  py::list diags;
  for (const DiagnosticInfo& g : i.diagnostics)
    diags.append(py::dict(py::arg("kind") = g.kind, py::arg("severity") = g.severity,
                          py::arg("description") = g.description, py::arg("count") = g.count,
                          py::arg("examples") = g.examples));
  d["diagnostics"] = diags;
  return d;
}

// A portion given as from_/to: refused (ValueError with the core's message) when empty or
// outside the trace.
void CheckRange(const PyTrace& t, std::optional<uint64_t> from, std::optional<uint64_t> to) {
  if (from || to) Take(TraceRange(t.get(), from, to));
}

py::dict Window(const PyTrace& t, const std::string& cfg, const std::string& cfg_text,
                const std::string& window, const std::string& function,
                const std::vector<double>& parameters, std::optional<uint64_t> from,
                std::optional<uint64_t> to, const std::string& level) {
  CheckRange(t, from, to);
  WindowRequest req{cfg, cfg_text, window, function, parameters, from, to, 0};
  req.level = level;
  WindowIntervals w = TakeReleased([&] { return EvaluateWindow(t.get(), req); });
  py::dict d;
  d["window"] = w.window;
  d["level"] = w.level;
  d["info_type"] = w.info_type;
  d["time_unit"] = w.time_unit;
  d["unit"] = w.unit;
  d["from"] = w.from;
  d["to"] = w.to;
  d["object_names"] = w.object_names;
  d["object"] = Array(std::move(w.object));
  d["begin"] = Array(std::move(w.begin));
  d["end"] = Array(std::move(w.end));
  d["value"] = Array(std::move(w.value));
  return d;
}

py::list Analyze(const PyTrace& t, const std::string& cfg, const std::string& cfg_text,
                 bool all, bool hide_empty, std::optional<uint64_t> from,
                 std::optional<uint64_t> to) {
  AnalyzeRequest req{cfg, cfg_text, all, hide_empty};
  req.from = from;
  req.to = to;
  std::vector<AnalyzeTable> tables = TakeReleased([&] { return Analyze(t.get(), req); });
  py::list out;
  for (const AnalyzeTable& table : tables) {
    py::list planes;
    for (const AnalyzePlane& p : table.planes) {
      py::dict d;
      d["label"] = p.label;
      d["columns"] = p.columns;
      d["rows"] = p.rows;
      d["row_objects"] = p.row_objects;
      d["values"] = Matrix(p.values, p.columns.size());
      d["total_names"] = p.total_names;
      d["totals"] = Matrix(p.totals, p.columns.size());
      planes.append(d);
    }
    out.append(py::dict(py::arg("name") = table.name, py::arg("statistic") = table.statistic,
                        py::arg("unit") = table.unit,
                        py::arg("control_window") = table.control_window,
                        py::arg("data_window") = table.data_window,
                        py::arg("extra_window") = table.extra_window,
                        py::arg("paramedir_writes") = table.paramedir_writes,
                        py::arg("planes") = planes));
  }
  return out;
}

py::list Timeline(const PyTrace& t, const std::string& cfg, const std::string& cfg_text,
                  const std::string& window, const std::string& function, uint32_t width,
                  uint32_t height, const std::string& format, std::optional<uint64_t> from,
                  std::optional<uint64_t> to) {
  TimelineRequest req;
  req.cfg_path = cfg;
  req.cfg_text = cfg_text;
  req.window = window;
  req.thread_function = function;
  req.width = width;
  req.height = height;
  req.format = format;
  req.from = from;
  req.to = to;
  py::list out;
  for (TimelineImage& img : TakeReleased([&] { return RenderTimeline(t.get(), req); }))
    out.append(py::dict(py::arg("window") = img.window, py::arg("format") = img.format,
                        py::arg("data") = py::bytes(img.data), py::arg("layout") = img.layout));
  return out;
}

py::dict Records(const PyTrace& t) {
  TraceRecords r = TakeReleased([&] { return Records(t.get()); });
  py::dict states, events, comms;
  states["thread"] = Array(std::move(r.states.thread));
  states["begin"] = Array(std::move(r.states.begin));
  states["end"] = Array(std::move(r.states.end));
  states["state"] = Array(std::move(r.states.state));
  states["cpu"] = Array(std::move(r.states.cpu));
  events["thread"] = Array(std::move(r.events.thread));
  events["time"] = Array(std::move(r.events.time));
  events["type"] = Array(std::move(r.events.type));
  events["value"] = Array(std::move(r.events.value));
  events["cpu"] = Array(std::move(r.events.cpu));
  comms["sender"] = Array(std::move(r.comms.sender));
  comms["receiver"] = Array(std::move(r.comms.receiver));
  comms["log_send"] = Array(std::move(r.comms.log_send));
  comms["phy_send"] = Array(std::move(r.comms.phy_send));
  comms["log_recv"] = Array(std::move(r.comms.log_recv));
  comms["phy_recv"] = Array(std::move(r.comms.phy_recv));
  comms["size"] = Array(std::move(r.comms.size));
  comms["tag"] = Array(std::move(r.comms.tag));
  return py::dict(py::arg("thread_names") = r.thread_names, py::arg("states") = states,
                  py::arg("events") = events, py::arg("comms") = comms);
}

py::list Paramedir(const PyTrace& t, const std::string& cfg, const std::string& output_name,
                   bool trace_units, bool no_precision_limit) {
  ParamedirOptions opt;
  opt.trace_units = trace_units;
  opt.no_precision_limit = no_precision_limit;
  py::list out;
  for (const ParamedirOutput& o : TakeReleased([&] { return t.get().Paramedir(cfg, output_name, opt); }))
    out.append(py::dict(py::arg("file_name") = o.file_name, py::arg("content") = o.content,
                        py::arg("notices") = o.notices, py::arg("write") = o.write));
  return out;
}

py::dict Pop(const std::vector<std::string>& traces, const std::string& scaling,
             std::optional<uint64_t> from, std::optional<uint64_t> to) {
  PopOptions opt;
  if (from || to)
    opt.portion = [from, to](const Trace& t, const std::string&) -> Result<std::optional<TimeSpan>> {
      auto span = TraceRange(t, from, to);
      if (!span.ok()) return span.status();
      return std::optional<TimeSpan>(span.value());
    };
  if (scaling == "strong") opt.scaling = PopScaling::kStrong;
  else if (scaling == "weak") opt.scaling = PopScaling::kWeak;
  else if (scaling != "auto")
    Raise(Status::Error("unknown scaling '" + scaling + "'", {}, "use auto, strong or weak"));
  PopReport rep = TakeReleased([&] { return ComputePop(traces, opt); });
  auto lines = [](const std::vector<PopLine>& v) {
    py::list out;
    for (const PopLine& l : v)
      out.append(py::dict(py::arg("key") = l.key, py::arg("name") = l.name,
                          py::arg("depth") = l.depth, py::arg("percent") = l.percent,
                          py::arg("values") = l.values, py::arg("unavailable") = l.unavailable));
    return out;
  };
  py::list traces_out;
  for (const PopTraceInfo& i : rep.traces)
    traces_out.append(py::dict(py::arg("path") = i.path, py::arg("processes") = i.processes,
                               py::arg("threads") = i.threads));
  return py::dict(py::arg("traces") = traces_out, py::arg("reference") = rep.reference,
                  py::arg("scaling") = PopScalingName(rep.scaling),
                  py::arg("scaling_detected") = rep.scaling_detected,
                  py::arg("factors") = lines(rep.factors), py::arg("raw") = lines(rep.raw),
                  py::arg("warnings") = rep.warnings, py::arg("csv") = FormatPopCsv(rep),
                  py::arg("text") = FormatPopText(rep));
}

// The diagnosis of a trace: its JSON summary (patterns, critical path, counts), its text, and
// every wait-state instance and critical-path segment as columns (lists), for DataFrames.
py::dict DiagnoseTrace(const PyTrace& t, std::optional<uint64_t> from, std::optional<uint64_t> to,
                       bool strict_sizes) {
  DiagnoseOptions opt;
  opt.strict_sizes = strict_sizes;
  if (from || to) opt.range = Take(TraceRange(t.get(), from, to));
  Diagnosis d = TakeReleased([&] { return Diagnose(t.get(), opt); });
  py::list pattern, rank, call, begin, wait, duration, culprit_rank, culprit_call, culprit_time,
      wrong_order, cause, cause_delay, cause_phase;
  for (const WaitStateInstance& i : d.instances) {
    pattern.append(i.pattern);
    rank.append(d.ranks[i.rank]);
    call.append(i.call);
    begin.append(i.begin_s);
    wait.append(i.wait_s);
    duration.append(i.call_s);
    culprit_rank.append(i.culprit_rank >= 0 ? py::object(py::str(d.ranks[i.culprit_rank])) : py::none());
    culprit_call.append(i.culprit_call);
    culprit_time.append(i.culprit_s);
    wrong_order.append(i.wrong_order);
    cause.append(i.cause);
    cause_delay.append(i.cause_delay_s);
    cause_phase.append(i.cause_phase.empty() ? py::object(py::none()) : py::object(py::str(i.cause_phase)));
  }
  py::dict instances(py::arg("pattern") = pattern, py::arg("rank") = rank, py::arg("call") = call,
                     py::arg("begin_s") = begin, py::arg("wait_s") = wait,
                     py::arg("call_s") = duration, py::arg("culprit_rank") = culprit_rank,
                     py::arg("culprit_call") = culprit_call, py::arg("culprit_s") = culprit_time,
                     py::arg("wrong_order") = wrong_order, py::arg("cause") = cause,
                     py::arg("cause_delay_s") = cause_delay, py::arg("cause_phase") = cause_phase);
  py::list seg_rank, seg_begin, seg_end;
  for (const CriticalPathSegmentInfo& s : d.critical_path.segments) {
    seg_rank.append(d.ranks[s.rank]);
    seg_begin.append(s.begin_s);
    seg_end.append(s.end_s);
  }
  py::dict segments(py::arg("rank") = seg_rank, py::arg("begin_s") = seg_begin,
                    py::arg("end_s") = seg_end);
  return py::dict(py::arg("json") = FormatDiagnosisJson(d), py::arg("text") = FormatDiagnosisText(d),
                  py::arg("instances") = instances, py::arg("segments") = segments);
}

// The structure of a trace: its JSON (iterations, phases, clusters), its text, the iterations
// per rank as columns, and every burst as NumPy arrays (thread, begin, end, cluster,
// instructions, ipc), for DataFrames.
py::dict StructureTrace(const PyTrace& t, std::optional<uint32_t> marker_type, std::optional<int64_t> marker_value,
                        double eps, uint32_t min_points, int64_t min_duration, bool duration_only) {
  StructureOptions opt;
  opt.marker_type = marker_type;
  opt.marker_value = marker_value;
  opt.eps = eps;
  opt.min_points = min_points;
  opt.min_duration = min_duration;
  opt.duration_only = duration_only;
  opt.bursts = true;
  ProgramStructure s = TakeReleased([&] { return AnalyzeStructure(t.get(), opt); });
  py::list it_index, it_rank, it_begin, it_end;
  for (size_t i = 0; i < s.iterations.items.size(); ++i) {
    const IterationItem& item = s.iterations.items[i];
    for (size_t u = 0; u < s.ranks.size(); ++u) {
      it_index.append(i + 1);
      it_rank.append(s.ranks[u]);
      it_begin.append(item.begin_by_rank[u]);
      it_end.append(item.end_by_rank[u]);
    }
  }
  py::dict iterations(py::arg("iteration") = it_index, py::arg("rank") = it_rank, py::arg("begin") = it_begin,
                      py::arg("end") = it_end);
  const std::string json = FormatStructureJson(s), text = FormatStructureText(s);
  ProgramStructure::Bursts& b = s.bursts;
  py::dict bursts(py::arg("thread") = Array(std::move(b.thread)), py::arg("begin") = Array(std::move(b.begin)),
                  py::arg("end") = Array(std::move(b.end)), py::arg("cluster") = Array(std::move(b.cluster)),
                  py::arg("instructions") = Array(std::move(b.instructions)), py::arg("ipc") = Array(std::move(b.ipc)));
  return py::dict(py::arg("json") = json, py::arg("text") = text, py::arg("iterations") = iterations,
                  py::arg("bursts") = bursts);
}

// Two traces compared (docs/compare.md): the JSON (rows, POP factors, notes) and the text.
py::dict CompareTraces(const PyTrace& a, const PyTrace& b, const std::string& by, bool pop) {
  CompareOptions opt;
  const std::optional<CompareBy> parsed = ParseCompareBy(by);
  if (!parsed) throw py::value_error("by must be auto, iteration, phase, call or rank, not '" + by + "'");
  opt.by = *parsed;
  opt.pop = pop;
  CompareReport c = TakeReleased([&] { return CompareRuns(a.get(), b.get(), opt); });
  return py::dict(py::arg("json") = FormatCompareJson(c), py::arg("text") = FormatCompareText(c));
}

// One cfg window of two runs over aligned time (docs/compare.md, difference windows): the JSON
// (objects, histograms), the text, the merged intervals as NumPy arrays, and the A - B and
// A / B images in `image_format` (none: no image).
py::dict CompareWindowOf(const PyTrace& a, const PyTrace& b, const std::string& cfg, const std::string& cfg_text,
                         const std::string& window, std::optional<uint64_t> iteration, std::optional<uint64_t> from,
                         std::optional<uint64_t> to, const std::string& image_format, uint32_t width) {
  DifferenceRequest req;
  req.cfg_path = cfg;
  req.cfg_text = cfg_text;
  req.window = window;
  req.iteration = iteration;
  req.from = from;
  req.to = to;
  DifferenceWindow d = TakeReleased([&] { return CompareWindow(a.get(), b.get(), req); });
  py::dict images;
  if (!image_format.empty()) {
    for (const char* op : {"diff", "ratio"}) {
      DifferenceImageRequest ir;
      ir.op = op;
      ir.format = image_format;
      ir.width = width;
      TimelineImage img = Take(RenderDifference(a.get(), d, ir));
      images[op] = py::dict(py::arg("window") = img.window, py::arg("format") = img.format,
                            py::arg("data") = py::bytes(img.data), py::arg("layout") = img.layout);
    }
  }
  const std::string json = FormatDifferenceJson(d), text = FormatDifferenceText(d);
  py::dict intervals(py::arg("object") = Array(std::move(d.object)), py::arg("begin") = Array(std::move(d.begin)),
                     py::arg("end") = Array(std::move(d.end)), py::arg("a") = Array(std::move(d.a_value)),
                     py::arg("b") = Array(std::move(d.b_value)));
  return py::dict(py::arg("json") = json, py::arg("text") = text, py::arg("intervals") = intervals,
                  py::arg("images") = images);
}

// Pipit-style operations (docs/python.md, "Pipit's operations"): the regions' flat and time
// profile, the point-to-point messages and traffic, and the cuts behind Trace.filter.
py::dict RegionProfileOf(const PyTrace& t, std::optional<uint64_t> from, std::optional<uint64_t> to, uint32_t bins) {
  RegionProfileRequest req;
  req.from = from;
  req.to = to;
  req.bins = bins;
  RegionProfile p = TakeReleased([&] { return ProfileRegions(t.get(), req); });
  py::list names, kinds, types, values;
  for (const RegionProfile::Region& g : p.regions) {
    names.append(g.name);
    kinds.append(g.kind);
    types.append(g.type);
    values.append(g.value);
  }
  auto matrix = [&](std::vector<std::vector<uint64_t>>& rows, size_t columns) {
    std::vector<uint64_t> flat;
    flat.reserve(rows.size() * columns);
    for (auto& row : rows) {
      flat.insert(flat.end(), row.begin(), row.end());
      row = {};
    }
    return Array(std::move(flat)).reshape({static_cast<py::ssize_t>(rows.size()), static_cast<py::ssize_t>(columns)});
  };
  const size_t tasks = p.tasks.size();
  const size_t cells = p.edges.empty() ? 0 : (p.edges.size() - 1) * tasks;
  py::dict d;
  d["from"] = p.from;
  d["to"] = p.to;
  d["time_unit"] = p.time_unit;
  d["tasks"] = p.tasks;
  d["threads"] = Array(std::move(p.threads));
  d["names"] = names;
  d["kinds"] = kinds;
  d["types"] = types;
  d["values"] = values;
  d["inclusive"] = matrix(p.inclusive, tasks);
  d["exclusive"] = matrix(p.exclusive, tasks);
  d["calls"] = matrix(p.calls, tasks);
  d["edges"] = Array(std::move(p.edges));
  d["binned"] = matrix(p.binned, cells);
  return d;
}

py::dict Messages(const PyTrace& t, std::optional<uint64_t> from, std::optional<uint64_t> to) {
  MessageColumns m = TakeReleased([&] { return PointToPointMessages(t.get(), from, to); });
  return py::dict(py::arg("sender") = Array(std::move(m.sender_task)),
                  py::arg("receiver") = Array(std::move(m.receiver_task)), py::arg("send") = Array(std::move(m.send)),
                  py::arg("recv") = Array(std::move(m.recv)), py::arg("size") = Array(std::move(m.size)));
}

// CommTraffic's task x task matrices (bytes, messages) of [from, to), every task included.
py::dict TaskTraffic(const PyTrace& t, std::optional<uint64_t> from, std::optional<uint64_t> to) {
  TrafficRequest req;
  req.from = from;
  req.to = to;
  req.buckets = 1;
  req.max_task_matrix = UINT32_MAX;
  Traffic tr = TakeReleased([&] { return CommTraffic(t.get(), req); });
  const size_t n = tr.tasks.size();
  py::array_t<double> bytes({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(n)});
  py::array_t<double> count({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(n)});
  auto wb = bytes.mutable_unchecked<2>();
  auto wc = count.mutable_unchecked<2>();
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < n; ++j) {
      wb(i, j) = tr.task_bytes[i][j];
      wc(i, j) = static_cast<double>(tr.task_messages[i][j]);
    }
  return py::dict(py::arg("tasks") = tr.tasks, py::arg("bytes") = bytes, py::arg("messages") = count,
                  py::arg("from") = tr.from, py::arg("to") = tr.to);
}

// `parallax cut`: [begin, end) of `input` (trace units), only the tasks given (1-based ranges;
// none: all), into `output`.
py::dict Cut(const std::string& input, const std::string& output, uint64_t begin, uint64_t end,
             const std::vector<std::pair<uint32_t, uint32_t>>& tasks) {
  ToolRun run;
  run.input = input;
  run.output = output;
  CutOptions opt;
  opt.begin = begin;
  opt.end = end;
  for (const auto& [first, last] : tasks) opt.tasks.push_back({first, last});
  ToolReport rep = TakeReleased([&] { return CutTrace(run, opt); });
  return py::dict(py::arg("input_records") = rep.input_records, py::arg("output_records") = rep.output_records,
                  py::arg("notes") = rep.notes);
}

// `parallax filter` keeping only the event types given (states and communications kept).
py::dict FilterEventTypes(const std::string& input, const std::string& output, const std::vector<uint64_t>& types) {
  ToolRun run;
  run.input = input;
  run.output = output;
  FilterOptions opt;
  for (uint64_t type : types) opt.types.push_back({type, type, {}});
  ToolReport rep = TakeReleased([&] { return FilterTrace(run, opt); });
  return py::dict(py::arg("input_records") = rep.input_records, py::arg("output_records") = rep.output_records,
                  py::arg("notes") = rep.notes);
}

// The standard views (docs/views.md).
py::list Views() {
  py::list out;
  for (const ViewInfo& v : ListViews())
    out.append(py::dict(py::arg("name") = v.name, py::arg("title") = v.title, py::arg("description") = v.description,
                        py::arg("windows") = v.windows, py::arg("histograms") = v.histograms,
                        py::arg("needs") = v.needs));
  return out;
}

std::string ViewText(const std::string& name) { return Take(ViewCfg(name)); }

py::list Functions(const Registry& functions) {
  py::list out;
  for (const FunctionInfo& f : ListFunctions(functions.get())) {
    py::list params;
    for (const FunctionParamInfo& p : f.params) params.append(p.name);
    out.append(py::dict(py::arg("name") = f.name, py::arg("group") = f.group,
                        py::arg("params") = params, py::arg("info") = f.info,
                        py::arg("stateful") = f.stateful, py::arg("doc") = f.doc,
                        py::arg("origin") = f.origin));
  }
  return out;
}

}  // namespace

}  // namespace parallax::python

PYBIND11_MODULE(_parallax, m) {
  using namespace parallax::python;  // NOLINT: the binding table below names every function
  m.doc() = "Parallax core (use the `parallax` package, not this module)";
  py::exception<std::runtime_error>(m, "Error");
  // Exceptions the core did not turn into a Status (none should) still reach Python as
  // exceptions, never as a crash of the interpreter.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const std::bad_alloc&) {
      PyErr_SetString(PyExc_MemoryError, "parallax: out of memory");
    }
  });
  py::class_<PyTrace, std::shared_ptr<PyTrace>>(m, "Trace");
  m.def("open", &Open, py::arg("path"), py::arg("strict") = false, py::arg("threads") = 0u,
        py::arg("progress") = nullptr, py::arg("functions") = nullptr, py::arg("cache") = false,
        py::arg("cache_dir") = "", py::arg("compact") = false);
  m.def("info", &Info);
  m.def("thread_names", [](const PyTrace& t) { return ThreadNames(t.get()); });
  m.def("load_warnings", &LoadWarningsOf);
  m.def("window", &Window, py::arg("trace"), py::arg("cfg") = "", py::arg("cfg_text") = "",
        py::arg("window") = "", py::arg("function") = "",
        py::arg("parameters") = std::vector<double>{}, py::arg("from_") = py::none(),
        py::arg("to") = py::none(), py::arg("level") = "");
  m.def("analyze", &Analyze, py::arg("trace"), py::arg("cfg") = "", py::arg("cfg_text") = "",
        py::arg("all") = true, py::arg("hide_empty") = false, py::arg("from_") = py::none(),
        py::arg("to") = py::none());
  m.def("timeline", &Timeline, py::arg("trace"), py::arg("cfg") = "", py::arg("cfg_text") = "",
        py::arg("window") = "", py::arg("function") = "", py::arg("width") = 1000u,
        py::arg("height") = 0u, py::arg("format") = "png", py::arg("from_") = py::none(),
        py::arg("to") = py::none());
  m.def("records", &Records);
  m.def("paramedir", &Paramedir, py::arg("trace"), py::arg("cfg"), py::arg("output_name") = "",
        py::arg("trace_units") = false, py::arg("no_precision_limit") = false);
  m.def("pop", &Pop, py::arg("traces"), py::arg("scaling") = "auto",
        py::arg("from_") = py::none(), py::arg("to") = py::none());
  m.def("diagnose", &DiagnoseTrace, py::arg("trace"), py::arg("from_") = py::none(),
        py::arg("to") = py::none(), py::arg("strict_sizes") = false);
  m.def("structure", &StructureTrace, py::arg("trace"), py::arg("marker_type") = py::none(),
        py::arg("marker_value") = py::none(), py::arg("eps") = 0.0, py::arg("min_points") = 0,
        py::arg("min_duration") = -1, py::arg("duration_only") = false);
  m.def("compare", &CompareTraces, py::arg("a"), py::arg("b"), py::arg("by") = "auto", py::arg("pop") = false);
  m.def("compare_window", &CompareWindowOf, py::arg("a"), py::arg("b"), py::arg("cfg") = "", py::arg("cfg_text") = "",
        py::arg("window") = "", py::arg("iteration") = py::none(), py::arg("from_") = py::none(),
        py::arg("to") = py::none(), py::arg("image_format") = "png", py::arg("width") = 1000u);
  m.def("region_profile", &RegionProfileOf, py::arg("trace"), py::arg("from_") = py::none(), py::arg("to") = py::none(),
        py::arg("bins") = 0u);
  m.def("messages", &Messages, py::arg("trace"), py::arg("from_") = py::none(), py::arg("to") = py::none());
  m.def("task_traffic", &TaskTraffic, py::arg("trace"), py::arg("from_") = py::none(), py::arg("to") = py::none());
  m.def("cut", &Cut, py::arg("input"), py::arg("output"), py::arg("begin"), py::arg("end"), py::arg("tasks"));
  m.def("filter_event_types", &FilterEventTypes, py::arg("input"), py::arg("output"), py::arg("types"));
  m.def("functions", &Functions, py::arg("functions") = nullptr);
  m.def("views", &Views);
  m.def("view_cfg", &ViewText, py::arg("name"));
  py::class_<parallax::FunctionRegistry, std::shared_ptr<parallax::FunctionRegistry>>(m, "Registry");
  m.def("new_registry", &NewRegistry);
  m.def("load_plugin", &LoadPlugin, py::arg("registry"), py::arg("path"));
  m.def("add_function", &AddFunction, py::arg("registry"), py::arg("name"), py::arg("kind"), py::arg("fn"),
        py::arg("params"), py::arg("info"), py::arg("doc"), py::arg("records"), py::arg("stateful"));
}
