#pragma once

#include <ostream>

namespace paretoscope::cli {

/// From here on, the stream writes control characters of what it prints (ESC, CR, NUL, DEL, the C1 range: a value
/// read from someone else's file) as visible escapes (\x1b, \r, \u009b ...), keeping line breaks and tabs. The CLI
/// installs it on standard error, and on standard output when that is a terminal.
void escapeControlCharacters(std::ostream& stream);

} // namespace paretoscope::cli
