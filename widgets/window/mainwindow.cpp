#include "widgets/window/mainwindow.h"

#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDate>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QInputDialog>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QProgressDialog>
#include <QRegularExpression>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolButton>
#include <map>

#include "core/analysis/deviceprofile.h"
#include "core/analysis/scopehint.h"
#include "core/import/bundled.h"
#include "core/live/devices.h"
#include "core/model/urls.h"
#include "core/output/reports.h"
#include "widgets/chart/chartexport.h"
#include "widgets/common/displaynames.h"
#include "widgets/common/wheelguard.h"
#include "widgets/filters/accuracycontrol.h"
#include "widgets/filters/rundatescontrol.h"
#include "widgets/imports/importdialogs.h"
#include "widgets/imports/synccontroller.h"
#include "widgets/session/sessiondialog.h"
#include "widgets/window/builtinpages.h"
#include "widgets/window/page.h"
#include "widgets/window/planpage.h"

namespace paretoscope::ui {

namespace {

// Qt's raster engine splits a fill of many lines over a thread pool of its own and waits for it, and that pool starts
// its threads when first asked (they retire after 30 s idle). The window's first paint waited 3 to 5 ms for them
// while the store worker read the first scope on the other core of a two-core machine (perf: QSemaphore::acquire
// under QRasterPaintEngine::drawLines). A fill of a narrow image 1024 lines tall, before the window is shown, has
// them started (a few hundred microseconds).
void startRasterFillThreads()
{
    QImage lines(8, 1024, QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&lines);
    painter.fillRect(lines.rect(), QColor(0, 0, 0, 128));
}

std::unique_ptr<RunStore> withMaxWait(std::unique_ptr<RunStore> store)
{
    // the window's connection writes only for deletions: it gives up rather than wait long behind an import (the
    // importer and the sessions write through connections of their own, which wait their turn)
    store->setMaxWait(2.0);
    return store;
}

} // namespace

MainWindow::MainWindow(std::unique_ptr<RunStore> store, QWidget* parent)
    : QMainWindow(parent)
    , m_worker(withMaxWait(std::move(store)))
    , m_loader(m_worker)
    , m_imports(m_worker.path(), this)
    , m_filters(new FilterPanel(this))
    , m_chart(new ChartPanel(bundledPricing(), this))
    , m_replayExport(new ReplayExport(this))
    , m_readout(new ReadoutPanel(bundledPricing(), this))
    , m_status(new QLabel(this))
{
    setWindowTitle(tr("Paretoscope"));
    setAcceptDrops(true);
    restoreTheme(); // before anything is drawn
    m_layout.tabs = new QTabWidget(this);
    for (const PageSpec& spec : pageSpecs()) {
        Page* page = spec.make(*this);
        page->setObjectName(spec.key);
        m_pages.push_back(page);
    }
    layOutPanels();
    WheelGuard::guardCombos(this); // a wheel scrolling a panel passes its combo boxes by
    statusBar()->addWidget(m_status, 1);
    m_status->setTextFormat(Qt::PlainText);
    buildMenus();
    // the window's shortcuts work while a text box has the focus (a line edit takes Ctrl+E as "end of line")
    qApp->installEventFilter(this);
    restoreSettings(); // before the panels are connected: restoring asks for nothing to be loaded

    connectPanels();
    // once the scope list holds what an import brought, importFinished; the series and the scope follow
    connect(&m_imports, &ImportFlow::started, this, &MainWindow::noteWriteStarting);
    connect(&m_imports, &ImportFlow::finished, this, [this] {
        m_store.announceImport = true;
        refreshScopes();
    });
    // a session whose process was killed or crashed reads as interrupted, its finished levels kept
    pageOf<LivePage>()->refreshSessions(true);
    refreshScopes(); // then the remembered scope is selected, its series and the scope read
    m_store.timer = new QTimer(this);
    m_store.timer->setInterval(2000);
    connect(m_store.timer, &QTimer::timeout, this, &MainWindow::watchStore);
    m_store.timer->start();
    startRasterFillThreads();
    checkForNewData();
}

void MainWindow::layOutPanels()
{
    // the Explore page: the chart with the room, the readout beside it and the ladder and summary under the readout
    m_layout.exploreTabs = new QTabWidget(this);
    m_layout.exploreTabs->setDocumentMode(true);
    auto* side = new QSplitter(Qt::Vertical, this);
    side->addWidget(m_readout);
    side->addWidget(m_layout.exploreTabs);
    side->setStretchFactor(0, 0);
    side->setStretchFactor(1, 1);
    side->setChildrenCollapsible(false);
    auto* explore = new QSplitter(Qt::Horizontal, this);
    explore->setObjectName(QStringLiteral("explore"));
    explore->addWidget(m_chart);
    explore->addWidget(side);
    explore->setStretchFactor(0, 1);
    explore->setStretchFactor(1, 0);
    explore->setChildrenCollapsible(false);
    m_layout.explore = explore;
    m_layout.side = side;
    m_layout.tabs->setDocumentMode(true);
    m_layout.tabs->addTab(explore, tr("Explore"));
    for (std::size_t i = 0; i < m_pages.size(); ++i)
        (pageSpecs()[i].onExplore ? m_layout.exploreTabs : m_layout.tabs)
            ->addTab(m_pages[i]->widget(), pageSpecs()[i].title);

    auto* filtersScroll = new QScrollArea(this);
    filtersScroll->setWidget(m_filters);
    filtersScroll->setWidgetResizable(true);
    filtersScroll->setMinimumWidth(150); // its lists' entries and the boxes' names readable; the chart's boxes give way
    auto* main = new QSplitter(Qt::Horizontal, this);
    m_layout.main = main;
    main->addWidget(filtersScroll);
    main->addWidget(m_layout.tabs);
    main->setStretchFactor(0, 0);
    main->setStretchFactor(1, 1);
    main->setCollapsible(0, true);
    main->setCollapsible(1, false);
    main->setSizes({ m_layout.filtersWidth, 1400 });
    // folded away, the sidebar leaves a button before the pages that brings it back (and the splitter's edge)
    m_layout.filters = new QAction(tr("&Filters"), this);
    m_layout.filters->setCheckable(true);
    m_layout.filters->setChecked(true);
    m_layout.filters->setShortcut(QKeySequence(tr("Ctrl+Shift+F")));
    m_layout.filters->setToolTip(tr("Show or fold away the filter sidebar (Ctrl+Shift+F)"));
    connect(m_layout.filters, &QAction::toggled, this, &MainWindow::setFiltersShown);
    connect(main, &QSplitter::splitterMoved, this, [this] {
        const QSignalBlocker block(m_layout.filters);
        m_layout.filters->setChecked(filtersShown());
    });
    auto* button = new QToolButton(this);
    button->setDefaultAction(m_layout.filters);
    button->setText(tr("Filters"));
    button->setAutoRaise(true);
    m_layout.tabs->setCornerWidget(button, Qt::TopLeftCorner);
    setCentralWidget(main);
}

bool MainWindow::filtersShown() const
{
    const QList<int> sizes = m_layout.main->sizes();
    return sizes.isEmpty() || sizes.front() > 0;
}

void MainWindow::setFiltersShown(bool shown)
{
    if (shown != m_layout.filters->isChecked()) {
        const QSignalBlocker block(m_layout.filters);
        m_layout.filters->setChecked(shown);
    }
    if (shown == filtersShown())
        return;
    QList<int> sizes = m_layout.main->sizes();
    const int total = sizes.value(0) + sizes.value(1);
    if (!shown)
        m_layout.filtersWidth = sizes.value(0);
    const int left = shown ? std::max(m_layout.filtersWidth, m_layout.main->widget(0)->minimumWidth()) : 0;
    // the pages give or take the room: the Explore page's readout keeps its width, the chart changes
    m_layout.main->setSizes({ left, std::max(total - left, 1) });
}

void MainWindow::connectPanels()
{
    m_chart->view()->requestRunText = [this](long long id) { describeRun(id); };
    connect(m_filters, &FilterPanel::baseScopeChanged, this, &MainWindow::baseScopeChanged);
    connect(m_filters, &FilterPanel::filtersChanged, this, &MainWindow::requestScope);
    connect(m_filters, &FilterPanel::asOfChanged, this, &MainWindow::showAsOf);
    connect(m_chart, &ChartPanel::resetFiltersRequested, m_filters, &FilterPanel::resetFilters);
    connect(&m_loader, &ScopeLoader::loaded, this, &MainWindow::showScope);
    connect(&m_loader, &ScopeLoader::failed, this, &MainWindow::showStoreProblem);
    connect(m_readout, &ReadoutPanel::targetChanged, m_chart, &ChartPanel::setTarget);
    // the summary speaks of the target and the price in view
    connect(m_readout, &ReadoutPanel::targetChanged, this, &MainWindow::updateSummary);
    connect(m_readout, &ReadoutPanel::priceChanged, this, &MainWindow::updateSummary);
    connect(m_readout, &ReadoutPanel::hideSparseChanged, ladder(), &LadderPanel::setHideSparse);
    connect(m_readout, &ReadoutPanel::hideSparseChanged, m_chart, &ChartPanel::setHideSparse);
    connect(m_readout, &ReadoutPanel::hideSparseChanged, this, &MainWindow::updateSummary);
    connect(m_readout, &ReadoutPanel::readingChanged, ladder(), &LadderPanel::setReading);
    connect(m_readout, &ReadoutPanel::readingChanged, m_chart, &ChartPanel::setReading);
    connect(m_readout, &ReadoutPanel::readingChanged, this, &MainWindow::updateSummary);
    connect(m_readout, &ReadoutPanel::priceChanged, this, [this] {
        m_chart->setPrice(m_readout->price());
        ladder()->setCustomPrice(m_readout->price().customUsdPerGpuHour);
    });
    connect(m_readout, &ReadoutPanel::metricChanged, this, &MainWindow::requestScope);
    for (Page* page : m_pages)
        page->connectToWindow();
    // a page out of date reads what it shows when it comes to the front
    for (QTabWidget* tabs : { m_layout.tabs, m_layout.exploreTabs })
        connect(tabs, &QTabWidget::currentChanged, this, [this] {
            if (Page* page = currentPage())
                page->entered();
        });
    connect(this, &MainWindow::csvExported, this, [this](const QString&, const QString& error) {
        if (!error.isEmpty())
            plainMessage(this, false, tr("Export"), error);
    });
}

void MainWindow::startSession(SessionRequest request)
{
    pageOf<LivePage>()->startSession(std::move(request));
}

SessionController& MainWindow::sessions()
{
    return pageOf<LivePage>()->sessions();
}

MainWindow::~MainWindow() = default;

LadderPanel* MainWindow::ladder() const
{
    return pageOf<LadderPage>()->panel();
}
SummaryPanel* MainWindow::summary() const
{
    return pageOf<SummaryPage>()->panel();
}
HistoryPanel* MainWindow::history() const
{
    return pageOf<HistoryPage>()->panel();
}
PlanPanel* MainWindow::plan() const
{
    return pageOf<PlanPage>()->panel();
}
RunsPanel* MainWindow::runs() const
{
    return pageOf<RunsPage>()->panel();
}
SessionPanel* MainWindow::sessionPanel() const
{
    return pageOf<LivePage>()->panel();
}

std::pair<QTabWidget*, int> MainWindow::tabOf(std::size_t page) const
{
    QTabWidget* tabs = pageSpecs()[page].onExplore ? m_layout.exploreTabs : m_layout.tabs;
    return { tabs, tabs->indexOf(m_pages[page]->widget()) };
}

Page* MainWindow::currentPage() const
{
    const bool onExplore = m_layout.tabs->currentWidget() == m_layout.explore;
    const QWidget* front = (onExplore ? m_layout.exploreTabs : m_layout.tabs)->currentWidget();
    for (Page* page : m_pages)
        if (page->widget() == front)
            return page;
    return nullptr;
}

QWidget* MainWindow::currentPanel() const
{
    const Page* page = currentPage();
    return page ? page->widget() : nullptr;
}

bool MainWindow::showPage(const QString& key)
{
    for (const Page* page : m_pages)
        if (page->objectName().compare(key, Qt::CaseInsensitive) == 0)
            return showPanel(page->widget());
    return false;
}

bool MainWindow::showPanel(const QWidget* panel)
{
    for (std::size_t i = 0; i < m_pages.size(); ++i) {
        if (m_pages[i]->widget() != panel)
            continue;
        const auto [tabs, index] = tabOf(i);
        // the tab under the readout first, then Explore: the page comes to the front once
        if (tabs == m_layout.exploreTabs) {
            const QSignalBlocker block(tabs);
            tabs->setCurrentIndex(index);
            if (m_layout.tabs->currentWidget() == m_layout.explore)
                m_pages[i]->entered();
            else
                m_layout.tabs->setCurrentWidget(m_layout.explore);
        } else {
            tabs->setCurrentIndex(index);
        }
        return true;
    }
    return false;
}

void MainWindow::showStatus(const QString& text)
{
    m_status->setText(text);
    m_status->setToolTip(plainToolTip(text));
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() != QEvent::ShortcutOverride)
        return QMainWindow::eventFilter(watched, event);
    auto* key = static_cast<QKeyEvent*>(event);
    auto* widget = qobject_cast<QWidget*>(watched);
    const bool textBox = qobject_cast<QLineEdit*>(watched) || qobject_cast<QAbstractSpinBox*>(watched);
    if (!widget || !textBox || widget->window() != this)
        return QMainWindow::eventFilter(watched, event);
    // copy, paste and the like stay the text box's
    for (auto k : { QKeySequence::Copy, QKeySequence::Cut, QKeySequence::Paste, QKeySequence::Undo, QKeySequence::Redo,
             QKeySequence::SelectAll })
        if (key->matches(k))
            return QMainWindow::eventFilter(watched, event);
    const QKeySequence pressed(key->keyCombination());
    for (const QAction* a : findChildren<QAction*>())
        if (!a->shortcut().isEmpty() && a->shortcut() == pressed)
            return true; // kept from the text box, so the shortcut goes to the window's action
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Import files…"), QKeySequence::Open, this, [this] {
        const QStringList paths = QFileDialog::getOpenFileNames(this, tr("Import benchmark results"),
            lastFolder(QStringLiteral("import")), tr("Benchmark results (*.json *.jsonl *.csv);;All files (*)"));
        if (!paths.isEmpty()) {
            rememberFolder(QStringLiteral("import"), QFileInfo(paths.front()).absolutePath());
            importPaths(paths);
        }
    });
    file->addAction(tr("Import a &folder…"), QKeySequence(tr("Ctrl+Shift+O")), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(
            this, tr("Import every result under a folder"), lastFolder(QStringLiteral("import")));
        if (!dir.isEmpty()) {
            rememberFolder(QStringLiteral("import"), QFileInfo(dir).absolutePath());
            importPaths({ dir });
        }
    });
    file->addAction(tr("Import from the InferenceX &API…"), this, [this] {
        bool ok = false;
        const QString url = QInputDialog::getText(this, tr("Import from a URL"),
            tr("InferenceX API URL (http or https):"), QLineEdit::Normal,
            QStringLiteral("https://inferencex.semianalysis.com/api/v1/benchmarks?model=DeepSeek-R1-0528"), &ok);
        if (ok && !url.trimmed().isEmpty())
            importPaths({ url.trimmed() });
    });
    file->addAction(tr("&Update from InferenceX…"), this, [this] { openSync(); });
    file->addSeparator();
    file->addAction(tr("&Export chart…"), QKeySequence(tr("Ctrl+E")), this, [this] { askExportChart(); });
    file->addAction(tr("Export &frontier points as CSV…"), this, [this] { askExportCsv(FrontierCsv); });
    file->addAction(tr("Export &ladder as CSV…"), this, [this] { askExportCsv(LadderCsv); });
    file->addAction(tr("Export &runs in scope as CSV…"), this, [this] { askExportCsv(RunsCsv); });
    file->addAction(tr("Export &history as CSV…"), this, [this] { askExportCsv(HistoryCsv); });
    file->addAction(tr("Export &plan as CSV…"), this, [this] { askExportCsv(PlanCsv); });
    file->addAction(tr("Export re&port…"), this, [this] { askExportReport(); });
    file->addAction(tr("Export repla&y…"), this, [this] { askExportReplay(); });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(tr("&Copy summary as Markdown"), QKeySequence(tr("Ctrl+Shift+C")), summary(), &SummaryPanel::copy);
    addViewActions(edit);
    QMenu* session = menuBar()->addMenu(tr("&Session"));
    session->addAction(
        tr("&New live session…"), QKeySequence(tr("Ctrl+L")), this, [this] { pageOf<LivePage>()->askNewSession(); });
    session->addAction(tr("&Cancel the running session"), this, [this] { sessions().cancel(); });
    session->addSeparator();
    session->addAction(tr("Cluster &sweep…"), this, [this] { openClusterSweep(); });
    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(m_layout.filters);
    view->addAction(tr("&Reset zoom"), QKeySequence(tr("Ctrl+0")), m_chart, &ChartPanel::resetZoom);
    addThemeActions(view);
}

