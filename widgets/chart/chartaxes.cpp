#include "widgets/chart/chartaxes.h"

#include <QLogValueAxis>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace paretoscope::ui {

namespace {

// The fewest decimals, up to 3, that write v: 20 -> 0, 0.5 -> 1, 0.125 -> 3.
int decimalsFor(double v)
{
    for (int d = 0; d < 3; ++d) {
        const double scaled = std::abs(v) * std::pow(10.0, d);
        if (std::abs(scaled - std::round(scaled)) < 1e-6 * std::max(1.0, scaled))
            return d;
    }
    return 3;
}

} // namespace

std::pair<double, double> axisRange(const QAbstractAxis* axis)
{
    if (auto* v = qobject_cast<const QValueAxis*>(axis))
        return { v->min(), v->max() };
    if (auto* v = qobject_cast<const QLogValueAxis*>(axis))
        return { v->min(), v->max() };
    return { 0, 0 };
}

AxisSpan axisSpan(bool log, double lo, double hi, bool fromZero)
{
    AxisSpan s;
    s.log = log;
    if (log) {
        // labels stand at powers of the base: under two decades, powers of 2 give enough of them to read by
        s.base = hi / lo < 100 ? 2 : 10;
        s.min = lo / 1.3;
        s.max = hi * 1.3;
        if (s.min > 0 && s.max > 0) {
            // 30% of room past the bounds, widened to the next twentieth of a decade (12%): bounds that move a little
            // (runs imported or deleted) keep the range, so the chart changes its points in place
            constexpr double step = 0.05;
            s.min = std::pow(10.0, std::floor(std::log10(s.min) / step + 1e-9) * step);
            s.max = std::pow(10.0, std::ceil(std::log10(s.max) / step - 1e-9) * step);
        }
        return s;
    }
    QValueAxis nice; // Qt's own rounding to nice numbers, which also picks the tick count
    const double span = hi - lo;
    nice.setRange(fromZero ? 0 : std::max(0.0, lo - span * 0.05), hi + span * 0.05 + (span == 0 ? hi * 0.1 : 0));
    nice.applyNiceNumbers();
    s.min = nice.min();
    s.max = nice.max();
    s.ticks = nice.tickCount();
    return s;
}

QAbstractAxis* makeAxis(const AxisSpan& span, const QString& title, const QString& labelPrefix)
{
    QAbstractAxis* axis;
    if (span.log) {
        auto* a = new QLogValueAxis;
        a->setBase(span.base);
        a->setRange(span.min, span.max);
        a->setMinorTickCount(8);
        axis = a;
    } else {
        auto* a = new QValueAxis;
        a->setRange(span.min, span.max);
        a->setTickCount(span.ticks);
        axis = a;
    }
    axis->setProperty(kLabelPrefix, labelPrefix); // kept for the refits of a zoom
    fitLabelFormat(axis);
    axis->setTitleText(title);
    QFont f = axis->titleFont();
    f.setPointSizeF(10.5);
    f.setBold(false);
    axis->setTitleFont(f);
    axis->setGridLineColor(QColor(225, 225, 225));
    return axis;
}

void fitLabelFormat(QAbstractAxis* axis)
{
    // as many decimals as the labels need, no more: "0.1 1.0 10.0" s of TTFT, "20 40 60" s of latency, "0.125"
    // on a base-2 axis. Not "%g": with localised numbers Qt Charts drew no log-axis labels at all with it
    int decimals = 0;
    if (auto* l = qobject_cast<QLogValueAxis*>(axis)) {
        if (l->min() <= 0 || l->base() <= 1)
            return;
        // the first label: the first power of the base in range; the others need no more decimals than it
        decimals = decimalsFor(std::pow(l->base(), std::ceil(std::log(l->min()) / std::log(l->base()) - 1e-9)));
        l->setLabelFormat(axis->property(kLabelPrefix).toString() + QStringLiteral("%.%1f").arg(decimals));
    } else if (auto* v = qobject_cast<QValueAxis*>(axis)) {
        const double step = v->tickCount() > 1 ? (v->max() - v->min()) / (v->tickCount() - 1) : v->max() - v->min();
        decimals = std::max(decimalsFor(step), decimalsFor(v->min()));
        v->setLabelFormat(axis->property(kLabelPrefix).toString() + QStringLiteral("%.%1f").arg(decimals));
    }
}

} // namespace paretoscope::ui
