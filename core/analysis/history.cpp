#include "core/analysis/history.h"

#include "core/analysis/baseline.h"

namespace paretoscope {
namespace {

// The request with every hardware of the timeline named, so that a day without a hardware's runs still has its row.
LadderRequest withHardware(LadderRequest request, const ScopeTimeline& timeline)
{
    if (request.scope.hardware.empty())
        request.scope.hardware = timeline.hardware();
    return request;
}

} // namespace

Result<std::vector<HardwareHistory>> computeHistory(
    const ScopeTimeline& timeline, const PricingCatalog& pricing, const HistoryRequest& request)
{
    LadderRequest ladder;
    ladder.scope = request.scope;
    ladder.targets = { request.target };
    ladder.metric = request.metric;
    ladder.price = request.price;
    ladder.hideSparse = request.hideSparse;
    // the history is of the site's reading, the frontier's: its value and its cost (docs/architecture.md 10.5)
    ladder.reading = Reading::Frontier;
    ladder = withHardware(std::move(ladder), timeline);
    if (auto price = priceFor(pricing, request.price, ""); !price)
        return Error { price.error() };
    std::vector<HardwareHistory> out;
    out.reserve(ladder.scope.hardware.size());
    for (const std::string& hw : ladder.scope.hardware)
        out.push_back({ hw, {} });
    timeline.forEachDay([&](std::size_t d, const std::vector<GroupFrontier>& frontiers) {
        auto ladders = computeLadder(frontiers, pricing, ladder);
        if (!ladders)
            return;
        for (std::size_t i = 0; i < ladders->size() && i < out.size(); ++i)
            out[i].points.push_back({ timeline.days()[d], (*ladders)[i].rows.front() });
    });
    return out;
}

Result<std::vector<HardwareDiff>> computeDiff(
    const ScopeTimeline& timeline, const PricingCatalog& pricing, const LadderRequest& request, int before, int after)
{
    const LadderRequest ladder = withHardware(request, timeline);
    auto first = computeLadder(timeline.frontiersAsOf(before), pricing, ladder);
    if (!first)
        return Error { first.error() };
    auto second = computeLadder(timeline.frontiersAsOf(after), pricing, ladder);
    if (!second)
        return Error { second.error() };
    std::vector<HardwareDiff> out;
    for (std::size_t i = 0; i < first->size() && i < second->size(); ++i) {
        HardwareDiff h { (*first)[i].hardware, {} };
        for (std::size_t j = 0; j < (*first)[i].rows.size(); ++j) {
            DiffRow row { (*first)[i].rows[j], (*second)[i].rows[j], std::nullopt, false };
            const auto& a = row.before.entry.value;
            const auto& b = row.after.entry.value;
            if (a && b && *a > 0)
                row.changePct = 100.0 * (*b / *a - 1.0);
            row.withinSpread = spreadsOverlap(row.before.entry, row.after.entry);
            h.rows.push_back(std::move(row));
        }
        out.push_back(std::move(h));
    }
    return out;
}

} // namespace paretoscope
