#pragma once

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QThreadPool>
#include <QTimer>
#include <QWidget>
#include <memory>

#include "core/analysis/history.h"

class QComboBox;
class QLabel;
class QPushButton;
class QStackedWidget;
class QTableWidget;

namespace paretoscope::ui {

class HistoryChart;

/// The History tab: the reading at the readout's target as of each run date, a line per hardware (HistoryChart), or
/// in "compare two dates" mode a table of the ladder's targets as of two run dates with the change. Core computes
/// both (computeHistory, computeDiff) from the scope's runs in memory (the ScopeTimeline the scope was loaded with),
/// on a thread of the panel's own: nothing here reads the store. Only a visible panel computes; a hidden one notes
/// what changed and computes once when shown, so that a slider dragged behind another tab costs nothing. While a
/// computation runs, newer inputs wait; when it ends only the latest inputs are computed (latest request wins).
class HistoryPanel : public QWidget {
    Q_OBJECT
public:
    /// `pricing` must outlive the panel (the bundled catalogue does).
    explicit HistoryPanel(const PricingCatalog& pricing, QWidget* parent = nullptr);
    ~HistoryPanel() override; ///< waits for the computation that runs

    /// The scope's runs in memory (null: none) and the token metric they were read with.
    void setTimeline(std::shared_ptr<const ScopeTimeline> timeline, TputMetric metric);
    void setTarget(double target);
    /// The as-of day the window reads ("2026-03-01"; empty: the latest), marked on the chart.
    void setAsOf(const std::string& day);
    void setPrice(const PriceChoice& price);
    void setHideSparse(bool hide);
    /// The targets of the comparison (the ladder's).
    void setTargets(const std::vector<double>& targets);
    /// A message in place of the history (a store that cannot be read); the timeline is dropped.
    void showProblem(const QString& message);

    /// The comparison of two dates instead of the history.
    void setCompareMode(bool compare);
    bool compareMode() const;
    /// The two days compared (yyyymmdd, among the timeline's days).
    void setCompareDays(int before, int after);
    int beforeDay() const;
    int afterDay() const;

    /// What is shown (empty until a computation was shown).
    const std::vector<HardwareHistory>& history() const { return m_history; }
    const std::vector<HardwareDiff>& diff() const { return m_diff; }
    HistoryChart* chart() const { return m_chart; }
    QTableWidget* diffTable() const { return m_table; }
    /// Computations started so far (tests: a hidden panel starts none).
    int computations() const { return m_computations; }
    /// Milliseconds the last computation took on its thread, and laying its answer out on the GUI thread.
    double lastComputeMs() const { return m_computeMs; }
    double lastPresentMs() const { return m_presentMs; }
    /// What the tab shows as CSV (historyCsv or diffCsv); an error when nothing is shown yet.
    Result<std::string> csv() const;

signals:
    /// A computation's answer is shown.
    void shown();
    /// The Export CSV button was pressed.
    void exportRequested();

protected:
    void showEvent(QShowEvent* event) override;

private:
    /// Everything an answer depends on; an answer is current when its inputs equal the panel's.
    struct Inputs {
        std::shared_ptr<const ScopeTimeline> timeline;
        TputMetric metric = TputMetric::Total;
        double target = 50;
        PriceChoice price;
        bool hideSparse = false;
        std::vector<double> targets = defaultTargets();
        bool compare = false;
        int before = 0, after = 0;
        bool operator==(const Inputs&) const = default;
        /// The same with what the mode does not read reset: a target moved in compare mode needs no computation.
        Inputs relevant() const;
    };
    struct Answer {
        Inputs inputs;
        std::optional<Result<std::vector<HardwareHistory>>> history;
        std::optional<Result<std::vector<HardwareDiff>>> diff;
        double ms = 0;
    };
    static Answer compute(const Inputs& in, const PricingCatalog& pricing);
    void buildBar();
    void inputsChanged();
    void finished();
    void present(const Answer& answer);
    void presentDiff(const std::vector<HardwareDiff>& diff);
    void fillDays();
    void describe();

    const PricingCatalog& m_pricing;
    Inputs m_in;
    std::optional<Inputs> m_shown; // the inputs of what is on screen
    std::vector<HardwareHistory> m_history;
    std::vector<HardwareDiff> m_diff;
    int m_computations = 0;
    bool m_running = false; // a computation runs (its answer not taken yet)
    QElapsedTimer m_sinceStarted; // since the last computation started
    QTimer m_later; // starts the computation a drag's steps asked for, once kMinStartGapMs passed
    double m_computeMs = 0, m_presentMs = 0;
    QThreadPool m_pool;
    QFutureWatcher<Answer> m_watcher;
    QComboBox* m_mode;
    QComboBox* m_before;
    QComboBox* m_after;
    QLabel* m_caption;
    QPushButton* m_export;
    QStackedWidget* m_stack;
    HistoryChart* m_chart;
    QTableWidget* m_table;
};

} // namespace paretoscope::ui
