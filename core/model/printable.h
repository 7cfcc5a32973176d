#pragma once

#include <string>
#include <string_view>

namespace paretoscope {

/// Text from data (a name, a reason, a file's content) made safe to print in a message: control characters (NUL,
/// ESC, CR, a newline inside a value, DEL, and the C1 range) become visible escapes such as \n, \r, \x1b, \u009b, so
/// a value can neither drive a terminal nor fake a line of its own. keepNewlines leaves \n and \t as they are, for
/// whole messages of several lines.
std::string printable(std::string_view text, bool keepNewlines = false);

/// The length of a UTF-8 control or direction mark starting text[i] that printable escapes (C1 controls, U+061C,
/// U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069: the marks that reorder what a terminal or browser shows, so
/// "exe.txt" can read "txt.exe"); 0 where there is none. A shorter text that could still become one: -1.
int hiddenMarkLength(std::string_view text, std::size_t i);

} // namespace paretoscope
