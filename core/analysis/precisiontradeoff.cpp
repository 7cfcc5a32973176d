#include "core/analysis/precisiontradeoff.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "core/analysis/ladderaccuracy.h"

namespace paretoscope {
namespace {

// The order precisions are shown in: fewer bits first, unknown ones after by name
int precisionRank(const std::string& p)
{
    static const std::vector<std::string> order { "fp4", "mxfp4", "nvfp4", "int4", "fp8", "int8", "fp16", "bf16" };
    const auto it = std::find(order.begin(), order.end(), p);
    return it == order.end() ? int(order.size()) : int(it - order.begin());
}

const LadderRow* readingOf(const PrecisionTradeoff& t, const std::string& precision)
{
    for (const PrecisionReading& r : t.readings)
        if (r.precision == precision && r.row.value())
            return &r.row;
    return nullptr;
}

} // namespace

Result<std::vector<PrecisionTradeoff>> precisionTradeoff(const std::vector<GroupFrontier>& groups,
    const PricingCatalog& pricing, const LadderRequest& request, const EvaluationIndex& evaluations,
    const std::string& task)
{
    std::set<std::string> precisions;
    for (const GroupFrontier& g : groups)
        precisions.insert(g.key.precision);
    std::vector<std::string> ordered(precisions.begin(), precisions.end());
    std::stable_sort(ordered.begin(), ordered.end(),
        [](const std::string& a, const std::string& b) { return precisionRank(a) < precisionRank(b); });
    std::map<std::string, PrecisionTradeoff> byHardware;
    for (const std::string& p : ordered) {
        LadderRequest req = request;
        req.targets.resize(1);
        for (const GroupFrontier& g : groups) // the other precisions' groups leave this reading
            if (g.key.precision != p)
                req.excludedGroups.push_back(g.key);
        auto ladders = computeLadder(groups, pricing, req);
        if (!ladders)
            return Error { ladders.error() };
        attachAccuracy(*ladders, evaluations, task, request.scope.asOf);
        for (HardwareLadder& l : *ladders) {
            PrecisionTradeoff& t = byHardware[l.hardware];
            t.hardware = l.hardware;
            const bool has = std::any_of(groups.begin(), groups.end(),
                [&](const GroupFrontier& g) { return g.key.hardware == l.hardware && g.key.precision == p; });
            if (has && !l.rows.empty())
                t.readings.push_back({ p, std::move(l.rows[0]) });
        }
    }
    std::vector<PrecisionTradeoff> out;
    for (auto& [hw, t] : byHardware) {
        const LadderRow* fp4 = readingOf(t, "fp4");
        const LadderRow* fp8 = readingOf(t, "fp8");
        if (fp4 && fp8) {
            t.tputRatio = *fp4->value() / *fp8->value(); // the reading chosen (LadderRequest::reading)
            if (fp4->costPerMTok && fp8->costPerMTok && *fp8->costPerMTok > 0)
                t.costRatio = *fp4->costPerMTok / *fp8->costPerMTok;
            if (fp4->accuracy && fp8->accuracy) {
                const Accuracy& a = fp4->accuracy->accuracy;
                const Accuracy& b = fp8->accuracy->accuracy;
                t.accuracyDifference = a.value - b.value;
                t.differenceError = std::sqrt(a.standardError * a.standardError + b.standardError * b.standardError);
                t.withinError = paretoscope::withinError(a, b);
            }
        }
        out.push_back(std::move(t));
    }
    return out;
}

} // namespace paretoscope
