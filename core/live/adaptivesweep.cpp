#include "core/live/adaptivesweep.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>

#include "core/analysis/ladder.h"

namespace paretoscope {
namespace {

std::string num(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, v >= 100 ? "%.0f" : "%.3g", v);
    return buf;
}

std::string pct(double share)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.0f%%", 100.0 * share);
    return buf;
}

std::string at(const SweepPoint& p)
{
    return "c=" + std::to_string(p.concurrency) + " (" + num(p.interactivity) + " tok/s/user)";
}

bool usable(const SweepPoint& p)
{
    return p.concurrency > 0 && p.tputPerGpu > 0 && p.interactivity > 0;
}

// The measured levels by concurrency, one per concurrency (the latest measured), without unusable ones.
std::vector<SweepPoint> byConcurrency(const std::vector<SweepPoint>& measured)
{
    std::map<int, SweepPoint> m;
    for (const SweepPoint& p : measured)
        if (usable(p))
            m[p.concurrency] = p;
    std::vector<SweepPoint> out;
    out.reserve(m.size());
    for (auto& [c, p] : m)
        out.push_back(p);
    return out;
}

// Throughput rise from a to b, scaled to one doubling of the concurrency: a jump of x8 that gained 60% is 17% a step.
double risePerDoubling(const SweepPoint& a, const SweepPoint& b)
{
    const double doublings = std::log2(double(b.concurrency) / double(a.concurrency));
    return doublings > 0 ? std::pow(b.tputPerGpu / a.tputPerGpu, 1.0 / doublings) - 1.0 : 0.0;
}

// Over-saturated from a to b (neighbours): throughput flat while the median TTFT grows by more than options allow.
// Across a jump of several doublings "flat" is a rise per doubling under minRise: a jump of x8 gains a little even
// when the batch was full after the first doubling.
bool overSaturated(const SweepPoint& a, const SweepPoint& b, const AdaptiveOptions& o)
{
    const bool jump = b.concurrency > 2 * a.concurrency;
    const bool flat = jump ? risePerDoubling(a, b) < o.minRise : b.tputPerGpu < a.tputPerGpu * (1.0 + o.flatRise);
    return flat && a.medianTtft && b.medianTtft && *a.medianTtft > 0
        && *b.medianTtft > *a.medianTtft * (1.0 + o.ttftGrowth);
}

// The concurrency where interactivity should be `want`, from the two measured levels a and b. Past the knee of the
// batch, throughput per GPU saturates as T(c) = Tmax c / (c + c0), so each user's share falls as A / (c + c0): the
// curve through a and b gives c = A / want - c0 (on the emulator's b300-sim it predicts c=256 and 512 from c=8 and 64
// within 1% in throughput and 8% in interactivity). Where a and b do not fit that shape (interactivity still flat, or
// rising), a straight line in ln interactivity against ln c; none when neither falls.
std::optional<double> aimedConcurrency(const SweepPoint& a, const SweepPoint& b, double want)
{
    const double ca = a.concurrency, cb = b.concurrency, ia = a.interactivity, ib = b.interactivity;
    if (!(want > 0) || ca == cb || ia <= ib)
        return std::nullopt;
    const double c0 = (ib * cb - ia * ca) / (ia - ib);
    if (c0 > -std::min(ca, cb) && c0 < 64 * std::max(ca, cb)) {
        const double c = ia * (ca + c0) / want - c0;
        if (c > 0)
            return c;
    }
    const double slope = std::log(ib / ia) / std::log(cb / ca);
    if (slope > -0.05)
        return std::nullopt;
    return ca * std::exp(std::log(want / ia) / slope);
}

// Where the climb aims from a level at `top` (interactivity, tok/s/user).
struct ClimbAim {
    double aim = 0; ///< where the next level should land
    std::string what; ///< what that is, for the level's reason
    double pairAim = 0; ///< the middle of the window shared by the first pair passed over (0: none passed)
    double pairFloor = 0; ///< the bottom of the lowest passed pair's lower window
    std::string pairs; ///< the pairs passed over, as "100 and 75"
};

