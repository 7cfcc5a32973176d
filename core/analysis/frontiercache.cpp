#include "core/analysis/frontiercache.h"

#include <cstdio>

#include "core/analysis/scopetimeline.h"

namespace paretoscope {
namespace {
std::string limitText(const std::optional<double>& limit)
{
    if (!limit)
        return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", *limit);
    return buf;
}

std::string cacheKey(const Scope& s, TputMetric metric)
{
    std::string k = s.model + '\x1f' + (s.isl ? std::to_string(*s.isl) : "*") + '\x1f'
        + (s.osl ? std::to_string(*s.osl) : "*") + '\x1f' + s.workload + '\x1f'
        + std::to_string(static_cast<int>(metric));
    for (const auto* list : { &s.hardware, &s.engines, &s.precisions, &s.specDecoding }) {
        k += '\x1e';
        for (const auto& v : *list)
            k += v + '\x1f';
    }
    return k + '\x1e' + s.dateFrom + '\x1f' + s.dateTo + '\x1f' + (s.includeMarked ? "m" : "")
        + (s.excludeFlagged ? "f" : "") + (s.matchesNothing ? "0" : "") + '\x1f' + std::string(runSelectionName(s.runs))
        + '\x1f' + s.asOf + '\x1e' + limitText(s.ttftMax) + (s.ttftStat == LatencyStat::P99 ? "p99" : "p50") + '\x1f'
        + limitText(s.tpotMax);
}
} // namespace

FrontierCache::FrontierCache(RunStore& store)
    : m_store(store)
{
}

void FrontierCache::clear()
{
    m_entries.clear();
}

const std::vector<GroupFrontier>& FrontierCache::frontiers(const Scope& scope, TputMetric metric)
{
    const std::uint64_t version = m_store.dataVersion();
    Entry& e = m_entries[cacheKey(scope, metric)];
    if (e.valid && e.version == version)
        return e.groups;
    e.groups.clear();
    e.version = version;
    e.valid = true;
    for (auto& [key, ids] : seriesByGroup(m_store.series(scope)))
        if (auto g = selectedGroupFrontier(key, m_store.timedRuns(ids, metric, scope), scope, asOfDay(scope.asOf)))
            e.groups.push_back(std::move(*g));
    return e.groups;
}

std::vector<std::string> FrontierCache::hardware(const Scope& scope, TputMetric metric)
{
    std::vector<std::string> out;
    for (const GroupFrontier& g : frontiers(scope, metric))
        if (out.empty() || out.back() != g.key.hardware)
            out.push_back(g.key.hardware);
    return out;
}

} // namespace paretoscope
