// paretoscope-cli plan, its SLO options and energy in the ladder, as scripts use them: the plan of the seed scope,
// how each reading was taken, SLO limits through every command and their errors, J/token beside each reading.
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

class TestCliPlan : public QObject {
    Q_OBJECT
private slots:
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
};

PARETOSCOPE_GUILESS_SUITE(TestCliPlan)
#include "tst_cliplan.moc"
