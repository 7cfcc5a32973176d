// Live sessions against a server or a store that fails: the preflight tried again on 429 and 5xx, a failed session
// recorded with its reason, levels marked when their requests failed or were cut off, and levels the store cannot
// take kept in the session's own file until `sessions --recover` stores them.
#include <QtTest>

#include <QProcess>
#include <QTemporaryDir>

#include "core/analysis/frontiercache.h"
#include "core/live/sessionjournal.h"
#include "core/live/sessionstore.h"
#include "core/live/sweep.h"
#include "core/store/sqlite.h"
#include "core/store/writetransaction.h"
#include "tests/support/sessionconfigs.h"
#include "tests/support/simprocess.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;

namespace {

Scope scopeOf(const RunRecord& r, bool includeMarked)
{
    Scope s;
    s.model = r.model;
    s.workload = r.workload;
    s.isl = r.isl;
    s.osl = r.osl;
    s.includeMarked = includeMarked;
    return s;
}

} // namespace

class TestSessionFaults : public QObject {
    Q_OBJECT

private slots:
    // A server that refuses its first requests (starting up: 503; overloaded: 429) is asked again: two refusals of
    // the model list and of the test request still give a whole session; three end it, recorded as failed with why.
    void preflightIsTriedThreeTimes_data()
    {
        QTest::addColumn<QString>("status");
        QTest::addColumn<int>("refusals");
        QTest::addColumn<bool>("finishes");
        QTest::newRow("503 twice") << "503" << 2 << true;
        QTest::newRow("429 twice") << "429" << 2 << true;
        QTest::newRow("503 three times") << "503" << 3 << false;
    }

    void preflightIsTriedThreeTimes()
    {
        QFETCH(QString, status);
        QFETCH(int, refusals);
        QFETCH(bool, finishes);
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        SimProcess sim({ QStringLiteral("--ttft-ms"), QStringLiteral("2"), QStringLiteral("--itl-ms"),
            QStringLiteral("1"), QStringLiteral("--fail-first"), QString::number(refusals),
            QStringLiteral("--fail-first-status"), status });
        QVERIFY(sim.ok());
        auto out = runSession(*store, quickConfig(sim.url().toStdString()), "");
        QVERIFY(out);
        const auto list = sessions(*store);
        QCOMPARE(list.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(list.front().status), QString::fromStdString(out->status));
        if (finishes) {
            QCOMPARE(QString::fromStdString(out->status), QStringLiteral("finished"));
            QCOMPARE(out->levels.size(), std::size_t(2));
            QCOMPARE(list.front().levels, 2);
        } else {
            QCOMPARE(QString::fromStdString(out->status), QStringLiteral("failed"));
            QVERIFY2(QString::fromStdString(out->reason).contains(QStringLiteral("HTTP ") + status)
                    && QString::fromStdString(out->reason).contains(QStringLiteral("3 tries")),
                out->reason.c_str());
            QCOMPARE(QString::fromStdString(list.front().reason), QString::fromStdString(out->reason));
            QCOMPARE(list.front().levels, 0);
        }
    }

    // A level with more than 5% of its requests failed, or one cut off by the stall timeout, is stored marked with
    // why; the frontier leaves it out unless marked runs are asked for.
    void untrustedLevelsAreMarked_data()
    {
        QTest::addColumn<QStringList>("faults");
        QTest::addColumn<double>("stallTimeout");
        QTest::addColumn<QString>("why");
        QTest::newRow("a fifth fail") << QStringList { QStringLiteral("--fail-500"), QStringLiteral("0.2"),
            QStringLiteral("--seed"), QStringLiteral("3") }
                                      << 60.0 << "requests failed";
        QTest::newRow("a stalled stream") << QStringList { QStringLiteral("--stall"), QStringLiteral("0.1"),
            QStringLiteral("--seed"), QStringLiteral("5") }
                                          << 1.0 << QStringLiteral("cut off by a timeout");
    }

