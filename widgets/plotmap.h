#pragma once

#include <QAbstractSeries>
#include <QChart>
#include <QThreadPool>
#include <utility>

namespace paretoscope::ui {

/// How one axis places a value along its pixels (as Qt Charts' domains do, linear or logarithmic): what a picture
/// drawn off the GUI thread (the run cloud, the frontier layer) needs of the chart's axes, copied.
struct AxisMap {
    double lo = 0, hi = 1;
    bool log = false;
    double pixels = 1;
    bool flip = false; ///< y: values grow upwards
    /// The value's pixel along the plot, from its left or top edge; NaN off a log axis or on an empty range.
    double place(double v) const;
};

/// The maps of the axes attached to anchor, for the chart's plot area as it is now: horizontal, then vertical.
std::pair<AxisMap, AxisMap> plotMaps(const QChart& chart, QAbstractSeries& anchor);

/// The pool the chart's pictures are drawn on: its threads run behind the GUI thread for good, so they are not Qt's
/// global pool, which Qt's own image conversions and scaling use with the GUI thread waiting on them.
QThreadPool& drawingPool();

} // namespace paretoscope::ui
