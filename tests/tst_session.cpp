// Live sessions end to end: recipes rendered to an argv (no shell), the launcher's process group, a sweep stored
// level by level, faults that end a session (the engine killed mid-level, cancel, the CLI itself killed) and what
// the store holds afterwards.
#include <QtTest>

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <chrono>
#include <csignal>
#include <dirent.h>
#include <fstream>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "core/live/enginelauncher.h"
#include "core/live/recipesession.h"
#include "core/live/requestcodec.h"
#include "core/live/sessionstore.h"
#include "core/live/sweep.h"
#include "tests/support/simprocess.h"
#include "tests/support/testutil.h"

using namespace paretoscope;
using paretoscope::testsupport::SimProcess;

namespace {

int freePort()
{
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a {};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    socklen_t len = sizeof a;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    ::close(fd);
    return ntohs(a.sin_port);
}

// Processes whose command line holds every one of the words (the engine emulator on a given port).
std::vector<pid_t> processesWith(const std::vector<std::string>& words)
{
    std::vector<pid_t> found;
    DIR* d = ::opendir("/proc");
    while (dirent* e = d ? ::readdir(d) : nullptr) {
        pid_t pid = static_cast<pid_t>(std::atoi(e->d_name));
        if (pid <= 0)
            continue;
        std::ifstream in("/proc/" + std::string(e->d_name) + "/cmdline", std::ios::binary);
        std::string cmd((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        for (char& c : cmd)
            c = c == '\0' ? ' ' : c;
        bool all = !cmd.empty();
        for (const std::string& w : words)
            all = all && cmd.find(w) != std::string::npos;
        // a zombie has an empty cmdline; a live match is what matters
        if (all)
            found.push_back(pid);
    }
    if (d)
        ::closedir(d);
    return found;
}

bool goneWithin(const std::vector<std::string>& words, double seconds)
{
    auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < until) {
        if (processesWith(words).empty())
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return processesWith(words).empty();
}

SessionConfig quickConfig(const std::string& endpoint)
{
    SessionConfig c;
    c.endpoint = endpoint;
    c.hardware = "b300";
    c.engine = "vllm";
    c.gpus = 2;
    c.isl = 64;
    c.osl = 8;
    c.concurrencies = { 1, 4 };
    return c;
}

RecipeLaunch simLaunch(const QTemporaryDir& dir, int port)
{
    RecipeLaunch l;
    l.recipe = *bundledRecipe("engine-sim-b300");
    l.parameters["port"] = std::to_string(port);
    l.logPath = dir.filePath("engine.log").toStdString();
    l.graceSeconds = 2;
    return l;
}

} // namespace

class TestSession : public QObject {
    Q_OBJECT

private slots:
    void recipesRenderTheArgvExpected_data()
    {
        QTest::addColumn<QString>("recipe");
        QTest::addColumn<QString>("ep");
        QTest::addColumn<QStringList>("argv");
        QTest::addColumn<QString>("env");
        QTest::newRow("vllm b300") << "vllm-b300-nvfp4" << "1"
                                   << QStringList { "vllm", "serve", "org/Model-FP4", "--host", "127.0.0.1", "--port",
                                          "8100", "--trust-remote-code", "--tensor-parallel-size", "4",
                                          "--max-num-seqs", "512", "--kv-cache-dtype", "fp8", "--max-model-len",
                                          "10240", "--gpu-memory-utilization", "0.9", "--no-enable-prefix-caching",
                                          "--async-scheduling" }
                                   << "CUDA_VISIBLE_DEVICES=0,1,2,3";
        QTest::newRow("vllm b300 ep") << "vllm-b300-nvfp4" << "4"
                                      << QStringList { "vllm", "serve", "org/Model-FP4", "--host", "127.0.0.1",
                                             "--port", "8100", "--trust-remote-code", "--tensor-parallel-size", "4",
                                             "--max-num-seqs", "512", "--kv-cache-dtype", "fp8", "--max-model-len",
                                             "10240", "--gpu-memory-utilization", "0.9", "--no-enable-prefix-caching",
                                             "--async-scheduling", "--enable-expert-parallel" }
                                      << "CUDA_VISIBLE_DEVICES=0,1,2,3";
        QTest::newRow("vllm mi325x") << "vllm-mi325x-mxfp4" << "1"
                                     << QStringList { "vllm", "serve", "org/Model-FP4", "--host", "127.0.0.1", "--port",
                                            "8100", "--trust-remote-code", "--tensor-parallel-size", "4",
                                            "--distributed-executor-backend", "mp", "--max-num-seqs", "256",
                                            "--kv-cache-dtype", "fp8", "--max-model-len", "10240",
                                            "--no-enable-prefix-caching" }
                                     << "HIP_VISIBLE_DEVICES=0,1,2,3";
    }
    void recipesRenderTheArgvExpected()
    {
        QFETCH(QString, recipe);
        QFETCH(QString, ep);
        QFETCH(QStringList, argv);
        QFETCH(QString, env);
        auto r = bundledRecipe(recipe.toStdString());
        QVERIFY2(r, r ? "" : r.error().c_str());
        auto plan = renderRecipe(*r,
            { { "model", "org/Model-FP4" }, { "tp", "4" }, { "ep", ep.toStdString() }, { "port", "8100" },
                { "devices", "0,1,2,3" } });
        QVERIFY2(plan, plan ? "" : plan.error().c_str());
        QStringList got;
        for (const auto& a : plan->argv)
            got << QString::fromStdString(a);
        QCOMPARE(got, argv);
        QString envText = QString::fromStdString(plan->env.front().first + "=" + plan->env.front().second);
        QCOMPARE(envText, env);
        QCOMPARE(QString::fromStdString(plan->baseUrl), QString("http://127.0.0.1:8100"));
    }

    void recipesAcceptOnlyWhatIsKnown_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("error");
        QString ok = R"({"name":"x","engine":"vllm","hardware":"b300","precision":"fp4","program":"vllm","args":["{model}"]%1})";
        QTest::newRow("unknown key") << QString(R"({"recipes":[)" + ok.arg(R"(,"shell":"bash -c")") + "]}")
                                     << "recipe 0, field shell: unknown key";
        QTest::newRow("unknown top key") << R"({"recipes":[],"hooks":1})" << "field hooks: unknown key";
        QTest::newRow("unknown placeholder")
            << QString(R"({"recipes":[)" + ok.arg(R"(,"env":{"X":"{cmd}"})") + "]}")
            << "field env.X: {cmd} is not a recipe parameter";
        QTest::newRow("program with a path")
            << R"({"recipes":[{"name":"x","engine":"e","hardware":"h","precision":"p","program":"/bin/sh","args":[]}]})"
            << "field program: a program name looked up on PATH";
        QTest::newRow("bad default") << QString(R"({"recipes":[)" + ok.arg(R"(,"defaults":{"tp":"8; reboot"})") + "]}")
                                     << "field defaults.tp: an integer";
        QTest::newRow("args not strings") << R"({"recipes":[{"name":"x","engine":"e","hardware":"h","precision":"p","program":"v","args":[1]}]})"
                                          << "field args: not an array of strings";
    }
    void recipesAcceptOnlyWhatIsKnown()
    {
        QFETCH(QString, json);
        QFETCH(QString, error);
        auto r = parseRecipes(json.toStdString(), "mine.json", true);
        QVERIFY(!r);
        QVERIFY2(QString::fromStdString(r.error()).contains(error), r.error().c_str());
        QVERIFY(QString::fromStdString(r.error()).startsWith("mine.json"));
    }

    void parametersCannotBecomeOptionsAndCustomNeedsConsent()
    {
        auto r = bundledRecipe("vllm-b300-nvfp4");
        QVERIFY(r);
        for (auto [key, value] : std::vector<std::pair<std::string, std::string>> {
                 { "model", "--load-format=evil" }, { "model", "a b" }, { "tp", "0" }, { "port", "70000" },
                 { "devices", "0;1" }, { "kv_cache_dtype", "fp8 --x" }, { "shell", "1" } }) {
            auto plan = renderRecipe(*r, { { key, value } });
            QVERIFY2(!plan, (key + "=" + value).c_str());
            QVERIFY(QString::fromStdString(plan.error()).contains(QString::fromStdString(key)));
        }
        auto mine = parseRecipes(
            R"({"recipes":[{"name":"mine","engine":"vllm","hardware":"b300","precision":"fp4","program":"vllm","args":["serve","{model}"]}]})",
            "mine.json", true);
        QVERIFY(mine);
        auto refused = renderRecipe(mine->front(), {});
        QVERIFY(!refused);
        QVERIFY(QString::fromStdString(refused.error()).contains("custom command"));
        QVERIFY(renderRecipe(mine->front(),
            { { "model", "m" }, { "tp", "1" }, { "ep", "1" }, { "max_seqs", "8" }, { "kv_cache_dtype", "auto" },
                { "port", "9000" }, { "max_model_len", "4096" }, { "devices", "0" } },
            true));
    }

    void argumentsReachTheProgramLiterally()
    {
        // a custom recipe whose arguments would do harm in a shell: they must arrive as plain text
        QTemporaryDir dir;
        std::string marker = dir.filePath("created-by-a-shell").toStdString();
        auto recipes = parseRecipes(R"J({"recipes":[{"name":"echoer","engine":"e","hardware":"h","precision":"p",
            "program":"printf","args":["%s|","$(touch )" , "; touch MARK", "`touch MARK`"],"health":["/health"]}]})J",
            "echo.json", true);
        QVERIFY(recipes);
        auto plan = renderRecipe(recipes->front(), {}, true);
        QVERIFY(!plan); // no defaults: every parameter needs a value
        Recipe r = recipes->front();
        r.defaults = bundledRecipe("engine-sim-b300")->defaults;
        for (std::string& a : r.args)
            if (a.find("MARK") != std::string::npos)
                a.replace(a.find("MARK"), 4, marker);
        plan = renderRecipe(r, {}, true);
        QVERIFY(plan);
        std::string log = dir.filePath("printf.log").toStdString();
        auto engine = EngineProcess::start(*plan, log, 1);
        QVERIFY2(engine, engine ? "" : engine.error().c_str());
        auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (!(*engine)->exitReason() && std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        QCOMPARE(QString::fromStdString(*(*engine)->exitReason()), QString("exited with code 0"));
        std::ifstream in(log);
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        QCOMPARE(QString::fromStdString(text),
            QString::fromStdString("$(touch )|; touch " + marker + "|`touch " + marker + "`|"));
        QVERIFY(!QFile::exists(QString::fromStdString(marker)));
    }

    void launcherStopsTheWholeGroup()
    {
        QTemporaryDir dir;
        int port = freePort();
        auto plan = renderRecipe(*bundledRecipe("engine-sim-b300"), { { "port", std::to_string(port) } });
        QVERIFY(plan);
        auto engine = EngineProcess::start(*plan, dir.filePath("e.log").toStdString(), 2);
        QVERIFY(engine);
        QVERIFY2((*engine)->waitHealthy(), (*engine)->logTail().c_str());
        pid_t pid = (*engine)->enginePid();
        QVERIFY(pid > 0);
        QCOMPARE(::kill(pid, 0), 0);
        QVERIFY(!(*engine)->exitReason());
        auto t0 = std::chrono::steady_clock::now();
        (*engine)->stop();
        double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        QVERIFY(took < 5);
        QVERIFY(goneWithin({ "paretoscope-engine-sim", "--port " + std::to_string(port) }, 5));
    }

    void healthTimeoutShowsTheLog()
    {
        QTemporaryDir dir;
        auto recipes = parseRecipes(R"({"recipes":[{"name":"dies","engine":"e","hardware":"h","precision":"p",
            "program":"sh","args":["-c","echo CUDA out of memory; exit 3"]}]})", "dies.json", true);
        QVERIFY(recipes);
        Recipe r = recipes->front();
        r.defaults = bundledRecipe("engine-sim-b300")->defaults;
        auto plan = renderRecipe(r, {}, true);
        auto engine = EngineProcess::start(*plan, dir.filePath("dies.log").toStdString(), 1);
        QVERIFY(engine);
        auto st = (*engine)->waitHealthy();
        QVERIFY(!st);
        QVERIFY2(QString::fromStdString(st.error()).contains("exited with code 3"), st.error().c_str());
        QVERIFY(QString::fromStdString(st.error()).contains("CUDA out of memory"));
    }

    void aSweepIsStoredLevelByLevel()
    {
        QTemporaryDir dir;
        auto store = testsupport::openTempStore(dir);
        SimProcess sim({ "--ttft-ms", "20", "--itl-ms", "5" });
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
        QCOMPARE(QString::fromStdString(out->status), QString("finished"));
        QCOMPARE(QString::fromStdString(out->simulation), QString("sim-fixed"));
        QCOMPARE(int(seenRuns.size()), 2);
        auto runs = store->runs(seenRuns);
        QCOMPARE(int(runs.size()), 2);
        const RunRecord& r = runs[1].record;
        QCOMPARE(QString::fromStdString(r.hardware), QString("sim-fixed")); // never mixed with a real B300
        QCOMPARE(QString::fromStdString(r.engine), QString("engine-sim"));
        QVERIFY(QString::fromStdString(r.provenance.note).startsWith("SIMULATION"));
        QCOMPARE(r.concurrency, 4);
        QCOMPARE(*r.completed, 40LL);
        // per GPU: the level's throughput over the session's 2 GPUs; interactivity from the median TPOT
        const LevelMetrics& m = out->levels[1].metrics;
        QVERIFY(std::abs(*r.tputPerGpu - m.totalThroughput / 2) < 1e-9);
        QVERIFY(std::abs(*r.interactivity - 1 / *m.tpot.median) < 1e-9);
        QVERIFY(std::abs(*r.interactivity - 200) < 5); // ITL 5 ms
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
        QCOMPARE(QString::fromStdString(store->integrityCheck()), QString("ok"));
    }

    void textPromptsWhereIdsAreRefused()
    {
        QTemporaryDir dir;
        auto store = testsupport::openTempStore(dir);
        SimProcess sim({ "--ttft-ms", "2", "--itl-ms", "1", "--text-only" });
        QVERIFY(sim.ok());
        std::vector<std::string> notes;
        SessionEvents events;
        events.note = [&](const std::string& s) { notes.push_back(s); };
        auto out = runSession(*store, quickConfig(sim.url().toStdString()), "", events);
        QVERIFY(out);
        QCOMPARE(QString::fromStdString(out->status), QString("finished"));
        bool told = false;
        for (const auto& n : notes)
            told = told || n.find("refused token-id prompts") != std::string::npos;
        QVERIFY(told);
        QCOMPARE(out->levels[0].metrics.failed, 0LL);
    }

    void wrongModelOrNoServerIsRefusedBeforeAnything()
    {
        QTemporaryDir dir;
        auto store = testsupport::openTempStore(dir);
        SimProcess sim({ "--ttft-ms", "2", "--itl-ms", "1", "--model", "served-model" });
        SessionConfig c = quickConfig(sim.url().toStdString());
        c.model = "other-model";
        auto out = runSession(*store, c, "");
        QVERIFY(!out);
        QVERIFY2(QString::fromStdString(out.error()).contains("serves served-model, not other-model"), out.error().c_str());
        c.endpoint = "http://127.0.0.1:" + std::to_string(freePort());
        out = runSession(*store, c, "");
        QVERIFY(!out);
        c.endpoint = "file:///etc/passwd";
        out = runSession(*store, c, "");
        QVERIFY(!out);
        QVERIFY(QString::fromStdString(out.error()).contains("only http"));
        QVERIFY(sessions(*store).empty());
    }

    void everyRequestFailingEndsTheSession()
    {
        QTemporaryDir dir;
        auto store = testsupport::openTempStore(dir);
        SimProcess sim({ "--ttft-ms", "2", "--itl-ms", "1", "--fail-500", "1" });
        auto out = runSession(*store, quickConfig(sim.url().toStdString()), "");
        // the test request itself fails with 500: nothing starts
        QVERIFY(!out);
        QVERIFY2(QString::fromStdString(out.error()).contains("HTTP 500"), out.error().c_str());
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
        QCOMPARE(QString::fromStdString(out->status), QString("failed"));
        QVERIFY2(QString::fromStdString(out->reason).contains("the engine stopped during level 2"), out->reason.c_str());
        QVERIFY(QString::fromStdString(out->reason).contains("killed by signal 9"));
        QCOMPARE(int(out->levels.size()), 1);
        auto list = sessions(*store);
        QCOMPARE(QString::fromStdString(list[0].status), QString("failed"));
        QCOMPARE(list[0].levels, 1);
        QCOMPARE(QString::fromStdString(list[0].reason), QString::fromStdString(out->reason));
        QCOMPARE(store->runCount(), 1LL);
        QCOMPARE(QString::fromStdString(store->integrityCheck()), QString("ok"));
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
        QCOMPARE(QString::fromStdString(out->status), QString("cancelled"));
        QVERIFY(goneWithin({ "paretoscope-engine-sim", "--port " + std::to_string(port) }, 5));
    }

    void killedCliLeavesAConsistentStoreAndNoEngine()
    {
        // SIGKILL to the CLI mid-sweep: the finished level stays, the session reads as interrupted, the engine dies
        // with its guardian (the kernel's parent-death signal), and the store passes integrity_check
        QTemporaryDir dir;
        QString db = dir.filePath("killed.sqlite");
        int port = freePort();
        QProcess cli;
        cli.setProgram(PARETOSCOPE_CLI);
        cli.setArguments({ "bench", "--recipe", "engine-sim-b300", "--port", QString::number(port), "--isl", "64",
            "--osl", "32", "--concurrency", "2,64,64,64", "--db", db, "--engine-log", dir.filePath("e.log") });
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
        QCOMPARE(QString::fromStdString((*store)->integrityCheck()), QString("ok"));
        QCOMPARE(markInterruptedSessions(**store), 1);
        auto list = sessions(**store);
        QCOMPARE(QString::fromStdString(list[0].status), QString("interrupted"));
        QVERIFY(list[0].levels >= 1);
        QCOMPARE((*store)->runCount(), static_cast<long long>(list[0].levels));
    }

    void apiKeysAreNeverWritten()
    {
        // the key goes in the Authorization header and nowhere else: not the store, not an export, not a log
        QTemporaryDir dir;
        const std::string key = "sk-paretoscope-SECRET-7f3a9";
        QString db = dir.filePath("keys.sqlite");
        {
            auto store = RunStore::open(db.toStdString());
            // the emulator answers 401 without the key: it really is sent
            SimProcess sim({ "--ttft-ms", "2", "--itl-ms", "1", "--api-key", QString::fromStdString(key) });
            auto refused = runSession(**store, quickConfig(sim.url().toStdString()), "sk-wrong");
            QVERIFY(!refused);
            QVERIFY2(QString::fromStdString(refused.error()).contains("401"), refused.error().c_str());
            auto out = runSession(**store, quickConfig(sim.url().toStdString()), key);
            QVERIFY(out);
            QCOMPARE(QString::fromStdString(out->status), QString("finished"));
        }
        QProcess cli;
        cli.setProcessEnvironment([&] {
            auto env = QProcessEnvironment::systemEnvironment();
            env.insert("OPENAI_API_KEY", QString::fromStdString(key));
            return env;
        }());
        SimProcess sim({ "--ttft-ms", "2", "--itl-ms", "1", "--api-key", QString::fromStdString(key) });
        cli.start(PARETOSCOPE_CLI, { "bench", "--endpoint", sim.url(), "--isl", "16", "--osl", "4", "--concurrency",
                                         "2", "--hardware", "b300", "--engine", "vllm", "--db", db });
        QVERIFY(cli.waitForFinished(30000));
        QCOMPARE(cli.exitCode(), 0);
        QByteArray printed = cli.readAllStandardOutput() + cli.readAllStandardError();
        QProcess exporter;
        exporter.start(PARETOSCOPE_CLI, { "export", "--db", db, "--model", "sim-model", "--isl", "16", "--osl", "4",
                                              "--format", "csv" });
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
        QCOMPARE(QString::fromStdString((*back)[2].error), QString("HTTP 429: slow down"));
        // every truncation is an error that names the place, never a crash
        for (std::size_t n = 0; n < bytes.size(); ++n) {
            auto cut = decodeRequests(std::string_view(bytes).substr(0, n), "level");
            QVERIFY(!cut);
            QVERIFY(QString::fromStdString(cut.error()).startsWith("level:"));
        }
        std::string huge = bytes;
        huge[8] = huge[9] = huge[10] = huge[11] = '\xff';
        QVERIFY(!decodeRequests(huge, "level"));
        QVERIFY(!decodeRequests(bytes + "x", "level"));
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
        for (auto [json, field] : std::vector<std::pair<std::string, std::string>> {
                 { R"({"tp":"8"})", "field tp" }, { R"({"concurrencies":[1,0]})", "field concurrencies" },
                 { R"({"agentic":{"turns":-1}})", "field agentic.turns" }, { R"({"api_key":"x"})", "field api_key" },
                 { R"({"slo":{"ttft":"fast"}})", "field slo.ttft" }, { R"([1])", "not a JSON object" } }) {
            auto r = parseSessionConfig(json, "s");
            QVERIFY2(!r, json.c_str());
            QVERIFY2(QString::fromStdString(r.error()).contains(QString::fromStdString(field)), r.error().c_str());
        }
    }

    void cliBenchPrintsALinePerLevelAndWritesARunnableSbatch()
    {
        QTemporaryDir dir;
        SimProcess sim({ "--ttft-ms", "5", "--itl-ms", "2" });
        QString db = dir.filePath("bench.sqlite");
        QStringList args { "bench", "--endpoint", sim.url(), "--model", "sim-model", "--isl", "32", "--osl", "8",
            "--concurrency", "1,3", "--hardware", "B300", "--gpus", "8", "--engine", "vllm", "--db", db };
        QProcess cli;
        cli.start(PARETOSCOPE_CLI, args);
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 0);
        QList<QByteArray> lines = cli.readAllStandardOutput().trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        for (int i = 0; i < 2; ++i) {
            QJsonObject o = QJsonDocument::fromJson(lines[i]).object();
            QCOMPARE(o["level"].toInt(), i);
            QCOMPARE(o["concurrency"].toInt(), i == 0 ? 1 : 3);
            QCOMPARE(o["completed"].toInt(), i == 0 ? 10 : 30);
            QVERIFY(std::abs(o["tpot_s"].toObject()["median"].toDouble() - 0.002) < 0.0005); // seconds
            QVERIFY(o["simulation"].toBool());
            QVERIFY(std::abs(o["tput_per_gpu"].toDouble() - o["total_token_throughput"].toDouble() / 8) < 1e-6);
        }
        // the Slurm script: same command, a results file that imports
        QString script = dir.filePath("run.sbatch");
        QProcess emitter;
        emitter.start(PARETOSCOPE_CLI, args + QStringList { "--emit-sbatch", script });
        QVERIFY(emitter.waitForFinished(10000));
        QCOMPARE(emitter.exitCode(), 0);
        QString text = QString::fromUtf8(testsupport::readAll(script));
        QVERIFY(text.contains("#SBATCH --gpus-per-node=8"));
        QVERIFY(!text.contains(db)); // the node writes its own store
        QProcess bash;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("PARETOSCOPE_CLI", PARETOSCOPE_CLI);
        env.insert("RESULTS", dir.filePath("node"));
        bash.setProcessEnvironment(env);
        bash.start("bash", { script });
        QVERIFY(bash.waitForFinished(60000));
        QVERIFY2(bash.exitCode() == 0, bash.readAllStandardError().constData());
        QProcess import;
        import.start(PARETOSCOPE_CLI, { "import", "--db", dir.filePath("imported.sqlite"), dir.filePath("node.json") });
        QVERIFY(import.waitForFinished(10000));
        QJsonObject r = QJsonDocument::fromJson(import.readAllStandardOutput().trimmed()).object();
        QVERIFY2(import.exitCode() == 0, import.readAllStandardError().constData());
        QCOMPARE(r["imported"].toInt(), 2);
    }
};

QTEST_GUILESS_MAIN(TestSession)
#include "tst_session.moc"
