#pragma once

#include <string>

#include "core/analysis/tco.h"

namespace paretoscope {

/// A TCO model as the JSON parseTco reads (every field of every hardware written out, no defaults block):
/// parseTco(tcoJson(m)) gives m back. What the explorer's Plan tab saves its edited parts as.
std::string tcoJson(const TcoModel& model);

} // namespace paretoscope
