#include "widgets/readout/readoutpanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QResizeEvent>
#include <QScreen>
#include <QScrollBar>
#include <QShowEvent>
#include <QSlider>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "core/analysis/ladderaccuracy.h"
#include "widgets/common/celltextdelegate.h"
#include "widgets/common/displaynames.h"

namespace paretoscope::ui {

namespace {

constexpr int kSteps = 10000; // finer than a pixel: dragging is as fine as the mouse

// A header that measures a hidden section too: QHeaderView::sectionSizeHint gives a hidden one no width, and J/token
// measured hidden came back at its cells' width, its title cut ("ok (all-i")
class MeasuringHeader : public QHeaderView {
public:
    using QHeaderView::QHeaderView;
    int titleWidth(int logical) const
    {
        return std::max(minimumSectionSize(), sectionSizeFromContents(logical).width());
    }
};

// the height kept for the note under the table, written or not
int twoLines(const QLabel* label)
{
    return 2 * label->fontMetrics().lineSpacing() + 2;
}

} // namespace

ReadoutPanel::ReadoutPanel(const PricingCatalog& pricing, QWidget* parent)
    : QWidget(parent)
    , m_pricing(pricing)
    , m_slider(new QSlider(Qt::Horizontal, this))
    , m_value(new NumberBox(this))
    , m_tier(new QComboBox(this))
    , m_custom(new NumberBox(this))
    , m_metric(new QComboBox(this))
    , m_baseline(new QComboBox(this))
    , m_hideSparse(new QCheckBox(tr("Hide readings across wide gaps"), this))
    , m_reading(new QComboBox(this))
    , m_table(new QTableView(this))
    , m_comparison(new QLabel(this))
    , m_model(new ReadoutModel(this))
{
    m_slider->setRange(0, kSteps);
    m_slider->setToolTip(tr("Interactivity target, log scale over the data's range; the arrow keys move it by one "
                            "tok/s/user (a tenth below 10), Page Up and Down by a tenth of the target"));
    m_slider->installEventFilter(this);
    m_value->setObjectName(QStringLiteral("target"));
    m_value->setRange(0.1, 100000);
    m_value->setDecimals(1);
    m_value->setSuffix(tr("tok/s/user"));
    m_value->setReasonBelow(true); // a side panel
    for (const PricingTier& t : pricing.tiers)
        m_tier->addItem(QString::fromStdString(t.label), QString::fromStdString(t.key));
    m_tier->addItem(tr("Custom $/GPU/hr"), QString());
    m_custom->setObjectName(QStringLiteral("readoutPrice"));
    m_custom->setRange(0.01, 10000);
    m_custom->setDecimals(2);
    m_custom->setValue(2.00);
    m_custom->setPrefix(QStringLiteral("$"));
    m_custom->setSuffix(tr("/GPU/hr"));
    m_custom->setReasonBelow(true);
    m_custom->setEnabled(false);
    // the boxes fit a narrow panel (their lists open wide): the table sets the panel's width
    for (QComboBox* c : { m_tier, m_metric, m_baseline }) {
        c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        c->setMinimumContentsLength(14);
    }
    m_metric->addItem(tr("Total tokens"), int(TputMetric::Total));
    m_metric->addItem(tr("Output tokens"), int(TputMetric::Output));
    m_metric->addItem(tr("Input tokens"), int(TputMetric::Input));
    buildLayout();
    connectSignals();
}

void ReadoutPanel::buildLayout()
{
    auto* form = new QFormLayout;
    m_form = form;
    form->addRow(tr("Target"), m_value);
    form->addRow(m_slider);
    {
        // the custom price beside the tiers it stands in for: one row less over the readings
        auto* pricing = new QHBoxLayout;
        pricing->setContentsMargins(0, 0, 0, 0);
        pricing->addWidget(m_tier, 1);
        pricing->addWidget(m_custom);
        m_custom->setToolTip(tr("Custom price, $/GPU/hr: used where the pricing is Custom $/GPU/hr"));
        form->addRow(tr("Pricing"), pricing);
    }
    form->addRow(tr("Tokens"), m_metric);
    // which of a target's two readings the cost and the comparison use
    m_reading->setObjectName(QStringLiteral("reading"));
    m_reading->addItem(tr("One configuration (deployable)"), QStringLiteral("deployable"));
    m_reading->addItem(tr("Frontier across configurations"), QStringLiteral("frontier"));
    m_reading->setToolTip(
        tr("One configuration: the best a single configuration delivers at the target, as the plan "
           "sizes it (the target a floor, read between two concurrencies of that configuration "
           "only; a configuration measured faster than the target meets it).\nFrontier: the InferenceX site's "
           "reading, across configurations, on the curves that reach the target: it can lie below "
           "one configuration's where the best configuration was measured only faster than the "
           "target.\nThe cost, the "
           "ratios and the summary use the reading chosen; each cell's tooltip and the ladder tab "
           "give the other where they differ."));
    form->addRow(tr("Reading"), m_reading);
    form->addRow(tr("Compare with"), m_baseline);
    m_hideSparse->setToolTip(tr("A reading between two measured points more than 2x apart in tok/s/user is "
                                "interpolated across the gap (its cell is hatched). Tick to leave such readings out."));
    form->addRow(m_hideSparse);
    m_table->setHorizontalHeader(new MeasuringHeader(Qt::Horizontal, m_table));
    m_table->setModel(m_model);
    m_table->setItemDelegate(new CellTextDelegate(m_table)); // every cell repaints on a slider step
    m_table->verticalHeader()->hide();
    // rows as tall as the text needs: nine hardware and the controls fit a 768-pixel screen with the ladder below
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    // the columns are sized to their contents by fitColumns, from one measurement per change: in ResizeToContents the
    // header measured every cell again after each slider step's readings
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->setAlternatingRowColors(true);
    // tokens per $ is a million over the $ per million tokens beside it: the ladder and its CSV carry it, the
    // readout keeps to what fits a side panel without scrolling
    m_table->setColumnHidden(ReadoutModel::TokensPerDollar, true);
    // likewise tok/s per MW beside J/token (the ladder carries both); measured J/token only where runs carry power
    m_table->setColumnHidden(ReadoutModel::TokensPerMegawatt, true);
    m_table->setColumnHidden(ReadoutModel::MeasuredJoulesPerToken, true);
    m_comparison->setWordWrap(true);
    m_comparison->setTextFormat(Qt::PlainText);
    QFont f = m_comparison->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.1);
    m_comparison->setFont(f);
    m_comparison->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_comparison->setMinimumHeight(twoLines(m_comparison));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4); // beside the chart and over the ladder, which have margins of their own
    layout->addLayout(form);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_comparison);
}

