#pragma once

#include <QColor>
#include <QImage>
#include <QPainterPath>
#include <QPen>
#include <string>

#include "core/model/scope.h"
#include "widgets/common/hardwarecolors.h"

class QPainter;

namespace paretoscope::ui {

/// How a group is drawn wherever groups are drawn (chart lines, run cloud, legends, exports): its hardware's colour,
/// its precision's line style, its engine's marker (hardwarecolors.h holds the rule).
QColor hardwareColour(const std::string& hardware);
Qt::PenStyle precisionStyle(const std::string& precision);
MarkerShape groupMarker(const GroupKey& key);
/// Knots of a group with speculative decoding are hollow, so that it stands apart from the same engine without it.
bool hollowMarker(const GroupKey& key);

/// A marker's outline, `size` wide and centred on the origin (its area close to a circle's of that width, so that no
/// shape looks heavier than another).
QPainterPath markerPath(MarkerShape shape, qreal size);
/// Draws a marker at a point: filled with the colour, or (hollow) white inside an outline of it.
void drawMarker(
    QPainter& painter, QPointF centre, MarkerShape shape, qreal size, const QColor& colour, bool hollow = false);
/// A marker as a picture for QXYSeries::setLightMarker, drawn sharp at `pixels` and scaled down by Qt Charts.
QImage markerImage(MarkerShape shape, const QColor& colour, bool hollow = false, int pixels = 48);

} // namespace paretoscope::ui
