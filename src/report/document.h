#pragma once
// A report as a list of blocks (headings, paragraphs, tables, figures, code), written either as
// one self-contained HTML file (images inline, no network access needed, light theme, print
// rules) or as Markdown with the images as files beside it (docs/report.md).

#include <optional>
#include <string>
#include <vector>

namespace parallax::report {

// A table cell. A number carries where it comes from: the command whose JSON has it (`source`:
// "pop", "diagnose", "structure", "info"), the run (index into the report's traces) and the
// path to it in that JSON ("factors/key=parallel_efficiency/values/0"): HTML writes them as
// data-source, data-run, data-path and data-value attributes, so that tests and readers can
// check every number against the command.
struct Cell {
  std::string text;
  std::string source, path;
  int run = -1;
  std::optional<double> value;
  bool number = false;  // right-aligned
  int indent = 0;
};

struct Block {
  enum class Kind { kHeading, kParagraph, kTable, kFigure, kCode, kDetails } kind = Kind::kParagraph;
  int level = 2;                              // headings
  std::string text;                           // heading, paragraph, caption, code, details summary
  std::string id;                             // headings: the section's anchor
  std::vector<std::string> header;            // tables
  std::vector<std::vector<Cell>> rows;        // tables
  std::string image_name;                     // figures: file name for Markdown ("pop.png")
  std::string png;                            // figures: PNG bytes
  std::string svg;                            // figures: SVG text (HTML prefers it)
  std::string alt;
  std::string code;                           // details: the code shown
};

struct Document {
  std::string title;
  std::vector<Block> blocks;

  void Heading(int level, std::string text, std::string id = {});
  // `text` may hold `code` spans in backquotes.
  void Paragraph(std::string text);
  void Table(std::vector<std::string> header, std::vector<std::vector<Cell>> rows);
  void Figure(std::string image_name, std::string png, std::string svg, std::string alt, std::string caption);
  void Code(std::string text);
  void Details(std::string summary, std::string code);
};

struct File {
  std::string name, data;
};

std::string WriteHtml(const Document& d);
// `folder`: where the image files go, relative to the Markdown file; `files` receives them.
std::string WriteMarkdown(const Document& d, const std::string& folder, std::vector<File>* files);

std::string EscapeHtml(std::string_view s);

}  // namespace parallax::report
