#pragma once

// Man pages (groff -man) written by the programs themselves from the option tables their --help prints, so that the
// two never differ: each program has a hidden --man that the build runs to write share/man/man1/PROGRAM.1.

#include <string>
#include <utility>
#include <vector>

namespace paretoscope::man {

/// Text for groff: a backslash as \e, '-' as \- (so options stay copyable from the rendered page), and a leading
/// '.' or '\'' kept from being read as a request.
inline std::string escape(const std::string& text)
{
    std::string out;
    bool lineStart = true;
    for (char c : text) {
        if (lineStart && (c == '.' || c == '\''))
            out += "\\&";
        if (c == '\\')
            out += "\\e";
        else if (c == '-')
            out += "\\-";
        else
            out += c;
        lineStart = c == '\n';
    }
    return out;
}

/// A block kept as written, line for line (usage text aligned in columns).
inline std::string verbatim(const std::string& text)
{
    std::string body = escape(text);
    if (!body.empty() && body.back() != '\n')
        body += '\n';
    return ".nf\n" + body + ".fi\n";
}

/// A paragraph of running text.
inline std::string paragraph(const std::string& text)
{
    return ".PP\n" + escape(text) + "\n";
}

/// One entry of a list: the term in bold (an option and its value), its description below.
inline std::string item(const std::string& term, const std::string& description)
{
    return ".TP\n\\fB" + escape(term) + "\\fR\n" + escape(description) + "\n";
}

/// A whole page: title, NAME, SYNOPSIS (one line each), then the sections (title, groff body) in order.
inline std::string page(const std::string& name, const std::string& version, const std::string& summary,
    const std::vector<std::string>& synopsis, const std::vector<std::pair<std::string, std::string>>& sections)
{
    std::string upper;
    for (char c : name)
        upper += char(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
    std::string out = ".TH " + escape(upper) + " 1 \"\" \"Paretoscope " + version + "\" \"User Commands\"\n";
    out += ".SH NAME\n" + escape(name) + " \\- " + escape(summary) + "\n.SH SYNOPSIS\n";
    for (std::size_t i = 0; i < synopsis.size(); ++i)
        out += (i ? ".br\n" : "") + escape(synopsis[i]) + "\n";
    for (const auto& [title, body] : sections)
        out += ".SH " + title + "\n" + body;
    return out;
}

} // namespace paretoscope::man
