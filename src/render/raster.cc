#include "src/render/raster.h"

#include <algorithm>
#include <cstdlib>
#include <cstddef>
#include <cstring>
#include <string_view>
#include <type_traits>
#include <unordered_set>
#include <vector>

#include "src/render/font.h"

namespace parallax::render {

namespace {

class Canvas {
 public:
  explicit Canvas(Image& image) : img_(image) {}

  void Set(int32_t x, int32_t y, Rgb c) {
    if (x < 0 || y < 0 || x >= img_.width || y >= img_.height) return;
    size_t i =
        (static_cast<size_t>(y) * static_cast<size_t>(img_.width) + static_cast<size_t>(x)) * 3;
    img_.rgb[i] = c.r;
    img_.rgb[i + 1] = c.g;
    img_.rgb[i + 2] = c.b;
  }

  // Clipped once; the first row of the span is written pixel by pixel, the others copied.
  void Fill(const Rect& r) {
    int32_t x0 = std::max(r.x, 0), x1 = std::min(r.x + r.w, img_.width);
    int32_t y0 = std::max(r.y, 0), y1 = std::min(r.y + r.h, img_.height);
    if (x0 >= x1 || y0 >= y1) return;
    const size_t stride = static_cast<size_t>(img_.width) * 3;
    const size_t span = static_cast<size_t>(x1 - x0) * 3;
    uint8_t* first = img_.rgb.data() + static_cast<size_t>(y0) * stride + static_cast<size_t>(x0) * 3;
    for (size_t i = 0; i < span; i += 3) {
      first[i] = r.color.r;
      first[i + 1] = r.color.g;
      first[i + 2] = r.color.b;
    }
    for (int32_t y = y0 + 1; y < y1; ++y) std::memcpy(first + static_cast<size_t>(y - y0) * stride, first, span);
  }

  // Bresenham, both ends included.
  void Draw(const Line& l) {
    int32_t x = l.x0, y = l.y0;
    const int32_t dx = std::abs(l.x1 - l.x0), dy = -std::abs(l.y1 - l.y0);
    const int32_t sx = l.x0 < l.x1 ? 1 : -1, sy = l.y0 < l.y1 ? 1 : -1;
    int32_t err = dx + dy;
    for (;;) {
      Set(x, y, l.color);
      if (x == l.x1 && y == l.y1) break;
      int32_t e2 = 2 * err;
      if (e2 >= dy) {
        err += dy;
        x += sx;
      }
      if (e2 <= dx) {
        err += dx;
        y += sy;
      }
    }
  }

  void Write(const Text& t) {
    int32_t w = TextWidth(t.text);
    int32_t x0 = t.anchor == Anchor::kLeft    ? t.x
                 : t.anchor == Anchor::kRight ? t.x - w
                                              : t.x - w / 2;
    for (size_t k = 0; k < t.text.size(); ++k) {
      int32_t gx = x0 + static_cast<int32_t>(k) * kGlyphAdvance;
      for (int y = 0; y < kGlyphHeight; ++y)
        for (int x = 0; x < kGlyphWidth; ++x)
          if (GlyphPixel(t.text[k], x, y)) Set(gx + x, t.y + y, t.color);
    }
  }

 private:
  Image& img_;
};

// Which lines change the image: of identical lines (same ends and colour) only the last one
// drawn matters, since whatever a pixel shows is the last line drawn over it. A whole-trace
// frame folds hundreds of thousands of messages into far fewer distinct lines.
std::vector<bool> LastOfEach(const std::vector<Line>& lines) {
  std::vector<bool> keep(lines.size(), false);
  std::unordered_set<std::string_view> seen;
  seen.reserve(lines.size());
  static_assert(std::has_unique_object_representations_v<Rgb> && offsetof(Line, color) == 4 * sizeof(int32_t));
  for (size_t i = lines.size(); i-- > 0;) {
    const Line& l = lines[i];
    // The key is the line's bytes: four ends and three colour bytes, no padding inside.
    std::string_view key(reinterpret_cast<const char*>(&l.x0), 4 * sizeof(int32_t) + sizeof(Rgb));
    keep[i] = seen.insert(key).second;
  }
  return keep;
}

}  // namespace

Image Rasterize(const DrawList& list) {
  Image img;
  img.width = std::max(list.width, 1);
  img.height = std::max(list.height, 1);
  img.rgb.resize(static_cast<size_t>(img.width) * static_cast<size_t>(img.height) * 3);
  for (size_t i = 0; i < img.rgb.size(); i += 3) {
    img.rgb[i] = list.background.r;
    img.rgb[i + 1] = list.background.g;
    img.rgb[i + 2] = list.background.b;
  }
  Canvas canvas(img);
  for (const Rect& r : list.rects) canvas.Fill(r);
  const std::vector<bool> keep = LastOfEach(list.lines);
  for (size_t i = 0; i < list.lines.size(); ++i)
    if (keep[i]) canvas.Draw(list.lines[i]);
  for (const Text& t : list.texts) canvas.Write(t);
  return img;
}

}  // namespace parallax::render
