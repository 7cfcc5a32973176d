#pragma once

#include <optional>
#include <string>

#include "core/model/runselection.h"

namespace paretoscope {

// The value types a frontier, a chart and the summary are made of: plain data, read from the store (core/store) and
// worked on by analysis without it.

/// The y value a frontier is drawn on.
enum class TputMetric { Total, Input, Output };

/// A frontier candidate: x = interactivity (tok/s/user), y = tok/s/GPU, and the run it came from.
struct Point {
    double x = 0;
    double y = 0;
    long long runId = 0;
    bool marked = false; ///< the run is marked as not trusted (drawn hollow)
    bool operator==(const Point&) const = default;
};

/// A run as a chart plots it: interactivity, tok/s/GPU of the metric, median end-to-end latency, median and p99 TTFT
/// (s, 0 unknown), and its average GPU power (W per GPU, 0 unknown) for the measured energy per token.
struct RunPoint {
    double interactivity = 0;
    double tputPerGpu = 0;
    double e2elSeconds = 0;
    long long runId = 0;
    bool marked = false; ///< RunRecord::marked is set: not on a frontier unless the scope includes marked runs
    double ttftSeconds = 0;
    double ttftP99Seconds = 0;
    double avgPowerW = 0;
};

/// A run with what choosing it takes (runselection.h): its version, and what the summary adds up.
struct TimedRun {
    RunPoint point;
    RunVersion version;
    double tpotSeconds = 0; ///< median, 0 unknown
    bool dated = false; ///< the run has a run date of its own (else version.day is its import day)
};

/// Aggregates of a set of runs for the summary: counts, dates, the peak and the fastest latencies. A latency below
/// the plausibility floor is counted apart, so that the summary can flag it instead of showing it as a record.
struct RunStats {
    long long runs = 0;
    std::string firstDate, lastDate; ///< yyyy-mm-dd..., empty when no run has a date
    std::optional<double> peakTputPerGpu;
    std::optional<double> fastestTtft; ///< s, smallest median TTFT at or above the floor
    std::optional<double> fastestTpot; ///< s
    std::optional<double> suspectTtft; ///< s, smallest median TTFT below the floor, if any
    std::optional<double> suspectTpot; ///< s
};

} // namespace paretoscope