void MainWindow::showStoreProblem(const QString& message)
{
    // nothing drawn from the part of the store that could be read: the panels empty, the reason in their place,
    // for as long as this window runs on the store
    m_store.problem = message;
    auto empty = std::make_shared<const ScopeData>();
    m_shown.data.reset();
    m_shown.chartDue.reset();
    m_chart->showProblem(message);
    m_readout->setData(empty);
    ladder()->setData(empty);
    summary()->setReport(Error { message.toStdString() });
    history()->showProblem(message);
    plan()->showProblem(message);
    m_status->setText(message);
    m_status->setToolTip(plainToolTip(message)); // a status line is one line: the whole of it on hover
    emit scopeShown(); // what there is to show is this message
}

void MainWindow::requestScope()
{
    showDueChart();
    Scope scope = m_filters->scope();
    // a view being applied asks for its own as-of day: the slider learns the scope's run dates only with the answer
    if (m_view.pending && m_view.step == ViewStep::Scope)
        scope.asOf = m_view.pending->request.scope.asOf;
    m_loader.request(scope, m_readout->tputMetric(), m_chart->requestFor(m_readout->price()),
        m_filters->accuracy()->requirement(), m_filters->accuracy()->task().toStdString());
}

void MainWindow::showScope(const std::shared_ptr<const LoadedScope>& loaded)
{
    if (!m_store.problem.isEmpty()) // a damaged store: what was read of it is not shown
        return showStoreProblem(m_store.problem);
    m_shown.summaryFacts = loaded->summaryFacts;
    m_shown.timeline = loaded->timeline;
    if (m_shown.timeline)
        m_filters->runDates()->setDays(m_shown.timeline->days());
    history()->setTimeline(m_shown.timeline, loaded->data.metric);
    if (m_view.pending && m_view.step == ViewStep::Scope) {
        const QSignalBlocker block(m_filters->runDates());
        m_filters->runDates()->setAsOf(m_view.pending->request.scope.asOf);
    }
    paintAfterATurn();
    presentScope(std::shared_ptr<const ScopeData>(loaded, &loaded->data),
        loaded->chart ? std::optional<DrawnChart>({ loaded->chart, loaded->chartRequest }) : std::nullopt,
        ChartWhen::AfterPanels);
}

