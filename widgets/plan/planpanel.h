#pragma once

#include <QWidget>
#include <memory>
#include <optional>

#include "core/analysis/plan.h"
#include "core/analysis/planbudget.h"
#include "core/analysis/planmix.h"
#include "widgets/common/numberbox.h"
#include "widgets/plan/planchart.h"

class QComboBox;
class QScrollArea;
class QLabel;
class QPushButton;
class QTableView;
class QTabWidget;

namespace paretoscope::ui {

class MixEditor;
class MixModel;
class PlanModel;
class TcoEditor;

/// The Plan tab (docs/architecture.md section 12): a demand with its unit, the target (the readout's slider), the TTFT
/// limit (the scope's, shared with the filter panel), headroom and a cost model (the readout's price, a custom $/GPU/hr
/// or a TCO model whose parts are edited in the panel) give, per hardware, the GPUs, nodes, megawatts and dollars that
/// serve the demand (core's computePlan), the cheapest marked; below it the cost of speed (core's costOfSpeed) against
/// the target. The frontiers come loaded (PlanFrontiers, read on the store worker); a plan is arithmetic on them, so it
/// follows the slider on the GUI thread. A hidden panel computes nothing: it computes once when shown.
class PlanPanel : public QWidget {
    Q_OBJECT
public:
    explicit PlanPanel(QWidget* parent = nullptr);
    ~PlanPanel() override;

    /// The scope's frontiers (null: none loaded yet).
    void setFrontiers(std::shared_ptr<const PlanFrontiers> frontiers);
    /// The model's evaluations (the scope's index, read on this thread) and the task: each hardware planned then
    /// says the accuracy of the group it sized on. Null or an empty task: no accuracy column.
    void setEvaluations(std::shared_ptr<const EvaluationIndex> evaluations, const std::string& task);
    /// Plans now, in front or not (an export waits for the plan): planShown follows.
    void planNow();
    /// A message in place of the plan (no runs in scope, a store that cannot be read).
    void showProblem(const QString& message);
    void setTarget(double target);
    /// The readout's price (used while the cost model is "the readout's price").
    void setPrice(const PriceChoice& price);
    void setHideSparse(bool hide);
    /// The scope's TTFT limit as the filters have it (shown; editing it here asks the filters through sloEdited).
    void setTtftLimit(std::optional<double> seconds, LatencyStat stat);
    /// The as-of day the plan's frontiers are read for ("2026-03-01"; empty: the latest runs): the caption says a
    /// plan of a past day is one.
    void setAsOf(const QString& day);

    enum class CostModel { ReadoutPrice, CustomPrice, Tco };
    /// What the tab asks (docs/architecture.md sections 12.8 and 12.10): the GPUs a demand takes, what a budget
    /// buys, or the GPUs a workload mix takes.
    enum class Mode { Demand, Budget, Mix };
    Mode mode() const;
    void setMode(Mode mode);
    BudgetKind budgetKind() const;
    double budget() const;
    void setBudget(double amount, BudgetKind kind);
    MixEditor* mixEditor() const { return m_mixEditor; }
    /// The mix's parts on the scope shown; errors: the editor's refusal, or no scope yet.
    Result<std::vector<MixPart>> mixParts() const;
    /// The frontiers of the mix's parts (read on the store worker for `parts`); a mix plan is computed from them.
    void setMixFrontiers(std::vector<MixPart> parts, std::vector<std::shared_ptr<const PlanFrontiers>> frontiers);
    /// What the tab shows, as CSV (the plan, the budget or the mix); empty when there is nothing.
    std::string csv() const;
    const std::optional<BudgetPlan>& budgetPlan() const { return m_budgetPlan; }
    const std::optional<MixPlan>& mixPlan() const { return m_mixPlan; }
    void setDemand(double value, DemandUnit unit);
    double demand() const;
    DemandUnit unit() const;
    double headroom() const;
    CostModel costModel() const;
    double customPrice() const;
    void setHeadroom(double fraction);
    void setCostModel(CostModel model);
    void setCustomPrice(double usdPerGpuHour);
    /// A TCO model (from a file, or the shipped example) whose parts the panel shows for editing; path names its
    /// file ("" for the shipped one) for the command line.
    void setTcoModel(TcoModel model, const QString& path);
    const TcoModel& tcoModel() const;
    QString tcoPath() const { return m_tcoPath; }
    /// Whether the TCO parts were edited since the model was opened or saved.
    bool tcoEdited() const;