void ReadoutPanel::connectSignals()
{
    connect(m_slider, &QSlider::valueChanged, this, &ReadoutPanel::sliderMoved);
    connect(m_slider, &QSlider::sliderReleased, this, [this] { fitColumns(); });
    connect(m_value, &NumberBox::valueChanged, this, [this](double v) {
        if (std::abs(v - m_target) > 1e-9)
            setTarget(v);
    });
    connect(m_tier, &QComboBox::currentIndexChanged, this, [this] {
        m_custom->setEnabled(m_tier->currentData().toString().isEmpty());
        refresh();
        emit priceChanged();
    });
    connect(m_custom, &NumberBox::valueChanged, this, [this] {
        if (m_custom->isEnabled()) {
            refresh();
            emit priceChanged();
        }
    });
    connect(m_metric, &QComboBox::currentIndexChanged, this, &ReadoutPanel::metricChanged);
    connect(m_hideSparse, &QCheckBox::toggled, this, [this](bool hide) {
        refresh();
        emit hideSparseChanged(hide);
    });
    connect(m_reading, &QComboBox::currentIndexChanged, this, [this] {
        refresh();
        emit readingChanged(reading());
    });
    connect(m_baseline, &QComboBox::currentIndexChanged, this, [this] {
        m_baselineChosen = true;
        if (m_data)
            m_baselineByScope[baselineKey()] = baseline();
        refresh();
    });
}

