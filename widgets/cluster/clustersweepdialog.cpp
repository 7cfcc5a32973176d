#include "widgets/cluster/clustersweepdialog.h"

#include <QCheckBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QTableWidget>
#include <QVBoxLayout>

#include "core/live/cluster.h"
#include "core/live/recipe.h"
#include "widgets/cluster/matrixeditor.h"
#include "widgets/common/theme.h"

namespace paretoscope::ui {

namespace {

QString defaultCli()
{
    QString beside = QCoreApplication::applicationDirPath() + QStringLiteral("/paretoscope-cli");
    if (QFileInfo(beside).isExecutable())
        return beside;
    const QString onPath = QStandardPaths::findExecutable(QStringLiteral("paretoscope-cli"));
    return onPath.isEmpty() ? QStringLiteral("paretoscope-cli") : onPath;
}

// "1 task", "3 tasks": the explorer ships no translations, so no "task(s)"
QString count(qulonglong n, const QString& one, const QString& many)
{
    return n == 1 ? one : many.arg(QLocale(QLocale::English).toString(n));
}

QString resourcesText(const MatrixConfig& c)
{
    const TaskResources r = taskResources(c);
    QString nodes = r.nodes == 1 ? QObject::tr("1 node") : QObject::tr("%1 nodes").arg(r.nodes);
    if (c.prefill && c.decode)
        nodes += QObject::tr(" (prefill %1 + decode %2)").arg(c.prefill->nodes).arg(c.decode->nodes);
    return r.gpusPerNode
        ? QObject::tr("%1, %2 per node")
              .arg(nodes, count(qulonglong(r.gpusPerNode), QObject::tr("1 GPU"), QObject::tr("%1 GPUs")))
        : QObject::tr("%1, no GPU (simulation)").arg(nodes);
}

QColor stateColour(const std::string& state)
{
    if (state == "finished")
        return QColor(0x1b, 0x5e, 0x20);
    if (state == "failed")
        return QColor(0xb0, 0x00, 0x20);
    if (state == "running")
        return QColor(0x0d, 0x47, 0xa1);
    return QColor(0x61, 0x61, 0x61);
}

// The model the last live session launched on the engine emulator (the session dialog's remembered fields), so that
// a sweep beside it serves the same; the emulator recipe's own where there was none.
QString lastEmulatorModel()
{
    QSettings settings;
    settings.beginGroup(QStringLiteral("sessionDialog"));
    const auto recipe = bundledRecipe(settings.value(QStringLiteral("recipe")).toString().toStdString());
    QString model = settings.value(QStringLiteral("recipeModel")).toString().trimmed();
    if (settings.value(QStringLiteral("useRecipe")).toBool() && recipe && recipe->engine == "engine-sim"
        && !model.isEmpty())
        return model;
    const auto sim = bundledRecipe("sim");
    return sim && sim->defaults.count("model") ? QString::fromStdString(sim->defaults.at("model")) : QString();
}

QPushButton* button(const QString& text, const char* name, QWidget* parent)
{
    auto* b = new QPushButton(text, parent);
    b->setObjectName(QString::fromLatin1(name));
    return b;
}

} // namespace

ClusterSweepDialog::ClusterSweepDialog(QString storePath, QWidget* parent)
    : QDialog(parent)
    , m_controller(std::move(storePath))
    , m_matrix(new MatrixEditor(this))
    , m_cli(defaultCli())
{
    setWindowTitle(tr("Cluster sweep"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("A matrix of configurations, each swept over its concurrency levels as one task of a "
                                "Slurm job array. Finished tasks' runs are collected into this store as they end."),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    auto* matrixBox = new QGroupBox(tr("Matrix"), splitter);
    (new QVBoxLayout(matrixBox))->addWidget(m_matrix);
    auto* lower = new QWidget(splitter);
    auto* lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    lowerLayout->addWidget(makeArrayBox());
    lowerLayout->addWidget(makeTasksBox(), 1);
    splitter->addWidget(matrixBox);
    splitter->addWidget(lower);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    layout->addWidget(splitter, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::hide);
    layout->addWidget(buttons);

    m_timer.setInterval(5000);
    connect(&m_timer, &QTimer::timeout, this, &ClusterSweepDialog::refreshNow);
    connect(&m_controller, &ClusterController::polled, this, &ClusterSweepDialog::showPoll);
    connect(&m_controller, &ClusterController::waiting, this, [this](const QString& message) {
        m_waiting = message;
        setSummary(summaryText());
    });
    connect(&m_submitProcess, &QProcess::finished, this, &ClusterSweepDialog::submitFinished);
    connect(&m_submitProcess, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            submitFinished(-1, QProcess::CrashExit);
    });
    connect(m_matrix, &MatrixEditor::changed, this, &ClusterSweepDialog::updateButtons);
    m_matrix->setDefaultModel(lastEmulatorModel());
    // the matrix as it was left, here or in an earlier run of the explorer; else two rows of the emulator
    QSettings settings;
    const QString kept = settings.value(QString::fromLatin1(kMatrixKey)).toString();
    if (kept.isEmpty() || !m_matrix->load(kept, tr("the matrix kept from the last sweep")).ok()) {
        m_matrix->addConfiguration();
        m_matrix->addConfiguration();
    }
    // every edit kept at once: a dialog closed, or an explorer ended, loses none
    connect(m_matrix, &MatrixEditor::changed, this,
        [this] { QSettings().setValue(QString::fromLatin1(kMatrixKey), m_matrix->matrixText()); });
    resize(1240, 720);
    updateButtons();
}

ClusterSweepDialog::~ClusterSweepDialog()
{
    m_submitProcess.disconnect(this);
    if (m_submitProcess.state() != QProcess::NotRunning) {
        m_submitProcess.kill();
        m_submitProcess.waitForFinished(2000);
    }
}

QWidget* ClusterSweepDialog::makeArrayBox()
{
    auto* box = new QGroupBox(tr("Array"), this);
    auto* v = new QVBoxLayout(box);
    auto* row = new QHBoxLayout;
    m_folder = new QLineEdit(box);
    m_folder->setObjectName(QStringLiteral("outputFolder"));
    m_folder->setPlaceholderText(tr("a folder on the cluster's shared file system"));
    auto* browse = new QPushButton(tr("Browse…"), box);
    m_write = button(tr("Write array"), "writeArray", box);
    m_submit = button(tr("Submit"), "submit", box);
    m_followButton = button(tr("Follow an array…"), "follow", box);
    m_write->setToolTip(tr("Writes array.sbatch (one task per configuration), submit.sh and matrix.json"));
    m_followButton->setToolTip(tr("Follows an array written before (a folder with matrix.json and array.sbatch)"));
    row->addWidget(new QLabel(tr("Output folder"), box));
    row->addWidget(m_folder, 1);
    for (QPushButton* b : { browse, m_write, m_submit, m_followButton })
        row->addWidget(b);
    v->addLayout(row);
    m_written = new QLabel(box);
    m_written->setTextFormat(Qt::PlainText);
    m_written->setWordWrap(true);
    m_written->setTextInteractionFlags(Qt::TextSelectableByMouse);
    v->addWidget(m_written);
    connect(m_folder, &QLineEdit::textChanged, this, &ClusterSweepDialog::updateButtons);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Output folder of the array"), m_folder->text());
        if (!dir.isEmpty())
            m_folder->setText(dir);
    });
    connect(m_write, &QPushButton::clicked, this, [this] {
        if (QFile::exists(QDir(m_folder->text()).filePath(QStringLiteral("jobs")))
            && QMessageBox::question(this, tr("Write array"),
                   tr("An array was submitted from this folder. Writing a new one forgets its jobs and what was "
                      "collected from it. Write anyway?"))
                != QMessageBox::Yes)
            return;
        if (Status st = writeArray(); !st)
            showWritten(QString::fromStdString(st.error()), true);
    });
    connect(m_submit, &QPushButton::clicked, this, [this] {
        if (m_submitProcess.state() == QProcess::NotRunning)
            return submit();
        m_submitProcess.kill(); // sbatch waiting on an unreachable controller: the user gives up
    });
    connect(m_followButton, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Follow an array"), m_folder->text());
        if (dir.isEmpty())
            return;
        if (Status st = follow(dir); !st)
            setSummary(QString::fromStdString(st.error()), true);
    });
    return box;
}

