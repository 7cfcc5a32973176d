#include "core/model/printable.h"

#include <cstdio>

namespace paretoscope {

int hiddenMarkLength(std::string_view text, std::size_t i)
{
    auto at = [&](std::size_t k) { return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0x100u; };
    const unsigned lead = at(0);
    if (lead == 0xc2) // U+0080 to U+009F
        return at(1) == 0x100u ? -1 : (at(1) >= 0x80 && at(1) <= 0x9f ? 2 : 0);
    if (lead == 0xd8) // U+061C, the Arabic letter mark
        return at(1) == 0x100u ? -1 : (at(1) == 0x9c ? 2 : 0);
    if (lead != 0xe2)
        return 0;
    if (at(1) == 0x100u)
        return -1;
    if (at(1) != 0x80 && at(1) != 0x81)
        return 0;
    if (at(2) == 0x100u)
        return -1;
    const unsigned last = at(2);
    if (at(1) == 0x80) // U+200E, U+200F, U+202A to U+202E
        return last == 0x8e || last == 0x8f || (last >= 0xaa && last <= 0xae) ? 3 : 0;
    return last >= 0xa6 && last <= 0xa9 ? 3 : 0; // U+2066 to U+2069, the isolates
}

std::string printable(std::string_view text, bool keepNewlines)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        char buf[8];
        // a kept newline or tab is copied as a printable byte is (the last branch), before the escapes below
        // NOLINTNEXTLINE(bugprone-branch-clone)
        if (keepNewlines && (c == '\n' || c == '\t')) {
            out += static_cast<char>(c);
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\r') {
            out += "\\r";
        } else if (c == '\t') {
            out += "\\t";
        } else if (c < 0x20 || c == 0x7f) {
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        } else if (const int mark = hiddenMarkLength(text, i); mark > 0) {
            // the C1 controls (CSI among them) and the direction marks, in UTF-8: written as their code point
            unsigned point = 0;
            if (mark == 2)
                point = ((c & 0x1fu) << 6) | (static_cast<unsigned char>(text[i + 1]) & 0x3fu);
            else
                point = ((c & 0x0fu) << 12) | ((static_cast<unsigned char>(text[i + 1]) & 0x3fu) << 6)
                    | (static_cast<unsigned char>(text[i + 2]) & 0x3fu);
            std::snprintf(buf, sizeof buf, "\\u%04x", point);
            out += buf;
            i += static_cast<std::size_t>(mark) - 1;
        } else {
            out += static_cast<char>(c);
        }
    }
    return out;
}

} // namespace paretoscope
