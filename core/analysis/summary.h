#pragma once

#include <string>
#include <vector>

#include "core/analysis/chartdata.h"
#include "core/analysis/ladder.h"

namespace paretoscope {

/// The seed page's quick answer for one hardware in a scope.
struct HardwareSummary {
    std::string hardware;
    LadderRow reading; ///< tok/s/GPU at the target, its engine and precision, $ per million tokens at the tier
    RunStats stats;
    std::vector<std::string> engines;
    std::vector<std::string> precisions;
};

struct SummaryReport {
    Scope scope;
    double target = 50;
    std::string tierLabel;
    std::vector<HardwareSummary> hardware;
    std::string baseline; ///< a hardware to compare with (baselineRatio); empty: no comparison row
    Reading reading = Reading::Deployable; ///< the reading the cost and the comparison are of (both are shown)
    /// The task each reading's accuracy is on (docs/evaluations.md; empty: the model has no evaluations, no row), and
    /// under an accuracy requirement what it left out and what it cost, in sentences.
    std::string accuracyTask;
    std::vector<std::string> accuracyNotes;
};

/// A median TTFT under 1 ms or a median TPOT that prints as 0.0 ms cannot come from a real run: such values are
/// flagged as suspect instead of being shown as the fastest.
constexpr double kTtftFloorSeconds = 0.001;
constexpr double kTpotFloorSeconds = 0.00005;

/// What the summary says of each hardware whatever the target and price: the run aggregates, engines and precisions.
/// Read from the store once per scope (off the GUI thread in the explorer); the reading is left empty.
std::vector<HardwareSummary> summaryFacts(RunStore& store, const ScopeData& data);

/// The summary at a target and price from the facts of summaryFacts: the frontiers are read here, without the store,
/// so the explorer follows its slider and pricing box at once.
Result<SummaryReport> summaryAt(const ScopeData& data, std::vector<HardwareSummary> facts,
    const PricingCatalog& pricing, double target, const PriceChoice& price, bool hideSparse = false,
    Reading reading = Reading::Deployable);

/// Summarises every hardware in a loaded scope: the reading at `target` priced with `price`, and the run aggregates.
Result<SummaryReport> summarize(RunStore& store, const ScopeData& data, const PricingCatalog& pricing,
    double target = 50, const PriceChoice& price = {});

/// The report as Markdown, one column per hardware, to paste into a document.
std::string summaryMarkdown(const SummaryReport& report);

} // namespace paretoscope
