#pragma once
// Internal to src/cfg: the state machine behind ParseCfg. The driver and the end-of-window
// work live in cfg_reader.cc, the handlers of the window keys in cfg_window_keys.cc.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "include/parallax/status.h"
#include "src/cfg/cfg_file.h"
#include "src/cfg/cfg_tokens.h"

namespace parallax::cfg {

class CfgParser {
 public:
  CfgParser(std::string_view text, const std::string& file, const CfgContext& ctx)
      : text_(text), file_(file), ctx_(ctx) {}

  Result<CfgFile> Run();

  using Handler = Status (CfgParser::*)(Field value);

 private:
  enum class Bound : uint8_t { kDefault, kRelative, kAbsolute };

  // cfg_reader.cc
  Status Line(std::string_view line);
  Status Key(std::string_view key, Field value, std::string_view line);
  Status FinishWindow();
  Status PickEventTypes(semantic::WindowSpec& w, const CfgWindow& info);
  void PickEventValues(semantic::WindowSpec& w, const CfgWindow& info);
  void NormalizeWindow(semantic::WindowSpec& w);
  void CheckEventsInTrace();

  // Errors and notices.
  Status Expected(Field f, std::string_view what, std::string hint) const;
  Status Unsupported(std::string_view name, size_t column = 1) const;
  Status TokenFailure(const TokenError& e, std::string hint) const;
  void Notice(std::string text);

  // Value readers that fail with Expected().
  Status Bool(Field f, bool* out) const;
  Status Double(Field f, double* out) const;
  Status Uint(Field f, uint64_t max, uint64_t* out) const;

  semantic::WindowSpec& W() { return out_.windows.back(); }
  CfgWindow& Info() { return out_.window_info.back(); }
  uint32_t ObjectCount(model::Level level) const;  // 0 when unknown

  // cfg_window_keys.cc: one handler per key.
 public:
  Status OnName(Field v);
  Status OnType(Field v);
  Status OnIdentifiers(Field v);
  Status OnFactors(Field v);
  Status OnShifts(Field v);
  Status OnOperation(Field v);
  Status OnLevel(Field v);
  Status OnUnits(Field v);
  Status OnBeginTime(Field v);
  Status OnStopTime(Field v);
  Status OnEndTime(Field v);
  Status OnBeginRelative(Field v);
  Status OnEndRelative(Field v);
  Status OnZoomObjects(Field v);
  Status OnObject(Field v);
  Status OnSelectedFunctions(Field v);
  Status OnComposeFunctions(Field v);
  Status OnSemanticModule(Field v);
  Status OnFilterModule(Field v);
  Status OnFilterFlag(Field v);
  Status OnGeometry(Field v);
  Status OnDisplayFlag(Field v);
  Status OnNonColorMode(Field v);
  Status OnColorMode(Field v);
  Status OnGradientFunction(Field v);
  Status OnCustomPalette(Field v);
  Status OnScale(Field v);
  Status OnComputeYMax(Field v);
  Status OnDrawMode(Field v);
  Status OnDisplayNumber(Field v);
  Status OnIgnored(Field v);

  // cfg_histogram_keys.cc: the histogram keys (cfg-format.md §5).
  Status HistogramKey(std::string_view key, Field value, std::string_view line);
  void FinishHistograms();

 private:
  Status SetBound(bool begin, bool absolute, Field v);
  Status SetSlotFunction(Field level, Field fn, bool compose);
  Status SetCriterion(std::string_view kind, Field fn);
  Status ApplyObjectLine(const ObjectLine& line);
  Status FilterNumbers(std::string_view kind, Field rest, uint64_t n);
  Status FilterLabels(std::string_view kind, Field rest, uint64_t n);
  std::optional<model::Level> ParentLevel();
  HistogramSpec& Hist() { return out_.histograms.back().spec; }
  Status NewHistogram();
  Status HistWindow(Field v, int* out);
  Status HistBool(Field v, bool* out) const;
  Status HistDouble(Field v, double* out) const { return Double(v, out); }
  Status HistObjects(Field v);
  Status HistParameters(Field v);
  Status HistSpecKey(std::string_view key, Field v, bool* handled);
  Status HistGuiKey(std::string_view key, Field v);
  Status CheckHistogramSize() const;

  std::string_view text_;
  const std::string& file_;
  const CfgContext& ctx_;
  CfgFile out_;

  uint64_t line_no_ = 0;
  std::string_view key_;
  // The key as messages name it: histogram keys are spelt with their colon
  // ("Analyzer2D.Delta:"), which a message's own ": " would double.
  std::string_view KeyName() const {
    return key_.ends_with(':') ? key_.substr(0, key_.size() - 1) : key_;
  }
  bool in_description_ = false;
  bool version_line_ = false;
  std::string pending_name_;
  // State of the window being read.
  bool have_window_ = false;
  Bound begin_ = Bound::kDefault;
  Bound end_ = Bound::kDefault;
  uint64_t type_label_line_ = 0;
  uint64_t value_label_line_ = 0;
  // State of the histogram being read: the last line (and key) that set its columns or planes.
  uint64_t columns_line_ = 0;
  uint64_t planes_line_ = 0;
  std::string columns_key_;
  std::string planes_key_;
};

}  // namespace parallax::cfg
