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

PlanConfig knotConfig(const ConfigCurve& c, const ConfigKnot& k)
{
    PlanConfig out = c.config;
    out.runId = k.runId;
    out.interactivity = k.x;
    out.tputPerGpu = k.y;
    out.concurrency = k.concurrency;
    out.avgPowerW = k.avgPowerW;
    return out;
}

// An operating point of one configuration: a knot, or the target between two adjacent knots.
struct Operating {
    const ConfigCurve* curve = nullptr;
    std::size_t knot = 0; ///< the knot (measured) or the faster neighbour (interpolated)
    bool interpolated = false, sparse = false;
    double x = 0, y = 0, sized = 0;
};

// Why no configuration qualifies, from what the qualifying knots and the skipped sparse readings say.
PlanStatus whyNot(bool anyQualifying, bool anyFaster, bool anySlower, bool skippedSparse, bool limits)
{
    if (skippedSparse)
        return PlanStatus::Sparse;
    if (!anyQualifying)
        return limits ? PlanStatus::SloNotMet : PlanStatus::NoData;
    if (anyFaster && anySlower)
        return PlanStatus::OutOfRange;
    return anyFaster ? PlanStatus::BelowRange : PlanStatus::AboveRange;
}

// The deployable reading (docs/architecture.md section 10): each configuration on its own curve, the operating point
// at or above the target (within the limits) with the most tok/s per GPU of the whole deployment.
void readDeployable(HardwarePlan& p, const std::vector<const ConfigCurve*>& curves, const PlanRequest& req,
    TputMetric metric, bool limits)
{
    const double t = req.target;
    const auto atTarget = [t](double x) { return std::abs(x - t) <= 1e-9 * t; };
    std::optional<Operating> best;
    bool anyQualifying = false, anyFaster = false, anySlower = false, skippedSparse = false, reachesTarget = false;
    auto consider = [&](const Operating& o) {
        if (!best || o.sized > best->sized)
            best = o;
    };
    for (const ConfigCurve* c : curves) {
        const double share = sizedShare(c->config, metric);
        const auto& k = c->knots;
        for (std::size_t i = 0; i < k.size(); ++i) {
            if (!k[i].meetsLimits)
                continue;
            anyQualifying = true;
            if (atTarget(k[i].x) || k[i].x > t) {
                anyFaster = anyFaster || !atTarget(k[i].x);
                if (atTarget(k[i].x))
                    reachesTarget = true;
                else if (req.exactTarget)
                    continue;
                consider({ c, i, false, false, k[i].x, k[i].y, k[i].y * share });
            } else {
                anySlower = true;
            }
            // between this knot and the next (faster) one: the target, when both meet the limits
            if (i + 1 < k.size() && k[i].x < t && t < k[i + 1].x && !atTarget(k[i + 1].x) && k[i + 1].meetsLimits) {
                const bool sparse = k[i + 1].x > kSparseGap * k[i].x;
                if (sparse && req.hideSparse) {
                    skippedSparse = true;
                    continue;
                }
                if (const auto y = c->curve.at(t)) {
                    reachesTarget = true;
                    consider({ c, i + 1, true, sparse, t, *y, *y * share });
                }
            }
        }
    }
    if (!best) {
        p.status = whyNot(anyQualifying, anyFaster, anySlower, skippedSparse && !reachesTarget, limits);
        return;
    }
    const ConfigCurve& c = *best->curve;
    p.status = reachesTarget ? PlanStatus::Ok : PlanStatus::FasterThanTarget;
    p.tputPerGpu = best->y;
    p.tputPerSizedGpu = best->sized;
    p.group = c.group;
    p.deliveredInteractivity = best->x;
    p.reading = best->interpolated ? PlanReading::Interpolated : PlanReading::Measured;
    p.sparse = best->sparse;
    p.sizing = knotConfig(c, c.knots[best->knot]);
    p.concurrency = p.sizing->concurrency;
    if (best->interpolated) {
        const ConfigKnot& slow = c.knots[best->knot - 1];
        const ConfigKnot& fast = c.knots[best->knot];
        p.lower = knotConfig(c, slow);
        // about: log concurrency against log interactivity, straight between the two
        if (slow.concurrency > 0 && fast.concurrency > 0) {
            const double f = std::log(t / fast.x) / std::log(slow.x / fast.x);
            p.concurrency = fast.concurrency * std::pow(double(slow.concurrency) / fast.concurrency, f);
        } else {
            p.concurrency = 0;
        }
    }
    if (sizedShare(c.config, metric) < 1)
        p.notes.push_back("output tok/s/GPU of a disaggregated configuration counts decode GPUs only: spread over "
                          "its prefill and decode GPUs for sizing, energy and cost");
}

