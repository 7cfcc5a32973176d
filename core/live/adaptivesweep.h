#pragma once

#include <optional>
#include <string>
#include <vector>

namespace paretoscope {

/// One level an adaptive sweep has measured, as its next choice needs it.
struct SweepPoint {
    int concurrency = 0;
    double tputPerGpu = 0; ///< tokens/s per GPU
    double interactivity = 0; ///< tok/s/user
    std::optional<double> medianTtft; ///< s
};

/// The rules of `--concurrency auto` (docs/live.md, adaptive sweeps).
struct AdaptiveOptions {
    std::vector<double> targets; ///< interactivity targets (tok/s/user); empty: the ladder's defaultTargets()
    int maxLevels = 12; ///< the level budget
    int maxConcurrency = 4096;
    double minRise = 0.05; ///< keep climbing while throughput per GPU rises by more than this share
    double tolerance = 0.15; ///< a target is bracketed when a measured neighbour is within this share of it
    double flatRise = 0.02; ///< over-saturated: throughput rises by less than this share ...
    double ttftGrowth = 0.5; ///< ... while the median TTFT grows by more than this share
    /// While throughput still rises by more than this share per doubling (the engine is far from its batch limit) and
    /// every target is still below, the climb jumps ahead by up to maxJump instead of doubling.
    double linearRise = 0.75;
    int maxJump = 8;
    int firstJump = 16; ///< from the lone first level at 1, where the curve is not known yet
    /// The climb passes over two targets whose windows overlap (leaving them to the refinement) only while throughput
    /// still rises by at least this share per doubling.
    double passRise = 0.4;
};

/// The next level of an adaptive sweep, or the end of it (concurrency 0). `reason` says why, in a few words: it is
/// stored with the level and printed.
struct AdaptiveStep {
    int concurrency = 0;
    std::string reason;
};

/// Chooses the next concurrency from the levels measured so far (in the order they were measured): a pure function,
/// so the same levels give the same choice. Climbs from 1 while throughput per GPU rises by more than minRise and
/// interactivity stays above the lowest target, stopping at over-saturation (throughput flat, median TTFT up by more
/// than ttftGrowth); then adds a level between the neighbours that bracket an unsettled target, where the frontier
/// bends most, until every target in the measured range has a neighbour within `tolerance`, or maxLevels are spent.
AdaptiveStep nextAdaptiveLevel(const std::vector<SweepPoint>& measured, const AdaptiveOptions& options);

/// Whether `target` is bracketed: a measured level at or above it and one at or below it in interactivity, adjacent in
/// concurrency, the nearer of the two within `tolerance` of it (or no whole concurrency left between them).
bool targetBracketed(const std::vector<SweepPoint>& measured, double target, double tolerance);

} // namespace paretoscope
