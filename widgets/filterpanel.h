#pragma once

#include <QWidget>
#include <array>

#include "core/scope.h"

class QCheckBox;
class QComboBox;
class QLineEdit;
class QListWidget;

namespace paretoscope::ui {

/// Scope and filters: model with its sequence lengths or workload, then hardware, engine, precision, speculative
/// decoding and a run date range. One precision is chosen by default when a scope has several (FP4 where present).
class FilterPanel : public QWidget {
    Q_OBJECT
public:
    explicit FilterPanel(QWidget* parent = nullptr);
    /// What the store holds; keeps the current choice when it is still there.
    void setScopes(const std::vector<ScopeSummary>& scopes);
    /// The series of the chosen scope, for the filter lists. Previously unchecked values stay unchecked.
    void setSeries(const std::vector<Series>& series);
    /// The scope with the filters applied.
    Scope scope() const;
    /// The chosen (model, lengths, workload) without filters: what setSeries is asked for.
    Scope baseScope() const;
    /// Selects a scope by model and workload (or lengths); false if the store has no such scope.
    bool selectScope(const QString& model, const QString& workload, int isl, int osl);
    QString scopeKey() const;
    void setUnchecked(const QStringList& values);
    QStringList unchecked() const;
    void setDates(const QString& from, const QString& to);
    /// Whether runs marked as not trusted count in frontiers and readings (they are drawn hollow either way).
    void setIncludeMarked(bool include);
    bool includeMarked() const;

signals:
    void baseScopeChanged();
    void filtersChanged();

private:
    QListWidget* list(int which) const { return m_lists[static_cast<std::size_t>(which)]; }
    std::vector<ScopeSummary> m_scopes;
    QComboBox* m_scope;
    std::array<QListWidget*, 4> m_lists; // hardware, engine, precision, spec decoding
    QLineEdit* m_from;
    QLineEdit* m_to;
    QCheckBox* m_includeMarked;
    QStringList m_unchecked; // "list:value" entries the user switched off
};

} // namespace paretoscope::ui
