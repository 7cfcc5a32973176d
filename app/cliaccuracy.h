#pragma once

#include "app/clicommon.h"

namespace paretoscope::cli {

/// `accuracy`: per group of a model (hardware, engine, precision, spec decoding), the accuracy that comes with it on
/// a task as of a day, or "not evaluated" (docs/evaluations.md).
int cmdAccuracy(const Invocation& in);

/// `precision`: per hardware, FP4 against FP8 (and the other precisions present) at a target: tok/s/GPU, $ per
/// million tokens and the accuracy that comes with each.
int cmdPrecision(const Invocation& in);

} // namespace paretoscope::cli
