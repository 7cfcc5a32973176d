// The explorer with a big store: start to first drawn chart; the longest stand of the event loop (a 1 ms timer
// records the longest gap between its ticks) during start, an import, a delete, opening the Runs tab and reading its
// next page, a live level landing, the run tooltip and the CSV exports; and a slider step (value change to the
// repainted readout and chart with its marker). Prints figures; not a pass/fail test.
// Usage: bench_explorer [RUNS (default 1000000)] [--keep DIR] [--replay] [--start] [--size WxH (default 1600x1000)]
//   --keep DIR keeps the generated store in DIR (DIR/store-RUNS.sqlite) and reuses it on the next run: generating a
//   million runs takes minutes. Runs offscreen unless QT_QPA_PLATFORM says otherwise.
//   PARETOSCOPE_BENCH_REPEAT=N: N more imports and deletes at the end, the spread of their longest gaps.
//   --start: only the start (the window's first paint, the first scope's delivery and paints), to sample its gap
//   over many runs.
//   --evaluations N: N evaluations of the scope's groups beside the runs (docs/evaluations.md): the readout, ladder and
//   legend then read each group's accuracy at every step.
//   --replay: only the replay, Play through the 64 run dates of a store of RUNS dated runs (DIR/dated-RUNS.sqlite),
//   each step timed from the tick to the repainted window; then the replay written as a video (MP4 and GIF at
//   1920x1080) by the window and by paretoscope-cli replay.
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QHelpEvent>
#include <QProcess>
#include <QSettings>
#include <QSlider>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <map>
#include <unistd.h>

#include "core/analysis/viewoptions.h"
#include "core/import/bundled.h"
#include "core/import/importer.h"
#include "core/model/guardedmain.h"
#include "core/output/ffmpeglib.h"
#include "core/store/evaluationstore.h"
#include "tests/bench/eventloopmeter.h"
#include "tests/support/agggenerator.h"
#include "tests/support/testpaths.h"
#include "widgets/filters/rundatescontrol.h"
#include "widgets/window/mainwindow.h"

using namespace paretoscope;
using namespace paretoscope::bench;

