#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/energymetric.h"
#include "core/analysis/hardwarepower.h"
#include "core/analysis/ladder.h"

namespace paretoscope {

/// An all-in metric of a throughput on one hardware; empty for a hardware the registry lacks (no value, never 0),
/// for the measured metric, and for a throughput not above 0.
std::optional<double> allInEnergy(
    EnergyMetric m, const HardwarePowerCatalog& power, const std::string& hardware, double tputPerGpu);

/// The measured frontier of a group's runs: the upper-left frontier of (interactivity, tokens per joule = tok/s/GPU /
/// W) of the runs that carry an average power, so that reading it at a target gives the lowest measured J/token there
/// (1 / the reading). Empty when no run carries power.
MonotoneCurve measuredFrontier(const std::vector<RunPoint>& runs, bool includeMarked);
/// Measured J/token of a group at a target: 1 / its measured frontier's reading; empty where it does not cover it.
std::optional<double> measuredJoulesAt(const GroupFrontier& group, double target);

/// Fills each ladder row's energy values: all-in J/token and tok/s per MW from the reading and the hardware's kW, and
/// measured J/token, the lowest that the hardware's groups' measured frontiers read at the target (LadderRow).
void attachEnergy(
    std::vector<HardwareLadder>& ladders, const std::vector<GroupFrontier>& groups, const HardwarePowerCatalog& power);

/// The value of a ladder row in an energy metric (the row's own fields).
std::optional<double> rowEnergy(const LadderRow& row, EnergyMetric m);

} // namespace paretoscope
