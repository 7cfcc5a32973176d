#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/live/requestlog.h"
#include "core/model/runrecord.h"

namespace paretoscope {

/// Service-level objectives for goodput, in seconds; an unset one is not checked.
struct Slo {
    std::optional<double> ttft;
    std::optional<double> tpot;
    std::optional<double> e2el;
    bool any() const { return ttft || tpot || e2el; }
};

/// What one level of a sweep measured, computed as vLLM's benchmark_serving defines it (latencies in seconds,
/// throughputs in tokens/s for the whole deployment, not per GPU).
struct LevelMetrics {
    long long completed = 0;
    long long failed = 0;
    double duration = 0; ///< first measured request scheduled to the last one finished
    long long totalInput = 0;
    long long totalOutput = 0;
    double requestThroughput = 0;
    double outputThroughput = 0;
    double totalThroughput = 0;
    std::optional<double> goodput; ///< requests/s meeting every SLO; empty without SLOs
    LatencyStats ttft, tpot, itl, e2el;
    LatencyStats clientWait; ///< sent - scheduled: time requests spent queued in the client
    long long promptMismatches = 0; ///< requests whose server-counted prompt differs from what was sent
    std::map<std::string, long long> errors; ///< failure message -> count
    long long cutByTimeout = 0; ///< failed requests the client cut off at its request or stall timeout
    double effectiveConcurrency = 0; ///< Little's law: the requests' time in flight (sent to end) over the duration
};

/// The largest share of a level's measured requests that may fail while its numbers are still trusted.
constexpr double kMaxFailedShare = 0.05;

/// Why a level's numbers are not trusted, in words, or empty when they are: more than kMaxFailedShare of its requests
/// failed (the load it measured was not the load it meant), or any request was cut off by a timeout (its slowness is
/// then missing from the latencies, and one stalled request can drag the level's throughput far down).
std::string levelMark(const LevelMetrics& metrics);

/// Metrics of the measured (not warm-up) requests of a level.
LevelMetrics computeLevelMetrics(const std::vector<RequestLog>& requests, const Slo& slo = {});

/// numpy.percentile's default (linear interpolation) of sorted values; q in [0, 100].
double percentileOfSorted(const std::vector<double>& sorted, double q);

/// Mean, median, p90, p99 and p99.9 of the values (empty when there are none).
LatencyStats latencyStats(std::vector<double> values);

} // namespace paretoscope