void MainWindow::showAsOf()
{
    // only the day moved: the frontiers as of it are built from the scope's runs in memory, without the store (a
    // replay step on a million-run store is a few milliseconds of selection, then the chart)
    const Scope scope = m_filters->scope();
    Scope everyDay = scope;
    everyDay.asOf.clear();
    if (!m_shown.timeline || !m_shown.data || !(m_shown.timeline->scope() == everyDay))
        return requestScope();
    ScopeData asOf = scopeDataAsOf(*m_shown.timeline, scope, m_shown.data->series, m_shown.data->metric);
    asOfPreparation()(asOf);
    presentScope(std::make_shared<const ScopeData>(std::move(asOf)), {}, ChartWhen::Now);
}

void MainWindow::presentScope(std::shared_ptr<const ScopeData> scope, std::optional<DrawnChart> drawn, ChartWhen when)
{
    m_shown.data = std::move(scope);
    m_readout->setData(m_shown.data);
    if (m_view.pending && m_view.step == ViewStep::Scope) {
        // the view is in: its baseline is among the hardware the readout now lists
        m_readout->setBaseline(QString::fromStdString(m_view.pending->baseline));
        m_view.pending.reset();
        m_view.step = ViewStep::None;
    }
    ladder()->setCustomPrice(m_readout->price().customUsdPerGpuHour);
    ladder()->setData(m_shown.data);
    updateSummary();
    fitPanels();
    plan()->setTtftLimit(m_shown.data->scope.ttftMax, m_shown.data->scope.ttftStat);
    // the model's evaluated tasks to choose from, and what a requirement left out
    m_filters->accuracy()->setTasks(
        m_shown.data->evaluations ? m_shown.data->evaluations->tasks() : std::vector<std::string> {});
    m_filters->accuracy()->setOutcome(
        m_shown.data->accuracyFilter ? QString::fromStdString(m_shown.data->accuracyFilter->words()) : QString());
    // a past as-of day: marked on the history, said by the plan
    history()->setAsOf(m_shown.data->scope.asOf);
    plan()->setAsOf(QString::fromStdString(m_shown.data->scope.asOf));
    if (when == ChartWhen::AfterPanels) {
        // a delivery: its chart is set a turn after the panels are painted (paintAfterATurn's stages), the two
        // stood as one turn of 20 ms on a million-run store
        m_shown.chartDue = Shown::ChartDue { std::move(drawn) };
        emit scopeDelivered();
        return;
    }
    m_shown.chartDue.reset(); // a delivery's chart still due is older than this scope
    presentChart(std::move(drawn));
}

