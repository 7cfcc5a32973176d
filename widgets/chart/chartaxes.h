#pragma once

#include <QAbstractAxis>
#include <QString>
#include <utility>

namespace paretoscope::ui {

/// Where an axis runs and how it is ticked.
struct AxisSpan {
    bool log = false;
    double min = 0, max = 0;
    int base = 10; ///< a log axis' labels stand at its powers
    int ticks = 5; ///< a linear axis' labelled ticks
    bool operator==(const AxisSpan&) const = default;
};

/// The span of an axis showing lo to hi (from 0 on a linear axis where fromZero): a function of the bounds alone,
/// rounded out, so that bounds that move a little (runs imported or deleted) keep the span.
AxisSpan axisSpan(bool log, double lo, double hi, bool fromZero);

/// The axis property that holds what its numbers are written after ("$" on a cost axis).
inline constexpr const char* kLabelPrefix = "paretoscopeLabelPrefix";
/// A new axis over span, titled; its numbers written after labelPrefix ("$": "$0.25").
QAbstractAxis* makeAxis(const AxisSpan& span, const QString& title, const QString& labelPrefix = {});
/// A value or log axis' range; (0, 0) for another kind.
std::pair<double, double> axisRange(const QAbstractAxis* axis);
/// Gives an axis's labels as many decimals as its ticks need (after a zoom too): "0.1 1.0 10.0", "20 40 60", after
/// its kLabelPrefix; the chart localises them (thousands separated: "12,000").
void fitLabelFormat(QAbstractAxis* axis);

} // namespace paretoscope::ui
