#include "widgets/chart/chartpanel.h"

#include <QFrame>
#include <QLegend>

#include "core/analysis/scopehint.h"
#include "widgets/common/displaynames.h"
#include <QLocale>

#include <QAbstractItemView>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QResizeEvent>
#include <QShowEvent>
#include <QTimer>
#include <QValueAxis>
#include <cstdlib>

namespace paretoscope::ui {

ChartPanel::ChartPanel(const PricingCatalog& pricing, QWidget* parent)
    : QWidget(parent)
    , m_pricing(pricing)
    , m_view(new FrontierView(this))
    , m_legend(new ChartLegend(this))
    , m_x(new QComboBox(this))
    , m_y(new QComboBox(this))
    , m_groups(new QComboBox(this))
    , m_logX(new QCheckBox(tr("Log x"), this))
    , m_logY(new QCheckBox(tr("Log y"), this))
    , m_info(new QLabel(this))
    , m_outside(new QLabel(this))
    , m_problem(new QLabel(this))
    , m_filterHint(new QFrame(this))
    , m_filterHintText(new QLabel(m_filterHint))
{
    {
        auto* frame = static_cast<QFrame*>(m_filterHint);
        frame->setObjectName(QStringLiteral("filterHint"));
        frame->setStyleSheet(QStringLiteral(
            "QFrame#filterHint { background: #fff4d6; border: 1px solid #e6c766; } QLabel { color: #5c4400; }"));
        m_filterHintText->setTextFormat(Qt::PlainText);
        m_filterHintText->setWordWrap(true);
        auto* show = new QPushButton(tr("Show all runs"), m_filterHint);
        connect(show, &QPushButton::clicked, this, &ChartPanel::resetFiltersRequested);
        auto* row = new QHBoxLayout(m_filterHint);
        row->setContentsMargins(8, 4, 8, 4);
        row->addWidget(m_filterHintText, 1);
        row->addWidget(show);
        m_filterHint->hide();
    }
    m_problem->setTextFormat(Qt::PlainText);
    m_problem->setWordWrap(true);
    m_problem->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problem->setStyleSheet(
        QStringLiteral("QLabel { background: #fdecea; color: #8a1c13; border: 1px solid #e0a39c; padding: 8px; }"));
    m_problem->hide();
    m_outside->setTextFormat(Qt::PlainText);
    m_outside->setWordWrap(true); // a long line wraps rather than widen the window
    // two lines kept for it, written or not: its text changes with the target, and a label that grew or shrank on a
    // slider step would move the chart and the tabs below it, and repaint them all
    m_outside->setMinimumHeight(2 * m_outside->fontMetrics().lineSpacing() + 2);
    m_outside->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_info->setTextFormat(Qt::PlainText);
    fillAxisChoices();
    layOutControls();
}

void ChartPanel::fillAxisChoices()
{
    // in ChartX's order: the index is the value
    m_x->addItem(tr("x: interactivity"), int(ChartX::Interactivity));
    m_x->addItem(tr("x: end-to-end latency"), int(ChartX::Latency));
    m_x->addItem(tr("x: TTFT, median"), int(ChartX::TtftMedian));
    m_x->addItem(tr("x: TTFT, p99"), int(ChartX::TtftP99));
    m_x->setToolTip(tr("Lower is better on a latency or a time to first token: the frontier is then the runs no "
                       "other run beats on both a shorter time and a higher y"));
    // the data is the ChartY; each energy entry names its basis (docs/architecture.md section 11.3)
    m_y->addItem(tr("y: tok/s/GPU"), int(ChartY::Throughput));
    m_y->addItem(tr("y: $/M tokens"), int(ChartY::Cost));
    m_y->addItem(tr("y: tok/s per MW (all-in provisioned)"), int(ChartY::TokensPerMegawatt));
    m_y->addItem(tr("y: J/token (all-in provisioned)"), int(ChartY::JoulesPerToken));
    m_y->addItem(tr("y: J/token (measured, GPU only)"), int(ChartY::MeasuredJoulesPerToken));
    // the boxes keep to a short width (the Explore page's chart and readout fit a 1366 px screen), their lists open
    // wide
    for (QComboBox* c : { m_x, m_y }) {
        c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        c->setMinimumContentsLength(13);
        c->view()->setMinimumWidth(c->view()->sizeHintForColumn(0) + 24);
    }
    m_y->setItemData(2,
        tr("All-in provisioned power per GPU (GPU, host, network, cooling; resources/hardware_power.json): "
           "tok/s/GPU x 1,000 / kW"),
        Qt::ToolTipRole);
    m_y->setItemData(3, tr("All-in provisioned power per GPU: kW x 1,000 / tok/s/GPU"), Qt::ToolTipRole);
    m_y->setItemData(4,
        tr("The runs' own average GPU power (InferenceX avg_power_w, live telemetry): W / tok/s/GPU; GPU only, "
           "not comparable with the all-in figures"),
        Qt::ToolTipRole);
    m_logX->setChecked(true);
    // in ChartGroups' order
    m_groups->addItem(tr("Groups: auto"), int(ChartGroups::Auto));
    m_groups->addItem(tr("Groups: all"), int(ChartGroups::All));
    m_groups->addItem(tr("Groups: best per hardware"), int(ChartGroups::BestPerHardware));
    m_groups->addItem(tr("Groups: envelope"), int(ChartGroups::Envelope));
    m_groups->setToolTip(tr("Best per hardware: one group per hardware, the one whose frontier has the highest mean "
                            "tok/s/GPU over the interactivity range its groups share (the InferenceX site's \"best "
                            "per SKU\"). Envelope: one line per hardware, at each interactivity its best group as the "
                            "readout reads it, each stretch in that group's style (hover for its engine and "
                            "precision). Auto: best per hardware where more than %1 groups are in scope, else all.")
                             .arg(kAutoBestAbove));
    m_groups->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_groups->setMinimumContentsLength(10);
    m_groups->view()->setMinimumWidth(m_groups->view()->sizeHintForColumn(0) + 24);
    // squeezed (the filter sidebar shown on a 1366 px screen), the three boxes give up to a third of their width
    // before the sidebar does: it was pressed to 110 px, its lists and boxes cut
    for (QComboBox* c : { m_x, m_y, m_groups })
        c->setMinimumWidth(c->sizeHint().width() * 2 / 3);
}

void ChartPanel::layOutControls()
{
    auto* reset = new QPushButton(tr("Reset"), this);
    reset->setToolTip(tr("Reset the zoom (Ctrl+0; drag over the plot to zoom)"));
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_x);
    bar->addWidget(m_y);
    bar->addWidget(m_groups);
    bar->addWidget(m_logX);
    bar->addWidget(m_logY);
    bar->addWidget(reset);
    bar->addStretch();
    bar->addWidget(m_info);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_problem);
    layout->addWidget(m_filterHint);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_legend);
    layout->addWidget(m_outside);
    m_state.request.logX = true;
    for (QComboBox* c : { m_x, m_y, m_groups })
        connect(c, &QComboBox::currentIndexChanged, this, &ChartPanel::readControls);
    for (QCheckBox* c : { m_logX, m_logY })
        connect(c, &QCheckBox::toggled, this, &ChartPanel::readControls);
    connect(reset, &QPushButton::clicked, this, &ChartPanel::resetZoom);
    // the view controls stay whole: the chart column is at least as wide as they are; the line of run counts
    // gives way (its full text is its tooltip)
    m_info->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_info->setMinimumWidth(0);
    setMinimumWidth(bar->minimumSize().width() + 10);
    rebuild();
}

