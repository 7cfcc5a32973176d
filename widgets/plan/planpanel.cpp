#include "widgets/plan/planpanel.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "core/analysis/numberformat.h"
#include "core/output/planbudgetreports.h"
#include "core/output/planmixreports.h"
#include "core/output/planreports.h"
#include "widgets/common/celltextdelegate.h"
#include "widgets/common/displaynames.h"
#include "widgets/common/paintnextturn.h"
#include "widgets/plan/mixeditor.h"
#include "widgets/plan/mixmodel.h"
#include "widgets/plan/planmodel.h"
#include "widgets/plan/tcoeditor.h"

namespace paretoscope::ui {

namespace {

QString unitText(DemandUnit u)
{
    switch (u) {
    case DemandUnit::TokPerS:
        return PlanPanel::tr("tok/s (in + out)");
    case DemandUnit::OutputTokPerS:
        return PlanPanel::tr("output tok/s");
    case DemandUnit::TokPerDay:
        return PlanPanel::tr("tok/day");
    case DemandUnit::ReqPerS:
        return PlanPanel::tr("req/s");
    case DemandUnit::Users:
        return PlanPanel::tr("concurrent users");
    }
    return {};
}

} // namespace

PlanPanel::PlanPanel(QWidget* parent)
    : QWidget(parent)
    , m_model(new PlanModel(this))
    , m_table(new QTableView(this))
    , m_lower(new QTabWidget(this))
    , m_chart(new PlanChart(this))
    , m_tco(new TcoEditor(this))
    , m_mixEditor(new MixEditor(this))
    , m_mixModel(new MixModel(this))
{
    // in a scroll area: the tab's minimum height would otherwise be the sum of its parts, and take the chart's room
    // on a small screen
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    m_scroll = new QScrollArea(this);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    auto* content = new QWidget(m_scroll);
    m_scroll->setWidget(content);
    outer->addWidget(m_scroll);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addWidget(buildInputs());
    layout->addWidget(buildCostRow());
    m_caption = new QLabel(this);
    // one line, cut where the panel is narrow (the whole of it on hover): a wrapped label would make the scroll
    // area size the panel by its preferred height, and hide the cost of speed under the table
    m_caption->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_caption->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_caption);

    m_table->setModel(m_model);
    m_table->setColumnHidden(PlanModel::Serves, true); // a budget's column (planpanelmodes.cpp shows it)
    m_table->setColumnHidden(PlanModel::Accuracy, true); // shown where the model has evaluations (setEvaluations)
    m_table->setItemDelegate(new CellTextDelegate(m_table)); // the plan follows the slider: every cell, every step
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // the long sentences (a status, how to deploy) are cut to a column that leaves the others in view on a wide
    // page (their whole text is the cell's tooltip)
    m_table->horizontalHeader()->setMaximumSectionSize(280);
    m_table->setWordWrap(false);
    m_table->setMinimumHeight(50);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);

    // the measure's choice sits with the lower tabs' buttons: a row of its own would cost the chart its height
    m_measure = new QComboBox(this);
    m_measure->setToolTip(tr("What the cost of speed shows: what serving the demand takes at each target"));
    for (auto m : { PlanChart::Measure::CostPerMonth, PlanChart::Measure::Gpus, PlanChart::Measure::Megawatts })
        m_measure->addItem(PlanChart::measureName(m), int(m));
    m_lower->addTab(m_chart, tr("Cost of speed"));
    m_lower->addTab(m_tco, tr("TCO model"));
    m_lower->addTab(m_mixEditor, tr("Mix")); // short: the tabs share their row with the buttons
    m_lower->setCornerWidget(buildActions(), Qt::TopRightCorner);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(m_lower);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setSizes({ 100, 300 });
    split->setChildrenCollapsible(false);
    layout->addWidget(split, 1);

    connect(m_measure, &QComboBox::currentIndexChanged, this, &PlanPanel::inputsChanged);
    connect(m_tco, &TcoEditor::modelEdited, this, [this] {
        if (m_cost->currentData().toInt() == int(CostModel::Tco))
            inputsChanged();
        describe();
    });
    connect(m_tco, &TcoEditor::refused, m_caption, &QLabel::setText);
    connect(m_mixEditor, &MixEditor::changed, this, [this] {
        if (mode() == Mode::Mix)
            inputsChanged();
    });
    m_tco->setTcoModel(bundledTco());
    showProblem(tr("Open the Plan tab on a scope to plan its capacity."));
}

