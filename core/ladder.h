#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "frontier.h"
#include "scope.h"

namespace paretoscope {

/// One group's frontier inside a scope, ready to be read.
struct GroupFrontier {
    GroupKey key;
    std::vector<Point> points; ///< the frontier knots (x increasing, y decreasing)
    MonotoneCurve curve;
};

/// The frontier of a group's candidate points with its reading curve; empty when no point can be on a frontier.
std::optional<GroupFrontier> makeGroupFrontier(GroupKey key, std::vector<Point> candidates);

/// The series of a scope gathered by group key: series of one key (differing workloads when none was asked for)
/// share one frontier.
std::map<GroupKey, std::vector<long long>> seriesByGroup(const std::vector<Series>& series);

/// Why a ladder target has or has no value (DESIGN.md section 4).
enum class LadderStatus { Ok, BelowRange, AboveRange, OutOfRange, NoData };
std::string_view statusName(LadderStatus s);
/// The status in words for a reader: "below the measured range" ...
std::string_view statusWords(LadderStatus s);

/// Where a clamped value was taken from: the nearest end of a frontier.
enum class Clamp { None, Below, Above };
std::string_view clampName(Clamp c);

/// The reading at one target for one hardware: the best group whose frontier covers the target.
struct LadderEntry {
    double target = 0;
    LadderStatus status = LadderStatus::NoData;
    std::optional<double> value; ///< tok/s/GPU; empty unless ok, or clamped on request
    std::optional<GroupKey> group;
    Clamp clamped = Clamp::None;
};

/// Reads the frontiers of one hardware at each target. With clamp, a target no frontier covers is read at the nearest
/// x some frontier covers (an end of a range), marked as clamped below or above; the status still says why.
std::vector<LadderEntry> readLadder(
    const std::vector<const GroupFrontier*>& groups, const std::vector<double>& targets, bool clamp);

/// The seed page's targets: 30, 50, 75, 100, 150, 200 tok/s/user.
std::vector<double> defaultTargets();

} // namespace paretoscope