void ChartPanel::restyle()
{
    m_prepared.reset(); // built in the theme before
    rebuild();
    // same entries, new colours: every swatch drawn again (after the rebuild: the old chart's last sync, as the view
    // let it go, would record the old colours as current)
    m_legend->forgetStates();
    m_legend->sync();
}

void ChartPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    if (event->size().width() != event->oldSize().width())
        fitOutside(false);
    fitLegend();
}

void ChartPanel::fitLegend()
{
    // under the plot, in as many columns as the width holds: four rows at most on a tall panel, three on a short
    // one; more entries scroll
    m_legend->fitHeight(height() >= 800 ? 4 : 3);
}

void ChartPanel::readControls()
{
    m_state.request.x = static_cast<ChartX>(m_x->currentData().toInt());
    m_state.request.y = static_cast<ChartY>(m_y->currentData().toInt());
    m_state.request.logX = m_logX->isChecked();
    m_state.request.logY = m_logY->isChecked();
    m_state.groups = static_cast<ChartGroups>(m_groups->currentData().toInt());
    rebuild();
    emit stateChanged();
}

void ChartPanel::setState(const ChartState& state)
{
    m_state = state;
    const QSignalBlocker b1(m_x), b2(m_y), b3(m_logX), b4(m_logY), b5(m_groups);
    m_groups->setCurrentIndex(std::max(0, m_groups->findData(int(state.groups))));
    m_x->setCurrentIndex(m_x->findData(int(state.request.x)));
    m_y->setCurrentIndex(std::max(0, m_y->findData(int(state.request.y))));
    m_logX->setChecked(state.request.logX);
    m_logY->setChecked(state.request.logY);
    rebuild();
}