// The highest target the top level is not yet within tolerance of, or just below the lowest target once no other is
// left, so that a level lands beneath it. A target whose window (within tolerance) overlaps the next one's down is
// passed over with it and left to the refinement, which aims one level at the middle of the overlap from the curve
// through a level on each side: it lands in a narrow overlap (1.5% wide for 75 and 100) more often than the climb's
// extrapolation past its top level (10% off on b300-sim). A lone target is aimed at the upper half of its window: a
// level there costs fewer requests (it is a lower concurrency), and the curve through two earlier levels,
// extrapolated, lands below its aim (the step time grows faster than linearly near the knee of the batch: 13% below
// on b300-sim from 1 and 16, 5% from 16 and 47). Below the lowest target it aims a third of the tolerance down: past
// c~20 on the emulator's profiles the curve through two levels predicts within 1%.
ClimbAim climbAim(const std::vector<double>& targets, double top, double tolerance) // targets ascending
{
    std::vector<double> below; // descending
    for (auto t = targets.rbegin(); t != targets.rend(); ++t)
        if (top - *t > tolerance * *t)
            below.push_back(*t);
    ClimbAim out;
    std::size_t k = 0;
    while (k + 1 < below.size() && below[k] * (1 - tolerance) < below[k + 1] * (1 + tolerance)) {
        if (out.pairAim == 0)
            out.pairAim = std::sqrt(below[k] * (1 - tolerance) * below[k + 1] * (1 + tolerance));
        out.pairFloor = below[k + 1] * (1 - tolerance);
        out.pairs += (out.pairs.empty() ? "" : ", ") + num(below[k]) + " and " + num(below[k + 1]);
        k += 2;
    }
    if (k + 1 >= below.size()) {
        out.aim = targets.front() * (1.0 - tolerance / 3);
        out.what = "just below the lowest target";
    } else {
        out.aim = below[k] * (1 + tolerance / 2);
        out.what = "the next target down";
    }
    return out;
}

// The level measured before the top one (pts has two or more).
const SweepPoint& prev(const std::vector<SweepPoint>& pts)
{
    return pts[pts.size() - 2];
}

