#pragma once

#include <memory>

#include <QAbstractTableModel>

#include "core/model/scope.h"
#include "core/model/storedrun.h"

namespace paretoscope::ui {

class StoreWorker;

/// The runs in scope with their configuration, metrics and provenance. Qt::UserRole gives a sortable raw value and
/// Qt::UserRole + 1 the run id. Either a list given whole (setRuns) or the runs of some series read from the store
/// page by page as a view scrolls (setSource: canFetchMore/fetchMore, each page read on the store worker).
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
        DpAttention, ///< "yes" where attention ran data parallel over the TP GPUs (a configuration of its own)
        Prefill, ///< a disaggregated run's prefill side (TP, EP and workers apart from the decode side's)
        Gpus,
        Concurrency,
        Interactivity,
        TputPerGpu,
        Ttft,
        Tpot,
        E2el,
        Date,
        Run, ///< the run the point belongs to: a line of the chart is taken from one run
        Source,
        ColumnCount
    };
    static constexpr int RunIdRole = Qt::UserRole + 1;
    using QAbstractTableModel::QAbstractTableModel;

    /// Rows a page brings.
    static constexpr std::size_t kPageSize = 500;

    void setRuns(std::vector<StoredRun> runs);
    /// Empties the model and asks the worker for the first page of the series' runs inside the scope's dates and
    /// for their count; the rows come later (pageLoaded), at most maxRows of them.
    /// selected: where the scope keeps only some runs of its series (the latest per configuration, or as of a day),
    /// their ids ascending: the pages go through those, as the frontiers do; null: every run of the series.
    void setSource(StoreWorker* worker, std::vector<long long> seriesIds, Scope dates, std::size_t maxRows,
        std::shared_ptr<const std::vector<long long>> selected = nullptr);
    const std::vector<StoredRun>& runs() const { return m_runs; }
    /// Runs the source holds (the count from the store), or the rows of a list given whole; -1 until it is known.
    long long total() const { return m_total; }
    /// A page was asked for and has not arrived.
    bool loading() const { return m_loading; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex& parent) const override;
    void fetchMore(const QModelIndex& parent) override;

signals:
    /// A page arrived (its rows are in the model), or the store could not be read (error says why).
    void pageLoaded(const QString& error);

private:
    void requestPage(bool withCount);

    std::vector<StoredRun> m_runs;
    StoreWorker* m_worker = nullptr;
    std::vector<long long> m_seriesIds;
    Scope m_dates;
    std::shared_ptr<const std::vector<long long>> m_selected;
    std::size_t m_maxRows = 0;
    long long m_total = 0;
    bool m_loading = false;
    bool m_atEnd = true;
    quint64 m_generation = 0; // which source a page answers
};

} // namespace paretoscope::ui
