// Evaluation files (docs/evaluations.md): InferenceX's evaluation rows and Paretoscope's own evaluation records
// imported into the store and exported again, bad files refused with their field named, recover keeping them; on the
// real evaluations of ../shared/fixtures/real.
#include <QtTest>

#include <QTemporaryDir>

#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "core/import/importer.h"
#include "core/output/evaluationexport.h"
#include "core/store/evaluationstore.h"
#include "core/store/runstore.h"
#include "core/store/storerecover.h"
#include "tests/support/fixturejson.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;
using nlohmann::json;

class TestEvaluationFiles : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<RunStore> m_store;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_store = openTempStore(m_dir);
        QVERIFY(m_store);
        auto out = importPath(*m_store, fixture(kEvaluations).toStdString(), {});
        QCOMPARE(out.size(), std::size_t(1));
        QVERIFY2(out[0].result, out[0].result ? "" : out[0].result.error().c_str());
        QCOMPARE(out[0].result->format, std::string("inferencex-evaluations"));
    }

    // recover copies the evaluations too (and keeps their source)
    void recoverKeepsTheEvaluations()
    {
        QTemporaryDir dir;
        const std::string from = dir.filePath(QStringLiteral("from.sqlite")).toStdString();
        {
            auto store = RunStore::open(from);
            QVERIFY(store);
            QVERIFY(importPath(**store, fixture(kEvaluations).toStdString(), {})[0].result);
        }
        const std::string to = dir.filePath(QStringLiteral("to.sqlite")).toStdString();
        auto report = recoverStore(from, to);
        QVERIFY2(report, report ? "" : report.error().c_str());
        auto recovered = RunStore::open(to);
        QVERIFY(recovered);
        QCOMPARE(evaluationCount(**recovered), evaluationCount(*m_store));
        const auto dsr1 = storedEvaluations(**recovered, "dsr1");
        QCOMPARE(dsr1.size(), storedEvaluations(*m_store, "dsr1").size());
    }

    // Paretoscope's own JSON and CSV carry evaluations: every stored evaluation of every model, exported in each,
    // imports into an empty store as the same evaluations (field by field and by content), and into the store it
    // came from as duplicates only
    void ownJsonAndCsvCarryEvaluations()
    {
        std::vector<StoredEvaluation> all;
        for (const char* model : { "dsr1", "gptoss120b", "qwen3.5", "kimik2.5" })
            for (StoredEvaluation& e : storedEvaluations(*m_store, model))
                all.push_back(std::move(e));
        QVERIFY(all.size() > 300);
        const auto key = [](const EvaluationRecord& r) {
            return r.contentKey() + '|' + r.runUrl + '|' + r.model + '|' + r.hardware + '|' + r.engine + '|'
                + r.precision + '|' + r.specDecoding + '|' + r.task + '|' + r.date + '|' + std::to_string(r.gpus) + '|'
                + std::to_string(r.concurrency) + '|' + std::to_string(r.questions);
        };
        std::multiset<std::string> expected;
        for (const StoredEvaluation& e : all)
            expected.insert(key(e.record));
        for (const bool csv : { false, true }) {
            QTemporaryDir dir;
            const std::string path
                = dir.filePath(csv ? QStringLiteral("e.csv") : QStringLiteral("e.json")).toStdString();
            std::ofstream(path) << (csv ? evaluationsCsv(all) : evaluationsJson(all));
            auto store = openTempStore(dir);
            QVERIFY(store);
            auto in = importPath(*store, path, {});
            QVERIFY2(in[0].result, in[0].result ? "" : in[0].result.error().c_str());
            QCOMPARE(in[0].result->format,
                std::string(csv ? "paretoscope-evaluations-csv" : "paretoscope-evaluations-json"));
            QCOMPARE(in[0].result->imported, std::uint64_t(all.size()));
            QCOMPARE(store->runCount(), 0LL); // evaluations, not runs
            std::multiset<std::string> got;
            for (const char* model : { "dsr1", "gptoss120b", "qwen3.5", "kimik2.5" })
                for (const StoredEvaluation& e : storedEvaluations(*store, model))
                    got.insert(key(e.record));
            QCOMPARE(got, expected);
            // read back where they came from: each one already stored
            auto again = importPath(*m_store, path, {});
            QVERIFY(again[0].result);
            QCOMPARE(again[0].result->imported, std::uint64_t(0));
            QCOMPARE(again[0].result->duplicates, std::uint64_t(all.size()));
        }
    }

    // A bad record of the own format imports nothing and names the file, the record and the field
    void badOwnEvaluationRecordsAreRefused()
    {
        const auto one = storedEvaluations(*m_store, "dsr1");
        QVERIFY(one.size() >= 2);
        const std::vector<StoredEvaluation> two { one[0], one[1] };
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        QVERIFY(store);
        json rows = json::parse(evaluationsJson(two));
        for (const auto& [field, value, says] : { std::tuple { "em_strict", json(95.8), "field 'em_strict': 95.8" },
                 std::tuple { "task", json(nullptr), "field 'task': missing" },
                 std::tuple { "schema", json("paretoscope.run/1"), "field 'schema': 'paretoscope.run/1'" },
                 std::tuple { "gpus", json("eight"), "field 'gpus'" } }) {
            json bad = rows;
            bad[1][field] = value;
            const std::string path = writeJson(dir, QStringLiteral("bad.json"), bad);
            auto out = importPath(*store, path, {});
            QVERIFY(!out[0].result);
            const QString error = QString::fromStdString(out[0].result.error());
            QVERIFY2(error.contains(QString::fromStdString(path)) && error.contains(QStringLiteral("record 2"))
                    && error.contains(QLatin1String(says)),
                qPrintable(error));
            QCOMPARE(evaluationCount(*store), 0LL);
        }
        // CSV: the line named too
        std::string csv = evaluationsCsv(two);
        const std::size_t second = csv.find('\n', csv.find('\n') + 1) + 1;
        const std::size_t date = csv.find(two[1].record.date, second);
        QVERIFY(date != std::string::npos);
        csv.replace(date, two[1].record.date.size(), "");
        const std::string path = dir.filePath(QStringLiteral("bad.csv")).toStdString();
        std::ofstream(path) << csv;
        auto out = importPath(*store, path, {});
        QVERIFY(!out[0].result);
        QVERIFY2(out[0].result.error().find("record 2 (line 3): field 'date': missing") != std::string::npos,
            out[0].result.error().c_str());
        QCOMPARE(evaluationCount(*store), 0LL);
    }

    // A bad evaluation file imports nothing and names the file, the record and the field
    void badEvaluationFilesAreRefusedWithTheirFieldNamed_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value"); // JSON
        QTest::addColumn<QString>("says");
        QTest::newRow("a percentage") << QStringLiteral("metrics.em_strict") << QStringLiteral("95.8")
                                      << QStringLiteral("'metrics.em_strict': 95.8");
        QTest::newRow("negative error") << QStringLiteral("metrics.em_strict_se") << QStringLiteral("-0.1")
                                        << QStringLiteral("'metrics.em_strict_se'");
        QTest::newRow("questions as words")
            << QStringLiteral("metrics.n_eff") << QStringLiteral("\"many\"") << QStringLiteral("'metrics.n_eff'");
        QTest::newRow("no task") << QStringLiteral("task") << QStringLiteral("null")
                                 << QStringLiteral("'task': missing");
        QTest::newRow("hardware a list") << QStringLiteral("hardware") << QStringLiteral("[1]")
                                         << QStringLiteral("'hardware'");
        QTest::newRow("no accuracy") << QStringLiteral("metrics") << QStringLiteral("{\"n_eff\": 10}")
                                     << QStringLiteral("'metrics.em_strict'");
    }
    void badEvaluationFilesAreRefusedWithTheirFieldNamed()
    {
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(QString, says);
        json rows = json::array();
        const json all = fixtureJson(kEvaluations);
        rows.push_back(all[0]);
        json bad = all[1];
        const json v = json::parse(value.toStdString());
        if (field.startsWith(QStringLiteral("metrics.")))
            bad["metrics"][field.mid(8).toStdString()] = v;
        else
            bad[field.toStdString()] = v;
        rows.push_back(bad);
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        QVERIFY(store);
        const std::string path = writeJson(dir, QStringLiteral("bad.json"), rows);
        auto out = importPath(*store, path, {});
        QVERIFY(!out[0].result);
        const QString error = QString::fromStdString(out[0].result.error());
        QVERIFY2(error.contains(QString::fromStdString(path)) && error.contains(QStringLiteral("record 2"))
                && error.contains(says),
            qPrintable(error));
        QCOMPARE(evaluationCount(*store), 0LL); // the first, good record is not kept either
    }
};

PARETOSCOPE_GUILESS_SUITE(TestEvaluationFiles)
#include "tst_evaluationfiles.moc"
