// Engine recipes and the launcher: recipes rendered to the argv expected (no shell), only known keys and checked
// values, arguments that reach the program literally, the process group stopped as a whole, a failed start with its
// log.
#include <QtTest>

#include <QTemporaryDir>

#include <chrono>
#include <csignal>
#include <fstream>
#include <thread>

#include "core/live/enginelauncher.h"
#include "core/live/recipe.h"
#include "tests/support/processutil.h"
#include "tests/support/suite.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;

class TestRecipes : public QObject {
    Q_OBJECT

private slots:
    void recipesRenderTheArgvExpected_data()
    {
        QTest::addColumn<QString>("recipe");
        QTest::addColumn<QString>("ep");
        QTest::addColumn<QStringList>("argv");
        QTest::addColumn<QString>("env");
        QTest::newRow("vllm b300") << QStringLiteral("vllm-b300-nvfp4") << QStringLiteral("1")
                                   << QStringList { QStringLiteral("vllm"), QStringLiteral("serve"),
                                          QStringLiteral("org/Model-FP4"), QStringLiteral("--host"),
                                          QStringLiteral("127.0.0.1"), QStringLiteral("--port"), QStringLiteral("8100"),
                                          QStringLiteral("--trust-remote-code"),
                                          QStringLiteral("--tensor-parallel-size"), QStringLiteral("4"),
                                          QStringLiteral("--max-num-seqs"), QStringLiteral("512"),
                                          QStringLiteral("--kv-cache-dtype"), QStringLiteral("fp8"),
                                          QStringLiteral("--max-model-len"), QStringLiteral("10240"),
                                          QStringLiteral("--gpu-memory-utilization"), QStringLiteral("0.9"),
                                          QStringLiteral("--no-enable-prefix-caching"),
                                          QStringLiteral("--async-scheduling") }
                                   << "CUDA_VISIBLE_DEVICES=0,1,2,3";
        QTest::newRow("vllm b300 ep") << QStringLiteral("vllm-b300-nvfp4") << QStringLiteral("4")
                                      << QStringList { QStringLiteral("vllm"), QStringLiteral("serve"),
                                             QStringLiteral("org/Model-FP4"), QStringLiteral("--host"),
                                             QStringLiteral("127.0.0.1"), QStringLiteral("--port"),
                                             QStringLiteral("8100"), QStringLiteral("--trust-remote-code"),
                                             QStringLiteral("--tensor-parallel-size"), QStringLiteral("4"),
                                             QStringLiteral("--max-num-seqs"), QStringLiteral("512"),
                                             QStringLiteral("--kv-cache-dtype"), QStringLiteral("fp8"),
                                             QStringLiteral("--max-model-len"), QStringLiteral("10240"),
                                             QStringLiteral("--gpu-memory-utilization"), QStringLiteral("0.9"),
                                             QStringLiteral("--no-enable-prefix-caching"),
                                             QStringLiteral("--async-scheduling"),
                                             QStringLiteral("--enable-expert-parallel") }
                                      << "CUDA_VISIBLE_DEVICES=0,1,2,3";
        QTest::newRow("vllm mi325x") << QStringLiteral("vllm-mi325x-mxfp4") << QStringLiteral("1")
                                     << QStringList { QStringLiteral("vllm"), QStringLiteral("serve"),
                                            QStringLiteral("org/Model-FP4"), QStringLiteral("--host"),
                                            QStringLiteral("127.0.0.1"), QStringLiteral("--port"),
                                            QStringLiteral("8100"), QStringLiteral("--trust-remote-code"),
                                            QStringLiteral("--tensor-parallel-size"), QStringLiteral("4"),
                                            QStringLiteral("--distributed-executor-backend"), QStringLiteral("mp"),
                                            QStringLiteral("--max-num-seqs"), QStringLiteral("256"),
                                            QStringLiteral("--kv-cache-dtype"), QStringLiteral("fp8"),
                                            QStringLiteral("--max-model-len"), QStringLiteral("10240"),
                                            QStringLiteral("--no-enable-prefix-caching") }
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
        QCOMPARE(QString::fromStdString(plan->baseUrl), QStringLiteral("http://127.0.0.1:8100"));
    }

