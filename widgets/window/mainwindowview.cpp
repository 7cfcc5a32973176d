// The view as a command and back: "Copy view as command", `paretoscope --view 'ARGS'` and a command pasted into the
// window. The options are core's (viewoptions.h), parsed and written by the same code as the CLI's `ladder`.
#include <QClipboard>
#include <QGuiApplication>
#include <QMenu>
#include <QStatusBar>

#include "core/import/bundled.h"
#include "widgets/filters/accuracycontrol.h"
#include "widgets/filters/rundatescontrol.h"
#include "widgets/history/historypanel.h"
#include "widgets/plan/planpanel.h"
#include "widgets/window/mainwindow.h"

namespace paretoscope::ui {

namespace {

// "DeepSeek-R1 ISL 8192 / OSL 1024", "m workload 'agentic coding'": the scope a view names, for its errors.
std::string scopeWords(const Scope& s)
{
    std::string out = s.model;
    if (s.isl && s.osl)
        out += " ISL " + std::to_string(*s.isl) + " / OSL " + std::to_string(*s.osl);
    if (!s.workload.empty())
        out += " workload '" + s.workload + "'";
    return out;
}

} // namespace

void MainWindow::addViewActions(QMenu* edit)
{
    edit->addSeparator();
    // Ctrl+Shift+C was taken (the summary): Ctrl+Alt+C copies the view; Ctrl+V opens one where no text box has the
    // focus (a text box keeps its own paste: eventFilter)
    edit->addAction(tr("Copy &view as command"), QKeySequence(tr("Ctrl+Alt+C")), this, &MainWindow::copyViewCommand)
        ->setToolTip(tr("A paretoscope-cli ladder line that prints what the readout shows; paretoscope --view "
                        "opens it"));
    edit->addAction(tr("&Open view from clipboard"), QKeySequence::Paste, this, &MainWindow::openViewFromClipboard);
}

Result<ViewOptions> MainWindow::currentView() const
{
    // a view on its way in is the view: what is on screen is about to be it
    if (m_view.pending)
        return *m_view.pending;
    ViewOptions v;
    LadderRequest& r = v.request;
    r.scope = m_filters->scope();
    if (r.scope.model.empty())
        return Error { "no scope is shown yet" };
    if (r.scope.matchesNothing)
        return Error { "the filters leave nothing to show (a list has every value unticked)" };
    r.targets = { m_readout->target() };
    r.metric = m_readout->tputMetric();
    r.hideSparse = m_readout->hideSparse();
    r.reading = m_readout->reading();
    r.price = m_readout->price();
    r.accuracy = m_filters->accuracy()->requirement();
    r.accuracyTask = m_filters->accuracy()->task().toStdString();
    v.baseline = m_readout->baseline().toStdString();
    return v;
}

Status MainWindow::applyView(const ViewOptions& view)
{
    const LadderRequest& r = view.request;
    const Scope& s = r.scope;
    // everything that can be refused is checked before anything changes
    if (!r.price.tierKey.empty() && !bundledPricing().find(r.price.tierKey))
        return Error { "the pricing has no tier '" + r.price.tierKey + "'" };
    m_filters->runDates()->play(false);
    const QSignalBlocker b1(m_filters), b2(m_readout), b3(m_filters->runDates());
    if (!m_filters->selectScope(
            QString::fromStdString(s.model), QString::fromStdString(s.workload), s.isl.value_or(0), s.osl.value_or(0)))
        return Error { "the store has no runs of " + scopeWords(s) };
    m_filters->runDates()->setRuns(s.runs);
    m_filters->accuracy()->setTask(QString::fromStdString(r.accuracyTask));
    m_filters->accuracy()->setRequirement(r.accuracy);
    m_readout->setPrice(QString::fromStdString(r.price.customUsdPerGpuHour ? std::string()
                                : r.price.tierKey.empty()                  ? bundledPricing().defaultTier().key
                                                                           : r.price.tierKey),
        r.price.customUsdPerGpuHour.value_or(m_readout->customPrice()));
    m_readout->setMetric(r.metric);
    // a view without --targets keeps the target in view; with several, the readout reads the first and the ladder
    // tab all of them
    if (r.targets != defaultTargets() && !r.targets.empty()) {
        m_readout->setTarget(r.targets.front());
        if (r.targets.size() > 1)
            ladder()->setTargets(r.targets);
    }
    m_readout->setHideSparse(r.hideSparse);
    m_readout->setReading(r.reading);
    // what the readout's signals, blocked here, would have told the other panels
    ladder()->setHideSparse(r.hideSparse);
    ladder()->setReading(r.reading);
    m_chart->setReading(r.reading);
    m_chart->setHideSparse(r.hideSparse);
    m_chart->setPrice(m_readout->price());
    ladder()->setCustomPrice(m_readout->price().customUsdPerGpuHour);
    m_chart->setTarget(m_readout->target());
    plan()->setTarget(m_readout->target());
    plan()->setPrice(m_readout->price());
    plan()->setHideSparse(r.hideSparse);
    history()->setTarget(m_readout->target());
    history()->setPrice(m_readout->price());
    history()->setHideSparse(r.hideSparse);
    // the rest waits for the scope's series (the filter lists), then its run dates and hardware
    m_view.pending = view;
    m_view.step = ViewStep::Series;
    baseScopeChanged();
    if (r.clamp)
        statusBar()->showMessage(tr("The explorer reads without --clamp: readings outside a frontier's range show as "
                                    "below or above range"),
            10000);
    return ok();
}

void MainWindow::tickPendingView()
{
    if (!m_view.pending || m_view.step != ViewStep::Series)
        return;
    m_filters->setFilters(m_view.pending->request.scope);
    m_view.step = ViewStep::Scope;
}

Status MainWindow::openViewText(const QString& text)
{
    auto words = splitCommandLine(text.trimmed().toStdString());
    if (!words)
        return Error { words.error() };
    // `paretoscope --view '...'` as typed in a shell: the view is its value
    if (words->size() == 2 && words->at(0).find("paretoscope") != std::string::npos
        && words->at(1).starts_with("--view="))
        words = splitCommandLine(words->at(1).substr(7));
    else if (words->size() == 3 && words->at(0).find("paretoscope") != std::string::npos && words->at(1) == "--view")
        words = splitCommandLine(words->at(2));
    if (!words)
        return Error { words.error() };
    if (words->empty())
        return Error { "there is no command to open" };
    auto view = parseViewArgs(*words);
    if (!view)
        return Error { view.error() };
    return applyView(*view);
}

void MainWindow::copyViewCommand()
{
    const auto view = currentView();
    if (!view) {
        statusBar()->showMessage(tr("Nothing copied: %1").arg(QString::fromStdString(view.error())), 10000);
        return;
    }
    const QString command = QString::fromStdString(viewCommand(*view));
    QGuiApplication::clipboard()->setText(command);
    statusBar()->showMessage(tr("Copied: %1").arg(command), 10000);
}

void MainWindow::openViewFromClipboard()
{
    const QString text = QGuiApplication::clipboard()->text();
    if (text.trimmed().isEmpty()) {
        statusBar()->showMessage(tr("No view opened: the clipboard holds no text"), 10000);
        return;
    }
    if (const Status st = openViewText(text); !st)
        statusBar()->showMessage(tr("No view opened: %1").arg(QString::fromStdString(st.error())), 10000);
    else
        statusBar()->showMessage(tr("Opened the view from the clipboard"), 5000);
}

} // namespace paretoscope::ui
