#include "frontierchart.h"

#include <QLegendMarker>
#include <QLocale>
#include <QLogValueAxis>
#include <QPointer>
#include <QTimer>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>

#include "core/output/reports.h"
#include "displaynames.h"
#include "groupstyle.h"

namespace paretoscope::ui {

QString xAxisTitle(const ChartRequest& r)
{
    switch (r.x) {
    case ChartX::Interactivity:
        break;
    case ChartX::Latency:
        return QObject::tr("End-to-end latency, median (s)");
    case ChartX::TtftMedian:
        return QObject::tr("Time to first token, median (s)");
    case ChartX::TtftP99:
        return QObject::tr("Time to first token, p99 (s)");
    }
    return QObject::tr("Interactivity (tok/s/user)");
}

QString xAxisName(const ChartRequest& r)
{
    switch (r.x) {
    case ChartX::Interactivity:
        break;
    case ChartX::Latency:
        return QObject::tr("end-to-end latency");
    case ChartX::TtftMedian:
        return QObject::tr("median TTFT");
    case ChartX::TtftP99:
        return QObject::tr("p99 TTFT");
    }
    return QObject::tr("interactivity");
}

QString yAxisTitle(const ChartRequest& r, TputMetric metric)
{
    const QString tokens = QString::fromLatin1(metricName(metric).data()) + QObject::tr(" tokens");
    switch (r.y) {
    case ChartY::Throughput:
        return QObject::tr("tok/s/GPU (%1)").arg(tokens);
    case ChartY::Cost:
        return QObject::tr("$ per million %1").arg(tokens);
    case ChartY::TokensPerMegawatt:
        return QObject::tr("tok/s per MW, all-in (%1)").arg(QString::fromLatin1(metricName(metric).data()));
    case ChartY::JoulesPerToken:
        return QObject::tr("J/token, all-in (%1)").arg(QString::fromLatin1(metricName(metric).data()));
    case ChartY::MeasuredJoulesPerToken:
        return QObject::tr("J/token, measured GPU (%1)").arg(QString::fromLatin1(metricName(metric).data()));
    }
    return {};
}

namespace {

QList<QPointF> pointList(const std::vector<Point>& points)
{
    QList<QPointF> out;
    out.reserve(qsizetype(points.size()));
    for (const Point& p : points)
        out.append(QPointF(p.x, p.y));
    return out;
}

QString readingText(double y, ChartY kind)
{
    switch (kind) {
    case ChartY::Cost:
        return QString::fromStdString(money(y));
    case ChartY::JoulesPerToken:
    case ChartY::MeasuredJoulesPerToken:
        return QString::fromStdString(withSignificant(y)) + QObject::tr(" J");
    default:
        return QString::fromStdString(withThousands(y));
    }
}

} // namespace

FrontierChart::FrontierChart(std::shared_ptr<const ScopeData> data, const ChartState& state,
    const PricingCatalog& pricing, std::shared_ptr<const ChartData> drawn)
    : m_data(std::move(data))
    , m_state(state)
    , m_pricing(pricing)
{
    setLocalizeNumbers(true);
    setLocale(QLocale(QLocale::English, QLocale::UnitedStates));
    setAnimationOptions(QChart::NoAnimation);
    setBackgroundRoundness(0);
    setMargins(QMargins(6, 6, 12, 6));
    // the chart's own legend is never shown (the window's stands beside the view, exports draw theirs); detached, its
    // entries following a restyled line no longer lay the chart, its axes and their labels out again on a slider step
    legend()->hide();
    legend()->detachFromChart();
    m_pointsGiven = drawn != nullptr;
    m_chart = drawn ? *drawn : paretoscope::chartData(*m_data, pricing, m_state.request);
    addSpreadBands(); // first: under every line
    addGroupLines();
    addSpeedOfLightLines();
    const auto [ax, ay] = addAxes();
    addOverlays(ax, ay);
    connectLegend();
    setTarget(m_state.target);
    m_built = true;
}

void FrontierChart::cacheStillItems()
{
    // the lines and bands do not change on a slider step, but the marker moving over them repaints the region it
    // leaves and the one it enters, which re-strokes every line and band there (10 to 13 ms of the GUI thread per
    // step on the bench's scope). Each keeps its last paint in a pixmap instead; a restyled, zoomed or resized one
    // renders its own again. Only the series' items: Qt Charts' axis labels do not repaint a cached item when their
    // text changes (a zoom left them blank), and they are cheap to draw
    if (m_stillCached || isZoomed())
        return;
    m_stillCached = true;
    setStillCache(QGraphicsItem::DeviceCoordinateCache);
}

void FrontierChart::fillStillCaches()
{
    // setting a cache mode paints nothing: without a repaint here the pixmaps would be filled by the next paint that
    // touches the lines, a drag's first step (its paint took 30 ms of the GUI thread's CPU on bench_explorer's scope,
    // 16 with them filled). Once per chart and per zoom reset, even where a target change cached them meanwhile
    if (m_stillFilled || isZoomed())
        return;
    cacheStillItems();
    m_stillFilled = true;
    forEachStillItem([](QGraphicsItem* item) { item->update(); });
}

void FrontierChart::setStillCache(QGraphicsItem::CacheMode mode)
{
    forEachStillItem([mode](QGraphicsItem* item) { item->setCacheMode(mode); });
}

void FrontierChart::forEachStillItem(const std::function<void(QGraphicsItem*)>& apply, int kinds)
{
    const auto top = childItems();
    std::vector<QGraphicsItem*> todo(top.begin(), top.end());
    while (!todo.empty()) {
        QGraphicsItem* item = todo.back();
        todo.pop_back();
        const auto kids = item->childItems();
        todo.insert(todo.end(), kids.begin(), kids.end());
        const QGraphicsObject* object = item->toGraphicsObject();
        const char* kind = object ? object->metaObject()->className() : "";
        if (((kinds & StillLines) && std::strstr(kind, "LineChartItem"))
            || ((kinds & StillBands) && std::strstr(kind, "AreaChartItem")))
            apply(item);
    }
}

QPointer<QGraphicsObject> FrontierChart::addStillSeries(QAbstractSeries* series, StillKind kind)
{
    // Qt Charts makes a series' item as the series is added, and gives no way from one to the other: the item is the
    // one of its kind that was not there before
    std::set<QGraphicsItem*> before;
    forEachStillItem([&before](QGraphicsItem* item) { before.insert(item); }, kind);
    addSeries(series);
    QGraphicsObject* added = nullptr;
    int count = 0;
    forEachStillItem(
        [&](QGraphicsItem* item) {
            if (!before.count(item)) {
                added = item->toGraphicsObject();
                ++count;
            }
        },
        kind);
    return count == 1 ? added : nullptr;
}

bool FrontierChart::stillItemsFound() const
{
    for (std::size_t i = 0; i < m_lines.size(); ++i)
        if (!m_lineItems[i] || (m_bands[i] && !m_bandItems[i]))
            return false;
    return std::all_of(m_solItems.begin(), m_solItems.end(), [](const auto& item) { return !item.isNull(); });
}

void FrontierChart::axisRangeChanged()
{
    // zoomed in, a line runs past the plot, and its cached paint is not clipped to it (it was drawn over the axis
    // labels): a zoomed chart paints its lines afresh; reset, it caches and fills them again a moment later
    if (!m_built)
        return;
    if (m_stillCached) {
        m_stillCached = false;
        setStillCache(QGraphicsItem::NoCache);
    }
    m_stillFilled = false;
    QTimer::singleShot(kStillFillDelayMs, this, &FrontierChart::fillStillCaches); // nothing while still zoomed
}

void FrontierChart::addSpreadBands()
{
    // where reruns give a reading a spread, the band between the frontier of each configuration's lowest run and that
    // of its highest, faint in the group's colour
    for (const ChartSeries& s : m_chart.series) {
        if (s.low.empty() || s.high.empty()) {
            m_bands.push_back(nullptr);
            m_bandItems.emplace_back();
            continue;
        }
        auto* upper = new QLineSeries;
        auto* lower = new QLineSeries;
        upper->append(pointList(s.high));
        lower->append(pointList(s.low));
        auto* band = new QAreaSeries(upper, lower);
        upper->setParent(band);
        lower->setParent(band);
        QColor c = hardwareColour(s.key.hardware);
        c.setAlpha(45);
        band->setBrush(c);
        band->setPen(Qt::NoPen);
        band->setName(tr("%1 · spread of reruns").arg(groupLabel(s.key)).toHtmlEscaped());
        m_bandItems.push_back(addStillSeries(band, StillBands));
        m_bands.push_back(band);
    }
}

void FrontierChart::addGroupLines()
{
    // each hardware its own colour whatever is hidden, each precision its line style, each engine its marker
    for (const ChartSeries& s : m_chart.series) {
        auto* line = new QLineSeries;
        // Qt Charts lays legend labels out as HTML: names from imported files are escaped to show as written
        line->setName(groupName(m_lines.size()).toHtmlEscaped());
        line->append(pointList(s.frontier));
        line->setPointsVisible(true);
        line->setMarkerSize(9);
        m_lineItems.push_back(addStillSeries(line, StillLines));
        m_lines.push_back(line);
        m_colours.push_back(hardwareColour(s.key.hardware));
    }
    m_covers.assign(m_lines.size(), true);
}

void FrontierChart::addSpeedOfLightLines()
{
    // the speed of light: dashed, in its hardware's colour, above the measured frontiers it bounds
    for (const ChartSol& sol : m_chart.speedOfLight) {
        auto* line = new QLineSeries;
        line->setName(speedOfLightName(m_solLines.size()).toHtmlEscaped());
        line->append(pointList(sol.points));
        QPen pen(hardwareColour(sol.hardware), 1.8, Qt::DashLine);
        pen.setDashPattern({ 6, 4 });
        line->setPen(pen);
        m_solItems.push_back(addStillSeries(line, StillLines));
        m_solLines.push_back(line);
    }
}

std::pair<AxisSpan, AxisSpan> FrontierChart::spansFor(const ChartData& chart) const
{
    const bool any = chart.xMax > 0;
    return { axisSpan(m_state.request.logX, any ? chart.xMin : 1, any ? chart.xMax : 1000, false),
        axisSpan(m_state.request.logY, any ? chart.yMin : 1, any ? chart.yMax : 1000, !m_state.request.logY) };
}

std::pair<QAbstractAxis*, QAbstractAxis*> FrontierChart::addAxes()
{
    m_spans = spansFor(m_chart);
    auto* ax = makeAxis(m_spans.first, xAxisTitle(m_state.request));
    auto* ay = makeAxis(m_spans.second, yAxisTitle(m_state.request, m_data->metric));
    addAxis(ax, Qt::AlignBottom);
    addAxis(ay, Qt::AlignLeft);
    // the bounds are cut at the plot's edges here: a renderer that does not clip (SVG) would draw them over the
    // title and the legend
    const auto [x0, x1] = axisRange(ax);
    const auto [y0, y1] = axisRange(ay);
    for (std::size_t i = 0; i < m_solLines.size(); ++i)
        m_solLines[i]->replace(pointList(
            clipPolyline(m_chart.speedOfLight[i].points, x0, x1, y0, y1, m_state.request.logX, m_state.request.logY)));
    return { ax, ay };
}

void FrontierChart::addOverlays(QAbstractAxis* ax, QAbstractAxis* ay)
{
    // an invisible anchor keeps the axes usable for mapping even when every group is switched off
    auto* anchor = new QLineSeries;
    addSeries(anchor);
    for (QAbstractSeries* s : series()) {
        s->attachAxis(ax);
        s->attachAxis(ay);
    }
    legend()->markers(anchor).front()->setVisible(false);

    std::vector<RunCloud::Group> cloud;
    for (std::size_t i = 0; i < m_chart.series.size(); ++i)
        cloud.push_back({ m_chart.series[i].runs, m_colours[i], groupMarker(m_chart.series[i].key) });
    m_cloud = new RunCloud(this, anchor);
    m_cloud->setGroups(std::move(cloud));
    m_marker = new TargetMarker(this, anchor);
    // zoom, reset and resizes move the axes: both items follow, announcing their new bounds to the scene first
    connect(ax, &QAbstractAxis::visibleChanged, m_cloud, &RunCloud::invalidate);
    for (QAbstractAxis* axis : { ax, ay }) {
        if (auto* v = qobject_cast<QValueAxis*>(axis)) {
            connect(v, &QValueAxis::rangeChanged, m_cloud, &RunCloud::invalidate);
            connect(v, &QValueAxis::rangeChanged, m_marker, &TargetMarker::relayout);
            connect(v, &QValueAxis::rangeChanged, this, &FrontierChart::axisRangeChanged);
        }
        if (auto* v = qobject_cast<QLogValueAxis*>(axis)) {
            connect(v, &QLogValueAxis::rangeChanged, m_cloud, &RunCloud::invalidate);
            connect(v, &QLogValueAxis::rangeChanged, m_marker, &TargetMarker::relayout);
            connect(v, &QLogValueAxis::rangeChanged, this, &FrontierChart::axisRangeChanged);
        }
    }
}

void FrontierChart::connectLegend()
{
    // the chart's own legend stays hidden and unstyled; a click on an entry still switches its line
    for (QLineSeries* sol : m_solLines) {
        QLegendMarker* marker = legend()->markers(sol).front();
        connect(marker, &QLegendMarker::clicked, sol, [sol] { sol->setVisible(!sol->isVisible()); });
    }
    for (std::size_t i = 0; i < m_lines.size(); ++i) {
        QLegendMarker* marker = legend()->markers(m_lines[i]).front();
        connect(marker, &QLegendMarker::clicked, this, [this, i] { toggleGroup(i, !groupVisible(i)); });
        if (m_state.hidden.count(groupLabel(m_chart.series[i].key)))
            setGroupVisible(i, false);
        styleGroup(i);
    }
}

void FrontierChart::styleGroup(std::size_t i)
{
    QLineSeries* line = m_lines[i];
    QColor c = m_colours[i];
    // outside its range at the target: faint and thin, so the groups that answer the question stand out
    if (!m_covers[i])
        c.setAlpha(95);
    QPen pen(c, m_covers[i] ? 2.6 : 1.6, precisionStyle(m_chart.series[i].key.precision));
    pen.setCapStyle(Qt::RoundCap);
    line->setPen(pen);
    line->setBrush(c);
    // the knots in the engine's shape: only an image marker has a shape on a line series
    const GroupKey& key = m_chart.series[i].key;
    line->setLightMarker(markerImage(groupMarker(key), c, hollowMarker(key)));
}

QStringList FrontierChart::outsideRange() const
{
    QStringList out;
    for (std::size_t i = 0; i < m_lines.size(); ++i)
        if (!m_covers[i] && m_chart.series[i].priced)
            out << groupLabel(m_chart.series[i].key);
    return out;
}

void FrontierChart::setGroupVisible(std::size_t group, bool visible)
{
    m_lines[group]->setVisible(visible);
    if (m_bands[group])
        m_bands[group]->setVisible(visible);
    m_cloud->setGroupVisible(group, visible);
    styleGroup(group);
    setTarget(m_state.target);
}

bool FrontierChart::groupVisible(std::size_t group) const
{
    return m_lines[group]->isVisible();
}

void FrontierChart::toggleGroup(std::size_t group, bool visible)
{
    if (visible == groupVisible(group))
        return;
    setGroupVisible(group, visible);
    emit groupToggled(groupLabel(m_chart.series[group].key), visible);
}

MarkerShape FrontierChart::groupShape(std::size_t group) const
{
    return groupMarker(m_chart.series[group].key);
}

bool FrontierChart::groupHollow(std::size_t group) const
{
    return hollowMarker(m_chart.series[group].key);
}

QString FrontierChart::groupName(std::size_t group) const
{
    const ChartSeries& s = m_chart.series[group];
    if (s.priced)
        return groupLabel(s.key);
    switch (m_state.request.y) {
    case ChartY::TokensPerMegawatt:
    case ChartY::JoulesPerToken:
        return groupLabel(s.key) + tr(" (no power figure for this hardware)");
    case ChartY::MeasuredJoulesPerToken:
        return groupLabel(s.key) + tr(" (no run carries measured power)");
    default:
        return groupLabel(s.key) + tr(" (no price in this tier)");
    }
}

QString FrontierChart::speedOfLightName(std::size_t line) const
{
    const ChartSol& sol = m_chart.speedOfLight[line];
    return hardwareName(sol.hardware) + QStringLiteral(" · speed of light (") + precisionName(sol.precision)
        + QStringLiteral(")");
}

void FrontierChart::setHideSparse(bool hide)
{
    m_state.hideSparse = hide;
    setTarget(m_state.target);
}

void FrontierChart::adoptScope(std::shared_ptr<const ScopeData> data, double target)
{
    m_data = std::move(data);
    setTarget(target);
}

namespace {
// the same groups, the same bands and the same speed-of-light lines: with the same axis spans (spansFor), every item
// stays
bool samePlot(const ChartData& a, const ChartData& b)
{
    if (a.series.size() != b.series.size() || a.speedOfLight.size() != b.speedOfLight.size())
        return false;
    for (std::size_t i = 0; i < a.series.size(); ++i) {
        const ChartSeries &x = a.series[i], &y = b.series[i];
        if (!(x.key == y.key) || x.priced != y.priced
            || (x.low.empty() || x.high.empty()) != (y.low.empty() || y.high.empty()))
            return false;
    }
    for (std::size_t i = 0; i < a.speedOfLight.size(); ++i)
        if (a.speedOfLight[i].hardware != b.speedOfLight[i].hardware
            || a.speedOfLight[i].precision != b.speedOfLight[i].precision)
            return false;
    return true;
}
} // namespace

bool FrontierChart::takePoints(std::shared_ptr<const ScopeData> data, std::shared_ptr<const ChartData> drawn,
    const ChartRequest& request, double target)
{
    ChartRequest sized = request; // only the plot's size in pixels (the cloud's thinning) may differ
    sized.pixelsWide = m_state.request.pixelsWide;
    sized.pixelsHigh = m_state.request.pixelsHigh;
    if (isZoomed() || !(sized == m_state.request) || data->metric != m_data->metric)
        return false;
    ChartData next = drawn ? *drawn : paretoscope::chartData(*data, m_pricing, request);
    if (!samePlot(m_chart, next) || spansFor(next) != m_spans)
        return false;
    bool runsChanged = false;
    std::vector<QPointer<QGraphicsObject>> changed; // the still items given new points
    for (std::size_t i = 0; i < next.series.size(); ++i) {
        const ChartSeries &was = m_chart.series[i], &now = next.series[i];
        if (now.frontier != was.frontier) {
            m_lines[i]->replace(pointList(now.frontier));
            changed.push_back(m_lineItems[i]);
        }
        if (m_bands[i] && (now.high != was.high || now.low != was.low)) {
            m_bands[i]->upperSeries()->replace(pointList(now.high));
            m_bands[i]->lowerSeries()->replace(pointList(now.low));
            changed.push_back(m_bandItems[i]);
        }
        runsChanged = runsChanged || now.runs != was.runs;
    }
    const auto [x0, x1] = axisRange(axes(Qt::Horizontal).front());
    const auto [y0, y1] = axisRange(axes(Qt::Vertical).front());
    for (std::size_t i = 0; i < next.speedOfLight.size(); ++i)
        if (next.speedOfLight[i].points != m_chart.speedOfLight[i].points) {
            m_solLines[i]->replace(pointList(
                clipPolyline(next.speedOfLight[i].points, x0, x1, y0, y1, m_state.request.logX, m_state.request.logY)));
            changed.push_back(m_solItems[i]);
        }
    // Qt Charts lays a line with new points out again without repainting it: a cached one would go on showing its
    // old pixmap (the deleted knot still drawn). Its cache is dropped and filled again by the next paint; only for
    // the lines and bands whose points changed (each fills a pixmap the size of its extent again: every line and
    // band of the bench's scope took 8 to 18 ms of the GUI thread, where an import moves a few frontiers). An item not
    // found when its series was added (a Qt Charts that builds them otherwise) drops every still item's pixmap
    if (m_stillCached) {
        const bool allFound
            = std::all_of(changed.begin(), changed.end(), [](const auto& item) { return !item.isNull(); });
        if (allFound)
            for (QGraphicsObject* item : changed)
                item->update();
        else
            forEachStillItem([](QGraphicsItem* item) { item->update(); });
    }
    if (runsChanged) {
        std::vector<RunCloud::Group> cloud;
        for (std::size_t i = 0; i < next.series.size(); ++i)
            cloud.push_back({ next.series[i].runs, m_colours[i], groupMarker(next.series[i].key) });
        m_cloud->replaceGroups(std::move(cloud));
    }
    m_chart = std::move(next);
    m_data = std::move(data);
    m_state.request = request;
    m_pointsGiven = drawn != nullptr;
    setTarget(target);
    return true;
}

void FrontierChart::setTarget(double target)
{
    // from the first change of target on (a drag starting), not at the build: filling the caches costs a full paint,
    // which the first drawing of a new chart should not pay twice
    if (m_built)
        cacheStillItems();
    m_state.target = target;
    std::vector<bool> shown(m_lines.size());
    for (std::size_t i = 0; i < m_lines.size(); ++i) {
        const bool covers = m_data->frontiers[i].curve.covers(target);
        if (covers != m_covers[i]) {
            m_covers[i] = covers;
            styleGroup(i);
        }
        shown[i] = groupVisible(i);
    }
    // every covering frontier gets its circle; only each hardware's best reading gets a label (the readout's rule,
    // keyed by hardware name), which keeps a scope of many groups legible
    const auto best = bestReadingPerHardware(m_data->frontiers, target, m_state.hideSparse, shown);
    std::vector<TargetMarker::Reading> readings;
    for (std::size_t i = 0; i < m_lines.size() && m_state.request.x == ChartX::Interactivity; ++i) {
        if (!shown[i])
            continue;
        const GroupKey& key = m_chart.series[i].key;
        if (auto y = chartReading(m_data->frontiers[i], target, m_pricing, m_state.request)) {
            const auto it = best.find(key.hardware);
            const bool labelled = it != best.end() && it->second.group == i;
            readings.push_back(
                { *y, m_colours[i], labelled ? readingText(*y, m_state.request.y) : QString(), key.hardware });
        }
    }
    if (m_state.request.x == ChartX::Interactivity) {
        m_marker->setVisible(true);
        m_marker->setMarker(target, std::move(readings));
        return;
    }
    // on the end-to-end latency axis the target stands where generating the scope's output at that speed takes: OSL /
    // target seconds, before the first token (which the axis's end-to-end latency adds); an interactivity says
    // nothing of the wait for the first token, so a TTFT axis has no marker
    const int osl = m_state.request.x == ChartX::Latency ? m_data->scope.osl.value_or(0) : 0;
    m_marker->setVisible(osl > 0 && target > 0);
    if (osl > 0 && target > 0) {
        const QLocale en(QLocale::English);
        const double seconds = osl / target;
        m_marker->setMarker(seconds, {},
            tr("%1 tok/s/user:\n%2 s for %3 output tokens\n+ the first token's wait")
                .arg(en.toString(target, 'g', 6), en.toString(seconds, 'f', seconds < 10 ? 2 : 1), en.toString(osl)));
    }
}

long long FrontierChart::runAt(QPointF chartPos) const
{
    for (std::size_t i = 0; i < m_lines.size(); ++i) {
        if (!groupVisible(i))
            continue;
        const auto& f = m_chart.series[i].frontier;
        for (const Point& p : f) {
            const QPointF d = const_cast<FrontierChart*>(this)->mapToPosition(QPointF(p.x, p.y), m_lines[i]) - chartPos;
            if (d.x() * d.x() + d.y() * d.y() < 7 * 7)
                return p.runId;
        }
    }
    return m_cloud->runAt(chartPos);
}

} // namespace paretoscope::ui
