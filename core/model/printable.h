#pragma once

#include <string>
#include <string_view>

namespace paretoscope {

/// Text from data (a name, a reason, a file's content) made safe to print in a message: control characters (NUL,
/// ESC, CR, a newline inside a value, DEL, and the C1 range) become visible escapes such as \n, \r, \x1b, \u009b, so
/// a value can neither drive a terminal nor fake a line of its own. keepNewlines leaves \n and \t as they are, for
/// whole messages of several lines.
std::string printable(std::string_view text, bool keepNewlines = false);

} // namespace paretoscope