void ChartPanel::showFilterHint(const QString& text)
{
    m_filterHintText->setText(text);
    m_filterHint->setVisible(!text.isEmpty());
}

void ChartPanel::showProblem(const QString& message)
{
    m_data.reset();
    m_drawn.reset();
    // the chart shown before goes: nothing of a store that failed a read stays in view
    QChart* old = m_view->chart();
    m_view->setChart(new QChart);
    if (old)
        delete old;
    m_chart = nullptr;
    m_legend->setChart(nullptr);
    m_markedNote.clear();
    showOutside();
    m_info->setText(tr("nothing drawn"));
    m_problem->setText(message);
    m_problem->show();
}

void ChartPanel::setData(std::shared_ptr<const ScopeData> scopeData, double target, const PriceChoice& price,
    std::optional<DrawnChart> drawn)
{
    m_problem->hide();
    m_data = std::move(scopeData);
    m_drawn = std::move(drawn);
    m_state.target = target;
    m_state.request.price = price;
    if (showsDrawn()) {
        m_prepared.reset();
        // the scope read again draws the chart in view (a live level of another scope, an import of runs it already
        // had): that chart stays, reading the new frontiers, instead of a rebuild and a repaint of the whole plot
        // (together 25 to 35 ms of the GUI thread on the bench's 16-group scope)
        m_chart->adoptScope(m_data, target);
        m_legend->sync();
        describe();
        return;
    }
    // runs imported or deleted within the groups and axis spans on screen: the new points go into the chart in view
    // (the view's axes and scales checked there; its size may have changed since the chart was built)
    const bool drawnFits = m_drawn && sameView(m_drawn->request, requestFor(price));
    const ChartRequest request = drawnFits ? m_drawn->request : requestFor(price);
    if (keepsState(false) && m_chart->takePoints(m_data, drawnFits ? m_drawn->data : nullptr, request, target)) {
        m_prepared.reset();
        m_state.request = request;
        m_legend->sync();
        describe();
        return;
    }
    rebuild();
}

void ChartPanel::prepare(std::shared_ptr<const ScopeData> scopeData, double target, const PriceChoice& price,
    const std::optional<DrawnChart>& drawn)
{
    m_prepared.reset();
    if (!scopeData)
        return;
    // the state rebuild() would build from, after setData
    ChartState state = m_state;
    state.target = target;
    state.request = requestFor(price);
    const bool fits = drawn && sameView(drawn->request, state.request);
    if (fits)
        state.request = drawn->request;
    // setData's first choice: the chart in view takes the scope's points (known here where they were worked out)
    if (keepsState(false) && (!fits || m_chart->canTakePoints(*scopeData, *drawn->data, state.request)))
        return;
    std::shared_ptr<const ChartData> points = fits ? drawn->data : nullptr;
    auto chart = std::make_unique<FrontierChart>(scopeData, state, m_pricing, points);
    m_prepared = Prepared { std::move(chart), std::move(scopeData), std::move(points), std::move(state) };
}

bool ChartPanel::showsDrawn() const
{
    // what a rebuild would show: the same view and points, the same groups switched off, every bound shown, no zoom
    return keepsState() && m_drawn && sameView(m_drawn->request, requestFor(m_state.request.price))
        && *m_drawn->data == m_chart->chartData();
}

bool ChartPanel::keepsState(bool sameView) const
{
    if (!m_chart || m_chart->isZoomed()
        || (sameView && !ChartPanel::sameView(m_chart->state().request, requestFor(m_state.request.price))))
        return false;
    if (m_chart->state().groups != m_state.groups)
        return false;
    for (std::size_t i = 0; i < m_chart->groupCount(); ++i)
        if (m_chart->groupVisible(i)
            != (m_chart->groupChosen(i) && !m_state.hidden.count(groupLabel(m_chart->chartData().series[i].key))))
            return false;
    for (std::size_t i = 0; i < m_chart->speedOfLightCount(); ++i)
        if (!m_chart->speedOfLightVisible(i))
            return false;
    return true;
}

void ChartPanel::setPrice(const PriceChoice& price)
{
    m_state.request.price = price;
    if (m_state.request.y == ChartY::Cost)
        rebuild();
}

void ChartPanel::setHideSparse(bool hide)
{
    m_state.hideSparse = hide;
    if (m_chart)
        m_chart->setHideSparse(hide);
}

void ChartPanel::setReading(Reading reading)
{
    m_state.reading = reading;
    if (m_chart)
        m_chart->setReading(reading);
    showOutside(); // the note of a readout's best not drawn is the frontier reading's
}

