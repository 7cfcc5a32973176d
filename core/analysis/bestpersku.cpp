#include "core/analysis/bestpersku.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>

namespace paretoscope {

std::string physicalHardware(const std::string& hardware)
{
    return hardware.substr(0, hardware.find('-'));
}

namespace {

// The mean of a frontier at 9 evenly spaced x from lo to hi (both within it).
double meanOver(const MonotoneCurve& curve, double lo, double hi)
{
    constexpr int kSamples = 9;
    double sum = 0;
    for (int k = 0; k < kSamples; ++k)
        sum += curve.at(lo + (hi - lo) * k / (kSamples - 1)).value_or(0.0);
    return sum / kSamples;
}

double highestPoint(const GroupFrontier& g)
{
    double best = -std::numeric_limits<double>::infinity();
    for (const Point& p : g.points)
        best = std::max(best, p.y);
    return best;
}

std::size_t pick(const std::vector<GroupFrontier>& groups, const std::vector<std::size_t>& of)
{
    double lo = -std::numeric_limits<double>::infinity(), hi = std::numeric_limits<double>::infinity();
    for (std::size_t i : of) {
        lo = std::max(lo, groups[i].curve.minX());
        hi = std::min(hi, groups[i].curve.maxX());
    }
    const bool shared = lo <= hi;
    std::optional<std::size_t> best;
    double bestScore = 0;
    for (std::size_t i : of) {
        const double score = shared ? meanOver(groups[i].curve, lo, hi) : highestPoint(groups[i]);
        if (!best || score > bestScore || (score == bestScore && groups[i].key < groups[*best].key)) {
            best = i;
            bestScore = score;
        }
    }
    return *best;
}

} // namespace

std::vector<std::size_t> bestPerHardware(const std::vector<GroupFrontier>& groups)
{
    std::vector<std::string> order; // physical hardware in the order of their first group
    std::map<std::string, std::vector<std::size_t>> members;
    for (std::size_t i = 0; i < groups.size(); ++i) {
        if (groups[i].curve.empty())
            continue;
        const std::string hw = physicalHardware(groups[i].key.hardware);
        auto& m = members[hw];
        if (m.empty())
            order.push_back(hw);
        m.push_back(i);
    }
    std::vector<std::size_t> out;
    out.reserve(order.size());
    for (const std::string& hw : order)
        out.push_back(pick(groups, members.at(hw)));
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace paretoscope
