#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "core/sync/synccatalog.h"

namespace paretoscope {

class RunStore;

/// A model and sequence whose readings a sync compares: a database key (the ladder's scope) and its sequence.
struct ReadingScope {
    std::string model;
    SyncSequence sequence;
    auto operator<=>(const ReadingScope&) const = default;
};

/// The readings of some scopes at one moment: per hardware and target (30 to 200 tok/s/user, the ladder's
/// defaults) the best tok/s/GPU and the group that gives it; per group (hardware, engine, precision, spec decoding)
/// its newest run date.
struct ReadingsSnapshot {
    using ReadingKey = std::tuple<ReadingScope, std::string, double>; // scope, hardware, target
    struct Reading {
        double value = 0;
        std::string group; ///< "B200 · TensorRT-LLM · FP4 · MTP"
    };
    std::map<ReadingKey, Reading> readings;
    using LineKey = std::tuple<ReadingScope, std::string>; // scope, group name
    std::map<LineKey, std::string> latestDates;
};

/// Reads the scopes' ladders (computeLadder, the CLI's and the readout's function: latest runs, total tokens) and
/// their groups' newest run dates; without `readings`, only the dates. The agentic scenario has no fixed lengths and
/// is not read.
ReadingsSnapshot snapshotReadings(RunStore& store, const std::vector<ReadingScope>& scopes, bool readings = true);

/// The snapshot after a sync, to compare with `before`: the readings of the scopes that held runs before (a scope
/// synced for the first time has no reading to have moved: its ladder is not read again), every scope's dates.
ReadingsSnapshot snapshotAfter(
    RunStore& store, const std::vector<ReadingScope>& scopes, const ReadingsSnapshot& before);

/// A reading that moved more than the threshold, appeared or went away.
struct ReadingChange {
    std::string model; ///< the display name
    std::string sequence;
    std::string hardware;
    double target = 0;
    std::optional<double> before, after; ///< tok/s/GPU
    std::string groupBefore, groupAfter;
};
/// A group whose newest run is newer than before (or that is new).
struct LineChange {
    std::string model;
    std::string sequence;
    std::string group;
    std::string before, after; ///< newest run dates; before empty for a new group
};
/// What a sync changed.
struct SyncChanges {
    std::map<std::string, std::uint64_t> newRuns; ///< per model (display name): runs stored that were not before
    std::uint64_t newEvaluations = 0;
    std::vector<LineChange> lines;
    std::vector<ReadingChange> readings;
};

/// The share a reading must move by to be reported: 5%.
inline constexpr double kReadingMoveShare = 0.05;

/// Compares two snapshots of the same scopes: the groups whose newest run date grew, the readings that moved by more
/// than kReadingMoveShare of their value before (or appeared, or went away).
void compareSnapshots(const ReadingsSnapshot& before, const ReadingsSnapshot& after, SyncChanges& out);

} // namespace paretoscope