bool ReadoutPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched != m_slider || event->type() != QEvent::KeyPress)
        return QWidget::eventFilter(watched, event);
    const int key = static_cast<QKeyEvent*>(event)->key();
    const double unit = m_target > 10 ? 1.0 : 0.1; // one tok/s/user, a tenth below 10
    double next = m_target;
    if (key == Qt::Key_Right || key == Qt::Key_Up)
        next = m_target + unit;
    else if (key == Qt::Key_Left || key == Qt::Key_Down)
        next = m_target - unit;
    else if (key == Qt::Key_PageUp)
        next = m_target * 1.1;
    else if (key == Qt::Key_PageDown)
        next = m_target / 1.1;
    else
        return QWidget::eventFilter(watched, event);
    next = next >= 10 ? std::round(next) : std::round(next * 10) / 10;
    setTarget(std::clamp(next, 0.1, 100000.0));
    return true;
}

int ReadoutPanel::positionOf(double target) const
{
    const double t = (std::log(target) - std::log(m_lo)) / (std::log(m_hi) - std::log(m_lo));
    return std::clamp(static_cast<int>(std::lround(t * kSteps)), 0, kSteps);
}

void ReadoutPanel::sliderMoved(int position)
{
    const double t = static_cast<double>(position) / kSteps;
    double v = std::exp(std::log(m_lo) + t * (std::log(m_hi) - std::log(m_lo)));
    // whole tok/s/user above 10 reads better and lands exactly on the seed page's targets
    v = v >= 10 ? std::round(v) : std::round(v * 10) / 10;
    if (std::abs(v - m_target) < 1e-9)
        return;
    m_target = v;
    const QSignalBlocker block(m_value);
    m_value->setValue(v);
    refresh(true);
    emit targetChanged(v);
}

void ReadoutPanel::setTarget(double target)
{
    m_target = target;
    {
        const QSignalBlocker b1(m_slider), b2(m_value);
        m_slider->setValue(positionOf(target));
        m_value->setValue(target);
    }
    refresh();
    emit targetChanged(target);
}

PriceChoice ReadoutPanel::price() const
{
    PriceChoice p;
    p.tierKey = m_tier->currentData().toString().toStdString();
    if (p.tierKey.empty())
        p.customUsdPerGpuHour = m_custom->value();
    return p;
}

void ReadoutPanel::setPrice(const QString& tierKey, double customUsd)
{
    m_custom->setValue(customUsd);
    const int i = m_tier->findData(tierKey);
    m_tier->setCurrentIndex(i >= 0 ? i : 0);
}

TputMetric ReadoutPanel::tputMetric() const
{
    return static_cast<TputMetric>(m_metric->currentData().toInt());
}

void ReadoutPanel::setMetric(TputMetric metric)
{
    m_metric->setCurrentIndex(m_metric->findData(int(metric)));
}

QString ReadoutPanel::baseline() const
{
    return m_baseline->currentData().toString();
}

void ReadoutPanel::setBaseline(const QString& hardware)
{
    const int i = m_baseline->findData(hardware);
    if (i >= 0)
        m_baseline->setCurrentIndex(i);
    m_baselineChosen = true;
    if (m_data)
        m_baselineByScope[baselineKey()] = baseline();
}

void ReadoutPanel::restoreBaseline(const QString& hardware)
{
    m_restoredBaseline = hardware;
    m_baselineChosen = true;
}

std::string ReadoutPanel::baselineKey() const
{
    const Scope& s = m_data->scope;
    return s.model + '\n' + std::to_string(s.isl.value_or(0)) + '\n' + std::to_string(s.osl.value_or(0)) + '\n'
        + s.workload;
}

QString ReadoutPanel::comparison() const
{
    return m_comparison->text();
}

