// SVG and JSON encoders: one element per draw-list item, in drawing order.

#include <fmt/format.h>

#include "src/render/encoders.h"
#include "src/render/font.h"

namespace parallax::render {

namespace {

std::string Hex(Rgb c) { return fmt::format("#{:02x}{:02x}{:02x}", c.r, c.g, c.b); }

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += fmt::format("\\u{:04x}", static_cast<int>(c));
    } else {
      out += c;
    }
  }
  return out + "\"";
}

const char* SvgAnchor(Anchor a) {
  return a == Anchor::kLeft ? "start" : a == Anchor::kRight ? "end" : "middle";
}
const char* JsonAnchor(Anchor a) {
  return a == Anchor::kLeft ? "l" : a == Anchor::kRight ? "r" : "c";
}

}  // namespace

std::string XmlEscape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string EncodeSvg(const DrawList& l) {
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} "
      "{1}\" "
      "shape-rendering=\"crispEdges\">\n<rect width=\"{0}\" height=\"{1}\" fill=\"{2}\"/>\n",
      l.width, l.height, Hex(l.background));
  for (const Rect& r : l.rects)
    out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>\n", r.x,
                       r.y, r.w, r.h, Hex(r.color));
  // Lines join pixel centres, as the rasterizer draws them.
  for (const Line& s : l.lines)
    out += fmt::format("<line x1=\"{}.5\" y1=\"{}.5\" x2=\"{}.5\" y2=\"{}.5\" stroke=\"{}\"/>\n",
                       s.x0, s.y0, s.x1, s.y1, Hex(s.color));
  for (const Text& t : l.texts)
    out += fmt::format(
        "<text x=\"{}\" y=\"{}\" font-family=\"monospace\" font-size=\"9\" fill=\"{}\" "
        "text-anchor=\"{}\">{}</text>\n",
        t.x, t.y + kGlyphHeight, Hex(t.color), SvgAnchor(t.anchor), XmlEscape(t.text));
  return out + "</svg>\n";
}

namespace {

// The opening of the JSON draw list: size, background, area and rows, without closing brace.
std::string JsonLayoutFields(const DrawList& l) {
  std::string out = fmt::format(
      "{{\"width\":{},\"height\":{},\"background\":\"{}\",\"area\":[{},{},{},{}],\"any_non_zero\":{},"
      "\"lines_hidden\":{},\"rows\":[",
      l.width, l.height, Hex(l.background), l.area_x, l.area_y, l.area_w, l.area_h, l.any_non_zero,
      l.lines_hidden);
  for (size_t i = 0; i < l.rows.size(); ++i) {
    const RowBox& r = l.rows[i];
    out += fmt::format("{}[{},{},{},{}", i ? "," : "", JsonString(r.label), r.y, r.h, r.object);
    out += r.summarised > 0 ? fmt::format(",{}]", r.summarised) : "]";
  }
  return out + "]";
}

}  // namespace

std::string EncodeLayoutJson(const DrawList& l) { return JsonLayoutFields(l) + "}"; }

std::string EncodeJson(const DrawList& l) {
  std::string out = JsonLayoutFields(l);
  out += ",\"rects\":[";
  for (size_t i = 0; i < l.rects.size(); ++i) {
    const Rect& r = l.rects[i];
    out += fmt::format("{}[{},{},{},{},\"{}\"]", i ? "," : "", r.x, r.y, r.w, r.h, Hex(r.color));
  }
  out += "],\"lines\":[";
  for (size_t i = 0; i < l.lines.size(); ++i) {
    const Line& s = l.lines[i];
    out +=
        fmt::format("{}[{},{},{},{},\"{}\"]", i ? "," : "", s.x0, s.y0, s.x1, s.y1, Hex(s.color));
  }
  out += "],\"texts\":[";
  for (size_t i = 0; i < l.texts.size(); ++i) {
    const Text& t = l.texts[i];
    out += fmt::format("{}[{},{},{},\"{}\",\"{}\"]", i ? "," : "", t.x, t.y, JsonString(t.text),
                       Hex(t.color), JsonAnchor(t.anchor));
  }
  return out + "]}\n";
}

}  // namespace parallax::render