    /// The request the plan on screen answers (its scope is the frontiers').
    PlanRequest request() const;
    /// The plan on screen and its curve (empty until computed).
    const Plan& plan() const;
    const std::vector<Plan>& curve() const { return m_curve; }
    /// The curve's targets: 20 across the scope's frontiers.
    std::vector<double> curveTargets() const;
    PlanModel* model() const { return m_model; }
    PlanChart* chart() const { return m_chart; }
    QTableView* table() const { return m_table; }
    /// Plans computed so far (tests: a hidden panel computes none).
    int computations() const { return m_computations; }
    /// The message shown in place of the plan; empty when a plan is shown.
    QString problem() const { return m_problemText; }

signals:
    /// A plan (and its curve) is on screen.
    void planShown();
    /// The TTFT limit was edited here: the filters should take it (and the scope reload).
    void sloEdited(std::optional<double> seconds, LatencyStat stat);
    void copyCommandRequested();
    void exportCsvRequested();
    void exportPngRequested();
    /// Save the TCO parts as a file.
    void saveTcoRequested();
    void openTcoRequested();
    /// The mix's parts changed (or mix mode was chosen): their frontiers are to be read (setMixFrontiers).
    void mixScopesChanged();

protected:
    void showEvent(QShowEvent* event) override;

private:
    QWidget* buildInputs();
    QWidget* buildCostRow();
    QWidget* buildActions();
    void inputsChanged();
    void recompute();
    /// The cost-of-speed curve of the plan in the table (worked out if not yet) put in the chart, or only its target
    /// moved where it is there already; described; planShown. paintLater: the chart, held, painted a turn after
    /// Qt Charts has laid the new curve out.
    void drawCurve(const PlanRequest& req, bool paintLater);
    /// The cost of speed worked out into m_curve (or why it cannot be, into m_curveProblem), not yet in the chart.
    void workOutCurve(const PlanRequest& req);
    /// The curve forgotten: the next plan works it out again (it depends on everything but the target).
    void forgetCurve();
    /// `step` a 1 ms turn later, unless another plan was asked for in between.
    template <typename Step> void nextCurveTurn(Step step);
    void describe();
    void fitTable();
    bool recomputeBudget(const PlanRequest& req);
    bool recomputeMix(const PlanRequest& req);
    void modeChanged();

    std::shared_ptr<const PlanFrontiers> m_frontiers;
    std::shared_ptr<const EvaluationIndex> m_evaluations;
    std::string m_accuracyTask;
    PriceChoice m_price;
    bool m_hideSparse = false;
    double m_target = 50;
    bool m_stale = true;
    bool m_loadingSlo = false;
    std::optional<double> m_scopeTtft; // the limit of the scope shown
    LatencyStat m_scopeStat = LatencyStat::Median;
    int m_computations = 0;
    QString m_tcoPath;
    QString m_problemText;
    std::vector<Plan> m_curve;
    QString m_curveProblem; ///< why no curve could be worked out (m_curve empty)
    bool m_curveInChart = false; ///< m_curve (or its problem) is what the chart shows
    bool m_curveLater = false; ///< frontiers delivered: the next plan's curve is drawn a turn after its table
    int m_curveTurn = 0; ///< counts plans: a curve's turn asked for an older one stands down
    QScrollArea* m_scroll;
    NumberBox* m_demand;
    QComboBox* m_unit;
    QLabel* m_targetLabel;
    NumberBox* m_ttft;
    QComboBox* m_ttftStat;
    NumberBox* m_headroom;
    QComboBox* m_cost;
    NumberBox* m_customPrice;
    QPushButton* m_openTco;
    QPushButton* m_saveTco;
    QComboBox* m_measure;
    QComboBox* m_mode;
    NumberBox* m_budget;
    QComboBox* m_budgetUnit;
    std::optional<BudgetPlan> m_budgetPlan;
    std::optional<MixPlan> m_mixPlan;
    std::vector<MixPart> m_mixParts; ///< the parts m_mixFrontiers were read for
    std::vector<std::shared_ptr<const PlanFrontiers>> m_mixFrontiers;
    QLabel* m_caption;
    QString m_asOf;
    PlanModel* m_model;
    QTableView* m_table;
    QTabWidget* m_lower;
    PlanChart* m_chart;
    TcoEditor* m_tco;
    MixEditor* m_mixEditor;
    MixModel* m_mixModel;
};

} // namespace paretoscope::ui
