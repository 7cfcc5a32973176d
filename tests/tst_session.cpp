// Live sessions end to end (recipes and the launcher alone: tst_recipes): a sweep stored level by level, faults that
// end a session (the engine killed mid-level, cancel, the CLI itself killed) and what the store holds afterwards.
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

RecipeLaunch simLaunch(const QTemporaryDir& dir, int port)
{
    RecipeLaunch l;
    l.recipe = *bundledRecipe("engine-sim-b300");
    l.parameters["port"] = std::to_string(port);
    l.logPath = dir.filePath(QStringLiteral("engine.log")).toStdString();
    l.graceSeconds = 2;
    return l;
}

} // namespace

class TestSession : public QObject {
    Q_OBJECT

private slots:
    void buildSessionDefaults_data()
    {
        QTest::addColumn<int>("gpus"); // 0: not given
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("wantGpus"); // 0: refused
        QTest::addColumn<int>("wantTp");
        QTest::newRow("neither") << 0 << 0 << 1 << 1;
        QTest::newRow("gpus: tp follows") << 8 << 0 << 8 << 8;
        QTest::newRow("tp: gpus follow") << 0 << 4 << 4 << 4;
        QTest::newRow("data parallel") << 8 << 2 << 8 << 2;
        QTest::newRow("not a multiple") << 8 << 3 << 0 << 0;
    }
    void buildSessionDefaults()
    {
        QFETCH(int, gpus);
        QFETCH(int, tp);
        QFETCH(int, wantGpus);
        QFETCH(int, wantTp);
        SessionChoices ch;
        ch.config.endpoint = "http://127.0.0.1:9/";
        ch.config.hardware = " B300 ";
        ch.config.engine = "vLLM";
        ch.config.precision = "";
        if (gpus)
            ch.gpus = gpus;
        if (tp)
            ch.tp = tp;
        auto plan = buildSession(ch);
        QCOMPARE(plan.ok(), wantGpus != 0);
        if (!plan)
            return;
        QCOMPARE(plan->config.gpus, wantGpus);
        QCOMPARE(plan->config.tp, wantTp);
        QCOMPARE(QString::fromStdString(plan->config.hardware), QStringLiteral("b300"));
        QCOMPARE(QString::fromStdString(plan->config.engine), QStringLiteral("vllm"));
        QCOMPARE(QString::fromStdString(plan->config.precision), QStringLiteral("fp4"));
        QCOMPARE(QString::fromStdString(plan->config.endpoint), QStringLiteral("http://127.0.0.1:9"));
        QVERIFY(!plan->launch);
    }

    void buildSessionFromRecipe()
    {
        SessionChoices ch;
        ch.launch.emplace();
        ch.launch->recipe = bundledRecipe("vllm-b300-nvfp4").value();
        ch.tp = 4;
        auto plan = buildSession(ch);
        QVERIFY2(plan.ok(), plan.ok() ? "" : plan.error().c_str());
        QCOMPARE(plan->config.tp, 4);
        QCOMPARE(plan->config.gpus, 4); // gpus = tp x pp, pp 1
        QCOMPARE(QString::fromStdString(plan->config.recipe), QStringLiteral("vllm-b300-nvfp4"));
        QCOMPARE(QString::fromStdString(plan->launch->parameters.at("tp")), QStringLiteral("4"));
        ch.gpus = 8; // more GPUs than tp: kept, and kept by the launch's own configForRecipe
        plan = buildSession(ch);
        QVERIFY(plan.ok());
        QCOMPARE(plan->config.gpus, 8);
        QCOMPARE(configForRecipe(plan->config, *plan->launch)->gpus, 8);
        SessionChoices endpoint; // an endpoint must be named and its runs labelled
        endpoint.config.endpoint = "http://127.0.0.1:9";
        QVERIFY(!buildSession(endpoint).ok());
    }

