// Attention data parallel (dp_attention) from the choice to the stored run: the exact argv a recipe launches with it
// (vLLM, SGLang), the emulator's refusal naming the field, `bench --dp-attention` reaching the session configuration,
// the Slurm task line carrying it, the session dialog's checkbox through the same builder, and the stored run being a
// configuration of its own.
#include <QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QProcess>
#include <QRadioButton>
#include <QSettings>
#include <QSpinBox>
#include <QTemporaryDir>
#include <fstream>
#include <set>

#include "core/live/cluster.h"
#include "core/live/matrix.h"
#include "core/live/recipe.h"
#include "core/live/sessionsetup.h"
#include "core/live/sessionstore.h"
#include "core/live/sweep.h"
#include "core/model/runselection.h"
#include "tests/support/clirun.h"
#include "tests/support/sessionconfigs.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"
#include "widgets/runs/runsmodel.h"
#include "widgets/session/sessiondialog.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;

namespace {

QStringList toList(const std::vector<std::string>& v)
{
    QStringList out;
    for (const std::string& s : v)
        out << QString::fromStdString(s);
    return out;
}

// The options (words starting with --) given more than once: none, in a launch that is unambiguous.
QStringList repeatedOptions(const std::vector<std::string>& argv)
{
    std::set<std::string> seen;
    QStringList twice;
    for (const std::string& a : argv)
        if (a.starts_with("--") && !seen.insert(a).second)
            twice << QString::fromStdString(a);
    return twice;
}

const std::map<std::string, std::string> kParams { { "model", "org/Model-FP4" }, { "tp", "8" }, { "port", "8100" },
    { "devices", "0,1,2,3,4,5,6,7" } };

} // namespace

