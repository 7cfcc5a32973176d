#include "core/analysis/typednumber.h"

#include <cctype>
#include <charconv>
#include <cmath>

#include "core/analysis/numberformat.h"
#include "core/model/printable.h"

namespace paretoscope {
namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

std::string_view trimmedOfSpaces(std::string_view s)
{
    // ASCII spaces and the no-break spaces a locale may write (U+00A0, U+202F)
    auto space = [](std::string_view t, bool front) -> std::size_t {
        for (std::string_view sp : { " ", "\t", "\xc2\xa0", "\xe2\x80\xaf" })
            if (front ? t.starts_with(sp) : t.ends_with(sp))
                return sp.size();
        return 0;
    };
    for (std::size_t n; (n = space(s, true));)
        s.remove_prefix(n);
    for (std::size_t n; (n = space(s, false));)
        s.remove_suffix(n);
    return s;
}

std::string quoted(std::string_view text)
{
    return "'" + printable(text.substr(0, 40)) + (text.size() > 40 ? "..." : "") + "'";
}

// A bound as a reader reads it: 1,000, 0.001, 1e+15.
std::string boundWithThousands(double v)
{
    if (std::abs(v) >= 1e9 || (v != 0 && std::abs(v) < 1e-3))
        return shortNumber(v);
    const double rounded = std::round(v);
    if (rounded == v)
        return withThousands(v);
    return withThousands(v, std::abs(v) < 1 ? 3 : 2);
}

} // namespace

Result<double> parseTypedNumber(std::string_view typed, const NumberSyntax& syntax)
{
    const std::string_view text = trimmedOfSpaces(typed);
    if (text.empty())
        return Error { "nothing typed: give a number" };
    if (text.size() > 64)
        return Error { quoted(text) + " is not a number (too long)" };
    // the number in C syntax: digits, '.', 'e'; separators checked and dropped on the way
    std::string plain;
    std::size_t i = 0;
    if (text[i] == '+' || text[i] == '-')
        plain += text[i++] == '-' ? "-" : ""; // from_chars takes no '+'
    std::string_view grp = syntax.group, dec = syntax.decimal;
    // a locale whose separator is a no-break space is typed with a plain one too
    const bool spaceGroup = grp == "\xc2\xa0" || grp == "\xe2\x80\xaf";
    int run = 0; // digits since the last separator
    bool grouped = false, anyDigit = false;
    for (; i < text.size(); ++i) {
        const std::string_view rest = text.substr(i);
        if (isDigit(text[i])) {
            plain += text[i];
            ++run;
            anyDigit = true;
            continue;
        }
        std::size_t sepLen = 0;
        if (!grp.empty() && rest.starts_with(grp))
            sepLen = grp.size();
        else if (spaceGroup && rest.starts_with(" "))
            sepLen = 1;
        if (sepLen == 0)
            break;
        if (run == 0 || run > 3 || (grouped && run != 3))
            return Error { quoted(text) + ": a thousands separator belongs between groups of three digits" };
        grouped = true;
        run = 0;
        i += sepLen - 1;
    }
    if (grouped && run != 3)
        return Error { quoted(text) + ": a thousands separator belongs between groups of three digits" };
    if (i < text.size() && text.substr(i).starts_with(dec)) {
        plain += '.';
        i += dec.size();
        while (i < text.size() && isDigit(text[i])) {
            plain += text[i++];
            anyDigit = true;
        }
    }
    if (!anyDigit)
        return Error { quoted(text) + " is not a number" };
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        plain += 'e';
        ++i;
        if (i < text.size() && (text[i] == '+' || text[i] == '-'))
            plain += text[i++] == '-' ? "-" : "";
        const std::size_t start = i;
        while (i < text.size() && isDigit(text[i]))
            plain += text[i++];
        if (i == start)
            return Error { quoted(text) + ": an exponent needs digits after the e (2e6)" };
    }
    if (i != text.size())
        return Error { quoted(text) + " is not a number" };
    double v = 0;
    const auto [end, ec] = std::from_chars(plain.data(), plain.data() + plain.size(), v);
    if (ec == std::errc::result_out_of_range || !std::isfinite(v)) // a negative exponent: too small, else too large
        return Error { quoted(text)
            + (plain.find("e-") != std::string::npos ? " is too small a number" : " is too large a number") };
    if (ec != std::errc() || end != plain.data() + plain.size())
        return Error { quoted(text) + " is not a number" };
    return v;
}

Result<double> checkTypedNumber(std::string_view text, const NumberBounds& b, const NumberSyntax& syntax)
{
    auto v = parseTypedNumber(text, syntax);
    if (!v)
        return v;
    const std::string typed = quoted(trimmedOfSpaces(text));
    if (b.minExclusive ? !(*v > b.min) : !(*v >= b.min))
        return Error { typed + (b.minExclusive ? " must be above " : " is less than the least this box takes, ")
            + boundWithThousands(b.min) };
    if (*v > b.max)
        return Error { typed + " is more than the most this box takes, " + boundWithThousands(b.max) };
    return v;
}

} // namespace paretoscope
