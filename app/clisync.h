#pragma once

#include "app/clicommon.h"

namespace paretoscope::cli {

/// `sync`: brings a store up to date with an InferenceX API (docs/sync.md): every model and sequence the
/// availability route lists, or those asked; prints the summary as one JSON line.
int cmdSync(const Invocation& in);

/// `changes --since DATE`: the summaries of the syncs since then, one JSON line each.
int cmdChanges(const Invocation& in);

} // namespace paretoscope::cli