    void untrustedLevelsAreMarked()
    {
        QFETCH(QStringList, faults);
        QFETCH(double, stallTimeout);
        QFETCH(QString, why);
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        SimProcess sim(QStringList { QStringLiteral("--ttft-ms"), QStringLiteral("2"), QStringLiteral("--itl-ms"),
                           QStringLiteral("1") }
            + faults);
        SessionConfig c = quickConfig(sim.url().toStdString());
        c.concurrencies = { 8 };
        c.stallTimeout = stallTimeout;
        auto out = runSession(*store, c, "");
        QVERIFY(out);
        // its only level is not trusted: the session failed, saying so, and the level is kept, marked
        QVERIFY2(out->status == "failed", out->reason.c_str());
        QVERIFY2(QString::fromStdString(out->reason)
                     .startsWith(QStringLiteral("every level is marked as not trusted (level 1: ")),
            out->reason.c_str());
        QCOMPARE(out->levels.size(), std::size_t(1));
        const LevelOutcome& level = out->levels.front();
        const RunRecord& r = level.record;
        QVERIFY2(QString::fromStdString(r.marked).contains(why), r.marked.c_str());
        // the rule, checked against the level's own counts
        const double failedShare
            = double(level.metrics.failed) / double(level.metrics.completed + level.metrics.failed);
        QCOMPARE(failedShare > 0.05 || level.metrics.cutByTimeout > 0, true);
        QVERIFY(level.json.find("\"marked\":\"") != std::string::npos);
        auto stored = store->runs({ level.runId });
        QCOMPARE(stored.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(stored.front().record.marked), QString::fromStdString(r.marked));

        FrontierCache cache(*store);
        QVERIFY(cache.frontiers(scopeOf(r, false), TputMetric::Total).empty());
        const auto& with = cache.frontiers(scopeOf(r, true), TputMetric::Total);
        QCOMPARE(with.size(), std::size_t(1));
        QCOMPARE(with.front().points.front().runId, level.runId);
        // drawn all the same, as marked
        auto points = store->runPoints({ store->series(scopeOf(r, false)).front().id }, TputMetric::Total);
        QCOMPARE(points.size(), std::size_t(1));
        QVERIFY(points.front().marked);
    }

    // A healthy level is not marked.
    void aHealthyLevelIsNotMarked()
    {
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        SimProcess sim(
            { QStringLiteral("--ttft-ms"), QStringLiteral("2"), QStringLiteral("--itl-ms"), QStringLiteral("1") });
        auto out = runSession(*store, quickConfig(sim.url().toStdString()), "");
        QVERIFY(out && out->status == "finished");
        for (const LevelOutcome& lo : out->levels)
            QVERIFY2(lo.record.marked.empty(), lo.record.marked.c_str());
    }

