#pragma once

#include "app/clicommon.h"

namespace paretoscope::cli {

/// import PATH_OR_URL...: one JSON object per input; exit 1 if any failed.
int cmdImport(const Invocation& in);
/// ladder: the best tok/s/GPU per hardware at each target, priced, with --baseline ratios.
int cmdLadder(const Invocation& in);
/// summary: the quick answer per hardware as Markdown.
int cmdSummary(const Invocation& in);
/// frontier: each group's Pareto frontier points.
int cmdFrontier(const Invocation& in);
/// sol: the speed-of-light bound per hardware and precision.
int cmdSpeedOfLight(const Invocation& in);
/// export: every run in scope in Paretoscope's own format.
int cmdExport(const Invocation& in);
/// tiers: the shipped pricing tiers.
int cmdTiers(const Invocation& in);
/// scopes: models and sequence lengths in the store.
int cmdScopes(const Invocation& in);
/// check: the store's integrity; exit 1 when damaged.
int cmdCheck(const Invocation& in);
/// recover --to NEW: what can still be read of a damaged store, into a new one.
int cmdRecover(const Invocation& in);
/// seed: the bundled dataset (idempotent).
int cmdSeed(const Invocation& in);

} // namespace paretoscope::cli
