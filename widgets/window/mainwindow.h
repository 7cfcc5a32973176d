#pragma once

#include <QMainWindow>
#include <QTimer>
#include <functional>
#include <memory>
#include <optional>

#include "core/analysis/viewoptions.h"
#include "widgets/chart/chartexport.h"
#include "widgets/chart/chartpanel.h"
#include "widgets/chart/replayexport.h"
#include "widgets/common/theme.h"
#include "widgets/filters/filterpanel.h"
#include "widgets/history/historypanel.h"
#include "widgets/imports/importflow.h"
#include "widgets/plan/planpanel.h"
#include "widgets/readout/ladderpanel.h"
#include "widgets/readout/readoutpanel.h"
#include "widgets/readout/summarypanel.h"
#include "widgets/runs/runspanel.h"
#include "widgets/session/sessioncontroller.h"
#include "widgets/session/sessionpanel.h"
#include "widgets/storejobs/scopeloader.h"
#include "widgets/storejobs/storeworker.h"

class QLabel;
class QMenu;
class QAction;
class QSettings;
class QProgressDialog;
class QTabWidget;

class QSplitter;

namespace paretoscope::ui {

class ClusterSweepDialog;
class Page;
class SyncController;
class SyncDialog;

/// The explorer's window: an assembly of the panels (a filter sidebar; pages: Explore with the chart, the readout,
/// the ladder and the summary; Plan, History, Runs, Live session), the menus,
/// drag and drop import, exports and the settings kept between sessions. Every read and write of the store goes
/// through the store worker (storeworker.h), never on the GUI thread; the importer and live sessions write through
/// connections of their own.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(std::unique_ptr<RunStore> store, QWidget* parent = nullptr);
    ~MainWindow() override;

    FilterPanel* filters() const { return m_filters; }
    ChartPanel* chartPanel() const { return m_chart; }
    ReadoutPanel* readout() const { return m_readout; }
    // the built-in pages' panels (builtinpages.h, planpage.h)
    LadderPanel* ladder() const;
    SummaryPanel* summary() const;
    HistoryPanel* history() const;
    PlanPanel* plan() const;
    RunsPanel* runs() const;
    /// The window's pages: Explore (the chart, the readout, and under it the pages onExplore in a tab widget of
    /// their own, exploreTabs), then each other page.
    QTabWidget* tabs() const { return m_layout.tabs; }
    QTabWidget* exploreTabs() const { return m_layout.exploreTabs; }
    /// The pages in the page table's order, as it (page.h) made them; the one in front (on Explore: the tab under
    /// the readout); a page put in front by its key (`--tab`), false for a key no page has; by its widget (a panel).
    const std::vector<Page*>& pages() const { return m_pages; }
    Page* currentPage() const;
    /// The widget of the page in front (null where none is).
    QWidget* currentPanel() const;
    bool showPage(const QString& key);
    bool showPanel(const QWidget* panel);
    /// The filter sidebar, shown or folded away (View > Filters, the button before the pages; kept).
    bool filtersShown() const;
    void setFiltersShown(bool shown);
    /// One line in the status bar (until the next).
    void showStatus(const QString& text);
    std::shared_ptr<const ScopeData> scopeData() const { return m_shown.data; }
    QString storePath() const { return m_worker.path(); }
    /// The thread every store call of the window runs on (tests and benchmarks wait for it to be idle).
    StoreWorker& storeWorker() { return m_worker; }

    /// Imports files, folders or URLs; vLLM and SGLang files first ask for their missing fields.
    void importPaths(const QStringList& paths) { m_imports.importPaths(paths); }
    /// Imports with the fields already known (no dialogs): what importPaths ends in.
    void importItems(std::vector<ImportItem> items) { m_imports.importItems(std::move(items)); }
    /// Shows results of the last import in a dialog unless false (tests read lastImportResults instead).
    void setShowImportResults(bool show) { m_imports.setShowResults(show); }
    const QList<ImportResultLine>& lastImportResults() const { return m_imports.lastResults(); }

