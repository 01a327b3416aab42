#include "src/report/document.h"

#include <fmt/format.h>

#include "src/base/base64.h"
#include "src/render/encoders.h"

namespace parallax::report {

void Document::Heading(int level, std::string text, std::string id) {
  Block b;
  b.kind = Block::Kind::kHeading;
  b.level = level;
  b.text = std::move(text);
  b.id = std::move(id);
  blocks.push_back(std::move(b));
}

void Document::Paragraph(std::string text) {
  Block b;
  b.kind = Block::Kind::kParagraph;
  b.text = std::move(text);
  blocks.push_back(std::move(b));
}

void Document::Table(std::vector<std::string> header, std::vector<std::vector<Cell>> rows) {
  Block b;
  b.kind = Block::Kind::kTable;
  b.header = std::move(header);
  b.rows = std::move(rows);
  blocks.push_back(std::move(b));
}

void Document::Figure(std::string image_name, std::string png, std::string svg, std::string alt, std::string caption) {
  Block b;
  b.kind = Block::Kind::kFigure;
  b.image_name = std::move(image_name);
  b.png = std::move(png);
  b.svg = std::move(svg);
  b.alt = std::move(alt);
  b.text = std::move(caption);
  blocks.push_back(std::move(b));
}

void Document::Code(std::string text) {
  Block b;
  b.kind = Block::Kind::kCode;
  b.code = std::move(text);
  blocks.push_back(std::move(b));
}

void Document::Details(std::string summary, std::string code) {
  Block b;
  b.kind = Block::Kind::kDetails;
  b.text = std::move(summary);
  b.code = std::move(code);
  blocks.push_back(std::move(b));
}

std::string EscapeHtml(std::string_view s) { return render::XmlEscape(s); }

namespace {

// Backquoted spans as <code>, the rest escaped.
std::string InlineHtml(std::string_view s) {
  std::string out;
  bool code = false;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i < s.size() && s[i] != '`') continue;
    const std::string part = EscapeHtml(s.substr(start, i - start));
    out += code ? "<code>" + part + "</code>" : part;
    if (i < s.size()) code = !code;
    start = i + 1;
  }
  return out;
}

