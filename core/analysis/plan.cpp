#include "core/analysis/plan.h"

#include <algorithm>
#include <cmath>

#include "core/analysis/numberformat.h"
#include "core/model/hardware.h"

namespace paretoscope {
namespace {

constexpr DemandUnit kUnits[] { DemandUnit::TokPerS, DemandUnit::OutputTokPerS, DemandUnit::TokPerDay,
    DemandUnit::ReqPerS, DemandUnit::Users };

// The largest GPU count a plan sizes: beyond it the demand is not a deployment but a typo.
constexpr double kMaxGpus = 1e12;

// ceil that forgives the rounding error of a quotient which is a whole number on paper (16.000000000000004).
double wholeAbove(double x)
{
    return std::ceil(x * (1 - 1e-12));
}

bool hasLimits(const Scope& s)
{
    return s.ttftMax.has_value() || s.tpotMax.has_value();
}

PlanStatus fromLadder(LadderStatus s)
{
    switch (s) {
    case LadderStatus::Ok:
        return PlanStatus::Ok;
    case LadderStatus::BelowRange:
        return PlanStatus::BelowRange;
    case LadderStatus::AboveRange:
        return PlanStatus::AboveRange;
    case LadderStatus::OutOfRange:
        return PlanStatus::OutOfRange;
    case LadderStatus::Sparse:
        return PlanStatus::Sparse;
    case LadderStatus::NoData:
        break;
    }
    return PlanStatus::NoData;
}

Status checkRequest(const PlanRequest& r, const PricingCatalog& pricing)
{
    if (!(r.target > 0) || !std::isfinite(r.target))
        return Error { "the target must be a number above zero (tok/s/user)" };
    if (!(r.headroom >= 0) || !std::isfinite(r.headroom))
        return Error { "the headroom must be a fraction >= 0 (0.25 plans for 125% of the demand)" };
    for (const auto& [hw, n] : r.gpusPerNode)
        if (n <= 0)
            return Error { "GPUs per node for " + hw + " must be a whole number above zero" };
    if (!r.tco)
        if (auto p = priceFor(pricing, r.price, ""); !p)
            return Error { p.error() };
    return ok();
}

// The frontier knots on each side of the target: the sizing knot (smallest x at or above it) and the lower one.
void attachKnots(HardwarePlan& p, const GroupFrontier& g, double target, const PlanFrontiers& data)
{
    auto knot = [&](const Point& pt) {
        auto it = data.configs.find(pt.runId);
        PlanConfig c = it == data.configs.end() ? PlanConfig {} : it->second;
        c.runId = pt.runId;
        c.interactivity = pt.x;
        c.tputPerGpu = pt.y;
        return c;
    };
    auto above = std::lower_bound(
        g.points.begin(), g.points.end(), target, [](const Point& pt, double t) { return pt.x < t; });
    if (above != g.points.end())
        p.sizing = knot(*above);
    auto below = std::upper_bound(
        g.points.begin(), g.points.end(), target, [](double t, const Point& pt) { return t < pt.x; });
    if (below != g.points.begin())
        p.lower = knot(*std::prev(below));
}

// The reading at the target: the status, and with Ok the best group's value and knots.
void readAt(HardwarePlan& p, const std::vector<const GroupFrontier*>& mine, const PlanRequest& req,
    const PlanFrontiers& data, TputMetric metric)
{
    const LadderEntry e = readLadder(mine, { req.target }, false, req.hideSparse).front();
    p.status = fromLadder(e.status);
    if (e.status != LadderStatus::Ok || !e.value || !e.group)
        return;
    p.tputPerGpu = e.value;
    p.group = e.group;
    p.sparse = e.sparse;
    for (const GroupFrontier* g : mine)
        if (g->key == *e.group)
            attachKnots(p, *g, req.target, data);
    double share = 1;
    if (metric == TputMetric::Output && p.sizing && p.sizing->disaggregated && p.sizing->decodeGpus > 0
        && p.sizing->replicaGpus() > 0) {
        share = double(p.sizing->decodeGpus) / p.sizing->replicaGpus();
        p.notes.push_back("output tok/s/GPU of a disaggregated configuration counts decode GPUs only: spread over "
                          "its prefill and decode GPUs for sizing, energy and cost");
    }
    p.tputPerSizedGpu = *p.tputPerGpu * share;
}

// GPUs, replicas and nodes for a demand D (tokens/s of the metric).
void sizeFor(HardwarePlan& p, double demand, const PlanRequest& req, const HardwarePower* power)
{
    auto override = req.gpusPerNode.find(p.hardware);
    p.gpusPerNode = override != req.gpusPerNode.end() ? override->second : power ? power->gpusPerNode : 8;
    p.nodeUnit = power ? power->nodeUnit : "node";
    if (override == req.gpusPerNode.end() && !power)
        p.notes.push_back("GPUs per node unknown for " + p.hardware + ": 8 assumed (set it with --gpus-per-node)");
    p.gpusExact = demand * (1 + req.headroom) / *p.tputPerSizedGpu;
    if (!(p.gpusExact <= kMaxGpus)) {
        p.notes.push_back("the demand needs more than 1e12 GPUs: not sized");
        return;
    }
    p.replicaGpus = p.sizing ? p.sizing->replicaGpus() : 0;
    const double n = p.gpusPerNode;
    if (p.replicaGpus > 0) {
        const double r = p.replicaGpus;
        p.replicas = static_cast<long long>(wholeAbove(p.gpusExact / r));
        p.gpus = p.replicas * p.replicaGpus;
        p.nodes = r > n ? p.replicas * static_cast<long long>(std::ceil(r / n))
                        : static_cast<long long>(std::ceil(double(p.gpus) / n));
    } else {
        p.gpus = static_cast<long long>(wholeAbove(p.gpusExact));
        p.nodes = static_cast<long long>(std::ceil(double(p.gpus) / n));
        p.notes.push_back("the configuration's GPU count is not recorded: rounded to whole GPUs, not replicas");
    }
}

void attachEnergy(HardwarePlan& p, const HardwarePower* power)
{
    const double share = *p.tputPerSizedGpu / *p.tputPerGpu;
    if (p.sizing && p.sizing->avgPowerW)
        p.measuredJPerToken = measuredJoulesPerToken(p.sizing->avgPowerW, p.sizing->tputPerGpu * share);
    if (!power) {
        p.notes.push_back("no power figure for " + p.hardware + " (resources/hardware_power.json)");
        return;
    }
    p.powerKw = double(p.gpus) * power->allInKw;
    p.powerMw = *p.powerKw / 1000.0;
    p.gpuTdpKw = double(p.gpus) * power->tdpW / 1000.0;
    p.energyJPerToken = allInJoulesPerToken(power->allInKw, *p.tputPerSizedGpu);
    p.tokensPerSPerMw = tokensPerSecondPerAllInMegawatt(power->allInKw, *p.tputPerSizedGpu);
}

// The $/GPU/hr of the hardware under the request's cost model; notes say why there is none.
void attachPrice(HardwarePlan& p, const PlanRequest& req, const PricingCatalog& pricing, const HardwarePower* power,
    const PlanFrontiers& data)
{
    if (req.tco) {
        p.priceSource = "tco";
        const TcoEntry* entry = req.tco->find(p.hardware);
        if (!entry) {
            p.notes.push_back("the TCO model has no entry for " + p.hardware);
            return;
        }
        std::optional<double> measured = p.sizing ? p.sizing->avgPowerW : std::nullopt;
        if (auto it = data.measuredGpuW.find(p.hardware); !measured && it != data.measuredGpuW.end())
            measured = it->second;
        auto cost = tcoCost(*entry, power, measured);
        if (!cost) {
            p.notes.push_back(cost.error());
            return;
        }
        if (!cost->note.empty())
            p.notes.push_back(cost->note);
        p.usdPerGpuHour = cost->usdPerGpuHour;
        p.tco = std::move(*cost);
        return;
    }
    p.priceSource = req.price.customUsdPerGpuHour ? "custom"
        : req.price.tierKey.empty()               ? pricing.defaultTier().key
                                                  : req.price.tierKey;
    if (auto price = priceFor(pricing, req.price, p.hardware); price && *price)
        p.usdPerGpuHour = **price;
    else
        p.notes.push_back("tier " + p.priceSource + " has no price for " + p.hardware);
}

void attachCost(HardwarePlan& p, double demand)
{
    if (!p.usdPerGpuHour || p.status != PlanStatus::Ok || p.gpus <= 0)
        return;
    p.costPerHour = double(p.gpus) * *p.usdPerGpuHour;
    p.costPerMonth = *p.costPerHour * kHoursPerMonth;
    p.costPerMTok = costPerMillionTokens(*p.usdPerGpuHour, *p.tputPerSizedGpu);
    p.costPerMTokEffective = *p.costPerHour / (demand * 3600.0) * 1e6;
}

HardwarePlan planHardware(const std::string& hw, const PlanFrontiers& data, const PlanRequest& req, double demand,
    const PricingCatalog& pricing, const HardwarePowerCatalog& powers)
{
    const TputMetric metric = demandMetric(req.unit);
    HardwarePlan p;
    p.hardware = hw;
    std::vector<const GroupFrontier*> mine;
    for (const GroupFrontier& g : data.frontiers(metric))
        if (g.key.hardware == hw)
            mine.push_back(&g);
    const HardwarePower* power = powers.find(hw);
    if (mine.empty()) {
        const bool seen = std::binary_search(data.hardwareWithoutLimits.begin(), data.hardwareWithoutLimits.end(), hw);
        const bool meets = std::any_of(
            data.total.begin(), data.total.end(), [&](const GroupFrontier& g) { return g.key.hardware == hw; });
        p.status = hasLimits(data.scope) && seen && !meets ? PlanStatus::SloNotMet : PlanStatus::NoData;
    } else {
        readAt(p, mine, req, data, metric);
    }
    attachPrice(p, req, pricing, power, data); // after the reading: a measured TCO power is the sizing knot's
    if (p.status != PlanStatus::Ok)
        return p;
    sizeFor(p, demand, req, power);
    if (p.gpus <= 0)
        return p;
    attachEnergy(p, power);
    attachCost(p, demand);
    return p;
}

} // namespace

std::string_view demandUnitName(DemandUnit u)
{
    switch (u) {
    case DemandUnit::TokPerS:
        return "tok/s";
    case DemandUnit::OutputTokPerS:
        return "output-tok/s";
    case DemandUnit::TokPerDay:
        return "tok/day";
    case DemandUnit::ReqPerS:
        return "req/s";
    case DemandUnit::Users:
        return "users";
    }
    return "tok/s";
}

std::optional<DemandUnit> parseDemandUnit(std::string_view name)
{
    for (DemandUnit u : kUnits)
        if (demandUnitName(u) == name)
            return u;
    return std::nullopt;
}

TputMetric demandMetric(DemandUnit u)
{
    return u == DemandUnit::OutputTokPerS || u == DemandUnit::Users ? TputMetric::Output : TputMetric::Total;
}

int PlanConfig::replicaGpus() const
{
    if (disaggregated)
        return prefillGpus > 0 && decodeGpus > 0 ? prefillGpus + decodeGpus : 0;
    return gpus;
}

std::string_view planStatusName(PlanStatus s)
{
    switch (s) {
    case PlanStatus::Ok:
        return "ok";
    case PlanStatus::BelowRange:
        return "below_range";
    case PlanStatus::AboveRange:
        return "above_range";
    case PlanStatus::OutOfRange:
        return "out_of_range";
    case PlanStatus::NoData:
        return "no_data";
    case PlanStatus::Sparse:
        return "sparse";
    case PlanStatus::SloNotMet:
        return "slo_not_met";
    }
    return "no_data";
}

std::string_view planStatusWords(PlanStatus s)
{
    switch (s) {
    case PlanStatus::Ok:
        return "measured";
    case PlanStatus::BelowRange:
        return "below the measured range";
    case PlanStatus::AboveRange:
        return "above the measured range";
    case PlanStatus::OutOfRange:
        return "between measured ranges";
    case PlanStatus::NoData:
        return "no runs";
    case PlanStatus::Sparse:
        return "only sparse readings";
    case PlanStatus::SloNotMet:
        return "no run meets the SLO limits";
    }
    return "no runs";
}

const HardwarePlan* Plan::cheapest() const
{
    for (const HardwarePlan& h : hardware)
        if (h.cheapest)
            return &h;
    return nullptr;
}

namespace {

Result<double> demandInTokens(
    double demand, DemandUnit unit, double target, const std::optional<std::pair<int, int>>& lengths)
{
    switch (unit) {
    case DemandUnit::TokPerS:
    case DemandUnit::OutputTokPerS:
        return demand;
    case DemandUnit::TokPerDay:
        return demand / 86400.0;
    case DemandUnit::ReqPerS:
        if (!lengths)
            return Error { "a demand in req/s needs fixed input and output lengths, and this scope's workload has "
                           "none (give --isl and --osl, or a demand in tok/s, output-tok/s, tok/day or users)" };
        return demand * (lengths->first + lengths->second);
    case DemandUnit::Users:
        return demand * target;
    }
    return demand;
}

} // namespace

Result<double> demandTokensPerSecond(
    double demand, DemandUnit unit, double target, const std::optional<std::pair<int, int>>& lengths)
{
    if (!(demand > 0) || !std::isfinite(demand))
        return Error { "the demand must be a number above zero" };
    auto tokens = demandInTokens(demand, unit, target, lengths);
    if (!tokens)
        return tokens;
    // a plan is sized in whole GPUs and priced per token: past these the answer is no number at all
    if (*tokens < kMinDemandTokPerS)
        return Error { "the demand is " + shortNumber(*tokens) + " tok/s, too small to size (at least "
            + shortNumber(kMinDemandTokPerS) + " tok/s)" };
    if (*tokens > kMaxDemandTokPerS)
        return Error { "the demand is " + shortNumber(*tokens) + " tok/s, too large to size (at most "
            + shortNumber(kMaxDemandTokPerS) + " tok/s)" };
    return tokens;
}

Result<Plan> computePlan(
    const PlanFrontiers& data, const PlanRequest& req, const PricingCatalog& pricing, const HardwarePowerCatalog& power)
{
    if (auto s = checkRequest(req, pricing); !s)
        return Error { s.error() };
    auto demand = demandTokensPerSecond(req.demand, req.unit, req.target, data.lengths);
    if (!demand)
        return Error { demand.error() };
    Plan plan;
    plan.target = req.target;
    plan.demandTokensPerSecond = *demand;
    plan.metric = demandMetric(req.unit);
    std::vector<std::string> hardware = data.hardwareWithoutLimits;
    if (!req.scope.hardware.empty()) {
        hardware.clear();
        for (const std::string& h : req.scope.hardware)
            hardware.push_back(normalizedKey(h));
        std::sort(hardware.begin(), hardware.end());
        hardware.erase(std::unique(hardware.begin(), hardware.end()), hardware.end());
    }
    if (data.scope.matchesNothing || req.scope.matchesNothing)
        hardware.clear();
    plan.hardware.reserve(hardware.size());
    for (const std::string& hw : hardware)
        plan.hardware.push_back(planHardware(hw, data, req, *demand, pricing, power));
    HardwarePlan* cheapest = nullptr; // the first of equal ones; a cost that is no finite number is never cheapest
    for (HardwarePlan& h : plan.hardware)
        if (h.costPerMonth && std::isfinite(*h.costPerMonth)
            && (!cheapest || *h.costPerMonth < *cheapest->costPerMonth))
            cheapest = &h;
    if (cheapest)
        cheapest->cheapest = true;
    return plan;
}

Result<std::vector<Plan>> costOfSpeed(const PlanFrontiers& data, const PlanRequest& request,
    const std::vector<double>& targets, const PricingCatalog& pricing, const HardwarePowerCatalog& power)
{
    std::vector<Plan> out;
    out.reserve(targets.size());
    PlanRequest r = request;
    for (double t : targets) {
        r.target = t;
        auto plan = computePlan(data, r, pricing, power);
        if (!plan)
            return Error { plan.error() };
        out.push_back(std::move(*plan));
    }
    return out;
}

} // namespace paretoscope