void ChartPanel::setTarget(double target)
{
    m_state.target = target;
    if (m_chart)
        m_chart->setTarget(target);
    m_legend->sync();
    showOutside();
}

void ChartPanel::showOutside()
{
    const QStringList outside = m_chart ? m_chart->outsideRange() : QStringList();
    const QString at = QLocale(QLocale::English).toString(m_state.target, 'g', 6);
    QString text;
    if (outside.size() == 1)
        text = tr("Does not reach %1 tok/s/user (faint): %2").arg(at, outside.front());
    else if (!outside.isEmpty())
        text = tr("%n groups do not reach %1 tok/s/user (faint)", nullptr, int(outside.size())).arg(at);
    // a speed of light far above the measured frontiers is off a linear y: say where it is
    QStringList above;
    if (m_chart && !m_state.request.logY) {
        const ChartData& d = m_chart->chartData();
        for (const ChartSol& sol : d.speedOfLight) {
            bool inView = false;
            for (const Point& p : sol.points)
                inView = inView || (p.x >= d.xMin && p.x <= d.xMax && p.y <= d.yMax);
            if (!inView)
                above << hardwareName(sol.hardware) + QStringLiteral(" (") + precisionName(sol.precision)
                        + QStringLiteral(")");
        }
    }
    if (!above.isEmpty())
        text += (text.isEmpty() ? QString() : QStringLiteral(" · "))
            + tr("speed of light above the view for %1: tick Log y").arg(above.join(QStringLiteral(", ")));
    // one group per hardware is drawn; the readout reads every group: where they differ at the target, said (a label
    // of 114 beside a readout of 143 for H100 read as a mistake)
    if (const QStringList elsewhere = m_chart ? m_chart->readElsewhere() : QStringList(); !elsewhere.isEmpty())
        text += (text.isEmpty() ? QString() : QStringLiteral(" · "))
            + tr("at %1 tok/s/user the readout's best for %2 is a group not drawn, labelled with its name (Groups: "
                 "envelope draws it)")
                  .arg(at, elsewhere.join(QStringLiteral(", ")));
    if (!m_markedNote.isEmpty())
        text += (text.isEmpty() ? QString() : QStringLiteral(" · ")) + m_markedNote;
    // service-level limits first: they change what every line is drawn from
    if (!m_limitsNote.isEmpty())
        text = m_limitsNote + (text.isEmpty() ? QString() : QStringLiteral(" · ") + text);
    m_outside->setText(text);
    m_outside->setToolTip(plainToolTip(outside.join(u'\n')));
    fitOutside(true);
}

void ChartPanel::fitOutside(bool growOnly)
{
    // it grows to the tallest text it has had for this chart and never shrinks back: a slider step that changed its
    // line count would move the chart and the tabs below it, and repaint them all. Hidden (another page in front), its
    // width is none it will have: two lines until it is shown (a note wrapped at a hidden label's width took 154 px
    // from the plot)
    const int twoLines = 2 * m_outside->fontMetrics().lineSpacing() + 2;
    const int tall = isVisible() ? std::max(m_outside->heightForWidth(m_outside->width()), twoLines) : twoLines;
    if (tall > m_outside->minimumHeight() || (!growOnly && tall != m_outside->minimumHeight()))
        m_outside->setMinimumHeight(tall);
}

void ChartPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    fitOutside(false); // laid out at its real width now
}

QString ChartPanel::limitsNote(const ScopeData& data, const ChartData& chart, const ChartRequest& request)
{
    QStringList parts;
    if (const std::string limits = limitsText(data.scope); !limits.empty())
        parts << tr("Only runs within %1 count").arg(QString::fromStdString(limits));
    // a hardware without an energy figure is said, never drawn at 0
    QStringList missing;
    for (const ChartSeries& s : chart.series)
        if (!s.priced && !missing.contains(hardwareName(s.key.hardware)))
            missing << hardwareName(s.key.hardware);
    if (!missing.isEmpty() && request.y != ChartY::Cost && request.y != ChartY::Throughput)
        parts << (request.y == ChartY::MeasuredJoulesPerToken
                ? tr("no measured power in the runs of %1").arg(missing.join(QStringLiteral(", ")))
                : tr("no all-in power figure for %1").arg(missing.join(QStringLiteral(", "))));
    return parts.join(QStringLiteral(" · "));
}

void ChartPanel::resetZoom()
{
    if (m_chart)
        m_chart->resetZoom();
}

