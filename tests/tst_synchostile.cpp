// A sync against a server that lies (issue 61's fault test, kept): an availability row with an impossible date, a
// short answer, an answer holding another unit's rows. Each is refused, names what it refused, stores nothing of the
// answer and leaves the unit unmarked, so the next sync against an honest server stores everything, as importing the
// rows by hand does. And the same date and duplicate-key rules at every importer.
#include <QtTest>

#include <QTemporaryDir>

#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "core/import/importer.h"
#include "core/model/runselection.h"
#include "core/store/runstore.h"
#include "core/store/syncstate.h"
#include "core/sync/sync.h"
#include "tests/support/replayserver.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;
using nlohmann::json;

namespace hostile { // named: the suites of a program compile in batches, where helpers of the same name would clash

const std::string kHistory1k1k = "/api/v1/benchmarks/history?model=DeepSeek-R1-0528&isl=1024&osl=1024";

json fixtureRows(const char* name)
{
    std::ifstream in(fixture(QStringLiteral("inferencex-app-api/") + QString::fromLatin1(name)).toStdString());
    return json::parse(in);
}

json rowsOf(const json& rows, int isl, int osl)
{
    json out = json::array();
    for (const json& r : rows)
        if (r["isl"] == isl && r["osl"] == osl)
            out.push_back(r);
    return out;
}

SyncOptions optionsFor(const ReplayServer& server)
{
    SyncOptions o;
    o.source = server.root();
    o.http.tries = 2;
    o.http.retryDelayMs = 20;
    o.http.stallSeconds = 10;
    o.sequences = { SyncSequence { 1024, 1024, false } };
    return o;
}

SyncReport sync(RunStore& store, const SyncOptions& options)
{
    auto plan = planSync(store, options);
    if (!plan) {
        qWarning("%s", plan.error().c_str());
        return {};
    }
    return runSync(store, *plan, options, {});
}

std::multiset<std::uint64_t> hashes(RunStore& store)
{
    auto h = store.storedContentHashes();
    return { h.begin(), h.end() };
}

std::unique_ptr<RunStore> importedByHand(const QTemporaryDir& dir, const json& rows)
{
    auto store = openTempStore(dir, QStringLiteral("byhand.sqlite"));
    const std::string file = dir.filePath(QStringLiteral("byhand.json")).toStdString();
    std::ofstream(file) << rows.dump();
    auto out = importPath(*store, file, {});
    return out.size() == 1 && out[0].result.ok() ? std::move(store) : nullptr;
}

// Imports a text written to a file; the outcome.
Result<ImportSummary> importText(
    RunStore& store, const QTemporaryDir& dir, const std::string& name, const std::string& text)
{
    const std::string file = dir.filePath(QString::fromStdString(name)).toStdString();
    std::ofstream(file) << text;
    auto out = importPath(store, file, {});
    return out.at(0).result;
}

bool says(const std::string& text, std::initializer_list<const char*> words)
{
    return std::all_of(words.begin(), words.end(), [&](const char* w) { return text.find(w) != std::string::npos; });
}

} // namespace hostile

class TestSyncHostile : public QObject {
    Q_OBJECT

    json m_rows = hostile::fixtureRows("benchmarks.json");

private slots:
    void anAvailabilityDateThatIsNoDayRefusesTheList_data()
    {
        QTest::addColumn<QString>("date");
        for (const char* d : { "9999-99-99", "2026-02-30", "0000-00-00", "../../etc", "9999-12-31", "1999-12-31" })
            QTest::newRow(d) << QString::fromLatin1(d);
    }
    // One row dated 9999-99-99 once marked every unit synced up to it: every later sync said up_to_date
    void anAvailabilityDateThatIsNoDayRefusesTheList()
    {
        QFETCH(QString, date);
        QTemporaryDir dir;
        ReplayServer server;
        server.setBenchmarks(m_rows);
        server.addAvailability({ { "model", "dsr1" }, { "isl", 1024 }, { "osl", 1024 }, { "precision", "fp8" },
            { "hardware", "h200" }, { "framework", "sglang" }, { "spec_method", "none" }, { "disagg", false },
            { "date", date.toStdString() } });
        auto store = openTempStore(dir);
        auto plan = planSync(*store, hostile::optionsFor(server));
        QVERIFY(!plan.ok());
        QVERIFY2(hostile::says(
                     plan.error(), { "availability", "row ", "field 'date'", date.left(10).toLatin1().constData() }),
            plan.error().c_str());
        QVERIFY(readSyncMarks(*store, server.root())->empty());
        QCOMPARE(store->runCount(), 0LL);
    }

