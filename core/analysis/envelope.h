#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/analysis/chartdata.h"

namespace paretoscope {

/// A stretch of a hardware's envelope: the x range over which one of its groups is best, and that group's line over
/// it (its path cut at the ends, where two lines cross at the crossing).
struct EnvelopeStretch {
    std::size_t series = 0; ///< index into ChartData::series
    double xFrom = 0, xTo = 0;
    std::vector<Point> path;
};

/// One hardware's envelope: at each x the best of its groups' lines, in stretches in increasing x.
struct HardwareEnvelope {
    std::string hardware;
    std::vector<EnvelopeStretch> stretches;
};

/// Per hardware (the hardware name, as the readout keys its rows), the best of its groups at each x: the highest y
/// where higherIsBetter (tok/s/GPU, tok/s per MW: not lowerIsBetter), else the lowest ($ per million
/// tokens, J/token), among the series
/// that `use` allows (all where it is empty), are priced and have a line. The lines are read between their points
/// straight in x and y, as drawn on linear axes (each path is sampled densely, so a log axis draws the same curve to
/// within a pixel). Envelopes in the order of their hardware's first series.
std::vector<HardwareEnvelope> hardwareEnvelopes(
    const ChartData& chart, bool higherIsBetter, const std::vector<bool>& use = {});

} // namespace paretoscope
