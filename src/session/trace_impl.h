#pragma once
// The implementation behind parallax::Trace: the parsed .prv plus its .pcf and .row. Other
// modules of the core (and tests) use it directly; front ends see only include/parallax.

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "include/parallax/trace.h"
#include "src/cfg/cfg_file.h"
#include "src/diagnose/trace_diagnosis.h"
#include "src/io/prv/prv_reader.h"
#include "src/session/guard.h"
#include "src/semantic/evaluator.h"
#include "src/semantic/function_registry.h"
#include "src/semantic/window_spec.h"
#include "src/store/state_blocks.h"
#include "src/model/pcf_catalog.h"
#include "src/model/row_names.h"

namespace parallax::session {

class DistributedCall;

// The file a trace was opened from ("" for a trace of another implementation).
std::string PathOf(const Trace& trace);

// An error when one of `outputs` is the input trace `input` or one of its companions (the same
// file, however it is named): writing it would destroy the input.
Status CheckOutputsAreNotTheInput(const std::string& input, const std::vector<std::string>& outputs);
// The error a call on `trace` gives when a file its records are mapped from was truncated
// while in use (Trace::Changed); Ok otherwise.
Status ChangedError(const Trace& trace);

// Guarded (guard.h) for a call on `trace`: a result computed while the trace's mapped files
// were cut under it (their pages read as zeros) is replaced by ChangedError. `file` names the
// input in the other errors.
template <typename F>
auto GuardedOn(const Trace& trace, const std::string& file, F&& body) -> decltype(body()) {
  auto result = Guarded(file, std::forward<F>(body));
  if (Status changed = ChangedError(trace); !changed.ok()) return changed;
  return result;
}

class TraceImpl : public Trace {
 public:
  TraceImpl(std::string path, io::PrvTrace prv)
      : path_(std::move(path)),
        prv_(std::move(prv)),
        state_blocks_(prv_.store, std::exchange(prv_.state_blocks, {})) {}

  TraceInfo Info() const override;
  TraceInfo Summary() const override;
  Status Write(const std::string& prv_path, bool overwrite) const override;
  Status WriteSddf(const std::string& path, bool binary, bool overwrite) const;
  Result<TextView> Text(const TextRequest& request) const override;
  Result<std::vector<ParamedirOutput>> Paramedir(const std::string& cfg_path, const std::string& output_name,
                                                 const ParamedirOptions& options) const override;

  // Reads a cfg against this trace (object counts, .pcf labels, event types present).
  Result<cfg::CfgFile> LoadCfg(const std::string& path) const;
  // The same for cfg text; `name` names it in messages.
  Result<cfg::CfgFile> LoadCfgText(const std::string& text, const std::string& name) const;
  // A request's cfg: `text` when not empty (named by `path`, or "cfg"), else the file `path`.
  Result<cfg::CfgFile> LoadRequestCfg(const std::string& path, const std::string& text) const;
  // What the cfg reader needs to know about this trace.
  cfg::CfgContext CfgContextOf() const;
  // Event types that occur in the trace, sorted (computed once).
  const std::vector<uint32_t>& EventTypes() const;
  // Sets them when they were found otherwise (a distributed open); before the first EventTypes.
  void SetEventTypes(std::vector<uint32_t> types);
  // The windows a request names (a cfg's, or one thread function's) and the index of the one
  // it shows: `window` names it, else the cfg's last.
  Result<std::pair<std::vector<semantic::WindowSpec>, size_t>> TextWindows(const TextRequest& req) const;

  // TracePalette(background, pcf()): the expansion costs tens of ms, and every frame of a trace
  // needs the same one. Kept for the first few backgrounds asked for (defined in render.cc).
  std::vector<model::Rgb> Palette(model::Rgb background) const;

  bool Changed() const override { return prv_.store.TruncatedFile() != nullptr; }

  const std::string& path() const { return path_; }
  const io::PrvTrace& prv() const { return prv_; }
  const model::TraceHeader& header() const { return prv_.header; }
  const store::TraceStore& store() const { return prv_.store; }
  // Summaries of the threads' states for timeline frames: those the trace cache stored, else
  // each thread's built by the first frame that needs it, kept for the next ones.
  const store::StateBlockCache& state_blocks() const { return state_blocks_; }
  const model::PcfCatalog* pcf() const { return pcf_ ? &*pcf_ : nullptr; }
  const model::RowNames* row() const { return row_ ? &*row_ : nullptr; }

  // The functions cfgs may name (LoadOptions::functions; never null).
  const semantic::FunctionRegistry& functions() const;
  // What the evaluator needs of this trace.
  semantic::TraceView View() const {
    semantic::TraceView v{&header(), &store(), pcf(), &functions()};
    v.diagnosis = &diagnosis();
    return v;
  }
  // The trace's diagnosis with the default options, computed once when first asked for.
  const diagnose::LazyDiagnosis& diagnosis() const;
  // The MPI call table: the diagnosis' when it was computed already, else read into *own (all
  // cores) and returned from there.
  const calls::CallTable& CallTable(calls::CallTable* own) const;
  void set_functions(std::shared_ptr<const FunctionRegistry> f) { functions_ = std::move(f); }

  void set_pcf(model::PcfCatalog pcf) { pcf_ = std::move(pcf); }
  void set_row(model::RowNames row) { row_ = std::move(row); }
  void set_load_seconds(double s) { load_seconds_ = s; }
  // What this open did with the trace cache (TraceInfo::cache_path, cache_use).
  void set_cache(std::string path, std::string use) {
    cache_path_ = std::move(path);
    cache_use_ = std::move(use);
  }
  // Problems found in the .pcf/.row (lines ignored), shown by info.
  std::vector<DiagnosticInfo>& companion_diagnostics() { return companion_diagnostics_; }

 private:
  std::string path_;
  io::PrvTrace prv_;
  store::StateBlockCache state_blocks_;  // of prv_.store, which does not change
  std::optional<model::PcfCatalog> pcf_;
  std::optional<model::RowNames> row_;
  std::shared_ptr<const FunctionRegistry> functions_;
  // The bodies of the entry points of the same name (which run them through Guarded).
  Status WriteUnguarded(const std::string& prv_path, bool overwrite) const;
  Result<TextView> TextUnguarded(const TextRequest& request) const;
  // `dist`: this call's part of a distributed run (options.distribution), or null.
  Result<std::vector<ParamedirOutput>> ParamedirUnguarded(const std::string& cfg_path,
                                                          const std::string& output_name,
                                                          const ParamedirOptions& options,
                                                          DistributedCall* dist) const;
  // The events and communications of the object's threads within the view's range, charged
  // to the request's memory.
  void AddRecords(model::Level level, uint32_t object, TextView& view, base::ChargeBatch& charge) const;

  std::vector<DiagnosticInfo> companion_diagnostics_;
  double load_seconds_ = 0;
  std::string cache_path_, cache_use_;
  mutable std::once_flag diagnosis_once_;
  mutable std::unique_ptr<diagnose::LazyDiagnosis> diagnosis_;
  mutable std::once_flag event_types_once_;
  mutable std::vector<uint32_t> event_types_;
  mutable std::mutex palettes_mutex_;
  mutable std::vector<std::pair<model::Rgb, std::vector<model::Rgb>>> palettes_;
};

// Loads a trace without going through the public facade.
Result<std::unique_ptr<TraceImpl>> OpenTrace(const std::string& path, const LoadOptions& options);

}  // namespace parallax::session