QWidget* ClusterSweepDialog::makeTasksBox()
{
    auto* box = new QGroupBox(tr("Tasks"), this);
    auto* v = new QVBoxLayout(box);
    auto* row = new QHBoxLayout;
    m_summary = new QLabel(tr("No array followed yet: write one, or follow one written before."), box);
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    m_progress = new QProgressBar(box);
    m_progress->setFormat(tr("%v of %m tasks ended"));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setFixedWidth(m_progress->fontMetrics().horizontalAdvance(tr("888 of 888 tasks ended")) + 40);
    m_progress->hide(); // until an array is followed: "0 of 1 tasks ended" spoke of an array there was not
    row->addWidget(m_summary, 1);
    row->addWidget(m_progress);
    v->addLayout(row);
    m_tasks = new QTableWidget(0, TaskColumnCount, box);
    m_tasks->setHorizontalHeaderLabels(
        { tr("Task"), tr("Configuration"), tr("Resources"), tr("State"), tr("Runs collected"), tr("Reason") });
    m_tasks->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tasks->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tasks->verticalHeader()->hide();
    m_tasks->horizontalHeader()->setStretchLastSection(true);
    m_tasks->setWordWrap(false);
    for (auto [c, w] :
        { std::pair { Task, 48 }, { Configuration, 170 }, { Resources, 230 }, { State, 90 }, { Runs, 110 } })
        m_tasks->setColumnWidth(c, w);
    v->addWidget(m_tasks, 1);
    auto* buttons = new QHBoxLayout;
    m_collect = new QCheckBox(tr("Collect finished tasks into the store"), box);
    m_collect->setChecked(true);
    auto* refresh = button(tr("Refresh now"), "refresh", box);
    m_stop = button(tr("Stop following"), "stopFollowing", box);
    m_cancelJobs = button(tr("Cancel the jobs…"), "cancelJobs", box);
    m_stop->setToolTip(tr("Stops looking at the array (a collect waiting for the store gives up); the jobs run on"));
    buttons->addWidget(m_collect);
    buttons->addStretch(1);
    for (QPushButton* b : { refresh, m_stop, m_cancelJobs })
        buttons->addWidget(b);
    v->addLayout(buttons);
    connect(refresh, &QPushButton::clicked, this, &ClusterSweepDialog::refreshNow);
    connect(m_stop, &QPushButton::clicked, this, &ClusterSweepDialog::stopFollowing);
    connect(m_cancelJobs, &QPushButton::clicked, this, &ClusterSweepDialog::cancelJobs);
    return box;
}