    // A valid but short answer (half the rows: the newest dates missing) once stored 730 of 1,462 rows and marked the
    // unit, so the next sync said up_to_date and stayed short
    void aShortAnswerIsRefusedAndTheNextSyncStoresEverything()
    {
        QTemporaryDir dir;
        ReplayServer server;
        server.setBenchmarks(m_rows);
        auto store = openTempStore(dir);
        const SyncOptions options = hostile::optionsFor(server);
        json whole = hostile::rowsOf(m_rows, 1024, 1024);
        std::sort(whole.begin(), whole.end(), [](const json& a, const json& b) { return a["date"] < b["date"]; });
        QVERIFY(whole.size() > 20);
        json half(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(whole.size() / 2));
        QVERIFY(half.back()["date"] != whole.back()["date"]);
        server.answerWith(hostile::kHistory1k1k, half.dump());
        SyncReport report = hostile::sync(*store, options);
        QCOMPARE(report.failed(), std::size_t(1));
        QVERIFY2(hostile::says(report.items[0].error, { "short answer", "DeepSeek-R1-0528 1k/1k", "availability" }),
            report.items[0].error.c_str());
        QCOMPARE(store->runCount(), 0LL);
        QVERIFY(readSyncMarks(*store, server.root())->empty());

        // the whole answer: stored as importing its rows by hand stores them, and marked up to its newest date
        server.answerWith(hostile::kHistory1k1k, std::string()); // the route's own answer again
        report = hostile::sync(*store, options);
        QVERIFY2(report.failed() == 0, syncReportJson(report).c_str());
        auto byHand = hostile::importedByHand(dir, whole);
        QVERIFY(byHand);
        QCOMPARE(hostile::hashes(*store), hostile::hashes(*byHand));
        QCOMPARE(readSyncMarks(*store, server.root())->at("DeepSeek-R1-0528 1k/1k").lastDate,
            whole.back()["date"].get<std::string>());
        // nothing new: up to date, nothing fetched
        report = hostile::sync(*store, options);
        QCOMPARE(report.upToDate, std::vector<std::string> { "DeepSeek-R1-0528 1k/1k" });
    }

    // "[", 65 spaces and "]" was "no records in the file" where "[]" was an empty answer
    void anEmptyArrayIsOneHoweverItIsSpaced()
    {
        QTemporaryDir dir;
        ReplayServer server;
        server.setBenchmarks(m_rows);
        auto store = openTempStore(dir);
        for (const std::string& empty :
            { std::string("[]"), "[" + std::string(65, ' ') + "]", " \n[" + std::string(5000, ' ') + "\n]\n" }) {
            server.answerWith(hostile::kHistory1k1k, empty);
            const SyncReport report = hostile::sync(*store, hostile::optionsFor(server));
            QCOMPARE(report.failed(), std::size_t(1));
            QVERIFY2(report.items[0].error.find("short answer: no rows") != std::string::npos,
                report.items[0].error.c_str());
        }
    }