    void recipesAcceptOnlyWhatIsKnown_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("error");
        QString ok = QStringLiteral(
            R"({"name":"x","engine":"vllm","hardware":"b300","precision":"fp4","program":"vllm","args":["{model}"]%1})");
        QTest::newRow("unknown key") << QString(
            QStringLiteral(R"({"recipes":[)") + ok.arg(QStringLiteral(R"(,"shell":"bash -c")")) + QStringLiteral("]}"))
                                     << "recipe 0, field shell: unknown key";
        QTest::newRow("unknown top key") << R"({"recipes":[],"hooks":1})"
                                         << "field hooks: unknown key";
        QTest::newRow("unknown placeholder") << QString(QStringLiteral(R"({"recipes":[)")
            + ok.arg(QStringLiteral(R"(,"env":{"X":"{cmd}"})")) + QStringLiteral("]}"))
                                             << "field env.X: {cmd} is not a recipe parameter";
        QTest::newRow("program with a path")
            << R"({"recipes":[{"name":"x","engine":"e","hardware":"h","precision":"p","program":"/bin/sh","args":[]}]})"
            << "field program: a program name looked up on PATH";
        QTest::newRow("bad default") << QString(QStringLiteral(R"({"recipes":[)")
            + ok.arg(QStringLiteral(R"(,"defaults":{"tp":"8; reboot"})")) + QStringLiteral("]}"))
                                     << "field defaults.tp: an integer";
        QTest::newRow("args not strings")
            << R"({"recipes":[{"name":"x","engine":"e","hardware":"h","precision":"p","program":"v","args":[1]}]})"
            << "field args: not an array of strings";
    }
    void recipesAcceptOnlyWhatIsKnown()
    {
        QFETCH(QString, json);
        QFETCH(QString, error);
        auto r = parseRecipes(json.toStdString(), "mine.json", true);
        QVERIFY(!r);
        QVERIFY2(QString::fromStdString(r.error()).contains(error), r.error().c_str());
        QVERIFY(QString::fromStdString(r.error()).startsWith(QStringLiteral("mine.json")));
    }

    void parametersCannotBecomeOptionsAndCustomNeedsConsent()
    {
        auto r = bundledRecipe("vllm-b300-nvfp4");
        QVERIFY(r);
        for (auto [key, value] : std::vector<std::pair<std::string, std::string>> { { "model", "--load-format=evil" },
                 { "model", "a b" }, { "tp", "0" }, { "port", "70000" }, { "devices", "0;1" },
                 { "kv_cache_dtype", "fp8 --x" }, { "shell", "1" } }) {
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
        QVERIFY(QString::fromStdString(refused.error()).contains(QStringLiteral("custom command")));
        QVERIFY(renderRecipe(mine->front(),
            { { "model", "m" }, { "tp", "1" }, { "ep", "1" }, { "max_seqs", "8" }, { "kv_cache_dtype", "auto" },
                { "port", "9000" }, { "max_model_len", "4096" }, { "devices", "0" } },
            true));
    }

    void argumentsReachTheProgramLiterally()
    {
        // a custom recipe whose arguments would do harm in a shell: they must arrive as plain text
        QTemporaryDir dir;
        std::string marker = dir.filePath(QStringLiteral("created-by-a-shell")).toStdString();
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
        std::string log = dir.filePath(QStringLiteral("printf.log")).toStdString();
        auto engine = EngineProcess::start(*plan, log, 1);
        QVERIFY2(engine, engine ? "" : engine.error().c_str());
        auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (!(*engine)->exitReason() && std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        QCOMPARE(QString::fromStdString(*(*engine)->exitReason()), QStringLiteral("exited with code 0"));
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
        auto engine = EngineProcess::start(*plan, dir.filePath(QStringLiteral("e.log")).toStdString(), 2);
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
            "program":"sh","args":["-c","echo CUDA out of memory; exit 3"]}]})",
            "dies.json", true);
        QVERIFY(recipes);
        Recipe r = recipes->front();
        r.defaults = bundledRecipe("engine-sim-b300")->defaults;
        auto plan = renderRecipe(r, {}, true);
        auto engine = EngineProcess::start(*plan, dir.filePath(QStringLiteral("dies.log")).toStdString(), 1);
        QVERIFY(engine);
        auto st = (*engine)->waitHealthy();
        QVERIFY(!st);
        QVERIFY2(QString::fromStdString(st.error()).contains(QStringLiteral("exited with code 3")), st.error().c_str());
        QVERIFY(QString::fromStdString(st.error()).contains(QStringLiteral("CUDA out of memory")));
    }
};

PARETOSCOPE_GUILESS_SUITE(TestRecipes)
#include "tst_recipes.moc"
