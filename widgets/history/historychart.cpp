#include "widgets/history/historychart.h"

#include <QCategoryAxis>
#include <QCursor>
#include <QDate>
#include <QGraphicsLayout>
#include <QGraphicsLineItem>
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
#include "core/model/displaynames.h"
#include "core/model/runselection.h"
#include "widgets/common/displaynames.h"
#include "widgets/common/groupstyle.h"
#include "widgets/common/theme.h"

namespace paretoscope::ui {
namespace {

constexpr qreal kKnotSize = 9;
constexpr qreal kRingSize = 17;

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
    if (specDecodingDisplayName(before.specDecoding) != specDecodingDisplayName(now.specDecoding)) {
        const std::string spec = specDecodingDisplayName(now.specDecoding);
        parts << (spec.empty() ? HistoryChart::tr("no spec decoding") : QString::fromStdString(spec));
    }
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
    lines << HistoryChart::tr("%1, as of %2").arg(hardwareName(hw), dayLabel(p.day));
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
            << HistoryChart::tr("changed from %1 (%2)").arg(configurationText(before->first), dayLabel(before->second));
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
    , m_asOfLine(new QGraphicsLineItem(chart()))
    , m_asOfText(new QGraphicsSimpleTextItem(chart()))
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
    clearLabels();
    m_points.clear();
    removeSeries();
    m_message->hide();
}

void HistoryChart::removeSeries()
{
    m_plan.clear();
    m_series.clear();
    m_labelledDays.clear();
    m_anchor = nullptr;
    m_x = nullptr;
    m_y = nullptr;
    chart()->removeAllSeries(); // deletes them
    for (QAbstractAxis* axis : chart()->axes()) {
        chart()->removeAxis(axis); // gives it back, not deleted: AddressSanitizer found them leaked
        delete axis;
    }
}

void HistoryChart::clearLabels()
{
    for (const auto& label : m_labels)
        delete label.second;
    m_labels.clear();
}

void HistoryChart::showMessage(const QString& message)
{
    clear();
    m_message->setText(message);
    m_message->setPos(chart()->plotArea().topLeft() + QPointF(12, 12));
    m_message->show();
}

void HistoryChart::restyle()
{
    // in place: each series in its plan's colours, the change labels and the as-of mark
    styleChart(chart());
    for (std::size_t i = 0; i < m_series.size() && i < m_plan.size(); ++i)
        colourSeries(m_series[i], m_plan[i]);
    for (const auto& [point, label] : m_labels)
        label->setBrush(labelColour(m_points[point].hardware));
    placeAsOf();
}

void HistoryChart::colourSeries(QXYSeries* series, const SeriesPlan& plan)
{
    const QColor colour = hardwareColour(plan.hardware);
    if (plan.kind == SeriesPlan::Line)
        series->setPen(QPen(colour, 2));
    else if (auto* scatter = qobject_cast<QScatterSeries*>(series))
        scatter->setLightMarker(
            plan.kind == SeriesPlan::Ring ? ringImage(colour) : markerImage(plan.shape, colour, plan.hollow));
}

QColor HistoryChart::labelColour(const std::string& hardware)
{
    return chartColours().dark ? hardwareColour(hardware).lighter(120) : hardwareColour(hardware).darker(140);
}

void HistoryChart::setHistory(const std::vector<HardwareHistory>& history, double target, TputMetric metric)
{
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
    clearLabels();
    m_points.clear();
    std::vector<SeriesPlan> plan;
    for (const HardwareHistory& h : history)
        planHardware(h, target, metric, plan);
    m_message->hide();
    const std::vector<int> kept = keptSeries(plan);
    if (kept.empty()) {
        removeSeries();
        makeAxes();
    } else {
        dropSeriesBut(kept);
    }
    setRanges(days, maxValue, metric);
    std::vector<QXYSeries*> series;
    for (std::size_t i = 0; i < plan.size(); ++i) {
        const bool inLegend = i == 0 || plan[i - 1].hardware != plan[i].hardware;
        if (i < kept.size() && kept[i] >= 0) {
            series.push_back(m_series[std::size_t(kept[i])]);
            series.back()->replace(plan[i].points);
            for (QLegendMarker* marker : chart()->legend()->markers(series.back()))
                marker->setVisible(inLegend);
        } else {
            series.push_back(makeSeries(plan[i], inLegend));
        }
    }
    m_series = std::move(series);
    m_plan = std::move(plan);
    addLabels();
    placeLabels();
}

std::vector<int> HistoryChart::keptSeries(const std::vector<SeriesPlan>& plan) const
{
    // a target moved: the lines break on other dates, a hardware's readings start later, and so on. A series drawn
    // now that the new plan draws too (its kind, hardware and marker) keeps its object and only its points change,
    // which costs Qt Charts far less than a new series (1 to 3 ms a step on the bench's drag). The chart draws and
    // lists its series in the order they were added, so series are kept only where the new ones all come after them
    // (none kept: empty)
    const auto sameKind = [](const SeriesPlan& a, const SeriesPlan& b) {
        return a.kind == b.kind && a.hardware == b.hardware && a.shape == b.shape && a.hollow == b.hollow;
    };
    if (!m_x)
        return {};
    std::vector<int> kept(plan.size(), -1);
    std::size_t next = 0; // the series drawn are matched in their order
    bool added = false;
    for (std::size_t i = 0; i < plan.size(); ++i) {
        std::size_t j = next;
        while (j < m_plan.size() && !sameKind(m_plan[j], plan[i]))
            ++j;
        if (j == m_plan.size()) {
            added = true;
            continue;
        }
        if (added)
            return {}; // a new series before one kept: it would be drawn and listed after it
        kept[i] = int(j);
        next = j + 1;
    }
    if (std::none_of(kept.begin(), kept.end(), [](int k) { return k >= 0; }))
        return {};
    return kept;
}

void HistoryChart::dropSeriesBut(const std::vector<int>& kept)
{
    std::vector<bool> keep(m_series.size(), false);
    for (int k : kept)
        if (k >= 0)
            keep[std::size_t(k)] = true;
    for (std::size_t j = 0; j < m_series.size(); ++j)
        if (!keep[j]) {
            if (m_anchor == m_series[j])
                m_anchor = nullptr;
            chart()->removeSeries(m_series[j]);
            delete m_series[j];
        }
    if (!m_anchor)
        for (std::size_t j = 0; j < m_series.size(); ++j)
            if (keep[j]) {
                m_anchor = m_series[j];
                break;
            }
}

void HistoryChart::makeAxes()
{
    m_x = new QCategoryAxis;
    m_x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    m_x->setTitleText(tr("run date (each reading as of that date)"));
    m_y = new QValueAxis;
    m_y->setLabelFormat(QStringLiteral("%.0f"));
    for (QAbstractAxis* axis : { static_cast<QAbstractAxis*>(m_x), static_cast<QAbstractAxis*>(m_y) }) {
        QFont f = axis->titleFont();
        f.setPointSizeF(10.5);
        f.setBold(false);
        axis->setTitleFont(f);
        axis->setGridLineColor(QColor(225, 225, 225));
    }
    chart()->addAxis(m_x, Qt::AlignBottom);
    chart()->addAxis(m_y, Qt::AlignLeft);
    styleChart(chart());
}

void HistoryChart::setRanges(const std::vector<int>& days, double maxValue, TputMetric metric)
{
    const double span = dayX(days.back()) - dayX(days.front());
    const double pad = std::max(1.0, span * 0.04);
    m_x->setRange(dayX(days.front()) - pad, dayX(days.back()) + pad);
    if (days != m_days)
        m_labelledDays.clear();
    m_days = days;
    m_y->setRange(0, maxValue * 1.08);
    m_y->applyNiceNumbers();
    m_y->setTitleText(metricUnit(metric));
}

QXYSeries* HistoryChart::makeSeries(const SeriesPlan& plan, bool inLegend)
{
    QXYSeries* series;
    if (plan.kind == SeriesPlan::Line) {
        series = new QLineSeries;
        series->setName(hardwareName(plan.hardware));
    } else {
        auto* scatter = new QScatterSeries;
        scatter->setMarkerSize(plan.kind == SeriesPlan::Ring ? kRingSize : kKnotSize);
        if (plan.kind == SeriesPlan::Knot)
            connect(scatter, &QScatterSeries::hovered, this,
                [this, hw = plan.hardware](const QPointF& at, bool state) { hovered(hw, at, state); });
        series = scatter;
    }
    colourSeries(series, plan);
    series->append(plan.points); // before the chart has it: a point appended to a series on a chart costs an update
    chart()->addSeries(series);
    series->attachAxis(m_x);
    series->attachAxis(m_y);
    if (!inLegend)
        for (QLegendMarker* marker : chart()->legend()->markers(series))
            marker->setVisible(false);
    if (!m_anchor)
        m_anchor = series;
    return series;
}

void HistoryChart::planHardware(
    const HardwareHistory& h, double target, TputMetric metric, std::vector<SeriesPlan>& plan)
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
    planLines(h.hardware, first, plan);
    planKnots(h.hardware, first, plan);
}

