// The store worker: latest request wins per kind (a newer job skips an older one not started and drops the answer
// of one that ran, as does a kind superseded with no newer job), jobs without a kind all answer in order; and the Runs
// tab of a 200,000-run store, which opens at once and reads its rows a page at a time, on the worker, as it scrolls.
#include <QtTest>

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QSemaphore>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <atomic>
#include <thread>
#ifdef __linux__
#include <cerrno>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "core/import/bundled.h"
#include "core/import/importer.h"
#include "tests/support/agggenerator.h"
#include "tests/support/suite.h"
#include "widgets/common/threadpriority.h"
#include "widgets/filters/rundatescontrol.h"
#include "widgets/storejobs/storeworker.h"
#include "widgets/window/mainwindow.h"

using namespace paretoscope;
using namespace paretoscope::ui;

namespace {

constexpr std::uint64_t kRuns = 200000;

// The longest wait between ticks of a timer that fires every 2 ms while it runs: how long the event loop stood.
class GapMeter : public QObject {
public:
    GapMeter()
    {
        m_timer.setInterval(2);
        QObject::connect(&m_timer, &QTimer::timeout, this, [this] {
            const qint64 now = m_clock.nsecsElapsed();
            m_longest = std::max(m_longest, now - m_last);
            m_last = now;
            ++m_ticks;
        });
        m_clock.start();
        m_last = m_clock.nsecsElapsed();
        m_timer.start();
    }
    double longestMs() const { return double(m_longest) / 1e6; }
    int ticks() const { return m_ticks; }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0;
    qint64 m_longest = 0;
    int m_ticks = 0;
};

} // namespace

class TestStoreWorker : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_db;

    bool waitIdle(StoreWorker& worker)
    {
        QSignalSpy idle(&worker, &StoreWorker::idle);
        return idle.wait(20000);
    }

