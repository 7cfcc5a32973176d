#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/live/levelmetrics.h"
#include "core/live/levelsampler.h"
#include "core/live/sessionconfig.h"

namespace paretoscope {

/// What a level's validity flags are judged from, besides its metrics.
struct ValidityInputs {
    int concurrency = 0; ///< nominal
    bool closedLoop = true; ///< no request rate: every user sends its next request when the last one finished
    bool randomWorkload = true; ///< random tokens: nothing for a prefix cache to hit
    bool tokenIdPrompts = true; ///< prompt lengths sent are exact (text prompts are an estimate)
    bool thinkTime = false; ///< users pause between requests (agentic), so Little's law does not hold the nominal
    std::optional<double> clientCpuShare; ///< the load generator's CPU time over the level's wall time (1 = a core)
    std::optional<double> prefixHitRate; ///< the engine's prefix-cache hits over queries during the level
    std::optional<double> telemetryCoverage; ///< share of the level the device samples cover; empty: no devices
};

/// The inputs of a session's level: the workload and loop from the configuration, the prefix-cache hit rate and the
/// sample coverage from the telemetry.
ValidityInputs validityInputs(const SessionConfig& config, int concurrency, const LevelTelemetry& telemetry,
    std::optional<double> clientCpuShare);

/// The thresholds (docs/live.md, validity flags).
constexpr double kClientWaitShare = 0.05; ///< of the median TTFT
constexpr double kClientCpuShare = 0.9; ///< of one core
constexpr double kMinEffectiveConcurrency = 0.9; ///< of the nominal
constexpr double kMaxPrefixHitRate = 0.05;
constexpr double kMaxFailedShareFlag = 0.01;
constexpr double kMinTelemetryCoverage = 0.9;

/// A level's validity flags, in a fixed order: client-bound, low-concurrency, prefix-cache, prompt-mismatch, failed,
/// telemetry-gaps. Empty when the level checks out. Each flag says one reason its numbers may mislead.
std::vector<std::string> validityFlags(const LevelMetrics& metrics, const ValidityInputs& inputs);

/// The flags as stored: comma-separated, empty for none.
std::string joinFlags(const std::vector<std::string>& flags);

/// A flag in words, for tooltips and notes ("client-bound: the load generator ...").
std::string flagDescription(const std::string& flag);

} // namespace paretoscope