// A line per run of consecutive dates with readings: a date without one breaks the line. Only the first is in the
// legend, named after the hardware.
void HistoryChart::planLines(const std::string& hardware, std::size_t firstPoint, std::vector<SeriesPlan>& plan)
{
    for (std::size_t i = firstPoint; i < m_points.size(); ++i) {
        if (i == firstPoint || !m_points[i].joined)
            plan.push_back({ SeriesPlan::Line, hardware, MarkerShape::Circle, false, {} });
        plan.back().points.append(QPointF(dayX(m_points[i].day), m_points[i].value));
    }
}

// The knots: each its engine's marker (hollow with spec decoding), as on the main chart; a changed configuration
// ringed (and labelled, addLabels).
void HistoryChart::planKnots(const std::string& hardware, std::size_t firstPoint, std::vector<SeriesPlan>& plan)
{
    SeriesPlan rings { SeriesPlan::Ring, hardware, MarkerShape::Circle, false, {} };
    std::map<std::pair<MarkerShape, bool>, SeriesPlan> knots;
    for (std::size_t i = firstPoint; i < m_points.size(); ++i) {
        const Point& p = m_points[i];
        const QPointF at(dayX(p.day), p.value);
        if (p.changed)
            rings.points.append(at);
        const auto key = std::pair { groupMarker(p.key), hollowMarker(p.key) };
        auto it = knots.try_emplace(key, SeriesPlan { SeriesPlan::Knot, hardware, key.first, key.second, {} }).first;
        it->second.points.append(at);
    }
    if (!rings.points.isEmpty())
        plan.push_back(std::move(rings));
    for (auto& entry : knots)
        plan.push_back(std::move(entry.second));
}