    void aSweepIsStoredLevelByLevel()
    {
        QTemporaryDir dir;
        auto store = testsupport::openTempStore(dir);
        SimProcess sim(
            { QStringLiteral("--ttft-ms"), QStringLiteral("20"), QStringLiteral("--itl-ms"), QStringLiteral("5") });
        QVERIFY(sim.ok());
        SessionConfig c = quickConfig(sim.url().toStdString());
        c.slo.ttft = 0.5;
        std::vector<long long> seenRuns;
        SessionEvents events;
        events.levelStored = [&](const LevelOutcome& lo) {
            // the run is in the store the moment the level is reported, while the sweep goes on
            seenRuns.push_back(lo.runId);
            QCOMPARE(int(store->runs({ lo.runId }).size()), 1);
        };
        auto out = runSession(*store, c, "", events);
        QVERIFY2(out, out ? "" : out.error().c_str());
        QCOMPARE(QString::fromStdString(out->status), QStringLiteral("finished"));
        QCOMPARE(QString::fromStdString(out->simulation), QStringLiteral("sim-fixed"));
        QCOMPARE(int(seenRuns.size()), 2);
        auto runs = store->runs(seenRuns);
        QCOMPARE(int(runs.size()), 2);
        const RunRecord& r = runs[1].record;
        QCOMPARE(QString::fromStdString(r.hardware), QStringLiteral("sim-fixed")); // never mixed with a real B300
        QCOMPARE(QString::fromStdString(r.engine), QStringLiteral("engine-sim"));
        QVERIFY(QString::fromStdString(r.provenance.note).startsWith(QStringLiteral("SIMULATION")));
        QCOMPARE(r.concurrency, 4);
        QCOMPARE(*r.completed, 40LL);
        // per GPU: the level's throughput over the session's 2 GPUs; interactivity from the median TPOT
        const LevelMetrics& m = out->levels[1].metrics;
        QVERIFY(std::abs(*r.tputPerGpu - m.totalThroughput / 2) < 1e-9);
        QVERIFY(std::abs(*r.interactivity - 1 / *m.tpot.median) < 1e-9);
        // ITL 5 ms: at most 200 tok/s/user, less when the machine is loaded (sanitizers, suites run side by side)
        QVERIFY2(*r.interactivity > 120 && *r.interactivity < 205, std::to_string(*r.interactivity).c_str());
        // the raw requests come back and give the same metrics
        auto raw = levelRequests(*store, out->sessionId, 1);
        QVERIFY(raw);
        QCOMPARE(int(raw->size()), 48); // 40 measured, 8 warm-ups
        LevelMetrics again = computeLevelMetrics(*raw, c.slo);
        QCOMPARE(*again.ttft.median, *m.ttft.median);
        QCOMPARE(*again.tpot.p99, *m.tpot.p99);
        QCOMPARE(*again.goodput, *m.goodput);
        auto list = sessions(*store);
        QCOMPARE(int(list.size()), 1);
        QCOMPARE(list[0].levels, 2);
        QCOMPARE(QString::fromStdString(list[0].config.endpoint), sim.url());
        QCOMPARE(QString::fromStdString(store->integrityCheck()), QStringLiteral("ok"));
    }

    void textPromptsWhereIdsAreRefused()
    {
        QTemporaryDir dir;
        auto store = testsupport::openTempStore(dir);
        SimProcess sim({ QStringLiteral("--ttft-ms"), QStringLiteral("2"), QStringLiteral("--itl-ms"),
            QStringLiteral("1"), QStringLiteral("--text-only") });
        QVERIFY(sim.ok());
        std::vector<std::string> notes;
        SessionEvents events;
        events.note = [&](const std::string& s) { notes.push_back(s); };
        auto out = runSession(*store, quickConfig(sim.url().toStdString()), "", events);
        QVERIFY(out);
        QCOMPARE(QString::fromStdString(out->status), QStringLiteral("finished"));
        bool told = false;
        for (const auto& n : notes)
            told = told || n.find("refused token-id prompts") != std::string::npos;
        QVERIFY(told);
        QCOMPARE(out->levels[0].metrics.failed, 0LL);
    }