PlanPanel::~PlanPanel() = default;

QWidget* PlanPanel::buildInputs()
{
    auto* row = new QWidget(this);
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    m_mode = new QComboBox(row);
    m_mode->setObjectName(QStringLiteral("planMode"));
    m_mode->addItem(tr("Serve a demand of"), int(Mode::Demand));
    m_mode->addItem(tr("Spend a budget of"), int(Mode::Budget));
    m_mode->addItem(tr("Serve a mix, in all"), int(Mode::Mix));
    m_mode->setToolTip(tr("A demand: the GPUs it takes. A budget: what it buys and serves. A mix: the GPUs of "
                          "each part of a workload mix (its parts under Mix, below) and their sum"));
    m_budget = new NumberBox(row);
    m_budget->setObjectName(QStringLiteral("budget"));
    m_budget->setRange(0, kMaxBudgetMw, true);
    m_budget->setDecimals(3);
    m_budget->setValue(10);
    m_budget->setToolTip(tr("What the deployment may take: all-in megawatts, or dollars a month"));
    m_budgetUnit = new QComboBox(row);
    m_budgetUnit->addItem(tr("MW (all-in)"), int(BudgetKind::Megawatts));
    m_budgetUnit->addItem(tr("$ per month"), int(BudgetKind::UsdPerMonth));
    m_demand = new NumberBox(row);
    m_demand->setObjectName(QStringLiteral("demand"));
    m_demand->setRange(0, 1e15, true);
    m_demand->setDecimals(3);
    m_demand->setSingleStep(1000);
    m_demand->setValue(1e6);
    m_demand->setToolTip(tr("The traffic to serve: 2e6, 2,000,000 and 2000000 are one number"));
    m_demand->lineEdit()->setMinimumWidth(m_demand->fontMetrics().horizontalAdvance(QStringLiteral("0,000,000,000.0")));
    m_unit = new QComboBox(row);
    for (auto u : { DemandUnit::TokPerS, DemandUnit::OutputTokPerS, DemandUnit::TokPerDay, DemandUnit::ReqPerS,
             DemandUnit::Users })
        m_unit->addItem(unitText(u), int(u));
    m_targetLabel = new QLabel(row);
    m_targetLabel->setToolTip(tr("The readout's slider sets the target"));
    m_ttft = new NumberBox(row);
    m_ttft->setObjectName(QStringLiteral("ttftLimit"));
    m_ttft->setRange(0, 600);
    m_ttft->setDecimals(2);
    m_ttft->setSingleStep(0.5);
    m_ttft->setSuffix(tr("s"));
    m_ttft->setSpecialValueText(tr("no limit"));
    m_ttft->setToolTip(tr("Only runs whose TTFT is at or below this count (the scope's filter; 0: no limit)"));
    m_ttftStat = new QComboBox(row);
    m_ttftStat->setObjectName(QStringLiteral("ttftStat"));
    m_ttftStat->addItem(tr("median"), int(LatencyStat::Median));
    m_ttftStat->addItem(tr("p99"), int(LatencyStat::P99));
    m_headroom = new NumberBox(row);
    m_headroom->setObjectName(QStringLiteral("headroom"));
    m_headroom->setRange(0, 1000);
    m_headroom->setDecimals(1);
    m_headroom->setValue(25);
    m_headroom->setSuffix(tr("%"));
    m_headroom->setToolTip(tr("Spare capacity planned above the demand"));
    h->addWidget(m_mode);
    h->addWidget(m_demand);
    h->addWidget(m_unit);
    h->addWidget(m_budget);
    h->addWidget(m_budgetUnit);
    h->addWidget(m_targetLabel);
    h->addSpacing(6);
    h->addWidget(new QLabel(tr("Headroom"), row));
    h->addWidget(m_headroom);
    h->addStretch();
    connect(m_demand, &NumberBox::valueChanged, this, &PlanPanel::inputsChanged);
    connect(m_budget, &NumberBox::valueChanged, this, &PlanPanel::inputsChanged);
    connect(m_budgetUnit, &QComboBox::currentIndexChanged, this, [this] {
        // a budget in $ a month reaches further than one in MW
        const bool usd = budgetKind() == BudgetKind::UsdPerMonth;
        m_budget->setRange(0, usd ? kMaxBudgetUsdPerMonth : kMaxBudgetMw, true);
        m_budget->setDecimals(usd ? 0 : 3);
        inputsChanged();
    });
    connect(m_mode, &QComboBox::currentIndexChanged, this, &PlanPanel::modeChanged);
    m_budget->hide();
    m_budgetUnit->hide();
    connect(m_unit, &QComboBox::currentIndexChanged, this, &PlanPanel::inputsChanged);
    connect(m_headroom, &NumberBox::valueChanged, this, &PlanPanel::inputsChanged);
    auto slo = [this] {
        const std::optional<double> limit = m_ttft->value() > 0 ? std::optional<double>(m_ttft->value()) : std::nullopt;
        const auto stat = LatencyStat(m_ttftStat->currentData().toInt());
        // leaving the box unchanged asks for nothing: only a new limit reads the scope again
        if (m_loadingSlo || (limit == m_scopeTtft && (!limit || stat == m_scopeStat)))
            return;
        emit sloEdited(limit, stat);
    };
    // the limit filters the scope's runs: it is taken when editing ends, not at each keystroke
    connect(m_ttft, &NumberBox::editingFinished, this, slo);
    connect(m_ttftStat, &QComboBox::currentIndexChanged, this, slo);
    return row;
}

