// The sweep matrix's parser and the Slurm array it becomes (core/live/matrix.h, core/live/cluster.h); the array on a
// real Slurm is tests/slurm/tst_slurm.sh.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "core/live/cluster.h"
#include "core/live/matrix.h"
#include "core/output/reports.h"
#include "tests/support/suite.h"

using namespace paretoscope;

namespace {

std::string one(const std::string& config)
{
    return R"({"configurations": [)" + config + "]}";
}

std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

} // namespace

class TestCluster : public QObject {
    Q_OBJECT
private slots:
    void refusals_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("expected");
        const std::string ok = R"("recipe": "sim", "isl": 64, "osl": 16, "concurrency": [1])";
        auto row = [](const char* name, const std::string& json, const char* expected) {
            QTest::newRow(name) << QString::fromStdString(json) << QString::fromUtf8(expected);
        };
        row("not an object", "[1]", "m.json: not a JSON object");
        row("unknown top key", R"({"configs": []})", "m.json, field configs: unknown key");
        row("no configurations", R"({"configurations": []})", "field configurations: missing or not a non-empty");
        row("unknown key", one("{" + ok + R"(, "tpp": 8})"), "configuration 0, field tpp: unknown key");
        row("no recipe", one(R"({"isl": 64, "osl": 16, "concurrency": [1]})"),
            "configuration 0, field recipe: missing");
        row("no isl", one(R"({"recipe": "sim", "osl": 16, "concurrency": [1]})"), "field isl: missing");
        row("unknown recipe", one(R"({"recipe": "nope", "isl": 64, "osl": 16, "concurrency": [1]})"),
            "configuration 0, field recipe: no recipe named nope");
        row("tp as text", one("{" + ok + R"(, "tp": "8"})"), "field tp: an integer from 1 to 1024");
        row("tp zero", one("{" + ok + R"(, "tp": 0})"), "field tp: an integer from 1 to 1024");
        row("isl negative", one(R"({"recipe": "sim", "isl": -1, "osl": 16, "concurrency": [1]})"), "field isl");
        row("concurrency word", one(R"({"recipe": "sim", "isl": 64, "osl": 16, "concurrency": "fast"})"),
            "field concurrency: a list of levels or \"auto\", got \"fast\"");
        row("concurrency empty", one(R"({"recipe": "sim", "isl": 64, "osl": 16, "concurrency": []})"),
            "field concurrency: a non-empty list");
        row("concurrency zero", one(R"({"recipe": "sim", "isl": 64, "osl": 16, "concurrency": [1, 0]})"),
            "field concurrency: levels are integers from 1");
        row("no concurrency", one(R"({"recipe": "sim", "isl": 64, "osl": 16})"), "field concurrency: missing");
        row("workload", one("{" + ok + R"(, "workload": "chat"})"), "field workload: random or agentic");
        row("prefill alone", one("{" + ok + R"(, "prefill": {"nodes": 1}})"),
            "field decode: a disaggregated configuration gives both");
        row("side key", one("{" + ok + R"(, "prefill": {"gpus": 1}, "decode": {"nodes": 1}})"),
            "field prefill.gpus: unknown key (known: nodes, tp)");
        row("side nodes", one("{" + ok + R"(, "prefill": {"nodes": 0}, "decode": {"nodes": 1}})"),
            "field prefill.nodes: an integer from 1 to 4096");
        row("precision", one("{" + ok + R"(, "precision": "fp8"})"), "field precision: recipe sim runs fp4, not fp8");
        row("profile on vllm",
            one(R"({"recipe": "vllm-b300-nvfp4", "profile": "b300-sim", "isl": 64, "osl": 16, "concurrency": [1]})"),
            "field profile: recipe vllm-b300-nvfp4 takes no profile");
        row("profile chars", one("{" + ok + R"(, "profile": "B300 sim"})"), "field profile: a profile name");
        row("dp attention tp 1", one("{" + ok + R"(, "tp": 1, "dp_attention": true})"),
            "field dp_attention: attention data parallel needs tp above 1");
        row("dp attention text", one("{" + ok + R"(, "dp_attention": "yes"})"), "field dp_attention: true or false");
        row("model option", one("{" + ok + R"(, "model": "--evil"})"), "field model: recipe sim, parameter model");
        row("second config", one("{" + ok + "}, {" + ok + R"(, "name": "x", "repeats": 0})"),
            "configuration 1, field repeats: an integer from 1 to 100");
        row("names twice", one("{" + ok + "}, {" + ok + "}"), "configuration 1, field name: \"sim-tp8\" is used twice");
        row("slurm key", R"({"slurm": {"queue": "a"}, "configurations": [{)" + ok + "}]}",
            "m.json, slurm, field queue: unknown key");
        row("slurm partition", R"({"slurm": {"partition": "a b"}, "configurations": [{)" + ok + "}]}",
            "letters, digits and _.:,- only");
    }
    void refusals()
    {
        QFETCH(QString, json);
        QFETCH(QString, expected);
        auto m = parseMatrix(json.toStdString(), "m.json");
        QVERIFY(!m);
        QVERIFY2(QString::fromStdString(m.error()).contains(expected), m.error().c_str());
    }

    void autoConcurrencyPassesThrough()
    {
        auto m = parseMatrix(one(R"({"recipe": "sim", "isl": 64, "osl": 16, "concurrency": "auto"})"), "m.json");
        QVERIFY2(m, m ? "" : m.error().c_str());
        const MatrixConfig& c = m->configurations[0];
        QVERIFY(c.autoConcurrency);
        auto args = benchArguments(c);
        auto it = std::find(args.begin(), args.end(), "--concurrency");
        QVERIFY(it != args.end() && *(it + 1) == "auto");
    }

    void shippedExample()
    {
        const std::string path = (resourcesDir() + QStringLiteral("/matrices/sim-example.json")).toStdString();
        auto m = parseMatrix(readFile(path), path);
        QVERIFY2(m, m ? "" : m.error().c_str());
        QCOMPARE(m->configurations.size(), std::size_t(2));
        QCOMPARE(m->configurations[0].profile, std::string("b300-sim"));
        QCOMPARE(m->configurations[1].profile, std::string("mi325x-sim"));
        for (const MatrixConfig& c : m->configurations) {
            QCOMPARE(c.concurrencies, (std::vector<int> { 1, 4, 16 }));
            QCOMPARE(taskResources(c).gpusPerNode, 0); // a simulation asks for no GPU
        }
    }

    void resources_data()
    {
        QTest::addColumn<QString>("config");
        QTest::addColumn<int>("nodes");
        QTest::addColumn<int>("gpusPerNode");
        QTest::addColumn<int>("gpus");
        const char* base = R"("isl": 1024, "osl": 1024, "concurrency": [1])";
        auto row = [&](const char* name, const std::string& extra, int nodes, int perNode, int gpus) {
            QTest::newRow(name) << QString::fromStdString("{" + std::string(base) + ", " + extra + "}") << nodes
                                << perNode << gpus;
        };
        row("vllm tp8: one node of 8", R"("recipe": "vllm-b300-nvfp4", "tp": 8)", 1, 8, 8);
        row("recipe's default tp (8)", R"("recipe": "vllm-mi325x-mxfp4")", 1, 8, 8);
        row("tp4: 4 GPUs of a node", R"("recipe": "vllm-b300-nvfp4", "tp": 4)", 1, 4, 4);
        row("tp16: two nodes", R"("recipe": "sglang-b300-nvfp4", "tp": 16, "ep": 16)", 2, 8, 16);
        row("tp16 on 4-GPU nodes", R"("recipe": "vllm-b300-nvfp4", "tp": 16, "gpus_per_node": 4)", 4, 4, 16);
        row("disaggregated 1P + 2D",
            R"("recipe": "sglang-b300-nvfp4", "prefill": {"nodes": 1, "tp": 8}, "decode": {"nodes": 2, "tp": 16})", 3,
            8, 24);
        row("dp attention keeps tp's GPUs", R"("recipe": "sglang-b300-nvfp4", "tp": 8, "dp_attention": true)", 1, 8, 8);
        row("simulation: no GPU", R"("recipe": "sim", "profile": "mi325x-sim", "tp": 8)", 1, 0, 8);
    }
    void resources()
    {
        QFETCH(QString, config);
        QFETCH(int, nodes);
        QFETCH(int, gpusPerNode);
        QFETCH(int, gpus);
        auto m = parseMatrix(one(config.toStdString()), "m.json");
        QVERIFY2(m, m ? "" : m.error().c_str());
        QCOMPARE(paretoscope::taskResources(m->configurations[0]), (TaskResources { nodes, gpusPerNode, gpus }));
        auto args = benchArguments(m->configurations[0]);
        auto it = std::find(args.begin(), args.end(), "--gpus");
        QVERIFY(it != args.end() && *(it + 1) == std::to_string(gpus)); // the runs are labelled with them
        // a recipe starts one engine on one node: what needs more nodes is refused with why, not measured wrong
        const bool simulation = gpusPerNode == 0;
        QCOMPARE(unrunnableReason(m->configurations[0]).has_value(), nodes > 1 && !simulation);
    }

    // A task the recipes cannot run as meant fails at once with the reason in its status file, without running bench.
    void unrunnableTaskFailsWithItsReason()
    {
        auto m = parseMatrix(one(R"({"recipe": "sglang-b300-nvfp4", "prefill": {"nodes": 1}, "decode": {"nodes": 2},
            "isl": 1024, "osl": 1024, "concurrency": [1]})"),
            "m.json");
        QVERIFY2(m, m ? "" : m.error().c_str());
        QTemporaryDir dir;
        QVERIFY(writeArray(*m, "{}", dir.path().toStdString(), "/nonexistent/paretoscope-cli").ok());
        QProcess task;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SLURM_ARRAY_TASK_ID"), QStringLiteral("0"));
        task.setProcessEnvironment(env);
        task.start(QStringLiteral("bash"), { dir.filePath(QStringLiteral("array.sbatch")) });
        QVERIFY(task.waitForFinished(30000));
        QCOMPARE(task.exitCode(), 1);
        QFile status(dir.filePath(QStringLiteral("status/0")));
        QVERIFY(status.open(QIODevice::ReadOnly));
        const QString said = QString::fromUtf8(status.readAll());
        QVERIFY2(said.startsWith(
                     QStringLiteral("failed: not run: a disaggregated configuration (prefill 1 + decode 2 nodes)")),
            qPrintable(said));
        QVERIFY2(said.contains(QStringLiteral("--endpoint")), qPrintable(said));
    }

    void arrayScriptAndShapes()
    {
        auto m = parseMatrix(R"({"slurm": {"partition": "gpu", "time": "01:00:00"}, "configurations": [
            {"name": "a", "recipe": "vllm-b300-nvfp4", "tp": 8, "isl": 1024, "osl": 1024, "concurrency": [1, 4]},
            {"name": "b", "recipe": "sglang-b300-nvfp4", "prefill": {"nodes": 1}, "decode": {"nodes": 2},
             "isl": 1024, "osl": 1024, "concurrency": "auto"},
            {"name": "c", "recipe": "vllm-b300-nvfp4", "tp": 8, "isl": 8192, "osl": 1024, "concurrency": [1]}]})",
            "m.json");
        QVERIFY2(m, m ? "" : m.error().c_str());
        const std::string s = arrayScript(*m, "/shared/sweep", "/opt/bin/paretoscope-cli");
        for (const char* line : { "#SBATCH --array=0-2\n", "#SBATCH --nodes=3\n", "#SBATCH --gpus-per-node=8\n",
                 "#SBATCH --exclusive\n", "#SBATCH --partition=gpu\n", "#SBATCH --time=01:00:00\n",
                 "#   task 1 b: 3 node(s), 8 GPU(s) per node (prefill 1 + decode 2 nodes)\n", "--concurrency auto",
                 "--concurrency 1,4", "mv -f \"$RESULT\" \"$DIR/results/$TASK.json\"",
                 "[ -n \"$PARETOSCOPE_CLI\" ] || PARETOSCOPE_CLI=/opt/bin/paretoscope-cli\n",
                 "#SBATCH --output=/shared/sweep/logs/task-%a.log\n" })
            QVERIFY2(s.find(line) != std::string::npos, line);
        // tasks 0 and 2 share a shape; 1 is submitted on its own with its nodes
        auto cmds = submitCommands(*m, "/shared/sweep/array.sbatch");
        QCOMPARE(cmds.size(), std::size_t(2));
        QCOMPARE(cmds[0],
            (std::vector<std::string> { "sbatch", "--parsable", "--array=0,2", "--nodes=1", "--gpus-per-node=8",
                "/shared/sweep/array.sbatch" }));
        QCOMPARE(cmds[1],
            (std::vector<std::string> {
                "sbatch", "--parsable", "--array=1", "--nodes=3", "--gpus-per-node=8", "/shared/sweep/array.sbatch" }));
    }

    void schedulerStates()
    {
        auto q = parseSchedulerStates("0|RUNNING\n1|PENDING\n\n", false);
        QCOMPARE(q, (std::map<int, std::string> { { 0, "RUNNING" }, { 1, "PENDING" } }));
        auto s = parseSchedulerStates("12_0|COMPLETED\n12_[1-3,5%2]|PENDING\n12_4|CANCELLED by 0\n12|FAILED\n", true);
        QCOMPARE(s,
            (std::map<int, std::string> { { 0, "COMPLETED" }, { 1, "PENDING" }, { 2, "PENDING" }, { 3, "PENDING" },
                { 4, "CANCELLED" }, { 5, "PENDING" } }));
    }

    void statusFromFiles()
    {
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString();
        const std::string text = one(R"({"name": "a", "recipe": "sim", "isl": 64, "osl": 16, "concurrency": [1]},
            {"name": "b", "recipe": "sim", "isl": 64, "osl": 16, "concurrency": [1]},
            {"name": "c", "recipe": "sim", "isl": 64, "osl": 16, "concurrency": [1]})");
        auto m = parseMatrix(text, "m.json");
        QVERIFY(m);
        QVERIFY(writeArray(*m, text, dir, "/bin/paretoscope-cli"));
        std::ofstream(dir + "/status/0") << "finished\n";
        std::ofstream(dir + "/status/1") << "failed: the engine exited\n";
        auto st = arrayStatus(dir);
        QVERIFY2(st, st ? "" : st.error().c_str());
        QCOMPARE(st->tasks.size(), std::size_t(3));
        QCOMPARE(st->tasks[0].state, std::string("finished"));
        QCOMPARE(st->tasks[0].results, dir + "/results/0.json");
        QCOMPARE(st->tasks[1].state, std::string("failed"));
        QCOMPARE(st->tasks[1].reason, std::string("the engine exited"));
        QCOMPARE(st->tasks[2].state, std::string("pending")); // not submitted: no jobs file
        QVERIFY(!st->ended);
        QVERIFY(!arrayStatus(dir + "/nowhere"));
    }

    // cluster collect imports what finished, then exits 1 because a task failed; run again it imports nothing and
    // still exits 1, since the sweep is still not whole
    void collectExitsOneWhenATaskFailed()
    {
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString() + "/array";
        const std::string text = one(R"({"name": "good", "recipe": "sim", "isl": 64, "osl": 16, "concurrency": [1, 2]},
            {"name": "bad", "recipe": "sim", "profile": "h100-sim", "isl": 64, "osl": 16, "concurrency": [1]})");
        auto m = parseMatrix(text, "m.json");
        QVERIFY(m);
        QVERIFY(writeArray(*m, text, dir, "/bin/paretoscope-cli"));
        std::string json = "[";
        for (int c : { 1, 2 }) { // what the good task exported: its two levels
            RunRecord r;
            r.model = "DeepSeek-V4.1-Flash";
            r.hardware = "b300-sim";
            r.engine = "engine-sim";
            r.precision = "fp4";
            r.isl = 64;
            r.osl = 16;
            r.workload = "random";
            r.tp = m->configurations[0].tp; // what the task's bench labels its runs with (collect checks them)
            r.gpus = taskResources(m->configurations[0]).gpus;
            r.concurrency = c;
            r.interactivity = 100.0 / c;
            r.tputPerGpu = 50.0 * c;
            json += runRecordJson(r) + (c == 2 ? "]" : ",");
        }
        std::ofstream(dir + "/results/0.json") << json;
        std::ofstream(dir + "/status/0") << "finished\n";
        std::ofstream(dir + "/status/1") << "failed: unknown profile h100-sim\n";
        const QString db = tmp.filePath(QStringLiteral("store.sqlite"));
        for (int pass = 0; pass < 2; ++pass) {
            QProcess cli;
            cli.start(cliProgram(),
                { QStringLiteral("cluster"), QStringLiteral("collect"), QString::fromStdString(dir),
                    QStringLiteral("--db"), db });
            QVERIFY(cli.waitForFinished(60000));
            const QByteArray out = cli.readAllStandardOutput();
            QCOMPARE(cli.exitCode(), 1);
            QCOMPARE(out.contains(R"({"duplicates":0,"imported":2,"name":"good","task":0})"), pass == 0);
            QVERIFY2(out.contains(R"("reason":"unknown profile h100-sim","state":"failed","task":1)"), out.constData());
            QVERIFY(cli.readAllStandardError().contains("1 of 2 task(s) failed"));
        }
    }
};

PARETOSCOPE_GUILESS_SUITE(TestCluster)
#include "tests/support/testpaths.h"
#include "tst_cluster.moc"
