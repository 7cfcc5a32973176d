#include "core/model/printable.h"

#include <cstdio>

namespace paretoscope {

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
        } else if (c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80
            && static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
            // U+0080 to U+009F, the C1 controls (CSI among them), in UTF-8
            std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned char>(text[++i]));
            out += buf;
        } else {
            out += static_cast<char>(c);
        }
    }
    return out;
}

} // namespace paretoscope