// The next level of the climb, or none when the climb is over (`why` then says why).
std::optional<AdaptiveStep> climb(
    const std::vector<SweepPoint>& pts, const AdaptiveOptions& o, const std::vector<double>& targets, std::string& why)
{
    const double lowest = targets.front(), highest = targets.back();
    for (std::size_t i = 1; i < pts.size(); ++i)
        if (overSaturated(pts[i - 1], pts[i], o)) {
            why = "over-saturated from c=" + std::to_string(pts[i - 1].concurrency)
                + " to c=" + std::to_string(pts[i].concurrency) + ": throughput "
                + pct(pts[i].tputPerGpu / pts[i - 1].tputPerGpu - 1) + ", median TTFT "
                + pct(*pts[i].medianTtft / *pts[i - 1].medianTtft - 1);
            return std::nullopt;
        }
    const SweepPoint& top = pts.back();
    if (top.interactivity <= lowest) {
        why = "c=" + std::to_string(top.concurrency) + " is below the lowest target (" + num(lowest) + ")";
        return std::nullopt;
    }
    if (top.concurrency >= o.maxConcurrency) {
        why = "c=" + std::to_string(top.concurrency) + " is the highest concurrency allowed";
        return std::nullopt;
    }
    double rise = pts.size() > 1 ? risePerDoubling(prev(pts), top) : 1.0;
    if (rise <= o.minRise) {
        why = "throughput per GPU rose only " + pct(rise) + " a doubling up to c=" + std::to_string(top.concurrency);
        return std::nullopt;
    }
    double slope = 0; // d ln(interactivity) / d ln(concurrency) over the last step
    if (pts.size() > 1)
        slope = std::log(top.interactivity / prev(pts).interactivity)
            / std::log(double(top.concurrency) / double(prev(pts).concurrency));
    double factor = 2;
    std::string reason = "climb: throughput " + (pts.size() > 1 ? pct(rise) + " a doubling" : std::string("rising"))
        + ", " + num(top.interactivity) + " tok/s/user";
    if (pts.size() == 1) {
        // one level says nothing of the curve yet: a first jump far enough to see it bend, but no further than where
        // interactivity falling as 1/c (the steepest a batch makes it fall) would be half the lowest target
        factor = std::clamp(std::floor(2 * top.interactivity / lowest), 2.0, double(o.firstJump));
        reason += ": x" + num(factor);
    } else if (rise >= o.linearRise && top.interactivity > highest * (1.0 + o.tolerance)) {
        // far from the batch limit and above every target: jump to where the highest target should be
        double want = slope < -0.05 ? std::exp(std::log(highest / top.interactivity) / slope) : o.maxJump;
        factor = std::clamp(std::floor(want), 2.0, double(o.maxJump));
        reason += ", above every target: x" + num(factor);
    } else {
        // among the targets (or above them, the throughput no longer rising almost linearly): aim the next level
        // at the next target down (or just below the lowest), from the curve through the last two levels, so that
        // each level of the climb settles a target too; at most two doublings at once (further, an engine whose
        // batch is already full would be driven far past it before the over-saturation stop could see it)
        // and at least a quarter more than the top level: on a noisy machine a curve through two close levels can
        // put the target just past the top again and again, and the climb would creep a level at a time
        const double lo = std::max(top.concurrency + 1.0, std::ceil(1.25 * top.concurrency));
        const double hi = std::min(4.0 * top.concurrency, double(o.maxConcurrency));
        const ClimbAim aimed = climbAim(targets, top.interactivity, o.tolerance);
        double aim = aimed.aim;
        std::string what = aimed.what;
        if (aimed.pairAim > 0) {
            // pairs passed over: only while the engine is still far from its batch limit (a step past them is up to
            // two doublings, where aiming at the first pair's window is about one: an engine whose batch is full
            // would be driven twice as far past it) and when the step can get past the lowest of them (else it
            // lands among them anyway); otherwise aim at the middle of the first pair's shared window
            const auto past = aimedConcurrency(prev(pts), top, aimed.pairFloor);
            if (rise < o.passRise || !past || *past > hi) {
                aim = aimed.pairAim;
                what = "the window " + aimed.pairs.substr(0, aimed.pairs.find(',')) + " share";
            } else {
                what += " (passing over " + aimed.pairs + ", left to the refinement)";
            }
        }
        if (const auto c = aimedConcurrency(prev(pts), top, aim)) {
            const double want = std::round(*c);
            const int next = std::min(o.maxConcurrency, static_cast<int>(std::clamp(want, lo, std::max(lo, hi))));
            return AdaptiveStep { next,
                reason + ", aim at " + what + ": " + num(aim)
                    + " tok/s/user expected at c=" + std::to_string(static_cast<long long>(std::min(want, 1e9)))
                    + (want != next ? ", stepping to c=" + std::to_string(next) : std::string()) };
        }
        reason += ": double";
    }
    const int next = std::max(top.concurrency + 1, static_cast<int>(std::lround(top.concurrency * factor)));
    return AdaptiveStep { std::min(o.maxConcurrency, next), reason };
}

// The pair of neighbours (index of the lower concurrency) whose interactivities straddle the target, or -1.
int bracketOf(const std::vector<SweepPoint>& pts, double target)
{
    for (std::size_t i = 1; i < pts.size(); ++i)
        if (pts[i - 1].interactivity >= target && pts[i].interactivity <= target)
            return static_cast<int>(i - 1);
    return -1;
}

bool settled(const std::vector<SweepPoint>& pts, int i, double target, double tolerance)
{
    const SweepPoint& a = pts[static_cast<std::size_t>(i)];
    const SweepPoint& b = pts[static_cast<std::size_t>(i) + 1];
    const double nearest = std::min(a.interactivity - target, target - b.interactivity);
    return nearest <= tolerance * target || b.concurrency - a.concurrency <= 1;
}

// How much the frontier (log throughput against log interactivity) turns at point i, in radians.
double bendAt(const std::vector<SweepPoint>& pts, std::size_t i)
{
    if (i == 0 || i + 1 >= pts.size())
        return 0;
    auto angle = [&](const SweepPoint& p, const SweepPoint& q) {
        return std::atan2(std::log(q.tputPerGpu / p.tputPerGpu), std::log(q.interactivity / p.interactivity));
    };
    double turn = std::fabs(angle(pts[i], pts[i + 1]) - angle(pts[i - 1], pts[i]));
    return std::min(turn, 2 * M_PI - turn);
}

