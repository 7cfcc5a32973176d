// paretoscope-cli as scripts use it: the seed table (docs/architecture.md section 14) from the bundled dataset in the
// default store, the import contract (one JSON line per input, exit codes), frontier and tiers output.
#include <QtTest>

#include <tuple>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <cmath>

#include "tests/support/suite.h"
#include "tests/support/testutil.h"

using namespace paretoscope::testsupport;

namespace {
struct Run {
    int code = -1;
    QByteArray out, err;
};

Run cli(const QStringList& args, const QString& dataHome)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_DATA_HOME"), dataHome);
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(PARETOSCOPE_CLI), args);
    p.waitForFinished(120000);
    return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
        p.readAllStandardError() };
}

const QStringList kSeedScope { QStringLiteral("--model"), QStringLiteral("DeepSeek-V4.1-Flash"),
    QStringLiteral("--workload"), QStringLiteral("agentic coding") };
} // namespace

class TestCli : public QObject {
    Q_OBJECT
private slots:
    void seedTable_data()
    {
        // the published InferenceX readings for DeepSeek V4.1 Flash, agentic, FP4 (docs/architecture.md section 14)
        QTest::addColumn<QString>("hardware");
        QTest::addColumn<double>("target");
        QTest::addColumn<QString>("status");
        QTest::addColumn<double>("tput");
        QTest::addColumn<QString>("engine");
        QTest::newRow("b300 30") << "b300" << 30.0 << "below_range" << 0.0 << "";
        QTest::newRow("b300 50") << "b300" << 50.0 << "ok" << 328417.0 << "vllm";
        QTest::newRow("b300 75") << "b300" << 75.0 << "ok" << 249248.0 << "vllm";
        QTest::newRow("b300 100") << "b300" << 100.0 << "ok" << 214417.0 << "vllm";
        QTest::newRow("b300 150") << "b300" << 150.0 << "ok" << 138983.0 << "vllm";
        QTest::newRow("b300 200") << "b300" << 200.0 << "ok" << 88417.0 << "sglang";
        QTest::newRow("mi325x 30") << "mi325x" << 30.0 << "ok" << 24472.0 << "vllm";
        QTest::newRow("mi325x 50") << "mi325x" << 50.0 << "ok" << 17745.0 << "vllm";
        QTest::newRow("mi325x 75") << "mi325x" << 75.0 << "ok" << 13945.0 << "vllm";
        QTest::newRow("mi325x 100") << "mi325x" << 100.0 << "ok" << 11287.0 << "vllm";
        QTest::newRow("mi325x 150") << "mi325x" << 150.0 << "ok" << 4673.0 << "vllm";
        QTest::newRow("mi325x 200") << "mi325x" << 200.0 << "ok" << 3435.0 << "vllm";
    }
    void seedTable()
    {
        QFETCH(QString, hardware);
        QFETCH(double, target);
        QFETCH(QString, status);
        QFETCH(double, tput);
        QFETCH(QString, engine);
        QTemporaryDir home;
        Run r = cli(
            QStringList { QStringLiteral("ladder") } + kSeedScope, home.path()); // default store, seeded on first use
        QCOMPARE(r.code, 0);
        QJsonObject root = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(root.keys(), (QStringList { QStringLiteral("b300"), QStringLiteral("mi325x") }));
        QJsonObject row;
        for (const auto& v : root[hardware].toArray())
            if (v.toObject()[QStringLiteral("target")].toDouble() == target)
                row = v.toObject();
        QCOMPARE(row[QStringLiteral("status")].toString(), status);
        for (const QString& key : { QStringLiteral("target"), QStringLiteral("status"), QStringLiteral("tput_per_gpu"),
                 QStringLiteral("engine"), QStringLiteral("precision"), QStringLiteral("spec_decoding"),
                 QStringLiteral("cost_per_mtok"), QStringLiteral("tier") })
            QVERIFY2(row.contains(key), qPrintable(key));
        if (status == QStringLiteral("ok")) {
            QCOMPARE(row[QStringLiteral("tput_per_gpu")].toDouble(), tput);
            QCOMPARE(row[QStringLiteral("engine")].toString(), engine);
            QCOMPARE(row[QStringLiteral("precision")].toString(), QStringLiteral("fp4"));
        } else {
            QVERIFY(row[QStringLiteral("tput_per_gpu")].isNull());
            QVERIFY(row[QStringLiteral("cost_per_mtok")].isNull());
        }
    }

    void seedCosts_data()
    {
        QTest::addColumn<QString>("tier");
        QTest::addColumn<QString>("b300");
        QTest::addColumn<QString>("mi325x");
        QTest::newRow("hyperscaler") << "hyperscaler"
                                     << "0.002"
                                     << "0.017";
        QTest::newRow("retail") << "retail"
                                << "0.004"
                                << "0.025";
    }
    void seedCosts()
    {
        QFETCH(QString, tier);
        QFETCH(QString, b300);
        QFETCH(QString, mi325x);
        QTemporaryDir home;
        Run r = cli(QStringList { QStringLiteral("ladder"), QStringLiteral("--targets"), QStringLiteral("50"),
                        QStringLiteral("--tier"), tier }
                + kSeedScope,
            home.path());
        QCOMPARE(r.code, 0);
        QJsonObject root = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(
            QString::number(root[QStringLiteral("b300")][0][QStringLiteral("cost_per_mtok")].toDouble(), 'f', 3), b300);
        QCOMPARE(QString::number(root[QStringLiteral("mi325x")][0][QStringLiteral("cost_per_mtok")].toDouble(), 'f', 3),
            mi325x);
        QCOMPARE(root[QStringLiteral("b300")][0][QStringLiteral("tier")].toString(), tier);
        // the table prints the same, with "-" where the frontier does not reach
        Run t = cli(QStringList { QStringLiteral("ladder"), QStringLiteral("--format"), QStringLiteral("table"),
                        QStringLiteral("--tier"), tier }
                + kSeedScope,
            home.path());
        QVERIFY(t.out.contains("$" + b300.toUtf8()));
        QVERIFY(t.out.contains("328,417"));
        QVERIFY(t.out.contains("below_range"));
    }

