#include "widgets/chart/frontierchart.h"

#include "core/analysis/accuracy.h"
#include "core/analysis/bestpersku.h"

#include <QLegendMarker>
#include <QLocale>
#include <QLogValueAxis>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "core/output/reports.h"
#include "widgets/common/displaynames.h"
#include "widgets/common/groupstyle.h"
#include "widgets/common/theme.h"

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

QString chartValueText(double y, ChartY kind)
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

FrontierChart::FrontierChart(std::shared_ptr<const ScopeData> data, ChartState state, const PricingCatalog& pricing,
    const std::shared_ptr<const ChartData>& drawn)
    : m_data(std::move(data))
    , m_state(std::move(state))
    , m_pricing(pricing)
{
    setLocalizeNumbers(true);
    setLocale(QLocale(QLocale::English, QLocale::UnitedStates));
    setAnimationOptions(QChart::NoAnimation);
    setBackgroundRoundness(0);
    setMargins(QMargins(6, 6, 12, 6));
    // the chart's own legend is never shown (the window's stands beside the view, exports draw theirs)
    legend()->hide();
    legend()->detachFromChart();
    m_pointsGiven = drawn != nullptr;
    // the points drawn are shared with the panel that read them, never copied (tens of thousands of runs)
    m_chart
        = drawn ? drawn : std::make_shared<const ChartData>(paretoscope::chartData(*m_data, pricing, m_state.request));
    addSpreadBands(); // first: under every line
    addGroupLines();
    addSpeedOfLightLines();
    const auto [ax, ay] = addAxes();
    chooseGroups();
    drawEnvelopes();
    // the groups left out or hidden are known before the lines and the run cloud are drawn the first time: set one at
    // a time afterwards, each drew them again (with 42 groups in best per hardware, a third of the first scope's
    // delivery on the GUI thread)
    std::vector<bool> visible(groupCount());
    for (std::size_t i = 0; i < groupCount(); ++i) {
        visible[i] = m_chosen[i] && !m_state.hidden.count(groupLabel(m_chart->series[i].key));
        m_content.lines[i].visible = visible[i];
        m_content.bands[i].visible = visible[i];
    }
    addOverlays(ax, ay, visible);
    styleChart(this); // the theme's background, text and grid
    setTarget(m_state.target);
}

void FrontierChart::chooseGroups()
{
    m_choice = m_state.groups;
    if (m_choice == ChartGroups::Auto)
        m_choice = groupCount() > kAutoBestAbove ? ChartGroups::BestPerHardware : ChartGroups::All;
    m_chosen.assign(groupCount(), m_choice != ChartGroups::BestPerHardware);
    // the chart's groups are the scope's frontiers, in their order
    if (m_choice == ChartGroups::BestPerHardware && m_data->frontiers.size() == groupCount())
        for (std::size_t i : bestPerHardware(m_data->frontiers))
            m_chosen[i] = true;
    m_envelopes.clear();
    if (m_choice == ChartGroups::Envelope) {
        // the groups that are some hardware's best somewhere: the others are not drawn, nor listed
        m_envelopes = hardwareEnvelopes(*m_chart, !lowerIsBetter(m_state.request.y));
        m_chosen.assign(groupCount(), false);
        for (const HardwareEnvelope& e : m_envelopes)
            for (const EnvelopeStretch& st : e.stretches)
                m_chosen[st.series] = true;
    }
}

void FrontierChart::drawEnvelopes()
{
    if (m_choice != ChartGroups::Envelope)
        return;
    std::vector<std::vector<const EnvelopeStretch*>> of(groupCount());
    for (const HardwareEnvelope& e : m_envelopes)
        for (const EnvelopeStretch& st : e.stretches)
            of[st.series].push_back(&st);
    constexpr double gap = std::numeric_limits<double>::quiet_NaN(); // a break in the line (clipPolyline keeps it)
    for (std::size_t i = 0; i < groupCount(); ++i) {
        FrontierLayer::Line& line = m_content.lines[i];
        line.points.clear();
        line.knots.clear();
        for (const EnvelopeStretch* st : of[i]) {
            if (!line.points.empty())
                line.points.push_back({ gap, gap, 0, false });
            line.points.insert(line.points.end(), st->path.begin(), st->path.end());
            for (const Point& k : m_chart->series[i].frontier)
                if (k.x >= st->xFrom && k.x <= st->xTo)
                    line.knots.push_back(k);
        }
        // an envelope is one line per hardware: the reruns' bands of its groups would blur where it changes group
        m_content.bands[i].high.clear();
        m_content.bands[i].low.clear();
    }
}