QWidget* PlanPanel::buildCostRow()
{
    auto* row = new QWidget(this);
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    m_cost = new QComboBox(row);
    m_cost->addItem(tr("the readout's price"), int(CostModel::ReadoutPrice));
    m_cost->addItem(tr("a custom $/GPU-hour"), int(CostModel::CustomPrice));
    m_cost->addItem(tr("a TCO model"), int(CostModel::Tco));
    m_customPrice = new NumberBox(row);
    m_customPrice->setObjectName(QStringLiteral("customPrice"));
    m_customPrice->setRange(0.01, 10000);
    m_customPrice->setDecimals(2);
    m_customPrice->setSuffix(tr("/GPU/hr"));
    m_customPrice->setPrefix(QStringLiteral("$"));
    m_customPrice->setValue(2.0);
    m_openTco = new QPushButton(tr("Open TCO…"), row);
    m_saveTco = new QPushButton(tr("Save TCO as…"), row);
    h->addWidget(new QLabel(tr("TTFT ≤"), row));
    h->addWidget(m_ttft);
    h->addWidget(m_ttftStat);
    h->addSpacing(6);
    h->addWidget(new QLabel(tr("Priced at"), row));
    h->addWidget(m_cost);
    h->addWidget(m_customPrice);
    h->addWidget(m_openTco);
    h->addWidget(m_saveTco);
    h->addStretch();
    connect(m_cost, &QComboBox::currentIndexChanged, this, [this] {
        const auto model = CostModel(m_cost->currentData().toInt());
        m_customPrice->setVisible(model == CostModel::CustomPrice);
        if (model == CostModel::Tco)
            m_lower->setCurrentWidget(m_tco);
        inputsChanged();
    });
    connect(m_customPrice, &NumberBox::valueChanged, this, &PlanPanel::inputsChanged);
    // a refusal under its box: beside it, the row runs past the panel's edge on a small screen
    for (NumberBox* box : { m_demand, m_budget, m_headroom, m_ttft, m_customPrice })
        box->setReasonBelow(true);
    connect(m_openTco, &QPushButton::clicked, this, &PlanPanel::openTcoRequested);
    connect(m_saveTco, &QPushButton::clicked, this, &PlanPanel::saveTcoRequested);
    m_customPrice->setVisible(false);
    return row;
}

