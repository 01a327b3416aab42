#include "src/model/pcf_catalog.h"

#include <algorithm>
#include <array>
#include <map>

namespace parallax::model {

namespace {

constexpr std::array<std::string_view, 7> kSectionNames = {
    "DEFAULT_OPTIONS", "DEFAULT_SEMANTIC", "STATES",        "STATES_COLOR",
    "EVENT_TYPE",      "GRADIENT_COLOR",   "GRADIENT_NAMES"};

}  // namespace

std::string_view PcfSectionName(PcfSection section) {
  return kSectionNames[static_cast<size_t>(section)];
}

std::optional<PcfSection> ParsePcfSectionName(std::string_view name) {
  for (size_t i = 0; i < kSectionNames.size(); ++i) {
    if (kSectionNames[i] == name) return static_cast<PcfSection>(i);
  }
  return std::nullopt;
}

bool WildcardMatch(std::string_view pattern, std::string_view text) {
  // Greedy matching with backtracking to the last '*': linear in practice, no recursion.
  size_t p = 0, t = 0;
  size_t star = std::string_view::npos, star_text = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      star_text = t;
    } else if (p < pattern.size() && pattern[p] == text[t]) {
      ++p;
      ++t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++star_text;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

void PcfCatalog::Finalize() {
  state_index_.clear();
  color_index_.clear();
  types_.clear();
  block_values_.clear();
  for (uint32_t i = 0; i < states.size(); ++i) state_index_[states[i].number] = i;
  for (uint32_t i = 0; i < states_color.size(); ++i) color_index_[states_color[i].value] = i;

  block_values_.resize(event_blocks.size());
  for (uint32_t b = 0; b < event_blocks.size(); ++b) {
    const PcfEventBlock& block = event_blocks[b];
    for (uint32_t v = 0; v < block.values.size(); ++v) {
      block_values_[b][block.values[v].value] = v;
    }
    for (uint32_t t = 0; t < block.types.size(); ++t) {
      TypeEntry& entry = types_[block.types[t].type];
      entry.block = b;
      entry.line = t;
      if (block.precision) entry.precision = *block.precision;
      // A type listed twice in one group must not see the group's values twice.
      if (!block.values.empty() && (entry.value_blocks.empty() || entry.value_blocks.back() != b)) {
        entry.value_blocks.push_back(b);
      }
    }
  }
}

const std::string* PcfCatalog::StateLabel(int64_t state) const {
  auto it = state_index_.find(state);
  return it == state_index_.end() ? nullptr : &states[it->second].label;
}

std::optional<Rgb> PcfCatalog::StateColor(int64_t value) const {
  auto it = color_index_.find(value);
  if (it == color_index_.end()) return std::nullopt;
  return states_color[it->second].rgb;
}

const std::string* PcfCatalog::EventTypeLabel(uint32_t type) const {
  auto it = types_.find(type);
  if (it == types_.end()) return nullptr;
  return &event_blocks[it->second.block].types[it->second.line].label;
}

const std::string* PcfCatalog::EventValueLabel(uint32_t type, int64_t value) const {
  auto it = types_.find(type);
  if (it == types_.end()) return nullptr;
  const std::vector<uint32_t>& blocks = it->second.value_blocks;
  // The last block that labels the value wins, as later lines overwrite earlier ones.
  for (auto b = blocks.rbegin(); b != blocks.rend(); ++b) {
    auto v = block_values_[*b].find(value);
    if (v != block_values_[*b].end()) return &event_blocks[*b].values[v->second].label;
  }
  return nullptr;
}

bool PcfCatalog::HasValueLabels(uint32_t type) const {
  auto it = types_.find(type);
  if (it == types_.end()) return false;
  for (uint32_t b : it->second.value_blocks)
    if (!block_values_[b].empty()) return true;
  return false;
}

int PcfCatalog::Precision(uint32_t type) const {
  auto it = types_.find(type);
  return it == types_.end() ? 0 : it->second.precision;
}

std::vector<uint32_t> PcfCatalog::EventTypes() const {
  std::vector<uint32_t> out;
  out.reserve(types_.size());
  for (const auto& [type, entry] : types_) out.push_back(type);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<uint32_t> PcfCatalog::TypesByLabel(std::string_view label) const {
  std::vector<uint32_t> out;
  const bool wildcard = label.find('*') != std::string_view::npos;
  for (const auto& [type, entry] : types_) {
    const std::string& type_label = event_blocks[entry.block].types[entry.line].label;
    if (wildcard ? WildcardMatch(label, type_label) : type_label == label) out.push_back(type);
  }
  std::sort(out.begin(), out.end());
  if (!wildcard && out.size() > 1) out.erase(out.begin(), out.end() - 1);
  return out;
}

std::vector<std::pair<uint32_t, int64_t>> PcfCatalog::ValuesByLabel(std::string_view label) const {
  std::vector<std::pair<uint32_t, int64_t>> out;
  for (const auto& [type, entry] : types_) {
    // Replay the type's value lines in file order so that a later label replaces an earlier
    // one for the same value, exactly as EventValueLabel() sees them.
    std::map<int64_t, const std::string*> labels;
    for (uint32_t b : entry.value_blocks) {
      for (const PcfEventValue& v : event_blocks[b].values) labels[v.value] = &v.label;
    }
    for (const auto& [value, text] : labels) {
      if (*text == label) out.emplace_back(type, value);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool operator==(const PcfCatalog& a, const PcfCatalog& b) {
  return a.default_options == b.default_options && a.default_semantic == b.default_semantic &&
         a.states == b.states && a.states_color == b.states_color &&
         a.event_blocks == b.event_blocks && a.gradient_color == b.gradient_color &&
         a.gradient_names == b.gradient_names;
}

}  // namespace parallax::model
