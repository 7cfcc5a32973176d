// Bad input to the importers: each malformed file imports nothing and names the file, the record and the field;
// a record too large is refused.
#include <QtTest>

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "core/import/importer.h"
#include "core/output/reports.h"
#include "tests/support/suite.h"
#include "tests/support/testserver.h"
#include "tests/support/testutil.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;

class TestBadImports : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    Result<ImportSummary> importOne(RunStore& store, const QString& path, const ImportOptions& o = {})
    {
        auto out = importPath(store, path.toStdString(), o);
        if (out.size() != 1)
            return Error { "expected one outcome" };
        return std::move(out[0].result);
    }

private slots:
    void badInput_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QStringList>("mustMention");
        const QByteArray good = readAll(fixture("inferencex-agg/"
                                                "agg_kimik2.5_1k1k_int4_vllm_tp8-ep1-dpafalse_disagg-false_spec-mtp_"
                                                "conc4_MI355-gbt350-odcdh5-wbb3.json"));
        auto with = [&](const QByteArray& from, const QByteArray& to) {
            QByteArray g = good;
            return g.replace(from, to);
        };
        const QByteArray firstThree = "[" + good + "," + good + "," + with("\"tp\": 8", "\"tp\": 4") + ",";
        QByteArray arr
            = firstThree + with("\"tput_per_gpu\": 55.62670336516291", "\"tput_per_gpu\": \"fast\"") + "," + good + "]";
        // records of many lines each: the fourth starts on the line after the newlines before it
        const QString fourthLine
            = QStringLiteral("record 4 (line ") + QString::number(1 + firstThree.count('\n')) + QStringLiteral(")");
        QVERIFY(good.count('\n') > 10);
        QTest::newRow("empty") << QByteArray() << QStringList { QStringLiteral("empty") };
        QTest::newRow("whitespace") << QByteArray("  \n\t ") << QStringList { QStringLiteral("empty") };
        QTest::newRow("not json") << QByteArray("hello, world\n")
                                  << QStringList { QStringLiteral("line 1"), QStringLiteral("not a recognised") };
        QTest::newRow("truncated") << good.left(good.size() / 2)
                                   << QStringList { QStringLiteral("record 1"), QStringLiteral("truncated") };
        QTest::newRow("truncated array") << QByteArray("[" + good + ",") << QStringList { QStringLiteral("truncated") };
        QTest::newRow("trailing comma") << QByteArray("[" + good + ",]")
                                        << QStringList { QStringLiteral("record 2"), QStringLiteral("trailing") };
        QTest::newRow("garbage after") << QByteArray("[" + good + "] x")
                                       << QStringList { QStringLiteral("after the closing") };
        QTest::newRow("wrong type") << with("\"tput_per_gpu\": 55.62670336516291", "\"tput_per_gpu\": \"fast\"")
                                    << QStringList { QStringLiteral("record 1"), QStringLiteral("tput_per_gpu"),
                                           QStringLiteral("expected a number") };
        QTest::newRow("bad record 4 of 5") << arr << QStringList { fourthLine, QStringLiteral("tput_per_gpu") };
        QTest::newRow("NaN literal") << with("\"median_ttft\": 0.2969768075272441", "\"median_ttft\": NaN")
                                     << QStringList { QStringLiteral("record 1"), QStringLiteral("not valid JSON") };
        QTest::newRow("negative") << with("\"tput_per_gpu\": 55.62670336516291", "\"tput_per_gpu\": -55.6")
                                  << QStringList { QStringLiteral("tput_per_gpu"), QStringLiteral("negative") };
        QTest::newRow("zero") << with("\"median_tpot\": 0.017393898241078155", "\"median_tpot\": 0")
                              << QStringList { QStringLiteral("median_tpot"), QStringLiteral("zero") };
        QTest::newRow("missing hw") << with("\"hw\": \"mi355x\",",
            "") << QStringList { QStringLiteral("record 1"), QStringLiteral("'hw'"), QStringLiteral("missing") };
        QTest::newRow("missing tput") << with("\"tput_per_gpu\": 55.62670336516291,", "")
                                      << QStringList { QStringLiteral("tput_per_gpu"), QStringLiteral("missing") };
        QTest::newRow("bool as count") << with("\"conc\": 4", "\"conc\": true")
                                       << QStringList { QStringLiteral("conc") };
        QTest::newRow("fraction as count")
            << with("\"conc\": 4", "\"conc\": 4.5") << QStringList { QStringLiteral("conc"), QStringLiteral("whole") };
        QTest::newRow("array record") << QByteArray("[[1,2,3]]")
                                      << QStringList { QStringLiteral("record 1"), QStringLiteral("object") };
        QTest::newRow("scalar top") << QByteArray("42") << QStringList { QStringLiteral("not a recognised") };
        QTest::newRow("deep nesting") << QByteArray("[{\"hw\": " + QByteArray(100000, '[') + QByteArray(100000, ']')
            + "}]") << QStringList { QStringLiteral("record 1"), QStringLiteral("nested deeper") };
        QTest::newRow("deep nesting unclosed")
            << QByteArray(1000000, '[') << QStringList { QStringLiteral("nested deeper") };
        QTest::newRow("thousand digits") << with(
            "\"tput_per_gpu\": 55.62670336516291", "\"tput_per_gpu\": " + QByteArray(1000, '9'))
                                         << QStringList { QStringLiteral("record 1"), QStringLiteral("number") };
        QTest::newRow("unknown shape") << QByteArray(
            "{\"a\": 1}") << QStringList { QStringLiteral("record 1"), QStringLiteral("not a recognised") };
        QTest::newRow("csv bad cell") << QByteArray("model,hardware,engine,precision,tput_per_gpu_tok_s\nm,b300,vllm,"
                                                    "fp4,12\nm,b300,vllm,fp4,abc\n")
                                      << QStringList { QStringLiteral("record 2"), QStringLiteral("line 3"),
                                             QStringLiteral("tput_per_gpu_tok_s") };
        QTest::newRow("csv short row") << QByteArray("model,hardware,engine,precision,tput_per_gpu_tok_s\nm,b300\n")
                                       << QStringList { QStringLiteral("record 1"), QStringLiteral("cells") };
        QTest::newRow("csv open quote") << QByteArray("model,hardware,engine,precision,tput_per_gpu_tok_s\n\"m,b300\n")
                                        << QStringList { QStringLiteral("truncated") };
    }
    void badInput()
    {
        QFETCH(QByteArray, content);
        QFETCH(QStringList, mustMention);
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        QVERIFY(importOne(*store, fixture(QStringLiteral("inferencex-app-api/benchmarks.json"))).ok());
        const long long before = store->runCount();
        const QString path = dir.filePath(QStringLiteral("bad-input.json"));
        QVERIFY(writeFile(path, content));
        auto r = importOne(*store, path);
        QVERIFY(!r.ok());
        const QString err = QString::fromStdString(r.error());
        QVERIFY2(err.contains(QStringLiteral("bad-input.json")), qPrintable(err));
        for (const QString& word : mustMention)
            QVERIFY2(err.contains(word), qPrintable(err + QStringLiteral("  (missing: ") + word + QStringLiteral(")")));
        QCOMPARE(store->runCount(), before);
        QCOMPARE(QString::fromStdString(store->integrityCheck()), QStringLiteral("ok"));
    }

    void hugeRecordIsRefused()
    {
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        const QString path = dir.filePath(QStringLiteral("huge.json"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("[{\"hw\": \"");
            QByteArray chunk(1 << 20, 'x');
            for (int i = 0; i < 100; ++i) // a 100 MB string
                f.write(chunk);
            f.write("\"}]");
        }
        auto r = importOne(*store, path);
        QVERIFY(!r.ok());
        QVERIFY2(QString::fromStdString(r.error()).contains(QStringLiteral("larger than 64 MB")), r.error().c_str());
        QCOMPARE(store->runCount(), 0);
    }
};

PARETOSCOPE_GUILESS_SUITE(TestBadImports)
#include "tst_badimports.moc"