    // A wrong model or no server ends the session before any level, recorded as failed with its reason; an endpoint
    // that is not http(s) is refused before a session starts.
    void wrongModelOrNoServerFailsBeforeAnyLevel()
    {
        QTemporaryDir dir;
        auto store = testsupport::openTempStore(dir);
        SimProcess sim({ QStringLiteral("--ttft-ms"), QStringLiteral("2"), QStringLiteral("--itl-ms"),
            QStringLiteral("1"), QStringLiteral("--model"), QStringLiteral("served-model") });
        SessionConfig c = quickConfig(sim.url().toStdString());
        c.model = "other-model";
        auto out = runSession(*store, c, "");
        QVERIFY(out);
        QCOMPARE(QString::fromStdString(out->status), QStringLiteral("failed"));
        QVERIFY2(QString::fromStdString(out->reason).contains(QStringLiteral("serves served-model, not other-model")),
            out->reason.c_str());
        QVERIFY(out->levels.empty());
        c.endpoint = "http://127.0.0.1:" + std::to_string(freePort());
        out = runSession(*store, c, "");
        QVERIFY(out);
        QCOMPARE(QString::fromStdString(out->status), QStringLiteral("failed"));
        QVERIFY2(QString::fromStdString(out->reason).contains(QStringLiteral("cannot reach the server"))
                && QString::fromStdString(out->reason).contains(QStringLiteral("3 tries")),
            out->reason.c_str());
        auto list = sessions(*store);
        QCOMPARE(list.size(), std::size_t(2));
        for (const SessionInfo& s : list) {
            QCOMPARE(QString::fromStdString(s.status), QStringLiteral("failed"));
            QCOMPARE(s.levels, 0);
        }
        QVERIFY(QString::fromStdString(list[1].reason).contains(QStringLiteral("not other-model"))); // newest first
        c.endpoint = "file:///etc/passwd";
        out = runSession(*store, c, "");
        QVERIFY(!out);
        QVERIFY(QString::fromStdString(out.error()).contains(QStringLiteral("only http")));
        QCOMPARE(sessions(*store).size(), std::size_t(2));
    }

    void everyRequestFailingEndsTheSession()
    {
        QTemporaryDir dir;
        auto store = testsupport::openTempStore(dir);
        SimProcess sim({ QStringLiteral("--ttft-ms"), QStringLiteral("2"), QStringLiteral("--itl-ms"),
            QStringLiteral("1"), QStringLiteral("--fail-500"), QStringLiteral("1") });
        auto out = runSession(*store, quickConfig(sim.url().toStdString()), "");
        // the test request itself fails with 500, three times: no level starts, and the session says why
        QVERIFY(out);
        QCOMPARE(QString::fromStdString(out->status), QStringLiteral("failed"));
        QVERIFY2(QString::fromStdString(out->reason).contains(QStringLiteral("HTTP 500"))
                && QString::fromStdString(out->reason).contains(QStringLiteral("3 times")),
            out->reason.c_str());
        QVERIFY(out->levels.empty());
        QCOMPARE(QString::fromStdString(sessions(*store).front().status), QStringLiteral("failed"));
    }

