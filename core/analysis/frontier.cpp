#include "core/analysis/frontier.h"

#include <algorithm>
#include <cmath>

namespace paretoscope {
namespace {
bool usable(const Point& p)
{
    return std::isfinite(p.x) && std::isfinite(p.y) && p.x > 0 && p.y > 0;
}
double sgn(double v)
{
    return v < 0 ? -1.0 : 1.0;
} // sgn(0) = +1, as d3 has it
} // namespace

std::vector<Point> upperLeftFrontier(std::vector<Point> points)
{
    std::erase_if(points, [](const Point& p) { return !usable(p); });
    std::sort(points.begin(), points.end(), [](const Point& a, const Point& b) {
        if (a.x != b.x)
            return a.x < b.x;
        if (a.y != b.y)
            return a.y > b.y;
        return a.runId < b.runId;
    });
    std::vector<Point> kept;
    for (const Point& p : points) {
        if (!kept.empty() && kept.back().x == p.x) {
            if (p.y > kept.back().y)
                kept.back() = p;
            continue;
        }
        while (!kept.empty() && p.y >= kept.back().y)
            kept.pop_back();
        kept.push_back(p);
    }
    return kept;
}

MonotoneCurve::MonotoneCurve(std::vector<Point> knots)
    : m_knots(std::move(knots))
{
    const std::size_t n = m_knots.size();
    if (n == 0)
        return;
    m_slopes.assign(n, 0.0);
    auto [lo, hi]
        = std::minmax_element(m_knots.begin(), m_knots.end(), [](const Point& a, const Point& b) { return a.y < b.y; });
    m_minY = lo->y;
    m_maxY = hi->y;
    if (n == 1)
        return;
    std::vector<double> h(n - 1), s(n - 1);
    for (std::size_t i = 0; i + 1 < n; ++i) {
        h[i] = m_knots[i + 1].x - m_knots[i].x;
        s[i] = (m_knots[i + 1].y - m_knots[i].y) / h[i];
    }
    for (std::size_t i = 1; i + 1 < n; ++i) {
        double p = (s[i - 1] * h[i] + s[i] * h[i - 1]) / (h[i - 1] + h[i]);
        m_slopes[i] = (sgn(s[i - 1]) + sgn(s[i])) * std::min({ std::abs(s[i - 1]), std::abs(s[i]), std::abs(p) / 2 });
    }
    // end slopes in this order; with two knots m_1 is still 0 when m_0 is computed
    m_slopes[0] = (3 * s[0] - m_slopes[1]) / 2;
    m_slopes[n - 1] = (3 * s[n - 2] - m_slopes[n - 2]) / 2;
}

bool MonotoneCurve::covers(double x) const
{
    if (m_knots.empty() || !std::isfinite(x))
        return false;
    return x >= m_knots.front().x && x <= m_knots.back().x;
}

std::optional<std::pair<double, double>> MonotoneCurve::bracket(double x) const
{
    if (!covers(x))
        return std::nullopt;
    auto it = std::lower_bound(m_knots.begin(), m_knots.end(), x, [](const Point& p, double v) { return p.x < v; });
    if (it->x == x)
        return std::pair { x, x };
    return std::pair { std::prev(it)->x, it->x };
}

std::optional<double> MonotoneCurve::at(double x) const
{
    if (!covers(x))
        return std::nullopt;
    const std::size_t n = m_knots.size();
    if (n == 1)
        return m_knots[0].y;
    // the last knot whose x <= target, kept below n - 1 so [i, i + 1] is a segment
    auto it = std::upper_bound(m_knots.begin(), m_knots.end(), x, [](double v, const Point& p) { return v < p.x; });
    std::size_t i = std::min<std::size_t>(static_cast<std::size_t>(it - m_knots.begin()) - 1, n - 2);
    const Point& a = m_knots[i];
    const Point& b = m_knots[i + 1];
    if (x == a.x)
        return a.y;
    if (x == b.x)
        return b.y;
    const double h = b.x - a.x;
    const double t = (x - a.x) / h, t2 = t * t, t3 = t2 * t;
    const double h00 = 2 * t3 - 3 * t2 + 1, h10 = t3 - 2 * t2 + t, h01 = -2 * t3 + 3 * t2, h11 = t3 - t2;
    double y = h00 * a.y + h10 * h * m_slopes[i] + h01 * b.y + h11 * h * m_slopes[i + 1];
    return std::clamp(y, m_minY, m_maxY);
}

} // namespace paretoscope