    /// Exports of what is in view; errors come back with the file named.
    Status exportChartPng(const QString& path, QSize size, qreal scale) const;
    Status exportChartSvg(const QString& path, QSize size) const;
    Status exportChartPdf(const QString& path, QSize size) const;
    /// The chart in a format at one of the sizes chartExportSizes offers (or any other): what File > Export chart
    /// writes once its dialog is answered.
    Status exportChart(const QString& path, ChartFormat format, const ExportSize& size) const;
    /// The sizes the export dialog offers: slides, this screen, the chart as on screen.
    std::vector<ExportSize> chartExportSizes() const;
    /// View > Theme and View > Colour-blind-safe palette: applies them to the window and its charts at once, and keeps
    /// them in the settings (view/theme, view/colourBlind) for the next start.
    void applyTheme(ThemeKind kind, bool colourBlind);
    /// The title and source line an exported chart carries.
    ChartCaption chartCaption() const;
    /// The tier the readings are priced at, as a caption names it.
    QString priceLabel() const;
    /// What a scope's data as of a day needs beyond its runs, as the window shows it: the model's evaluations, the
    /// accuracy requirement judged as of the day, the task shown, the knots' configurations.
    std::function<void(ScopeData&)> asOfPreparation() const;
    /// The size the export dialogs offer (chartExportSize for the chart on screen).
    QSize chartExportSize() const;
    Status exportLadderCsv(const QString& path) const;
    /// What the History tab shows (the history or the comparison of two dates).
    Status exportHistoryCsv(const QString& path) const;
    /// The Plan tab's table as CSV (the CLI's `plan --format csv`) and the tab as a picture.
    Status exportPlanCsv(const QString& path) const;
    Status exportPlanPng(const QString& path) const;
    /// The Plan tab's question as a `paretoscope-cli plan ...` line; an error where no command can say it (TCO
    /// parts edited and not saved, no scope).
    Result<std::string> planCommandLine() const;
    /// Plan tab: the command onto the clipboard, the status line says what was copied or why not.
    void copyPlanCommand();
    /// A TCO model file for the Plan tab (its errors name the file and field), and the tab's parts saved as one.
    Status openTcoFile(const QString& path);
    Status saveTcoFile(const QString& path);
    /// Exports that read the store: they run on the store worker and csvExported follows.
    void exportFrontierCsv(const QString& path);
    void exportRunsCsv(const QString& path);
    /// The plan of the scope in view as CSV (File menu): a plan made before the scope last changed (the Plan tab plans
    /// only while in front) is made again first, then written; csvExported follows.
    void exportCurrentPlanCsv(const QString& path);
    /// The view on screen as the report (docs/report.md: a PDF, or one HTML file for a path ending .html), with the
    /// Plan tab's demand plan when it plans a demand; built on the store worker, then reportExported.
    void exportReport(const QString& path);
    /// The as-of replay of the view on screen as a video (docs/report.md: MP4, or GIF for a path ending .gif): one
    /// frame per run date of the scope up to the run-dates control's day, the chart as exported as of each; written a
    /// frame a turn by replayExport(), whose signals say how it goes.
    void exportReplay(const QString& path, const ReplaySettings& settings = {});
    ReplayExport* replayExport() const { return m_replayExport; }

    /// Starts a live session; each level's point shows on the chart as soon as it is stored.
    void startSession(SessionRequest request);
    SessionPanel* sessionPanel() const;
    SessionController& sessions();
    /// Session → Cluster sweep…: the dialog (made at the first call, then kept: it follows its array while hidden).
    ClusterSweepDialog* openClusterSweep();
    /// File → Update from InferenceX…: the sync dialog (made at the first call, then kept: a sync goes on while it
    /// is hidden). A sync that stored something brings the store's scopes up to date, as an import does.
    SyncDialog* openSync();
    /// The look for new data at start (a setting, off by default): the sync's plan read off the GUI thread, and the
    /// status line says how many models and sequences have newer runs.
    void checkForNewData();

    /// The view in the window as the CLI's `ladder` options (core's ViewOptions): the scope with what the filters
    /// leave out, runs and as-of day, the readout's target, tier or price, metric, sparse readings and baseline.
    /// Error: filters that leave nothing (no command says that), or no scope yet.
    Result<ViewOptions> currentView() const;
    /// Opens a view: selects its scope, ticks its filters, sets runs, as-of day, dates, target, tier or price, metric,
    /// sparse readings and baseline; scopeShown follows once it is drawn. A scope the store lacks or an unknown tier
    /// is an error, and then nothing changes. What `paretoscope --view` and a pasted command end in.
    Status applyView(const ViewOptions& view);
    /// A `paretoscope-cli ladder ...` line (or only its options, or `paretoscope --view '...'`) parsed by core as
    /// the CLI parses it, then applied; errors are the parser's message, and then nothing changes.
    Status openViewText(const QString& text);
    /// `paretoscope --view`: the view opens once the store's scope list is read (in place of the remembered
    /// scope); viewFailed says why when it cannot.
    void openViewAtStart(const ViewOptions& view) { m_view.atStart = view; }
    /// Why the store could not be read at the last read that failed; empty while it reads whole.
    const QString& storeProblem() const { return m_store.problem; }
    /// A view is being applied: its scope, run dates or hardware are still being read.
    bool viewPending() const { return m_view.pending.has_value(); }
    /// Edit menu: the view's command onto the clipboard, and a command from the clipboard opened; the status bar
    /// says what was copied, or what was wrong.
    void copyViewCommand();
    void openViewFromClipboard();