    void engineKilledMidLevelKeepsFinishedLevels()
    {
        QTemporaryDir dir;
        auto store = testsupport::openTempStore(dir);
        int port = freePort();
        SessionConfig c;
        c.isl = 64;
        c.osl = 64;
        c.concurrencies = { 2, 8 };
        SessionEvents events;
        bool killed = false;
        events.progress = [&](int level, int, const LevelProgress& p) {
            if (level == 1 && p.elapsed > 0.2 && !killed) {
                for (pid_t pid : processesWith({ "paretoscope-engine-sim", "--port " + std::to_string(port) }))
                    ::kill(pid, SIGKILL);
                killed = true;
            }
            return true;
        };
        auto out = runRecipeSession(*store, c, simLaunch(dir, port), "", events);
        QVERIFY2(out, out ? "" : out.error().c_str());
        QVERIFY(killed);
        QCOMPARE(QString::fromStdString(out->status), QStringLiteral("failed"));
        QVERIFY2(QString::fromStdString(out->reason).contains(QStringLiteral("the engine stopped during level 2")),
            out->reason.c_str());
        QVERIFY(QString::fromStdString(out->reason).contains(QStringLiteral("killed by signal 9")));
        QCOMPARE(int(out->levels.size()), 1);
        auto list = sessions(*store);
        QCOMPARE(QString::fromStdString(list[0].status), QStringLiteral("failed"));
        QCOMPARE(list[0].levels, 1);
        QCOMPARE(QString::fromStdString(list[0].reason), QString::fromStdString(out->reason));
        QCOMPARE(store->runCount(), 1LL);
        QCOMPARE(QString::fromStdString(store->integrityCheck()), QStringLiteral("ok"));
    }

    void cancelLeavesNoEngineBehind()
    {
        QTemporaryDir dir;
        auto store = testsupport::openTempStore(dir);
        int port = freePort();
        SessionConfig c;
        c.isl = 64;
        c.osl = 2000;
        c.concurrencies = { 16 };
        SessionEvents events;
        events.progress = [&](int level, int, const LevelProgress& p) { return level < 0 || p.elapsed < 0.3; };
        auto out = runRecipeSession(*store, c, simLaunch(dir, port), "", events);
        QVERIFY(out);
        QCOMPARE(QString::fromStdString(out->status), QStringLiteral("cancelled"));
        QVERIFY(goneWithin({ "paretoscope-engine-sim", "--port " + std::to_string(port) }, 5));
    }

    void killedCliLeavesAConsistentStoreAndNoEngine()
    {
        // SIGKILL to the CLI mid-sweep: the finished level stays, the session reads as interrupted, the engine dies
        // with its guardian (the kernel's parent-death signal), and the store passes integrity_check
        QTemporaryDir dir;
        QString db = dir.filePath(QStringLiteral("killed.sqlite"));
        int port = freePort();
        QProcess cli;
        cli.setProgram(cliProgram());
        cli.setArguments({ QStringLiteral("bench"), QStringLiteral("--recipe"), QStringLiteral("engine-sim-b300"),
            QStringLiteral("--port"), QString::number(port), QStringLiteral("--isl"), QStringLiteral("64"),
            QStringLiteral("--osl"), QStringLiteral("32"), QStringLiteral("--concurrency"),
            QStringLiteral("2,64,64,64"), QStringLiteral("--db"), db, QStringLiteral("--engine-log"),
            dir.filePath(QStringLiteral("e.log")) });
        cli.start();
        QVERIFY(cli.waitForStarted());
        QVERIFY(cli.waitForReadyRead(30000)); // the first level's JSON line
        QByteArray first = cli.readLine();
        QVERIFY2(first.contains("\"level\":0"), first.constData());
        std::this_thread::sleep_for(std::chrono::milliseconds(300)); // well inside level 2
        ::kill(static_cast<pid_t>(cli.processId()), SIGKILL);
        cli.waitForFinished();
        QVERIFY(goneWithin({ "paretoscope-engine-sim", "--port " + std::to_string(port) }, 5));
        auto store = RunStore::open(db.toStdString());
        QVERIFY(store);
        QCOMPARE(QString::fromStdString((*store)->integrityCheck()), QStringLiteral("ok"));
        QCOMPARE(markInterruptedSessions(**store), 1);
        auto list = sessions(**store);
        QCOMPARE(QString::fromStdString(list[0].status), QStringLiteral("interrupted"));
        QVERIFY(list[0].levels >= 1);
        QCOMPARE((*store)->runCount(), static_cast<long long>(list[0].levels));
    }

