#pragma once

#include <string>
#include <vector>

#include "core/analysis/chartdata.h"
#include "core/analysis/ladder.h"
#include "core/analysis/numberformat.h"
#include "core/analysis/pricing.h"
#include "core/import/importer.h"
#include "core/store/runstore.h"

namespace paretoscope {

/// A frontier with the full records of its points, for the `frontier` report and exports.
struct FrontierReport {
    GroupKey key;
    std::vector<StoredRun> points; ///< in frontier order (interactivity increasing)
};

/// Looks up the records of every frontier point in the scope.
std::vector<FrontierReport> frontierReport(RunStore& store, const std::vector<GroupFrontier>& groups);

/// {"source":..,"format":..,"imported":N,"duplicates":N} (with "notes":[..] when the import kept or left out
/// something without refusing it) or {"source":..,"error":".."}, one line.
std::string importOutcomeJson(const ImportOutcome& outcome);

/// The ladder as a JSON object keyed by hardware (the CLI contract). "j_per_token_all_in" and
/// "tokens_per_s_per_mw_all_in" (all-in provisioned power, docs/architecture.md section 11) and "j_per_token_measured"
/// (the runs' measured GPU power, with "j_per_token_measured_group" the group it was read on) are null where there is
/// no figure. "tput_low" and "tput_high" are the spread of reruns at the target (docs/architecture.md section 10.3),
/// null where the reading has none. With a baseline hardware, each row adds "vs_baseline" (the ratio to the baseline's
/// reading at the target, or null) and "vs_baseline_status" (baselineStatusName).
std::string ladderJson(const std::vector<HardwareLadder>& ladders, const std::string& baseline = {});
/// The ladder as CSV with units in the header.
/// {"lines":[{"hardware","precision","notes","points":[{"interactivity","tput_per_gpu","batch","gpus"}]}],
/// "missing":[...]}: the speed-of-light bounds of a scope.
std::string speedOfLightJson(const std::vector<SolLine>& lines, const std::vector<std::string>& missing);
/// With a baseline hardware, the columns "baseline", "vs_baseline" and "vs_baseline_status" follow.
std::string ladderCsv(const std::vector<HardwareLadder>& ladders, const std::string& baseline = {});
/// The ladder as an aligned text table; "-" where there is no value; a spread of reruns follows the value as
/// "[low - high]". With a baseline, a column "vs HW" says the ratio ("18.5x", "baseline" on the baseline's own rows,
/// "1.1x, within run-to-run spread" where the spreads overlap). With an energy metric, a last column of it, its basis
/// in the header; "- (no power figure)" for a hardware the power registry lacks, "- (no measured power)" where the
/// runs carry none.
std::string ladderTable(const std::vector<HardwareLadder>& ladders, TputMetric metric, const std::string& baseline = {},
    EnergyMetric energy = EnergyMetric::None);

/// One record as a Paretoscope JSON object (the columns of recordschema.h, with the schema key), importable again.
std::string runRecordJson(const RunRecord& record);

/// Frontier points with their configuration as JSON (an array of groups) or CSV (a row per point).
std::string frontierJson(const std::vector<FrontierReport>& frontiers);
std::string frontierCsv(const std::vector<FrontierReport>& frontiers);

/// Runs as Paretoscope CSV / JSON (the own format, importable again).
std::string runsCsv(const std::vector<StoredRun>& runs);
std::string runsJson(const std::vector<StoredRun>& runs);

/// What the store holds, per (model, isl, osl, workload).
std::string scopesJson(const std::vector<ScopeSummary>& scopes);
std::string scopesTable(const std::vector<ScopeSummary>& scopes);

/// The pricing tiers.
std::string tiersJson(const PricingCatalog& catalog);
std::string tiersTable(const PricingCatalog& catalog);

} // namespace paretoscope
