#include "core/analysis/planbudget.h"

#include <algorithm>
#include <cmath>

#include "core/analysis/numberformat.h"

namespace paretoscope {
namespace {

// What one GPU takes of the budget: all-in MW, or $/month; nothing where the hardware has no power figure or price.
std::optional<double> perGpu(const HardwarePlan& h, BudgetKind kind, const HardwarePowerCatalog& powers)
{
    if (kind == BudgetKind::UsdPerMonth)
        return h.usdPerGpuHour ? std::optional<double>(*h.usdPerGpuHour * kHoursPerMonth) : std::nullopt;
    const HardwarePower* power = powers.find(h.hardware);
    return power && power->allInKw > 0 ? std::optional<double>(power->allInKw / 1000.0) : std::nullopt;
}

// The deployment of `gpus` GPUs (whole replicas) and what it serves, written over the demand plan's sizing.
void deploy(BudgetHardware& b, long long replicas, long long gpus, const PlanRequest& req,
    const std::optional<std::pair<int, int>>& lengths, TputMetric metric, const HardwarePowerCatalog& powers)
{
    HardwarePlan& h = b.plan;
    h.replicas = replicas;
    h.gpus = gpus;
    h.gpusExact = double(gpus);
    const double n = h.gpusPerNode > 0 ? h.gpusPerNode : 8;
    const double r = h.replicaGpus;
    h.nodes = r > n ? replicas * static_cast<long long>(std::ceil(r / n))
                    : static_cast<long long>(std::ceil(double(gpus) / n));
    if (const HardwarePower* power = powers.find(h.hardware)) {
        h.powerKw = double(gpus) * power->allInKw;
        h.powerMw = *h.powerKw / 1000.0;
        h.gpuTdpKw = double(gpus) * power->tdpW / 1000.0;
    }
    if (h.usdPerGpuHour) {
        h.costPerHour = double(gpus) * *h.usdPerGpuHour;
        h.costPerMonth = *h.costPerHour * kHoursPerMonth;
    }
    h.costPerMTokEffective.reset();
    h.cheapest = false;
    // the headroom stays spare: the demand plan sizes D x (1 + h) on these GPUs
    b.servedTokPerS = double(gpus) * *h.tputPerSizedGpu / (1 + req.headroom);
    const double share = lengths ? double(lengths->second) / (lengths->first + lengths->second) : 0;
    if (metric == TputMetric::Output) {
        b.outputTokPerS = b.servedTokPerS;
        if (lengths)
            b.totalTokPerS = b.servedTokPerS / share;
    } else {
        b.totalTokPerS = b.servedTokPerS;
        if (lengths)
            b.outputTokPerS = b.servedTokPerS * share;
    }
    if (b.outputTokPerS)
        b.users = *b.outputTokPerS / req.target;
    if (b.totalTokPerS && lengths)
        b.requestsPerS = *b.totalTokPerS / (lengths->first + lengths->second);
    if (h.usdPerGpuHour && b.servedTokPerS > 0)
        h.costPerMTokEffective = *h.costPerHour / (b.servedTokPerS * 3600.0) * 1e6;
}

} // namespace

std::string_view budgetKindName(BudgetKind k)
{
    return k == BudgetKind::UsdPerMonth ? "usd_per_month" : "mw";
}

Result<BudgetPlan> computeBudgetPlan(const PlanFrontiers& data, const PlanRequest& request, BudgetKind kind,
    double amount, const PricingCatalog& pricing, const HardwarePowerCatalog& powers)
{
    const double most = kind == BudgetKind::Megawatts ? kMaxBudgetMw : kMaxBudgetUsdPerMonth;
    const std::string unit = kind == BudgetKind::Megawatts ? " MW" : " $/month";
    if (!(amount > 0) || !std::isfinite(amount))
        return Error { "the budget must be a number above zero (" + std::string(unit.substr(1)) + ")" };
    if (amount > most)
        return Error { "the budget is " + shortNumber(amount) + unit + ", more than a plan counts (at most "
            + shortNumber(most) + unit + ")" };
    // the demand plan at a nominal demand gives each hardware's reading, replica, price and power
    PlanRequest nominal = request;
    const TputMetric metric = demandMetric(request.unit);
    nominal.unit = metric == TputMetric::Output ? DemandUnit::OutputTokPerS : DemandUnit::TokPerS;
    nominal.demand = 1;
    auto plan = computePlan(data, nominal, pricing, powers);
    if (!plan)
        return Error { plan.error() };
    BudgetPlan out;
    out.kind = kind;
    out.amount = amount;
    out.target = plan->target;
    out.metric = metric;
    for (HardwarePlan& h : plan->hardware) {
        BudgetHardware b;
        b.plan = std::move(h);
        HardwarePlan& p = b.plan;
        const std::optional<double> each = perGpu(p, kind, powers);
        if (!p.sized()) {
            b.why = std::string(planStatusWords(p.status));
        } else if (!each) {
            b.why = kind == BudgetKind::Megawatts ? "no power figure (resources/hardware_power.json)"
                                                  : "no price under this cost model";
        } else {
            const long long r = p.replicaGpus > 0 ? p.replicaGpus : 1;
            b.replicaCost = double(r) * *each;
            // whole replicas; a budget that is a whole number of them on paper buys that many
            const double whole = std::floor(amount / b.replicaCost * (1 + 1e-12));
            const long long replicas
                = whole >= 1 && whole * double(r) <= kMaxBudgetGpus ? static_cast<long long>(whole) : 0;
            if (!(b.replicaCost > 0) || !std::isfinite(b.replicaCost)) {
                b.why = kind == BudgetKind::Megawatts ? "no power figure above zero"
                                                      : "a price of $0 buys no number of GPUs";
            } else if (whole * double(r) > kMaxBudgetGpus) {
                b.why = "the budget buys more than 1e12 GPUs: not sized";
            } else if (replicas < 1) {
                b.why = "one replica (" + std::to_string(r) + " GPUs) takes " + shortNumber(b.replicaCost) + unit;
            } else {
                b.fits = true;
                deploy(b, p.replicaGpus > 0 ? replicas : 0, replicas * r, request, data.lengths, metric, powers);
                out.hardware.push_back(std::move(b));
                continue;
            }
        }
        // nothing deployed: no counts, no cost
        p.gpus = p.replicas = p.nodes = 0;
        p.gpusExact = 0;
        p.powerKw = p.powerMw = p.gpuTdpKw = p.costPerHour = p.costPerMonth = p.costPerMTokEffective = std::nullopt;
        p.cheapest = false;
        out.hardware.push_back(std::move(b));
    }
    // the first of those that serve the most
    double bestServed = 0;
    for (const BudgetHardware& b : out.hardware)
        bestServed = std::max(bestServed, b.servedTokPerS);
    for (BudgetHardware& b : out.hardware)
        if (b.fits && b.servedTokPerS == bestServed) {
            b.most = true;
            break;
        }
    return out;
}

} // namespace paretoscope