    // The answer to one unit once inserted 645 runs of 15 models, all credited to that unit
    void anAnswerHoldingAnotherUnitsRowsIsRefused()
    {
        QTemporaryDir dir;
        ReplayServer server;
        server.setBenchmarks(m_rows);
        auto store = openTempStore(dir);
        json rows = hostile::rowsOf(m_rows, 1024, 1024);
        json stranger = rows[2];
        stranger["model"] = "llama70b";
        rows.insert(rows.begin() + 2, stranger);
        server.answerWith(hostile::kHistory1k1k, rows.dump());
        SyncReport report = hostile::sync(*store, hostile::optionsFor(server));
        QCOMPARE(report.failed(), std::size_t(1));
        QVERIFY2(hostile::says(
                     report.items[0].error, { "record 3", "'llama70b'", "DeepSeek-R1-0528 1k/1k", "another unit" }),
            report.items[0].error.c_str());
        QCOMPARE(store->runCount(), 0LL);
        QVERIFY(report.changes.newRuns.empty());
        QVERIFY(readSyncMarks(*store, server.root())->empty());
        // a row of the model's other sequence in its 1k/1k history is another unit's too
        rows = hostile::rowsOf(m_rows, 1024, 1024);
        json other = hostile::rowsOf(m_rows, 8192, 1024).at(0);
        rows.push_back(other);
        server.answerWith(hostile::kHistory1k1k, rows.dump());
        report = hostile::sync(*store, hostile::optionsFor(server));
        QCOMPARE(report.failed(), std::size_t(1));
        QVERIFY2(hostile::says(report.items[0].error, { "8192/1024", "another unit" }), report.items[0].error.c_str());
        QCOMPARE(store->runCount(), 0LL);
    }

    void impossibleDatesAreRefusedByEveryImporter_data()
    {
        QTest::addColumn<QString>("date");
        QTest::addColumn<QString>("said");
        QTest::newRow("no month 99") << QStringLiteral("9999-99-99") << QStringLiteral("not a calendar day");
        QTest::newRow("30 February") << QStringLiteral("2026-02-30") << QStringLiteral("not a calendar day");
        QTest::newRow("zeros") << QStringLiteral("0000-00-00") << QStringLiteral("not a calendar day");
        QTest::newRow("a path") << QStringLiteral("../../etc") << QStringLiteral("not a calendar day");
        QTest::newRow("far future") << QStringLiteral("2999-01-01") << QStringLiteral("after tomorrow");
        QTest::newRow("before LLMs") << QStringLiteral("1970-01-01") << QStringLiteral("before 2000-01-01");
    }
    // They were stored, and a 9999-99-99 evaluation became a group's accuracy
    void impossibleDatesAreRefusedByEveryImporter()
    {
        QFETCH(QString, date);
        QFETCH(QString, said);
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        const std::string d = date.toStdString();
        // an InferenceX API row, a Paretoscope CSV run, an evaluation row
        json rows = hostile::rowsOf(m_rows, 1024, 1024);
        rows[1]["date"] = d;
        auto api = hostile::importText(*store, dir, "api.json", rows.dump());
        QVERIFY(!api.ok());
        QVERIFY2(hostile::says(api.error(), { "api.json", "record 2", "field 'date'", said.toLatin1().constData() }),
            api.error().c_str());
        auto csv = hostile::importText(*store, dir, "runs.csv",
            "model,hardware,engine,precision,isl,osl,concurrency,tput_per_gpu_tok_s,run_date\n"
            "dsr1,h200,vllm,fp8,1024,1024,4,1000,2026-01-05\n"
            "dsr1,h200,vllm,fp8,1024,1024,8,1500,"
                + d + "\n");
        QVERIFY(!csv.ok());
        QVERIFY2(
            hostile::says(csv.error(), { "runs.csv", "record 2", "field 'run_date'", said.toLatin1().constData() }),
            csv.error().c_str());
        json evaluations = hostile::fixtureRows("evaluations.json");
        evaluations[0]["date"] = d;
        auto evals = hostile::importText(*store, dir, "evals.json", evaluations.dump());
        QVERIFY(!evals.ok());
        QVERIFY2(
            hostile::says(evals.error(), { "evals.json", "record 1", "field 'date'", said.toLatin1().constData() }),
            evals.error().c_str());
        QCOMPARE(store->runCount(), 0LL);
    }