void MainWindow::showDueChart()
{
    if (!m_shown.chartDue)
        return;
    std::optional<DrawnChart> drawn = std::move(m_shown.chartDue->drawn);
    m_shown.chartDue.reset();
    presentChart(std::move(drawn));
}

void MainWindow::presentChart(std::optional<DrawnChart> drawn)
{
    m_chart->setData(m_shown.data, m_readout->target(), m_readout->price(), std::move(drawn));
    // filters that leave nothing of a scope that has runs: say which hide how many, with a way back
    const bool allHidden = m_shown.data->runCount == 0 && m_filters->runsBeforeFilters() > 0;
    const auto& accuracy = m_shown.data->accuracyFilter;
    m_chart->showFilterHint(!allHidden ? QString()
            : accuracy && accuracy->below() + accuracy->unevaluated() > 0 // the accuracy required took the rest
            ? tr("No group of this scope meets the accuracy required: %1.")
                  .arg(QString::fromStdString(accuracy->words()))
            : tr("The filters hide all %1 runs of this scope: %2.")
                  .arg(QLocale(QLocale::English).toString(m_filters->runsBeforeFilters()),
                      m_filters->hiddenByFilters()));
    for (Page* page : m_pages)
        page->scopeShown(page == currentPage());
    emit scopeShown();
}

