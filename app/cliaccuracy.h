#pragma once

#include "app/clicommon.h"

namespace paretoscope::cli {

/// `accuracy`: per group of a model (hardware, engine, precision, spec decoding), the accuracy that comes with it on
/// a task as of a day, or "not evaluated" (docs/evaluations.md).
int cmdAccuracy(const Invocation& in);

} // namespace paretoscope::cli
