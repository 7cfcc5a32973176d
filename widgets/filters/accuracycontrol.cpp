#include "widgets/filters/accuracycontrol.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
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

QString taskTip()
{
    return QObject::tr(
        "The evaluation task whose accuracy the groups (hardware, engine, precision, spec decoding) must "
        "meet to stay on the chart, the readout, the ladder, the summary and the plan");
}

} // namespace

AccuracyControl::AccuracyControl(QWidget* parent)
    : QWidget(parent)
    , m_task(new QComboBox(this))
    , m_minimum(new QLineEdit(QStringLiteral("95%"), this))
    , m_keep(new QCheckBox(tr("Keep groups not evaluated"), this))
    , m_error(new QLabel(this))
    , m_note(new QLabel(this))
{
    m_task->setObjectName(QStringLiteral("filterAccuracyTask"));
    m_minimum->setObjectName(QStringLiteral("filterAccuracyMinimum"));
    m_task->addItem(tr("off"), QString());
    m_task->setToolTip(taskTip());
    m_minimum->setToolTip(tr("At least this accuracy (95% or 0.95), or best-2se: within two standard errors of the "
                             "best group of the same hardware"));
    m_keep->setToolTip(tr("Unchecked, a group without an evaluation on the task leaves (not evaluated is never read "
                          "as a pass)"));
    for (QLabel* l : { m_error, m_note }) {
        l->setWordWrap(true); // the filter column is narrow
        l->setTextFormat(Qt::PlainText);
        l->hide();
    }
    m_error->setStyleSheet(noteStyle(NoteKind::Error));
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    auto* form = new QFormLayout;
    form->addRow(tr("Task"), m_task);
    form->addRow(tr("At least"), m_minimum);
    column->addLayout(form);
    // the notes under the boxes, the column's width: a label in a form row was not given its wrapped height
    column->addWidget(m_error);
    column->addWidget(m_keep);
    column->addWidget(m_note);
    connect(m_task, &QComboBox::activated, this, [this] { take(); });
    connect(m_minimum, &QLineEdit::editingFinished, this, [this] { take(); });
    connect(m_keep, &QCheckBox::toggled, this, [this] { take(); });
    enableParts();
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
    if (!task.isEmpty()) {
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
    if (next == m_taken)
        return;
    m_taken = next;
    if (!m_taken)
        setOutcome({});
    emit changed();
}

void AccuracyControl::enableParts()
{
    const bool on = !m_task->currentData().toString().isEmpty();
    m_minimum->setEnabled(on);
    m_keep->setEnabled(on);
}

void AccuracyControl::setRequirement(const std::optional<AccuracyRequirement>& requirement)
{
    const QSignalBlocker b1(m_task), b2(m_minimum), b3(m_keep);
    m_taken = requirement;
    m_error->hide();
    if (!requirement) {
        m_task->setCurrentIndex(0);
        setOutcome({});
    } else {
        const QString task = QString::fromStdString(requirement->task);
        if (m_task->findData(task) < 0)
            m_task->addItem(QString::fromStdString(taskName(requirement->task)), task);
        m_task->setCurrentIndex(m_task->findData(task));
        m_minimum->setText(minimumText(*requirement));
        m_keep->setChecked(requirement->allowUnevaluated);
    }
    enableParts();
}

void AccuracyControl::setTasks(const std::vector<std::string>& tasks)
{
    const QString chosen = m_task->currentData().toString();
    const QSignalBlocker block(m_task);
    m_task->clear();
    m_task->addItem(tr("off"), QString());
    for (const std::string& t : tasks)
        m_task->addItem(QString::fromStdString(taskName(t)), QString::fromStdString(t));
    if (!chosen.isEmpty() && m_task->findData(chosen) < 0) // the model has no evaluation on it: said, kept
        m_task->addItem(tr("%1 (not evaluated)").arg(QString::fromStdString(taskName(chosen.toStdString()))), chosen);
    m_task->setCurrentIndex(std::max(0, m_task->findData(chosen)));
    m_task->setEnabled(m_task->count() > 1);
    m_task->setToolTip(m_task->count() > 1 ? taskTip()
                                           : tr("This model has no evaluations stored: import InferenceX evaluations "
                                                "(docs/evaluations.md) to require an accuracy"));
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