// The ladder's frontier reading at the target (best group, across configurations), shown beside R.
void readFrontier(HardwarePlan& p, const std::vector<const GroupFrontier*>& mine, const PlanRequest& req)
{
    if (mine.empty())
        return;
    const LadderEntry e = readLadder(mine, { req.target }, false, req.hideSparse).front();
    p.frontierStatus = fromLadder(e.status);
    if (e.status == LadderStatus::Ok && e.value)
        p.frontierTputPerGpu = e.value;
    if (p.frontierTputPerGpu && p.tputPerGpu && *p.tputPerGpu > 0)
        p.frontierRatio = *p.frontierTputPerGpu / *p.tputPerGpu;
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
    if (!p.usdPerGpuHour || !p.sized())
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
    // the curves come in group order, hardware first (loadPlanFrontiers): this hardware's are one run of them
    const std::vector<ConfigCurve>& all = data.configCurves(metric);
    const auto from
        = std::partition_point(all.begin(), all.end(), [&](const ConfigCurve& c) { return c.group.hardware < hw; });
    std::vector<const ConfigCurve*> curves;
    for (auto it = from; it != all.end() && it->group.hardware == hw; ++it)
        curves.push_back(&*it);
    const HardwarePower* power = powers.find(hw);
    if (curves.empty()) {
        p.status = std::binary_search(data.accuracyExcluded.begin(), data.accuracyExcluded.end(), hw)
            ? PlanStatus::AccuracyNotMet
            : PlanStatus::NoData;
    } else {
        readDeployable(p, curves, req, metric, data.scope.hasSloLimits());
        readFrontier(p, mine, req);
    }
    attachPrice(p, req, pricing, power, data); // after the reading: a measured TCO power is the sizing knot's
    if (!p.read())
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

double sizedShare(const PlanConfig& c, TputMetric metric)
{
    if (metric == TputMetric::Output && c.disaggregated && c.decodeGpus > 0 && c.replicaGpus() > 0)
        return double(c.decodeGpus) / c.replicaGpus();
    return 1;
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
    case PlanStatus::FasterThanTarget:
        return "faster_than_target";
    case PlanStatus::AccuracyNotMet:
        return "accuracy_not_met";
    }
    return "no_data";
}

std::string_view planReadingName(PlanReading r)
{
    return r == PlanReading::Interpolated ? "interpolated" : "measured";
}

std::string planReadingWords(const HardwarePlan& h)
{
    if (!h.read() || !h.sizing)
        return std::string(planStatusWords(h.status));
    const auto conc = [](const PlanConfig& c) { return c.concurrency > 0 ? std::to_string(c.concurrency) : "?"; };
    // a run that does not record its concurrency (a published reading) is measured, at a concurrency not said
    const auto at = [](const PlanConfig& c) {
        return c.concurrency > 0 ? " at concurrency " + std::to_string(c.concurrency) : std::string();
    };
    if (h.status == PlanStatus::FasterThanTarget)
        return "faster than the target: " + withThousands(h.deliveredInteractivity, 1) + " tok/s/user, measured"
            + at(*h.sizing);
    if (h.reading == PlanReading::Measured)
        return "measured" + at(*h.sizing);
    const bool ascending = h.sizing->concurrency <= h.lower->concurrency;
    std::string between = "interpolated between concurrency " + conc(ascending ? *h.sizing : *h.lower) + " and "
        + conc(ascending ? *h.lower : *h.sizing);
    if (!h.sparse)
        return between;
    return "sparse: " + between + " (" + withThousands(h.sizing->interactivity / h.lower->interactivity, 1)
        + "x apart in tok/s/user)";
}

std::string deployAsText(const HardwarePlan& h)
{
    if (!h.read() || !h.sizing)
        return {};
    const PlanConfig& c = *h.sizing;
    std::string s = c.disaggregated ? std::to_string(c.prefillGpus) + "P+" + std::to_string(c.decodeGpus) + "D"
        : c.tp > 0                  ? "TP" + std::to_string(c.tp)
        : c.gpus > 0                ? std::to_string(c.gpus) + " GPUs"
                                    : "configuration not recorded";
    if (!c.disaggregated && c.tp > 0)
        s += " EP" + std::to_string(std::max(c.ep, 1));
    if (c.dpAttention)
        s += " DPA";
    if (h.reading == PlanReading::Interpolated && h.lower) {
        if (h.concurrency > 0)
            s += " at about concurrency " + std::to_string(static_cast<long long>(std::lround(h.concurrency)))
                + " (between the measured " + std::to_string(c.concurrency) + " and "
                + std::to_string(h.lower->concurrency) + ")";
        else
            s += " between two measured points";
    } else if (c.concurrency > 0) {
        s += " at concurrency " + std::to_string(c.concurrency);
    }
    return s;
}

std::string_view planStatusWords(PlanStatus s)
{
    // the statuses a ladder has too say the ladder's words (core/analysis/ladder.h): one set of status words
    switch (s) {
    case PlanStatus::Ok:
        return "at the target";
    case PlanStatus::BelowRange:
        return statusWords(LadderStatus::BelowRange);
    case PlanStatus::AboveRange:
        return statusWords(LadderStatus::AboveRange);
    case PlanStatus::OutOfRange:
        return statusWords(LadderStatus::OutOfRange);
    case PlanStatus::NoData:
        return statusWords(LadderStatus::NoData);
    case PlanStatus::Sparse:
        return statusWords(LadderStatus::Sparse);
    case PlanStatus::SloNotMet:
        return "no run meets the SLO limits";
    case PlanStatus::FasterThanTarget:
        return "faster than the target";
    case PlanStatus::AccuracyNotMet:
        return "no group meets the accuracy required";
    }
    return statusWords(LadderStatus::NoData);
}

const HardwarePlan* Plan::cheapest() const
{
    for (const HardwarePlan& h : hardware)
        if (h.cheapest)
            return &h;
    return nullptr;
}

const HardwarePlan* Plan::forHardware(const std::string& key) const
{
    for (const HardwarePlan& h : hardware)
        if (h.hardware == key)
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
