#pragma once
// Thin encoders over a draw list: PNG (libpng), SVG and a compact JSON form for the browser.

#include <string>
#include <string_view>

#include "include/parallax/status.h"
#include "src/render/draw_list.h"
#include "src/render/raster.h"

namespace parallax::render {

// PNG bytes of an image (8-bit RGB, no interlace).
Result<std::string> EncodePng(const Image& image);
Result<std::string> EncodePng(const DrawList& list);
// A standalone SVG document.
std::string EncodeSvg(const DrawList& list);

// Text for XML and HTML: & < > " as entities (the SVG encoder's labels, the reports' pages).
std::string XmlEscape(std::string_view s);
// {"width","height","background","area":[x,y,w,h],"rows":[[label,y,h,object]...],
//  "rects":[[x,y,w,h,"#rrggbb"]...],"lines":[[x0,y0,x1,y1,"#rrggbb"]...],
//  "texts":[[x,y,"text","#rrggbb","l|c|r"]...]}
std::string EncodeJson(const DrawList& list);
// Only the first fields of EncodeJson: width, height, background, area and rows (where a click
// lands, for an image drawn from PNG bytes).
std::string EncodeLayoutJson(const DrawList& list);

}  // namespace parallax::render
