// The Plan tab's other questions (docs/architecture.md sections 12.8 and 12.10): what a budget buys and what a
// workload mix takes, beside the demand plan of planpanel.cpp.
#include "widgets/plan/planpanel.h"

#include <QComboBox>
#include <QLabel>
#include <QTabWidget>
#include <QTableView>

#include "core/analysis/numberformat.h"
#include "core/output/planbudgetreports.h"
#include "core/output/planmixreports.h"
#include "core/output/planreports.h"
#include "widgets/common/displaynames.h"
#include "widgets/plan/mixeditor.h"
#include "widgets/plan/mixmodel.h"
#include "widgets/plan/planmodel.h"

namespace paretoscope::ui {

PlanPanel::Mode PlanPanel::mode() const
{
    return Mode(m_mode->currentData().toInt());
}

void PlanPanel::setMode(Mode mode)
{
    m_mode->setCurrentIndex(m_mode->findData(int(mode)));
}

BudgetKind PlanPanel::budgetKind() const
{
    return BudgetKind(m_budgetUnit->currentData().toInt());
}

double PlanPanel::budget() const
{
    return m_budget->value();
}

void PlanPanel::setBudget(double amount, BudgetKind kind)
{
    m_budgetUnit->setCurrentIndex(m_budgetUnit->findData(int(kind)));
    m_budget->setValue(amount);
}

Result<std::vector<MixPart>> PlanPanel::mixParts() const
{
    if (!m_frontiers)
        return Error { "no scope shown yet" };
    Scope base = m_frontiers->scope;
    base.isl = base.osl = std::nullopt;
    base.workload.clear();
    return m_mixEditor->parts(base);
}

void PlanPanel::setMixFrontiers(std::vector<MixPart> parts, std::vector<std::shared_ptr<const PlanFrontiers>> frontiers)
{
    m_mixParts = std::move(parts);
    m_mixFrontiers = std::move(frontiers);
    if (mode() == Mode::Mix)
        inputsChanged();
}

std::string PlanPanel::csv() const
{
    switch (mode()) {
    case Mode::Budget:
        return m_budgetPlan ? budgetCsv(*m_budgetPlan) : std::string();
    case Mode::Mix:
        return m_mixPlan ? mixCsv(*m_mixPlan) : std::string();
    case Mode::Demand:
        break;
    }
    return plan().hardware.empty() ? std::string() : planCsv(plan());
}

void PlanPanel::modeChanged()
{
    const Mode m = mode();
    m_demand->setVisible(m != Mode::Budget);
    m_unit->setVisible(m != Mode::Budget);
    m_budget->setVisible(m == Mode::Budget);
    m_budgetUnit->setVisible(m == Mode::Budget);
    m_table->setModel(m == Mode::Mix ? static_cast<QAbstractItemModel*>(m_mixModel) : m_model);
    m_table->setColumnHidden(PlanModel::Serves, m != Mode::Budget);
    if (m == Mode::Mix) {
        m_lower->setCurrentWidget(m_mixEditor);
        emit mixScopesChanged();
    } else if (m_lower->currentWidget() == m_mixEditor) {
        m_lower->setCurrentWidget(m_chart);
    }
    m_budgetPlan.reset();
    m_mixPlan.reset();
    inputsChanged();
}

bool PlanPanel::recomputeBudget(const PlanRequest& req)
{
    auto budget = computeBudgetPlan(*m_frontiers, req, budgetKind(), m_budget->value());
    if (!budget) {
        m_budgetPlan.reset();
        m_model->setPlan({});
        m_caption->setText(QString::fromStdString(budget.error()));
        m_chart->showMessage(QString::fromStdString(budget.error()));
        return false;
    }
    m_budgetPlan = std::move(*budget);
    m_model->setBudget(*m_budgetPlan);
    fitTable();
    m_chart->showMessage(tr("The cost of speed is drawn for a demand. What the budget buys at the target is in the "
                            "table above: move the slider to see it at another."));
    const QString amount = budgetKind() == BudgetKind::Megawatts
        ? QString(QString::fromStdString(withThousands(m_budgetPlan->amount, 3)) + tr(" MW"))
        : QString(QStringLiteral("$") + QString::fromStdString(withThousands(m_budgetPlan->amount)) + tr(" a month"));
    QString text = tr("Budget: %1 at %2 tok/s/user, %3% headroom kept spare.")
                       .arg(amount, QString::number(m_target, 'g', 4), QString::number(m_headroom->value()));
    for (const BudgetHardware& b : m_budgetPlan->hardware)
        if (b.most)
            text += QLatin1Char(' ')
                + tr("Serves the most: %1, %2 tok/s on %3 GPUs.")
                      .arg(hardwareName(b.plan.hardware),
                          QString::fromStdString(withThousands(b.totalTokPerS.value_or(b.servedTokPerS))),
                          QString::fromStdString(withThousands(double(b.plan.gpus))));
    m_caption->setText(text);
    m_caption->setToolTip(text);
    return true;
}

bool PlanPanel::recomputeMix(const PlanRequest& req)
{
    auto parts = mixParts();
    auto fail = [this](const QString& message) {
        m_mixPlan.reset();
        m_mixModel->setMix({});
        m_caption->setText(message);
        m_chart->showMessage(message);
        return false;
    };
    if (!parts)
        return fail(tr("Workload mix: %1").arg(QString::fromStdString(parts.error())));
    bool loaded = parts->size() == m_mixParts.size() && parts->size() == m_mixFrontiers.size();
    for (std::size_t i = 0; loaded && i < parts->size(); ++i)
        loaded = (*parts)[i].scope == m_mixParts[i].scope && m_mixFrontiers[i];
    if (!loaded) {
        emit mixScopesChanged();
        return fail(tr("Reading the scopes of the mix…"));
    }
    std::vector<const PlanFrontiers*> frontiers;
    frontiers.reserve(m_mixFrontiers.size());
    for (const auto& f : m_mixFrontiers)
        frontiers.push_back(f.get());
    auto mix = computeMixPlan(frontiers, req, *parts);
    if (!mix)
        return fail(QString::fromStdString(mix.error()));
    m_mixPlan = std::move(*mix);
    m_mixModel->setMix(*m_mixPlan);
    fitTable();
    m_chart->showMessage(tr("The cost of speed is drawn for one scope: choose \"Serve a demand of\" to see it. The "
                            "mix's parts are under Mix."));
    QString text;
    for (const MixHardware& h : m_mixPlan->hardware)
        if (h.cheapest && h.costPerMonth)
            text = tr("Cheapest for the whole mix: %1, $%2 per month.")
                       .arg(hardwareName(h.hardware), QString::fromStdString(withThousands(*h.costPerMonth)));
    if (text.isEmpty())
        text = tr("No hardware serves every part of the mix.");
    if (m_mixPlan->mixedCostPerMonth && m_mixPlan->mixedDiffers) {
        QStringList per;
        for (std::size_t i = 0; i < m_mixPlan->parts.size(); ++i)
            per << QStringLiteral("%1 on %2")
                       .arg(QString::fromStdString(m_mixPlan->parts[i].label),
                           hardwareName(m_mixPlan->cheapestPerPart[i]));
        text += QLatin1Char(' ')
            + tr("As a mix of hardware (%1): $%2 per month.")
                  .arg(per.join(QStringLiteral(", ")),
                      QString::fromStdString(withThousands(*m_mixPlan->mixedCostPerMonth)));
    }
    m_caption->setText(text);
    m_caption->setToolTip(text);
    return true;
}

} // namespace paretoscope::ui