bool FrontierChart::inStretch(std::size_t group, double x) const
{
    for (const HardwareEnvelope& e : m_envelopes)
        for (const EnvelopeStretch& st : e.stretches)
            if (st.series == group && x >= st.xFrom && x <= st.xTo)
                return true;
    return false;
}

QString FrontierChart::stretchAt(QPointF chartPos) const
{
    auto* self = const_cast<FrontierChart*>(this); // mapToPosition is not const
    for (const HardwareEnvelope& e : m_envelopes)
        for (const EnvelopeStretch& st : e.stretches) {
            if (!groupVisible(st.series))
                continue;
            for (std::size_t k = 1; k < st.path.size(); ++k) {
                const QPointF a = self->mapToPosition(QPointF(st.path[k - 1].x, st.path[k - 1].y), m_anchor);
                const QPointF b = self->mapToPosition(QPointF(st.path[k].x, st.path[k].y), m_anchor);
                const QPointF ab = b - a;
                const double len2 = QPointF::dotProduct(ab, ab);
                const double t = len2 > 0 ? std::clamp(QPointF::dotProduct(chartPos - a, ab) / len2, 0.0, 1.0) : 0.0;
                const QPointF d = a + t * ab - chartPos;
                if (QPointF::dotProduct(d, d) > 6 * 6)
                    continue;
                const QLocale en(QLocale::English);
                const bool interactivity = m_state.request.x == ChartX::Interactivity;
                return tr("%1: the best of %2 from %3 to %4 %5")
                    .arg(groupName(st.series), hardwareName(e.hardware), en.toString(st.xFrom, 'g', 3),
                        en.toString(st.xTo, 'g', 3), interactivity ? tr("tok/s/user") : tr("s"));
            }
        }
    return {};
}

std::size_t FrontierChart::chosenCount() const
{
    return std::size_t(std::count(m_chosen.begin(), m_chosen.end(), true));
}

void FrontierChart::addSpreadBands()
{
    // where reruns give a reading a spread, the band between the frontier of each configuration's lowest run and that
    // of its highest, faint in the group's colour
    for (const ChartSeries& s : m_chart->series) {
        FrontierLayer::Band band;
        if (!s.low.empty() && !s.high.empty()) {
            band.high = s.high;
            band.low = s.low;
        }
        band.fill = hardwareColour(s.key.hardware);
        band.fill.setAlpha(45);
        m_content.bands.push_back(std::move(band));
    }
}

void FrontierChart::addGroupLines()
{
    // each hardware its own colour whatever is hidden, each precision its line style, each engine its marker
    m_covers.assign(m_chart->series.size(), true);
    for (std::size_t i = 0; i < m_chart->series.size(); ++i) {
        const ChartSeries& s = m_chart->series[i];
        m_colours.push_back(hardwareColour(s.key.hardware));
        m_content.lines.push_back({ s.path, s.frontier, QPen(), groupMarker(s.key), hollowMarker(s.key), true });
        styleGroup(i);
    }
}