void ClusterSweepDialog::setOutputFolder(const QString& dir)
{
    m_folder->setText(dir);
}

void ClusterSweepDialog::setInterval(double seconds)
{
    m_timer.setInterval(std::max(1, int(seconds * 1000)));
}

Status ClusterSweepDialog::writeArray()
{
    const QString dir = m_folder->text().trimmed();
    if (dir.isEmpty())
        return Error { "choose an output folder first" };
    auto m = m_matrix->check();
    if (!m)
        return Error { m.error() };
    const std::string text = m_matrix->matrixText().toStdString();
    if (Status st = paretoscope::writeArray(*m, text, QDir(dir).absolutePath().toStdString(), m_cli.toStdString()); !st)
        return st;
    QString written = tr("Wrote %1 (%2) and submit.sh; the tasks run %3.")
                          .arg(QDir(dir).filePath(QStringLiteral("array.sbatch")),
                              count(m->configurations.size(), tr("1 task"), tr("%1 tasks")), m_cli);
    for (std::size_t i = 0; i < m->configurations.size(); ++i)
        if (auto why = unrunnableReason(m->configurations[i]))
            written += u'\n'
                + tr("Task %1 (%2) will fail at once: %3")
                      .arg(i)
                      .arg(QString::fromStdString(m->configurations[i].name), QString::fromStdString(*why));
    showWritten(written);
    m_dir.clear(); // a new array, even in the same folder: nothing collected from it yet
    return follow(dir);
}

Status ClusterSweepDialog::follow(const QString& dirGiven)
{
    const QString dir = QDir(dirGiven).absolutePath();
    QFile f(QDir(dir).filePath(QStringLiteral("matrix.json")));
    if (!f.open(QIODevice::ReadOnly))
        return Error { dir.toStdString() + " is not an array written by --emit-sbatch (no matrix.json)" };
    auto m = parseMatrix(f.readAll().toStdString(), f.fileName().toStdString());
    if (!m)
        return Error { m.error() };
    if (dir != m_dir) {
        m_imported.clear();
        m_collectErrors.clear();
        m_last.reset();
    }
    m_dir = dir;
    m_followed = std::move(*m);
    m_folder->setText(dir);
    m_tasks->setRowCount(0);
    m_timer.start();
    refreshNow();
    updateButtons();
    return ok();
}

void ClusterSweepDialog::refreshNow()
{
    if (m_dir.isEmpty() || m_controller.busy())
        return;
    m_controller.poll(m_dir, m_collect->isChecked());
}

