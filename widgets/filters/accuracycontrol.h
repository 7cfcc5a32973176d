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

/// The evaluation task whose accuracy the readout, ladder, summary, plan and chart show (the CLI's --accuracy-task),
/// and the accuracy the groups must meet on it to stay in the scope (docs/evaluations.md; --min-accuracy and
/// --allow-unevaluated): "At least" a minimum ("95%", "0.95") or "best-2se" (within two standard errors of the
/// best on its hardware), and whether groups not evaluated stay. Part of the filter panel.
class AccuracyControl : public QWidget {
    Q_OBJECT
public:
    explicit AccuracyControl(QWidget* parent = nullptr);
    /// The requirement shown; unset while "At least" is unchecked.
    std::optional<AccuracyRequirement> requirement() const;
    /// Shows a requirement (unset: none; the task stays). Emits nothing.
    void setRequirement(const std::optional<AccuracyRequirement>& requirement);
    /// The task a person chose (or a view or the settings set); empty: the default (GSM8K, else the first evaluated).
    QString task() const { return m_chosen; }
    /// Chooses the task (empty: the default). Emits nothing.
    void setTask(const QString& task);
    /// The tasks the scope's model has evaluations on; the task chosen stays listed even where the model has none
    /// (then no group is evaluated, and the box says so).
    void setTasks(const std::vector<std::string>& tasks);
    /// What the requirement did to the scope (AccuracyFilter::words), or empty.
    void setOutcome(const QString& words);
    QComboBox* taskBox() const { return m_task; }
    QCheckBox* requireBox() const { return m_require; }
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
    /// Shows the task chosen, else the default among those listed; one the list lacks is added, said not evaluated.
    void showTask();
    QComboBox* m_task;
    QCheckBox* m_require;
    QLineEdit* m_minimum;
    QCheckBox* m_keep;
    QLabel* m_error;
    QLabel* m_note;
    std::optional<AccuracyRequirement> m_taken;
    QString m_chosen;
    QString m_emittedTask; // the task chosen when changed() was last emitted
    std::vector<std::string> m_tasks; // the model's, as setTasks was given them
};

} // namespace paretoscope::ui