    void customPriceAndClamp()
    {
        QTemporaryDir home;
        Run r = cli(QStringList { QStringLiteral("ladder"), QStringLiteral("--targets"), QStringLiteral("30,50"),
                        QStringLiteral("--price"), QStringLiteral("3.6"), QStringLiteral("--clamp"),
                        QStringLiteral("--hardware"), QStringLiteral("B300") }
                + kSeedScope,
            home.path());
        QCOMPARE(r.code, 0);
        QJsonObject root = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(root.keys(), QStringList { QStringLiteral("b300") });
        QJsonObject at30 = root[QStringLiteral("b300")][0].toObject(),
                    at50 = root[QStringLiteral("b300")][1].toObject();
        QCOMPARE(at30[QStringLiteral("status")].toString(), QStringLiteral("below_range"));
        QCOMPARE(at30[QStringLiteral("clamped")].toString(), QStringLiteral("below"));
        QCOMPARE(at30[QStringLiteral("tput_per_gpu")].toDouble(), 328417.0);
        QCOMPARE(at50[QStringLiteral("tier")].toString(), QStringLiteral("custom"));
        // $3.60/GPU/hr at 328,417 tok/s/GPU: 3.6 / (328417 * 3600) * 1e6
        QVERIFY(std::abs(at50[QStringLiteral("cost_per_mtok")].toDouble() - 3.6 / (328417.0 * 3600) * 1e6) < 1e-15);
    }

    void baselineRatio()
    {
        QTemporaryDir home;
        Run r = cli(QStringList { QStringLiteral("ladder"), QStringLiteral("--targets"), QStringLiteral("30,50,100"),
                        QStringLiteral("--baseline"), QStringLiteral("MI325X"), QStringLiteral("--hardware"),
                        QStringLiteral("b300") }
                + kSeedScope,
            home.path());
        QCOMPARE(r.code, 0);
        QJsonObject root = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(root.keys(),
            (QStringList { QStringLiteral("b300"),
                QStringLiteral("mi325x") })); // the baseline is read though --hardware left it out
        // by hand from the published readings (seedTable): 328,417 / 17,745 and 214,417 / 11,287, to 1e-12
        QVERIFY(std::abs(root[QStringLiteral("b300")][1][QStringLiteral("vs_baseline")].toDouble() - 328417.0 / 17745.0)
            < 1e-12);
        QVERIFY(std::abs(root[QStringLiteral("b300")][2][QStringLiteral("vs_baseline")].toDouble() - 214417.0 / 11287.0)
            < 1e-12);
        QCOMPARE(
            root[QStringLiteral("b300")][1][QStringLiteral("vs_baseline_status")].toString(), QStringLiteral("ok"));
        QVERIFY(root[QStringLiteral("b300")][0][QStringLiteral("vs_baseline")].isNull()); // b300 has no reading at 30
        QCOMPARE(root[QStringLiteral("b300")][0][QStringLiteral("vs_baseline_status")].toString(),
            QStringLiteral("no_value"));
        QCOMPARE(root[QStringLiteral("mi325x")][1][QStringLiteral("vs_baseline")].toDouble(), 1.0);
        QCOMPARE(root[QStringLiteral("mi325x")][1][QStringLiteral("vs_baseline_status")].toString(),
            QStringLiteral("baseline"));
        // without --baseline the JSON contract is unchanged
        Run plain = cli(
            QStringList { QStringLiteral("ladder"), QStringLiteral("--targets"), QStringLiteral("50") } + kSeedScope,
            home.path());
        QVERIFY(!plain.out.contains("vs_baseline"));
        Run t = cli(QStringList { QStringLiteral("ladder"), QStringLiteral("--format"), QStringLiteral("table"),
                        QStringLiteral("--baseline"), QStringLiteral("mi325x") }
                + kSeedScope,
            home.path());
        QCOMPARE(t.code, 0);
        QVERIFY(t.out.contains("vs mi325x"));
        QVERIFY(t.out.contains("18.5x"));
        QVERIFY(t.out.contains("baseline"));
        Run c = cli(QStringList { QStringLiteral("ladder"), QStringLiteral("--format"), QStringLiteral("csv"),
                        QStringLiteral("--targets"), QStringLiteral("50"), QStringLiteral("--baseline"),
                        QStringLiteral("mi325x") }
                + kSeedScope,
            home.path());
        QVERIFY(c.out.split('\n')[0].endsWith(",baseline,vs_baseline,vs_baseline_status"));
        Run s = cli(QStringList { QStringLiteral("summary"), QStringLiteral("--baseline"), QStringLiteral("mi325x") }
                + kSeedScope,
            home.path());
        QCOMPARE(s.code, 0);
        QVERIFY2(s.out.contains("| vs MI325X at 50 tok/s/user | 18.5x | baseline |"), s.out.constData());
        Run missing = cli(
            QStringList { QStringLiteral("ladder"), QStringLiteral("--baseline"), QStringLiteral("h100") } + kSeedScope,
            home.path());
        QCOMPARE(missing.code, 1);
        QVERIFY(missing.err.contains("--baseline h100"));
    }