// The concurrency between a and b where the target should be (aimedConcurrency), strictly between them.
int aimAt(const SweepPoint& a, const SweepPoint& b, double target)
{
    const double c = aimedConcurrency(a, b, target).value_or(std::sqrt(double(a.concurrency) * b.concurrency));
    return static_cast<int>(std::clamp(std::round(c), double(a.concurrency + 1), double(b.concurrency - 1)));
}

// Where to aim for target t in the gap it is unsettled in: at t itself, or, when another unsettled target u in the
// same gap has a window (within tolerance) overlapping t's, at the middle of the overlap, which settles both
double aimFor(const std::vector<double>& unsettled, double t, double tolerance)
{
    double lo = t * (1 - tolerance), hi = t * (1 + tolerance);
    for (double u : unsettled) {
        if (u == t || u * (1 - tolerance) >= hi || u * (1 + tolerance) <= lo)
            continue;
        lo = std::max(lo, u * (1 - tolerance));
        hi = std::min(hi, u * (1 + tolerance));
        return std::sqrt(lo * hi);
    }
    return t;
}

} // namespace

bool targetBracketed(const std::vector<SweepPoint>& measured, double target, double tolerance)
{
    const std::vector<SweepPoint> pts = byConcurrency(measured);
    const int i = bracketOf(pts, target);
    return i >= 0 && settled(pts, i, target, tolerance);
}

AdaptiveStep nextAdaptiveLevel(const std::vector<SweepPoint>& measured, const AdaptiveOptions& o)
{
    std::vector<double> targets = o.targets.empty() ? defaultTargets() : o.targets;
    std::sort(targets.begin(), targets.end());
    if (measured.empty())
        return { 1, "start at 1" };
    if (static_cast<int>(measured.size()) >= o.maxLevels)
        return { 0, "the level budget of " + std::to_string(o.maxLevels) + " is spent" };
    const std::vector<SweepPoint> pts = byConcurrency(measured);
    if (pts.empty())
        return { 0, "no level measured both throughput and interactivity" };
    int highest = 0;
    for (const SweepPoint& p : measured)
        highest = std::max(highest, p.concurrency);
    std::string climbEnd;
    if (highest > pts.back().concurrency) // the climb would go back to a level it measured
        climbEnd = "c=" + std::to_string(highest) + " measured no throughput or interactivity";
    else if (auto step = climb(pts, o, targets, climbEnd))
        return *step;

    // refine: the gap with an unsettled target where the frontier bends most (the widest gap on a tie)
    int best = -1;
    double bestTarget = 0, bestScore = -1;
    std::map<int, std::vector<double>> unsettled; // per gap
    std::vector<double> outside;
    for (double t : targets) {
        const int i = bracketOf(pts, t);
        if (i < 0) {
            outside.push_back(t);
            continue;
        }
        if (settled(pts, i, t, o.tolerance))
            continue;
        unsettled[i].push_back(t);
        const auto u = static_cast<std::size_t>(i);
        const double score
            = bendAt(pts, u) + bendAt(pts, u + 1) + 1e-3 * std::log(pts[u].interactivity / pts[u + 1].interactivity);
        if (score > bestScore) {
            best = i;
            bestScore = score;
            bestTarget = t;
        }
    }
    if (best >= 0) {
        const SweepPoint& a = pts[static_cast<std::size_t>(best)];
        const SweepPoint& b = pts[static_cast<std::size_t>(best) + 1];
        const double aim = aimFor(unsettled[best], bestTarget, o.tolerance);
        std::string why = "refine: target " + num(bestTarget);
        if (aim != bestTarget)
            why += " (aimed at " + num(aim) + ", within reach of another target too)";
        return { aimAt(a, b, aim), why + " between " + at(a) + " and " + at(b) };
    }
    std::string reason = "every target in reach bracketed within " + std::to_string(int(std::lround(o.tolerance * 100)))
        + "% (" + climbEnd + ")";
    if (!outside.empty()) {
        reason += "; beyond the measured frontier:";
        for (double t : outside)
            reason += " " + num(t);
    }
    return { 0, reason };
}

} // namespace paretoscope
