// The built-in pages but the plan's (planpage.cpp): ladder, summary, history, runs and the live session.
#include "widgets/window/builtinpages.h"

#include <QSettings>

#include <QStringList>
#include <algorithm>

#include "core/analysis/deviceprofile.h"
#include "core/import/bundled.h"
#include "core/live/devices.h"
#include "core/model/urls.h"
#include "widgets/common/displaynames.h"
#include "widgets/history/historypanel.h"
#include "widgets/readout/ladderpanel.h"
#include "widgets/readout/precisionpanel.h"
#include "widgets/readout/readoutpanel.h"
#include "widgets/readout/summarypanel.h"
#include "widgets/runs/runspanel.h"
#include "widgets/session/sessiondialog.h"
#include "widgets/session/sessionpanel.h"
#include "widgets/window/mainwindow.h"
#include "widgets/window/planpage.h"

namespace paretoscope::ui {

LadderPage::LadderPage(MainWindow& window)
    : Page(window)
    , m_panel(new LadderPanel(bundledPricing(), &window))
{
}

QWidget* LadderPage::widget() const
{
    return m_panel;
}

void LadderPage::restoreSettings(const QSettings& s)
{
    std::vector<double> targets;
    for (const QVariant& v : s.value("ladder/targets").toList())
        targets.push_back(v.toDouble());
    m_panel->setTargets(targets);
}

void LadderPage::saveSettings(QSettings& s) const
{
    QVariantList targets;
    for (double t : m_panel->targets())
        targets << t;
    s.setValue("ladder/targets", targets);
}

SummaryPage::SummaryPage(MainWindow& window)
    : Page(window)
    , m_panel(new SummaryPanel(&window))
{
}

QWidget* SummaryPage::widget() const
{
    return m_panel;
}

PrecisionPage::PrecisionPage(MainWindow& window)
    : Page(window)
    , m_panel(new PrecisionPanel(bundledPricing(), &window))
{
}

QWidget* PrecisionPage::widget() const
{
    return m_panel;
}

void PrecisionPage::connectToWindow()
{
    ReadoutPanel* readout = window().readout();
    m_panel->setTarget(readout->target());
    m_panel->setPrice(readout->price());
    // read again only while in front: a slider step behind another tab costs nothing here
    const auto follow = [this, readout] {
        if (m_panel->isVisible()) {
            m_panel->setTarget(readout->target());
            m_panel->setPrice(readout->price());
        } else {
            scopeShown(false);
        }
    };
    connect(readout, &ReadoutPanel::targetChanged, this, follow);
    connect(readout, &ReadoutPanel::priceChanged, this, follow);
}

void PrecisionPage::load()
{
    m_panel->setTarget(window().readout()->target());
    m_panel->setPrice(window().readout()->price());
    m_panel->setData(window().scopeData());
    emit ready();
}

HistoryPage::HistoryPage(MainWindow& window)
    : Page(window)
    , m_panel(new HistoryPanel(bundledPricing(), &window))
{
    connect(m_panel, &HistoryPanel::shown, this, &Page::ready);
}

QWidget* HistoryPage::widget() const
{
    return m_panel;
}

// The History tab follows the readout's target, price and sparse readings, and compares at the ladder's targets.
void HistoryPage::connectToWindow()
{
    ReadoutPanel* readout = window().readout();
    m_panel->setTarget(readout->target());
    m_panel->setPrice(readout->price());
    m_panel->setHideSparse(readout->hideSparse());
    m_panel->setTargets(window().ladder()->targets());
    connect(readout, &ReadoutPanel::targetChanged, m_panel, &HistoryPanel::setTarget);
    connect(readout, &ReadoutPanel::priceChanged, this, [this, readout] { m_panel->setPrice(readout->price()); });
    connect(readout, &ReadoutPanel::hideSparseChanged, m_panel, &HistoryPanel::setHideSparse);
    connect(window().ladder(), &LadderPanel::targetsChanged, m_panel, &HistoryPanel::setTargets);
    connect(m_panel, &HistoryPanel::exportRequested, this, [this] { window().askExportCsv(MainWindow::HistoryCsv); });
}

void HistoryPage::load()
{
    // the panel computes from the timeline the window hands it with each scope; ready follows its answer
}

RunsPage::RunsPage(MainWindow& window)
    : Page(window)
    , m_panel(new RunsPanel(&window))
{
}

QWidget* RunsPage::widget() const
{
    return m_panel;
}

void RunsPage::connectToWindow()
{
    connect(m_panel, &RunsPanel::deleteRequested, this, &RunsPage::deleteRuns);
}

void RunsPage::load()
{
    const std::shared_ptr<const ScopeData> data = window().scopeData();
    if (!data)
        return;
    // where the scope keeps only some runs (the latest per curve or configuration, or as of a day), the tab lists
    // those, as the frontiers are built from them
    std::shared_ptr<const std::vector<long long>> selected;
    if (data->scope.runs != RunSelection::All || !data->scope.asOf.empty())
        selected = std::make_shared<const std::vector<long long>>(data->selectedRunIds());
    m_panel->showRuns(&window().storeWorker(), data->seriesIds(), data->scope, std::move(selected));
    emit ready();
}

void RunsPage::deleteRuns(const std::vector<long long>& ids)
{
    // every deletion runs (no newer request replaces it), in order with the reads around it
    window().storeWorker().post(
        QString(), this, [ids](RunStore& store) { return store.deleteRuns(ids); },
        [this](const Status& st) {
            if (!st) {
                plainMessage(&window(), false, tr("Delete runs"), QString::fromStdString(st.error()));
                return;
            }
            window().refreshScopes();
        });
}

LivePage::LivePage(MainWindow& window)
    : Page(window)
    , m_panel(new SessionPanel(&window))
    , m_sessions(window.storePath())
{
}

QWidget* LivePage::widget() const
{
    return m_panel;
}

void LivePage::connectToWindow()
{
    connect(m_panel, &SessionPanel::cancelRequested, &m_sessions, &SessionController::cancel);
    connect(&m_sessions, &SessionController::note, m_panel, &SessionPanel::showNote);
    connect(&m_sessions, &SessionController::progress, m_panel, &SessionPanel::showProgress);
    connect(&m_sessions, &SessionController::engineLog, m_panel, &SessionPanel::showLog);
    connect(&m_sessions, &SessionController::levelStored, this, &LivePage::levelStored);
    connect(&m_sessions, &SessionController::finished, this, [this](const QString& status, const QString& reason) {
        m_panel->ended(status, reason);
        refreshSessions(false);
        emit window().sessionFinished(status);
    });
}

void LivePage::askNewSession()
{
    if (m_sessions.busy()) {
        window().showPage(QStringLiteral("live"));
        return;
    }
    DeviceDiscovery found = discoverDevices();
    QStringList lines;
    for (const GpuDevice& d : found.devices)
        lines << tr("GPU %1: %2 (%3, %4 GB)")
                     .arg(d.index)
                     .arg(QString::fromStdString(d.name), QString::fromStdString(d.architecture))
                     .arg(d.memoryBytes / 1000000000ull);
    std::vector<std::string> profiled;
    for (const GpuDevice& d : found.devices) {
        if (d.hardware.empty() || std::find(profiled.begin(), profiled.end(), d.hardware) != profiled.end())
            continue;
        profiled.push_back(d.hardware);
        if (auto p = loadDeviceProfile(d.hardware))
            lines << tr("Profile: %1").arg(QString::fromStdString(profileSummary(*p)));
        else
            lines << tr("No measured profile of %1 yet: paretoscope-probe --save measures one")
                         .arg(hardwareName(d.hardware));
    }
    if (found.devices.empty())
        lines << tr("No GPU found on this machine (%1). Sessions against an endpoint elsewhere, or the engine "
                    "emulator recipes, still run; power and energy are then not measured.")
                     .arg(QString::fromStdString(found.notes.empty() ? "" : found.notes.front()));
    SessionDialog dialog(lines.join(u'\n'), &window());
    if (dialog.exec() == QDialog::Accepted)
        startSession(dialog.request());
}

void LivePage::startSession(SessionRequest request)
{
    m_scopeShown = false;
    QString title = request.launch
        ? tr("Live session: %1").arg(QString::fromStdString(request.launch->recipe.name))
        : tr("Live session: %1").arg(QString::fromStdString(redactUrl(request.config.endpoint)));
    m_panel->started(title);
    window().showPage(QStringLiteral("live"));
    m_sessions.start(std::move(request));
}

void LivePage::refreshSessions(bool markInterrupted)
{
    window().storeWorker().post(
        QStringLiteral("sessions"), this,
        [markInterrupted](RunStore& store) {
            if (markInterrupted)
                markInterruptedSessions(store);
            return paretoscope::sessions(store);
        },
        [this](Result<std::vector<SessionInfo>> list) {
            if (list)
                m_panel->setSessions(*list);
        });
}

void LivePage::levelStored(const StoredLevelLine& level)
{
    m_panel->addLevel(level);
    refreshSessions(false); // the running session in the store's list, with its levels so far (it was empty)
    if (m_scopeShown)
        return window().refreshScopes();
    // the first level's point brings its scope into view once the scope list holds it; later ones land on it
    window().showScopesSelectingRun(level.runId, [this](bool shown) { m_scopeShown = m_scopeShown || shown; });
}

std::vector<PageSpec> builtinPages()
{
    return {
        { QStringLiteral("ladder"), QObject::tr("Ladder"), [](MainWindow& w) { return new LadderPage(w); }, true },
        { QStringLiteral("summary"), QObject::tr("Summary"), [](MainWindow& w) { return new SummaryPage(w); }, true },
        { QStringLiteral("precision"), QObject::tr("Precision"), [](MainWindow& w) { return new PrecisionPage(w); },
            true },
        { QStringLiteral("plan"), QObject::tr("Plan"), [](MainWindow& w) { return new PlanPage(w); } },
        { QStringLiteral("history"), QObject::tr("History"), [](MainWindow& w) { return new HistoryPage(w); } },
        { QStringLiteral("runs"), QObject::tr("Runs"), [](MainWindow& w) { return new RunsPage(w); } },
        { QStringLiteral("live"), QObject::tr("Live session"), [](MainWindow& w) { return new LivePage(w); } },
    };
}

} // namespace paretoscope::ui
