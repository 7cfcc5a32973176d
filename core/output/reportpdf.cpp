// The report as a PDF (docs/report.md): A4 landscape pages, a section to a page (a long table goes on to the next),
// text in the standard Helvetica and Courier fonts (no font file: every PDF reader has them), charts as vector paths.
// Written by hand, uncompressed, so that the core stays free of Qt and the text can be read back by any tool.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <sstream>
#include <vector>

#include "core/output/reportdoc.h"

namespace paretoscope {

namespace {

constexpr double kPageW = 842, kPageH = 595, kMargin = 40;

// Helvetica's advance widths (per 1000 of the font size) for the characters 32 to 126, from its AFM metrics; bold
// is taken as 6% wider (close enough to lay a table out).
const int kHelvetica[95] = { 278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556,
    556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722,
    278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500,
    722, 500, 500, 500, 334, 260, 334, 584 };

// UTF-8 text in the fonts' WinAnsi encoding: Latin-1 as is, a few typographic marks at their WinAnsi codes, what the
// encoding lacks in ASCII ("<=" for "≤"), anything else "?".
std::string winAnsi(const std::string& utf8)
{
    std::string out;
    for (std::size_t i = 0; i < utf8.size();) {
        const auto c = static_cast<unsigned char>(utf8[i]);
        unsigned cp = c;
        int n = 1;
        if (c >= 0xF0)
            n = 4, cp = c & 0x07;
        else if (c >= 0xE0)
            n = 3, cp = c & 0x0F;
        else if (c >= 0xC0)
            n = 2, cp = c & 0x1F;
        for (int k = 1; k < n && i + k < utf8.size(); ++k)
            cp = (cp << 6) | (static_cast<unsigned char>(utf8[i + k]) & 0x3F);
        i += n;
        if (cp < 0x80 || (cp >= 0xA0 && cp <= 0xFF))
            out += char(cp);
        else if (cp == 0x2026)
            out += '\x85';
        else if (cp == 0x2013)
            out += '\x96';
        else if (cp == 0x2014)
            out += '\x97';
        else if (cp == 0x2019)
            out += '\x92';
        else if (cp == 0x2264)
            out += "<=";
        else if (cp == 0x2265)
            out += ">=";
        else if (cp == 0x2192)
            out += "->";
        else
            out += '?';
    }
    return out;
}

double textWidth(const std::string& ansi, double size, bool bold)
{
    double w = 0;
    for (char ch : ansi) {
        const auto c = static_cast<unsigned char>(ch);
        w += c >= 32 && c <= 126 ? kHelvetica[c - 32] : 556;
    }
    return w * size / 1000 * (bold ? 1.06 : 1.0);
}

// The text cut where it and an ellipsis fit a width, on a character's boundary; whole where it fits. One pass over
// the characters, each measured once (a 20 KB name was cut a character at a time, measured whole each time: 10 s).
std::string fitted(const std::string& text, double width, double size, bool bold)
{
    if (textWidth(winAnsi(text), size, bold) <= width)
        return text;
    const double ellipsis = textWidth(winAnsi("…"), size, bold);
    double used = 0;
    std::size_t keep = 0;
    for (std::size_t at = 0; at < text.size();) {
        std::size_t end = at + 1; // the character's continuation bytes with it
        while (end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)
            ++end;
        const double w = textWidth(winAnsi(text.substr(at, end - at)), size, bold);
        if (used + w + ellipsis > width)
            break;
        used += w;
        keep = end;
        at = end;
    }
    return text.substr(0, keep) + "…";
}

std::string pdfString(const std::string& ansi)
{
    std::string out = "(";
    for (char c : ansi) {
        if (c == '(' || c == ')' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + ")";
}

std::string num(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

std::string rgb(const std::string& hex)
{
    unsigned r = 0, g = 0, b = 0;
    if (hex.size() == 7 && std::sscanf(hex.c_str() + 1, "%2x%2x%2x", &r, &g, &b) == 3)
        return num(r / 255.0) + " " + num(g / 255.0) + " " + num(b / 255.0);
    return "0 0 0";
}

// A page's content stream, in the page's coordinates from the top left (the canvas's), turned into PDF's.
class PdfPage : public ReportCanvas {
public:
    /// Where a chart's (0, 0) lies on the page and how it is scaled.
    void place(double x, double y, double scale)
    {
        m_x = x;
        m_y = y;
        m_scale = scale;
    }
    void line(double x1, double y1, double x2, double y2, const std::string& color, double width, bool dashed) override
    {
        stroke(color, width, dashed);
        m_out << X(x1) << " " << Y(y1) << " m " << X(x2) << " " << Y(y2) << " l S\n";
    }
    void polyline(const std::vector<std::pair<double, double>>& points, const std::string& color, double width,
        bool dashed) override
    {
        stroke(color, width, dashed);
        for (std::size_t i = 0; i < points.size(); ++i)
            m_out << X(points[i].first) << " " << Y(points[i].second) << (i ? " l\n" : " m\n");
        m_out << "S\n";
    }
    void circle(double cx, double cy, double r, const std::string& color) override
    {
        // four Bezier quarters
        const double k = 0.5523 * r;
        m_out << rgb(color) << " rg\n" << X(cx + r) << " " << Y(cy) << " m\n";
        m_out << X(cx + r) << " " << Y(cy - k) << " " << X(cx + k) << " " << Y(cy - r) << " " << X(cx) << " "
              << Y(cy - r) << " c\n";
        m_out << X(cx - k) << " " << Y(cy - r) << " " << X(cx - r) << " " << Y(cy - k) << " " << X(cx - r) << " "
              << Y(cy) << " c\n";
        m_out << X(cx - r) << " " << Y(cy + k) << " " << X(cx - k) << " " << Y(cy + r) << " " << X(cx) << " "
              << Y(cy + r) << " c\n";
        m_out << X(cx + k) << " " << Y(cy + r) << " " << X(cx + r) << " " << Y(cy + k) << " " << X(cx + r) << " "
              << Y(cy) << " c f\n";
    }
    void rect(double x, double y, double w, double h, const std::string& strokeColor, const std::string& fill) override
    {
        const std::string box = X(x) + " " + Y(y + h) + " " + num(w * m_scale) + " " + num(h * m_scale) + " re ";
        if (!fill.empty())
            m_out << rgb(fill) << " rg\n" << box << "f\n";
        if (!strokeColor.empty()) {
            stroke(strokeColor, 1, false);
            m_out << box << "S\n";
        }
    }
    void text(
        double x, double y, const std::string& text, double size, Anchor anchor, bool bold, bool vertical) override
    {
        const std::string ansi = winAnsi(text);
        const double s = size * m_scale;
        const double w = textWidth(ansi, s, bold);
        const double shift = anchor == Anchor::Start ? 0 : anchor == Anchor::Middle ? w / 2 : w;
        m_out << "0 0 0 rg\nBT /" << (bold ? "F2" : "F1") << " " << num(s) << " Tf ";
        if (vertical)
            m_out << "0 1 -1 0 " << X(x) << " " << num(yOf(y) - shift) << " Tm ";
        else
            m_out << "1 0 0 1 " << num(xOf(x) - shift) << " " << Y(y) << " Tm ";
        m_out << pdfString(ansi) << " Tj ET\n";
    }
    /// Monospaced text (a command), unscaled page coordinates.
    void mono(double x, double y, const std::string& text, double size)
    {
        m_out << "0 0 0 rg\nBT /F3 " << num(size) << " Tf 1 0 0 1 " << num(x) << " " << num(kPageH - y) << " Tm "
              << pdfString(winAnsi(text)) << " Tj ET\n";
    }
    std::string content() const { return m_out.str(); }

private:
    double xOf(double x) const { return m_x + x * m_scale; }
    double yOf(double y) const { return kPageH - (m_y + y * m_scale); }
    std::string X(double x) const { return num(xOf(x)); }
    std::string Y(double y) const { return num(yOf(y)); }
    void stroke(const std::string& color, double width, bool dashed)
    {
        m_out << rgb(color) << " RG " << num(width * m_scale) << " w " << (dashed ? "[4 3] 0 d" : "[] 0 d") << "\n";
    }
    std::ostringstream m_out;
    double m_x = 0, m_y = 0, m_scale = 1;
};

// Lays the sections out on pages.
class Layout {
public:
    std::vector<std::string> pages;

    void newPage()
    {
        flush();
        m_page = std::make_unique<PdfPage>();
        m_y = kMargin;
    }
    void flush()
    {
        if (m_page)
            pages.push_back(m_page->content());
        m_page.reset();
    }
    // room for h more on this page, else a new one
    void need(double h)
    {
        if (!m_page || m_y + h > kPageH - kMargin)
            newPage();
    }
    void heading(const std::string& text, double size)
    {
        need(size + 8);
        m_page->place(0, 0, 1);
        m_page->text(kMargin, m_y + size, text, size, ReportCanvas::Anchor::Start, true, false);
        m_y += size + 10;
    }
    void paragraph(const std::string& text, double size = 10)
    {
        // words wrapped to the width between the margins
        // (a line's width kept as it grows, each word measured once: linear in the text however long a word is)
        std::string line, word;
        std::istringstream in(text);
        const double width = kPageW - 2 * kMargin;
        const double space = textWidth(" ", size, false);
        double lineWidth = 0;
        while (in >> word) {
            const double wordWidth = textWidth(winAnsi(word), size, false);
            if (!line.empty() && lineWidth + space + wordWidth > width) {
                textLine(line, size);
                line = word;
                lineWidth = wordWidth;
            } else {
                lineWidth += line.empty() ? wordWidth : space + wordWidth;
                line += line.empty() ? word : " " + word;
            }
        }
        if (!line.empty())
            textLine(line, size);
        m_y += 4;
    }
    void chart(const ReportChart& c)
    {
        const double scale = std::min((kPageW - 2 * kMargin) / 960, 0.62);
        need(520 * scale + 6);
        m_page->place(kMargin, m_y, scale);
        drawChart(*m_page, c, 960, 520);
        m_page->place(0, 0, 1);
        m_y += 520 * scale + 8;
    }
    void table(const ReportTable& t)
    {
        const double size = 7.5, rowH = 11, pad = 3;
        std::vector<double> widths(t.header.size(), 20);
        auto fit = [&](const std::vector<std::string>& row, bool bold) {
            for (std::size_t i = 0; i < row.size() && i < widths.size(); ++i)
                widths[i] = std::max(widths[i], textWidth(winAnsi(row[i]), size, bold) + 2 * pad);
        };
        fit(t.header, true);
        for (const auto& row : t.rows)
            fit(row, false);
        // wider than the page: each column cut to its share, longest first
        double total = 0;
        for (double w : widths)
            total += w;
        const double room = kPageW - 2 * kMargin;
        if (total > room) { // the widest columns cut to one width, the narrow ones kept whole
            std::vector<double> sorted = widths;
            std::sort(sorted.begin(), sorted.end());
            double below = 0, cap = room / double(sorted.size());
            for (std::size_t i = 0; i < sorted.size(); ++i) {
                const double c = (room - below) / double(sorted.size() - i);
                if (sorted[i] > c) {
                    cap = c;
                    break;
                }
                below += sorted[i];
            }
            for (double& w : widths)
                w = std::min(w, cap);
            total = room;
        }
        if (!t.caption.empty())
            paragraph(t.caption, 9);
        auto row = [&](const std::vector<std::string>& cells, bool bold) {
            need(rowH);
            double x = kMargin;
            if (bold)
                m_page->rect(kMargin, m_y, room < total ? room : total, rowH, "", "#f0f0f0");
            for (std::size_t i = 0; i < cells.size() && i < widths.size(); ++i) {
                // cut to the column, an ellipsis where cut
                const std::string text = fitted(cells[i], widths[i] - 2 * pad, size, bold);
                const bool right = !bold && i > 0 && numericCell(cells[i]);
                m_page->text(right ? x + widths[i] - pad : x + pad, m_y + rowH - 3, text, size,
                    right ? ReportCanvas::Anchor::End : ReportCanvas::Anchor::Start, bold, false);
                x += widths[i];
            }
            m_page->line(kMargin, m_y + rowH, x, m_y + rowH, "#c8c8c8", 0.5, false);
            m_y += rowH;
        };
        row(t.header, true);
        for (const auto& r : t.rows) {
            if (m_y + rowH > kPageH - kMargin) { // the table goes on: its header again on the next page
                newPage();
                row(t.header, true);
            }
            row(r, false);
        }
        m_y += 8;
    }
    void preformatted(const std::string& text)
    {
        const double size = 8, charW = size * 0.6;
        const auto perLine = std::size_t((kPageW - 2 * kMargin) / charW);
        for (std::size_t i = 0; i < text.size(); i += perLine) {
            need(size + 3);
            m_page->mono(kMargin, m_y + size, text.substr(i, perLine), size);
            m_y += size + 3;
        }
    }

private:
    void textLine(const std::string& text, double size)
    {
        need(size + 4);
        m_page->place(0, 0, 1);
        m_page->text(kMargin, m_y + size, text, size, ReportCanvas::Anchor::Start, false, false);
        m_y += size + 4;
    }
    std::unique_ptr<PdfPage> m_page;
    double m_y = 0;
};

} // namespace

std::string reportPdf(const ReportDoc& doc)
{
    Layout layout;
    layout.newPage();
    layout.heading(doc.title, 18);
    if (!doc.subtitle.empty())
        layout.paragraph(doc.subtitle);
    bool first = true;
    for (const ReportSection& s : doc.sections) {
        if (!first)
            layout.newPage(); // a section to a page, as the HTML prints
        first = false;
        layout.heading(s.title, 14);
        for (const std::string& p : s.paragraphs)
            layout.paragraph(p);
        for (const ReportChart& c : s.charts)
            layout.chart(c);
        for (const ReportTable& t : s.tables)
            layout.table(t);
        if (!s.preformatted.empty())
            layout.preformatted(s.preformatted);
    }
    layout.flush();

    // objects: 1 catalog, 2 pages, 3-5 fonts, 6 info, then each page and its content
    std::vector<std::string> objects;
    std::string kids;
    for (std::size_t i = 0; i < layout.pages.size(); ++i)
        kids += std::to_string(7 + 2 * i) + " 0 R ";
    objects.push_back("<< /Type /Catalog /Pages 2 0 R >>");
    objects.push_back("<< /Type /Pages /Kids [" + kids + "] /Count " + std::to_string(layout.pages.size()) + " >>");
    for (const char* font : { "Helvetica", "Helvetica-Bold", "Courier" })
        objects.push_back(
            std::string("<< /Type /Font /Subtype /Type1 /BaseFont /") + font + " /Encoding /WinAnsiEncoding >>");
    objects.push_back("<< /Title " + pdfString(winAnsi(doc.title)) + " /Producer (Paretoscope) >>");
    for (std::size_t i = 0; i < layout.pages.size(); ++i) {
        objects.push_back("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 " + num(kPageW) + " " + num(kPageH)
            + "] /Resources << /Font << /F1 3 0 R /F2 4 0 R /F3 5 0 R >> >> /Contents " + std::to_string(8 + 2 * i)
            + " 0 R >>");
        objects.push_back(
            "<< /Length " + std::to_string(layout.pages[i].size()) + " >>\nstream\n" + layout.pages[i] + "endstream");
    }
    std::string out = "%PDF-1.4\n%\xE2\xE3\xCF\xD3\n";
    std::vector<std::size_t> offsets;
    for (std::size_t i = 0; i < objects.size(); ++i) {
        offsets.push_back(out.size());
        out += std::to_string(i + 1) + " 0 obj\n" + objects[i] + "\nendobj\n";
    }
    const std::size_t xref = out.size();
    out += "xref\n0 " + std::to_string(objects.size() + 1) + "\n0000000000 65535 f \n";
    for (std::size_t off : offsets) {
        char buf[24];
        std::snprintf(buf, sizeof buf, "%010zu 00000 n \n", off);
        out += buf;
    }
    out += "trailer\n<< /Size " + std::to_string(objects.size() + 1) + " /Root 1 0 R /Info 6 0 R >>\nstartxref\n"
        + std::to_string(xref) + "\n%%EOF\n";
    return out;
}

} // namespace paretoscope