void ReadoutPanel::setData(std::shared_ptr<const ScopeData> scopeData)
{
    m_data = std::move(scopeData);
    // the slider spans the data's interactivity range (with a little room), never less than a decade
    double lo = 0, hi = 0;
    for (const GroupFrontier& g : m_data->frontiers) {
        lo = lo == 0 ? g.curve.minX() : std::min(lo, g.curve.minX());
        hi = std::max(hi, g.curve.maxX());
    }
    if (lo > 0) {
        m_lo = std::max(0.1, lo / 1.5);
        m_hi = std::max(hi * 1.5, m_lo * 10);
    }
    // the baseline chosen for this scope when it was last shown, else the one in view
    const std::string scopeKey = baselineKey();
    const auto remembered = m_baselineByScope.find(scopeKey);
    const bool chosenHere = remembered != m_baselineByScope.end();
    const QString keep = chosenHere ? remembered->second : m_restoredBaseline.value_or(baseline());
    m_restoredBaseline.reset();
    {
        const QSignalBlocker block(m_baseline);
        m_baseline->clear();
        m_baseline->addItem(tr("(none)"), QString());
        std::vector<std::string> seen;
        for (const GroupFrontier& g : m_data->frontiers)
            if (std::find(seen.begin(), seen.end(), g.key.hardware) == seen.end()) {
                seen.push_back(g.key.hardware);
                m_baseline->addItem(hardwareName(g.key.hardware), QString::fromStdString(g.key.hardware));
            }
        int i = keep.isEmpty() && !m_baselineChosen && !chosenHere ? -1 : m_baseline->findData(keep);
        // with two or more hardware, compare against the last one (the seed page compares with MI325X)
        if (i < 0)
            i = m_baseline->count() > 2 ? m_baseline->count() - 1 : 0;
        m_baseline->setCurrentIndex(i);
    }
    const QSignalBlocker block(m_slider);
    m_slider->setValue(positionOf(m_target));
    refresh();
}

void ReadoutPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitColumns();
    if (event->size().width() != event->oldSize().width())
        fitHeights(false); // the sentence wraps anew at the new width
}

void ReadoutPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
        m_measured.reset(); // the same cells, another width
}

void ReadoutPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    fitHeights(false); // laid out at its real width now
}

int ReadoutPanel::widestMinimum() const
{
    // at most 560, and never so wide that the window's minimum outgrows its screen, 1366 px at the least (the
    // smallest the explorer is laid out for): beside the filters and the chart, a scope of long readings (spreads
    // over eight hardware) asked for 560 and made the window 1,411 px wide. At least 420: the table scrolls sideways
    constexpr int kWidest = 560, kNarrowest = 420, kSmallestScreen = 1366;
    const auto* splitter = qobject_cast<const QSplitter*>(parentWidget());
    if (!splitter)
        return kWidest;
    // what the panels beside it need at least, as the splitter counts it (the window's own minimum lags behind a
    // change of this panel's until its layout runs again)
    int others = 0;
    for (int i = 0; i < splitter->count(); ++i) {
        const QWidget* w = splitter->widget(i);
        if (w != this && w->isVisibleTo(splitter))
            others
                += (w->minimumWidth() > 0 ? w->minimumWidth() : w->minimumSizeHint().width()) + splitter->handleWidth();
    }
    const QScreen* shown = screen();
    const int wide = std::max(shown ? shown->availableGeometry().width() : 0, kSmallestScreen);
    return std::clamp(wide - others - 8, kNarrowest, kWidest); // 8: the window's frame and margins
}

void ReadoutPanel::growInSplitter(int width)
{
    // a splitter whose panel's minimum grows takes the room from every other panel alike, and gives it back to each
    // when the minimum shrinks: the filters and the chart's edges moved with each scope and target. Sizes set here
    // are the splitter's own from now on: the panel keeps its width when a later scope needs less. The splitter is
    // the first one across (the readout may sit in a column over other panels): its child that holds the panel grows.
    QWidget* holder = this;
    auto* splitter = qobject_cast<QSplitter*>(parentWidget());
    while (splitter && splitter->orientation() != Qt::Horizontal) {
        holder = splitter;
        splitter = qobject_cast<QSplitter*>(splitter->parentWidget());
    }
    if (!splitter || !isVisible())
        return; // before the window is shown, the window fits its panels (MainWindow::fitPanels)
    QList<int> sizes = splitter->sizes();
    const int self = splitter->indexOf(holder);
    int widest = -1;
    for (int i = 0; i < int(sizes.size()); ++i)
        if (i != self && (widest < 0 || sizes[i] > sizes[widest]))
            widest = i;
    const int more = width - sizes[self];
    if (widest < 0 || more <= 0)
        return;
    sizes[self] += more;
    sizes[widest] -= more;
    splitter->setSizes(sizes);
    // where the chart stopped at its own minimum the splitter took the rest from the others: what it laid out is
    // what it keeps
    splitter->setSizes(splitter->sizes());
}

