// MainWindow's store work: every call runs on the store worker and its answer comes back to the GUI thread; nothing
// here reads or writes the store on the GUI thread.
#include <QDir>
#include <QLabel>
#include <QLocale>
#include <QStatusBar>
#include <algorithm>
#include <utility>

#include "core/analysis/accuracy.h"
#include "core/analysis/chartdata.h"
#include "core/live/sessionstore.h"
#include "core/live/validity.h"
#include "core/model/layoutlabel.h"
#include "core/model/runidentity.h"
#include "core/output/reports.h"
#include "widgets/common/displaynames.h"
#include "widgets/window/mainwindow.h"

namespace paretoscope::ui {

namespace {

struct ScopeList {
    std::vector<ScopeSummary> scopes;
    long long runs = 0;
    std::uint64_t version = 0; ///< the connection's data_version when read
};

QString runDescription(const RunRecord& r)
{
    auto num = [](const std::optional<double>& v, double scale, int decimals, const char* unit) {
        return v ? QString::fromStdString(withThousands(*v * scale, decimals)) + QLatin1String(unit)
                 : QStringLiteral("-");
    };
    QStringList lines;
    lines << groupLabel(GroupKey { r.hardware, r.engine, r.precision, r.specDecoding });
    lines << MainWindow::tr("%1 · concurrency %2")
                 .arg(QString::fromStdString(layoutLabel(r)),
                     r.concurrency ? QString::number(r.concurrency) : QStringLiteral("-"));
    lines << MainWindow::tr("%1 tok/s/user · %2 tok/s/GPU")
                 .arg(num(r.interactivity, 1, 1, ""), num(r.tputPerGpu, 1, 0, ""));
    lines << MainWindow::tr("TTFT %1 · TPOT %2 · E2E %3")
                 .arg(num(r.ttft.median, 1000, 1, " ms"), num(r.tpot.median, 1000, 2, " ms"),
                     num(r.e2el.median, 1, 2, " s"));
    lines << MainWindow::tr("Source: %1").arg(QString::fromStdString(r.provenance.source));
    if (!r.provenance.note.empty())
        lines << QString::fromStdString(r.provenance.note);
    if (!r.runDate.empty())
        lines << MainWindow::tr("Run date: %1").arg(QString::fromStdString(r.runDate));
    if (!r.run.empty())
        lines << MainWindow::tr("Run: %1").arg(QString::fromStdString(runLabel(r.run)));
    if (!r.marked.empty())
        lines << MainWindow::tr("Not trusted: %1").arg(QString::fromStdString(r.marked));
    if (!r.validity.empty()) {
        lines << MainWindow::tr("Validity flags:");
        for (const QString& flag : QString::fromStdString(r.validity).split(u','))
            lines << QStringLiteral("  ") + QString::fromStdString(flagDescription(flag.toStdString()));
    }
    return lines.join(u'\n');
}

// The accuracy that comes with a run: its group's on the scope's task as of the scope's day, read on the evaluated
// configuration closest to the run's (docs/evaluations.md); empty where the model has no evaluations.
QString runAccuracy(const RunRecord& r, const ScopeData& data)
{
    if (!data.evaluations || data.evaluations->empty() || data.accuracyTask.empty())
        return {};
    const GroupKey group { r.hardware, r.engine, r.precision, r.specDecoding };
    const auto a = groupAccuracy(*data.evaluations, group, data.accuracyTask, data.scope.asOf,
        ConfigurationHint { r.disaggregated, r.tp, r.ep, r.dpAttention });
    const QString task = QString::fromStdString(taskName(data.accuracyTask));
    if (!a)
        return MainWindow::tr("%1: this group is not evaluated").arg(task);
    return MainWindow::tr("%1 (%2, %3)")
        .arg(QString::fromStdString(accuracyText(data.accuracyTask, a->accuracy)),
            a->sameConfiguration ? MainWindow::tr("this configuration")
                                 : MainWindow::tr("another configuration of the group"),
            QString::fromStdString(a->evaluation.date));
}

// the scope list and the store's run count, as the filter panel and the status bar show them (a store worker job)
ScopeList readScopeList(RunStore& store)
{
    ScopeList list;
    list.version = store.dataVersion(); // before the reads: a write during them is seen by the next look
    list.scopes = store.scopes();
    list.runs = store.runCount();
    return list;
}

} // namespace

void MainWindow::refreshScopes()
{
    m_worker.post(QStringLiteral("scopes"), this, readScopeList, [this](Result<ScopeList> list) {
        if (!list) {
            showStoreProblem(QString::fromStdString(list.error()));
            showScopeList({}, -1);
            return;
        }
        m_store.problem.clear(); // read whole again (a passing I/O error, a store recovered in place)
        m_store.seenVersion = list->version;
        showScopeList(list->scopes, list->runs);
        if (!m_store.scopesShown) {
            m_store.scopesShown = true;
            if (m_view.atStart) { // --view: in place of the remembered scope
                const Status st = applyView(*std::exchange(m_view.atStart, std::nullopt));
                if (st)
                    return; // its series and scope follow
                const QString why = QString::fromStdString(st.error());
                statusBar()->showMessage(tr("The view asked for cannot be opened: %1").arg(why));
                emit viewFailed(why);
            }
            selectRememberedScope();
        }
        // runs came or went: the series lists and the scope in view are read again
        baseScopeChanged();
    });
}

void MainWindow::noteWriteStarting()
{
    // each announce follows its own start (an import's started, a sync's plan); of an import and a sync at once, the
    // later start's list counts
    m_store.scopesBeforeWrite = m_filters->scopes();
}

void MainWindow::watchStore()
{
    // SQLite's data_version on the worker's connection changes when any other connection commits: another process,
    // or this window's own import, deletion or session (whose scope list is read again anyway; the version that
    // read saw is kept, so it is not read twice)
    if (!m_store.seenVersion || m_worker.busy())
        return;
    m_worker.post(
        QStringLiteral("store version"), this, [](RunStore& store) { return store.dataVersion(); },
        [this](Result<std::uint64_t> version) {
            if (version && m_store.seenVersion && *version != *m_store.seenVersion)
                refreshScopes();
        });
}

void MainWindow::showScopeList(const std::vector<ScopeSummary>& scopes, long long runs)
{
    if (runs >= 0) {
        // an import that brought a scope the store did not have: its first new scope comes into view, and the
        // status bar says so (the view stayed on the old scope, and the runs seemed not to have arrived)
        const std::vector<ScopeSummary> before
            = m_store.announceImport && m_store.scopesBeforeWrite ? *m_store.scopesBeforeWrite : m_filters->scopes();
        m_filters->setScopes(scopes);
        if (m_store.announceImport && m_store.scopesShown)
            for (const ScopeSummary& s : scopes) {
                const bool known = std::any_of(before.begin(), before.end(), [&](const ScopeSummary& b) {
                    return b.model == s.model && b.workload == s.workload && b.isl == s.isl && b.osl == s.osl;
                });
                if (known)
                    continue;
                const QSignalBlocker block(m_filters); // the scope is read once, by the caller (refreshScopes)
                if (m_filters->selectScope(
                        QString::fromStdString(s.model), QString::fromStdString(s.workload), s.isl, s.osl))
                    statusBar()->showMessage(
                        tr("Imported a new scope, now in view: %1").arg(m_filters->selectedScopeText()), 15000);
                break;
            }
        QLocale en(QLocale::English);
        // a store under the home folder reads as ~/...: shorter, and the same on every machine
        const QString home = QDir::homePath();
        QString path = m_worker.path();
        if (home.size() > 1 && path.startsWith(home + QLatin1Char('/')))
            path = QLatin1Char('~') + path.mid(home.size());
        m_status->setText(tr("Store: %1 · %2 runs").arg(path, en.toString(runs)));
        m_status->setToolTip(plainToolTip(m_status->text()));
    }
    if (m_store.announceImport) {
        m_store.announceImport = false;
        m_store.scopesBeforeWrite.reset();
        emit importFinished();
    }
}

void MainWindow::baseScopeChanged()
{
    // a scope asked for before is not shown once its answer comes: the series of the one chosen now are read, then
    // its own scope is asked for (the series answer below)
    m_loader.cancel();
    showDueChart(); // a scopeShown after this is never an earlier scope's
    m_worker.post(
        QStringLiteral("series"), this, [base = m_filters->baseScope()](RunStore& store) { return store.series(base); },
        [this, base = m_filters->baseScope()](Result<std::vector<Series>> series) {
            if (!series)
                return showStoreProblem(QString::fromStdString(series.error()));
            // the answer of a scope no longer selected is dropped: a newer request follows that selection
            const Scope now = m_filters->baseScope();
            if (now.model != base.model || now.workload != base.workload || now.isl != base.isl || now.osl != base.osl)
                return;
            m_filters->setSeries(*series);
            tickPendingView();
            requestScope();
        });
}

void MainWindow::showScopesSelectingRun(long long runId, std::function<void(bool)> selected)
{
    m_worker.post(
        QStringLiteral("scopes"), this,
        [runId](RunStore& store) {
            std::pair<ScopeList, std::vector<StoredRun>> answer;
            answer.first.scopes = store.scopes();
            answer.first.runs = store.runCount();
            answer.second = store.runs({ runId });
            return answer;
        },
        [this, selected = std::move(selected)](Result<std::pair<ScopeList, std::vector<StoredRun>>> answer) {
            if (!answer) {
                showStoreProblem(QString::fromStdString(answer.error()));
                showScopeList({}, -1);
                return;
            }
            showScopeList(answer->first.scopes, answer->first.runs);
            if (!answer->second.empty()) {
                const RunRecord& r = answer->second.front().record;
                const QSignalBlocker block(m_filters);
                selected(m_filters->selectScope(
                    QString::fromStdString(r.model), QString::fromStdString(r.workload), r.isl, r.osl));
            }
            baseScopeChanged();
        });
}

void MainWindow::clusterRunsCollected(const QString& model, int isl, int osl)
{
    m_worker.post(QStringLiteral("scopes"), this, readScopeList, [this, model, isl, osl](Result<ScopeList> list) {
        if (!list) {
            showStoreProblem(QString::fromStdString(list.error()));
            showScopeList({}, -1);
            return;
        }
        showScopeList(list->scopes, list->runs);
        // the sweep's first points bring their scope into view; later ones land on whatever is shown
        if (!m_cluster.scopeShown)
            for (const ScopeSummary& s : list->scopes)
                if (QString::fromStdString(s.model) == model && s.isl == isl && s.osl == osl) {
                    const QSignalBlocker block(m_filters);
                    m_cluster.scopeShown
                        = m_filters->selectScope(model, QString::fromStdString(s.workload), s.isl, s.osl);
                    break;
                }
        baseScopeChanged();
    });
}

void MainWindow::describeRun(long long id)
{
    m_worker.post(
        QStringLiteral("run text"), this, [id](RunStore& store) { return store.runs({ id }); },
        [this, id](const Result<std::vector<StoredRun>>& runs) {
            if (!runs || runs->empty())
                return m_chart->view()->setRunText(id, tr("Run %1 is not stored").arg(id));
            QString text = runDescription(runs->front().record);
            // the index is read on this thread, as every view of the scope reads it
            if (const QString accuracy = m_shown.data ? runAccuracy(runs->front().record, *m_shown.data) : QString();
                !accuracy.isEmpty())
                text += u'\n' + accuracy;
            m_chart->view()->setRunText(id, text);
        });
}

void MainWindow::exportFrontierCsv(const QString& path)
{
    if (!m_shown.data)
        return emit csvExported(path, tr("nothing to export yet"));
    m_worker.post(
        QString(), this,
        [path, frontiers = m_shown.data->frontiers](
            RunStore& store) { return writeTextFile(path, frontierCsv(frontierReport(store, frontiers))); },
        [this, path](
            const Status& st) { emit csvExported(path, st ? QString() : QString::fromStdString(st.error())); });
}

void MainWindow::exportRunsCsv(const QString& path)
{
    if (!m_shown.data)
        return emit csvExported(path, tr("nothing to export yet"));
    m_worker.post(
        QString(), this,
        [path, ids = m_shown.data->seriesIds(), scope = m_shown.data->scope](
            RunStore& store) { return writeTextFile(path, runsCsv(store.runsOfSeries(ids, scope))); },
        [this, path](
            const Status& st) { emit csvExported(path, st ? QString() : QString::fromStdString(st.error())); });
}

} // namespace paretoscope::ui