QWidget* PlanPanel::buildActions()
{
    // beside the lower tabs, where a row of their own would cost the table its height
    auto* box = new QWidget(this);
    auto* h = new QHBoxLayout(box);
    h->setContentsMargins(0, 0, 0, 2);
    auto* copy = new QPushButton(tr("Copy as command"), box);
    copy->setToolTip(tr("The equivalent paretoscope-cli plan line onto the clipboard"));
    auto* csv = new QPushButton(tr("CSV…"), box);
    csv->setToolTip(tr("Export the plan as CSV"));
    auto* png = new QPushButton(tr("PNG…"), box);
    png->setToolTip(tr("Export the Plan tab as a PNG picture"));
    h->addWidget(m_measure);
    for (QPushButton* b : { copy, csv, png })
        h->addWidget(b);
    connect(copy, &QPushButton::clicked, this, &PlanPanel::copyCommandRequested);
    connect(csv, &QPushButton::clicked, this, &PlanPanel::exportCsvRequested);
    connect(png, &QPushButton::clicked, this, &PlanPanel::exportPngRequested);
    return box;
}

void PlanPanel::setFrontiers(std::shared_ptr<const PlanFrontiers> frontiers)
{
    m_frontiers = std::move(frontiers);
    m_problemText.clear();
    if (m_frontiers)
        m_tco->setMeasuredPower(m_frontiers->measuredGpuW);
    m_curveLater = true; // a delivery: the cost of speed a turn after the table (recompute)
    inputsChanged();
}

void PlanPanel::setEvaluations(std::shared_ptr<const EvaluationIndex> evaluations, const std::string& task)
{
    m_evaluations = evaluations && !evaluations->empty() && !task.empty() ? std::move(evaluations) : nullptr;
    m_accuracyTask = m_evaluations ? task : std::string();
    m_table->setColumnHidden(PlanModel::Accuracy, !m_evaluations);
}

void PlanPanel::showProblem(const QString& message)
{
    m_frontiers.reset();
    m_problemText = message;
    forgetCurve();
    ++m_curveTurn; // no curve still due is drawn over the message
    m_chart->setUpdatesEnabled(true);
    m_model->setPlan({});
    m_chart->showMessage(message);
    m_caption->setText(message);
    emit planShown(); // what there is to show is this message
}

void PlanPanel::setTarget(double target)
{
    m_target = target;
    m_targetLabel->setText(tr("at %1 tok/s/user").arg(QString::number(target, 'g', 4)));
    // the curve's lines do not depend on the target: only the table and the target line move
    if (!m_frontiers || !isVisible()) {
        m_stale = true;
        return;
    }
    recompute();
}

void PlanPanel::setPrice(const PriceChoice& price)
{
    m_price = price;
    if (m_cost->currentData().toInt() == int(CostModel::ReadoutPrice))
        inputsChanged();
}

void PlanPanel::setHideSparse(bool hide)
{
    m_hideSparse = hide;
    inputsChanged();
}

void PlanPanel::setTtftLimit(std::optional<double> seconds, LatencyStat stat)
{
    m_scopeTtft = seconds;
    m_scopeStat = stat;
    m_loadingSlo = true;
    m_ttft->setValue(seconds.value_or(0));
    m_ttftStat->setCurrentIndex(m_ttftStat->findData(int(stat)));
    m_loadingSlo = false;
}

void PlanPanel::setDemand(double value, DemandUnit unit)
{
    m_unit->setCurrentIndex(m_unit->findData(int(unit)));
    m_demand->setValue(value);
}

double PlanPanel::demand() const
{
    return m_demand->value();
}

DemandUnit PlanPanel::unit() const
{
    return DemandUnit(m_unit->currentData().toInt());
}

double PlanPanel::headroom() const
{
    return m_headroom->value() / 100.0;
}

