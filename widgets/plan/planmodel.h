#pragma once

#include <QAbstractTableModel>

#include "core/analysis/plan.h"
#include "core/analysis/planbudget.h"

namespace paretoscope::ui {

/// The Plan tab's table: a row per hardware with its status, reading, sizing configuration, GPUs, nodes, power,
/// energy and cost at the target (core's HardwarePlan). The cheapest row is bold and says so. Qt::UserRole gives
/// the raw number of a numeric cell (an empty QVariant where the plan has none).
class PlanModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Hardware,
        Serves, ///< a budget's: what its deployment serves (hidden for a demand)
        Status,
        Gpus,
        Nodes,
        PowerMw,
        CostPerMonth,
        CostPerMTokEffective,
        TputPerGpu,
        Reading, ///< engine · precision (· spec decoding)
        Config, ///< the sizing knot: TP/EP, DP attention, prefill + decode, concurrency
        ReplicaGpus,
        GpusExact,
        Replicas,
        JoulesPerToken,
        TokensPerMw,
        CostPerHour,
        CostPerMTok,
        Accuracy, ///< of the group sized on (docs/evaluations.md), where the model has evaluations
        ColumnCount
    };
    using QAbstractTableModel::QAbstractTableModel;

    /// Shows a plan; rows are kept (only their cells change) when the hardware are the same, so that a slider step
    /// repaints cells, not the table's layout.
    void setPlan(Plan plan);
    /// Shows what a budget buys: a row per hardware with its deployment, and what it serves.
    void setBudget(const BudgetPlan& budget);
    /// Whether the rows are a budget's.
    bool isBudget() const { return m_budget; }
    const Plan& plan() const { return m_plan; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /// "TP8 EP8 · DP attn · 8P + 8D · conc 64": a configuration in one cell.
    static QString configText(const PlanConfig& c);

private:
    void setPlanRows(Plan plan);
    QVariant display(const HardwarePlan& h, int column) const;
    QVariant raw(const HardwarePlan& h, int column) const;
    QString toolTip(const HardwarePlan& h, int column) const;
    Plan m_plan;
    bool m_budget = false;
    QStringList m_serves; ///< a budget's, per row
    int m_most = -1; ///< the row serving the most
};

} // namespace paretoscope::ui
