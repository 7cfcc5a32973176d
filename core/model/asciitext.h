#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace paretoscope {

/// s with A-Z lowered and every other byte kept: keys, names and aliases compare this way whatever the locale.
std::string asciiLower(std::string_view s);

/// The items one after another with separator between them ("a, b, c"); empty for none.
std::string joinedWith(const std::vector<std::string>& items, std::string_view separator);

} // namespace paretoscope
