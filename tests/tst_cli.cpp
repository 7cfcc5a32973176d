// paretoscope-cli as scripts use it: the seed table (docs/architecture.md section 14) from the bundled dataset in the
// default store, the import contract (one JSON line per input, exit codes), frontier and tiers output.
#include <QtTest>

#include <tuple>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <cmath>

#include "tests/support/seededcli.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"

using namespace paretoscope::testsupport;
using namespace paretoscope::testsupport::seeded;

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
        // the published readings are the frontier's (the site's); the default reading is one configuration's
        Run r = cli(QStringList { QStringLiteral("ladder"), QStringLiteral("--reading"), QStringLiteral("frontier") }
                + kSeedScope,
            home.path()); // default store, seeded on first use
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
                        QStringLiteral("b300"), QStringLiteral("--reading"), QStringLiteral("frontier") }
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

    // --min-accuracy on frontier, plan and summary (docs/evaluations.md) with the real evaluations beside the real
    // benchmarks: the frontier lists only groups the ladder's requirement keeps (the same set as `accuracy` says pass),
    // the plan's rows are of such groups, the summary says what the requirement cost; a bad requirement is a usage
    // error naming it
    void minAccuracyOnFrontierPlanAndSummary()
    {
        QTemporaryDir home, dir;
        const QString db = dir.filePath(QStringLiteral("s.sqlite"));
        QCOMPARE(cli({ QStringLiteral("import"), QStringLiteral("--db"), db,
                         fixture(QStringLiteral("inferencex-app-api/evaluations.json")),
                         fixture(QStringLiteral("inferencex-app-api/benchmarks.json")) },
                     home.path())
                     .code,
            0);
        const QStringList scope { QStringLiteral("--db"), db, QStringLiteral("--model"), QStringLiteral("dsr1"),
            QStringLiteral("--isl"), QStringLiteral("8192"), QStringLiteral("--osl"), QStringLiteral("1024") };
        const QStringList require { QStringLiteral("--min-accuracy"), QStringLiteral("gsm8k:95%") };
        // the groups at 95% or more, from `accuracy` (its own path: every group of the model with its accuracy)
        Run acc = cli(QStringList { QStringLiteral("accuracy"), QStringLiteral("--db"), db, QStringLiteral("--model"),
                          QStringLiteral("dsr1"), QStringLiteral("--format"), QStringLiteral("json") },
            home.path());
        QCOMPARE(acc.code, 0);
        QSet<QString> passing;
        const auto key = [](const QJsonObject& o) {
            return o[QStringLiteral("hardware")].toString() + u'/' + o[QStringLiteral("engine")].toString() + u'/'
                + o[QStringLiteral("precision")].toString() + u'/' + o[QStringLiteral("spec_decoding")].toString();
        };
        for (const auto& g : QJsonDocument::fromJson(acc.out).array()) {
            const QJsonObject o = g.toObject();
            if (o[QStringLiteral("accuracy")].isDouble() && o[QStringLiteral("accuracy")].toDouble() >= 0.95)
                passing.insert(key(o));
        }
        QVERIFY(!passing.isEmpty());
        Run all = cli(QStringList { QStringLiteral("frontier") } + scope, home.path());
        Run kept = cli(QStringList { QStringLiteral("frontier") } + scope + require, home.path());
        QCOMPARE(kept.code, 0);
        const QJsonArray allGroups = QJsonDocument::fromJson(all.out).array();
        const QJsonArray keptGroups = QJsonDocument::fromJson(kept.out).array();
        QVERIFY(!keptGroups.isEmpty() && keptGroups.size() < allGroups.size());
        int expected = 0;
        for (const auto& g : allGroups)
            expected += passing.contains(key(g.toObject())) ? 1 : 0;
        QCOMPARE(keptGroups.size(), expected);
        for (const auto& g : keptGroups)
            QVERIFY2(passing.contains(key(g.toObject())), qPrintable(key(g.toObject())));
        QVERIFY2(kept.err.contains("groups left out by GSM8K >= 95%"), kept.err.constData());
        // the plan sizes on passing groups only
        Run plan = cli(QStringList { QStringLiteral("plan") } + scope + require
                + QStringList { QStringLiteral("--demand"), QStringLiteral("1000000"), QStringLiteral("--unit"),
                    QStringLiteral("tok/s"), QStringLiteral("--target"), QStringLiteral("40") },
            home.path());
        QCOMPARE(plan.code, 0);
        const QJsonObject rows = QJsonDocument::fromJson(plan.out).object();
        int read = 0;
        for (auto it = rows.begin(); it != rows.end(); ++it) {
            QJsonObject o = it.value().toObject();
            if (o[QStringLiteral("status")].toString() != u"ok"
                && o[QStringLiteral("status")].toString() != u"faster_than_target")
                continue;
            ++read;
            o[QStringLiteral("hardware")] = it.key();
            QVERIFY2(passing.contains(key(o)), qPrintable(key(o)));
            // the accuracy of the group sized on comes with it
            const QJsonObject accuracy = o[QStringLiteral("accuracy")].toObject();
            QCOMPARE(accuracy[QStringLiteral("task")].toString(), QStringLiteral("gsm8k"));
            QCOMPARE(accuracy[QStringLiteral("status")].toString(), QStringLiteral("evaluated"));
            QVERIFY(accuracy[QStringLiteral("value")].toDouble() >= 0.95);
        }
        QVERIFY(read > 0);
        QVERIFY(plan.out.contains("accuracy_not_met"));
        // the summary: the accuracy row and what the requirement cost
        Run summary = cli(QStringList { QStringLiteral("summary") } + scope + require, home.path());
        QCOMPARE(summary.code, 0);
        QVERIFY2(summary.out.contains("| GSM8K of the group read |"), summary.out.constData());
        QVERIFY2(summary.out.contains("Requiring GSM8K >= 95% raises the cheapest $/1M tokens at 50 tok/s/user from $"),
            summary.out.constData());
        // refused, naming what was given
        for (const char* command : { "frontier", "plan", "summary" }) {
            const QStringList demand = qstrcmp(command, "plan") == 0
                ? QStringList { QStringLiteral("--demand"), QStringLiteral("1"), QStringLiteral("--unit"),
                      QStringLiteral("tok/s"), QStringLiteral("--target"), QStringLiteral("40") }
                : QStringList {};
            Run bad = cli(QStringList { QString::fromLatin1(command) } + scope + demand
                    + QStringList { QStringLiteral("--min-accuracy"), QStringLiteral("gsm8k:ninety") },
                home.path());
            QCOMPARE(bad.code, 2);
            QVERIFY2(bad.err.contains("ninety"), bad.err.constData());
        }
        // --accuracy-task names the task shown: one the model has is read (the ladder's accuracy is on it), one it
        // lacks is refused naming those it has, a name that does not read is a usage error
        for (const char* command : { "ladder", "plan", "summary" }) {
            const QStringList demand = qstrcmp(command, "plan") == 0
                ? QStringList { QStringLiteral("--demand"), QStringLiteral("1"), QStringLiteral("--unit"),
                      QStringLiteral("tok/s"), QStringLiteral("--target"), QStringLiteral("40") }
                : QStringList {};
            const QStringList head = QStringList { QString::fromLatin1(command) } + scope + demand;
            Run known
                = cli(head + QStringList { QStringLiteral("--accuracy-task"), QStringLiteral("GSM8K") }, home.path());
            QCOMPARE(known.code, 0);
            QVERIFY2(known.out.contains("gsm8k") || known.out.contains("GSM8K"), known.out.constData());
            Run lacking
                = cli(head + QStringList { QStringLiteral("--accuracy-task"), QStringLiteral("mmlu") }, home.path());
            QCOMPARE(lacking.code, 1);
            QVERIFY2(lacking.err.contains("no evaluation of dsr1 on 'mmlu'") && lacking.err.contains("it has gsm8k"),
                lacking.err.constData());
            Run unreadable
                = cli(head + QStringList { QStringLiteral("--accuracy-task"), QStringLiteral("gs m") }, home.path());
            QCOMPARE(unreadable.code, 2);
            QVERIFY2(unreadable.err.contains("'gs m'"), unreadable.err.constData());
        }
    }

    // export --evaluations writes the model's evaluations in the own format; imported into another store, the
    // accuracy command there prints what it prints here
    void exportCarriesEvaluations()
    {
        QTemporaryDir home, dir;
        const QString db = dir.filePath(QStringLiteral("s.sqlite")), copy = dir.filePath(QStringLiteral("c.sqlite"));
        QCOMPARE(cli({ QStringLiteral("import"), QStringLiteral("--db"), db,
                         fixture(QStringLiteral("inferencex-app-api/evaluations.json")) },
                     home.path())
                     .code,
            0);
        for (const char* format : { "json", "csv" }) {
            Run out = cli({ QStringLiteral("export"), QStringLiteral("--db"), db, QStringLiteral("--model"),
                              QStringLiteral("dsr1"), QStringLiteral("--evaluations"), QStringLiteral("--format"),
                              QString::fromLatin1(format) },
                home.path());
            QCOMPARE(out.code, 0);
            const QString file = dir.filePath(QStringLiteral("e.") + QString::fromLatin1(format));
            QVERIFY(writeFile(file, out.out));
            QFile::remove(copy);
            Run in = cli({ QStringLiteral("import"), QStringLiteral("--db"), copy, file }, home.path());
            QCOMPARE(in.code, 0);
            QVERIFY2(in.out.contains("\"imported\":87"), in.out.constData());
            const QStringList accuracy { QStringLiteral("accuracy"), QStringLiteral("--model"), QStringLiteral("dsr1"),
                QStringLiteral("--format"), QStringLiteral("json"), QStringLiteral("--db") };
            Run here = cli(accuracy + QStringList { db }, home.path());
            Run there = cli(accuracy + QStringList { copy }, home.path());
            QCOMPARE(there.code, 0);
            QCOMPARE(there.out, here.out);
        }
        Run noModel = cli(
            { QStringLiteral("export"), QStringLiteral("--db"), db, QStringLiteral("--evaluations") }, home.path());
        QCOMPARE(noModel.code, 2);
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
        QVERIFY(openTempStore(dir, QStringLiteral("empty.sqlite")));
        Run none = cli(command
                + QStringList { QStringLiteral("--db"), dir.filePath(QStringLiteral("empty.sqlite")),
                    QStringLiteral("--model"), QStringLiteral("dsr1"), QStringLiteral("--isl"), QStringLiteral("1024"),
                    QStringLiteral("--osl"), QStringLiteral("1024") },
            home.path());
        QCOMPARE(none.code, 1);
        QVERIFY2(none.err.contains("the store holds no runs"), none.err.constData());
    }

    void probeSaysWhenThereIsNoGpu()
    {
        // on a machine with a GPU it prints its JSON and every check passes; without one it says why and exits 1
        QProcess probe;
        probe.start(probeProgram(), {});
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
                          (fixturesDir() + QStringLiteral("/inferencex-app-api/benchmarks.json")) },
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

    // COMMAND --help (or -h) and help COMMAND answer with that command's lines of help and exit 0, touching no store
    // (a value after --db is not read); an unknown command is still refused with exit 2
    void commandHelpIsAnswered()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("never.sqlite"));
        const QList<QStringList> asks { { QStringLiteral("sync"), QStringLiteral("--help") },
            { QStringLiteral("ladder"), QStringLiteral("-h") }, { QStringLiteral("help"), QStringLiteral("plan") },
            { QStringLiteral("import"), QStringLiteral("--db"), db, QStringLiteral("--help") } };
        for (const QStringList& args : asks) {
            const Run r = cli(args, dir.path());
            const QString command = args[0] == QStringLiteral("help") ? args[1] : args[0];
            QVERIFY2(r.code == 0 && r.out.contains((QStringLiteral("  ") + command + QStringLiteral("  ")).toUtf8())
                    && !r.out.contains("  recover "), // that command's lines only
                qPrintable(args.join(u' ') + QStringLiteral(": ") + QString::fromUtf8(r.out + r.err)));
        }
        QVERIFY(!QFileInfo::exists(db));
        const Run unknown = cli({ QStringLiteral("nope"), QStringLiteral("--help") }, dir.path());
        QVERIFY2(unknown.code == 2 && unknown.err.contains("unknown command 'nope'"), unknown.err.constData());
    }
};

PARETOSCOPE_GUILESS_SUITE(TestCli)
#include "tests/support/testpaths.h"
#include "tst_cli.moc"