constexpr const char* kStyle = R"CSS(
:root { color-scheme: light; }
body { font: 14px/1.45 "DejaVu Sans", Helvetica, Arial, sans-serif; color: #111; background: #fff;
       max-width: 1060px; margin: 24px auto; padding: 0 16px; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 28px 0 8px; border-bottom: 1px solid #ccc; padding-bottom: 2px; }
h3 { font-size: 16px; margin: 18px 0 6px; }
p { margin: 6px 0; }
code, pre { font-family: "DejaVu Sans Mono", Menlo, monospace; font-size: 12.5px; }
code { background: #f2f2f2; padding: 0 3px; border-radius: 3px; }
pre { background: #f6f6f6; border: 1px solid #ddd; padding: 8px; overflow-x: auto; white-space: pre-wrap; }
table { border-collapse: collapse; margin: 8px 0; font-size: 13px; }
th, td { border-bottom: 1px solid #ddd; padding: 2px 10px; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 10px 0; }
figure img, figure svg { max-width: 100%; height: auto; border: 1px solid #ddd; }
figcaption { font-size: 12.5px; color: #333; margin-top: 4px; }
details { margin: 4px 0 12px; font-size: 12.5px; }
.meta { color: #555; }
@media print {
  body { max-width: none; margin: 0; font-size: 11pt; }
  h2 { break-after: avoid; }
  figure, table { break-inside: avoid; }
  details > pre { display: none; }
  a { color: inherit; text-decoration: none; }
}
)CSS";

std::string CellHtml(const Cell& c, bool header) {
  std::string attrs;
  if (c.number) attrs += " class=\"n\"";
  if (!c.source.empty())
    attrs += fmt::format(" data-source=\"{}\" data-run=\"{}\" data-path=\"{}\"", EscapeHtml(c.source), c.run,
                         EscapeHtml(c.path));
  if (c.value) attrs += fmt::format(" data-value=\"{:.17g}\"", *c.value);
  const char* tag = header ? "th" : "td";
  std::string pad;
  for (int i = 0; i < c.indent; ++i) pad += "&emsp;";
  return fmt::format("<{}{}>{}{}</{}>", tag, attrs, pad, EscapeHtml(c.text), tag);
}

}  // namespace

std::string WriteHtml(const Document& d) {
  std::string o = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  // Nothing may be fetched: images are inline, and the policy forbids any other source.
  o += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; style-src "
       "'unsafe-inline'\">\n";
  o += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  o += fmt::format("<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n", EscapeHtml(d.title), kStyle);
  for (const Block& b : d.blocks) {
    switch (b.kind) {
      case Block::Kind::kHeading:
        o += fmt::format("<h{0}{1}>{2}</h{0}>\n", b.level, b.id.empty() ? "" : " id=\"" + EscapeHtml(b.id) + "\"",
                         InlineHtml(b.text));
        break;
      case Block::Kind::kParagraph:
        o += "<p>" + InlineHtml(b.text) + "</p>\n";
        break;
      case Block::Kind::kTable: {
        o += "<table>\n<tr>";
        for (const std::string& h : b.header) o += "<th>" + EscapeHtml(h) + "</th>";
        o += "</tr>\n";
        for (const auto& row : b.rows) {
          o += "<tr>";
          for (size_t i = 0; i < row.size(); ++i) o += CellHtml(row[i], false);
          o += "</tr>\n";
        }
        o += "</table>\n";
        break;
      }
      case Block::Kind::kFigure:
        o += "<figure>\n";
        if (!b.svg.empty()) {
          // The SVG inline, after its XML declaration.
          const size_t start = b.svg.find("<svg");
          o += fmt::format("<div role=\"img\" aria-label=\"{}\">{}</div>\n", EscapeHtml(b.alt),
                           start == std::string::npos ? b.svg : b.svg.substr(start));
        } else {
          o += fmt::format("<img alt=\"{}\" src=\"data:image/png;base64,{}\">\n", EscapeHtml(b.alt),
                           base::Base64(b.png));
        }
        o += "<figcaption>" + InlineHtml(b.text) + "</figcaption>\n</figure>\n";
        break;
      case Block::Kind::kCode:
        o += "<pre>" + EscapeHtml(b.code) + "</pre>\n";
        break;
      case Block::Kind::kDetails:
        o += fmt::format("<details><summary>{}</summary><pre>{}</pre></details>\n", InlineHtml(b.text),
                         EscapeHtml(b.code));
        break;
    }
  }
  o += "</body>\n</html>\n";
  return o;
}

namespace {

std::string CellMd(const Cell& c) {
  std::string t;
  for (int i = 0; i < c.indent; ++i) t += "&emsp;";
  for (char ch : c.text) t += ch == '|' ? std::string("\\|") : std::string(1, ch);
  return t;
}

}  // namespace

std::string WriteMarkdown(const Document& d, const std::string& folder, std::vector<File>* files) {
  std::string o;
  for (const Block& b : d.blocks) {
    switch (b.kind) {
      case Block::Kind::kHeading:
        o += std::string(size_t(b.level), '#') + " " + b.text + "\n\n";
        break;
      case Block::Kind::kParagraph:
        o += b.text + "\n\n";
        break;
      case Block::Kind::kTable: {
        o += "|";
        for (const std::string& h : b.header) o += " " + h + " |";
        o += "\n|";
        for (size_t i = 0; i < b.header.size(); ++i) {
          const bool number = !b.rows.empty() && i < b.rows[0].size() && b.rows[0][i].number;
          o += number ? " ---: |" : " --- |";
        }
        o += "\n";
        for (const auto& row : b.rows) {
          o += "|";
          for (const Cell& c : row) o += " " + CellMd(c) + " |";
          o += "\n";
        }
        o += "\n";
        break;
      }
      case Block::Kind::kFigure:
        files->push_back({b.image_name, b.png});
        o += fmt::format("![{}]({}/{})\n\n{}\n\n", b.alt, folder, b.image_name, b.text);
        break;
      case Block::Kind::kCode:
        o += "```\n" + b.code + (b.code.empty() || b.code.back() == '\n' ? "" : "\n") + "```\n\n";
        break;
      case Block::Kind::kDetails:
        o += b.text + "\n\n```\n" + b.code + (b.code.empty() || b.code.back() == '\n' ? "" : "\n") + "```\n\n";
        break;
    }
  }
  return o;
}

}  // namespace parallax::report