    // A store that cannot take a level (here another writer holds it and the wait is given up, as a full disk or a
    // damaged file would refuse it) does not lose the level: it is reported, kept in the session's own file, and
    // `paretoscope-cli sessions --recover` stores it later, as measured.
    void levelsTheStoreCannotTakeAreKeptAndStoredLater()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("store.sqlite"));
        auto store = RunStore::open(db.toStdString());
        QVERIFY(store);
        auto holder = RunStore::open(db.toStdString());
        QVERIFY(holder);
        (*store)->setWaitFn([](const std::string&, double) { return false; });
        SimProcess sim(
            { QStringLiteral("--ttft-ms"), QStringLiteral("2"), QStringLiteral("--itl-ms"), QStringLiteral("1") });
        std::optional<WriteTransaction> held;
        SessionEvents events;
        events.progress = [&](int, int, const LevelProgress&) {
            if (!held) { // the session has started: from now on another writer has the store
                auto t = WriteTransaction::begin(**holder, "a test holding the store");
                if (t)
                    held.emplace(std::move(*t));
            }
            return true;
        };
        std::vector<LevelOutcome> reported;
        events.levelStored = [&](const LevelOutcome& lo) { reported.push_back(lo); };
        auto out = runSession(**store, quickConfig(sim.url().toStdString()), "", events);
        QVERIFY(out);
        QVERIFY(held);
        QCOMPARE(reported.size(), std::size_t(2));
        for (const LevelOutcome& lo : reported) {
            QCOMPARE(lo.runId, 0LL);
            QVERIFY2(QString::fromStdString(lo.storeError).contains(QStringLiteral("another process is writing")),
                lo.storeError.c_str());
            QVERIFY(QFileInfo::exists(QString::fromStdString(lo.keptIn)));
        }
        QCOMPARE(sessionjournal::pendingLevels(db.toStdString()), 2);
        held.reset(); // the other writer is done
        QVERIFY(sessionLevels(**store, out->sessionId).empty());

        QProcess cli;
        cli.start(
            cliProgram(), { QStringLiteral("sessions"), QStringLiteral("--db"), db, QStringLiteral("--recover") });
        QVERIFY(cli.waitForFinished(60000));
        const QByteArray said = cli.readAllStandardOutput();
        QVERIFY2(cli.exitCode() == 0, said.constData());
        QVERIFY2(said.contains("2 level(s) stored") && said.contains("its end recorded"), said.constData());
        QCOMPARE(sessionjournal::pendingLevels(db.toStdString()), 0);
        const auto levels = sessionLevels(**store, out->sessionId);
        QCOMPARE(levels.size(), std::size_t(2));
        for (std::size_t i = 0; i < levels.size(); ++i) {
            auto run = (*store)->runs({ levels[i].runId });
            QCOMPARE(run.size(), std::size_t(1));
            QCOMPARE(contentHash(run.front().record), contentHash(reported[i].record));
            QCOMPARE(QString::fromStdString(levels[i].metricsJson), QString::fromStdString(reported[i].json));
            auto requests = levelRequests(**store, out->sessionId, levels[i].level);
            QVERIFY(requests);
            QCOMPARE(requests->size(), std::size_t(2 * reported[i].concurrency + 10 * reported[i].concurrency));
        }
        const auto list = sessions(**store);
        QCOMPARE(QString::fromStdString(list.front().status), QStringLiteral("finished"));
        QCOMPARE(list.front().levels, 2);
        // a second recover finds nothing to do
        cli.start(
            cliProgram(), { QStringLiteral("sessions"), QStringLiteral("--db"), db, QStringLiteral("--recover") });
        QVERIFY(cli.waitForFinished(60000));
        QVERIFY(cli.readAllStandardOutput().contains("no session files wait"));
    }

    // The file of a session that is still running (its process alive, no end written) is left for later: the session
    // may append to it at any moment.
    void aRunningSessionsFileIsLeftAlone()
    {
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        SessionConfig c = quickConfig("http://127.0.0.1:1");
        c.model = "m";
        auto id = createSession(*store, c, ""); // running, in this (live) process
        QVERIFY(id);
        LevelMetrics m;
        m.completed = 10;
        m.duration = 2;
        m.totalThroughput = 360;
        m.outputThroughput = 40;
        RunRecord r = levelRecord(c, "", "random 64/8", 1, m, LevelTelemetry {}, *id);
        QVERIFY(sessionjournal::keepLevel(store->path(), *id, 0, 1, r, "{}", {}));
        auto first = sessionjournal::recover(*store);
        QCOMPARE(first.size(), std::size_t(1));
        QVERIFY2(QString::fromStdString(first.front().error).contains(QStringLiteral("still running")),
            first.front().error.c_str());
        QCOMPARE(sessionjournal::pendingLevels(store->path()), 1);
        // once its end is written, the file is taken
        QVERIFY(sessionjournal::keepEnd(store->path(), *id, "finished", ""));
        auto second = sessionjournal::recover(*store);
        QCOMPARE(second.size(), std::size_t(1));
        QVERIFY2(second.front().error.empty(), second.front().error.c_str());
        QCOMPARE(second.front().levelsStored, 1);
        QCOMPARE(sessionjournal::pendingLevels(store->path()), 0);
        QCOMPARE(QString::fromStdString(sessions(*store).front().status), QStringLiteral("finished"));
    }
};

PARETOSCOPE_GUILESS_SUITE(TestSessionFaults)
#include "tests/support/testpaths.h"
#include "tst_sessionfaults.moc"