void ClusterSweepDialog::showPoll(const ClusterPoll& poll)
{
    if (poll.dir != m_dir)
        return; // a look at an array no longer followed
    m_waiting.clear();
    qulonglong imported = 0;
    const MatrixConfig* first = nullptr; // the first configuration collected from, whose scope the window shows
    for (const Collected& c : poll.collected) {
        if (c.error.empty()) {
            m_imported[c.task] += c.imported;
            imported += c.imported;
            if (!first && m_followed && std::size_t(c.task) < m_followed->configurations.size())
                first = &m_followed->configurations[std::size_t(c.task)];
            m_collectErrors.erase(c.task);
        } else {
            m_collectErrors[c.task] = QString::fromStdString(c.error);
        }
    }
    m_last = poll;
    const auto& tasks = poll.status.tasks;
    m_tasks->setRowCount(int(tasks.size()));
    int ended = 0;
    for (int r = 0; r < int(tasks.size()); ++r) {
        const TaskStatus& t = tasks[std::size_t(r)];
        ended += t.state == "finished" || t.state == "failed";
        QString state = QString::fromStdString(t.state);
        if (t.state == "pending" && poll.status.jobIds.empty())
            state = tr("pending (not submitted)");
        QString runs;
        if (auto it = m_imported.find(t.task); it != m_imported.end())
            runs = QLocale(QLocale::English).toString(it->second);
        else if (t.collected)
            runs = tr("collected before");
        QString reason = QString::fromStdString(t.reason);
        if (auto it = m_collectErrors.find(t.task); it != m_collectErrors.end())
            reason = tr("collect: %1").arg(it->second);
        const std::size_t i = std::size_t(t.task);
        const QString resources = m_followed && i < m_followed->configurations.size()
            ? resourcesText(m_followed->configurations[i])
            : QString();
        const QString cells[] { QString::number(t.task), QString::fromStdString(t.name), resources, state, runs,
            reason };
        for (int c = 0; c < TaskColumnCount; ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c == State || (c == Reason && !reason.isEmpty()))
                item->setForeground(stateColour(m_collectErrors.count(t.task) ? "failed" : t.state));
            if (c == Reason)
                item->setToolTip(reason);
            if (c == Task || c == Runs)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_tasks->setItem(r, c, item);
        }
    }
    m_progress->setRange(0, std::max(1, int(tasks.size())));
    m_progress->setValue(ended);
    m_progress->setVisible(!tasks.empty());
    // the state ("pending (not submitted)") whole: it was cut to "pending (n…"
    const QAbstractItemView* view = m_tasks; // sizeHintForColumn is public there
    const int stateWidth = view->sizeHintForColumn(State);
    if (stateWidth > m_tasks->columnWidth(State))
        m_tasks->setColumnWidth(State, stateWidth + 8);
    bool leftToCollect = !m_collectErrors.empty();
    for (const TaskStatus& t : tasks)
        leftToCollect = leftToCollect || (t.state == "finished" && !t.collected && m_collect->isChecked());
    const bool notAnArray = !poll.error.isEmpty() && poll.status.tasks.empty(); // (any more)
    if (notAnArray || (poll.status.ended && !leftToCollect))
        m_timer.stop();
    setSummary(summaryText(), !poll.error.isEmpty());
    updateButtons();
    if (imported > 0)
        emit runsCollected(imported, first ? QString::fromStdString(first->model) : QString(), first ? first->isl : 0,
            first ? first->osl : 0);
    emit refreshed();
}

QString ClusterSweepDialog::summaryText() const
{
    if (!m_last)
        return m_dir.isEmpty() ? tr("No array followed yet.") : tr("Looking at %1…").arg(m_dir);
    const ArrayStatus& st = m_last->status;
    std::map<std::string, int> inState;
    for (const TaskStatus& t : st.tasks)
        ++inState[t.state];
    QStringList parts;
    parts << (st.jobIds.empty() ? tr("Not submitted") : tr("Job %1").arg(QString::fromStdString([&] {
        std::string s;
        for (const std::string& id : st.jobIds)
            s += (s.empty() ? "" : ", ") + id;
        return s;
    }())));
    QStringList states;
    for (const char* s : { "pending", "running", "finished", "failed", "unknown" })
        if (inState[s])
            states << QStringLiteral("%1 %2").arg(inState[s]).arg(QLatin1String(s));
    parts << count(st.tasks.size(), tr("1 task"), tr("%1 tasks")) + QStringLiteral(": ")
            + states.join(QStringLiteral(", "));
    qulonglong runs = 0;
    for (const auto& [task, n] : m_imported)
        runs += n;
    if (runs)
        parts << count(runs, tr("1 run"), tr("%1 runs")) + tr(" collected into the store");
    if (st.ended)
        parts << tr("the array has ended");
    QString text = parts.join(QStringLiteral(" · "));
    if (!m_last->error.isEmpty())
        text += u'\n' + m_last->error;
    if (!st.note.empty() && !st.jobIds.empty())
        text += u'\n' + QString::fromStdString(st.note);
    if (!m_waiting.isEmpty())
        text += u'\n' + m_waiting;
    if (!m_timer.isActive() && !st.ended)
        text += u'\n' + tr("Not following (Refresh now looks again).");
    return text;
}

