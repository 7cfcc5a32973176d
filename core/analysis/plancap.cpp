#include "core/analysis/plancap.h"

#include <algorithm>
#include <cmath>

#include "core/analysis/numberformat.h"

namespace paretoscope {
namespace {

// The highest interactivity among one hardware's operating points (section 12.2) with at least `need` tok/s per sized
// GPU; `cheapestY` the most tok/s per sized GPU any of them has (0 when none qualifies).
struct Fastest {
    std::optional<double> x;
    double cheapestY = 0;
};

Fastest fastestWithin(const std::vector<const ConfigCurve*>& curves, TputMetric metric, double need, bool hideSparse)
{
    Fastest f;
    auto take = [&f](double x) { f.x = f.x ? std::max(*f.x, x) : x; };
    for (const ConfigCurve* c : curves) {
        const double share = sizedShare(c->config, metric);
        const auto& k = c->knots;
        for (std::size_t i = 0; i < k.size(); ++i) {
            if (!k[i].meetsLimits)
                continue;
            const double y = k[i].y * share;
            f.cheapestY = std::max(f.cheapestY, y);
            if (y < need)
                continue;
            take(k[i].x);
            // the cap is met at this knot, not at the next (faster) one: where between them the curve meets it
            if (i + 1 >= k.size() || !k[i + 1].meetsLimits || k[i + 1].y * share >= need)
                continue;
            if (hideSparse && k[i + 1].x > kSparseGap * k[i].x)
                continue;
            double lo = k[i].x, hi = k[i + 1].x;
            for (int step = 0; step < 64 && hi - lo > 1e-12 * hi; ++step) {
                const double mid = 0.5 * (lo + hi);
                const auto v = c->curve.at(mid);
                (v && *v * share >= need ? lo : hi) = mid;
            }
            take(lo);
        }
    }
    return f;
}

} // namespace

Result<CapPlan> computeCostCap(const PlanFrontiers& data, const PlanRequest& request, double cap,
    const PricingCatalog& pricing, const HardwarePowerCatalog& power)
{
    if (!(cap > 0) || !std::isfinite(cap))
        return Error { "the cost cap must be a number above zero ($ per million tokens)" };
    auto base = computePlan(data, request, pricing, power); // checks the request; each hardware's price
    if (!base)
        return Error { base.error() };
    CapPlan out;
    out.capUsdPerMTok = cap;
    out.demandTokensPerSecond = base->demandTokensPerSecond;
    out.metric = base->metric;
    const std::vector<ConfigCurve>& all = data.configCurves(out.metric);
    for (HardwarePlan& h : base->hardware) {
        CapHardware c;
        c.hardware = h.hardware;
        std::vector<const ConfigCurve*> curves;
        for (const ConfigCurve& curve : all)
            if (curve.group.hardware == h.hardware)
                curves.push_back(&curve);
        c.demandTokensPerSecond = out.demandTokensPerSecond;
        if (!h.usdPerGpuHour) {
            c.why = "no price under this cost model";
        } else {
            // the list cost $/GPU/hr / (R x 3600) x 1e6 is within the cap from this R up. A TCO model on measured
            // power prices each operating point by its own power: the price is read again where the cap is met,
            // and the search repeated at that price, until the plan there is within the cap (a few passes)
            double price = *h.usdPerGpuHour;
            Fastest f;
            for (int pass = 0; pass < 4 && c.why.empty(); ++pass) {
                const double need = price * 1e6 / (3600.0 * cap);
                f = fastestWithin(curves, out.metric, need, request.hideSparse);
                if (!f.x)
                    break;
                PlanRequest at = request;
                at.target = *f.x;
                at.exactTarget = false;
                at.scope.hardware = { h.hardware };
                auto plan = computePlan(data, at, pricing, power);
                if (!plan || plan->hardware.empty()) {
                    c.why = "no plan at " + shortNumber(*f.x) + " tok/s/user: " + (plan ? "no reading" : plan.error());
                    break;
                }
                HardwarePlan& there = plan->hardware.front();
                if (there.costPerMTok && *there.costPerMTok <= cap * (1 + 1e-9)) {
                    c.interactivity = f.x;
                    c.demandTokensPerSecond = plan->demandTokensPerSecond; // users x this interactivity for users
                    c.plan = std::move(there);
                    c.plan.cheapest = false;
                    break;
                }
                if (!there.usdPerGpuHour || !(*there.usdPerGpuHour > price))
                    break;
                price = *there.usdPerGpuHour;
            }
            if (c.interactivity) {
                out.hardware.push_back(std::move(c));
                continue;
            }
            if (c.why.empty())
                c.why = f.cheapestY > 0
                    ? "no configuration is within the cap: the least is " + money(price * 1e6 / (3600.0 * f.cheapestY))
                        + " per million tokens"
                    : std::string(planStatusWords(curves.empty() ? PlanStatus::NoData : PlanStatus::SloNotMet));
        }
        c.plan = std::move(h);
        c.plan.cheapest = false;
        out.hardware.push_back(std::move(c));
    }
    CapHardware* fastest = nullptr;
    for (CapHardware& c : out.hardware)
        if (c.interactivity && (!fastest || *c.interactivity > *fastest->interactivity))
            fastest = &c;
    if (fastest)
        fastest->fastest = true;
    return out;
}

} // namespace paretoscope
