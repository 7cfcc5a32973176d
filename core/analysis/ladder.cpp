#include "core/analysis/ladder.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/analysis/energy.h"
#include "core/analysis/frontiercache.h"
#include "core/analysis/numberformat.h"
#include "core/model/displaynames.h"
#include "core/model/runselection.h"

namespace paretoscope {

std::optional<GroupFrontier> makeGroupFrontier(GroupKey key, std::vector<Point> candidates)
{
    GroupFrontier g;
    g.key = std::move(key);
    g.points = upperLeftFrontier(std::move(candidates));
    if (g.points.empty())
        return std::nullopt;
    g.curve = MonotoneCurve(g.points);
    return g;
}

std::map<GroupKey, std::vector<long long>> seriesByGroup(const std::vector<Series>& series)
{
    std::map<GroupKey, std::vector<long long>> byKey;
    for (const Series& s : series)
        byKey[s.key].push_back(s.id);
    return byKey;
}

std::string_view statusWords(LadderStatus s)
{
    switch (s) {
    case LadderStatus::Ok:
        return "measured";
    case LadderStatus::BelowRange:
        return "below the measured range";
    case LadderStatus::AboveRange:
        return "above the measured range";
    case LadderStatus::OutOfRange:
        return "between measured ranges";
    case LadderStatus::NoData:
        return "no runs";
    case LadderStatus::Sparse:
        return "only readings across wide gaps, hidden";
    }
    return "";
}

std::string_view statusShortWords(LadderStatus s)
{
    switch (s) {
    case LadderStatus::Ok:
        return "-";
    case LadderStatus::BelowRange:
        return "below range";
    case LadderStatus::AboveRange:
        return "above range";
    case LadderStatus::OutOfRange:
        return "in a gap";
    case LadderStatus::NoData:
        return "no runs";
    case LadderStatus::Sparse:
        return "hidden: gap";
    }
    return "-";
}

std::string narrowingNote(const GroupFrontier& group, const GroupFrontier::Narrowing& n)
{
    return groupDisplayName(group.key) + ": the newest run (" + dayText(n.newestDay) + ") measured "
        + std::to_string(n.newestPoints) + (n.newestPoints == 1 ? " point" : " points") + "; the run it replaced ("
        + dayText(n.replacedDay) + ") measured " + std::to_string(n.replacedPoints);
}

std::string_view statusName(LadderStatus s)
{
    switch (s) {
    case LadderStatus::Ok:
        return "ok";
    case LadderStatus::BelowRange:
        return "below_range";
    case LadderStatus::AboveRange:
        return "above_range";
    case LadderStatus::OutOfRange:
        return "out_of_range";
    case LadderStatus::NoData:
        return "no_data";
    case LadderStatus::Sparse:
        return "sparse";
    }
    return "no_data";
}

std::string_view clampName(Clamp c)
{
    switch (c) {
    case Clamp::Below:
        return "below";
    case Clamp::Above:
        return "above";
    case Clamp::None:
        break;
    }
    return "";
}

std::vector<double> defaultTargets()
{
    return { 30, 50, 75, 100, 150, 200 };
}

std::optional<BestReading> bestReading(
    const std::vector<const GroupFrontier*>& groups, double target, bool hideSparse, bool* sparseOnly)
{
    std::optional<BestReading> best;
    bool leftOut = false;
    for (std::size_t i = 0; i < groups.size(); ++i) {
        auto v = groups[i]->curve.at(target);
        if (!v)
            continue;
        const auto knots = groups[i]->curve.bracket(target);
        const bool sparse = knots && knots->first > 0 && knots->second / knots->first > kSparseGap;
        if (sparse && hideSparse) {
            leftOut = true;
            continue;
        }
        if (!best || *v > best->value)
            best = BestReading { i, *v, sparse, knots ? knots->first : 0, knots ? knots->second : 0 };
    }
    if (sparseOnly)
        *sparseOnly = !best && leftOut;
    return best;
}

std::map<std::string, BestReading> bestReadingPerHardware(
    const std::vector<GroupFrontier>& groups, double target, bool hideSparse, const std::vector<bool>& counted)
{
    std::map<std::string, std::vector<std::size_t>> byHardware;
    for (std::size_t i = 0; i < groups.size(); ++i)
        if (counted.empty() || (i < counted.size() && counted[i]))
            byHardware[groups[i].key.hardware].push_back(i);
    std::map<std::string, BestReading> out;
    for (const auto& [hardware, indices] : byHardware) {
        std::vector<const GroupFrontier*> mine;
        for (std::size_t i : indices)
            mine.push_back(&groups[i]);
        if (auto best = bestReading(mine, target, hideSparse)) {
            best->group = indices[best->group];
            out.emplace(hardware, *best);
        }
    }
    return out;
}

std::vector<LadderEntry> readLadder(
    const std::vector<const GroupFrontier*>& groups, const std::vector<double>& targets, bool clamp, bool hideSparse)
{
    std::vector<LadderEntry> out;
    out.reserve(targets.size());
    double lowest = std::numeric_limits<double>::infinity(), highest = -lowest;
    bool any = false;
    for (const GroupFrontier* g : groups) {
        if (g->curve.empty())
            continue;
        any = true;
        lowest = std::min(lowest, g->curve.minX());
        highest = std::max(highest, g->curve.maxX());
    }
    for (double t : targets) {
        LadderEntry e;
        e.target = t;
        if (!any) {
            out.push_back(e);
            continue;
        }
        e.deployable = readDeployable(groups, t, hideSparse);
        bool sparseOnly = false;
        if (auto best = bestReading(groups, t, hideSparse, &sparseOnly)) {
            e.value = best->value;
            e.group = groups[best->group]->key;
            e.sparse = best->sparse;
            e.knotBelow = best->knotBelow;
            e.knotAbove = best->knotAbove;
            if (const GroupFrontier* g = groups[best->group]; g->hasSpread()) {
                // each run sits at its own interactivity, so the low frontier can cross above the high one: the
                // spread is the interval between the two readings
                auto low = g->low.at(t), high = g->high.at(t);
                if (low && high) {
                    e.low = std::min(*low, *high);
                    e.high = std::max(*low, *high);
                }
            }
        }
        if (e.value) {
            e.status = LadderStatus::Ok;
            out.push_back(e);
            continue;
        }
        if (sparseOnly) {
            e.status = LadderStatus::Sparse;
            out.push_back(e);
            continue;
        }
        e.status = t < lowest ? LadderStatus::BelowRange
            : t > highest     ? LadderStatus::AboveRange
                              : LadderStatus::OutOfRange;
        if (clamp) {
            // the nearest x that some frontier covers is an end of a range; read the best group there
            double nearest = 0, distance = std::numeric_limits<double>::infinity();
            for (const GroupFrontier* g : groups) {
                if (g->curve.empty())
                    continue;
                for (double end : { g->curve.minX(), g->curve.maxX() }) {
                    if (std::abs(end - t) < distance) {
                        distance = std::abs(end - t);
                        nearest = end;
                    }
                }
            }
            for (const GroupFrontier* g : groups) {
                auto v = g->curve.at(nearest);
                if (v && (!e.value || *v > *e.value)) {
                    e.value = v;
                    e.group = g->key;
                }
            }
            e.clamped = t < nearest ? Clamp::Below : Clamp::Above;
        }
        out.push_back(e);
    }
    return out;
}

std::string_view metricName(TputMetric m)
{
    switch (m) {
    case TputMetric::Total:
        return "total";
    case TputMetric::Input:
        return "input";
    case TputMetric::Output:
        return "output";
    }
    return "total";
}

std::optional<TputMetric> parseMetric(std::string_view name)
{
    if (name == "total")
        return TputMetric::Total;
    if (name == "input")
        return TputMetric::Input;
    if (name == "output")
        return TputMetric::Output;
    return std::nullopt;
}

namespace {

Result<const PricingTier*> chosenTier(const PricingCatalog& pricing, const PriceChoice& price)
{
    const PricingTier* tier = nullptr;
    if (!price.customUsdPerGpuHour) {
        tier = price.tierKey.empty() ? &pricing.defaultTier() : pricing.find(price.tierKey);
        if (!tier) {
            std::string known;
            for (const auto& t : pricing.tiers)
                known += (known.empty() ? "" : ", ") + t.key;
            return Error { "unknown pricing tier '" + price.tierKey + "' (known: " + known + ")" };
        }
    } else if (!(*price.customUsdPerGpuHour > 0) || !(*price.customUsdPerGpuHour <= kMaxUsdPerGpuHour)) {
        return Error { "a custom price must be above zero and at most " + withThousands(kMaxUsdPerGpuHour)
            + " $/GPU/hr" };
    }
    return tier;
}

} // namespace

Result<std::optional<double>> priceFor(const PricingCatalog& pricing, const PriceChoice& choice, const std::string& hw)
{
    auto tier = chosenTier(pricing, choice);
    if (!tier)
        return Error { tier.error() };
    return *tier ? (*tier)->price(hw) : choice.customUsdPerGpuHour;
}

Status baselineCovered(const std::vector<HardwareLadder>& ladders, const std::string& baseline)
{
    std::string names;
    for (const HardwareLadder& l : ladders) {
        if (l.hardware == baseline)
            return ok();
        names += (names.empty() ? "" : ", ") + l.hardware;
    }
    return Error { "--baseline " + baseline + " has no runs in this scope (hardware: " + names + ")" };
}

Result<std::vector<HardwareLadder>> computeLadder(
    FrontierCache& cache, const PricingCatalog& pricing, const LadderRequest& req)
{
    if (auto tier = chosenTier(pricing, req.price); !tier)
        return Error { tier.error() };
    return computeLadder(cache.frontiers(req.scope, req.metric), pricing, req);
}

Result<std::vector<HardwareLadder>> computeLadder(
    const std::vector<GroupFrontier>& groups, const PricingCatalog& pricing, const LadderRequest& req)
{
    auto chosen = chosenTier(pricing, req.price);
    if (!chosen)
        return Error { chosen.error() };
    const PricingTier* tier = *chosen;
    if (req.scope.matchesNothing)
        return std::vector<HardwareLadder> {};
    std::vector<std::string> hardware = req.scope.hardware;
    if (hardware.empty()) {
        for (const GroupFrontier& g : groups)
            if (std::find(hardware.begin(), hardware.end(), g.key.hardware) == hardware.end())
                hardware.push_back(g.key.hardware);
        std::sort(hardware.begin(), hardware.end());
    }
    const auto excluded = [&req](const GroupKey& k) {
        return std::find(req.excludedGroups.begin(), req.excludedGroups.end(), k) != req.excludedGroups.end();
    };
    std::vector<HardwareLadder> out;
    for (const std::string& hw : hardware) {
        std::vector<const GroupFrontier*> mine;
        for (const GroupFrontier& g : groups)
            if (g.key.hardware == hw && !excluded(g.key))
                mine.push_back(&g);
        HardwareLadder ladder { hw, {} };
        std::optional<double> price = tier ? tier->price(hw) : req.price.customUsdPerGpuHour;
        for (LadderEntry& e : readLadder(mine, req.targets, req.clamp, req.hideSparse)) {
            LadderRow row;
            row.tier = tier ? tier->key : "custom";
            row.usdPerGpuHour = price;
            row.reading = req.reading;
            row.entry = std::move(e);
            if (const auto v = row.value(); v && price) {
                row.costPerMTok = costPerMillionTokens(*price, *v);
                row.tokensPerDollar = tokensPerDollar(*price, *v);
            }
            ladder.rows.push_back(std::move(row));
        }
        out.push_back(std::move(ladder));
    }
    if (req.excludedGroups.empty()) {
        attachEnergy(out, groups, bundledHardwarePower());
    } else { // the measured energy of the groups kept only
        std::vector<GroupFrontier> kept;
        for (const GroupFrontier& g : groups)
            if (!excluded(g.key))
                kept.push_back(g);
        attachEnergy(out, kept, bundledHardwarePower());
    }
    return out;
}

} // namespace paretoscope
