#include "plotmap.h"

#include <QLogValueAxis>
#include <QValueAxis>
#include <cmath>

namespace paretoscope::ui {

double AxisMap::place(double v) const
{
    double t;
    if (log) {
        if (!(v > 0) || !(lo > 0) || !(hi > lo))
            return std::nan("");
        t = (std::log(v) - std::log(lo)) / (std::log(hi) - std::log(lo));
    } else {
        if (!(hi > lo))
            return std::nan("");
        t = (v - lo) / (hi - lo);
    }
    return (flip ? 1 - t : t) * pixels;
}

namespace {

AxisMap axisMap(const QAbstractAxis* axis, double pixels)
{
    AxisMap m;
    m.pixels = pixels;
    m.flip = axis->orientation() == Qt::Vertical;
    if (auto* v = qobject_cast<const QValueAxis*>(axis)) {
        m.lo = v->min();
        m.hi = v->max();
    } else if (auto* l = qobject_cast<const QLogValueAxis*>(axis)) {
        m.lo = l->min();
        m.hi = l->max();
        m.log = true;
    }
    return m;
}

} // namespace

std::pair<AxisMap, AxisMap> plotMaps(const QChart& chart, QAbstractSeries& anchor)
{
    std::pair<AxisMap, AxisMap> out;
    const QRectF area = chart.plotArea();
    for (const QAbstractAxis* axis : anchor.attachedAxes()) {
        if (axis->orientation() == Qt::Horizontal)
            out.first = axisMap(axis, area.width());
        else
            out.second = axisMap(axis, area.height());
    }
    return out;
}

QThreadPool& drawingPool()
{
    static QThreadPool pool;
    return pool;
}

} // namespace paretoscope::ui
