#include "widgets/readout/readoutpanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QResizeEvent>
#include <QShowEvent>
#include <QSlider>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "core/analysis/ladderaccuracy.h"
#include "widgets/common/celltextdelegate.h"
#include "widgets/common/displaynames.h"
#include "widgets/readout/measuringheader.h"

namespace paretoscope::ui {

namespace {

constexpr int kSteps = 10000; // finer than a pixel: dragging is as fine as the mouse

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