    void apiKeysAreNeverWritten()
    {
        // the key goes in the Authorization header and nowhere else: not the store, not an export, not a log
        QTemporaryDir dir;
        const std::string key = "sk-paretoscope-SECRET-7f3a9";
        QString db = dir.filePath(QStringLiteral("keys.sqlite"));
        {
            auto store = RunStore::open(db.toStdString());
            // the emulator answers 401 without the key: it really is sent
            SimProcess sim({ QStringLiteral("--ttft-ms"), QStringLiteral("2"), QStringLiteral("--itl-ms"),
                QStringLiteral("1"), QStringLiteral("--api-key"), QString::fromStdString(key) });
            auto refused = runSession(**store, quickConfig(sim.url().toStdString()), "sk-wrong");
            QVERIFY(refused);
            QCOMPARE(QString::fromStdString(refused->status), QStringLiteral("failed"));
            QVERIFY2(QString::fromStdString(refused->reason).contains(QStringLiteral("401")), refused->reason.c_str());
            auto out = runSession(**store, quickConfig(sim.url().toStdString()), key);
            QVERIFY(out);
            QCOMPARE(QString::fromStdString(out->status), QStringLiteral("finished"));
        }
        QProcess cli;
        cli.setProcessEnvironment([&] {
            auto env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("OPENAI_API_KEY"), QString::fromStdString(key));
            return env;
        }());
        SimProcess sim({ QStringLiteral("--ttft-ms"), QStringLiteral("2"), QStringLiteral("--itl-ms"),
            QStringLiteral("1"), QStringLiteral("--api-key"), QString::fromStdString(key) });
        cli.start(cliProgram(),
            { QStringLiteral("bench"), QStringLiteral("--endpoint"), sim.url(), QStringLiteral("--isl"),
                QStringLiteral("16"), QStringLiteral("--osl"), QStringLiteral("4"), QStringLiteral("--concurrency"),
                QStringLiteral("2"), QStringLiteral("--hardware"), QStringLiteral("b300"), QStringLiteral("--engine"),
                QStringLiteral("vllm"), QStringLiteral("--db"), db });
        QVERIFY(cli.waitForFinished(30000));
        QCOMPARE(cli.exitCode(), 0);
        QByteArray printed = cli.readAllStandardOutput() + cli.readAllStandardError();
        QProcess exporter;
        exporter.start(cliProgram(),
            { QStringLiteral("export"), QStringLiteral("--db"), db, QStringLiteral("--model"),
                QStringLiteral("sim-model"), QStringLiteral("--isl"), QStringLiteral("16"), QStringLiteral("--osl"),
                QStringLiteral("4"), QStringLiteral("--format"), QStringLiteral("csv") });
        QVERIFY(exporter.waitForFinished(10000));
        QByteArray exported = exporter.readAllStandardOutput();
        QVERIFY(exported.contains("sim-fixed"));
        QByteArray stored;
        for (const QString& f : QDir(dir.path()).entryList(QDir::Files))
            stored += testsupport::readAll(dir.filePath(f)); // the store, its WAL and journal
        for (const QByteArray& where : { stored, printed, exported })
            QVERIFY(!where.contains(QByteArray::fromStdString(key)));
        QVERIFY(!stored.contains("SECRET"));
    }

    void requestLogsRoundTripAndRefuseDamage()
    {
        std::vector<RequestLog> logs(3);
        logs[0].scheduled = 0.5;
        logs[0].sent = 0.51;
        logs[0].firstToken = 0.6;
        logs[0].end = 1.2;
        logs[0].chunks = { 0.09f, 0.3f, 0.69f };
        logs[0].inputTokens = 900;
        logs[0].serverPromptTokens = 900;
        logs[0].outputTokens = 3;
        logs[0].httpStatus = 200;
        logs[1].warmup = true;
        logs[2].error = "HTTP 429: slow down";
        logs[2].httpStatus = 429;
        std::string bytes = encodeRequests(logs);
        auto back = decodeRequests(bytes, "level");
        QVERIFY(back);
        QCOMPARE(int(back->size()), 3);
        QCOMPARE((*back)[0].chunks, logs[0].chunks);
        QCOMPARE((*back)[0].end, 1.2);
        QVERIFY((*back)[1].warmup);
        QCOMPARE(QString::fromStdString((*back)[2].error), QStringLiteral("HTTP 429: slow down"));
        // every truncation is an error that names the place, never a crash
        for (std::size_t n = 0; n < bytes.size(); ++n) {
            auto cut = decodeRequests(std::string_view(bytes).substr(0, n), "level");
            QVERIFY(!cut);
            QVERIFY(QString::fromStdString(cut.error()).startsWith(QStringLiteral("level:")));
        }
        std::string huge = bytes;
        huge[8] = huge[9] = huge[10] = huge[11] = '\xff';
        QVERIFY(!decodeRequests(huge, "level"));
        QVERIFY(!decodeRequests(bytes + "x", "level"));
    }

    // One concurrency rule for the CLI, the dialog and a matrix: lists by comma or space, auto in any case, nothing
    // else; the default is core's.
    void concurrencyLists_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("read"); // as written back; empty: refused
        QTest::newRow("commas") << "1,4,16,64"
                                << "1,4,16,64";
        QTest::newRow("spaces") << " 1 4  16 "
                                << "1,4,16";
        QTest::newRow("auto") << "Auto"
                              << "auto";
        QTest::newRow("letters") << "1,x,4"
                                 << "";
        QTest::newRow("zero") << "0,4"
                              << "";
        QTest::newRow("too high") << "2000000"
                                  << "";
        QTest::newRow("empty") << " , "
                               << "";
        QTest::newRow("fraction") << "1.5"
                                  << "";
    }
    void concurrencyLists()
    {
        QFETCH(QString, text);
        QFETCH(QString, read);
        auto list = parseConcurrencyList(text.toStdString());
        QCOMPARE(list.ok(), !read.isEmpty());
        if (list)
            QCOMPARE(QString::fromStdString(concurrencyListText(*list)), read);
        else
            QVERIFY(list.error().find("concurrency levels") != std::string::npos
                || list.error().find("no concurrency levels") != std::string::npos);
        QCOMPARE(SessionConfig {}.concurrencies, kDefaultConcurrencies);
    }

    void sessionConfigReadsBackAndNamesBadFields()
    {
        SessionConfig c = quickConfig("http://h:1");
        c.workload = "agentic";
        c.agentic.turns = 5;
        c.slo.tpot = 0.02;
        c.requestRate = 3.5;
        auto back = parseSessionConfig(sessionConfigJson(c), "s");
        QVERIFY(back);
        QCOMPARE(back->agentic.turns, 5);
        QCOMPARE(*back->slo.tpot, 0.02);
        QCOMPARE(*back->requestRate, 3.5);
        QCOMPARE(back->concurrencies, c.concurrencies);
        for (const auto& [json, field] : std::vector<std::pair<std::string, std::string>> {
                 { R"({"tp":"8"})", "field tp" }, { R"({"concurrencies":[1,0]})", "field concurrencies" },
                 { R"({"agentic":{"turns":-1}})", "field agentic.turns" }, { R"({"api_key":"x"})", "field api_key" },
                 { R"({"slo":{"ttft":"fast"}})", "field slo.ttft" }, { R"([1])", "not a JSON object" } }) {
            auto r = parseSessionConfig(json, "s");
            QVERIFY2(!r, json.c_str());
            QVERIFY2(QString::fromStdString(r.error()).contains(QString::fromStdString(field)), r.error().c_str());
        }
    }
};

PARETOSCOPE_GUILESS_SUITE(TestSession)
#include "tests/support/testpaths.h"
#include "tst_session.moc"
