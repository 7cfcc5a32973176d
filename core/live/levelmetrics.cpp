#include "core/live/levelmetrics.h"

#include <cstdio>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace paretoscope {

double percentileOfSorted(const std::vector<double>& sorted, double q)
{
    if (sorted.empty())
        return std::numeric_limits<double>::quiet_NaN();
    double rank = q / 100.0 * static_cast<double>(sorted.size() - 1);
    auto lo = static_cast<std::size_t>(std::floor(rank));
    std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    double frac = rank - static_cast<double>(lo);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

LatencyStats latencyStats(std::vector<double> values)
{
    LatencyStats s;
    if (values.empty())
        return s;
    std::sort(values.begin(), values.end());
    s.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
    s.median = percentileOfSorted(values, 50);
    s.p90 = percentileOfSorted(values, 90);
    s.p99 = percentileOfSorted(values, 99);
    s.p999 = percentileOfSorted(values, 99.9);
    return s;
}

LevelMetrics computeLevelMetrics(const std::vector<RequestLog>& requests, const Slo& slo)
{
    LevelMetrics m;
    std::vector<double> ttfts, tpots, itls, e2els, waits;
    double start = std::numeric_limits<double>::infinity(), end = -std::numeric_limits<double>::infinity();
    long long good = 0;
    double inFlight = 0;
    for (const RequestLog& r : requests) {
        if (r.warmup)
            continue;
        start = std::min(start, r.scheduled);
        end = std::max(end, r.end);
        waits.push_back(std::max(0.0, r.sent - r.scheduled));
        inFlight += std::max(0.0, r.end - r.sent);
        if (!r.ok()) {
            ++m.failed;
            ++m.errors[r.error];
            if (r.cutByTimeout())
                ++m.cutByTimeout;
            continue;
        }
        ++m.completed;
        m.totalInput += r.serverPromptTokens >= 0 ? r.serverPromptTokens : r.inputTokens;
        m.totalOutput += r.outputTokens;
        if (r.serverPromptTokens >= 0 && r.serverPromptTokens != r.inputTokens)
            ++m.promptMismatches;
        double ttft = r.firstToken - r.sent;
        double e2el = r.end - r.sent;
        ttfts.push_back(ttft);
        e2els.push_back(e2el);
        // vLLM: TPOT only for requests with more than one output token; ITL is every gap between chunks
        double tpot = 0;
        if (r.outputTokens > 1) {
            tpot = (e2el - ttft) / (r.outputTokens - 1);
            tpots.push_back(tpot);
        }
        for (std::size_t i = 1; i < r.chunks.size(); ++i)
            itls.push_back(static_cast<double>(r.chunks[i]) - static_cast<double>(r.chunks[i - 1]));
        bool meets
            = (!slo.ttft || ttft <= *slo.ttft) && (!slo.tpot || tpot <= *slo.tpot) && (!slo.e2el || e2el <= *slo.e2el);
        good += meets ? 1 : 0;
    }
    if (m.completed + m.failed == 0)
        return m;
    m.duration = std::max(0.0, end - start);
    if (m.duration > 0) {
        m.effectiveConcurrency = inFlight / m.duration;
        m.requestThroughput = static_cast<double>(m.completed) / m.duration;
        m.outputThroughput = static_cast<double>(m.totalOutput) / m.duration;
        m.totalThroughput = static_cast<double>(m.totalInput + m.totalOutput) / m.duration;
        if (slo.any())
            m.goodput = static_cast<double>(good) / m.duration;
    }
    m.ttft = latencyStats(std::move(ttfts));
    m.tpot = latencyStats(std::move(tpots));
    m.itl = latencyStats(std::move(itls));
    m.e2el = latencyStats(std::move(e2els));
    m.clientWait = latencyStats(std::move(waits));
    return m;
}

std::string levelMark(const LevelMetrics& m)
{
    const long long total = m.completed + m.failed;
    std::string why;
    if (total > 0 && static_cast<double>(m.failed) > kMaxFailedShare * static_cast<double>(total)) {
        char share[16];
        std::snprintf(
            share, sizeof share, "%.0f%%", 100.0 * static_cast<double>(m.failed) / static_cast<double>(total));
        why = std::to_string(m.failed) + " of " + std::to_string(total) + " requests failed (" + share + ", more than "
            + std::to_string(static_cast<int>(kMaxFailedShare * 100)) + "%)";
    }
    if (m.cutByTimeout > 0)
        why += (why.empty() ? "" : "; ") + std::to_string(m.cutByTimeout)
            + (m.cutByTimeout == 1 ? " request was" : " requests were") + " cut off by a timeout";
    return why;
}

} // namespace paretoscope
