// The Plan tab's demand plan (docs/architecture.md section 12): the plan at the readout's target into the table, and
// the cost of speed under it, a turn later where frontiers were just delivered.
#include "widgets/plan/planpanel.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QTableView>
#include <QTimer>
#include <algorithm>

#include "core/analysis/numberformat.h"
#include "core/analysis/scopeaccuracy.h"
#include "core/output/planreports.h"
#include "widgets/common/displaynames.h"
#include "widgets/common/paintnextturn.h"
#include "widgets/plan/planchart.h"
#include "widgets/plan/planmodel.h"
#include "widgets/plan/tcoeditor.h"

namespace paretoscope::ui {

void PlanPanel::recompute()
{
    m_stale = false;
    ++m_curveTurn; // a curve still due is an older plan's: it stands down
    m_chart->setUpdatesEnabled(true);
    if (!m_frontiers)
        return;
    if (m_frontiers->empty()) {
        showProblem(tr("No runs in this scope: nothing to plan with."));
        return;
    }
    ++m_computations;
    const PlanRequest req = request();
    if (mode() != Mode::Demand) {
        if (mode() == Mode::Budget)
            recomputeBudget(req);
        else
            recomputeMix(req);
        forgetCurve();
        emit planShown();
        return;
    }
    auto plan = computePlan(*m_frontiers, req);
    if (!plan) {
        m_model->setPlan({});
        m_caption->setText(QString::fromStdString(plan.error()));
        m_chart->showMessage(QString::fromStdString(plan.error()));
        emit planShown();
        return;
    }
    if (m_evaluations) // the accuracy of the group each hardware is sized on
        attachAccuracy(*plan, *m_evaluations, m_accuracyTask, m_frontiers->scope.asOf);
    m_model->setPlan(std::move(*plan));
    fitTable();
    if (m_curve.empty() && std::exchange(m_curveLater, false)) {
        // a delivery's plan, in four turns of the event loop: the table set and painted; the curve worked out; the
        // curve put in the chart (Qt Charts lays it out in a posted event, and its scene then sends the window's
        // update); the chart painted. In one turn they stood 30 ms on a million-run store, in three (the curve
        // worked out and put in the chart together) up to 19 ms at 1920x1080 on a busy machine.
        m_chart->setUpdatesEnabled(false);
        describe();
        nextCurveTurn([this] {
            workOutCurve(request());
            nextCurveTurn([this] { drawCurve(request(), true); });
        });
        return;
    }
    drawCurve(req, false);
}

template <typename Step> void PlanPanel::nextCurveTurn(Step step)
{
    QTimer::singleShot(1, Qt::PreciseTimer, this, [this, turn = m_curveTurn, step] {
        if (turn == m_curveTurn)
            step();
    });
}

void PlanPanel::workOutCurve(const PlanRequest& req)
{
    m_curveInChart = false;
    m_curveProblem.clear();
    auto curve = costOfSpeed(*m_frontiers, req, curveTargets());
    if (curve)
        m_curve = std::move(*curve);
    else
        m_curveProblem = QString::fromStdString(curve.error());
}

void PlanPanel::forgetCurve()
{
    m_curve.clear();
    m_curveProblem.clear();
    m_curveInChart = false;
}

void PlanPanel::drawCurve(const PlanRequest& req, bool paintLater)
{
    if (m_curve.empty() && m_curveProblem.isEmpty()) // not worked out yet (a delivery's turn may have)
        workOutCurve(req);
    if (!m_curveInChart) {
        if (m_curve.empty())
            m_chart->showMessage(m_curveProblem);
        else
            m_chart->setCurve(m_curve, m_target, PlanChart::Measure(m_measure->currentData().toInt()));
        m_curveInChart = true;
    } else {
        m_chart->setTarget(m_target);
    }
    describe();
    if (paintLater) {
        // held until a turn after the new curve's layout: that request was posted by setCurve, this call is posted
        // after it, and the 1 ms timer it starts runs in a pass of its own
        QMetaObject::invokeMethod(
            this,
            [this, turn = m_curveTurn] {
                if (turn == m_curveTurn)
                    releaseNextTurn(m_chart);
            },
            Qt::QueuedConnection);
    } else {
        m_chart->setUpdatesEnabled(true);
    }
    emit planShown();
}

void PlanPanel::fitTable()
{
    // every hardware's row in view (up to nine), the rest of the height for the cost of speed
    const int rows = std::clamp(m_table->model()->rowCount(), 1, 9);
    const int height = m_table->horizontalHeader()->height() + rows * m_table->verticalHeader()->defaultSectionSize()
        + m_table->horizontalScrollBar()->sizeHint().height() + 2 * m_table->frameWidth();
    m_table->setMinimumHeight(height);
}

void PlanPanel::describe()
{
    const Plan& p = m_model->plan();
    if (p.hardware.empty())
        return;
    const QString demand = QString::fromStdString(withThousands(p.demandTokensPerSecond));
    QString text = tr("Demand: %1 %2 tokens/s at %3 tok/s/user, with %4% headroom.")
                       .arg(demand, p.metric == TputMetric::Output ? tr("output") : tr("total"),
                           QString::number(p.target, 'g', 4), QString::number(m_headroom->value()));
    if (const HardwarePlan* c = p.cheapest(); c && c->costPerMonth)
        text += QLatin1Char(' ')
            + tr("Cheapest: %1, $%2 per month.")
                  .arg(hardwareName(c->hardware), QString::fromStdString(withThousands(*c->costPerMonth)));
    if (m_cost->currentData().toInt() == int(CostModel::Tco))
        text += QLatin1Char(' ')
            + tr("TCO: %1%2.")
                  .arg(m_tcoPath.isEmpty() ? tr("the shipped example (its capital figures are values to edit)")
                                           : m_tcoPath,
                      m_tco->edited() ? tr(", edited here (save it for the command line)") : QString());
    if (!m_asOf.isEmpty())
        text = tr("As of %1 (runs after it left out, as the run dates slider asks): ").arg(m_asOf) + text;
    m_caption->setText(text);
    m_caption->setToolTip(text);
}

} // namespace paretoscope::ui
