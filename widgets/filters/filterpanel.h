#pragma once

#include <QHash>
#include <QVariantMap>
#include <QWidget>
#include <array>
#include <vector>

#include "core/model/scope.h"

class QCheckBox;
class QComboBox;
class QLineEdit;
class QListWidget;

namespace paretoscope::ui {
class AccuracyControl;
class RunDatesControl;
class SloLimits;
}

namespace paretoscope::ui {

/// Scope and filters: model with its sequence lengths or workload, then hardware, engine, precision, speculative
/// decoding, a run date range and service-level limits (TTFT, TPOT). One precision is chosen by default when a scope
/// has several (FP4 where present).
class FilterPanel : public QWidget {
    Q_OBJECT
public:
    explicit FilterPanel(QWidget* parent = nullptr);
    /// What the store holds; keeps the current choice when it is still there.
    void setScopes(const std::vector<ScopeSummary>& scopes);
    const std::vector<ScopeSummary>& scopes() const { return m_scopes; }
    /// The scope selected as its list names it ("DeepSeek-R1-0528 (dsr1) · ISL 8192 / OSL 1024 ...").
    QString selectedScopeText() const;
    /// The series of the chosen scope, for the filter lists. The values unchecked in this scope before stay
    /// unchecked; each scope keeps its own filters.
    void setSeries(const std::vector<Series>& series);
    /// The scope with the filters applied.
    Scope scope() const;
    /// The chosen (model, lengths, workload) without filters: what setSeries is asked for.
    Scope baseScope() const;
    /// Selects a scope by model and workload (or lengths); false if the store has no such scope.
    bool selectScope(const QString& model, const QString& workload, int isl, int osl);
    QString scopeKey() const;
    /// The values switched off, per scope ("precision:fp8" ...), as the settings keep them.
    void setUncheckedByScope(const QVariantMap& values);
    QVariantMap uncheckedByScope() const;
    void setDates(const QString& from, const QString& to);
    /// How many runs the chosen scope holds before the filters, and after the hardware, engine, precision and
    /// speculative decoding filters.
    long long runsBeforeFilters() const;
    long long runsAfterFilters() const;
    /// What hides the scope's runs, in words: each value switched off with the runs it hides, and the run dates when
    /// set ("Precision FP8 hides 1,120 runs; runs from 2026-01-01").
    QString hiddenByFilters() const;
    /// Ticks, in each list of the chosen scope, the values a scope names (all where it names none), as a view asks
    /// (MainWindow::applyView); a value the scope does not hold is left out. Emits nothing.
    void setFilters(const Scope& scope);
    /// Switches every value of the chosen scope back on and clears the run dates.
    void resetFilters();
    /// Whether runs marked as not trusted count in frontiers and readings (they are drawn hollow either way).
    /// Which runs count, as of which run date (the replay's slider and Play).
    RunDatesControl* runDates() const { return m_runDates; }
    void setIncludeMarked(bool include);
    bool includeMarked() const;
    /// The service-level limits (TTFT on its statistic, TPOT), which the scope carries.
    SloLimits* limits() const { return m_limits; }
    /// The accuracy the groups must meet (docs/evaluations.md); the scope's data is judged against it when loaded.
    AccuracyControl* accuracy() const { return m_accuracy; }

signals:
    void baseScopeChanged();
    void filtersChanged();
    /// Only the as-of day moved: the frontiers can be rebuilt from the runs already read.
    void asOfChanged();

private:
    QListWidget* list(int which) const { return m_lists[static_cast<std::size_t>(which)]; }
    std::vector<ScopeSummary> m_scopes;
    QComboBox* m_scope;
    std::array<QListWidget*, 4> m_lists; // hardware, engine, precision, spec decoding
    QLineEdit* m_from;
    QLineEdit* m_to;
    QCheckBox* m_includeMarked;
    SloLimits* m_limits;
    AccuracyControl* m_accuracy;
    QCheckBox* m_excludeFlagged;
    QCheckBox* m_allGpus;
    RunDatesControl* m_runDates;
    QStringList& unchecked(); // of the chosen scope
    /// Narrows an explicit hardware list to the hardware with runs the other filters keep.
    void keepHardwareWithRuns(Scope& s) const;
    std::vector<Series> m_series; // of the chosen scope, unfiltered
    QHash<QString, QStringList> m_unchecked; // per scope key: "list:value" entries the user switched off
};

} // namespace paretoscope::ui