namespace {

// Opens the store at db, generating n records over 64 run dates first when it is missing.
std::unique_ptr<RunStore> datedStore(const std::string& db, std::uint64_t n, const QTemporaryDir& dir)
{
    if (!QFileInfo::exists(QString::fromStdString(db))) {
        const std::string data = dir.filePath(QStringLiteral("dated.json")).toStdString();
        std::printf("generating %llu records over 64 run dates...\n", static_cast<unsigned long long>(n));
        testsupport::writeAggArray(data, n, 1, 64);
        auto store = openStore(db, false);
        importPath(**store, data, {});
        QFile::remove(QString::fromStdString(data));
    }
    auto store = openStore(db, false);
    return store ? std::move(*store) : nullptr;
}

// The window's size (--size WxH): the explorer's goals hold at 1920x1080 and 1366x768 as at the default.
QSize g_windowSize(1600, 1000);

// The replay written as a video at 1920 x 1080 (File > Export replay...: a frame a turn of the window's event loop,
// encoded on a thread of its own), MP4 and GIF: the time to the file, and the longest stand of the event loop
// meanwhile; then the CLI's `replay` of the same scope (a process of its own, from its start to its exit).
int replayVideo(ui::MainWindow& window, const std::string& db)
{
    // the window's view as the CLI's options (after "paretoscope-cli ladder"), without the baseline replay lacks
    auto view = window.currentView();
    if (!view)
        return 1;
    view->baseline.clear();
    const auto words = splitCommandLine(viewCommand(*view));
    QStringList viewArgs;
    for (std::size_t i = 2; words && i < words->size(); ++i)
        viewArgs << QString::fromStdString((*words)[i]);
    const QDir folder = QFileInfo(QString::fromStdString(db)).dir();
    // FFmpeg's libraries, opened as File > Export replay... opens them while its file dialog is up (off the window)
    QElapsedTimer opening;
    opening.start();
    std::string why;
    if (!ffmpegLib(why)) {
        std::printf("  %s\n", why.c_str());
        return 1;
    }
    std::printf("  FFmpeg's libraries opened (dlopen) in %.0f ms\n", double(opening.nsecsElapsed()) / 1e6);
    for (const char* ext : { "mp4", "gif" }) {
        const QString path = folder.filePath(QStringLiteral("replay-bench.%1").arg(QLatin1String(ext)));
        GapMeter gaps;
        // every stand of the event loop while it writes (a 1 ms timer's gaps): their spread, not only the longest
        std::vector<double> stands;
        QElapsedTimer tick;
        tick.start();
        QTimer ticker;
        ticker.setTimerType(Qt::PreciseTimer);
        ticker.setInterval(1);
        QObject::connect(&ticker, &QTimer::timeout, [&] {
            stands.push_back(double(tick.nsecsElapsed()) / 1e6);
            tick.restart();
        });
        ticker.start();
        QElapsedTimer t;
        t.start();
        QString error;
        int frames = 0;
        QObject::connect(
            window.replayExport(), &ui::ReplayExport::finished, &window,
            [&](const QString&, const QString& e, int n) {
                error = e;
                frames = n;
            },
            Qt::SingleShotConnection);
        window.exportReplay(path, ui::ReplaySettings { QSize(1920, 1080), 2, 2 });
        if (!waitFor(window.replayExport(), &ui::ReplayExport::finished) || !error.isEmpty()) {
            std::printf("  the window's replay export failed: %s\n", qPrintable(error));
            return 1;
        }
        const double seconds = double(t.nsecsElapsed()) / 1e9 - 0.3; // waitFor's settling turn
        ticker.stop();
        std::sort(stands.begin(), stands.end());
        const auto over
            = [&](double ms) { return std::count_if(stands.begin(), stands.end(), [ms](double s) { return s > ms; }); };
        std::printf("  window, File > Export replay %s 1920x1080: %d frames in %.1f s (goal: under 20 s), %.0f kB; "
                    "longest event-loop stand %.1f ms; stands over 16 ms: %ld, over 50 ms: %ld; p99 %.1f ms\n",
            ext, frames, seconds, double(QFileInfo(path).size()) / 1024, gaps.longestMs(), long(over(16)),
            long(over(50)), stands.empty() ? 0.0 : stands[stands.size() * 99 / 100]);
        QProcess cli;
        t.restart();
        cli.start(testsupport::cliProgram(),
            QStringList { QStringLiteral("replay") } + viewArgs
                + QStringList { QStringLiteral("--db"), QString::fromStdString(db), QStringLiteral("--out"), path,
                    QStringLiteral("--size"), QStringLiteral("1920x1080") });
        if (!cli.waitForFinished(300000) || cli.exitCode() != 0) {
            std::printf("  the CLI's replay failed: %s\n", cli.readAllStandardError().constData());
            return 1;
        }
        std::printf("  paretoscope-cli replay --out FILE.%s --size 1920x1080: %.1f s, %s", ext,
            double(t.nsecsElapsed()) / 1e9, cli.readAllStandardOutput().constData());
        QFile::remove(path);
    }
    return 0;
}

// The replay: Play through every run date of a dated store, each step timed from the tick to the repainted window.
int replay(const std::string& db, std::uint64_t n, const QTemporaryDir& dir)
{
    auto store = datedStore(db, n, dir);
    if (!store)
        return 1;
    ui::MainWindow window(std::move(store));
    window.setShowImportResults(false);
    window.setWindowState(Qt::WindowNoState); // not maximized on the offscreen screen (see main)
    window.resize(g_windowSize);
    window.show();
    if (!waitFor(&window, &ui::MainWindow::scopeShown))
        return 1;
    window.grab();
    ui::RunDatesControl* dates = window.filters()->runDates();
    std::printf("replay of %zu run dates, %zu series in scope (latest per configuration as of the last: %zu runs)\n",
        dates->days().size(), window.scopeData()->series.size(), window.scopeData()->runCount);
    dates->play(true); // from the first date
    for (int k = 0; k < 3; ++k)
        QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents);
    std::vector<double> steps;
    while (dates->playing()) {
        QElapsedTimer t;
        t.start();
        dates->step(); // what the timer does once a second
        for (int k = 0; k < 3; ++k)
            QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents);
        steps.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    std::sort(steps.begin(), steps.end());
    if (steps.empty())
        return 1;
    std::printf("  replay step (reselect runs, rebuild the frontiers, redraw), %zu steps: median %.1f ms, p90 %.1f ms, "
                "max %.1f ms (goal: under 100 ms)\n",
        steps.size(), steps[steps.size() / 2], steps[steps.size() * 9 / 10], steps.back());
    return replayVideo(window, db);
}