void FrontierChart::addSpeedOfLightLines()
{
    // the speed of light: dashed, in its hardware's colour, above the measured frontiers it bounds (cut at the axes'
    // edges once they are made)
    for (const ChartSol& sol : m_chart->speedOfLight) {
        QPen pen(hardwareColour(sol.hardware), 1.8, Qt::DashLine);
        pen.setDashPattern({ 6, 4 });
        m_content.lines.push_back({ {}, {}, pen, std::nullopt, false, true });
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
    m_spans = spansFor(*m_chart);
    auto* ax = makeAxis(m_spans.first, xAxisTitle(m_state.request));
    auto* ay = makeAxis(m_spans.second, yAxisTitle(m_state.request, m_data->metric),
        m_state.request.y == ChartY::Cost ? QStringLiteral("$") : QString());
    addAxis(ax, Qt::AlignBottom);
    addAxis(ay, Qt::AlignLeft);
    // the bounds are cut at the plot's edges here too: what a linear view has all above it is left out of the legend
    for (std::size_t i = 0; i < speedOfLightCount(); ++i)
        m_content.lines[groupCount() + i].points = solInView(m_chart->speedOfLight[i].points);
    return { ax, ay };
}

void FrontierChart::resetZoom()
{
    zoomReset();
    // a zoom's round numbers (FrontierView) change a linear axis's tick count, and zoomReset keeps it: back over
    // 0 to 20,000 the y axis ticked at thirds (6,667, 13,333)
    for (const auto& [axis, span] : { std::pair { axes(Qt::Horizontal).value(0), m_spans.first },
             std::pair { axes(Qt::Vertical).value(0), m_spans.second } }) {
        if (auto* v = qobject_cast<QValueAxis*>(axis))
            v->setTickCount(span.ticks);
        if (axis)
            fitLabelFormat(axis); // the zoom fitted it to its own range
    }
}

std::vector<Point> FrontierChart::solInView(const std::vector<Point>& points) const
{
    const auto [x0, x1] = axisRange(axes(Qt::Horizontal).front());
    const auto [y0, y1] = axisRange(axes(Qt::Vertical).front());
    return clipPolyline(points, x0, x1, y0, y1, m_state.request.logX, m_state.request.logY);
}

void FrontierChart::addOverlays(QAbstractAxis* ax, QAbstractAxis* ay, const std::vector<bool>& visible)
{
    // an invisible anchor gives the axes a series to map by, whatever is switched off
    m_anchor = new QLineSeries;
    addSeries(m_anchor);
    m_anchor->attachAxis(ax);
    m_anchor->attachAxis(ay);
    legend()->markers(m_anchor).front()->setVisible(false);

    std::vector<RunCloud::Group> cloud;
    cloud.reserve(m_chart->series.size());
    for (std::size_t i = 0; i < m_chart->series.size(); ++i)
        cloud.push_back({ m_chart->series[i].runs, m_colours[i], groupMarker(m_chart->series[i].key) });
    m_cloud = new RunCloud(this, m_anchor);
    m_cloud->setGroups(std::move(cloud), visible);
    m_layer = new FrontierLayer(this, m_anchor);
    m_layer->setContent(m_content);
    m_marker = new TargetMarker(this, m_anchor);
    // zoom, reset and resizes move the axes: the items follow, announcing their new bounds to the scene first
    auto follow = [this] {
        m_cloud->invalidate();
        m_layer->invalidate();
        m_marker->relayout();
    };
    connect(ax, &QAbstractAxis::visibleChanged, this, follow);
    for (QAbstractAxis* axis : { ax, ay }) {
        if (auto* v = qobject_cast<QValueAxis*>(axis))
            connect(v, &QValueAxis::rangeChanged, this, follow);
        if (auto* v = qobject_cast<QLogValueAxis*>(axis))
            connect(v, &QLogValueAxis::rangeChanged, this, follow);
    }
}

void FrontierChart::styleGroup(std::size_t i)
{
    QColor c = m_colours[i];
    // outside its range at the target: faint and thin, so the groups that answer the question stand out
    if (!m_covers[i])
        c.setAlpha(95);
    QPen pen(c, (m_covers[i] ? 2.6 : 1.6) * chartColours().lineScale, precisionStyle(m_chart->series[i].key.precision));
    pen.setCapStyle(Qt::RoundCap);
    m_content.lines[i].pen = pen; // the knots in the engine's shape take its colour
}

void FrontierChart::setSpeedOfLightVisible(std::size_t line, bool visible)
{
    m_content.lines[groupCount() + line].visible = visible;
    m_layer->setContent(m_content);
}

QStringList FrontierChart::outsideRange() const
{
    QStringList out;
    for (std::size_t i = 0; i < groupCount(); ++i)
        if (!m_covers[i] && m_chart->series[i].priced)
            out << groupLabel(m_chart->series[i].key);
    return out;
}

void FrontierChart::setGroupVisible(std::size_t group, bool visible)
{
    m_content.lines[group].visible = visible;
    m_content.bands[group].visible = visible;
    m_layer->setContent(m_content);
    m_cloud->setGroupVisible(group, visible);
    setTarget(m_state.target);
}

bool FrontierChart::groupVisible(std::size_t group) const
{
    return m_content.lines[group].visible;
}

void FrontierChart::toggleGroup(std::size_t group, bool visible)
{
    if (visible == groupVisible(group))
        return;
    setGroupVisible(group, visible);
    emit groupToggled(groupLabel(m_chart->series[group].key), visible);
}

MarkerShape FrontierChart::groupShape(std::size_t group) const
{
    return groupMarker(m_chart->series[group].key);
}

bool FrontierChart::groupHollow(std::size_t group) const
{
    return hollowMarker(m_chart->series[group].key);
}

QString FrontierChart::groupAccuracy(std::size_t group) const
{
    if (!m_data || !m_data->evaluations || m_data->evaluations->empty() || m_data->accuracyTask.empty())
        return {};
    const std::string& task = m_data->accuracyTask;
    const auto a
        = paretoscope::groupAccuracy(*m_data->evaluations, m_chart->series[group].key, task, m_data->scope.asOf);
    return a ? QString::fromStdString(accuracyText(task, a->accuracy))
             : tr("%1: not evaluated").arg(QString::fromStdString(taskName(task)));
}

QString FrontierChart::groupName(std::size_t group) const
{
    const ChartSeries& s = m_chart->series[group];
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
    const ChartSol& sol = m_chart->speedOfLight[line];
    return hardwareName(sol.hardware) + QStringLiteral(" · speed of light (") + precisionName(sol.precision)
        + QStringLiteral(")");
}

void FrontierChart::setHideSparse(bool hide)
{
    m_state.hideSparse = hide;
    setTarget(m_state.target);
}

void FrontierChart::setReading(Reading reading)
{
    m_state.reading = reading;
    setTarget(m_state.target);
}

void FrontierChart::adoptScope(std::shared_ptr<const ScopeData> data, double target)
{
    m_data = std::move(data);
    m_pointsGiven = true; // its points are those worked out for the scope read again (ChartPanel::showsDrawn)
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

bool FrontierChart::viewTakes(const ScopeData& data, const ChartRequest& request)
{
    ChartRequest sized = request; // only the plot's size in pixels (the cloud's thinning) may differ
    sized.pixelsWide = m_state.request.pixelsWide;
    sized.pixelsHigh = m_state.request.pixelsHigh;
    // an envelope's lines are its stretches: points read again make new ones (a new chart)
    return !isZoomed() && sized == m_state.request && data.metric == m_data->metric
        && m_choice != ChartGroups::Envelope;
}

bool FrontierChart::canTakePoints(const ScopeData& data, const ChartData& next, const ChartRequest& request)
{
    return viewTakes(data, request) && samePlot(*m_chart, next) && spansFor(next) == m_spans;
}

bool FrontierChart::takePoints(std::shared_ptr<const ScopeData> data, const std::shared_ptr<const ChartData>& drawn,
    const ChartRequest& request, double target)
{
    if (!viewTakes(*data, request)) // before the points are worked out
        return false;
    const std::shared_ptr<const ChartData> next
        = drawn ? drawn : std::make_shared<const ChartData>(paretoscope::chartData(*data, m_pricing, request));
    if (!canTakePoints(*data, *next, request))
        return false;
    bool runsChanged = false, linesChanged = false;
    for (std::size_t i = 0; i < next->series.size(); ++i) {
        const ChartSeries &was = m_chart->series[i], &now = next->series[i];
        if (now.path != was.path || now.frontier != was.frontier || now.high != was.high || now.low != was.low) {
            m_content.lines[i].points = now.path;
            m_content.lines[i].knots = now.frontier;
            m_content.bands[i].high = now.high;
            m_content.bands[i].low = now.low;
            linesChanged = true;
        }
        runsChanged = runsChanged || now.runs != was.runs;
    }
    for (std::size_t i = 0; i < next->speedOfLight.size(); ++i)
        if (next->speedOfLight[i].points != m_chart->speedOfLight[i].points) {
            m_content.lines[groupCount() + i].points = solInView(next->speedOfLight[i].points);
            linesChanged = true;
        }
    // the lines are drawn again off the GUI thread; those shown stay until they arrive
    if (linesChanged)
        m_layer->setContent(m_content);
    if (runsChanged) {
        std::vector<RunCloud::Group> cloud;
        cloud.reserve(next->series.size());
        for (std::size_t i = 0; i < next->series.size(); ++i)
            cloud.push_back({ next->series[i].runs, m_colours[i], groupMarker(next->series[i].key) });
        m_cloud->replaceGroups(std::move(cloud));
    }
    m_chart = next;
    m_data = std::move(data);
    m_state.request = request;
    m_pointsGiven = drawn != nullptr;
    setTarget(target);
    return true;
}

void FrontierChart::setTarget(double target)
{
    m_state.target = target;
    std::vector<bool> shown(groupCount());
    bool restyled = false;
    for (std::size_t i = 0; i < groupCount(); ++i) {
        const bool covers = m_data->frontiers[i].curve.covers(target);
        if (covers != m_covers[i]) {
            m_covers[i] = covers;
            styleGroup(i);
            restyled = true;
        }
        shown[i] = groupVisible(i);
    }
    if (restyled)
        m_layer->setContent(m_content);
    m_readElsewhere.clear();
    if (m_state.request.x == ChartX::Interactivity) {
        m_marker->setVisible(true);
        m_marker->setMarker(target, markerReadings(target, shown));
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
    for (std::size_t i = 0; i < groupCount(); ++i) {
        if (!groupVisible(i))
            continue;
        const auto& f = m_chart->series[i].frontier;
        for (const Point& p : f) {
            const QPointF d = const_cast<FrontierChart*>(this)->mapToPosition(QPointF(p.x, p.y), m_anchor) - chartPos;
            if (d.x() * d.x() + d.y() * d.y() < 7 * 7)
                return p.runId;
        }
    }
    return m_cloud->runAt(chartPos);
}

} // namespace paretoscope::ui
