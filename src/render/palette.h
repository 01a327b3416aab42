#pragma once
// Colours of a timeline (rendering.md §4): Paraver's code-colour palette (49 fixed colours
// expanded to ~13 700 distinct ones), the .pcf STATES_COLOR overrides, and the gradient modes.
// Pure functions of a value and a ColorScheme: the fold step calls them once per pixel column.

#include <cstdint>
#include <vector>

#include "src/model/pcf_catalog.h"

namespace parallax::render {

using model::Rgb;

enum class GradientFn : uint8_t { kLinear, kSteps, kLog, kExp };

// Global colour preferences (rendering.md §4, defaults of Paraver's preferences).
struct ColorPrefs {
  Rgb background{0, 0, 0};
  Rgb foreground{255, 255, 255};
  Rgb zero_line{127, 127, 127};
  bool use_color_zero = true;
  Rgb color_zero{0, 0, 0};
  Rgb punctual{255, 128, 128};
  Rgb logical_comm{255, 255, 0};
  Rgb physical_comm{255, 0, 0};
  Rgb flag{0, 255, 0};
  Rgb gradient_begin{0, 255, 0};
  Rgb gradient_end{0, 0, 255};
  Rgb negative_begin{160, 255, 160};
  Rgb negative_end{160, 160, 255};
  Rgb above_max{255, 146, 24};
  Rgb below_min{207, 207, 68};
  // Extra stops between begin and end (e.g. the .pcf GRADIENT_COLOR); empty: two stops.
  std::vector<Rgb> gradient_stops;
};

// Paraver's palette for a background: the 49 base colours expanded (rendering.md §4.1).
// Deterministic; about 13 700 entries; computed in a few milliseconds.
std::vector<Rgb> ExpandedPalette(Rgb background);

// A palette told apart with any colour vision (Okabe and Ito's eight colours, then lighter and
// darker shades of them), for `background`; the .pcf's colours are not used. Entry 0 is the
// background (value 0, drawn as colour zero when used).
std::vector<Rgb> ColourBlindPalette(Rgb background);
// Gradient stops told apart with any colour vision (viridis: dark blue-violet to yellow).
std::vector<Rgb> ColourBlindGradient();

// The base palette with the .pcf STATES_COLOR entries applied (a value beyond the end grows the
// palette by repeating it, as the kernel does).
std::vector<Rgb> TracePalette(Rgb background, const model::PcfCatalog* pcf);

// Scale and colour settings of one window.
struct ColorScheme {
  ColorPrefs prefs;
  std::vector<Rgb> palette;  // TracePalette(); palette[0] is replaced by color zero when used
  double min_y = 0;
  double max_y = 18;
  GradientFn gradient = GradientFn::kLinear;
};

// Code colour of a value (§4.1).
Rgb CodeColor(const ColorScheme& s, double v);
// Gradient colour (§4.2); `not_null`: value 0 takes the colour zero (§4.3).
Rgb GradientColor(const ColorScheme& s, double v, bool not_null);
// Alternative three-stop gradient (§4.4).
Rgb AlternativeGradientColor(const ColorScheme& s, double v);
// The gradient function F applied to a normalised value.
double ApplyGradientFn(GradientFn f, double n);
// Luminance used by the palette-expansion similarity test.
int Luminance(Rgb c);

}  // namespace parallax::render