int run(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    g_clock.start();
    TimingApplication app(argc, argv);
    std::uint64_t n = 1000000;
    QString keep;
    bool replayOnly = false;
    bool startOnly = false;
    std::uint64_t evaluationsWanted = 0;
    for (int i = 1; i < argc; ++i) {
        if (QString::fromLocal8Bit(argv[i]) == QStringLiteral("--keep") && i + 1 < argc)
            keep = QString::fromLocal8Bit(argv[++i]);
        else if (QString::fromLocal8Bit(argv[i]) == QStringLiteral("--replay"))
            replayOnly = true;
        else if (QString::fromLocal8Bit(argv[i]) == QStringLiteral("--evaluations") && i + 1 < argc)
            evaluationsWanted = std::strtoull(argv[++i], nullptr, 10);
        else if (QString::fromLocal8Bit(argv[i]) == QStringLiteral("--start"))
            startOnly = true;
        else if (QString::fromLocal8Bit(argv[i]) == QStringLiteral("--size") && i + 1 < argc) {
            const QStringList wh = QString::fromLocal8Bit(argv[++i]).split(u'x');
            g_windowSize = QSize(wh.value(0).toInt(), wh.value(1).toInt());
            if (wh.size() != 2 || g_windowSize.width() < 400 || g_windowSize.height() < 300) {
                std::fprintf(stderr, "bench_explorer: --size takes WxH, e.g. 1920x1080\n");
                return 2;
            }
        } else
            n = std::strtoull(argv[i], nullptr, 10);
    }
    QTemporaryDir dir;
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.filePath(QStringLiteral("settings")));
    QCoreApplication::setOrganizationName(QStringLiteral("ParetoscopeBench"));

    if (replayOnly) {
        QSettings s;
        s.setValue("scope/model", QStringLiteral("synthetic/model-0"));
        s.setValue("scope/workload", QStringLiteral("random 1k/1k"));
        s.setValue("scope/isl", 1024);
        s.setValue("scope/osl", 1024);
        s.setValue(QStringLiteral("filters/unchecked"), QStringList { QStringLiteral("precision:\x1f") });
        return replay(keep.isEmpty() ? dir.filePath(QStringLiteral("dated.sqlite")).toStdString()
                                     : QDir(keep).filePath(QStringLiteral("dated-%1.sqlite").arg(n)).toStdString(),
            n, dir);
    }
    const std::string db = keep.isEmpty() ? dir.filePath(QStringLiteral("store.sqlite")).toStdString()
                                          : QDir(keep).filePath(QStringLiteral("store-%1.sqlite").arg(n)).toStdString();
    if (!QFileInfo::exists(QString::fromStdString(db))) {
        const std::string data = dir.filePath(QStringLiteral("agg.json")).toStdString();
        std::printf("generating %llu records...\n", static_cast<unsigned long long>(n));
        testsupport::writeAggArray(data, n);
        auto store = openStore(db, false);
        QElapsedTimer t;
        t.start();
        auto out = importPath(**store, data, {});
        std::printf("imported %llu runs in %.1f s; %lld runs in the store\n",
            static_cast<unsigned long long>(out[0].result ? out[0].result->imported : 0), double(t.elapsed()) / 1000.0,
            (*store)->runCount());
        QFile::remove(QString::fromStdString(data));
    } else {
        std::printf("reusing %s\n", db.c_str());
    }
    // --evaluations N: the work copy gets N evaluations of the scope's groups (as bench_ladder writes them), so that
    // the readout, ladder and legend read each group's accuracy at every slider step
    const auto addEvaluations = [&](const std::string& path) {
        if (evaluationsWanted == 0)
            return;
        auto s = openStore(path, false);
        Scope scope;
        scope.model = "synthetic/model-0";
        scope.isl = 1024;
        scope.osl = 1024;
        const std::vector<Series> series = (*s)->series(scope);
        if (series.empty())
            return;
        std::vector<GroupKey> keys;
        keys.reserve(series.size());
        for (const Series& x : series)
            keys.push_back(x.key);
        const std::vector<EvaluationRecord> records
            = testsupport::syntheticEvaluations(scope.model, keys, evaluationsWanted);
        if (auto w
            = storeEvaluations(**s, Provenance { "bench-evaluations", "", "inferencex-evaluations", 0, "" }, records);
            !w)
            std::fprintf(stderr, "evaluations failed: %s\n", w.error().c_str());
        std::printf("%lld evaluations in the store\n", evaluationCount(**s));
    };
    // the phases import and delete runs: they run on a copy, so that every run of the bench starts from the same store
    // (an import into the kept one found its runs already there the next time, and measured a re-read)
    const std::string work = keep.isEmpty() ? db : dir.filePath(QStringLiteral("work.sqlite")).toStdString();
    if (work != db && !QFile::copy(QString::fromStdString(db), QString::fromStdString(work))) {
        std::fprintf(stderr, "cannot copy %s to %s\n", db.c_str(), work.c_str());
        return 1;
    }
    addEvaluations(work);
    // the copy's 300 MB written back to disk while the window starts took the kernel's writeback threads tens of
    // milliseconds of CPU then, on a machine of two cores: written back first, it is not in the start's figures
    ::sync();
    {
        // open on the biggest synthetic scope, all precisions shown
        QSettings s;
        s.setValue("scope/model", QStringLiteral("synthetic/model-0"));
        s.setValue("scope/workload", QStringLiteral("random 1k/1k"));
        s.setValue("scope/isl", 1024);
        s.setValue("scope/osl", 1024);
        s.setValue(QStringLiteral("filters/unchecked"), QStringList { QStringLiteral("precision:\x1f") });
    }

    GapMeter gap;
    std::printf("event loop, %llu-run store (goal: no gap over 16 ms):\n", static_cast<unsigned long long>(n));
    QElapsedTimer start;
    start.start();
    gap.reset();
    auto store = openStore(work, false);
    ui::MainWindow window(std::move(*store));
    window.setShowImportResults(false);
    // a window without saved settings is maximized on a screen smaller than 1600x1000 (the offscreen one is 800x600):
    // it measured a window of 1300x796, its minimum, until it was put back to a plain one here
    window.setWindowState(Qt::WindowNoState);
    window.resize(g_windowSize);
    window.show();
    // building the window runs before its event loop does: no window is on screen to stall yet, so it is reported as
    // launch time, apart from the gaps of the running event loop (the first scope read, drawn and painted on screen)
    const double builtMs = double(start.nsecsElapsed()) / 1e6;
    gap.reset();
    bool ok = waitFor(&window, &ui::MainWindow::scopeShown);
    report("start (first scope shown and painted)", gap.longestMs(), double(start.nsecsElapsed()) / 1e6 - 300, ok,
        gap.longestMadeOf());
    std::printf("  the window built and shown before its event loop runs: %.1f ms\n", builtMs);
    if (startOnly)
        return ok ? 0 : 1;
    window.grab(); // paints everything once, the chart with its run cloud included
    const double startMs = double(start.nsecsElapsed()) / 1e6;
    const auto& chart = window.chartPanel()->chart()->chartData();
    std::printf("  start to first drawn chart: %.0f ms (%zu runs in scope, %zu drawn after thinning)\n", startMs,
        chart.runsInScope, chart.runsDrawn);
    auto drag = [&](const char* when) {
        QSlider* slider = window.readout()->slider();
        std::vector<double> steps, moved; // every step; those that changed the target
        std::vector<double> handlers, paints; // of the steps that moved it: the signal handlers, then the paint
        static_cast<TimingApplication*>(qApp)->m_paintMs.clear(); // the paints before the drag are not its first step's
        for (int i = 0; i < 400; ++i) {
            // a drag: across the whole range and back, 5 of the slider's 1000 steps at a time
            const int sweep = (i * 5) % (2 * slider->maximum());
            const int pos = sweep <= slider->maximum() ? sweep : 2 * slider->maximum() - sweep;
            QElapsedTimer t;
            t.start();
            const double before = window.readout()->target();
            const double cpu0 = threadCpuMs();
            slider->setValue(pos);
            const double handled = threadCpuMs() - cpu0;
            // what the step made dirty is painted as the event loop would: the scene's update, then the views' paint
            // events (only the changed regions, as for a user)
            for (int k = 0; k < 3; ++k)
                QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents);
            steps.push_back(double(t.nsecsElapsed()) / 1e6);
            if (window.readout()->target() != before) {
                moved.push_back(steps.back());
                handlers.push_back(handled);
                paints.push_back(threadCpuMs() - cpu0 - handled);
                if (qEnvironmentVariableIsSet("PARETOSCOPE_BENCH_STEPS"))
                    std::printf("    step to %d: %.2f ms wall, %.2f ms CPU in handlers, %.2f ms painting\n", pos,
                        steps.back(), handled, paints.back());
                auto* timing = static_cast<TimingApplication*>(qApp);
                if (timing->m_paints) {
                    std::printf("     ");
                    for (const auto& [cls, ms] : timing->m_paintMs)
                        if (ms >= 0.3)
                            std::printf(" %s %.1f", cls.constData(), ms);
                    std::printf("\n");
                }
            }
            static_cast<TimingApplication*>(qApp)->m_paintMs.clear();
        }
        std::sort(steps.begin(), steps.end());
        std::sort(moved.begin(), moved.end());
        std::printf("slider step while dragging %s (value to repainted readout, chart and marker), %zu steps: median "
                    "%.2f ms, p90 %.2f ms, max %.2f ms (goals: 8, 12, 33)\n",
            when, steps.size(), steps[steps.size() / 2], steps[steps.size() * 9 / 10], steps.back());
        if (!moved.empty())
            std::printf("  of which %zu changed the target: median %.2f ms, p90 %.2f ms, max %.2f ms\n", moved.size(),
                moved[moved.size() / 2], moved[moved.size() * 9 / 10], moved.back());
        if (!moved.empty()) {
            std::sort(handlers.begin(), handlers.end());
            std::sort(paints.begin(), paints.end());
            std::printf("    the GUI thread's CPU time, medians: %.2f ms in the value's handlers (readout, chart, "
                        "marker), %.2f ms "
                        "painting\n",
                handlers[handlers.size() / 2], paints[paints.size() / 2]);
        }
    };
    {
        // the chart's lines and runs are drawn on a pool thread after its first paint: their pictures arriving and
        // painted, before the first drag
        gap.reset();
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 800)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        report("the chart settling (its pictures arriving)", gap.longestMs(), 800, true, gap.longestMadeOf());
    }
    drag("after start");
    // PARETOSCOPE_BENCH_DRAGS=N: N more drags and stop (a profile of the slider step alone)
    for (int i = qEnvironmentVariableIntValue("PARETOSCOPE_BENCH_DRAGS"); i > 0; --i)
        drag("again");
    if (qEnvironmentVariableIsSet("PARETOSCOPE_BENCH_DRAGS"))
        return 0;
    ui::StoreWorker& worker = window.storeWorker();
    // what the window asked for at start (the sessions list, the series) may still be running
    if (worker.busy())
        waitFor(&worker, &ui::StoreWorker::idle);

    auto phase = [&](const char* what, auto action, auto* sender, auto signal) {
        QElapsedTimer t;
        t.start();
        gap.reset();
        action();
        const bool settled = waitFor(sender, signal);
        report(what, gap.longestMs(), double(t.nsecsElapsed()) / 1e6 - 300, settled, gap.longestMadeOf());
    };

    {
        const QString file = dir.filePath(QStringLiteral("more.json"));
        testsupport::writeAggArray(file.toStdString(), 2000, 7);
        phase(
            "import of 2,000 runs (to the scope shown again)",
            [&] {
                window.importItems({ ui::ImportItem { file, {} } });
            },
            &window, &ui::MainWindow::scopeShown);
    }
    ui::RunsPanel* runs = window.runs();
    phase(
        "opening the Runs tab (to its first page)", [&] { window.findChild<QTabWidget*>()->setCurrentWidget(runs); },
        runs->model(), &ui::RunsModel::pageLoaded);
    // a scope whose runs fit one page has no next page to wait for
    if (!runs->model()->canFetchMore({}))
        std::printf("  the Runs tab holds the scope's %zu runs in its first page: no next page to scroll to\n",
            runs->model()->runs().size());
    else
        phase(
            "scrolling the Runs tab to its end (next page)",
            [&] {
                runs->table()->scrollToBottom();
                if (!runs->model()->loading() && runs->model()->canFetchMore({}))
                    runs->table()->model()->fetchMore({});
            },
            runs->model(), &ui::RunsModel::pageLoaded);
    std::vector<long long> some;
    for (std::size_t i = 0; i < runs->model()->runs().size() && some.size() < 50; i += 7)
        some.push_back(runs->model()->runs()[i].id);
    phase(
        "deleting 50 runs (to the scope shown again)", [&] { emit runs->deleteRequested(some); }, &window,
        &ui::MainWindow::scopeShown);
    {
        ui::StoredLevelLine level;
        level.level = 1;
        level.concurrency = 8;
        level.runId = runs->model()->runs().empty() ? 1 : runs->model()->runs().back().id;
        phase(
            "a live level landing (to the scope shown again)", [&] { emit window.sessions().levelStored(level); },
            &window, &ui::MainWindow::scopeShown);
    }
    {
        // the tooltip over a knot of the first frontier, as Qt's delayed tooltip event brings it
        ui::FrontierChart* fc = window.chartPanel()->chart();
        ui::FrontierView* view = window.chartPanel()->view();
        for (std::size_t g = 0; g < fc->groupCount(); ++g) {
            const auto& frontier = fc->chartData().series[g].frontier;
            if (frontier.empty())
                continue;
            const QPointF at = fc->mapToPosition(QPointF(frontier.front().x, frontier.front().y), fc->anchor());
            const QPoint inView = view->mapFromScene(fc->mapToScene(at));
            phase(
                "the run tooltip's record",
                [&] {
                    QHelpEvent over(QEvent::ToolTip, inView, view->viewport()->mapToGlobal(inView));
                    QApplication::sendEvent(view->viewport(), &over);
                },
                view, &ui::FrontierView::runTextArrived);
            break;
        }
    }
    phase(
        "exporting the frontier as CSV",
        [&] { window.exportFrontierCsv(dir.filePath(QStringLiteral("frontier.csv"))); }, &window,
        &ui::MainWindow::csvExported);
    phase(
        "exporting the runs in scope as CSV", [&] { window.exportRunsCsv(dir.filePath(QStringLiteral("runs.csv"))); },
        &window, &ui::MainWindow::csvExported);
    std::printf("  runs.csv: %.1f MB\n", double(QFileInfo(dir.filePath(QStringLiteral("runs.csv"))).size()) / 1e6);

    {
        // what showing a scope costs on the GUI thread once its data arrived (no store call in it): the panels' rebuild
        auto data = window.scopeData();
        QElapsedTimer t;
        t.start();
        window.readout()->setData(data);
        const double readoutMs = double(t.nsecsElapsed()) / 1e6;
        t.restart();
        window.chartPanel()->setData(data, window.readout()->target(), window.readout()->price());
        const double chartMs = double(t.nsecsElapsed()) / 1e6;
        t.restart();
        window.ladder()->setData(data);
        const double ladderMs = double(t.nsecsElapsed()) / 1e6;
        t.restart();
        window.grab();
        std::printf(
            "  showing a scope on the GUI thread (no store call): readout %.0f ms, chart %.0f ms, ladder %.0f ms, "
            "then a full paint %.0f ms\n",
            readoutMs, chartMs, ladderMs, double(t.nsecsElapsed()) / 1e6);
    }

    window.findChild<QTabWidget*>()->setCurrentIndex(0);
    {
        QEventLoop settle; // the tab switch's layout and paint, before the drag
        QTimer::singleShot(300, &settle, &QEventLoop::quit);
        settle.exec();
    }
    drag("after those");

    // the History tab: its first history (the scope's runs already in memory, computed off the GUI thread), then a
    // drag with it in front (each target asks for a history; a stale one is dropped while one runs)
    ui::HistoryPanel* history = window.history();
    phase(
        "opening the History tab (its history shown)",
        [&] { window.findChild<QTabWidget*>()->setCurrentWidget(history); }, history, &ui::HistoryPanel::shown);
    std::printf("  history: %.1f ms on the panel's thread, %.1f ms laying it out on the GUI thread\n",
        history->lastComputeMs(), history->lastPresentMs());
    const int computed = history->computations();
    gap.reset();
    drag("with the History tab in front");
    {
        QEventLoop settle; // the last target's history
        QTimer::singleShot(1500, &settle, &QEventLoop::quit);
        settle.exec();
    }
    std::printf("  %d histories computed for the drag's steps; longest event-loop gap %.1f ms; the last laid out in "
                "%.1f ms\n",
        history->computations() - computed, gap.longestMs(), history->lastPresentMs());

    // the Plan tab: its frontiers read on the store worker once, then every step plans (and its table repaints) on
    // the GUI thread
    ui::PlanPanel* plan = window.plan();
    phase(
        "opening the Plan tab (its plan shown)", [&] { window.findChild<QTabWidget*>()->setCurrentWidget(plan); }, plan,
        &ui::PlanPanel::planShown);
    const int planned = plan->computations();
    drag("with the Plan tab in front");
    std::printf("  %d plans computed for the drag's steps\n", plan->computations() - planned);

    // PARETOSCOPE_BENCH_REPEAT=N: N more imports and deletes, each from the first tab, for their longest gaps' spread
    // (one gap is one sample of a noisy machine: two cores shared with the store worker and the import's threads)
    if (const int rounds = qEnvironmentVariableIntValue("PARETOSCOPE_BENCH_REPEAT"); rounds > 0) {
        std::vector<double> imports, deletes;
        auto toFirstTab = [&] {
            window.findChild<QTabWidget*>()->setCurrentIndex(0);
            QEventLoop settle; // the tab switch's layout and paint, before the gap is measured
            QTimer::singleShot(300, &settle, &QEventLoop::quit);
            settle.exec();
        };
        for (int round = 0; round < rounds; ++round) {
            const QString file = dir.filePath(QStringLiteral("more-%1.json").arg(round));
            testsupport::writeAggArray(file.toStdString(), 2000, 100 + round);
            toFirstTab();
            gap.reset();
            window.importItems({ ui::ImportItem { file, {} } });
            waitFor(&window, &ui::MainWindow::scopeShown);
            imports.push_back(gap.longestMs());
            if (static_cast<TimingApplication*>(qApp)->m_slowMs > 0) // what each gap was made of
                report("import of 2,000 runs, again", gap.longestMs(), 0, true, gap.longestMadeOf());
            window.findChild<QTabWidget*>()->setCurrentWidget(runs);
            waitFor(runs->model(), &ui::RunsModel::pageLoaded);
            std::vector<long long> ids;
            for (std::size_t i = 3; i < runs->model()->runs().size() && ids.size() < 50; i += 7)
                ids.push_back(runs->model()->runs()[i].id);
            toFirstTab();
            gap.reset();
            emit runs->deleteRequested(ids);
            waitFor(&window, &ui::MainWindow::scopeShown);
            deletes.push_back(gap.longestMs());
            if (static_cast<TimingApplication*>(qApp)->m_slowMs > 0)
                report("deleting 50 runs, again", gap.longestMs(), 0, true, gap.longestMadeOf());
        }
        auto spread = [](const char* what, std::vector<double> v) {
            std::sort(v.begin(), v.end());
            std::printf("  %s, %zu times: longest event-loop gap median %.1f ms, best %.1f, worst %.1f\n", what,
                v.size(), v[v.size() / 2], v.front(), v.back());
        };
        spread("import of 2,000 runs", imports);
        spread("deleting 50 runs", deletes);
    }
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    return paretoscope::guardedMain("bench_explorer", [&] { return run(argc, argv); });
}
