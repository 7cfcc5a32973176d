#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/import/formats/recordschema.h"

namespace paretoscope {

/// One CSV cell: quoted where it holds a comma, quote or line break; text that a spreadsheet would evaluate (a
/// leading =, +, -, @, tab or carriage return) is prefixed with an apostrophe. Numbers are written in the shortest
/// form that reads back to the same double.
std::string csvCell(const CellValue& value);
/// A text cell (same guard).
std::string csvText(std::string_view text);
/// A number cell.
std::string csvNumber(double v);
/// Joins cells into a line ending in \n.
std::string csvLine(const std::vector<std::string>& cells);

} // namespace paretoscope
