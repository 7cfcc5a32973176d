#include "widgets/filters/accuracycontrol.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

#include "widgets/common/theme.h"

namespace paretoscope::ui {

namespace {

// The minimum as typed back: "95%" for a fraction, "best-2se" for a number of standard errors.
QString minimumText(const AccuracyRequirement& r)
{
    if (r.minimum)
        return QString::number(*r.minimum * 100, 'g', 6) + u'%';
    return QStringLiteral("best-%1se").arg(r.withinErrors.value_or(2), 0, 'g', 6);
}

} // namespace

AccuracyControl::AccuracyControl(QWidget* parent)
    : QWidget(parent)
    , m_task(new QComboBox(this))
    , m_require(new QCheckBox(tr("At least"), this))
    , m_minimum(new QLineEdit(QStringLiteral("95%"), this))
    , m_keep(new QCheckBox(tr("Keep not evaluated"), this))
    , m_error(new QLabel(this))
    , m_note(new QLabel(this))
{
    m_task->setObjectName(QStringLiteral("filterAccuracyTask"));
    m_require->setObjectName(QStringLiteral("filterAccuracyRequire"));
    m_minimum->setObjectName(QStringLiteral("filterAccuracyMinimum"));
    m_require->setToolTip(tr("Leave out of the chart, the readout, the ladder, the summary and the plan the groups "
                             "(hardware, engine, precision, spec decoding) below this accuracy on the task"));
    m_minimum->setToolTip(tr("At least this accuracy (95% or 0.95), or best-2se: within two standard errors of the "
                             "best group of the same hardware"));
    m_keep->setToolTip(tr("Keep the groups not evaluated on the task; unchecked, they leave (not evaluated is never "
                          "read as a pass)"));
    for (QLabel* l : { m_error, m_note }) {
        l->setWordWrap(true); // the filter column is narrow
        l->setTextFormat(Qt::PlainText);
        l->hide();
    }
    m_error->setStyleSheet(noteStyle(NoteKind::Error));
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    // each row its own: in a form, the label column takes the checkbox's width and leaves the boxes a sliver of
    // the narrow sidebar
    auto* taskRow = new QHBoxLayout;
    taskRow->addWidget(new QLabel(tr("Task"), this));
    taskRow->addWidget(m_task, 1);
    column->addLayout(taskRow);
    auto* requireRow = new QHBoxLayout;
    requireRow->addWidget(m_require);
    requireRow->addWidget(m_minimum, 1);
    m_minimum->setMinimumWidth(m_minimum->fontMetrics().horizontalAdvance(QStringLiteral("best-2se")) + 12);
    column->addLayout(requireRow);
    // the notes under the boxes, the column's width: a label in a form row was not given its wrapped height
    column->addWidget(m_error);
    column->addWidget(m_keep);
    column->addWidget(m_note);
    connect(m_task, &QComboBox::activated, this, [this] {
        m_chosen = m_task->currentData().toString();
        take();
    });
    connect(m_require, &QCheckBox::toggled, this, [this] { take(); });
    connect(m_minimum, &QLineEdit::editingFinished, this, [this] { take(); });
    connect(m_keep, &QCheckBox::toggled, this, [this] { take(); });
    setTasks({});
}

std::optional<AccuracyRequirement> AccuracyControl::requirement() const
{
    return m_taken;
}

void AccuracyControl::take()
{
    enableParts();
    const QString task = m_task->currentData().toString();
    std::optional<AccuracyRequirement> next;
    if (m_require->isChecked()) {
        if (task.isEmpty()) { // no task to require it on: said, nothing changes
            m_error->setText(tr("Choose a task: this model has no evaluations stored"));
            m_error->show();
            return;
        }
        auto r = parseAccuracyRequirement(QString(task + u':' + m_minimum->text().trimmed()).toStdString());
        if (!r) {
            m_error->setText(QString::fromStdString(r.error()));
            m_error->show();
            return;
        }
        r->allowUnevaluated = m_keep->isChecked();
        next = *r;
    }
    m_error->hide();
    // the task shown changed without a requirement: the views read another task, so the scope is read again
    const bool shownChanged = m_chosen != m_emittedTask;
    m_emittedTask = m_chosen;
    if (next == m_taken && !shownChanged)
        return;
    m_taken = next;
    if (!m_taken)
        setOutcome({});
    emit changed();
}

void AccuracyControl::enableParts()
{
    const bool on = m_require->isChecked();
    m_minimum->setEnabled(on);
    m_keep->setEnabled(on);
}

void AccuracyControl::setRequirement(const std::optional<AccuracyRequirement>& requirement)
{
    const QSignalBlocker b1(m_task), b2(m_minimum), b3(m_keep), b4(m_require);
    m_taken = requirement;
    m_error->hide();
    m_require->setChecked(requirement.has_value());
    if (!requirement) {
        setOutcome({});
    } else {
        m_chosen = QString::fromStdString(requirement->task);
        m_emittedTask = m_chosen;
        showTask();
        m_minimum->setText(minimumText(*requirement));
        m_keep->setChecked(requirement->allowUnevaluated);
    }
    enableParts();
}

void AccuracyControl::setTask(const QString& task)
{
    m_chosen = task;
    m_emittedTask = task;
    showTask();
    if (m_taken && !task.isEmpty())
        m_taken->task = task.toStdString();
}

void AccuracyControl::setTasks(const std::vector<std::string>& tasks)
{
    m_tasks = tasks;
    showTask();
}

void AccuracyControl::showTask()
{
    const QSignalBlocker block(m_task);
    m_task->clear();
    for (const std::string& t : m_tasks)
        m_task->addItem(QString::fromStdString(taskName(t)), QString::fromStdString(t));
    if (!m_chosen.isEmpty() && m_task->findData(m_chosen) < 0) // the model has no evaluation on it: said, kept
        m_task->addItem(
            tr("%1 (not evaluated)").arg(QString::fromStdString(taskName(m_chosen.toStdString()))), m_chosen);
    if (m_task->count() == 0)
        m_task->addItem(tr("none stored"), QString());
    // the default as the CLI takes it (ladderAccuracyTask): GSM8K where evaluated, else the first
    const int gsm8k = m_task->findData(QStringLiteral("gsm8k"));
    m_task->setCurrentIndex(!m_chosen.isEmpty() ? m_task->findData(m_chosen) : std::max(0, gsm8k));
    const bool any = !m_tasks.empty() || !m_chosen.isEmpty();
    m_task->setEnabled(any);
    m_require->setEnabled(any);
    m_task->setToolTip(any ? tr("The evaluation task whose accuracy the readout, the ladder, the summary, the plan "
                                "and the chart's legend show, and that a requirement is on")
                           : tr("This model has no evaluations stored: import InferenceX evaluations "
                                "(docs/evaluations.md) to see and require an accuracy"));
}

void AccuracyControl::setOutcome(const QString& words)
{
    m_note->setText(words);
    m_note->setVisible(!words.isEmpty());
}

QString AccuracyControl::outcome() const
{
    return m_note->text();
}

} // namespace paretoscope::ui