private slots:
    void initTestCase()
    {
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir.filePath(QStringLiteral("settings")));
        QCoreApplication::setOrganizationName(QStringLiteral("ParetoscopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_storeworker"));
        m_db = m_dir.filePath(QStringLiteral("store.sqlite"));
        const std::string json = m_dir.filePath(QStringLiteral("agg.json")).toStdString();
        QVERIFY(testsupport::writeAggArray(json, kRuns) > 0);
        auto store = openStore(m_db.toStdString(), false);
        QVERIFY(store.ok());
        auto out = importPath(**store, json, {});
        QVERIFY2(out.at(0).result.ok(), out.at(0).result.ok() ? "" : out.at(0).result.error().c_str());
        QCOMPARE((*store)->runCount(), static_cast<long long>(kRuns));
        QFile::remove(QString::fromStdString(json));
    }

    // A job waits behind one that blocks; a newer job of its kind is posted before it starts: it never runs.
    void newerRequestSkipsAnOlderOneNotStarted()
    {
        StoreWorker worker(m_db, StoreAccess::ReadOnly);
        QSemaphore go;
        worker.post(
            QStringLiteral("blocker"), this,
            [&go](RunStore&) {
                go.acquire();
                return 0;
            },
            [](const Result<int>&) {});
        std::atomic<int> ran { 0 };
        std::vector<int> answered;
        for (int k = 1; k <= 3; ++k)
            worker.post(
                QStringLiteral("count"), this,
                [&ran, k](RunStore& store) {
                    ran |= 1 << k;
                    return store.runCount() + k;
                },
                [&answered, k](Result<long long> n) {
                    QVERIFY(n.ok());
                    QCOMPARE(*n, static_cast<long long>(kRuns) + k);
                    answered.push_back(k);
                });
        go.release();
        QVERIFY(waitIdle(worker));
        QCOMPARE(ran.load(), 1 << 3); // the first two were skipped
        QCOMPARE(answered, std::vector<int>({ 3 }));
    }

    // A job has started when a newer one of its kind is posted: it runs to its end, but its answer is dropped.
    void newerRequestDropsTheAnswerOfOneRunning()
    {
        StoreWorker worker(m_db, StoreAccess::ReadOnly);
        QSemaphore started, go;
        QStringList answered;
        const quint64 first = worker.post(
            QStringLiteral("scope list"), this,
            [&](RunStore& store) {
                started.release();
                go.acquire();
                return store.scopes().size();
            },
            [&](const Result<std::size_t>&) { answered << QStringLiteral("first"); });
        started.acquire(); // the first job runs on the worker now
        QVERIFY(worker.isLatest(QStringLiteral("scope list"), first));
        const quint64 second = worker.post(
            QStringLiteral("scope list"), this, [](RunStore& store) { return store.scopes().size(); },
            [&](const Result<std::size_t>& n) {
                answered << (n ? QStringLiteral("second") : QString::fromStdString(n.error()));
            });
        QVERIFY(!worker.isLatest(QStringLiteral("scope list"), first));
        QVERIFY(worker.isLatest(QStringLiteral("scope list"), second));
        go.release();
        QVERIFY(waitIdle(worker));
        QCOMPARE(answered, QStringList({ QStringLiteral("second") }));
    }

    // A kind superseded with no newer job posted (another scope chosen, its request still to come): a job running
    // answers nothing, one waiting never runs, other kinds answer; a job posted after answers.
    void supersededJobsAnswerNothing()
    {
        StoreWorker worker(m_db, StoreAccess::ReadOnly);
        QSemaphore started, go;
        std::atomic<int> ran { 0 };
        QStringList answered;
        auto job = [&](const QString& kind, int bit, bool blocks) {
            worker.post(
                kind, this,
                [&ran, &started, &go, bit, blocks](RunStore& store) {
                    if (blocks) {
                        started.release();
                        go.acquire();
                    }
                    ran |= 1 << bit;
                    return store.runCount();
                },
                [&answered, bit](const Result<long long>& n) {
                    QVERIFY(n.ok());
                    answered << QString::number(bit);
                });
        };
        const QString scope = QStringLiteral("scope");
        job(scope, 1, true); // running when superseded
        started.acquire();
        worker.supersede(scope);
        go.release();
        QVERIFY(waitIdle(worker));
        QCOMPARE(ran.load(), 1 << 1);
        QCOMPARE(answered, QStringList());
        job(QStringLiteral("blocker"), 2, true);
        job(scope, 3, false); // waiting behind the blocker when superseded
        job(QStringLiteral("series"), 4, false);
        started.acquire();
        worker.supersede(scope);
        go.release();
        QVERIFY(waitIdle(worker));
        QCOMPARE(ran.load(), (1 << 1) | (1 << 2) | (1 << 4));
        QCOMPARE(answered, QStringList({ QStringLiteral("2"), QStringLiteral("4") }));
        job(scope, 5, false);
        QVERIFY(waitIdle(worker));
        QCOMPARE(answered, QStringList({ QStringLiteral("2"), QStringLiteral("4"), QStringLiteral("5") }));
    }

    // Jobs without a kind (deletions, exports) all run and answer, in the order posted; kinds do not mix; an answer
    // whose receiver is gone is not delivered.
    void jobsWithoutAKindAllAnswerInOrder()
    {
        StoreWorker worker(m_db, StoreAccess::ReadOnly);
        std::vector<int> answered;
        for (int k = 0; k < 5; ++k)
            worker.post(
                QString(), this, [k](RunStore&) { return k; }, [&](Result<int> v) { answered.push_back(*v); });
        worker.post(
            QStringLiteral("a"), this, [](RunStore&) { return 10; }, [&](Result<int> v) { answered.push_back(*v); });
        worker.post(
            QStringLiteral("b"), this, [](RunStore&) { return 11; }, [&](Result<int> v) { answered.push_back(*v); });
        auto* gone = new QObject;
        worker.post(
            QString(), gone, [](RunStore&) { return 12; }, [&](Result<int> v) { answered.push_back(*v); });
        delete gone;
        QVERIFY(waitIdle(worker));
        QCOMPARE(answered, std::vector<int>({ 0, 1, 2, 3, 4, 10, 11 }));
    }

    // A store that cannot be opened fails every job with its reason.
    void aStoreThatCannotBeOpenedFailsEveryJob()
    {
        StoreWorker worker(m_dir.filePath(QStringLiteral("no/such/dir/store.sqlite")), StoreAccess::ReadOnly);
        QString error;
        worker.post(
            QStringLiteral("x"), this, [](RunStore& s) { return s.runCount(); },
            [&](const Result<long long>& n) { error = n ? QString() : QString::fromStdString(n.error()); });
        QVERIFY(waitIdle(worker));
        QVERIFY2(!error.isEmpty(), "an error");
    }

    // The worker's thread gives way to the GUI thread on a loaded machine (kBehindTheGuiNice on Linux), and so do the
    // threads it starts; the GUI thread keeps its own share, also when it asks for the same.
    void theWorkerRunsBehindTheGui()
    {
#ifdef __linux__
        auto niceOfThisThread = [] {
            errno = 0;
            const int n = getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)));
            return errno == 0 ? n : -100;
        };
        const int gui = niceOfThisThread();
        if (gui >= kBehindTheGuiNice)
            QSKIP("the tests run at a nice value as high as the worker's already");
        StoreWorker worker(m_db, StoreAccess::ReadOnly);
        std::pair<int, int> answer { -100, -100 };
        worker.post(
            QStringLiteral("nice"), this,
            [&](RunStore&) {
                int started = -100;
                std::thread t([&] { started = niceOfThisThread(); });
                t.join();
                return std::pair { niceOfThisThread(), started };
            },
            [&](Result<std::pair<int, int>> n) { answer = *n; });
        QVERIFY(waitIdle(worker));
        QCOMPARE(answer.first, kBehindTheGuiNice);
        QCOMPARE(answer.second, kBehindTheGuiNice);
        runBehindTheGui(); // as a pool's task run on the GUI thread by a wait for its future
        QCOMPARE(niceOfThisThread(), gui);
