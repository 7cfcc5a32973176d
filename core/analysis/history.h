#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/analysis/ladder.h"
#include "core/analysis/scopetimeline.h"

namespace paretoscope {

/// A history question (docs/architecture.md section 10.5): the ladder reading at a target as of each run date in scope.
struct HistoryRequest {
    Scope scope; ///< its runs (latest or all) say which runs count as of each date
    double target = 50;
    TputMetric metric = TputMetric::Total;
    PriceChoice price;
    bool hideSparse = false;
};

/// The reading as of one day (yyyymmdd): the ladder row of that day's frontiers.
struct HistoryPoint {
    int day = 0;
    LadderRow row;
};

/// One hardware's readings, a point per run date in scope (no_data before its first run).
struct HardwareHistory {
    std::string hardware;
    std::vector<HistoryPoint> points;
};

/// The history of each hardware in scope (or of those the scope names). Each day's frontiers are rebuilt only for
/// the groups that have a run on that day.
Result<std::vector<HardwareHistory>> computeHistory(
    const ScopeTimeline& timeline, const PricingCatalog& pricing, const HistoryRequest& request);

/// One target's readings as of two days, and the change.
struct DiffRow {
    LadderRow before;
    LadderRow after;
    std::optional<double> changePct; ///< 100 x (after / before - 1), where both have a value
    bool withinSpread = false; ///< the two readings' spreads of reruns overlap (spreadsOverlap)
};

struct HardwareDiff {
    std::string hardware;
    std::vector<DiffRow> rows; ///< one per target of the request
};

/// The ladder of `request` (scope, targets, metric, price) as of two days (yyyymmdd, any days, not only run dates),
/// side by side per hardware and target.
Result<std::vector<HardwareDiff>> computeDiff(
    const ScopeTimeline& timeline, const PricingCatalog& pricing, const LadderRequest& request, int before, int after);

} // namespace paretoscope
