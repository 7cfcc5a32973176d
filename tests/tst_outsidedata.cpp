// Data from someone else never runs code, crashes or hangs: a sweep matrix from a colleague, a store or a JSON of runs
// from another team, a TCO model from finance, a results folder on a shared cluster disk, a journal, a pasted view.
// One test (or row) per way such data once broke the program; each names what it guards against.
#include <QtTest>

#include <QProcess>
#include <QTemporaryDir>

#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "core/analysis/numberformat.h"
#include "core/analysis/tco.h"
#include "core/analysis/viewoptions.h"
#include "core/live/cluster.h"
#include "core/live/matrix.h"
#include "core/live/sessionjournal.h"
#include "core/live/sessionstore.h"
#include "core/model/outsidefile.h"
#include "core/model/printable.h"
#include "core/output/reports.h"
#include "core/store/storecheck.h"
#include "tests/support/clichild.h"
#include "tests/support/sessionconfigs.h"
#include "tests/support/simtasks.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;

namespace {

namespace fs = std::filesystem;

std::string readText(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// A program of the test's own: records its arguments, one per line with the bytes escaped, into LOG.
void writeRecorder(const std::string& path, const std::string& log, const std::string& thenRun = {})
{
    writeText(path,
        "#!/bin/bash\nfor a in \"$@\"; do printf '%q\\n' \"$a\"; done >> " + shellQuote(log) + "\necho --- >> "
            + shellQuote(log) + "\n" + thenRun);
    fs::permissions(path, fs::perms::owner_all);
}

// The words one call of a recorder logged, read back the way bash wrote them (printf %q).
QStringList recordedCalls(const std::string& log)
{
    QProcess bash;
    bash.start(QStringLiteral("bash"),
        { QStringLiteral("-c"),
            QStringLiteral("while IFS= read -r line; do if [ \"$line\" = --- ]; then printf '<end>\\0'; else eval "
                           "\"w=$line\"; printf '%s\\0' \"$w\"; fi; done < \"$1\""),
            QStringLiteral("_"), QString::fromStdString(log) });
    bash.waitForFinished(30000);
    QStringList words;
    for (const QByteArray& w : bash.readAllStandardOutput().split('\0'))
        words << QString::fromUtf8(w);
    return words;
}

bool makeFifo(const std::string& path)
{
    return ::mkfifo(path.c_str(), 0644) == 0;
}

} // namespace

class TestOutsideData : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // bash's completion and the tasks' scripts are run for real below
        QVERIFY(QProcess::execute(QStringLiteral("bash"), { QStringLiteral("-c"), QStringLiteral("true") }) == 0);
    }

    // 1. A configuration name with a line break, a $(...) or backticks, a folder and a CLI path with the same: the
    // emitted array and submit scripts pass bash -n and, run under a stand-in sbatch, run nothing of them; each task's
    // paretoscope-cli gets its arguments exactly.
    void arrayScriptsRunNothingOfTheirValues()
    {
        QTemporaryDir tmp;
        const std::string base = tmp.path().toStdString();
        const std::string mark = base + "/ran";
        const std::vector<std::string> names { "a\ntouch " + mark + "-newline\n#", "$(touch " + mark + "-dollar)",
            "`touch " + mark + "-backtick`", "it's \"quoted\" %a #x" };
        const std::string text = simMatrix(names);
        auto m = parseMatrix(text, "m.json");
        QVERIFY2(m, m ? "" : m.error().c_str());
        const std::string dir = base + "/sweep $(touch " + mark + "-dir) `x` 'q' %a";
        const std::string cliDir = base + "/bin $(touch " + mark + "-cli)";
        fs::create_directories(cliDir);
        const std::string cli = cliDir + "/paretoscope-cli";
        const std::string cliLog = base + "/cli.log";
        writeRecorder(cli, cliLog, "exit 3\n"); // bench "fails": the task writes its status and ends
        QVERIFY(writeArray(*m, text, dir, cli));
        for (const char* script : { "/array.sbatch", "/submit.sh" }) {
            QProcess check;
            check.start(QStringLiteral("bash"), { QStringLiteral("-n"), QString::fromStdString(dir + script) });
            QVERIFY(check.waitForFinished(10000));
            QVERIFY2(check.exitCode() == 0, check.readAllStandardError().constData());
        }
        // sbatch stands in: it records its arguments, then runs the array's tasks one by one as Slurm would
        const std::string binDir = base + "/slurm-bin", sbatchLog = base + "/sbatch.log";
        fs::create_directories(binDir);
        writeRecorder(binDir + "/sbatch", sbatchLog,
            "script=\"${@: -1}\"\nfor t in 0 1 2 3; do SLURM_ARRAY_TASK_ID=$t bash \"$script\" >/dev/null 2>&1; done\n"
            "echo 4242\n");
        QProcess submit;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PATH"),
            QString::fromStdString(binDir) + QStringLiteral(":") + env.value(QStringLiteral("PATH")));
        env.remove(QStringLiteral("PARETOSCOPE_CLI"));
        submit.setProcessEnvironment(env);
        submit.start(QStringLiteral("sh"), { QString::fromStdString(dir + "/submit.sh") });
        QVERIFY(submit.waitForFinished(60000));
        QVERIFY2(submit.exitCode() == 0, submit.readAllStandardError().constData());
        QCOMPARE(readText(dir + "/jobs"), std::string("4242\n"));
        for (const auto& entry : fs::directory_iterator(base))
            QVERIFY2(!entry.path().filename().string().starts_with("ran"), entry.path().c_str());
        QCOMPARE(recordedCalls(sbatchLog),
            (QStringList { QStringLiteral("--parsable"), QString::fromStdString(dir + "/array.sbatch"),
                QStringLiteral("<end>"), QStringLiteral("") }));
        // each task ran bench with its configuration's arguments, then failed with the reason its status says
        const QStringList calls = recordedCalls(cliLog);
        for (std::size_t i = 0; i < names.size(); ++i) {
            QStringList want { QStringLiteral("bench") };
            for (const std::string& a : benchArguments(m->configurations[i]))
                want << QString::fromStdString(a);
            want << QStringLiteral("--db")
                 << QString::fromStdString(dir + "/work/" + std::to_string(i) + "/store.sqlite");
            QVERIFY2(calls.join(u'\n').contains(want.join(u'\n')), qPrintable(calls.join(QStringLiteral(" | "))));
            QVERIFY(readText(dir + "/status/" + std::to_string(i)).starts_with("failed"));
        }
        // a folder with a line break cannot go into #SBATCH lines: refused, saying why
        auto refused = writeArray(*m, text, base + "/line\nbreak", cli);
        QVERIFY(!refused);
        QVERIFY2(QString::fromStdString(refused.error()).contains(QStringLiteral("control character (\\n)")),
            refused.error().c_str());
    }

    // 1. bench --emit-sbatch: the command it writes gives the CLI its arguments back exactly, whatever they hold (a
    // path with a line break, a $(...), backticks and quotes).
    void benchScriptRunsNothingOfItsArguments()
    {
        QTemporaryDir tmp;
        const std::string base = tmp.path().toStdString();
        const std::string mark = base + "/ran";
        const QString log = QString::fromStdString(base + "/x\n$(touch " + mark + ")`touch " + mark + "2`'\".log");
        const std::string script = base + "/bench.sbatch";
        auto made = cli({ QStringLiteral("bench"), QStringLiteral("--recipe"), QStringLiteral("sim"),
            QStringLiteral("--isl"), QStringLiteral("64"), QStringLiteral("--osl"), QStringLiteral("16"),
            QStringLiteral("--concurrency"), QStringLiteral("1"), QStringLiteral("--engine-log"), log,
            QStringLiteral("--emit-sbatch"), QString::fromStdString(script) });
        QVERIFY2(made.code == 0, made.err.constData());
        const std::string calls = base + "/cli.log";
        writeRecorder(base + "/cli", calls);
        QProcess run;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PARETOSCOPE_CLI"), QString::fromStdString(base + "/cli"));
        env.insert(QStringLiteral("RESULTS"), QString::fromStdString(base + "/results"));
        run.setProcessEnvironment(env);
        run.start(QStringLiteral("bash"), { QString::fromStdString(script) });
        QVERIFY(run.waitForFinished(30000));
        QVERIFY2(run.exitCode() == 0, run.readAllStandardError().constData());
        QVERIFY(!fs::exists(mark) && !fs::exists(mark + "2"));
        const QStringList words = recordedCalls(calls);
        const qsizetype at = words.indexOf(QStringLiteral("--engine-log"));
        QVERIFY2(at > 0 && words.value(at + 1) == log, qPrintable(words.join(QStringLiteral(" | "))));
        QCOMPARE(words.first(), QStringLiteral("bench"));
    }

    // 3. Files are written under a temporary name and renamed: a link planted at array.sbatch is replaced, its target
    // untouched; the collected list and a journal refuse to append through a link.
    void writesNeverFollowALink()
    {
        QTemporaryDir tmp;
        const std::string base = tmp.path().toStdString(), dir = base + "/sweep", victim = base + "/victim";
        writeText(victim, "precious\n");
        fs::create_directories(dir);
        fs::create_symlink(victim, dir + "/array.sbatch");
        fs::create_symlink(victim, dir + "/submit.sh");
        const std::string text = simMatrix({ "a" });
        auto m = parseMatrix(text, "m.json");
        QVERIFY(m);
        QVERIFY(writeArray(*m, text, dir, "/bin/paretoscope-cli"));
        QCOMPARE(readText(victim), std::string("precious\n"));
        QVERIFY(fs::is_regular_file(fs::symlink_status(dir + "/array.sbatch")));
        QVERIFY(readText(dir + "/array.sbatch").starts_with("#!/bin/bash"));

        writeText(dir + "/results/0.json", "[" + runRecordJson(simResult(m->configurations[0], 1)) + "]");
        writeText(dir + "/status/0", "finished\n");
        fs::create_symlink(victim, dir + "/collected");
        auto store = openTempStore(tmp);
        auto st = arrayStatus(dir, store->path());
        QVERIFY(st);
        const auto collected = collectFinished(*store, dir, *st);
        QCOMPARE(collected.size(), std::size_t(1));
        QVERIFY2(QString::fromStdString(collected[0].error).contains(QStringLiteral("symbolic link")),
            collected[0].error.c_str());
        QCOMPARE(readText(victim), std::string("precious\n"));

        auto appended = appendToFile(dir + "/collected", "0\tx\n");
        QVERIFY(!appended);
        auto id = createSession(*store, quickConfig("http://127.0.0.1:1"), "");
        QVERIFY(id);
        fs::create_directories(sessionjournal::directory(store->path()));
        fs::create_symlink(
            victim, sessionjournal::directory(store->path()) + "/session-" + std::to_string(*id) + ".jsonl");
        QVERIFY(!sessionjournal::keepEnd(store->path(), *id, "failed", "x"));
        QCOMPARE(readText(victim), std::string("precious\n"));
    }

    // 4. A status file whose reason was cut in the middle of a character (the task script cuts at 1,000 bytes): the
    // status and collect commands answer (the bad bytes as U+FFFD), they do not abort.
    void aStatusCutMidCharacterIsReported()
    {
        QTemporaryDir tmp;
        const std::string dir = tmp.path().toStdString() + "/sweep";
        const std::string text = simMatrix({ "a" });
        auto m = parseMatrix(text, "m.json");
        QVERIFY(writeArray(*m, text, dir, "/bin/paretoscope-cli"));
        writeText(dir + "/status/0", "failed: the engine said \xe2\x80\n");
        const QString db = tmp.filePath(QStringLiteral("store.sqlite"));
        auto status = cli({ QStringLiteral("cluster"), QStringLiteral("status"), QString::fromStdString(dir),
            QStringLiteral("--format"), QStringLiteral("json") });
        QCOMPARE(status.code, 0);
        auto j = nlohmann::json::parse(status.out.toStdString(), nullptr, false);
        QVERIFY2(!j.is_discarded(), status.out.constData());
        QCOMPARE(QString::fromStdString(j["tasks"][0]["reason"].get<std::string>()),
            QString::fromUtf8("the engine said \xef\xbf\xbd"));
        auto collect = cli({ QStringLiteral("cluster"), QStringLiteral("collect"), QString::fromStdString(dir),
            QStringLiteral("--db"), db });
        QCOMPARE(collect.code, 1); // a failed task, said as such
        QVERIFY2(collect.out.contains("\\ufffd") || collect.out.contains("\xef\xbf\xbd"), collect.out.constData());
    }

    // 4 and 7. A journal line is checked field by field and speaks only for the session its file is kept for.
    void journalLinesAreChecked_data()
    {
        QTest::addColumn<QString>("file"); // under STORE-sessions/; SESSION is the store's session id
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("why");
        const QString level
            = QStringLiteral(R"("level":0,"concurrency":4,"metrics":"{}","requests":"","record":{"model":"m",)"
                             R"("hardware":"b300","engine":"vllm","precision":"fp4","concurrency":4,)"
                             R"("tput_per_gpu":100,"interactivity":20})");
        QTest::newRow("session as text") << "session-SESSION.jsonl"
                                         << R"({"session":"1","status":"failed"})"
                                         << "field session: missing or not a whole number";
        QTest::newRow("level as text") << "session-SESSION.jsonl"
                                       << R"({"session":SESSION,"level":"x","concurrency":4})"
                                       << "field level: missing or not a whole number";
        QTest::newRow("metrics as a number") << "session-SESSION.jsonl"
                                             << R"({"session":SESSION,"level":0,"concurrency":4,"metrics":5})"
                                             << "field metrics: missing or not text";
        QTest::newRow("status as a number") << "session-SESSION.jsonl"
                                            << R"({"session":SESSION,"status":3})"
                                            << "field status: missing or not text";
        QTest::newRow("another session's line") << "session-SESSION.jsonl"
                                                << R"({"session":OTHER,"status":"finished"})"
                                                << "but the file is kept for session";
        QTest::newRow("a session the store lacks") << "session-999.jsonl"
                                                   << R"({"session":999,"status":"finished"})"
                                                   << "this store has no session 999";
        QTest::newRow("session -1") << "session--1.jsonl"
                                    << R"({"session":-1,"status":"finished"})"
                                    << "not a session's file";
        QTest::newRow("concurrency -5") << QStringLiteral("session-SESSION.jsonl")
                                        << QStringLiteral("{\"session\":SESSION,")
                + QString(level).replace(
                    QStringLiteral("\"concurrency\":4,\"metrics\""), QStringLiteral("\"concurrency\":-5,\"metrics\""))
                + QStringLiteral("}") << QStringLiteral("field concurrency: -5 is out of range");
        QTest::newRow("level 2^40") << QStringLiteral("session-SESSION.jsonl")
                                    << QStringLiteral("{\"session\":SESSION,")
                + QString(level).replace(QStringLiteral("\"level\":0"), QStringLiteral("\"level\":1099511627776"))
                + QStringLiteral("}")
                                    << QStringLiteral("field level: 1099511627776 is out of range");
        QTest::newRow("an end no session has") << "session-SESSION.jsonl"
                                               << R"({"session":SESSION,"status":"exploded"})"
                                               << "is not how a session ends";
    }

    void journalLinesAreChecked()
    {
        QFETCH(QString, file);
        QFETCH(QString, line);
        QFETCH(QString, why);
        QTemporaryDir tmp;
        auto store = openTempStore(tmp);
        SessionConfig c = quickConfig("http://127.0.0.1:1");
        auto first = createSession(*store, c, "");
        auto second = createSession(*store, c, "");
        QVERIFY(first && second);
        QVERIFY(finishSession(*store, *first, "failed", "the store was full"));
        QVERIFY(finishSession(*store, *second, "finished", ""));
        const QString session = QString::number(*first), other = QString::number(*second);
        const std::string folder = sessionjournal::directory(store->path());
        fs::create_directories(folder);
        writeText(folder + "/" + QString(file).replace(QStringLiteral("SESSION"), session).toStdString(),
            QString(line)
                    .replace(QStringLiteral("SESSION"), session)
                    .replace(QStringLiteral("OTHER"), other)
                    .toStdString()
                + "\n");
        const QString db = QString::fromStdString(store->path());
        store.reset();
        auto recovered = cli({ QStringLiteral("sessions"), QStringLiteral("--db"), db, QStringLiteral("--recover") });
        QCOMPARE(recovered.code, 1); // not 134: nothing aborts
        QVERIFY2(text(recovered).contains(why), qPrintable(text(recovered)));
        auto again = RunStore::open(db.toStdString());
        QVERIFY(again);
        const auto list = sessions(**again);
        for (const SessionInfo& s : list) // neither session was changed by the line
            QCOMPARE(QString::fromStdString(s.status),
                s.id == *first ? QStringLiteral("failed") : QStringLiteral("finished"));
        QCOMPARE(list.size(), std::size_t(2));
        auto report = checkStore(db.toStdString());
        QVERIFY2(report && report->ok(), report ? report->text().c_str() : report.error().c_str());
    }

    // 5. Files nested 100,000 deep: a clean error, not a crash of the stack.
    void deepNestingIsRefused()
    {
        const std::string deep = std::string(100000, '[') + std::string(100000, ']');
        const std::string deepObject = "{\"source\": \"s\", \"hardware\": " + std::string(100000, '[') + "]}";
        auto tco = parseTco("{\"source\": \"s\", \"hardware\": {\"b300\": " + deep + "}}", "tco.json");
        QVERIFY(!tco);
        QVERIFY2(
            QString::fromStdString(tco.error()).contains(QStringLiteral("nested deeper than")), tco.error().c_str());
        auto matrix = parseMatrix("{\"configurations\": " + deep + "}", "m.json");
        QVERIFY(!matrix);
        QVERIFY2(QString::fromStdString(matrix.error()).contains(QStringLiteral("nested deeper than")),
            matrix.error().c_str());
        QVERIFY(!parseTco(deepObject, "tco.json"));
        auto line = sessionjournal::parseLine("{\"session\": 1, \"record\": " + deep + "}", 1, "s.jsonl: line 1");
        QVERIFY(!line);
    }

    // 6. A FIFO where a file is read (a result, a status file, a matrix, a journal): refused at once, never waited on.
    void fifosAreRefusedAtOnce()
    {
        QTemporaryDir tmp;
        const std::string base = tmp.path().toStdString(), dir = base + "/sweep";
        const std::string text = simMatrix({ "a", "b" });
        auto m = parseMatrix(text, "m.json");
        QVERIFY(writeArray(*m, text, dir, "/bin/paretoscope-cli"));
        QVERIFY(makeFifo(dir + "/results/0.json"));
        writeText(dir + "/status/0", "finished\n");
        QVERIFY(makeFifo(dir + "/status/1"));
        const QString db = tmp.filePath(QStringLiteral("store.sqlite"));
        QElapsedTimer clock;
        clock.start();
        auto status
            = CliChild({ QStringLiteral("cluster"), QStringLiteral("status"), QString::fromStdString(dir) }).wait(30);
        QCOMPARE(status.code, 0);
        QVERIFY2(status.out.contains("a FIFO, not a regular file"), status.out.constData());
        auto collect = CliChild({ QStringLiteral("cluster"), QStringLiteral("collect"), QString::fromStdString(dir),
                                    QStringLiteral("--db"), db })
                           .wait(30);
        QCOMPARE(collect.code, 1);
        QVERIFY2(collect.out.contains("a FIFO, not a regular file"), collect.out.constData());
        fs::remove(dir + "/matrix.json");
        QVERIFY(makeFifo(dir + "/matrix.json"));
        auto noMatrix
            = CliChild({ QStringLiteral("cluster"), QStringLiteral("status"), QString::fromStdString(dir) }).wait(30);
        QCOMPARE(noMatrix.code, 1);
        QVERIFY2(noMatrix.err.contains("a FIFO"), noMatrix.err.constData());
        auto matrixFifo = CliChild(
            { QStringLiteral("bench"), QStringLiteral("--matrix"), QString::fromStdString(dir + "/matrix.json"),
                QStringLiteral("--emit-sbatch"), QString::fromStdString(base + "/other") })
                              .wait(30);
        QCOMPARE(matrixFifo.code, 2);
        QVERIFY(cli({ QStringLiteral("seed"), QStringLiteral("--db"), db }).code == 0);
        fs::create_directories(db.toStdString() + "-sessions");
        QVERIFY(makeFifo(db.toStdString() + "-sessions/session-1.jsonl"));
        auto list = CliChild({ QStringLiteral("sessions"), QStringLiteral("--db"), db }).wait(30);
        QCOMPARE(list.code, 0);
        auto recover = CliChild({ QStringLiteral("sessions"), QStringLiteral("--db"), db, QStringLiteral("--recover") })
                           .wait(30);
        QCOMPARE(recover.code, 1);
        QVERIFY2(recover.out.contains("FIFO") || recover.out.contains("no session 1"), recover.out.constData());
        auto tco = CliChild(
            { QStringLiteral("plan"), QStringLiteral("--db"), db, QStringLiteral("--model"),
                QStringLiteral("DeepSeek-V4.1-Flash"), QStringLiteral("--workload"), QStringLiteral("agentic coding"),
                QStringLiteral("--demand"), QStringLiteral("1e6"), QStringLiteral("--unit"), QStringLiteral("tok/s"),
                QStringLiteral("--target"), QStringLiteral("50"), QStringLiteral("--tco"),
                QString::fromStdString(dir + "/matrix.json") })
                       .wait(30);
        QCOMPARE(tco.code, 1);
        QVERIFY2(tco.err.contains("a FIFO"), tco.err.constData());
        QVERIFY2(clock.elapsed() < 60000, "a FIFO was waited on");
    }

    // 11. The explorer's --view exits as the CLI does on a tier or baseline it does not know.
    void explorerViewExitsAsTheCliDoes_data()
    {
        QTest::addColumn<QString>("option");
        QTest::addColumn<QString>("value");
        QTest::newRow("unknown tier") << "--tier"
                                      << "platinum";
        QTest::newRow("unknown baseline") << "--baseline"
                                          << "tpu-v9";
    }

    void explorerViewExitsAsTheCliDoes()
    {
        QFETCH(QString, option);
        QFETCH(QString, value);
        QTemporaryDir tmp;
        const QString db = tmp.filePath(QStringLiteral("store.sqlite"));
        QVERIFY(cli({ QStringLiteral("seed"), QStringLiteral("--db"), db }).code == 0);
        const QStringList view { QStringLiteral("--model"), QStringLiteral("DeepSeek-V4.1-Flash"),
            QStringLiteral("--workload"), QStringLiteral("agentic coding"), option, value };
        auto byCli = cli(QStringList { QStringLiteral("ladder"), QStringLiteral("--db"), db } + view);
        QVERIFY(byCli.code != 0);
        QProcess gui;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), tmp.filePath(QStringLiteral("config")));
        gui.setProcessEnvironment(env);
        gui.start(guiProgram(),
            { QStringLiteral("--db"), db, QStringLiteral("--view"),
                view.join(u' ').replace(QStringLiteral("agentic coding"), QStringLiteral("'agentic coding'")),
                QStringLiteral("--screenshot"), tmp.filePath(QStringLiteral("shot.png")) });
        QVERIFY(gui.waitForFinished(60000));
        QCOMPARE(gui.exitCode(), byCli.code);
        QVERIFY2(gui.readAllStandardError().contains(value.toUtf8()), "the error names the value");
    }
};

PARETOSCOPE_GUILESS_SUITE(TestOutsideData)
#include "tests/support/testpaths.h"
#include "tst_outsidedata.moc"
