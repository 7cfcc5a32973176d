#include "core/live/validity.h"

#include <nlohmann/json.hpp>

namespace paretoscope {

ValidityInputs validityInputs(
    const SessionConfig& config, int concurrency, const LevelTelemetry& telemetry, std::optional<double> clientCpuShare)
{
    ValidityInputs in;
    in.concurrency = concurrency;
    in.closedLoop = !config.requestRate;
    in.randomWorkload = config.workload == "random";
    in.tokenIdPrompts = config.prompt == PromptKind::TokenIds && !config.chat;
    in.thinkTime = config.workload == "agentic";
    in.clientCpuShare = clientCpuShare;
    in.telemetryCoverage = telemetry.coverage;
    if (!telemetry.engineMetricsJson.empty()) {
        auto j = nlohmann::json::parse(telemetry.engineMetricsJson, nullptr, false);
        if (j.is_object() && j.contains("prefix_hit_rate") && j["prefix_hit_rate"].is_number())
            in.prefixHitRate = j["prefix_hit_rate"].get<double>();
    }
    return in;
}

std::vector<std::string> validityFlags(const LevelMetrics& m, const ValidityInputs& in)
{
    std::vector<std::string> flags;
    // the median wait: the first wave of a level without warm-ups waits for its connections, a lagging client always
    const bool waits = m.clientWait.median && m.ttft.median && *m.clientWait.median > kClientWaitShare * *m.ttft.median;
    if (waits || (in.clientCpuShare && *in.clientCpuShare >= kClientCpuShare))
        flags.push_back("client-bound");
    if (in.closedLoop && !in.thinkTime && in.concurrency > 0 && m.duration > 0
        && m.effectiveConcurrency < kMinEffectiveConcurrency * in.concurrency)
        flags.push_back("low-concurrency");
    if (in.randomWorkload && in.prefixHitRate && *in.prefixHitRate > kMaxPrefixHitRate)
        flags.push_back("prefix-cache");
    if (in.tokenIdPrompts && m.promptMismatches > 0)
        flags.push_back("prompt-mismatch");
    const long long total = m.completed + m.failed;
    if (total > 0 && static_cast<double>(m.failed) > kMaxFailedShareFlag * static_cast<double>(total))
        flags.push_back("failed");
    if (in.telemetryCoverage && *in.telemetryCoverage < kMinTelemetryCoverage)
        flags.push_back("telemetry-gaps");
    return flags;
}

std::string joinFlags(const std::vector<std::string>& flags)
{
    std::string out;
    for (const std::string& f : flags)
        out += (out.empty() ? "" : ",") + f;
    return out;
}

std::string flagDescription(const std::string& flag)
{
    if (flag == "client-bound")
        return "client-bound: requests waited in the client above 5% of the median TTFT, or the load generator used "
               "90% of a core";
    if (flag == "low-concurrency")
        return "low-concurrency: by Little's law (requests x mean E2E / duration) fewer than 90% of the nominal "
               "streams were in flight";
    if (flag == "prefix-cache")
        return "prefix-cache: the engine reported prefix-cache hits above 5% on random tokens";
    if (flag == "prompt-mismatch")
        return "prompt-mismatch: the server counted prompt tokens other than those sent";
    if (flag == "failed")
        return "failed: more than 1% of the requests failed";
    if (flag == "telemetry-gaps")
        return "telemetry-gaps: device samples cover less than 90% of the level";
    return flag;
}

} // namespace paretoscope