    void importContract()
    {
        QTemporaryDir home, dir;
        const QString db = dir.filePath(QStringLiteral("s.sqlite")), bad = dir.filePath(QStringLiteral("bad.json"));
        QVERIFY(writeFile(bad, "{ not json"));
        Run r = cli({ QStringLiteral("import"), QStringLiteral("--db"), db,
                        fixture(QStringLiteral("inferencex-app-api/benchmarks.json")), bad },
            home.path());
        QCOMPARE(r.code, 1);
        QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        QJsonObject ok = QJsonDocument::fromJson(lines[0]).object(), err = QJsonDocument::fromJson(lines[1]).object();
        QCOMPARE(ok[QStringLiteral("format")].toString(), QStringLiteral("inferencex-api"));
        QCOMPARE(ok[QStringLiteral("imported")].toInt(), 435);
        QCOMPARE(ok[QStringLiteral("duplicates")].toInt(), 0);
        QCOMPARE(err[QStringLiteral("source")].toString(), bad);
        QVERIFY(err[QStringLiteral("error")].toString().contains(QStringLiteral("bad.json")));
        Run again = cli({ QStringLiteral("import"), QStringLiteral("--db"), db,
                            fixture(QStringLiteral("inferencex-app-api/benchmarks.json")) },
            home.path());
        QCOMPARE(again.code, 0);
        QCOMPARE(QJsonDocument::fromJson(again.out).object()[QStringLiteral("duplicates")].toInt(), 435);

        Run vllm = cli(
            { QStringLiteral("import"), QStringLiteral("--db"), db, QStringLiteral("--hardware"),
                QStringLiteral("mi355x"), QStringLiteral("--prefill-gpus"), QStringLiteral("8"),
                QStringLiteral("--decode-gpus"), QStringLiteral("8"), QStringLiteral("--engine"),
                QStringLiteral("vllm"), QStringLiteral("--precision"), QStringLiteral("fp4"), QStringLiteral("--model"),
                QStringLiteral("gpt-oss-120b"), fixture(QStringLiteral("inferencex-raw-bench-serving")) },
            home.path());
        QCOMPARE(vllm.code, 0);
        QCOMPARE(vllm.out.trimmed().split('\n').size(), 8);
    }

    void frontierOutput()
    {
        QTemporaryDir home, dir;
        const QString db = dir.filePath(QStringLiteral("s.sqlite"));
        QCOMPARE(cli({ QStringLiteral("import"), QStringLiteral("--db"), db,
                         fixture(QStringLiteral("inferencex-app-api/benchmarks.json")) },
                     home.path())
                     .code,
            0);
        Run r
            = cli({ QStringLiteral("frontier"), QStringLiteral("--db"), db, QStringLiteral("--model"),
                      QStringLiteral("dsr1"), QStringLiteral("--isl"), QStringLiteral("1024"), QStringLiteral("--osl"),
                      QStringLiteral("1024"), QStringLiteral("--hardware"), QStringLiteral("b300") },
                home.path());
        QCOMPARE(r.code, 0);
        QJsonArray groups = QJsonDocument::fromJson(r.out).array();
        QVERIFY(!groups.isEmpty());
        for (const auto& g : groups) {
            QCOMPARE(g.toObject()[QStringLiteral("hardware")].toString(), QStringLiteral("b300"));
            double lastX = 0, lastY = 1e300;
            for (const auto& p : g.toObject()[QStringLiteral("points")].toArray()) {
                QJsonObject o = p.toObject();
                for (const QString& key : { QStringLiteral("tp"), QStringLiteral("concurrency"), QStringLiteral("gpus"),
                         QStringLiteral("ttft_median_s"), QStringLiteral("tpot_median_s"), QStringLiteral("source"),
                         QStringLiteral("interactivity_tok_s_user"), QStringLiteral("tput_per_gpu_tok_s") })
                    QVERIFY2(o.contains(key), qPrintable(key));
                QVERIFY(o[QStringLiteral("interactivity_tok_s_user")].toDouble() > lastX);
                QVERIFY(o[QStringLiteral("tput_per_gpu_tok_s")].toDouble() < lastY);
                lastX = o[QStringLiteral("interactivity_tok_s_user")].toDouble();
                lastY = o[QStringLiteral("tput_per_gpu_tok_s")].toDouble();
            }
        }
        Run csv
            = cli({ QStringLiteral("frontier"), QStringLiteral("--db"), db, QStringLiteral("--model"),
                      QStringLiteral("dsr1"), QStringLiteral("--isl"), QStringLiteral("1024"), QStringLiteral("--osl"),
                      QStringLiteral("1024"), QStringLiteral("--format"), QStringLiteral("csv") },
                home.path());
        QVERIFY(csv.out.startsWith("run_id,model,hardware"));
    }

