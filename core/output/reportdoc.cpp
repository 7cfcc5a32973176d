// The report as one self-contained HTML file (docs/report.md).
#include "core/output/reportdoc.h"

#include <sstream>

#include "core/model/printable.h"

namespace paretoscope {

std::string htmlEscaped(const std::string& text)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const auto u = static_cast<unsigned char>(c);
        // control characters and direction marks (docs/report.md): dropped, as a browser would hide or obey them
        if ((u < 0x20 && c != '\n' && c != '\t') || u == 0x7f)
            continue;
        if (const int mark = hiddenMarkLength(text, i); mark > 0) {
            i += static_cast<std::size_t>(mark) - 1;
            continue;
        }
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

namespace {

void writeTable(std::ostringstream& o, const ReportTable& t)
{
    o << "<table id=\"" << htmlEscaped(t.id) << "\">\n";
    if (!t.caption.empty())
        o << "<caption>" << htmlEscaped(t.caption) << "</caption>\n";
    o << "<thead><tr>";
    for (const std::string& h : t.header)
        o << "<th>" << htmlEscaped(h) << "</th>";
    o << "</tr></thead>\n<tbody>\n";
    for (const auto& row : t.rows) {
        o << "<tr>";
        for (std::size_t i = 0; i < row.size(); ++i) // numbers right-aligned, text left, as in the PDF
            o << (i > 0 && numericCell(row[i]) ? "<td class=\"n\">" : "<td>") << htmlEscaped(row[i]) << "</td>";
        o << "</tr>\n";
    }
    o << "</tbody></table>\n";
}

} // namespace

bool numericCell(const std::string& cell)
{
    if (cell == "-")
        return true;
    const std::size_t i = cell.find_first_not_of("$-+");
    return i != std::string::npos && i < cell.size() && cell[i] >= '0' && cell[i] <= '9'
        && cell.find_first_of("abcdefghijklmnopqrstuvwyzABCDEFGHIJKLMNOPQRSTUVWXYZ") == std::string::npos;
}

std::string reportHtml(const ReportDoc& doc)
{
    std::ostringstream o;
    o << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" << htmlEscaped(doc.title)
      << "</title>\n<style>\n"
         "body { font-family: sans-serif; margin: 2em auto; max-width: 1000px; color: #202020; }\n"
         "section { page-break-before: always; margin-top: 2.5em; }\n"
         "section:first-of-type { page-break-before: auto; }\n"
         "table { border-collapse: collapse; margin: 1em 0; font-size: 13px; }\n"
         "caption { text-align: left; font-weight: bold; padding-bottom: 0.3em; }\n"
         "th, td { border: 1px solid #c8c8c8; padding: 3px 8px; }\n"
         "th { background: #f0f0f0; }\n"
         "td { text-align: left; }\n"
         "td.n { text-align: right; font-variant-numeric: tabular-nums; }\n"
         "pre { background: #f6f6f6; padding: 0.8em; white-space: pre-wrap; word-break: break-all; }\n"
         "svg { display: block; margin: 1em 0; }\n"
         "</style>\n</head>\n<body>\n";
    o << "<h1>" << htmlEscaped(doc.title) << "</h1>\n";
    if (!doc.subtitle.empty())
        o << "<p class=\"subtitle\">" << htmlEscaped(doc.subtitle) << "</p>\n";
    for (const ReportSection& s : doc.sections) {
        o << "<section id=\"" << htmlEscaped(s.id) << "\">\n<h2>" << htmlEscaped(s.title) << "</h2>\n";
        for (const std::string& p : s.paragraphs)
            o << "<p>" << htmlEscaped(p) << "</p>\n";
        for (const ReportChart& c : s.charts)
            o << chartSvg(c, 960, 520);
        for (const ReportTable& t : s.tables)
            writeTable(o, t);
        if (!s.preformatted.empty())
            o << "<pre id=\"" << htmlEscaped(s.id) << "-text\">" << htmlEscaped(s.preformatted) << "</pre>\n";
        o << "</section>\n";
    }
    o << "</body>\n</html>\n";
    return o.str();
}

} // namespace paretoscope
