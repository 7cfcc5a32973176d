#pragma once

#include <QChartView>
#include <QString>
#include <string>
#include <vector>

#include "core/analysis/history.h"
#include "widgets/common/hardwarecolors.h"

class QCategoryAxis;
class QGraphicsSimpleTextItem;
class QValueAxis;
class QXYSeries;

namespace paretoscope::ui {

/// The reading at one target against run date, a line per hardware in its colour of the main chart, each knot its
/// engine's marker; a knot whose engine or precision differs from the hardware's reading the date before is ringed
/// and labelled with what it changed to. A hardware has no point on a date without a reading (before its first run,
/// or a target its frontier does not cover): its line breaks there.
class HistoryChart : public QChartView {
    Q_OBJECT
public:
    /// One knot as drawn, with its tooltip.
    struct Point {
        std::string hardware;
        int day = 0; ///< yyyymmdd
        double value = 0; ///< tok/s/GPU
        GroupKey key; ///< the group read (its engine, precision, spec decoding)
        bool changed = false; ///< engine or precision differs from the hardware's reading before
        bool joined = false; ///< the hardware's line comes to it from the date before (which has a reading)
        QString label; ///< what it changed to ("SGLang", "FP8"); empty unless changed
        QString toolTip;
    };

    explicit HistoryChart(QWidget* parent = nullptr);
    /// Draws a history computed by core at `target` (tok/s/user), the metric naming the y axis.
    void setHistory(const std::vector<HardwareHistory>& history, double target, TputMetric metric);
    /// Marks the as-of day the rest of the window reads (yyyymmdd) with a dashed line and "as of" it; 0 for none (the
    /// window reads the latest runs).
    void setAsOf(int day);
    int asOf() const { return m_asOf; }
    /// Where the as-of line stands in the chart's coordinates, null when it is not drawn.
    QLineF asOfLine() const;
    /// Draws again in the current theme and palette (View > Theme).
    void restyle();
    /// A message in place of the lines (no runs in scope, an error).
    void showMessage(const QString& message);
    const std::vector<Point>& points() const { return m_points; }
    /// The tooltip of a hardware's knot on a day; empty where it has none.
    QString toolTipAt(const std::string& hardware, int day) const;
    /// The x a day is drawn at (days since 1970-01-01).
    static double dayX(int day);

private:
    /// One series to draw: a hardware's line between dates with readings, its rings, or its knots of one marker.
    struct SeriesPlan {
        enum Kind { Line, Ring, Knot } kind;
        std::string hardware;
        MarkerShape shape;
        bool hollow;
        QList<QPointF> points;
    };
    void clear();
    void removeSeries();
    void clearLabels();
    void planHardware(const HardwareHistory& h, double target, TputMetric metric, std::vector<SeriesPlan>& plan);
    void planLines(const std::string& hardware, std::size_t firstPoint, std::vector<SeriesPlan>& plan);
    void planKnots(const std::string& hardware, std::size_t firstPoint, std::vector<SeriesPlan>& plan);
    void makeAxes();
    /// A series' pen or markers in its hardware's colour under the current theme and palette.
    void colourSeries(QXYSeries* series, const SeriesPlan& plan);
    static QColor labelColour(const std::string& hardware);
    void setRanges(const std::vector<int>& days, double maxValue, TputMetric metric);
    QXYSeries* makeSeries(const SeriesPlan& plan, bool inLegend);
    /// For each series of a new plan, the index of the series drawn now that it keeps (-1: a new one); empty where
    /// none is kept.
    std::vector<int> keptSeries(const std::vector<SeriesPlan>& plan) const;
    /// Takes every series drawn off the chart but those kept (indices into m_series).
    void dropSeriesBut(const std::vector<int>& kept);
    void addLabels();
    /// Keeps the change labels beside their knots when the plot area moves.
    void placeLabels();
    void labelDays();
    void placeAsOf();
    void hovered(const std::string& hardware, QPointF at, bool state);

    std::vector<Point> m_points;
    std::vector<std::pair<std::size_t, QGraphicsSimpleTextItem*>> m_labels; // index into m_points, its label
    QGraphicsSimpleTextItem* m_message;
    int m_asOf = 0;
    QGraphicsLineItem* m_asOfLine;
    QGraphicsSimpleTextItem* m_asOfText;
    std::vector<int> m_days; // the run dates on the x axis
    std::vector<int> m_labelledDays; // those labelled
    QXYSeries* m_anchor = nullptr; // a series on the axes, for mapping labels to the plot
    QCategoryAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
    std::vector<SeriesPlan> m_plan; // what m_series draw, in the same order
    std::vector<QXYSeries*> m_series;
};

} // namespace paretoscope::ui
