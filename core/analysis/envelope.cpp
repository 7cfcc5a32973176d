#include "core/analysis/envelope.h"

#include <algorithm>
#include <map>
#include <optional>

namespace paretoscope {

namespace {

// A line's y at x, straight between its points; empty outside its x range.
std::optional<double> yAt(const std::vector<Point>& path, double x)
{
    if (path.empty() || x < path.front().x || x > path.back().x)
        return std::nullopt;
    const auto after
        = std::lower_bound(path.begin(), path.end(), x, [](const Point& p, double value) { return p.x < value; });
    if (after == path.begin() || after->x == x)
        return after->y;
    const Point& a = *(after - 1);
    const Point& b = *after;
    return b.x == a.x ? b.y : a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x);
}

// The line's points strictly between from and to, with its points at both ends.
std::vector<Point> cut(const std::vector<Point>& path, double from, double to)
{
    std::vector<Point> out;
    if (auto y = yAt(path, from))
        out.push_back({ from, *y, 0, false });
    for (const Point& p : path)
        if (p.x > from && p.x < to)
            out.push_back({ p.x, p.y, 0, false });
    if (auto y = yAt(path, to); y && to > from)
        out.push_back({ to, *y, 0, false });
    return out;
}

} // namespace

std::vector<HardwareEnvelope> hardwareEnvelopes(
    const ChartData& chart, bool higherIsBetter, const std::vector<bool>& use)
{
    // the series of each hardware, hardware in the order of their first series
    std::vector<std::string> order;
    std::map<std::string, std::vector<std::size_t>> members;
    for (std::size_t i = 0; i < chart.series.size(); ++i) {
        const ChartSeries& s = chart.series[i];
        if ((!use.empty() && (i >= use.size() || !use[i])) || !s.priced || s.path.size() < 2)
            continue;
        if (!members.count(s.key.hardware))
            order.push_back(s.key.hardware);
        members[s.key.hardware].push_back(i);
    }
    const auto better = [&](double a, double b) { return higherIsBetter ? a > b : a < b; };
    std::vector<HardwareEnvelope> out;
    out.reserve(order.size());
    for (const std::string& hardware : order) {
        const std::vector<std::size_t>& group = members[hardware];
        // every x where one of the lines has a point: between two of them each line is straight, so the best can
        // change only once, where two lines cross
        std::vector<double> xs;
        for (std::size_t i : group)
            for (const Point& p : chart.series[i].path)
                xs.push_back(p.x);
        std::sort(xs.begin(), xs.end());
        xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
        // the best series at each x (ties to the earlier series, the smaller group key), npos where none covers it
        constexpr std::size_t none = static_cast<std::size_t>(-1);
        std::vector<std::size_t> best(xs.size(), none);
        for (std::size_t k = 0; k < xs.size(); ++k) {
            std::optional<double> top;
            for (std::size_t i : group)
                if (auto y = yAt(chart.series[i].path, xs[k]); y && (!top || better(*y, *top))) {
                    top = y;
                    best[k] = i;
                }
        }
        HardwareEnvelope env { hardware, {} };
        // where the next stretch begins: the crossing that ended the one before (a plain flag and value: GCC 12 warns
        // of an optional<double> here that it cannot see set)
        bool carried = false;
        double carry = 0;
        for (std::size_t k = 0; k < xs.size();) {
            if (best[k] == none) {
                carried = false;
                ++k;
                continue;
            }
            const std::size_t s = best[k];
            std::size_t end = k;
            while (end + 1 < xs.size() && best[end + 1] == s)
                ++end;
            const double from = carried ? carry : xs[k];
            carried = false;
            double to = xs[end];
            if (end + 1 < xs.size() && best[end + 1] != none) {
                const std::vector<Point>& a = chart.series[s].path;
                const std::vector<Point>& b = chart.series[best[end + 1]].path;
                const auto a0 = yAt(a, xs[end]), a1 = yAt(a, xs[end + 1]);
                const auto b0 = yAt(b, xs[end]), b1 = yAt(b, xs[end + 1]);
                if (a0 && a1 && b0 && b1) {
                    // both straight between the two xs: they cross once, where the next stretch takes over
                    const double d0 = *a0 - *b0, d1 = *a1 - *b1;
                    const double t = d0 == d1 ? 1 : std::clamp(d0 / (d0 - d1), 0.0, 1.0);
                    to = xs[end] + t * (xs[end + 1] - xs[end]);
                    carried = true;
                    carry = to;
                } else if (a1) {
                    to = xs[end + 1]; // the next line begins there: this one runs on to it
                } else if (b0) {
                    carried = true; // this line ends here and the next, already running, takes over at once
                    carry = xs[end];
                }
            }
            env.stretches.push_back({ s, from, to, cut(chart.series[s].path, from, to) });
            k = end + 1;
        }
        if (!env.stretches.empty())
            out.push_back(std::move(env));
    }
    return out;
}

} // namespace paretoscope