bool ChartPanel::sameView(const ChartRequest& drawn, const ChartRequest& view)
{
    // a plot a few pixels taller or narrower (a line of text under the chart wrapped, the legend took a row) thins
    // its runs to the same picture: within 15% of its size the points worked out for one are drawn on the other
    ChartRequest d = drawn;
    d.pixelsWide = view.pixelsWide;
    d.pixelsHigh = view.pixelsHigh;
    const auto near = [](int a, int b) { return std::abs(a - b) * 100 <= std::max(a, b) * 15; };
    return d == view && near(drawn.pixelsWide, view.pixelsWide) && near(drawn.pixelsHigh, view.pixelsHigh);
}

ChartRequest ChartPanel::requestFor(const PriceChoice& price) const
{
    ChartRequest r = m_state.request;
    r.price = price;
    const QSize plot = m_view->size();
    r.pixelsWide = std::max(plot.width(), 400);
    r.pixelsHigh = std::max(plot.height(), 300);
    return r;
}

void ChartPanel::rebuild()
{
    if (!m_data) {
        m_info->setText(tr("Loading…"));
        return;
    }
    m_state.request = requestFor(m_state.request.price);
    const bool drawn = m_drawn && sameView(m_drawn->request, m_state.request);
    if (drawn)
        m_state.request = m_drawn->request; // the points are thinned for its size
    const std::shared_ptr<const ChartData> points = drawn ? m_drawn->data : nullptr;
    // the chart prepare() built for this, if nothing has changed since
    FrontierChart* chart
        = m_prepared && m_prepared->data == m_data && m_prepared->drawn == points && m_prepared->state == m_state
        ? m_prepared->chart.release()
        : new FrontierChart(m_data, m_state, m_pricing, points);
    m_prepared.reset();
    connect(chart, &FrontierChart::groupToggled, this, [this](const QString& label, bool visible) {
        if (visible)
            m_state.hidden.erase(label);
        else
            m_state.hidden.insert(label);
        emit stateChanged();
    });
    QChart* old = m_view->chart();
    m_view->repaintLater();
    m_view->setChart(chart); // the view owns the chart it shows
    if (old && old != chart) { // released by setChart: the view's default chart too
        // deleting a chart of a few dozen series holds the GUI thread 2 to 4 ms: off the scene, the old one goes a
        // moment later, not in the turn that builds the new one nor in the next, which paints it
        old->setParent(this);
        QTimer::singleShot(250, old, [old] { delete old; });
    }
    m_chart = chart;
    // the window's legend is a list beside the view that scrolls (the chart's own keeps to exports)
    chart->legend()->hide();
    m_legend->setChart(chart);
    fitLegend();
    m_outside->setMinimumHeight(2 * m_outside->fontMetrics().lineSpacing() + 2); // a new chart: grown afresh
    describe();
}

void ChartPanel::describe()
{
    const ChartData& d = m_chart->chartData();
    QLocale en(QLocale::English);
    QString info = tr("%1 runs in scope, %2 drawn")
                       .arg(en.toString(qulonglong(d.runsInScope)), en.toString(qulonglong(d.runsDrawn)));
    std::size_t marked = 0;
    for (const GroupRuns& g : m_data->runs)
        for (const RunPoint& p : g.points)
            marked += p.marked;
    // the hollow rings, said in words under the chart
    m_markedNote.clear();
    const QString count = marked == 1 ? tr("1 run") : tr("%1 runs").arg(en.toString(qulonglong(marked)));
    if (marked > 0)
        m_markedNote = m_data->scope.includeMarked
            ? tr("%1 marked as not trusted (hollow rings): included, as asked under the filters").arg(count)
            : tr("%1 marked as not trusted (hollow rings: failed requests or a timeout) left out of the frontiers")
                  .arg(count);
    m_limitsNote = limitsNote(*m_data, d, m_state.request);
    if (m_chart->groupChoice() == ChartGroups::BestPerHardware)
        info += tr(" · best per hardware: %1 of %2 groups").arg(m_chart->chosenCount()).arg(m_chart->groupCount());
    if (m_chart->groupChoice() == ChartGroups::Envelope)
        info += tr(" · envelope of %1 hardware: %2 of %3 groups are a best somewhere")
                    .arg(m_chart->envelopes().size())
                    .arg(m_chart->chosenCount())
                    .arg(m_chart->groupCount());
    if (m_state.request.x != ChartX::Interactivity && d.xMax == 0)
        info = m_state.request.x == ChartX::Latency
            ? tr("These runs carry no end-to-end latency; switch x to interactivity")
            : tr("These runs carry no time to first token; switch x to interactivity");
    m_info->setText(info);
    m_info->setToolTip(info);
    showOutside();
}

} // namespace paretoscope::ui