class TestDpAttention : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir.filePath(QStringLiteral("settings")));
        QCoreApplication::setOrganizationName(QStringLiteral("ParetoscopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_dpattention"));
    }

    void recipesLaunchTheArgvExpected_data()
    {
        QTest::addColumn<QString>("recipe");
        QTest::addColumn<QString>("ep");
        QTest::addColumn<QStringList>("argv");
        // vLLM: one engine core per GPU (--data-parallel-size 8, --tensor-parallel-size 1 given once, in place of the
        // recipe's --tensor-parallel-size 8), as InferenceX configures dp-attention on vLLM
        QTest::newRow("vllm b300") << QStringLiteral("vllm-b300-nvfp4") << QStringLiteral("1")
                                   << QStringList { QStringLiteral("vllm"), QStringLiteral("serve"),
                                          QStringLiteral("org/Model-FP4"), QStringLiteral("--host"),
                                          QStringLiteral("127.0.0.1"), QStringLiteral("--port"), QStringLiteral("8100"),
                                          QStringLiteral("--trust-remote-code"), QStringLiteral("--max-num-seqs"),
                                          QStringLiteral("512"), QStringLiteral("--kv-cache-dtype"),
                                          QStringLiteral("fp8"), QStringLiteral("--max-model-len"),
                                          QStringLiteral("10240"), QStringLiteral("--gpu-memory-utilization"),
                                          QStringLiteral("0.9"), QStringLiteral("--no-enable-prefix-caching"),
                                          QStringLiteral("--async-scheduling"), QStringLiteral("--data-parallel-size"),
                                          QStringLiteral("8"), QStringLiteral("--tensor-parallel-size"),
                                          QStringLiteral("1") };
        QTest::newRow("vllm b300 ep 8")
            << QStringLiteral("vllm-b300-nvfp4") << QStringLiteral("8")
            << QStringList { QStringLiteral("vllm"), QStringLiteral("serve"), QStringLiteral("org/Model-FP4"),
                   QStringLiteral("--host"), QStringLiteral("127.0.0.1"), QStringLiteral("--port"),
                   QStringLiteral("8100"), QStringLiteral("--trust-remote-code"), QStringLiteral("--max-num-seqs"),
                   QStringLiteral("512"), QStringLiteral("--kv-cache-dtype"), QStringLiteral("fp8"),
                   QStringLiteral("--max-model-len"), QStringLiteral("10240"),
                   QStringLiteral("--gpu-memory-utilization"), QStringLiteral("0.9"),
                   QStringLiteral("--no-enable-prefix-caching"), QStringLiteral("--async-scheduling"),
                   QStringLiteral("--enable-expert-parallel"), QStringLiteral("--data-parallel-size"),
                   QStringLiteral("8"), QStringLiteral("--tensor-parallel-size"), QStringLiteral("1") };
        QTest::newRow("vllm mi325x") << QStringLiteral("vllm-mi325x-mxfp4") << QStringLiteral("1")
                                     << QStringList { QStringLiteral("vllm"), QStringLiteral("serve"),
                                            QStringLiteral("org/Model-FP4"), QStringLiteral("--host"),
                                            QStringLiteral("127.0.0.1"), QStringLiteral("--port"),
                                            QStringLiteral("8100"), QStringLiteral("--trust-remote-code"),
                                            QStringLiteral("--distributed-executor-backend"), QStringLiteral("mp"),
                                            QStringLiteral("--max-num-seqs"), QStringLiteral("256"),
                                            QStringLiteral("--kv-cache-dtype"), QStringLiteral("fp8"),
                                            QStringLiteral("--max-model-len"), QStringLiteral("10240"),
                                            QStringLiteral("--no-enable-prefix-caching"),
                                            QStringLiteral("--data-parallel-size"), QStringLiteral("8"),
                                            QStringLiteral("--tensor-parallel-size"), QStringLiteral("1") };
        // SGLang: --enable-dp-attention --dp-size 8 beside --tp 8
        QTest::newRow("sglang b300")
            << QStringLiteral("sglang-b300-nvfp4") << QStringLiteral("1")
            << QStringList { QStringLiteral("python3"), QStringLiteral("-m"), QStringLiteral("sglang.launch_server"),
                   QStringLiteral("--model-path"), QStringLiteral("org/Model-FP4"), QStringLiteral("--host"),
                   QStringLiteral("127.0.0.1"), QStringLiteral("--port"), QStringLiteral("8100"),
                   QStringLiteral("--trust-remote-code"), QStringLiteral("--tp"), QStringLiteral("8"),
                   QStringLiteral("--quantization"), QStringLiteral("modelopt_fp4"),
                   QStringLiteral("--max-running-requests"), QStringLiteral("512"), QStringLiteral("--kv-cache-dtype"),
                   QStringLiteral("fp8_e4m3"), QStringLiteral("--context-length"), QStringLiteral("10240"),
                   QStringLiteral("--disable-radix-cache"), QStringLiteral("--enable-metrics"),
                   QStringLiteral("--enable-dp-attention"), QStringLiteral("--dp-size"), QStringLiteral("8") };
        QTest::newRow("sglang b300 ep 8")
            << QStringLiteral("sglang-b300-nvfp4") << QStringLiteral("8")
            << QStringList { QStringLiteral("python3"), QStringLiteral("-m"), QStringLiteral("sglang.launch_server"),
                   QStringLiteral("--model-path"), QStringLiteral("org/Model-FP4"), QStringLiteral("--host"),
                   QStringLiteral("127.0.0.1"), QStringLiteral("--port"), QStringLiteral("8100"),
                   QStringLiteral("--trust-remote-code"), QStringLiteral("--tp"), QStringLiteral("8"),
                   QStringLiteral("--quantization"), QStringLiteral("modelopt_fp4"),
                   QStringLiteral("--max-running-requests"), QStringLiteral("512"), QStringLiteral("--kv-cache-dtype"),
                   QStringLiteral("fp8_e4m3"), QStringLiteral("--context-length"), QStringLiteral("10240"),
                   QStringLiteral("--disable-radix-cache"), QStringLiteral("--enable-metrics"),
                   QStringLiteral("--ep-size"), QStringLiteral("8"), QStringLiteral("--enable-dp-attention"),
                   QStringLiteral("--dp-size"), QStringLiteral("8") };
        QTest::newRow("sglang mi325x")
            << QStringLiteral("sglang-mi325x-mxfp4") << QStringLiteral("1")
            << QStringList { QStringLiteral("python3"), QStringLiteral("-m"), QStringLiteral("sglang.launch_server"),
                   QStringLiteral("--model-path"), QStringLiteral("org/Model-FP4"), QStringLiteral("--host"),
                   QStringLiteral("127.0.0.1"), QStringLiteral("--port"), QStringLiteral("8100"),
                   QStringLiteral("--trust-remote-code"), QStringLiteral("--tp"), QStringLiteral("8"),
                   QStringLiteral("--max-running-requests"), QStringLiteral("256"), QStringLiteral("--kv-cache-dtype"),
                   QStringLiteral("fp8_e4m3"), QStringLiteral("--context-length"), QStringLiteral("10240"),
                   QStringLiteral("--enable-metrics"), QStringLiteral("--enable-dp-attention"),
                   QStringLiteral("--dp-size"), QStringLiteral("8") };
    }
    void recipesLaunchTheArgvExpected()
    {
        QFETCH(QString, recipe);
        QFETCH(QString, ep);
        QFETCH(QStringList, argv);
        auto r = bundledRecipe(recipe.toStdString());
        QVERIFY2(r, r ? "" : r.error().c_str());
        auto params = kParams;
        params["ep"] = ep.toStdString();
        auto plan = renderRecipe(*r, params, false, true);
        QVERIFY2(plan, plan ? "" : plan.error().c_str());
        QCOMPARE(toList(plan->argv), argv);
        QCOMPARE(repeatedOptions(plan->argv), QStringList {});
        // the same recipe without dp attention launches as it always did: tp 8 and no data parallel option
        auto plain = renderRecipe(*r, params);
        QVERIFY(plain);
        const QStringList p = toList(plain->argv);
        QVERIFY(!p.contains(QStringLiteral("--data-parallel-size"))
            && !p.contains(QStringLiteral("--enable-dp-attention")));
        QVERIFY(p.contains(QStringLiteral("--tensor-parallel-size")) || p.contains(QStringLiteral("--tp")));
        QCOMPARE(p.at(p.indexOf(p.contains(QStringLiteral("--tp")) ? QStringLiteral("--tp")
                                                                   : QStringLiteral("--tensor-parallel-size"))
                     + 1),
            QStringLiteral("8"));
    }

    void theEmulatorRefusesNamingTheField()
    {
        for (const char* name : { "sim", "engine-sim-b300", "engine-sim-mi325x" }) {
            auto r = bundledRecipe(name);
            QVERIFY(r);
            auto plan = renderRecipe(*r, {}, false, true);
            QVERIFY2(!plan, name);
            QVERIFY2(
                QString::fromStdString(plan.error()).contains(QStringLiteral("dp_attention")), plan.error().c_str());
            QVERIFY(renderRecipe(*r, {})); // and runs unchanged without it
        }
        // through the one builder, as the CLI and the dialog call it
        SessionChoices ch;
        ch.config = quickConfig("");
        ch.config.dpAttention = true;
        ch.launch.emplace().recipe = *bundledRecipe("sim");
        auto refused = buildSession(ch);
        QVERIFY(!refused);
        QVERIFY2(QString::fromStdString(refused.error()).contains(QStringLiteral("dp_attention: recipe sim")),
            refused.error().c_str());
        // in a matrix: the configuration and the field
        auto m = parseMatrix(R"({"configurations": [{"recipe": "vllm-b300-nvfp4", "isl": 64, "osl": 8,
            "concurrency": [1]}, {"recipe": "sim", "isl": 64, "osl": 8, "concurrency": [1], "dp_attention": true}]})",
            "m.json");
        QVERIFY(!m);
        QVERIFY2(QString::fromStdString(m.error()).startsWith(
                     QStringLiteral("m.json: configuration 1, field dp_attention: recipe sim")),
            m.error().c_str());
    }

    void recipeFilesCheckTheField()
    {
        const QString base
            = QStringLiteral(R"({"recipes":[{"name":"x","engine":"vllm","hardware":"b300","precision":"fp4",)"
                             R"("program":"vllm","args":["{model}"],"dp_attention_args":%1}]})");
        for (const auto& [args, expected] :
            std::vector<std::pair<QString, QString>> {
                { QStringLiteral(R"(["--dp", "{dp}"])"),
                    QStringLiteral("field dp_attention_args: {dp} is not a recipe parameter") },
                { QStringLiteral(R"(["{tp}", "--dp"])"),
                    QStringLiteral("field dp_attention_args: starts with an option") },
                { QStringLiteral(R"("--dp")"), QStringLiteral("field dp_attention_args: not an array of strings") } }) {
            auto r = parseRecipes(base.arg(args).toStdString(), "mine.json", true);
            QVERIFY2(!r, qPrintable(args));
            QVERIFY2(QString::fromStdString(r.error()).contains(expected), r.error().c_str());
        }
        auto fine = parseRecipes(base.arg(QStringLiteral(R"(["--dp", "{tp}"])")).toStdString(), "mine.json", true);
        QVERIFY2(fine, fine ? "" : fine.error().c_str());
        QCOMPARE(
            toList(fine->front().dpAttentionArgs), (QStringList { QStringLiteral("--dp"), QStringLiteral("{tp}") }));
    }

    void benchOptionReachesTheConfig()
    {
        const QStringList base { QStringLiteral("bench"), QStringLiteral("--print-config"), QStringLiteral("--isl"),
            QStringLiteral("64"), QStringLiteral("--osl"), QStringLiteral("8"), QStringLiteral("--concurrency"),
            QStringLiteral("1,4") };
        Run on = runCli(base
            + QStringList { QStringLiteral("--recipe"), QStringLiteral("sglang-b300-nvfp4"), QStringLiteral("--tp"),
                QStringLiteral("8"), QStringLiteral("--dp-attention") });
        QVERIFY2(on.code == 0, on.err.constData());
        auto c = parseSessionConfig(on.out.trimmed().toStdString(), "printed");
        QVERIFY2(c, on.out.constData());
        QVERIFY(c->dpAttention);
        QCOMPARE(c->tp, 8);
        QCOMPARE(c->gpus, 8); // the GPU count stays tp
        QVERIFY(on.out.contains(R"("dp_attention":true)"));
        Run off = runCli(base
            + QStringList { QStringLiteral("--recipe"), QStringLiteral("sglang-b300-nvfp4"), QStringLiteral("--tp"),
                QStringLiteral("8") });
        QCOMPARE(off.code, 0);
        QVERIFY(!off.out.contains("dp_attention")); // a configuration without it reads as before
        // an endpoint's runs are labelled with it
        Run endpoint = runCli(base
            + QStringList { QStringLiteral("--endpoint"), QStringLiteral("http://127.0.0.1:9"),
                QStringLiteral("--hardware"), QStringLiteral("b300"), QStringLiteral("--engine"),
                QStringLiteral("sglang"), QStringLiteral("--gpus"), QStringLiteral("8"),
                QStringLiteral("--dp-attention") });
        QCOMPARE(endpoint.code, 0);
        QVERIFY(parseSessionConfig(endpoint.out.trimmed().toStdString(), "printed")->dpAttention);
        // refusals: the emulator, and tp 1
        Run sim = runCli(
            base + QStringList { QStringLiteral("--recipe"), QStringLiteral("sim"), QStringLiteral("--dp-attention") });
        QCOMPARE(sim.code, 2);
        QVERIFY2(sim.err.contains("dp_attention: recipe sim"), sim.err.constData());
        Run tp1 = runCli(base
            + QStringList { QStringLiteral("--recipe"), QStringLiteral("vllm-b300-nvfp4"), QStringLiteral("--tp"),
                QStringLiteral("1"), QStringLiteral("--dp-attention") });
        QCOMPARE(tp1.code, 2);
        QVERIFY2(tp1.err.contains("tp above 1"), tp1.err.constData());
    }

    void sbatchTaskLinesCarryIt()
    {
        auto m = parseMatrix(R"({"configurations": [
            {"name": "dp", "recipe": "vllm-b300-nvfp4", "tp": 8, "dp_attention": true, "isl": 1024, "osl": 1024,
             "concurrency": [1, 4]},
            {"name": "plain", "recipe": "vllm-b300-nvfp4", "tp": 8, "isl": 1024, "osl": 1024, "concurrency": [1]}]})",
            "m.json");
        QVERIFY2(m, m ? "" : m.error().c_str());
        const std::string s = arrayScript(*m, "/shared/sweep", "/opt/bin/paretoscope-cli");
        const std::string dpTask = "    BENCH=(--recipe vllm-b300-nvfp4 --model nvidia/DeepSeek-R1-0528-FP4 --isl 1024 "
                                   "--osl 1024 --concurrency 1,4 --tp 8 --ep 1 --gpus 8 --dp-attention)\n";
        const std::string plainTask = "    BENCH=(--recipe vllm-b300-nvfp4 --model nvidia/DeepSeek-R1-0528-FP4 --isl "
                                      "1024 --osl 1024 --concurrency 1 --tp 8 --ep 1 --gpus 8)\n";
        QVERIFY2(s.find("0)\n    NAME=dp\n" + dpTask) != std::string::npos, s.c_str());
        QVERIFY2(s.find("1)\n    NAME=plain\n" + plainTask) != std::string::npos, s.c_str());
        QCOMPARE(taskResources(m->configurations[0]).gpus, 8);
        // a name left out says so, so that the two configurations do not collide
        auto unnamed = parseMatrix(R"({"configurations": [
            {"recipe": "vllm-b300-nvfp4", "tp": 8, "dp_attention": true, "isl": 64, "osl": 8, "concurrency": [1]},
            {"recipe": "vllm-b300-nvfp4", "tp": 8, "isl": 64, "osl": 8, "concurrency": [1]}]})",
            "m.json");
        QVERIFY2(unnamed, unnamed ? "" : unnamed.error().c_str());
        QCOMPARE(unnamed->configurations[0].name, std::string("vllm-b300-nvfp4-tp8-dpattn"));
        // the task's own bench takes the arguments as given: its configuration has dp attention
        QStringList args { QStringLiteral("bench"), QStringLiteral("--print-config") };
        args << toList(benchArguments(m->configurations[0]));
        Run task = runCli(args);
        QVERIFY2(task.code == 0, task.err.constData());
        QVERIFY(parseSessionConfig(task.out.trimmed().toStdString(), "printed")->dpAttention);
        // the single-session script of bench --emit-sbatch repeats the command line, the option with it
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("run.sbatch"));
        Run script = runCli({ QStringLiteral("bench"), QStringLiteral("--recipe"), QStringLiteral("vllm-b300-nvfp4"),
            QStringLiteral("--isl"), QStringLiteral("64"), QStringLiteral("--osl"), QStringLiteral("8"),
            QStringLiteral("--concurrency"), QStringLiteral("1"), QStringLiteral("--dp-attention"),
            QStringLiteral("--emit-sbatch"), file });
        QVERIFY2(script.code == 0, script.err.constData());
        QVERIFY(readAll(file).contains(" --dp-attention"));
    }

    void theStoredRunIsAConfigurationOfItsOwn()
    {
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        QVERIFY(store);
        SessionConfig c = quickConfig("http://127.0.0.1:9");
        c.model = "m";
        c.tp = 2;
        LevelMetrics m;
        m.completed = 10;
        m.duration = 2;
        m.totalThroughput = 360;
        m.outputThroughput = 40;
        std::vector<long long> ids;
        for (bool dp : { false, true }) {
            c.dpAttention = dp;
            auto session = createSession(*store, c, "");
            QVERIFY(session);
            RunRecord r = levelRecord(c, "", "random 64/8", 4, m, LevelTelemetry {}, *session);
            QCOMPARE(r.dpAttention, dp);
            QCOMPARE(r.tp, 2);
            QCOMPARE(r.gpus, 2);
            QCOMPARE(*r.tputPerGpu, 180.0); // 360 tok/s over 2 GPUs
            auto id = storeLevel(*store, *session, 0, 4, r, "{}", {});
            QVERIFY2(id, id ? "" : id.error().c_str());
            ids.push_back(*id);
            // the session keeps the choice with its configuration
            QCOMPARE(sessions(*store).front().config.dpAttention, dp);
        }
        const auto stored = store->runs(ids);
        QCOMPARE(stored.size(), std::size_t(2));
        QVERIFY(!stored[0].record.dpAttention);
        QVERIFY(stored[1].record.dpAttention);
        // the Runs tab tells the two apart: a column of its own
        ui::RunsModel runs;
        runs.setRuns(stored);
        QCOMPARE(runs.headerData(ui::RunsModel::DpAttention, Qt::Horizontal).toString(), QStringLiteral("DP attn"));
        QCOMPARE(runs.index(0, ui::RunsModel::DpAttention).data().toString(), QStringLiteral("-"));
        QCOMPARE(runs.index(1, ui::RunsModel::DpAttention).data().toString(), QStringLiteral("yes"));
        QCOMPARE(runs.index(1, ui::RunsModel::Tp).data().toString(), QStringLiteral("2"));
        // same model, hardware, engine, lengths, tp and concurrency on the same day: the latest of each configuration
        // keeps both, where two runs of one configuration would keep one; they are one curve, whose latest run (the
        // site's rule since its migrations 011 and 014) is the later session
        std::vector<RunVersion> versions { runVersion(stored[0].record, stored[0].id),
            runVersion(stored[1].record, stored[1].id) };
        QVERIFY(versions[0].line != versions[1].line);
        QCOMPARE(versions[0].curve, versions[1].curve);
        QCOMPARE(selectRuns(versions, RunSelection::LatestPerConfiguration, asOfDay("")).size(), std::size_t(2));
        QCOMPARE(selectRuns(versions, RunSelection::Latest, asOfDay("")), std::vector<std::size_t> { 1 });
        versions[1] = runVersion(stored[0].record, stored[1].id);
        QCOMPARE(selectRuns(versions, RunSelection::LatestPerConfiguration, asOfDay("")).size(), std::size_t(1));
    }

    void sessionDialogHasTheCheckbox()
    {
        ui::SessionDialog dialog(QStringLiteral("No GPU found"));
        auto* dp = dialog.findChild<QCheckBox*>(QStringLiteral("dpAttention"));
        auto* recipe = dialog.findChild<QComboBox*>(QStringLiteral("recipe"));
        QVERIFY(dp && recipe);
        dialog.findChild<QRadioButton*>(QStringLiteral("useRecipe"))->setChecked(true);
        recipe->setCurrentText(QStringLiteral("sim"));
        QVERIFY(!dp->isEnabled()); // the emulator cannot: core would refuse it
        recipe->setCurrentText(QStringLiteral("sglang-b300-nvfp4"));
        QVERIFY(dp->isEnabled());
        QVERIFY(dp->toolTip().contains(QStringLiteral("--enable-dp-attention --dp-size {tp}")));
        dialog.findChild<QSpinBox*>(QStringLiteral("tp"))->setValue(8);
        dialog.setConcurrency(QStringLiteral("1,4"));
        dialog.setLengths(64, 8);
        dp->setChecked(true);
        QVERIFY(dialog.build());
        dialog.resize(dialog.sizeHint());
        QVERIFY(dialog.grab().save((shotDir() + QStringLiteral("/sessiondialog-dpattention.png"))));
        const SessionConfig& c = dialog.request().config;
        QVERIFY(c.dpAttention);
        QCOMPARE(c.tp, 8);
        QCOMPARE(c.gpus, 8);
        // the launch core will start is the recipe's with its dp_attention_args
        QVERIFY(dialog.request().launch);
        auto plan = renderRecipe(dialog.request().launch->recipe, dialog.request().launch->parameters, false, true);
        QVERIFY(plan);
        QCOMPARE(toList(plan->argv).mid(plan->argv.size() - 3),
            (QStringList {
                QStringLiteral("--enable-dp-attention"), QStringLiteral("--dp-size"), QStringLiteral("8") }));
        // the CLI makes the same configuration of the same choices
        Run same = runCli({ QStringLiteral("bench"), QStringLiteral("--print-config"), QStringLiteral("--recipe"),
            QStringLiteral("sglang-b300-nvfp4"), QStringLiteral("--tp"), QStringLiteral("8"), QStringLiteral("--ep"),
            QString::number(c.ep), QStringLiteral("--port"),
            QString::fromStdString(dialog.request().launch->parameters.at("port")), QStringLiteral("--devices"),
            QString::fromStdString(dialog.request().launch->parameters.at("devices")), QStringLiteral("--isl"),
            QStringLiteral("64"), QStringLiteral("--osl"), QStringLiteral("8"), QStringLiteral("--concurrency"),
            QStringLiteral("1,4"), QStringLiteral("--dp-attention") });
        QVERIFY2(same.code == 0, same.err.constData());
        auto printed = parseSessionConfig(same.out.trimmed().toStdString(), "printed");
        QVERIFY(printed);
        QCOMPARE(printed->dpAttention, c.dpAttention);
        QCOMPARE(printed->tp, c.tp);
        QCOMPARE(printed->gpus, c.gpus);
        QCOMPARE(printed->endpoint, c.endpoint);
        QCOMPARE(printed->engine, c.engine);
        // and the TP 1 refusal shows under the form
        dialog.findChild<QSpinBox*>(QStringLiteral("tp"))->setValue(1);
        QVERIFY(!dialog.build());
        // remembered for the next dialog
        dialog.findChild<QSpinBox*>(QStringLiteral("tp"))->setValue(8);
        dialog.accept();
        ui::SessionDialog next(QStringLiteral("No GPU found"));
        QVERIFY(next.findChild<QCheckBox*>(QStringLiteral("dpAttention"))->isChecked());
    }

private:
    QTemporaryDir m_dir;
};

PARETOSCOPE_SUITE(TestDpAttention)
#include "tests/support/testpaths.h"
#include "tst_dpattention.moc"