    /// Reads the scope list (and the run count for the status line) on the worker; the series of the scope in view
    /// and then the scope follow. After a write of the window's own (a deletion), or an import.
    void refreshScopes();
    /// Reads the scope list again and selects the scope of run `runId` (a live session's first level), then reads
    /// that scope; `selected` says whether the filter panel found it.
    void showScopesSelectingRun(long long runId, std::function<void(bool)> selected);
    /// The File menu's CSV exports: asks for a file, then writes (those that read the store end in csvExported).
    enum CsvExport { FrontierCsv, LadderCsv, RunsCsv, HistoryCsv, PlanCsv };
    void askExportCsv(CsvExport which);
    /// File > Export report...: asks for a file, then exportReport.
    void askExportReport();
    /// File > Export replay...: asks for a file, then exportReplay under a progress dialog with Cancel.
    void askExportReplay();
    /// The folder a file dialog of this kind ("import", "export", "tco") opened last, else the home folder.
    static QString lastFolder(const QString& kind);
    static void rememberFolder(const QString& kind, const QString& folder);

signals:
    /// A scope's data arrived and every panel shows it.
    void scopeShown();
    /// A scope's data arrived from the store: the readout, ladder, summary, history and plan hold it; the chart panel
    /// follows a turn after their paint, then scopeShown.
    void scopeDelivered();
    /// An import ended and the scope list shows what it brought.
    void importFinished();
    /// A CSV export that reads the store ended: error is empty when the file was written.
    void csvExported(const QString& path, const QString& error);
    /// A report export ended: error is empty when the file was written.
    void reportExported(const QString& path, const QString& error);
    /// A live session ended (status: finished, failed, cancelled or error).
    void sessionFinished(const QString& status);
    /// The view given to openViewAtStart could not be opened.
    void viewFailed(const QString& message);

protected:
    bool event(QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    // the constructor's parts: the panels in their splitters, then the signals of the panels, the importer and the
    // live sessions
    void layOutPanels();
    void connectPanels();
    void buildMenus();
    /// The Edit menu's Copy view as command and Open view from clipboard.
    void addViewActions(QMenu* edit);
    /// Another process (the CLI, a collect, another window) wrote to the store: read the scope list again.
    void watchStore();
    /// An import or a sync begins: the scopes listed now are kept for the announce of what it brought.
    void noteWriteStarting();
    /// Shows a scope list read on the worker (and says so to whoever waits for an import).
    void showScopeList(const std::vector<ScopeSummary>& scopes, long long runs);
    /// A store that cannot be read (damaged): its message in place of the chart and the readings.
    void showStoreProblem(const QString& message);
    void baseScopeChanged();
    void requestScope();
    /// The series of a view being applied arrived: its filters are ticked (MainWindow::applyView's second step).
    void tickPendingView();
    void showScope(const std::shared_ptr<const LoadedScope>& loaded);
    void showAsOf();
    /// A scope into the panels: its chart at once, or (a delivery) a turn after the panels' paint.
    enum class ChartWhen { Now, AfterPanels };
    void presentScope(std::shared_ptr<const ScopeData> scope, std::optional<DrawnChart> drawn, ChartWhen when);
    /// The scope in view into the chart panel, then the pages told and scopeShown.
    void presentChart(std::optional<DrawnChart> drawn);
    /// A delivered scope's chart, if one is still due, shown now: before a new request, whose scopeShown then is
    /// never the earlier scope's.
    void showDueChart();
    /// The summary at the readout's target and price, from the loaded scope's facts (no store call).
    void updateSummary();
    void describeRun(long long id);
    void restoreSettings();
    void selectRememberedScope();
    void saveSettings() const;
    void askExportChart();
    void restoreTheme();
    void addThemeActions(QMenu* view);
    /// A cluster sweep's runs were collected: the scope list is read again, and the sweep's scope comes into view
    /// at its first collection.
    void clusterRunsCollected(const QString& model, int isl, int osl);

    /// A delivery from the worker begins here: the window's repaint it causes is held, the panels are painted a
    /// turn of the event loop later, the new chart built, put in view and painted a turn apart each, so that input
    /// (and timers) run between them instead of after all (docs/architecture.md, section 6).
    void paintAfterATurn();
    bool eventFilter(QObject* watched, QEvent* event) override;
    /// The first window without a saved geometry: most of the screen.
    void fitToScreen();
    /// The panels' first split, once the readout knows how wide its columns are.
    void fitPanels();
    /// The tab widget and index that show a page (Explore's tabs for a page onExplore).
    std::pair<QTabWidget*, int> tabOf(std::size_t page) const;
    /// The page of a class (the built-in pages are always there).
    template <class P> P* pageOf() const
    {
        for (Page* page : m_pages)
            if (auto* p = qobject_cast<P*>(page))
                return p;
        return nullptr;
    }

    // The frame's state: the store and what reads and writes it, the scope shown, the shared panels, the pages,
    // the layout, the store watch, the view being applied, the cluster sweep.
    StoreWorker m_worker;
    ScopeLoader m_loader;
    ImportFlow m_imports;
    struct Shown {
        std::shared_ptr<const ScopeData> data; ///< the scope in view (as of the run-dates control's day)
        std::vector<HardwareSummary> summaryFacts; ///< of data
        std::shared_ptr<const ScopeTimeline> timeline; ///< every run of data's scope, for the as-of day to step
        struct ChartDue {
            std::optional<DrawnChart> drawn; ///< the worker's drawing of data's chart, if it made one
        };
        std::optional<ChartDue> chartDue; ///< a delivered scope's chart, set after the panels' paint
    } m_shown;
    FilterPanel* m_filters;
    ChartPanel* m_chart;
    ReplayExport* m_replayExport;
    ReadoutPanel* m_readout;
    std::vector<Page*> m_pages; // children of the window, in tab order
    QLabel* m_status;
    struct Layout {
        QTabWidget* tabs = nullptr; ///< the pages: Explore first
        QTabWidget* exploreTabs = nullptr; ///< under the readout: the pages onExplore
        QSplitter* main = nullptr; ///< filters | pages
        QSplitter* explore = nullptr; ///< the Explore page: chart | side
        QSplitter* side = nullptr; ///< the readout over the Explore tabs
        QAction* filters = nullptr; ///< View > Filters, and the button before the pages
        int filtersWidth = 180; ///< the sidebar's width when shown again
        bool fitted = false; ///< the first split was made (or restored)
        bool firstPaintHeld = false; ///< the Explore page's panels wait for the window's first paint (showEvent)
        bool storeTouched = false; ///< the window's buffer was written before its first expose (showEvent)
        /// paintAfterATurn's stage, what its next turn does: the panels' paint asked for, the panels painted, the
        /// chart built, the chart put in view, the chart painted
        enum class Paint { None, Held, Panels, ChartBuild, ChartData, Chart } paint = Paint::None;
    } m_layout;
    /// paintAfterATurn's stage set, and run a turn later if no other was set meanwhile.
    void paintStageLater(Layout::Paint stage);
    void runPaintStage(Layout::Paint stage);
    struct StoreWatch {
        QTimer* timer = nullptr; ///< looks every 2 s whether the store changed
        std::optional<std::uint64_t> seenVersion; ///< the worker connection's data_version when the scopes were read
        bool scopesShown = false; ///< the scope list arrived once (the remembered scope is selected then)
        bool announceImport = false; ///< an import ended: importFinished follows the scope list that shows it
        /// The scopes listed when an import or a sync began: the announce's new scopes are those not among them
        /// (the list may be read again while it writes, the store watch seeing its commits).
        std::optional<std::vector<ScopeSummary>> scopesBeforeWrite;
        QString problem; ///< why the store cannot be read; set once it failed a read
    } m_store;
    // a view being applied (applyView): its filters wait for the scope's series, its as-of day for the scope's run
    // dates, its baseline for the scope's hardware
    enum class ViewStep { None, Series, Scope };
    struct ViewInProgress {
        std::optional<ViewOptions> pending;
        ViewStep step = ViewStep::None;
        std::optional<ViewOptions> atStart; ///< --view, until the scope list is read
    } m_view;
    struct Sync {
        SyncController* controller = nullptr; ///< made at the first call, then kept
        SyncDialog* dialog = nullptr;
    } m_sync;
    SyncController& syncController();
    struct ClusterSweep {
        ClusterSweepDialog* dialog = nullptr; ///< made at the first call, then kept
        bool scopeShown = false; ///< the sweep's scope was brought into view at its first collection
    } m_cluster;
};

} // namespace paretoscope::ui
