#pragma once

#include "app/clicommon.h"

namespace paretoscope::cli {

/// `history`: per hardware, the ladder reading at a target as of each run date in scope; with --diff, the readings
/// as of two dates and the change.
int cmdHistory(const Invocation& in);

} // namespace paretoscope::cli
