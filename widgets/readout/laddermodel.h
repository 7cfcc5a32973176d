#pragma once

#include <QAbstractTableModel>

#include "core/analysis/ladder.h"

namespace paretoscope::ui {

/// The ladder priced under one tier (or the custom price).
struct TierLadder {
    QString key; ///< short name for the column header
    QString label;
    std::vector<HardwareLadder> ladders;
};

/// The seed page's table: a row per hardware and target with tok/s/GPU, engine and precision, and a $ per million
/// tokens column per tier ("-" where the frontier does not reach). Qt::UserRole gives raw numbers.
class LadderModel : public QAbstractTableModel {
    Q_OBJECT
public:
    /// Accuracy: of the reading's group on the task (docs/evaluations.md), where the model has evaluations.
    enum Column { Hardware, Target, TputPerGpu, Engine, Precision, Accuracy, FirstTier };
    using QAbstractTableModel::QAbstractTableModel;

    /// Every TierLadder holds the same hardware and targets, priced differently.
    void setLadders(std::vector<TierLadder> tiers);
    const std::vector<TierLadder>& tiers() const { return m_tiers; }
    /// Whether the readings carry accuracy (the model has evaluations): else the panel hides the column.
    bool anyAccuracy() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    const LadderRow* cell(int row, std::size_t tier) const;
    std::vector<TierLadder> m_tiers;
    std::vector<std::pair<std::size_t, std::size_t>> m_rows; // (hardware, target) per row
};

} // namespace paretoscope::ui