void HistoryChart::addLabels()
{
    for (std::size_t i = 0; i < m_points.size(); ++i)
        if (m_points[i].changed) {
            auto* label = new QGraphicsSimpleTextItem(m_points[i].label, chart());
            label->setBrush(labelColour(m_points[i].hardware));
            label->setZValue(10);
            m_labels.emplace_back(i, label);
        }
}

// The x axis's dates, as many as the plot's width has room for without two touching.
void HistoryChart::labelDays()
{
    QCategoryAxis* x = m_x;
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
        x->append(dayLabel(day), dayX(day));
}

void HistoryChart::setAsOf(int day)
{
    m_asOf = day;
    placeAsOf();
}

QLineF HistoryChart::asOfLine() const
{
    return m_asOfLine->isVisible() ? m_asOfLine->line() : QLineF();
}

void HistoryChart::placeAsOf()
{
    // the day the readout, the chart and the plan read, on the timeline of every run date (the lines run on past it)
    const bool shown = m_asOf > 0 && m_anchor && !m_days.empty() && m_asOf >= m_days.front() && m_asOf <= m_days.back();
    m_asOfLine->setVisible(shown);
    m_asOfText->setVisible(shown);
    if (!shown)
        return;
    const QRectF plot = chart()->plotArea();
    const qreal x = chart()->mapToPosition(QPointF(dayX(m_asOf), 0), m_anchor).x();
    QPen pen(chartColours().faintText, 1.2, Qt::DashLine);
    m_asOfLine->setPen(pen);
    m_asOfLine->setLine(QLineF(x, plot.top(), x, plot.bottom()));
    m_asOfLine->setZValue(5);
    const int d = m_asOf;
    m_asOfText->setText(tr("as of %1").arg(QDate(d / 10000, d / 100 % 100, d % 100).toString(Qt::ISODate)));
    m_asOfText->setBrush(chartColours().text);
    m_asOfText->setZValue(6);
    // right of the line, or left of it where the plot ends
    const qreal w = m_asOfText->boundingRect().width();
    m_asOfText->setPos(x + 4 + w > plot.right() ? x - 4 - w : x + 4, plot.top() + 2);
}

void HistoryChart::placeLabels()
{
    placeAsOf();
    if (!m_anchor)
        return;
    labelDays();
    // a label that would cover one already placed is left out (its ring and tooltip still say it)
    std::vector<QRectF> placed;
    for (const auto& [i, label] : m_labels) {
        const QPointF at = chart()->mapToPosition(QPointF(dayX(m_points[i].day), m_points[i].value), m_anchor);
        label->setPos(
            at + QPointF(-label->boundingRect().width() / 2, -kRingSize - label->boundingRect().height() / 2));
        const QRectF r = label->mapRectToScene(label->boundingRect());
        const bool free = std::none_of(placed.begin(), placed.end(), [&](const QRectF& p) { return p.intersects(r); });
        label->setVisible(free);
        if (free)
            placed.push_back(r);
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
