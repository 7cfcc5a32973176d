#pragma once
// The report a planner takes to a meeting (docs/report.md): sections of sentences, tables and charts, built from a
// view by the CLI's `report` and written as one self-contained HTML file with its charts as inline SVG.

#include <optional>
#include <string>
#include <vector>

namespace paretoscope {

/// A table: its header and rows of cell texts; `id` names it in the HTML (what tests and scripts read back).
struct ReportTable {
    std::string id;
    std::string caption;
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
};

/// A line of a chart: its points (x increasing), drawn solid with its points marked, or dashed (a bound).
struct ReportSeries {
    std::string name;
    std::string color; ///< "#rrggbb"
    std::vector<std::pair<double, double>> points;
    bool dashed = false;
    bool markers = true;
};

/// A chart: its axes (log or linear, a unit on each), its lines, and a vertical mark (the target, an as-of day).
struct ReportChart {
    std::string id;
    std::string title;
    std::string xLabel, yLabel;
    std::string xUnit, yUnit; ///< put on the axis numbers: "$" before, any other after ("tok/s")
    bool logX = false, logY = false;
    bool xIsDay = false; ///< x is a yyyymmdd day number: the axis says dates
    std::vector<ReportSeries> series;
    std::optional<double> markX;
    std::string markLabel;
};

/// A section: a title, then sentences, tables and charts in that order, and a preformatted text (a command).
struct ReportSection {
    std::string id;
    std::string title;
    std::vector<std::string> paragraphs;
    std::vector<ReportChart> charts;
    std::vector<ReportTable> tables;
    std::string preformatted;
};

struct ReportDoc {
    std::string title;
    std::string subtitle;
    std::vector<ReportSection> sections;
};

/// What a chart is drawn on (SVG for the HTML, a PDF page's content): coordinates from the top left, y downwards;
/// colours "#rrggbb", an empty one none.
class ReportCanvas {
public:
    enum class Anchor { Start, Middle, End };
    virtual ~ReportCanvas() = default;
    virtual void line(double x1, double y1, double x2, double y2, const std::string& color, double width, bool dashed)
        = 0;
    virtual void polyline(
        const std::vector<std::pair<double, double>>& points, const std::string& color, double width, bool dashed)
        = 0;
    virtual void circle(double cx, double cy, double r, const std::string& color) = 0;
    virtual void rect(double x, double y, double w, double h, const std::string& stroke, const std::string& fill) = 0;
    /// Text whose baseline starts, is centred or ends at (x, y); vertical: read bottom to top, centred there.
    virtual void text(double x, double y, const std::string& text, double size, Anchor anchor, bool bold = false,
        bool vertical = false)
        = 0;
};

/// A chart drawn `width` x `height` on a canvas: the axes with their numbers, grid, lines, the mark and the legend.
void drawChart(ReportCanvas& canvas, const ReportChart& chart, double width, double height);

/// Whether a table cell reads as a number ("1,234", "$0.12", "1.05x", "-3.2%", "-" for none): the HTML and the PDF
/// align those right, text left.
bool numericCell(const std::string& cell);

/// The report as one HTML file: no script, no external file, every chart an inline SVG, text escaped.
std::string reportHtml(const ReportDoc& doc);
/// The report as a PDF: A4 landscape, a section to a page (long tables go on), the standard Helvetica and Courier
/// fonts (text outside their WinAnsi characters is written in ASCII or as "?"), charts as vector paths.
std::string reportPdf(const ReportDoc& doc);
/// One chart as an SVG element `width` x `height` (the HTML's charts; nothing outside the element is referred to).
std::string chartSvg(const ReportChart& chart, int width, int height);
/// Text made safe inside HTML and SVG: & < > " ' escaped.
std::string htmlEscaped(const std::string& text);
/// The colour of the i-th line of a chart: a palette safe for colour-blind readers (Okabe and Ito), then grey.
std::string reportColor(std::size_t i);

} // namespace paretoscope