void MainWindow::updateSummary()
{
    if (!m_shown.data)
        return;
    summary()->setReport(summaryAt(*m_shown.data, m_shown.summaryFacts, bundledPricing(), m_readout->target(),
        m_readout->price(), m_readout->hideSparse(), m_readout->reading()));
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (m_sync.controller && m_sync.controller->busy()
        && QMessageBox::question(this, tr("Quit"),
               tr("A sync from InferenceX is running; quitting rolls back the answer being imported (what was "
                  "completed stays, and the next sync goes on from there). Quit?"))
            != QMessageBox::Yes) {
        event->ignore();
        return;
    }
    if (m_imports.busy()
        && QMessageBox::question(
               this, tr("Quit"), tr("An import is running; quitting rolls back the file being read. Quit?"))
            != QMessageBox::Yes) {
        event->ignore();
        return;
    }
    if (sessions().busy()
        && QMessageBox::question(this, tr("Quit"),
               tr("A live session is running; quitting cancels it (finished levels are kept) and stops the engine it "
                  "launched. Quit?"))
            != QMessageBox::Yes) {
        event->ignore();
        return;
    }
    sessions().cancel();
    saveSettings();
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    QStringList paths;
    for (const QUrl& url : event->mimeData()->urls())
        paths << (url.isLocalFile() ? url.toLocalFile() : url.toString());
    if (!paths.isEmpty()) {
        event->acceptProposedAction();
        importPaths(paths);
    }
}

} // namespace paretoscope::ui