void ReadoutPanel::fitColumns(bool growOnly)
{
    // every width comes from one measurement of the columns' content: this runs on every slider step, and measuring
    // a column lays out the text of each of its cells
    const ColumnWidths need = measureColumns();
    // where the columns do not fit, the ratio to the baseline goes first: the sentence under the table says it
    // and the panel keeps the room its other columns need, however the splitter is dragged (a new scope may need
    // more than the first)
    const auto [without, with] = neededWidths(need);
    const int widest = widestMinimum();
    const int essential = std::min(without, widest);
    // on a slider step the panel keeps its width (the table scrolls sideways until the slider is let go): a panel
    // that grew pushed the splitter, and the chart beside it was laid out and painted whole again, 40 to 60 ms of a
    // first drag toward the fast end
    if (!growOnly && minimumWidth() != essential) {
        const bool grows = essential > width();
        setMinimumWidth(essential);
        if (grows)
            growInSplitter(essential);
    }
    const auto shownWidth = [&](bool energy) { // what the shown columns take, with or without the energy ones
        int sum = 0;
        for (int c = 0; c < ReadoutModel::ColumnCount; ++c)
            if (!m_table->isColumnHidden(c)
                && (energy || (c != ReadoutModel::AllInJoulesPerToken && c != ReadoutModel::MeasuredJoulesPerToken)))
                sum += need[std::size_t(c)];
        return sum;
    };
    // the columns shown change with the scope, the panel's width or a target typed, never on a slider step: a
    // J/token column that came and went as the slider moved made the table jump (the fit is made again when the
    // slider is let go)
    if (growOnly) {
        resizeSections(need);
        return;
    }
    bool narrow = width() < with;
    if (m_table->isColumnHidden(ReadoutModel::VsBaseline) != narrow)
        m_table->setColumnHidden(ReadoutModel::VsBaseline, narrow);
    // shown, it is measured as it is: where the columns then overflow, it goes after all (the energy columns give
    // way first, fitEnergyColumns: they do not count here)
    if (!narrow && shownWidth(false) > m_table->viewport()->width())
        m_table->setColumnHidden(ReadoutModel::VsBaseline, true);
    fitEnergyColumns(need);
    // measured as laid out: what still overflows goes, the measured column first
    for (int c : { int(ReadoutModel::MeasuredJoulesPerToken), int(ReadoutModel::AllInJoulesPerToken) })
        if (!m_table->isColumnHidden(c) && shownWidth(true) > m_table->viewport()->width())
            m_table->setColumnHidden(c, true);
    resizeSections(need);
}

void ReadoutPanel::resizeSections(const ColumnWidths& need)
{
    // the sizes resizeColumnsToContents would give, set only where they changed (the last column stretches)
    QHeaderView* header = m_table->horizontalHeader();
    for (int c = 0; c < ReadoutModel::ColumnCount; ++c)
        if (!m_table->isColumnHidden(c) && header->sectionSize(c) != need[std::size_t(c)])
            header->resizeSection(c, need[std::size_t(c)]);
}

int ReadoutPanel::energyWidth() const
{
    return columnWidth(ReadoutModel::AllInJoulesPerToken) + 6;
}

void ReadoutPanel::fitEnergyColumns(const ColumnWidths& need)
{
    // J/token where the panel has room for it (the ladder and the chart's y carry it too), measured J/token only
    // where runs carry power; the last column stretches, so a column fits when its content does
    const int room = m_table->viewport()->width();
    int used = 0;
    for (int c = 0; c < ReadoutModel::ColumnCount; ++c)
        if (!m_table->isColumnHidden(c) && c != ReadoutModel::AllInJoulesPerToken
            && c != ReadoutModel::MeasuredJoulesPerToken)
            used += need[std::size_t(c)];
    for (int c : { int(ReadoutModel::AllInJoulesPerToken), int(ReadoutModel::MeasuredJoulesPerToken) }) {
        const bool wanted = c == ReadoutModel::AllInJoulesPerToken || m_model->anyMeasuredEnergy();
        const bool fits = wanted && used + need[std::size_t(c)] <= room;
        if (fits)
            used += need[std::size_t(c)];
        if (m_table->isColumnHidden(c) == fits)
            m_table->setColumnHidden(c, !fits);
    }
}