QString ClusterSweepDialog::writtenText() const
{
    return m_written->text();
}

void ClusterSweepDialog::showWritten(const QString& text, bool error)
{
    m_written->setText(text);
    m_written->setStyleSheet(error ? noteStyle(NoteKind::Error) : QString());
}

void ClusterSweepDialog::setSummary(const QString& text, bool error)
{
    m_summary->setText(text);
    m_summary->setStyleSheet(error ? noteStyle(NoteKind::Error) : QString());
}

void ClusterSweepDialog::submit()
{
    if (m_dir.isEmpty() || m_submitProcess.state() != QProcess::NotRunning)
        return;
    m_submitProcess.setWorkingDirectory(m_dir);
    m_submitProcess.start(QStringLiteral("sh"), { QDir(m_dir).filePath(QStringLiteral("submit.sh")) });
    showWritten(tr("Submitting with sbatch…"));
    updateButtons();
}

void ClusterSweepDialog::submitFinished(int exitCode, QProcess::ExitStatus status)
{
    const QString out = QString::fromLocal8Bit(m_submitProcess.readAllStandardOutput());
    const QString err = QString::fromLocal8Bit(m_submitProcess.readAllStandardError()).trimmed();
    QStringList ids;
    if (status == QProcess::NormalExit && exitCode == 0)
        ids = out.split(u'\n', Qt::SkipEmptyParts);
    if (ids.isEmpty())
        showWritten(tr("sbatch refused the array (exit %1): %2")
                        .arg(exitCode)
                        .arg(err.isEmpty() ? m_submitProcess.errorString() : err),
            true);
    else
        showWritten(tr("Submitted: job %1").arg(ids.join(QStringLiteral(", "))));
    updateButtons();
    if (!ids.isEmpty()) {
        m_timer.start();
        refreshNow();
    }
    emit submitted(ids);
}

void ClusterSweepDialog::cancelJobs()
{
    if (!m_last || m_last->status.jobIds.empty())
        return;
    QStringList ids;
    for (const std::string& id : m_last->status.jobIds)
        ids << QString::fromStdString(id);
    if (QMessageBox::question(this, tr("Cancel the jobs"),
            tr("Cancel job %1 with scancel? Tasks that finished keep their results.").arg(ids.join(u',')))
        != QMessageBox::Yes)
        return;
    auto* p = new QProcess(this);
    connect(p, &QProcess::finished, this, [this, p](int code) {
        if (code != 0)
            setSummary(tr("scancel failed: %1").arg(QString::fromLocal8Bit(p->readAllStandardError())), true);
        p->deleteLater();
        refreshNow();
    });
    p->start(QStringLiteral("scancel"), ids);
}

void ClusterSweepDialog::stopFollowing()
{
    m_timer.stop();
    m_controller.cancel();
    setSummary(summaryText());
}

void ClusterSweepDialog::updateButtons()
{
    const bool haveSbatch = !QStandardPaths::findExecutable(QStringLiteral("sbatch")).isEmpty();
    const bool submitting = m_submitProcess.state() != QProcess::NotRunning;
    const bool written = !m_dir.isEmpty() && QDir(m_folder->text()).absolutePath() == m_dir;
    m_write->setEnabled(!m_folder->text().trimmed().isEmpty() && !submitting);
    m_submit->setText(submitting ? tr("Stop sbatch") : tr("Submit"));
    m_submit->setEnabled(submitting || (haveSbatch && written));
    m_submit->setToolTip(submitting ? tr("Stops the submission (jobs sbatch took already stay queued)")
            : !haveSbatch ? tr("sbatch is not on the PATH: copy the folder to the cluster and run its submit.sh "
                               "there, then follow the folder here")
            : !written    ? tr("Write the array first")
                          : tr("Runs submit.sh: sbatch once per task shape; the job ids show here"));
    const bool live = m_last && !m_last->status.jobIds.empty() && !m_last->status.ended;
    m_cancelJobs->setEnabled(live && !QStandardPaths::findExecutable(QStringLiteral("scancel")).isEmpty());
    m_stop->setEnabled(m_timer.isActive());
}

} // namespace paretoscope::ui