    void importNotesWhatItLeftOut()
    {
        // an optional value of 0 keeps the record and says so on the import's JSON line
        QTemporaryDir home, dir;
        QByteArray agg = readAll(fixture("inferencex-agg/agg_kimik2.5_1k1k_int4_vllm_tp8-ep1-dpafalse_disagg-false_"
                                         "spec-mtp_conc4_MI355-gbt350-odcdh5-wbb3.json"));
        agg.replace("\"input_tput_per_gpu\": 27.948691873346146", "\"input_tput_per_gpu\": 0");
        const QString path = dir.filePath(QStringLiteral("agg_zero.json"));
        QVERIFY(writeFile(path, agg));
        Run r
            = cli({ QStringLiteral("import"), QStringLiteral("--db"), dir.filePath(QStringLiteral("s.sqlite")), path },
                home.path());
        QCOMPARE(r.code, 0);
        QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o[QStringLiteral("imported")].toInt(), 1);
        QCOMPARE(o[QStringLiteral("notes")].toArray().size(), 1);
        QCOMPARE(o[QStringLiteral("notes")][0].toString(),
            path + QStringLiteral(": record 1: field 'input_tput_per_gpu' is 0, left out"));
    }

    void emptyScopeSaysWhatTheStoreHolds_data()
    {
        QTest::addColumn<QStringList>("command");
        QTest::newRow("ladder") << QStringList { QStringLiteral("ladder") };
        QTest::newRow("ladder table") << QStringList { QStringLiteral("ladder"), QStringLiteral("--format"),
            QStringLiteral("table") };
        QTest::newRow("frontier") << QStringList { QStringLiteral("frontier") };
        QTest::newRow("frontier csv") << QStringList { QStringLiteral("frontier"), QStringLiteral("--format"),
            QStringLiteral("csv") };
        QTest::newRow("plan") << QStringList { QStringLiteral("plan"), QStringLiteral("--demand"),
            QStringLiteral("1e6"), QStringLiteral("--unit"), QStringLiteral("tok/s"), QStringLiteral("--target"),
            QStringLiteral("50") };
    }
    void emptyScopeSaysWhatTheStoreHolds()
    {
        QFETCH(QStringList, command);
        QTemporaryDir home, dir;
        const QString db = dir.filePath(QStringLiteral("s.sqlite"));
        QCOMPARE(cli({ QStringLiteral("import"), QStringLiteral("--db"), db,
                         fixture(QStringLiteral("inferencex-app-api/benchmarks.json")) },
                     home.path())
                     .code,
            0);
        auto run = [&](const QStringList& scope) {
            return cli(command + QStringList { QStringLiteral("--db"), db } + scope, home.path());
        };
        // the model in the wrong case and a length not held: the store's models and lengths, and the nearest
        Run r = run({ QStringLiteral("--model"), QStringLiteral("DSR1"), QStringLiteral("--isl"),
            QStringLiteral("1000"), QStringLiteral("--osl"), QStringLiteral("1024") });
        QCOMPARE(r.code, 1);
        QVERIFY2(r.out.isEmpty(), r.out.constData());
        for (const char* words : { "no runs of model 'DSR1' at isl 1000 / osl 1024",
                 "The store holds: dsr1: isl 1024 / osl 1024, isl 1024 / osl 8192, isl 8192 / osl 1024",
                 "Nearest: model 'dsr1', isl 1024 / osl 1024", "try --model dsr1 --isl 1024 --osl 1024" })
            QVERIFY2(r.err.contains(words), r.err.constData());
        // a prefix of the model; the lengths nearest in ratio to 8000/1000 are 8192/1024
        r = run({ QStringLiteral("--model"), QStringLiteral("dsr"), QStringLiteral("--isl"), QStringLiteral("8000"),
            QStringLiteral("--osl"), QStringLiteral("1000") });
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("try --model dsr1 --isl 8192 --osl 1024"), r.err.constData());
        // a misspelt model (edit distance 1)
        r = run({ QStringLiteral("--model"), QStringLiteral("dsr2"), QStringLiteral("--isl"), QStringLiteral("1024"),
            QStringLiteral("--osl"), QStringLiteral("8192") });
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("try --model dsr1 --isl 1024 --osl 8192"), r.err.constData());
        // the scope is held but a filter leaves nothing: which filter, and the hardware the scope has
        r = run({ QStringLiteral("--model"), QStringLiteral("dsr1"), QStringLiteral("--isl"), QStringLiteral("1024"),
            QStringLiteral("--osl"), QStringLiteral("1024"), QStringLiteral("--hardware"), QStringLiteral("b999") });
        QCOMPARE(r.code, 1);
        for (const char* words : { "that pass the filters (hardware b999)", "b200, b300, gb200, gb300, h100, h200" })
            QVERIFY2(r.err.contains(words), r.err.constData());
        // a scope that holds runs is still answered as before
        QCOMPARE(run({ QStringLiteral("--model"), QStringLiteral("dsr1"), QStringLiteral("--isl"),
                         QStringLiteral("1024"), QStringLiteral("--osl"), QStringLiteral("1024") })
                     .code,
            0);
        // an empty store says so
        QCOMPARE(cli({ QStringLiteral("import"), QStringLiteral("--db"), dir.filePath(QStringLiteral("empty.sqlite")),
                         dir.filePath(QStringLiteral("none.json")) },
                     home.path())
                     .code,
            1);
        Run none = cli(command
                + QStringList { QStringLiteral("--db"), dir.filePath(QStringLiteral("empty.sqlite")),
                    QStringLiteral("--model"), QStringLiteral("dsr1"), QStringLiteral("--isl"), QStringLiteral("1024"),
                    QStringLiteral("--osl"), QStringLiteral("1024") },
            home.path());
        QCOMPARE(none.code, 1);
        QVERIFY2(none.err.contains("the store holds no runs"), none.err.constData());
    }

    // `plan` on the seed: GPUs for 10 M tok/s at 50 tok/s/user with 25% headroom, whole GPUs (no replica size is
    // recorded), the list price as published ($0.002 and $0.017 per million tokens), B300 the cheapest.
    void plan()
    {
        QTemporaryDir home, dir;
        const QStringList base
            = QStringList { QStringLiteral("plan"), QStringLiteral("--demand"), QStringLiteral("1e7"),
                  QStringLiteral("--unit"), QStringLiteral("tok/s"), QStringLiteral("--target"), QStringLiteral("50") }
            + kSeedScope;
        Run r = cli(base + QStringList { QStringLiteral("--sweep-targets"), QStringLiteral("50,100") }, home.path());
        QCOMPARE(r.code, 0);
        const QJsonObject root = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(root.keys(), (QStringList { QStringLiteral("b300"), QStringLiteral("mi325x") }));
        const QJsonObject b = root[QStringLiteral("b300")].toObject();
        for (const QString& key : { QStringLiteral("status"), QStringLiteral("tput_per_gpu"), QStringLiteral("engine"),
                 QStringLiteral("precision"), QStringLiteral("spec_decoding"), QStringLiteral("config"),
                 QStringLiteral("replica_gpus"), QStringLiteral("gpus_exact"), QStringLiteral("gpus"),
                 QStringLiteral("replicas"), QStringLiteral("nodes"), QStringLiteral("node_unit"),
                 QStringLiteral("power_kw"), QStringLiteral("power_mw"), QStringLiteral("energy_j_per_token"),
                 QStringLiteral("tokens_per_s_per_mw"), QStringLiteral("cost_per_hour"),
                 QStringLiteral("cost_per_month"), QStringLiteral("cost_per_mtok"),
                 QStringLiteral("cost_per_mtok_effective"), QStringLiteral("cheapest"), QStringLiteral("sweep") })
            QVERIFY2(b.contains(key), qPrintable(key));
        for (const QString& key : { QStringLiteral("tp"), QStringLiteral("ep"), QStringLiteral("dp_attention"),
                 QStringLiteral("disaggregated"), QStringLiteral("prefill_gpus"), QStringLiteral("decode_gpus"),
                 QStringLiteral("concurrency"), QStringLiteral("interactivity") })
            QVERIFY2(b[QStringLiteral("config")].toObject().contains(key), qPrintable(key));
        QCOMPARE(b[QStringLiteral("gpus")].toDouble(), std::ceil(1.25e7 / 328417));
        QCOMPARE(b[QStringLiteral("cost_per_month")].toDouble(), std::ceil(1.25e7 / 328417) * 2.26 * 730);
        QCOMPARE(QString::number(b[QStringLiteral("cost_per_mtok")].toDouble(), 'f', 3), QStringLiteral("0.002"));
        QCOMPARE(QString::number(root[QStringLiteral("mi325x")][QStringLiteral("cost_per_mtok")].toDouble(), 'f', 3),
            QStringLiteral("0.017"));
        QVERIFY(b[QStringLiteral("cheapest")].toBool()
            && !root[QStringLiteral("mi325x")][QStringLiteral("cheapest")].toBool());
        QCOMPARE(b[QStringLiteral("sweep")].toArray().size(), 2);
        QCOMPARE(b[QStringLiteral("sweep")][1][QStringLiteral("target")].toDouble(), 100.0);
        Run csv = cli(base + QStringList { QStringLiteral("--format"), QStringLiteral("csv") }, home.path());
        QCOMPARE(csv.code, 0);
        QVERIFY(csv.out.startsWith("kind,hardware,target_tok_s_user,status"));
        QCOMPARE(csv.out.count('\n'), 3);
        Run table = cli(base
                + QStringList { QStringLiteral("--format"), QStringLiteral("table"), QStringLiteral("--tco"),
                    QStringLiteral("") },
            home.path());
        QCOMPARE(table.code, 1); // an unreadable TCO file
        table = cli(base + QStringList { QStringLiteral("--format"), QStringLiteral("table") }, home.path());
        QCOMPARE(table.code, 0);
        for (const char* words : { "* b300", "328,417", "$0.002", "cheapest per month" })
            QVERIFY2(table.out.contains(words), table.out.constData());
        // no bundled run carries a TTFT: none meets a limit, and each hardware says so
        Run slo = cli(base
                + QStringList { QStringLiteral("--ttft-max"), QStringLiteral("1"), QStringLiteral("--ttft-stat"),
                    QStringLiteral("p99") },
            home.path());
        QCOMPARE(slo.code, 0);
        QCOMPARE(QJsonDocument::fromJson(slo.out)[QStringLiteral("b300")][QStringLiteral("status")].toString(),
            QStringLiteral("slo_not_met"));
        // a TCO file with a bad field names it; usage errors exit 2
        const QString tco = dir.filePath(QStringLiteral("tco.json"));
        QVERIFY(writeFile(tco, R"({"source": "s", "hardware": {"b300": {"capex_per_gpu_usd": -5}}})"));
        Run bad = cli(base + QStringList { QStringLiteral("--tco"), tco }, home.path());
        QCOMPARE(bad.code, 1);
        QVERIFY2(
            bad.err.contains("tco.json: hardware.b300.capex_per_gpu_usd: must be a number >= 0"), bad.err.constData());
        QCOMPARE(cli(QStringList { QStringLiteral("plan"), QStringLiteral("--unit"), QStringLiteral("tok/s"),
                         QStringLiteral("--target"), QStringLiteral("50") }
                         + kSeedScope,
                     home.path())
                     .code,
            2);
        QCOMPARE(cli(base + QStringList { QStringLiteral("--unit"), QStringLiteral("tokens") }, home.path()).code, 2);
        QCOMPARE(cli(base
                         + QStringList { QStringLiteral("--tier"), QStringLiteral("retail"), QStringLiteral("--price"),
                             QStringLiteral("2") },
                     home.path())
                     .code,
            2);
        Run reqs = cli(
            QStringList { QStringLiteral("plan"), QStringLiteral("--demand"), QStringLiteral("5"),
                QStringLiteral("--unit"), QStringLiteral("req/s"), QStringLiteral("--target"), QStringLiteral("50") }
                + kSeedScope,
            home.path());
        QCOMPARE(reqs.code, 2);
        QVERIFY2(reqs.err.contains("fixed input and output lengths"), reqs.err.constData());
    }

    // How each plan reading was taken, in every format: on the InferenceX rows at 40 tok/s/user FP8, MI355X is sized
    // between its TP8 concurrencies 4 and 128 (87.5 and 36.3 tok/s/user: 2.4x apart, sparse), B300 on a point faster
    // than the target; --exact-target leaves B300 unsized.
    void planSaysHowEachReadingWasTaken()
    {
        QTemporaryDir home, dir;
        const QString db = dir.filePath(QStringLiteral("s.sqlite"));
        QCOMPARE(cli({ QStringLiteral("import"), QStringLiteral("--db"), db,
                         fixture(QStringLiteral("inferencex-app-api/benchmarks.json")) },
                     home.path())
                     .code,
            0);
        const QStringList base { QStringLiteral("plan"), QStringLiteral("--db"), db, QStringLiteral("--model"),
            QStringLiteral("dsr1"), QStringLiteral("--isl"), QStringLiteral("1024"), QStringLiteral("--osl"),
            QStringLiteral("1024"), QStringLiteral("--precision"), QStringLiteral("fp8"), QStringLiteral("--demand"),
            QStringLiteral("2e6"), QStringLiteral("--unit"), QStringLiteral("tok/s"), QStringLiteral("--target"),
            QStringLiteral("40") };
        Run json = cli(base, home.path());
        QCOMPARE(json.code, 0);
        const QJsonObject root = QJsonDocument::fromJson(json.out).object();
        const QJsonObject mi = root[QStringLiteral("mi355x")].toObject();
        QCOMPARE(mi[QStringLiteral("status")].toString(), QStringLiteral("ok"));
        QCOMPARE(mi[QStringLiteral("reading")].toString(), QStringLiteral("interpolated"));
        QVERIFY(mi[QStringLiteral("sparse")].toBool());
        QCOMPARE(mi[QStringLiteral("config")][QStringLiteral("concurrency")].toInt(), 4);
        QCOMPARE(mi[QStringLiteral("config_lower")][QStringLiteral("concurrency")].toInt(), 128);
        QVERIFY(mi[QStringLiteral("config")][QStringLiteral("interactivity")].toDouble()
                / mi[QStringLiteral("config_lower")][QStringLiteral("interactivity")].toDouble()
            > 2);
        QVERIFY2(
            mi[QStringLiteral("deploy_as")].toString().contains(QStringLiteral("(between the measured 4 and 128)")),
            qPrintable(mi[QStringLiteral("deploy_as")].toString()));
        const QJsonObject b300 = root[QStringLiteral("b300")].toObject();
        QCOMPARE(b300[QStringLiteral("status")].toString(), QStringLiteral("faster_than_target"));
        QVERIFY(b300[QStringLiteral("delivered_interactivity")].toDouble() > 40);
        QVERIFY(!b300[QStringLiteral("sparse")].toBool());
        Run csv = cli(base + QStringList { QStringLiteral("--format"), QStringLiteral("csv") }, home.path());
        QCOMPARE(csv.code, 0);
        const QList<QByteArray> lines = csv.out.split('\n');
        const QList<QByteArray> header = lines[0].split(',');
        const qsizetype sparse = header.indexOf("sparse"), reading = header.indexOf("reading");
        QVERIFY(sparse > 0 && reading > 0);
        int sparseRows = 0;
        for (const QByteArray& line : lines)
            if (line.startsWith("plan,mi355x,")) {
                QCOMPARE(line.split(',')[sparse], QByteArray("true"));
                QCOMPARE(line.split(',')[reading], QByteArray("interpolated"));
                ++sparseRows;
            }
        QCOMPARE(sparseRows, 1);
        Run table = cli(base + QStringList { QStringLiteral("--format"), QStringLiteral("table") }, home.path());
        QCOMPARE(table.code, 0);
        QVERIFY2(table.out.contains("sparse 4-128"), table.out.constData());
        QVERIFY2(table.out.contains("faster 47.2"), table.out.constData());
        QVERIFY2(table.out.contains("mi355x: deploy as TP8 EP1 at about concurrency"), table.out.constData());
        Run exact = cli(base + QStringList { QStringLiteral("--exact-target") }, home.path());
        QCOMPARE(exact.code, 0);
        const QJsonObject exactB300 = QJsonDocument::fromJson(exact.out).object()[QStringLiteral("b300")].toObject();
        QCOMPARE(exactB300[QStringLiteral("status")].toString(),
            QStringLiteral("out_of_range")); // its points lie on both sides, none at 40
        QVERIFY(exactB300[QStringLiteral("gpus")].isNull());
    }

    void tiersAndUsage()
    {
        QTemporaryDir home;
        Run t = cli({ QStringLiteral("tiers") }, home.path());
        QCOMPARE(t.code, 0);
        QJsonObject root = QJsonDocument::fromJson(t.out).object();
        QCOMPARE(root[QStringLiteral("source")].toString(),
            QStringLiteral("SemiAnalysis Market July 2026 Pricing Surveys & AI Cloud TCO Model"));
        QCOMPARE(root[QStringLiteral("tiers")].toArray().size(), 5);
        QCOMPARE(
            cli({ QStringLiteral("ladder"), QStringLiteral("--model"), QStringLiteral("x") }, home.path()).code, 2);
        QCOMPARE(cli({ QStringLiteral("ladder"), QStringLiteral("--bogus") }, home.path()).code, 2);
        QCOMPARE(cli({ QStringLiteral("nonsense") }, home.path()).code, 2);
        Run tier = cli(
            QStringList { QStringLiteral("ladder"), QStringLiteral("--tier"), QStringLiteral("nope") } + kSeedScope,
            home.path());
        QCOMPARE(tier.code, 2);
        QVERIFY(tier.err.contains("unknown pricing tier"));
    }

    // --ttft-max, --tpot-max and --ttft-stat are checked by every scoped command, each error naming its option
    void sloOptionErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("error");
        QTest::newRow("ttft not a number") << QStringList { QStringLiteral("--ttft-max"), QStringLiteral("fast") }
                                           << QStringLiteral("--ttft-max must be a number");
        QTest::newRow("ttft negative") << QStringList { QStringLiteral("--ttft-max"), QStringLiteral("-2") }
                                       << QStringLiteral("--ttft-max must be a number");
        QTest::newRow("tpot zero") << QStringList { QStringLiteral("--tpot-max"), QStringLiteral("0") }
                                   << QStringLiteral("--tpot-max must be a number");
        QTest::newRow("tpot inf") << QStringList { QStringLiteral("--tpot-max"), QStringLiteral("inf") }
                                  << QStringLiteral("--tpot-max must be a number");
        QTest::newRow("stat unknown") << QStringList { QStringLiteral("--ttft-max"), QStringLiteral("2"),
            QStringLiteral("--ttft-stat"), QStringLiteral("p90") }
                                      << "--ttft-stat must be median or p99";
        QTest::newRow("stat alone") << QStringList { QStringLiteral("--ttft-stat"), QStringLiteral("p99") }
                                    << QStringLiteral("give --ttft-max too");
        QTest::newRow("energy metric unknown") << QStringList { QStringLiteral("--metric"), QStringLiteral("watts") }
                                               << QStringLiteral("--metric must be total");
    }

    void sloOptionErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, error);
        QTemporaryDir home;
        for (const char* command : { "ladder", "frontier", "summary", "history", "export" }) {
            if (args.contains(QStringLiteral("watts")) && QLatin1String(command) != QLatin1String("ladder"))
                continue;
            Run r = cli(QStringList { QString::fromLatin1(command) } + kSeedScope + args, home.path());
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains(error.toUtf8()),
                qPrintable(QLatin1String(command) + QStringLiteral(": ") + QString::fromUtf8(r.err)));
        }
    }

    // A TPOT limit on the seed's published readings (TPOT = 1 / interactivity): only readings at or above
    // 1 / limit tok/s/user count, in the ladder, the frontier and the summary alike; a TTFT limit they cannot meet
    // (no TTFT is published) empties the scope, and the message names the limit.
    void sloLimitsThroughTheCommands()
    {
        QTemporaryDir home;
        Run ladder = cli(QStringList { QStringLiteral("ladder"), QStringLiteral("--tpot-max"), QStringLiteral("0.01"),
                             QStringLiteral("--targets"), QStringLiteral("75,150") }
                + kSeedScope,
            home.path());
        QCOMPARE(ladder.code, 0);
        const QJsonObject root = QJsonDocument::fromJson(ladder.out).object();
        const QJsonArray b300 = root[QStringLiteral("b300")].toArray();
        QCOMPARE(
            b300.at(0).toObject()[QStringLiteral("status")].toString(), QStringLiteral("below_range")); // 75 < 1 / 0.01
        QCOMPARE(b300.at(1).toObject()[QStringLiteral("tput_per_gpu")].toDouble(), 138983.0);
        Run frontier
            = cli(QStringList { QStringLiteral("frontier"), QStringLiteral("--tpot-max"), QStringLiteral("0.01") }
                    + kSeedScope,
                home.path());
        QCOMPARE(frontier.code, 0);
        for (const QJsonValue g : QJsonDocument::fromJson(frontier.out).array())
            for (const QJsonValue p : g.toObject()[QStringLiteral("points")].toArray())
                QVERIFY(p.toObject()[QStringLiteral("interactivity_tok_s_user")].toDouble() >= 100);
        Run summary = cli(QStringList { QStringLiteral("summary"), QStringLiteral("--tpot-max"), QStringLiteral("0.01"),
                              QStringLiteral("--target"), QStringLiteral("150") }
                + kSeedScope,
            home.path());
        QCOMPARE(summary.code, 0);
        QVERIFY2(summary.out.contains("138,983"), summary.out.constData());
        Run none = cli(QStringList { QStringLiteral("ladder"), QStringLiteral("--ttft-max"), QStringLiteral("2"),
                           QStringLiteral("--ttft-stat"), QStringLiteral("p99") }
                + kSeedScope,
            home.path());
        QCOMPARE(none.code, 1);
        QVERIFY2(none.err.contains("TTFT ≤ 2 s (p99)"), none.err.constData());
    }

    // Energy in the ladder: all-in J/token and tok/s per MW against kW x 1,000 / tok/s computed here (B300 1.90 kW,
    // MI325X 1.69 kW per GPU, resources/hardware_power.json); an energy --metric adds its column, basis named.
    void energyInTheLadder()
    {
        QTemporaryDir home;
        Run r = cli(
            QStringList { QStringLiteral("ladder"), QStringLiteral("--targets"), QStringLiteral("50") } + kSeedScope,
            home.path());
        QCOMPARE(r.code, 0);
        const QJsonObject root = QJsonDocument::fromJson(r.out).object();
        for (const auto& [hw, kw, tput] : { std::tuple { QStringLiteral("b300"), 1.90, 328417.0 },
                 std::tuple { QStringLiteral("mi325x"), 1.69, 17745.0 } }) {
            const QJsonObject row = root[hw].toArray().at(0).toObject();
            QCOMPARE(row[QStringLiteral("tput_per_gpu")].toDouble(), tput);
            QVERIFY(qAbs(row[QStringLiteral("j_per_token_all_in")].toDouble() / (kw * 1000 / tput) - 1) < 1e-12);
            QVERIFY(
                qAbs(row[QStringLiteral("tokens_per_s_per_mw_all_in")].toDouble() / (tput * 1000 / kw) - 1) < 1e-12);
            QVERIFY(row[QStringLiteral("j_per_token_measured")].isNull());
        }
        Run table = cli(QStringList { QStringLiteral("ladder"), QStringLiteral("--targets"), QStringLiteral("50"),
                            QStringLiteral("--metric"), QStringLiteral("j-per-token"), QStringLiteral("--format"),
                            QStringLiteral("table") }
                + kSeedScope,
            home.path());
        QCOMPARE(table.code, 0);
        QVERIFY2(
            table.out.contains("J/token (all-in provisioned)") && table.out.contains("0.00579"), table.out.constData());
        Run measured = cli(QStringList { QStringLiteral("ladder"), QStringLiteral("--targets"), QStringLiteral("50"),
                               QStringLiteral("--metric"), QStringLiteral("measured-j-per-token"),
                               QStringLiteral("--format"), QStringLiteral("table") }
                + kSeedScope,
            home.path());
        QVERIFY2(measured.out.contains("J/token (measured, GPU only)") && measured.out.contains("no measured power"),
            measured.out.constData());
    }

    void probeSaysWhenThereIsNoGpu()
    {
        // on a machine with a GPU it prints its JSON and every check passes; without one it says why and exits 1
        QProcess probe;
        probe.start(QStringLiteral(PARETOSCOPE_PROBE), {});
        QVERIFY(probe.waitForFinished(600000));
        if (probe.exitCode() == 0) {
            QJsonObject o = QJsonDocument::fromJson(probe.readAllStandardOutput()).object();
            QJsonObject checks = o[QStringLiteral("checks")].toObject();
            for (const QString& k : checks.keys())
                QVERIFY2(checks[k].toObject()[QStringLiteral("pass")].toBool(), qPrintable(k));
        } else {
            QCOMPARE(probe.exitCode(), 1);
            QByteArray err = probe.readAllStandardError();
            QVERIFY2(err.startsWith("paretoscope-probe: no GPU to probe: "), err.constData());
        }
    }

    void speedOfLightCurvesAndWhyNone()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("sol.sqlite"));
        Run imp = cli({ QStringLiteral("import"), QStringLiteral("--db"), db,
                          QStringLiteral(PARETOSCOPE_FIXTURES_DIR "/inferencex-app-api/benchmarks.json") },
            dir.path());
        QCOMPARE(imp.code, 0);
        // a hardware without a datasheet, as a Paretoscope CSV row
        const QString tpu = dir.filePath(QStringLiteral("tpu.csv"));
        QVERIFY(writeFile(tpu,
            "model,hardware,engine,precision,isl,osl,concurrency,tput_per_gpu_tok_s,interactivity_tok_s_user\n"
            "dsr1,tpu-x,vllm,fp4,1024,1024,8,900,60\n"));
        QCOMPARE(cli({ QStringLiteral("import"), QStringLiteral("--db"), db, tpu }, dir.path()).code, 0);
        Run r = cli({ QStringLiteral("sol"), QStringLiteral("--db"), db, QStringLiteral("--model"),
                        QStringLiteral("dsr1"), QStringLiteral("--isl"), QStringLiteral("1024"),
                        QStringLiteral("--osl"), QStringLiteral("1024"), QStringLiteral("--hardware"),
                        QStringLiteral("b300,tpu-x"), QStringLiteral("--precision"), QStringLiteral("fp4") },
            dir.path());
        QCOMPARE(r.code, 0);
        QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QJsonArray lines = o[QStringLiteral("lines")].toArray();
        QCOMPARE(lines.size(), 1);
        QCOMPARE(lines[0].toObject()[QStringLiteral("hardware")].toString(), QStringLiteral("b300"));
        QJsonArray pts = lines[0].toObject()[QStringLiteral("points")].toArray();
        QVERIFY(pts.size() > 3);
        for (int i = 1; i < pts.size(); ++i) { // a frontier: faster per user, less per GPU
            QVERIFY(pts[i].toObject()[QStringLiteral("interactivity")].toDouble()
                > pts[i - 1].toObject()[QStringLiteral("interactivity")].toDouble());
            QVERIFY(pts[i].toObject()[QStringLiteral("tput_per_gpu")].toDouble()
                < pts[i - 1].toObject()[QStringLiteral("tput_per_gpu")].toDouble());
        }
        QVERIFY(QJsonDocument(o[QStringLiteral("missing")].toArray()).toJson().contains("no specification for tpu-x"));
        // the bundled model: no fixed lengths and no published architecture, said as such
        QCOMPARE(cli({ QStringLiteral("seed"), QStringLiteral("--db"), dir.filePath(QStringLiteral("seed.sqlite")) },
                     dir.path())
                     .code,
            0);
        Run seed = cli(
            QStringList { QStringLiteral("sol"), QStringLiteral("--db"), dir.filePath(QStringLiteral("seed.sqlite")) }
                + kSeedScope,
            dir.path());
        QCOMPARE(seed.code, 0);
        QJsonObject so = QJsonDocument::fromJson(seed.out).object();
        QVERIFY(so[QStringLiteral("lines")].toArray().isEmpty());
        QCOMPARE(so[QStringLiteral("missing")].toArray().first().toString(),
            QStringLiteral("the workload has no fixed lengths"));
    }
};

PARETOSCOPE_GUILESS_SUITE(TestCli)
#include "tst_cli.moc"
