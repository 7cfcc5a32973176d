#include "historychart.h"

#include <QCategoryAxis>
#include <QCursor>
#include <QDate>
#include <QGraphicsLayout>
#include <QGraphicsSimpleTextItem>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPainter>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <map>

#include "core/analysis/numberformat.h"
#include "core/model/runselection.h"
#include "displaynames.h"
#include "groupstyle.h"

namespace paretoscope::ui {
namespace {

constexpr qreal kKnotSize = 9;
constexpr qreal kRingSize = 17;

QString dateText(int day)
{
    return QString::fromStdString(dayText(day));
}

QString configurationText(const GroupKey& g)
{
    QString text = engineName(g.engine) + QStringLiteral(" · ") + precisionName(g.precision);
    return text + QStringLiteral(" · ")
        + (g.specDecoding.empty() || g.specDecoding == "none"
                ? HistoryChart::tr("no spec decoding")
                : HistoryChart::tr("spec decoding %1").arg(QString::fromStdString(g.specDecoding)));
}

// What changed between two readings' configurations: the new engine and/or precision, for the knot's label.
QString changeLabel(const GroupKey& before, const GroupKey& now)
{
    QStringList parts;
    if (before.engine != now.engine)
        parts << engineName(now.engine);
    if (before.precision != now.precision)
        parts << precisionName(now.precision);
    return parts.join(QStringLiteral(" · "));
}

QString metricUnit(TputMetric metric)
{
    switch (metric) {
    case TputMetric::Input:
        return HistoryChart::tr("input tok/s/GPU");
    case TputMetric::Output:
        return HistoryChart::tr("output tok/s/GPU");
    case TputMetric::Total:
        break;
    }
    return HistoryChart::tr("tok/s/GPU");
}

QString toolTipText(const std::string& hw, const HistoryPoint& p, double target, TputMetric metric,
    const std::optional<std::pair<GroupKey, int>>& before)
{
    const LadderRow& r = p.row;
    QStringList lines;
    lines << HistoryChart::tr("%1, as of %2").arg(hardwareName(hw), dateText(p.day));
    lines << HistoryChart::tr("%1 %2 at %3 tok/s/user")
                 .arg(QString::fromStdString(withThousands(*r.entry.value)), metricUnit(metric),
                     QString::fromStdString(withThousands(target, target < 10 ? 1 : 0)));
    if (r.entry.group)
        lines << configurationText(*r.entry.group);
    lines << (r.costPerMTok ? HistoryChart::tr("%1 per M tok").arg(QString::fromStdString(money(*r.costPerMTok)))
                            : HistoryChart::tr("no price for this hardware"));
    if (r.entry.low && r.entry.high)
        lines << HistoryChart::tr("run-to-run spread %1 – %2")
                     .arg(QString::fromStdString(withThousands(*r.entry.low)),
                         QString::fromStdString(withThousands(*r.entry.high)));
    if (r.entry.sparse)
        lines << HistoryChart::tr("read across a gap between measured points");
    if (before && r.entry.group && !changeLabel(before->first, *r.entry.group).isEmpty())
        lines
            << HistoryChart::tr("changed from %1 (%2)").arg(configurationText(before->first), dateText(before->second));
    return lines.join(u'\n');
}

// A ring for the knots whose configuration changed: an outline only, so that the line shows through.
QImage ringImage(const QColor& colour)
{
    QImage image(48, 48, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(colour, 5));
    p.drawEllipse(QRectF(4, 4, 40, 40));
    return image;
}

// The dates labelled on the x axis: the first and the last (the latest alone where they are closer than `gap`, in
// days), and between them those at least `gap` from the labels beside them.
std::vector<int> labelledDays(const std::vector<int>& days, double gap)
{
    if (days.size() <= 1)
        return days;
    std::vector<int> out { days.front() };
    for (std::size_t i = 1; i + 1 < days.size(); ++i)
        if (HistoryChart::dayX(days[i]) - HistoryChart::dayX(out.back()) >= gap
            && HistoryChart::dayX(days.back()) - HistoryChart::dayX(days[i]) >= gap)
            out.push_back(days[i]);
    if (HistoryChart::dayX(days.back()) - HistoryChart::dayX(out.back()) >= gap)
        out.push_back(days.back());
    else
        out.back() = days.back(); // the first and the last crowd each other: the latest
    return out;
}

} // namespace

HistoryChart::HistoryChart(QWidget* parent)
    : QChartView(new QChart, parent)
    , m_message(new QGraphicsSimpleTextItem(chart()))
{
    setRenderHint(QPainter::Antialiasing);
    chart()->legend()->setAlignment(Qt::AlignRight);
    chart()->setMargins(QMargins(4, 4, 4, 4));
    chart()->layout()->setContentsMargins(0, 0, 0, 0);
    chart()->setBackgroundRoundness(0);
    // "20,000" as on the main chart
    chart()->setLocalizeNumbers(true);
    chart()->setLocale(QLocale(QLocale::English, QLocale::UnitedStates));
    m_message->setBrush(QColor(0x55, 0x55, 0x55));
    connect(chart(), &QChart::plotAreaChanged, this, &HistoryChart::placeLabels);
}

double HistoryChart::dayX(int day)
{
    return double(QDate(1970, 1, 1).daysTo(QDate(day / 10000, day / 100 % 100, day % 100)));
}

void HistoryChart::clear()
{
    for (const auto& label : m_labels)
        delete label.second;
    m_labels.clear();
    m_points.clear();
    m_labelledDays.clear();
    m_anchor = nullptr;
    chart()->removeAllSeries();
    for (QAbstractAxis* axis : chart()->axes())
        chart()->removeAxis(axis);
    m_message->hide();
}

void HistoryChart::showMessage(const QString& message)
{
    clear();
    m_message->setText(message);
    m_message->setPos(chart()->plotArea().topLeft() + QPointF(12, 12));
    m_message->show();
}

void HistoryChart::setHistory(const std::vector<HardwareHistory>& history, double target, TputMetric metric)
{
    clear();
    std::vector<int> days;
    double maxValue = 0;
    for (const HardwareHistory& h : history)
        for (const HistoryPoint& p : h.points) {
            days.push_back(p.day);
            if (p.row.entry.value)
                maxValue = std::max(maxValue, *p.row.entry.value);
        }
    std::sort(days.begin(), days.end());
    days.erase(std::unique(days.begin(), days.end()), days.end());
    if (days.empty())
        return showMessage(tr("No runs in this scope."));
    if (maxValue <= 0)
        return showMessage(tr("No hardware has a reading at %1 tok/s/user on any run date.")
                               .arg(QString::fromStdString(withThousands(target, target < 10 ? 1 : 0))));
    setAxes(days, maxValue, metric);
    for (const HardwareHistory& h : history)
        addHardware(h, target, metric);
    placeLabels();
}

void HistoryChart::setAxes(const std::vector<int>& days, double maxValue, TputMetric metric)
{
    auto* x = new QCategoryAxis;
    x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    const double span = dayX(days.back()) - dayX(days.front());
    const double pad = std::max(1.0, span * 0.04);
    x->setRange(dayX(days.front()) - pad, dayX(days.back()) + pad);
    m_days = days;
    x->setTitleText(tr("run date (each reading as of that date)"));
    auto* y = new QValueAxis;
    y->setRange(0, maxValue * 1.08);
    y->applyNiceNumbers();
    y->setLabelFormat(QStringLiteral("%.0f"));
    y->setTitleText(metricUnit(metric));
    for (QAbstractAxis* axis : { static_cast<QAbstractAxis*>(x), static_cast<QAbstractAxis*>(y) }) {
        QFont f = axis->titleFont();
        f.setPointSizeF(10.5);
        f.setBold(false);
        axis->setTitleFont(f);
        axis->setGridLineColor(QColor(225, 225, 225));
    }
    chart()->addAxis(x, Qt::AlignBottom);
    chart()->addAxis(y, Qt::AlignLeft);
}

void HistoryChart::attach(QXYSeries* series, bool inLegend)
{
    chart()->addSeries(series);
    for (QAbstractAxis* axis : chart()->axes())
        series->attachAxis(axis);
    if (!inLegend)
        for (QLegendMarker* marker : chart()->legend()->markers(series))
            marker->setVisible(false);
    if (!m_anchor)
        m_anchor = series;
}

void HistoryChart::addHardware(const HardwareHistory& h, double target, TputMetric metric)
{
    const std::size_t first = m_points.size();
    std::optional<std::pair<GroupKey, int>> before; // the configuration of the last reading, and its day
    bool joined = false; // the date before had a reading
    for (const HistoryPoint& p : h.points) {
        if (!p.row.entry.value) {
            joined = false; // no point where there is no reading (before the first run, a target not covered)
            continue;
        }
        Point point;
        point.hardware = h.hardware;
        point.day = p.day;
        point.value = *p.row.entry.value;
        point.joined = joined;
        point.toolTip = toolTipText(h.hardware, p, target, metric, before);
        if (const auto& g = p.row.entry.group) {
            point.key = *g;
            if (before)
                point.label = changeLabel(before->first, *g);
            point.changed = !point.label.isEmpty();
            before = std::pair { *g, p.day };
        }
        m_points.push_back(std::move(point));
        joined = true;
    }
    if (m_points.size() == first)
        return;
    addLines(h.hardware, first);
    addKnots(h.hardware, first);
}

// A line per run of consecutive dates with readings: a date without one breaks the line. Only the first is in the
// legend, named after the hardware.
void HistoryChart::addLines(const std::string& hardware, std::size_t firstPoint)
{
    QLineSeries* line = nullptr;
    for (std::size_t i = firstPoint; i < m_points.size(); ++i) {
        const Point& p = m_points[i];
        if (!line || !p.joined) {
            const bool inLegend = !line;
            line = new QLineSeries;
            line->setName(hardwareName(hardware));
            line->setPen(QPen(hardwareColour(hardware), 2));
            attach(line, inLegend);
        }
        line->append(dayX(p.day), p.value);
    }
}

// The knots: each its engine's marker (hollow with spec decoding), as on the main chart; a changed configuration
// ringed and labelled with what it changed to.
void HistoryChart::addKnots(const std::string& hardware, std::size_t firstPoint)
{
    const QColor colour = hardwareColour(hardware);
    QScatterSeries* rings = nullptr;
    std::map<std::pair<MarkerShape, bool>, QScatterSeries*> knots;
    for (std::size_t i = firstPoint; i < m_points.size(); ++i) {
        const Point& p = m_points[i];
        if (p.changed) {
            if (!rings) {
                rings = new QScatterSeries;
                rings->setLightMarker(ringImage(colour));
                rings->setMarkerSize(kRingSize);
            }
            rings->append(dayX(p.day), p.value);
            auto* label = new QGraphicsSimpleTextItem(p.label, chart());
            label->setBrush(colour.darker(140));
            label->setZValue(10);
            m_labels.push_back({ i, label });
        }
        QScatterSeries*& knot = knots[{ groupMarker(p.key), hollowMarker(p.key) }];
        if (!knot) {
            knot = new QScatterSeries;
            knot->setLightMarker(markerImage(groupMarker(p.key), colour, hollowMarker(p.key)));
            knot->setMarkerSize(kKnotSize);
            connect(knot, &QScatterSeries::hovered, this,
                [this, hardware](const QPointF& at, bool state) { hovered(hardware, at, state); });
        }
        knot->append(dayX(p.day), p.value);
    }
    if (rings)
        attach(rings, false);
    for (const auto& entry : knots)
        attach(entry.second, false);
}

// The x axis's dates, as many as the plot's width has room for without two touching.
void HistoryChart::labelDays()
{
    auto* x = m_anchor ? qobject_cast<QCategoryAxis*>(chart()->axes(Qt::Horizontal).value(0)) : nullptr;
    if (!x || chart()->plotArea().width() <= 0)
        return;
    const double pixels = QFontMetrics(x->labelsFont()).horizontalAdvance(QStringLiteral("2026-12-31")) + 16;
    const std::vector<int> days = labelledDays(m_days, pixels * (x->max() - x->min()) / chart()->plotArea().width());
    if (days == m_labelledDays)
        return;
    m_labelledDays = days;
    for (const QString& label : x->categoriesLabels())
        x->remove(label);
    for (int day : days)
        x->append(dateText(day), dayX(day));
}

void HistoryChart::placeLabels()
{
    if (!m_anchor)
        return;
    labelDays();
    for (const auto& [i, label] : m_labels) {
        const QPointF at = chart()->mapToPosition(QPointF(dayX(m_points[i].day), m_points[i].value), m_anchor);
        label->setPos(
            at + QPointF(-label->boundingRect().width() / 2, -kRingSize - label->boundingRect().height() / 2));
    }
}

QString HistoryChart::toolTipAt(const std::string& hardware, int day) const
{
    for (const Point& p : m_points)
        if (p.hardware == hardware && p.day == day)
            return p.toolTip;
    return {};
}

void HistoryChart::hovered(const std::string& hardware, QPointF at, bool state)
{
    if (!state) {
        QToolTip::hideText();
        return;
    }
    const Point* best = nullptr;
    for (const Point& p : m_points)
        if (p.hardware == hardware && (!best || std::abs(dayX(p.day) - at.x()) < std::abs(dayX(best->day) - at.x())))
            best = &p;
    if (best)
        QToolTip::showText(QCursor::pos(), plainToolTip(best->toolTip), this);
}

} // namespace paretoscope::ui
