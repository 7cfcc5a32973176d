#pragma once

#include <QAbstractTableModel>

#include "core/store/runstore.h"

namespace paretoscope::ui {

/// The runs in scope with their configuration, metrics and provenance. Qt::UserRole gives a sortable raw value and
/// Qt::UserRole + 1 the run id.
class RunsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Model,
        Hardware,
        Engine,
        Precision,
        Spec,
        Tp,
        Ep,
        Gpus,
        Concurrency,
        Interactivity,
        TputPerGpu,
        Ttft,
        Tpot,
        E2el,
        Date,
        Source,
        ColumnCount
    };
    static constexpr int RunIdRole = Qt::UserRole + 1;
    using QAbstractTableModel::QAbstractTableModel;

    void setRuns(std::vector<StoredRun> runs);
    const std::vector<StoredRun>& runs() const { return m_runs; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<StoredRun> m_runs;
};

} // namespace paretoscope::ui
