#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/ladder.h"

namespace paretoscope {

/// Why a reading has or has no ratio to the baseline hardware's reading at the same target.
/// Baseline: the reading is the baseline's own (ratio 1 when it has a value). NoBaseline: the baseline hardware has no
/// ladder (not in scope, or none chosen). BaselineNoValue: the baseline has no reading above zero at that target.
/// NoValue: this hardware has no reading at that target.
/// WithinSpread: both have values, and their spreads of reruns overlap (spreadsOverlap): the ratio is given, but no
/// winner is declared.
enum class BaselineStatus { Ok, Baseline, NoBaseline, BaselineNoValue, NoValue, WithinSpread };
/// "ok", "baseline", "no_baseline", "baseline_no_value", "no_value", "within_spread"
std::string_view baselineStatusName(BaselineStatus s);

/// One reading against the baseline's: "B300 delivers 18.5x MI325X" is ratio 18.5 for b300 with baseline mi325x.
struct BaselineRatio {
    BaselineStatus status = BaselineStatus::NoBaseline;
    std::optional<double> ratio; ///< reading / baseline reading; set for Ok, and for Baseline when it has a value
};

/// Whether two readings cannot be told apart by their spreads of reruns: both have values, at least one has a spread
/// (LadderEntry::low and high), and the intervals [low, high] overlap (a reading without a spread is its value alone).
bool spreadsOverlap(const LadderEntry& a, const LadderEntry& b);
/// "within run-to-run spread"
constexpr const char* kWithinSpreadWords = "within run-to-run spread";

/// The ratio as a reader sees it: "18.5x" (one decimal), "baseline" on the baseline's own reading, "-" without one;
/// "1.1x, within run-to-run spread" where the spreads overlap.
std::string ratioText(const BaselineRatio& r);

/// The ratio of a reading to the baseline's reading at the same target (both tok/s/GPU).
BaselineRatio baselineRatio(
    const std::optional<double>& reading, const std::optional<double>& baselineReading, bool isBaseline);
/// The same on ladder entries: WithinSpread where their spreads overlap.
BaselineRatio baselineRatio(const LadderEntry& reading, const LadderEntry& baselineReading, bool isBaseline);

/// The ratio of every reading to the baseline hardware's at the same target: result[i][j] belongs to
/// ladders[i].rows[j]. The ladders are those of one request (the same targets in the same order), as computeLadder
/// gives them; an empty baseline or one without a ladder gives NoBaseline everywhere.
std::vector<std::vector<BaselineRatio>> baselineRatios(
    const std::vector<HardwareLadder>& ladders, const std::string& baseline);

} // namespace paretoscope
