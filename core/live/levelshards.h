#pragma once

#include <functional>

#include "core/live/loadgenerator.h"

namespace paretoscope {

/// runLevel with LevelOptions::clientThreads > 1: the level's users (and prompts, warm-ups, request rate) split over
/// that many clients, each a single-threaded runLevel on its own thread with its own sockets, so that the receive
/// path of a thousand streams is spread over the cores. The workload is shared under a lock (user `s` of client `k`
/// is its user s x threads + k) and reset once, at the start: a conversation begun in a warm-up goes on into the
/// measured requests. The requests come back merged onto the earliest client's time zero; `progress` is called from
/// this thread with the clients' counts summed (their medians averaged).
Result<LevelResult> runLevelSharded(const Endpoint& endpoint, Workload& workload, const LevelOptions& options,
    const std::function<bool(const LevelProgress&)>& progress);

} // namespace paretoscope
