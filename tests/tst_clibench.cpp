// paretoscope-cli bench end to end against the engine emulator: repeats as runs of one configuration, a line per
// level and a runnable sbatch, client threads in the level options.
#include <QtTest>

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <chrono>
#include <csignal>
#include <thread>

#include "core/analysis/frontiercache.h"
#include "core/live/recipesession.h"
#include "core/live/requestcodec.h"
#include "core/live/sessionconfig.h"
#include "core/live/sessionsetup.h"
#include "core/live/sessionstore.h"
#include "core/live/sweep.h"
#include "tests/support/processutil.h"
#include "tests/support/sessionconfigs.h"
#include "tests/support/simprocess.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;

namespace {

} // namespace

class TestCliBench : public QObject {
    Q_OBJECT

private slots:
    // --repeats N: each level N times, stored as N runs of one configuration; the frontiers then carry the spread of
    // reruns, its low and high frontiers built from each configuration's lowest and highest run (checked against the
    // stored runs, grouped here by concurrency)
    void cliBenchRepeatsEachLevelAsRunsOfOneConfiguration()
    {
        QTemporaryDir dir;
        SimProcess sim(
            { QStringLiteral("--ttft-ms"), QStringLiteral("5"), QStringLiteral("--itl-ms"), QStringLiteral("2") });
        QString db = dir.filePath(QStringLiteral("repeats.sqlite"));
        QProcess cli;
        cli.start(cliProgram(),
            { QStringLiteral("bench"), QStringLiteral("--endpoint"), sim.url(), QStringLiteral("--model"),
                QStringLiteral("sim-model"), QStringLiteral("--isl"), QStringLiteral("32"), QStringLiteral("--osl"),
                QStringLiteral("8"), QStringLiteral("--concurrency"), QStringLiteral("1,4"),
                QStringLiteral("--repeats"), QStringLiteral("3"), QStringLiteral("--hardware"), QStringLiteral("b300"),
                QStringLiteral("--engine"), QStringLiteral("vllm"), QStringLiteral("--db"), db });
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 0);
        QList<QByteArray> lines = cli.readAllStandardOutput().trimmed().split('\n');
        QCOMPARE(lines.size(), 6);
        for (int i = 0; i < 6; ++i)
            QCOMPARE(QJsonDocument::fromJson(lines[i]).object()[QStringLiteral("concurrency")].toInt(), i < 3 ? 1 : 4);
        auto store = RunStore::open(db.toStdString());
        QVERIFY(store);
        std::map<int, std::vector<const StoredRun*>> byConcurrency;
        const auto runs = (*store)->allRuns();
        for (const StoredRun& r : runs)
            byConcurrency[r.record.concurrency].push_back(&r);
        QCOMPARE(byConcurrency.size(), std::size_t(2));
        for (const auto& [c, list] : byConcurrency)
            QCOMPARE(list.size(), std::size_t(3));
        Scope scope;
        scope.model = "sim-model";
        scope.isl = 32;
        scope.osl = 8;
        for (RunSelection mode : { RunSelection::All, RunSelection::Latest }) {
            scope.runs = mode;
            FrontierCache cache(**store);
            const auto& groups = cache.frontiers(scope, TputMetric::Total);
            QCOMPARE(groups.size(), std::size_t(1));
            QVERIFY(groups[0].hasSpread());
            // every knot of the low (high) frontier is a configuration's lowest (highest) run
            for (const auto* curve : { &groups[0].low, &groups[0].high })
                for (const Point& k : curve->knots()) {
                    const StoredRun* run = nullptr;
                    for (const StoredRun& r : runs)
                        run = r.id == k.runId ? &r : run;
                    QVERIFY(run);
                    double lo = 1e300, hi = 0;
                    for (const StoredRun* r : byConcurrency[run->record.concurrency]) {
                        lo = std::min(lo, *r->record.tputPerGpu);
                        hi = std::max(hi, *r->record.tputPerGpu);
                    }
                    QCOMPARE(k.y, curve == &groups[0].low ? lo : hi);
                }
            if (mode == RunSelection::Latest) // the reading is of the last repeat of each level
                for (const Point& k : groups[0].points)
                    for (const auto& [c, list] : byConcurrency)
                        if (std::any_of(list.begin(), list.end(), [&](auto* r) { return r->id == k.runId; }))
                            QCOMPARE(k.runId, list.back()->id);
        }
    }

    void cliBenchPrintsALinePerLevelAndWritesARunnableSbatch()
    {
        QTemporaryDir dir;
        SimProcess sim(
            { QStringLiteral("--ttft-ms"), QStringLiteral("5"), QStringLiteral("--itl-ms"), QStringLiteral("2") });
        QString db = dir.filePath(QStringLiteral("bench.sqlite"));
        QStringList args { QStringLiteral("bench"), QStringLiteral("--endpoint"), sim.url(), QStringLiteral("--model"),
            QStringLiteral("sim-model"), QStringLiteral("--isl"), QStringLiteral("32"), QStringLiteral("--osl"),
            QStringLiteral("8"), QStringLiteral("--concurrency"), QStringLiteral("1,3"), QStringLiteral("--hardware"),
            QStringLiteral("B300"), QStringLiteral("--gpus"), QStringLiteral("8"), QStringLiteral("--engine"),
            QStringLiteral("vllm"), QStringLiteral("--db"), db };
        QProcess cli;
        cli.start(cliProgram(), args);
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 0);
        QList<QByteArray> lines = cli.readAllStandardOutput().trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        for (int i = 0; i < 2; ++i) {
            QJsonObject o = QJsonDocument::fromJson(lines[i]).object();
            QCOMPARE(o[QStringLiteral("level")].toInt(), i);
            QCOMPARE(o[QStringLiteral("concurrency")].toInt(), i == 0 ? 1 : 3);
            QCOMPARE(o[QStringLiteral("completed")].toInt(), i == 0 ? 10 : 30);
            QVERIFY(std::abs(o[QStringLiteral("tpot_s")].toObject()[QStringLiteral("median")].toDouble() - 0.002)
                < 0.0005); // seconds
            QVERIFY(o[QStringLiteral("simulation")].toBool());
            QVERIFY(std::abs(o[QStringLiteral("tput_per_gpu")].toDouble()
                        - o[QStringLiteral("total_token_throughput")].toDouble() / 8)
                < 1e-6);
        }
        // the Slurm script: same command, a results file that imports
        QString script = dir.filePath(QStringLiteral("run.sbatch"));
        QProcess emitter;
        emitter.start(cliProgram(), args + QStringList { QStringLiteral("--emit-sbatch"), script });
        QVERIFY(emitter.waitForFinished(10000));
        QCOMPARE(emitter.exitCode(), 0);
        QString text = QString::fromUtf8(testsupport::readAll(script));
        QVERIFY(text.contains(QStringLiteral("#SBATCH --gpus-per-node=8")));
        QVERIFY(!text.contains(db)); // the node writes its own store
        QProcess bash;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PARETOSCOPE_CLI"), cliProgram());
        env.insert(QStringLiteral("RESULTS"), dir.filePath(QStringLiteral("node")));
        bash.setProcessEnvironment(env);
        bash.start(QStringLiteral("bash"), { script });
        QVERIFY(bash.waitForFinished(60000));
        QVERIFY2(bash.exitCode() == 0, bash.readAllStandardError().constData());
        QProcess import;
        import.start(cliProgram(),
            { QStringLiteral("import"), QStringLiteral("--db"), dir.filePath(QStringLiteral("imported.sqlite")),
                dir.filePath(QStringLiteral("node.json")) });
        QVERIFY(import.waitForFinished(10000));
        QJsonObject r = QJsonDocument::fromJson(import.readAllStandardOutput().trimmed()).object();
        QVERIFY2(import.exitCode() == 0, import.readAllStandardError().constData());
        QCOMPARE(r[QStringLiteral("imported")].toInt(), 2);
    }

    // --client-threads reaches each level's load generator; left out, a level chooses one thread per 256 streams
    // (at least one, at most the hardware threads)
    void clientThreadsReachTheLevelOptions()
    {
        QCOMPARE(automaticClientThreads(1, 16), 1);
        QCOMPARE(automaticClientThreads(256, 16), 1);
        QCOMPARE(automaticClientThreads(257, 16), 2);
        QCOMPARE(automaticClientThreads(1000, 16), 4); // ceil(1000 / 256)
        QCOMPARE(automaticClientThreads(1000, 2), 2); // no more than the machine's threads
        QCOMPARE(automaticClientThreads(100000, 0), 1); // hardware_concurrency() unknown
        SessionConfig c = quickConfig("http://127.0.0.1:9");
        c.concurrencies = { 16, 600 };
        const int hw = int(std::max(1u, std::thread::hardware_concurrency()));
        QCOMPARE(levelOptions(c, 0).clientThreads, 1);
        QCOMPARE(levelOptions(c, 1).clientThreads, std::min(3, hw));
        c.clientThreads = 3;
        QCOMPARE(levelOptions(c, 0).clientThreads, 3);
        QCOMPARE(levelOptions(c, 1).clientThreads, 3);

        // the CLI's option, through buildSession, into the configuration as stored, and back
        auto cli = [](const QStringList& extra) {
            QProcess p;
            p.start(cliProgram(),
                QStringList { QStringLiteral("bench"), QStringLiteral("--print-config"), QStringLiteral("--endpoint"),
                    QStringLiteral("http://127.0.0.1:9"), QStringLiteral("--hardware"), QStringLiteral("b300"),
                    QStringLiteral("--engine"), QStringLiteral("vllm"), QStringLiteral("--isl"), QStringLiteral("64"),
                    QStringLiteral("--osl"), QStringLiteral("8"), QStringLiteral("--concurrency"),
                    QStringLiteral("1,4") }
                    + extra);
            p.waitForFinished(30000);
            return std::pair { p.exitCode(), p.readAllStandardOutput() + p.readAllStandardError() };
        };
        auto [code, out] = cli({ QStringLiteral("--client-threads"), QStringLiteral("3") });
        QCOMPARE(code, 0);
        auto stored = parseSessionConfig(out.trimmed().toStdString(), "printed");
        QVERIFY2(stored, out.constData());
        QCOMPARE(stored->clientThreads, 3);
        QCOMPARE(levelOptions(*stored, 0).clientThreads, 3);
        auto [autoCode, autoOut] = cli({});
        QCOMPARE(autoCode, 0);
        QVERIFY(!autoOut.contains("client_threads")); // left to each level
        for (const QString& bad : { QStringLiteral("0"), QStringLiteral("1025") }) {
            auto [badCode, badOut] = cli({ QStringLiteral("--client-threads"), bad });
            QCOMPARE(badCode, 2);
            QVERIFY2(badOut.contains("--client-threads"), badOut.constData());
        }

        // and in a running session: each level's load generator gets it
        SimProcess sim(
            { QStringLiteral("--ttft-ms"), QStringLiteral("2"), QStringLiteral("--itl-ms"), QStringLiteral("1") });
        QVERIFY(sim.ok());
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        QVERIFY(store);
        SessionConfig run = quickConfig(sim.url().toStdString());
        run.clientThreads = 2;
        std::vector<int> seen;
        SessionHooks hooks;
        hooks.adjustLevel = [&](LevelOptions& o) { seen.push_back(o.clientThreads); };
        auto outcome = runSession(*store, run, "", {}, hooks);
        QVERIFY2(outcome, outcome ? "" : outcome.error().c_str());
        QCOMPARE(QString::fromStdString(outcome->status), QStringLiteral("finished"));
        QCOMPARE(seen, (std::vector<int> { 2, 2 }));
    }
};

PARETOSCOPE_GUILESS_SUITE(TestCliBench)
#include "tests/support/testpaths.h"
#include "tst_clibench.moc"