int ReadoutPanel::columnWidth(int column) const
{
    // what resizeColumnsToContents gives it, shown or hidden: its widest cell or its header (public in the base)
    const QAbstractItemView* view = m_table;
    const auto* header = static_cast<const MeasuringHeader*>(m_table->horizontalHeader()); // set in buildLayout
    return std::max(view->sizeHintForColumn(column), header->titleWidth(column));
}

ReadoutPanel::ColumnWidths ReadoutPanel::measureColumns() const
{
    if (m_measured)
        return *m_measured;
    ColumnWidths need {};
    for (int c = 0; c < ReadoutModel::ColumnCount; ++c)
        need[std::size_t(c)] = columnWidth(c);
    m_measured = need;
    return need;
}

double ReadoutPanel::customPrice() const
{
    return m_custom->value();
}

bool ReadoutPanel::hideSparse() const
{
    return m_hideSparse->isChecked();
}

void ReadoutPanel::setHideSparse(bool hide)
{
    m_hideSparse->setChecked(hide);
}

Reading ReadoutPanel::reading() const
{
    return parseReading(m_reading->currentData().toString().toStdString()).value_or(Reading::Deployable);
}

void ReadoutPanel::setReading(Reading reading)
{
    m_reading->setCurrentIndex(m_reading->findData(QString::fromUtf8(readingName(reading))));
}

void ReadoutPanel::refresh(bool sliderStep)
{
    if (!m_data)
        return;
    LadderRequest req;
    req.scope = m_data->scope;
    req.targets = { m_target };
    req.metric = m_data->metric;
    req.price = price();
    req.hideSparse = m_hideSparse->isChecked();
    req.reading = reading();
    auto ladders = computeLadder(m_data->frontiers, m_pricing, req);
    if (ladders)
        attachSpeedOfLight(*ladders, m_data->speedOfLight);
    if (ladders && m_data->evaluations && !m_data->evaluations->empty()) // on the scope's task (the task box)
        attachAccuracy(*ladders, *m_data->evaluations, m_data->accuracyTask, req.scope.asOf, &m_data->frontiers,
            m_data->knotConfigurations.get());
    m_model->setReadings(ladders ? std::move(*ladders) : std::vector<HardwareLadder> {}, baseline().toStdString());
    m_table->setColumnHidden(ReadoutModel::Accuracy, !m_model->anyAccuracy()); // a model without evaluations
    m_comparison->setText(m_model->comparison(m_target));
    m_measured.reset(); // new cells
    fitColumns(sliderStep);
    fitHeights(sliderStep);
}

void ReadoutPanel::fitHeights(bool sliderStep)
{
    // the sentence under the table: on a slider step it grows to the tallest text it has had and does not shrink
    // back (a step that changed its line count moved the table above it, and the relayout repainted the whole window:
    // 30 to 50 ms, twice in a drag). Other changes (a scope, a price, a new width) fit it to its text, two lines at
    // least. Hidden (another page in front), its width is no width it will have: two lines until it is shown (a
    // sentence wrapped at a hidden label's width made the window taller than a 768-pixel screen)
    const int tall = isVisible() ? std::max(twoLines(m_comparison), m_comparison->heightForWidth(m_comparison->width()))
                                 : twoLines(m_comparison);
    if (!sliderStep || tall > m_comparison->minimumHeight())
        m_comparison->setMinimumHeight(tall);
    // tall enough for its rows, up to nine (a splitter beneath it gives the room), so that no hardware scrolls out
    // of view; a slider step only grows it
    const int tallEnough = neededHeight(std::min(m_model->rowCount(), 9));
    if (tallEnough > minimumHeight() || (!sliderStep && tallEnough != minimumHeight()))
        setMinimumHeight(tallEnough);
}

} // namespace paretoscope::ui
