#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/model/scope.h"

namespace paretoscope {

/// What to say when a scope holds no runs, so that a command never answers an empty scope with an empty report.
struct ScopeHint {
    /// Whether the store has runs of the scope's model, lengths and workload (then the filters left nothing).
    bool heldBeforeFilters = false;
    /// The scope the store holds that is nearest to the one asked: the model by name (case, then prefix, then edit
    /// distance), then the lengths nearest in ratio (or the same workload). Empty when the store holds nothing.
    std::optional<ScopeSummary> nearest;
    /// One paragraph: what was asked, what the store holds (models with their lengths and workloads) and the nearest.
    std::string text;
};

/// Explains an empty scope from the scopes the store holds (RunStore::scopes()).
ScopeHint emptyScopeHint(const Scope& asked, const std::vector<ScopeSummary>& held);

/// The scope's service-level limits in words, "TTFT ≤ 2 s (p99), TPOT ≤ 0.05 s"; empty without a limit.
std::string limitsText(const Scope& scope);

/// Edit distance (insertions, deletions, substitutions) between two strings, ignoring ASCII case.
std::size_t editDistance(const std::string& a, const std::string& b);

} // namespace paretoscope