    void theDateRuleIsTheCalendars()
    {
        QVERIFY(outsideDateProblem("2024-02-29").empty()); // a leap day
        QVERIFY(!outsideDateProblem("2025-02-29").empty());
        QVERIFY(!outsideDateProblem("2100-02-29").empty());
        QVERIFY(outsideDateProblem("2000-01-01").empty());
        const int tomorrow = dayOfEpochSeconds(nowEpochSeconds() + 86400);
        QVERIFY(outsideDateProblem(dayText(tomorrow)).empty());
        const int later = dayOfEpochSeconds(nowEpochSeconds() + std::int64_t(3) * 86400);
        QVERIFY(!outsideDateProblem(dayText(later)).empty());
        QVERIFY(!outsideDateProblem("2026-01-05x").empty());
    }

    // A duplicate key kept the last value without a word, while the availability route refused one
    void aKeyGivenTwiceRefusesTheRecord()
    {
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        json rows = hostile::rowsOf(m_rows, 1024, 1024);
        std::string text = rows.dump();
        // the third record's hardware given again, last, as a server would write it
        const std::string third = rows[2].dump();
        std::string doubled = third;
        doubled.insert(doubled.size() - 1, ",\"hardware\":\"b300\"");
        text.replace(text.find(third), third.size(), doubled);
        auto flat = hostile::importText(*store, dir, "twice.json", text);
        QVERIFY(!flat.ok());
        QVERIFY2(hostile::says(flat.error(), { "twice.json", "record 3", "field 'hardware'", "given twice" }),
            flat.error().c_str());
        // the same in a record the flat reader declines (a nested object), read by simdjson
        doubled.insert(doubled.size() - 1, ",\"nested\":{\"a\":1}");
        text = rows.dump();
        text.replace(text.find(third), third.size(), doubled);
        auto general = hostile::importText(*store, dir, "nested.json", text);
        QVERIFY(!general.ok());
        QVERIFY2(
            hostile::says(general.error(), { "record 3", "field 'hardware'", "given twice" }), general.error().c_str());
        // an evaluation row, and a CSV header
        json evaluations = hostile::fixtureRows("evaluations.json");
        std::string e = evaluations.dump();
        const std::string first = evaluations[0].dump();
        std::string firstTwice = first;
        firstTwice.insert(firstTwice.size() - 1, ",\"task\":\"gpqa_diamond\"");
        e.replace(e.find(first), first.size(), firstTwice);
        auto evals = hostile::importText(*store, dir, "evals.json", e);
        QVERIFY(!evals.ok());
        QVERIFY2(hostile::says(evals.error(), { "record 1", "field 'task'", "given twice" }), evals.error().c_str());
        auto csv = hostile::importText(*store, dir, "runs.csv",
            "model,hardware,engine,precision,isl,osl,concurrency,tput_per_gpu_tok_s,hardware\n"
            "dsr1,h200,vllm,fp8,1024,1024,4,1000,b300\n");
        QVERIFY(!csv.ok());
        QVERIFY2(hostile::says(csv.error(), { "runs.csv", "line 1", "column 'hardware'", "given twice" }),
            csv.error().c_str());
        QCOMPARE(store->runCount(), 0LL);
    }

    // A 20 KB hardware name made the PDF report take 9.7 s (96 s at 80 KB): names are bounded at import
    void aNameOverTwoHundredCharactersIsRefused()
    {
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        json rows = hostile::rowsOf(m_rows, 1024, 1024);
        rows[4]["hardware"] = std::string(201, 'h');
        auto out = hostile::importText(*store, dir, "long.json", rows.dump());
        QVERIFY(!out.ok());
        QVERIFY2(hostile::says(out.error(), { "long.json", "record 5", "hardware name", "201 characters", "200" }),
            out.error().c_str());
        rows[4]["hardware"] = std::string(200, 'h'); // the bound itself is taken
        QVERIFY(hostile::importText(*store, dir, "bound.json", rows.dump()).ok());
    }
};

PARETOSCOPE_GUILESS_SUITE(TestSyncHostile)
#include "tst_synchostile.moc"