PlanPanel::CostModel PlanPanel::costModel() const
{
    return CostModel(m_cost->currentData().toInt());
}

double PlanPanel::customPrice() const
{
    return m_customPrice->value();
}

void PlanPanel::setHeadroom(double fraction)
{
    m_headroom->setValue(fraction * 100);
}

void PlanPanel::setCostModel(CostModel model)
{
    m_cost->setCurrentIndex(m_cost->findData(int(model)));
}

void PlanPanel::setCustomPrice(double usdPerGpuHour)
{
    m_customPrice->setValue(usdPerGpuHour);
}

void PlanPanel::setTcoModel(TcoModel model, const QString& path)
{
    m_tcoPath = path;
    m_tco->setTcoModel(std::move(model));
    if (m_frontiers)
        m_tco->setMeasuredPower(m_frontiers->measuredGpuW);
    inputsChanged();
    describe();
}

const TcoModel& PlanPanel::tcoModel() const
{
    return m_tco->tcoModel();
}

bool PlanPanel::tcoEdited() const
{
    return m_tco->edited();
}

PlanRequest PlanPanel::request() const
{
    PlanRequest r;
    if (m_frontiers)
        r.scope = m_frontiers->scope;
    r.demand = m_demand->value();
    r.unit = DemandUnit(m_unit->currentData().toInt());
    r.target = m_target;
    r.headroom = m_headroom->value() / 100.0;
    r.hideSparse = m_hideSparse;
    switch (CostModel(m_cost->currentData().toInt())) {
    case CostModel::ReadoutPrice:
        r.price = m_price;
        break;
    case CostModel::CustomPrice:
        r.price.customUsdPerGpuHour = m_customPrice->value();
        break;
    case CostModel::Tco:
        r.tco = m_tco->tcoModel();
        break;
    }
    return r;
}

const Plan& PlanPanel::plan() const
{
    return m_model->plan();
}

std::vector<double> PlanPanel::curveTargets() const
{
    // up to 20 round targets across the interactivity the scope's frontiers reach
    double lo = INFINITY, hi = 0;
    if (m_frontiers)
        for (const GroupFrontier& f : m_frontiers->total)
            for (const Point& p : f.points) {
                lo = std::min(lo, p.x);
                hi = std::max(hi, p.x);
            }
    if (!(hi > 0) || !(hi > lo))
        return {};
    const double raw = (hi - lo) / 19;
    const double decade = std::pow(10, std::floor(std::log10(raw)));
    double step = decade * 10;
    for (double m : { 1.0, 2.0, 2.5, 5.0 })
        if (decade * m >= raw) {
            step = decade * m;
            break;
        }
    std::vector<double> targets;
    for (double t = std::ceil(lo / step) * step; t <= hi + 1e-9 && targets.size() < 20; t += step)
        targets.push_back(t);
    return targets;
}

void PlanPanel::inputsChanged()
{
    if (!m_frontiers || !isVisible()) {
        m_stale = true;
        return;
    }
    forgetCurve();
    recompute();
}

void PlanPanel::planNow()
{
    if (!m_frontiers)
        return;
    m_curveLater = false;
    forgetCurve();
    recompute();
}

void PlanPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    // the page brought to the front: the table and the inputs first, the cost of speed, TCO and mix a turn later
    // (the page painted whole stood 15 to 24 ms on a 1920x1080 screen)
    if (!event->spontaneous())
        paintNextTurn(m_lower);
    // the scroll area's bars, laid out while the page was hidden (at the window's first, smaller size), are shown
    // or hidden by a queued call: run now, before the window's paint, which painted both (a 1722 px bar and a
    // 999 px one at 1920x1080, 2 to 6 ms) and then took them away
    QCoreApplication::sendPostedEvents(m_scroll, QEvent::MetaCall);
    if (m_stale && m_frontiers) {
        forgetCurve();
        recompute();
    }
}

void PlanPanel::setAsOf(const QString& day)
{
    if (day == m_asOf)
        return;
    m_asOf = day;
    describe();
}

} // namespace paretoscope::ui
