// The deployable reading beside the frontier reading (docs/architecture.md section 10): what one configuration
// delivers at a target, as the plan reads it, and why the two differ.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/analysis/ladder.h"
#include "core/analysis/numberformat.h"
#include "core/model/displaynames.h"

namespace paretoscope {
namespace {

bool atTarget(double x, double t)
{
    return std::abs(x - t) <= 1e-9 * t;
}

// The concurrency to run at between two knots: log concurrency straight against log interactivity.
double concurrencyBetween(double t, double slowX, int slowC, double fastX, int fastC)
{
    if (slowC <= 0 || fastC <= 0 || !(slowX > 0) || !(fastX > 0) || atTarget(slowX, fastX))
        return 0;
    const double f = std::log(t / fastX) / std::log(slowX / fastX);
    return fastC * std::pow(double(slowC) / fastC, f);
}

// An interactivity as the sentence gives it, to four significant digits as the readout's sparse note does: 16.68,
// 138.2, 60.
std::string tokPerUser(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

} // namespace

std::optional<DeployableReading> readDeployable(
    const std::vector<const GroupFrontier*>& groups, double target, bool hideSparse)
{
    const double t = target;
    std::optional<DeployableReading> best;
    auto consider = [&](const DeployableReading& r) {
        if (!best || r.value > best->value)
            best = r;
    };
    for (const GroupFrontier* g : groups) {
        for (const ConfigLine& line : g->lines) {
            // a line's knots rise in x and fall in y: the best of them at or faster than the target is the first
            const auto& k = line.knots;
            const auto first = std::lower_bound(
                k.begin(), k.end(), t, [](const Point& p, double x) { return p.x < x && !atTarget(p.x, x); });
            if (first == k.end())
                continue;
            const auto i = static_cast<std::size_t>(first - k.begin());
            const int c = i < line.concurrencies.size() ? line.concurrencies[i] : 0;
            consider({ g->key, k[i].y, k[i].x, false, false, 0, 0, double(c), k[i].runId });
            // the target between the knot before and this one
            if (i == 0 || atTarget(k[i].x, t))
                continue;
            const bool sparse = k[i].x > kSparseGap * k[i - 1].x;
            if (sparse && hideSparse)
                continue;
            if (const auto y = line.curve.at(t)) {
                const int slow = i - 1 < line.concurrencies.size() ? line.concurrencies[i - 1] : 0;
                consider({ g->key, *y, t, true, sparse, k[i - 1].x, k[i].x,
                    concurrencyBetween(t, k[i - 1].x, slow, k[i].x, c), k[i].runId });
            }
        }
    }
    return best;
}

std::string deployableConfiguration(const DeployableReading& d)
{
    std::string s = groupDisplayName(d.group, false);
    // between two measured concurrencies the one to run at is interpolated (log against log): an estimate
    if (d.concurrency > 0)
        s += (d.interpolated ? " at concurrency about " : " at concurrency ") + withThousands(d.concurrency);
    return s;
}

std::string deployableText(const DeployableReading& d)
{
    return withThousands(d.value) + " (" + deployableConfiguration(d) + (d.sparse ? "; sparse)" : ")");
}

std::string frontierText(const LadderEntry& e)
{
    if (!e.value)
        return "-";
    return withThousands(*e.value) + " (" + (e.group ? groupDisplayName(*e.group, false) : std::string("?"))
        + (e.sparse ? "; sparse)" : ")");
}

std::optional<double> LadderEntry::frontierRatio() const
{
    if (!value || !deployable || !(deployable->value > 0))
        return std::nullopt;
    return *value / deployable->value;
}

bool LadderEntry::readingsDiffer() const
{
    const auto across = read(Reading::Frontier), one = read(Reading::Deployable);
    return across && one && *one > 0 && std::abs(*across / *one - 1) > kReadingsAgree;
}

std::string_view readingName(Reading r)
{
    return r == Reading::Frontier ? "frontier" : "deployable";
}

std::optional<Reading> parseReading(std::string_view name)
{
    if (name == "deployable")
        return Reading::Deployable;
    if (name == "frontier")
        return Reading::Frontier;
    return std::nullopt;
}

std::optional<double> LadderEntry::read(Reading r) const
{
    if (r == Reading::Frontier || clamped != Clamp::None)
        return value;
    return deployable ? std::optional<double>(deployable->value) : std::nullopt;
}

std::optional<GroupKey> LadderEntry::readGroup(Reading r) const
{
    if (r == Reading::Frontier || clamped != Clamp::None)
        return group;
    return deployable ? std::optional<GroupKey>(deployable->group) : std::nullopt;
}

bool LadderEntry::readSparse(Reading r) const
{
    if (r == Reading::Frontier || clamped != Clamp::None)
        return sparse;
    return deployable && deployable->sparse;
}

std::string readingsDifferSentence(const LadderEntry& e)
{
    if (!e.readingsDiffer())
        return {};
    const double ratio = *e.frontierRatio();
    const DeployableReading& d = *e.deployable;
    std::string s
        = "The frontier reads " + withThousands(*e.value) + " tok/s/GPU at " + tokPerUser(e.target) + " tok/s/user";
    if (e.knotBelow > 0 && e.knotAbove > e.knotBelow && !atTarget(e.knotBelow, e.knotAbove))
        s += " between measured points at " + tokPerUser(e.knotBelow) + " and " + tokPerUser(e.knotAbove)
            + " tok/s/user (" + withSignificant(e.knotAbove / e.knotBelow, 2) + "x apart)";
    else
        s += ", a measured point";
    s += "; the best single configuration (" + deployableConfiguration(d);
    if (!d.interpolated && !atTarget(d.interactivity, e.target))
        s += ", run at " + tokPerUser(d.interactivity) + " tok/s/user";
    s += ") delivers " + withThousands(d.value) + " ("
        + (ratio > 1 ? withSignificant(ratio, 3) + "x less" : withSignificant(1 / ratio, 3) + "x more") + ").";
    return s;
}

} // namespace paretoscope