#else
        QSKIP("a thread's own nice value is Linux's");
#endif
    }

    // The Runs tab on a 200,000-run store: the tab opens before any row is read, the first page arrives later while
    // the event loop turns, scrolling to the bottom reads the next page; the count comes from the store.
    void runsTabOpensAtOnceAndPagesAsItScrolls()
    {
        auto store = openStore(m_db.toStdString(), false);
        QVERIFY(store.ok());
        MainWindow window(std::move(*store));
        window.setShowImportResults(false);
        window.resize(1400, 900);
        window.show();
        QSignalSpy shown(&window, &MainWindow::scopeShown);
        QVERIFY(shown.wait(20000));
        if (!window.scopeData() || window.scopeData()->scope.model != "synthetic/model-0") {
            QVERIFY(window.filters()->selectScope(QStringLiteral("synthetic/model-0"), {}, 1024, 1024));
            QVERIFY(shown.wait(20000));
        }
        // every run: this store repeats 640 configurations, all undated, and the Runs tab lists the runs the frontiers
        // are built from (with the latest per configuration, 640 of them)
        window.filters()->runDates()->setRuns(RunSelection::All);
        QVERIFY(shown.wait(20000));
        long long inScope = 0;
        for (const Series& s : window.scopeData()->series)
            inScope += s.runs;
        QCOMPARE(static_cast<long long>(window.scopeData()->runCount), inScope);
        QVERIFY2(inScope > 2 * long(RunsModel::kPageSize), qPrintable(QString::number(inScope)));

        RunsModel* model = window.runs()->model();
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy page(model, &RunsModel::pageLoaded);
        GapMeter meter;
        window.findChild<QTabWidget*>()->setCurrentWidget(window.runs());
        // the tab is open and nothing was read on this thread: the rows come later
        QCOMPARE(model->rowCount(), 0);
        QVERIFY(model->loading());
        QCOMPARE(window.runs()->countText(), QStringLiteral("Reading runs…"));
        QVERIFY(page.wait(20000));
        QCOMPARE(page.at(0).at(0).toString(), QString());
        qInfo("first page of %d rows; the event loop turned %d times meanwhile, its longest stand %.1f ms",
            model->rowCount(), meter.ticks(), meter.longestMs());
        QCOMPARE(model->rowCount(), int(RunsModel::kPageSize));
        QCOMPARE(model->total(), inScope);
        QVERIFY(model->rowCount() < model->total());
        QVERIFY(window.runs()->countText().contains(QStringLiteral("scroll for more")));

        // scrolling to the bottom asks for the next page, after the last id of the first
        QTableView* table = window.runs()->table();
        table->scrollToBottom(); // the scroll bar at its end: the view asks the model for more
        if (!model->loading() && model->canFetchMore({}))
            table->model()->fetchMore({}); // the view's layout had not caught up: fetch as it would
        QVERIFY(model->loading());
        QCOMPARE(model->rowCount(), int(RunsModel::kPageSize)); // the call returned before the rows came
        QVERIFY(page.wait(20000));
        QCOMPARE(model->rowCount(), int(2 * RunsModel::kPageSize));
        for (std::size_t i = 1; i < model->runs().size(); ++i)
            QVERIFY2(model->runs()[i - 1].id < model->runs()[i].id,
                qPrintable(QStringLiteral("row %1: id %2 after %3")
                               .arg(i)
                               .arg(model->runs()[i].id)
                               .arg(model->runs()[i - 1].id)));

        // the filter works on the rows read and says so
        window.runs()->setFilterText(QStringLiteral("no-such-word"));
        QCOMPARE(window.runs()->proxy()->rowCount(), 0);
        window.runs()->setFilterText(QString());
    }
};

PARETOSCOPE_SUITE(TestStoreWorker)
#include "tst_storeworker.moc"
