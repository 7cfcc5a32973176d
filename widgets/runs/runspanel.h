#pragma once

#include <QWidget>
#include <functional>

#include "widgets/runs/runsmodel.h"

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace paretoscope::ui {

/// The runs in scope: sortable, filterable by text, with provenance; selected runs can be deleted. The table is read
/// from the store a page at a time as it scrolls; sorting and the filter work on the rows read so far.
class RunsPanel : public QWidget {
    Q_OBJECT
public:
    /// The most rows the table reads; a larger scope says so and asks for narrower filters.
    static constexpr std::size_t kMaxRows = 100000;
    explicit RunsPanel(QWidget* parent = nullptr);
    /// A list given whole.
    void setRuns(std::vector<StoredRun> runs);
    /// The runs of these series inside the scope's dates, read through the worker as the table scrolls.
    void showRuns(StoreWorker* worker, std::vector<long long> seriesIds, const Scope& dates,
        std::shared_ptr<const std::vector<long long>> selected = nullptr);
    RunsModel* model() const { return m_model; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    QTableView* table() const { return m_table; }
    std::vector<long long> selectedRunIds() const;
    /// The count line beside the filter: "12 of 195 runs match" while a filter narrows them.
    QString countText() const;
    void setFilterText(const QString& text);

signals:
    void deleteRequested(const std::vector<long long>& runIds);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void showCount();
    /// Fits the columns from `from` on to their contents, a few now and the rest in later turns of the event loop,
    /// while no newer source came (fitting: m_fitting when they were asked for).
    void fitColumns(int from, quint64 fitting);
    bool m_sized = false; // the columns were fitted to the first rows
    quint64 m_fitting = 0; // bumped by each new source: a fitting under way for an older one stops
    /// The rows' paint held: until the first page's columns are fitted, or for a turn after the page comes to the
    /// front. One hold ends only when neither holds it.
    void holdRows(bool forFitting, bool held);
    bool m_heldForFitting = false;
    bool m_heldForShow = false;
    RunsModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_table;
    QLineEdit* m_filter;
    QLabel* m_info;
};

} // namespace paretoscope::ui
