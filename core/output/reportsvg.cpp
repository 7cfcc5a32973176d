// The report's charts as SVG (docs/report.md): axes with separated numbers and units, log or linear, dates where x
// is a day, lines with their points, dashed bounds, a vertical mark, and the legend beside the plot.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "core/analysis/numberformat.h"
#include "core/model/runselection.h"
#include "core/output/reportdoc.h"

namespace paretoscope {

namespace {

// Days since 1970-01-01 of a yyyymmdd day number (the civil calendar): run dates spaced as time passes.
double epochDays(double yyyymmdd)
{
    const int d = int(yyyymmdd);
    int y = d / 10000;
    const int m = d / 100 % 100;
    const int day = d % 100;
    y -= m <= 2 ? 1 : 0;
    const int era = (y >= 0 ? y : y - 399) / 400;
    const int yoe = y - era * 400;
    const int doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return double(era) * 146097 + doe - 719468;
}

// An axis: its range in the plotted space (log10 of the value on a log axis) and its ticks as values.
struct Axis {
    bool log = false;
    double lo = 0, hi = 1;
    std::vector<double> ticks;
    int decimals = 0;

    double space(double v) const { return log ? std::log10(v) : v; }
    double fraction(double v) const { return (space(v) - lo) / (hi - lo); }
};

Axis linearAxis(double lo, double hi, bool fromZero)
{
    Axis a;
    if (fromZero && lo > 0)
        lo = 0;
    if (hi <= lo)
        hi = lo + 1;
    const double raw = (hi - lo) / 6;
    const double magnitude = std::pow(10, std::floor(std::log10(raw)));
    double step = magnitude;
    for (double m : { 1.0, 2.0, 5.0, 10.0 })
        if (magnitude * m >= raw) {
            step = magnitude * m;
            break;
        }
    a.lo = std::floor(lo / step) * step;
    a.hi = std::ceil(hi / step) * step;
    for (double t = a.lo; t <= a.hi + step / 2; t += step)
        a.ticks.push_back(std::abs(t) < step / 1e6 ? 0 : t);
    a.decimals = step >= 1 ? 0 : int(std::ceil(-std::log10(step)));
    return a;
}

Axis logAxis(double lo, double hi)
{
    Axis a;
    a.log = true;
    lo = std::max(lo, 1e-12);
    hi = std::max(hi, lo * 1.01);
    a.lo = std::floor(std::log10(lo));
    a.hi = std::ceil(std::log10(hi));
    if (a.hi <= a.lo)
        a.hi = a.lo + 1;
    const bool few = a.hi - a.lo <= 2; // a decade or two: 2 and 5 between the powers of ten
    for (int e = int(a.lo); e <= int(a.hi); ++e)
        for (double m : few ? std::vector<double> { 1, 2, 5 } : std::vector<double> { 1 }) {
            const double v = m * std::pow(10, e);
            if (std::log10(v) <= a.hi + 1e-9)
                a.ticks.push_back(v);
        }
    a.decimals = a.lo < 0 ? int(-a.lo) : 0;
    return a;
}

Axis axisOf(const ReportChart& chart, bool x, const Axis* xAxis = nullptr)
{
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const ReportSeries& s : chart.series)
        for (const auto& [px, py] : s.points) {
            // a bound is drawn inside the measured range: it sets the y axis there, and never the x axis
            if (s.dashed && (x || !xAxis || xAxis->fraction(px) < 0 || xAxis->fraction(px) > 1))
                continue;
            double v = x ? px : py;
            if (x && chart.xIsDay)
                v = epochDays(v);
            if (!std::isfinite(v) || ((x ? chart.logX : chart.logY) && v <= 0))
                continue;
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    if (x && chart.markX) {
        const double m = chart.xIsDay ? epochDays(*chart.markX) : *chart.markX;
        lo = std::min(lo, m);
        hi = std::max(hi, m);
    }
    if (!std::isfinite(lo)) {
        lo = 1;
        hi = 10;
    }
    if (x && chart.xIsDay) { // dates: a little room either side, ticks at the days themselves below
        Axis a;
        a.lo = lo - 1;
        a.hi = hi + 1;
        return a;
    }
    return (x ? chart.logX : chart.logY) ? logAxis(lo, hi) : linearAxis(lo, hi, !x);
}

std::string number(double v, int decimals, const std::string& unit)
{
    std::string text = withThousands(v, decimals);
    if (unit == "$")
        return "$" + text;
    return unit.empty() ? text : text + " " + unit;
}

std::string fixed(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

} // namespace

std::string reportColor(std::size_t i)
{
    static const char* const palette[]
        = { "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442" };
    return i < std::size(palette) ? palette[i] : "#888888";
}

void drawChart(ReportCanvas& canvas, const ReportChart& chart, double width, double height)
{
    const double left = 90, right = 250, top = 34, bottom = 56; // the legend's names: "B300 · Dynamo TRT · FP8 · MTP"
    const double plotW = width - left - right, plotH = height - top - bottom;
    const Axis xa = axisOf(chart, true);
    const Axis ya = axisOf(chart, false, &xa);
    std::vector<double> dayTicks; // x ticks of a date axis: the days of the points, thinned
    if (chart.xIsDay) {
        for (const ReportSeries& s : chart.series)
            for (const auto& p : s.points)
                dayTicks.push_back(p.first);
        std::sort(dayTicks.begin(), dayTicks.end());
        dayTicks.erase(std::unique(dayTicks.begin(), dayTicks.end()), dayTicks.end());
        std::vector<double> kept; // at least 90 apart: a date's label is about 70 wide
        for (double d : dayTicks)
            if (kept.empty() || plotW * (xa.fraction(epochDays(d)) - xa.fraction(epochDays(kept.back()))) >= 90)
                kept.push_back(d);
        dayTicks = kept;
    }
    auto px = [&](double v) { return left + plotW * xa.fraction(chart.xIsDay ? epochDays(v) : v); };
    auto py = [&](double v) { return top + plotH * (1 - ya.fraction(v)); };
    canvas.rect(0, 0, width, height, "", "#ffffff");
    canvas.text(left, 20, chart.title, 14, ReportCanvas::Anchor::Start, true);
    // the grid and the numbers of each axis
    for (double t : ya.ticks) {
        canvas.line(left, py(t), left + plotW, py(t), "#e0e0e0", 1, false);
        canvas.text(left - 6, py(t) + 4, number(t, ya.decimals, chart.yUnit), 12, ReportCanvas::Anchor::End);
    }
    for (double t : chart.xIsDay ? dayTicks : xa.ticks) {
        canvas.line(px(t), top, px(t), top + plotH, "#e0e0e0", 1, false);
        canvas.text(px(t), top + plotH + 16, chart.xIsDay ? dayText(int(t)) : number(t, xa.decimals, chart.xUnit), 12,
            ReportCanvas::Anchor::Middle);
    }
    canvas.rect(left, top, plotW, plotH, "#606060", "");
    canvas.text(left + plotW / 2, height - 12, chart.xLabel, 12, ReportCanvas::Anchor::Middle);
    canvas.text(16, top + plotH / 2, chart.yLabel, 12, ReportCanvas::Anchor::Middle, false, true);
    if (chart.markX) {
        canvas.line(px(*chart.markX), top, px(*chart.markX), top + plotH, "#404040", 1, true);
        canvas.text(px(*chart.markX) + 4, top + 12, chart.markLabel, 12, ReportCanvas::Anchor::Start);
    }
    // the lines, each point inside the plot (no clipping: not every reader has it), then the legend
    auto inside = [&](double x, double y) {
        if ((chart.logY && y <= 0) || (chart.logX && x <= 0) || !std::isfinite(x) || !std::isfinite(y))
            return false;
        const double fx = xa.fraction(chart.xIsDay ? epochDays(x) : x), fy = ya.fraction(y);
        return fx >= -1e-9 && fx <= 1 + 1e-9 && fy >= -1e-9 && fy <= 1 + 1e-9;
    };
    for (const ReportSeries& s : chart.series) {
        std::vector<std::pair<double, double>> points;
        for (const auto& [x, y] : s.points)
            if (inside(x, y))
                points.emplace_back(px(x), py(y));
        if (points.empty())
            continue;
        canvas.polyline(points, s.color, 2, s.dashed);
        if (s.markers)
            for (const auto& [x, y] : points)
                canvas.circle(x, y, 3, s.color);
    }
    double ly = top + 6;
    for (const ReportSeries& s : chart.series) {
        const double lx = left + plotW + 12;
        canvas.line(lx, ly, lx + 18, ly, s.color, 2, s.dashed);
        canvas.text(lx + 24, ly + 4, s.name, 11, ReportCanvas::Anchor::Start);
        ly += 16;
        if (ly > top + plotH)
            break;
    }
}

namespace {

// The canvas as SVG elements.
class SvgCanvas : public ReportCanvas {
public:
    explicit SvgCanvas(std::ostringstream& out)
        : m_out(out)
    {
    }
    void line(double x1, double y1, double x2, double y2, const std::string& color, double width, bool dashed) override
    {
        m_out << "<line x1=\"" << fixed(x1) << "\" y1=\"" << fixed(y1) << "\" x2=\"" << fixed(x2) << "\" y2=\""
              << fixed(y2) << "\" stroke=\"" << htmlEscaped(color) << "\" stroke-width=\"" << width << "\""
              << (dashed ? " stroke-dasharray=\"6 4\"" : "") << "/>\n";
    }
    void polyline(const std::vector<std::pair<double, double>>& points, const std::string& color, double width,
        bool dashed) override
    {
        std::string path;
        for (const auto& [x, y] : points)
            path += (path.empty() ? "" : " ") + fixed(x) + "," + fixed(y);
        m_out << "<polyline fill=\"none\" stroke=\"" << htmlEscaped(color) << "\" stroke-width=\"" << width << "\""
              << (dashed ? " stroke-dasharray=\"6 4\"" : "") << " points=\"" << path << "\"/>\n";
    }
    void circle(double cx, double cy, double r, const std::string& color) override
    {
        m_out << "<circle cx=\"" << fixed(cx) << "\" cy=\"" << fixed(cy) << "\" r=\"" << r << "\" fill=\""
              << htmlEscaped(color) << "\"/>\n";
    }
    void rect(double x, double y, double w, double h, const std::string& stroke, const std::string& fill) override
    {
        m_out << "<rect x=\"" << fixed(x) << "\" y=\"" << fixed(y) << "\" width=\"" << fixed(w) << "\" height=\""
              << fixed(h) << "\" fill=\"" << (fill.empty() ? "none" : htmlEscaped(fill)) << "\""
              << (stroke.empty() ? "" : " stroke=\"" + htmlEscaped(stroke) + "\"") << "/>\n";
    }
    void text(
        double x, double y, const std::string& text, double size, Anchor anchor, bool bold, bool vertical) override
    {
        static const char* const anchors[] = { "start", "middle", "end" };
        m_out << "<text";
        if (vertical)
            m_out << " transform=\"translate(" << fixed(x) << "," << fixed(y) << ") rotate(-90)\"";
        else
            m_out << " x=\"" << fixed(x) << "\" y=\"" << fixed(y) << "\"";
        m_out << " font-size=\"" << size << "\" text-anchor=\"" << anchors[int(anchor)] << "\""
              << (bold ? " font-weight=\"bold\"" : "") << ">" << htmlEscaped(text) << "</text>\n";
    }

private:
    std::ostringstream& m_out;
};

} // namespace

std::string chartSvg(const ReportChart& chart, int width, int height)
{
    std::ostringstream o;
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"" << htmlEscaped(chart.id) << "\" width=\"" << width
      << "\" height=\"" << height << "\" viewBox=\"0 0 " << width << " " << height
      << "\" font-family=\"sans-serif\" font-size=\"12\" role=\"img\">\n";
    o << "<title>" << htmlEscaped(chart.title) << "</title>\n";
    SvgCanvas canvas(o);
    drawChart(canvas, chart, width, height);
    o << "</svg>\n";
    return o.str();
}

} // namespace paretoscope
