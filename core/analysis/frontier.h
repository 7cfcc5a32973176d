#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "core/model/runpoint.h"

namespace paretoscope {

/// The upper-left Pareto frontier of a group (docs/architecture.md section 8): x strictly increasing, y strictly
/// decreasing; nothing to the right of a kept point is as high. Points with non-positive or non-finite x or y are left
/// out.
std::vector<Point> upperLeftFrontier(std::vector<Point> points);

/// Monotone cubic reading of a frontier (the InferenceX calculator's method, d3's monotone-X slopes with the end
/// slopes of docs/architecture.md section 8), never extrapolated.
class MonotoneCurve {
public:
    MonotoneCurve() = default;
    /// Knots with strictly increasing x (a frontier).
    explicit MonotoneCurve(std::vector<Point> knots);

    /// The value at x, clamped to the knots' y range; empty outside [first x, last x]. One knot: its value at its x.
    std::optional<double> at(double x) const;
    bool covers(double x) const;
    /// The x of the knots around x (both the knot's x when x is one); empty outside the curve.
    std::optional<std::pair<double, double>> bracket(double x) const;
    bool empty() const { return m_knots.empty(); }
    double minX() const { return m_knots.front().x; }
    double maxX() const { return m_knots.back().x; }
    double yAtMinX() const { return m_knots.front().y; }
    double yAtMaxX() const { return m_knots.back().y; }
    const std::vector<Point>& knots() const { return m_knots; }
    const std::vector<double>& slopes() const { return m_slopes; }

private:
    std::vector<Point> m_knots;
    std::vector<double> m_slopes;
    double m_minY = 0;
    double m_maxY = 0;
};

} // namespace paretoscope
