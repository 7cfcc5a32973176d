#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/import/formats/recordmapper.h"

namespace paretoscope {

/// Decides a JSON record's format from its top-level keys (the first record of a file decides for the file).
std::optional<Format> detectJsonFormat(const std::vector<std::string>& keys);

/// Decides whether a CSV header is Paretoscope's own.
bool isParetoscopeCsvHeader(const std::vector<std::string>& header);

} // namespace paretoscope
