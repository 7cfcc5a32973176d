#pragma once

#include <QAbstractTableModel>

#include "core/analysis/planmix.h"

namespace paretoscope::ui {

/// The Plan tab's table for a workload mix: a row per hardware with the GPUs of each part (how each was read in its
/// tooltip), their sum, nodes, MW and $/month; the cheapest for the whole mix bold and starred.
class MixModel : public QAbstractTableModel {
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;
    void setMix(MixPlan mix);
    const MixPlan& mix() const { return m_mix; }
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    MixPlan m_mix;
};

} // namespace paretoscope::ui
