#pragma once

#include <QWidget>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/accuracy.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;

namespace paretoscope::ui {

/// The accuracy the groups must meet to stay in the scope (docs/evaluations.md; the CLI's --min-accuracy and
/// --allow-unevaluated): a task ("off": no requirement), a minimum ("95%", "0.95") or "best-2se" (within two standard
/// errors of the best on its hardware), and whether groups not evaluated stay. Part of the filter panel.
class AccuracyControl : public QWidget {
    Q_OBJECT
public:
    explicit AccuracyControl(QWidget* parent = nullptr);
    /// The requirement shown; unset while the task is off.
    std::optional<AccuracyRequirement> requirement() const;
    /// Shows a requirement (unset: off). Emits nothing.
    void setRequirement(const std::optional<AccuracyRequirement>& requirement);
    /// The tasks the scope's model has evaluations on; the task chosen stays listed even where the model has none
    /// (then no group is evaluated, and the note says so).
    void setTasks(const std::vector<std::string>& tasks);
    /// What the requirement did to the scope (AccuracyFilter::words), or empty.
    void setOutcome(const QString& words);
    QComboBox* taskBox() const { return m_task; }
    QLineEdit* minimumEdit() const { return m_minimum; }
    QCheckBox* keepUnevaluatedBox() const { return m_keep; }
    QString outcome() const;

signals:
    void changed();

private:
    /// Takes the typed minimum when it reads (the reason beside it otherwise) and says whether the requirement
    /// changed.
    void take();
    void enableParts();
    QComboBox* m_task;
    QLineEdit* m_minimum;
    QCheckBox* m_keep;
    QLabel* m_error;
    QLabel* m_note;
    std::optional<AccuracyRequirement> m_taken;
};

} // namespace paretoscope::ui
