// Sync from an InferenceX API (docs/sync.md) against a local replay of its routes (tests/support/replayserver.h)
// serving the real DeepSeek-R1 benchmark rows and evaluations of ../shared/fixtures/real/inferencex-app-api: a full
// sync equals importing the same rows by hand; a second sync fetches only what is new; failures, a cut connection,
// a stall and a cancel keep what was completed and a resumed sync ends where one clean sync does; 429 with
// Retry-After; a model key the name table lacks; answers that are not the expected format.
#include <QtTest>

#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "core/analysis/frontiercache.h"
#include "core/analysis/ladder.h"
#include "core/analysis/pricing.h"
#include "core/import/importer.h"
#include "core/store/evaluationstore.h"
#include "core/store/runstore.h"
#include "core/store/syncstate.h"
#include "core/sync/sync.h"
#include "tests/support/replayserver.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;
using nlohmann::json;

namespace {

const char* kModel = "DeepSeek-R1-0528";

json fixtureRows(const char* name)
{
    std::ifstream in(fixture(QStringLiteral("inferencex-app-api/") + QString::fromLatin1(name)).toStdString());
    return json::parse(in);
}

json rowsThrough(const json& rows, const std::string& lastDate)
{
    json out = json::array();
    for (const json& r : rows)
        if (r["date"].get<std::string>() <= lastDate)
            out.push_back(r);
    return out;
}

std::multiset<std::uint64_t> hashes(RunStore& store)
{
    auto h = store.storedContentHashes();
    return { h.begin(), h.end() };
}

// The store of importing these rows by hand, written to a file.
std::unique_ptr<RunStore> importedByHand(const QTemporaryDir& dir, const char* name, const json& rows)
{
    auto store = openTempStore(dir, QString::fromLatin1(name) + QStringLiteral(".sqlite"));
    const std::string file = dir.filePath(QString::fromLatin1(name) + QStringLiteral(".json")).toStdString();
    std::ofstream(file) << rows.dump();
    auto out = importPath(*store, file, {});
    if (out.size() != 1 || !out[0].result.ok())
        return nullptr;
    return store;
}

SyncOptions optionsFor(const ReplayServer& server)
{
    SyncOptions o;
    o.source = server.root();
    o.http.tries = 3;
    o.http.retryDelayMs = 20;
    o.http.stallSeconds = 10; // a loaded machine can pause a body a second; the stall test sets its own
    return o;
}

SyncReport sync(RunStore& store, const SyncOptions& options, const SyncCallbacks& callbacks = {})
{
    auto plan = planSync(store, options);
    if (!plan) {
        qWarning("%s", plan.error().c_str());
        return {};
    }
    return runSync(store, *plan, options, callbacks);
}

std::string joined(const std::vector<std::string>& lines)
{
    std::string out;
    for (const std::string& l : lines)
        out += l + "\n";
    return out;
}

std::string describe(const SyncReport& r)
{
    return syncReportJson(r);
}

// The sequences ("isl/osl") of rows dated after a day.
std::set<std::pair<int, int>> sequencesAfter(const json& rows, const std::string& day)
{
    std::set<std::pair<int, int>> out;
    for (const json& r : rows)
        if (r["date"].get<std::string>() > day)
            out.insert({ r["isl"].get<int>(), r["osl"].get<int>() });
    return out;
}

bool fetchedHistoryOf(const std::vector<std::string>& requests, int isl, int osl)
{
    const std::string tail = "&isl=" + std::to_string(isl) + "&osl=" + std::to_string(osl);
    return std::any_of(requests.begin(), requests.end(),
        [&](const std::string& r) { return r.starts_with("/api/v1/benchmarks/history?") && r.ends_with(tail); });
}

} // namespace

class TestSync : public QObject {
    Q_OBJECT

    json m_rows = fixtureRows("benchmarks.json");

private slots:
    void aFullSyncEqualsImportingTheRowsByHand()
    {
        QTemporaryDir dir;
        ReplayServer server;
        server.setBenchmarks(m_rows);
        server.setEvaluations(fixtureRows("evaluations.json"));
        auto store = openTempStore(dir);
        SyncOptions options = optionsFor(server);
        options.evaluations = true;
        const SyncReport report = sync(*store, options);
        QVERIFY2(report.failed() == 0 && !report.cancelled, describe(report).c_str());
        // one request per sequence of the history, the availability first, the evaluations last
        std::set<std::pair<int, int>> sequences;
        for (const json& r : m_rows)
            sequences.insert({ r["isl"].get<int>(), r["osl"].get<int>() });
        auto requests = server.takeRequests();
        QCOMPARE(requests.size(), sequences.size() + 2);
        QCOMPARE(requests.front(), std::string("/api/v1/availability"));
        for (auto [isl, osl] : sequences)
            QVERIFY(fetchedHistoryOf(requests, isl, osl));

        auto byHand = importedByHand(dir, "byhand", m_rows);
        QVERIFY(byHand);
        QCOMPARE(store->runCount(), byHand->runCount());
        QCOMPARE(hashes(*store), hashes(*byHand));
        QCOMPARE(report.changes.newRuns.at(kModel), std::uint64_t(m_rows.size()));
        // the evaluations as an import of the file stores them
        auto evaluationsByHand = openTempStore(dir, QStringLiteral("evals.sqlite"));
        QVERIFY(importPath(*evaluationsByHand, fixture("inferencex-app-api/evaluations.json").toStdString(), {})[0]
                    .result.ok());
        QCOMPARE(evaluationCount(*store), evaluationCount(*evaluationsByHand));
        QCOMPARE(report.changes.newEvaluations, std::uint64_t(evaluationCount(*store)));
        // every group is new; no reading moved, since there was none to move (the scopes were not in the store)
        QVERIFY(!report.changes.lines.empty());
        for (const LineChange& l : report.changes.lines)
            QVERIFY(l.before.empty() && !l.after.empty());
        QVERIFY(report.changes.readings.empty());
    }

    void aSecondSyncWithNothingNewFetchesOnlyTheList()
    {
        QTemporaryDir dir;
        ReplayServer server;
        server.setBenchmarks(m_rows);
        auto store = openTempStore(dir);
        const SyncReport first = sync(*store, optionsFor(server));
        QCOMPARE(first.failed(), std::size_t(0));
        server.takeRequests();
        const auto before = store->dataVersion();
        const SyncReport second = sync(*store, optionsFor(server));
        QCOMPARE(server.takeRequests(), std::vector<std::string> { "/api/v1/availability" });
        QVERIFY(second.items.empty());
        QCOMPARE(second.upToDate.size(), first.items.size());
        QCOMPARE(store->dataVersion(), before);
        // and it was not logged: `changes` lists the syncs that did something
        auto log = readSyncLog(*store, 0);
        QVERIFY(log.ok());
        QCOMPARE(log->size(), std::size_t(1));
    }

    void anIncrementalSyncFetchesAndStoresOnlyTheNew()
    {
        QTemporaryDir dir;
        ReplayServer server;
        const std::string cutoff = "2026-05-20";
        const json early = rowsThrough(m_rows, cutoff);
        QVERIFY(early.size() < m_rows.size() && !early.empty());
        server.setBenchmarks(early);
        auto store = openTempStore(dir);
        QCOMPARE(sync(*store, optionsFor(server)).failed(), std::size_t(0));
        const auto firstHashes = hashes(*store);
        server.takeRequests();

        server.setBenchmarks(m_rows); // later runs published
        const SyncReport report = sync(*store, optionsFor(server));
        QVERIFY2(report.failed() == 0, describe(report).c_str());
        const auto requests = server.takeRequests();
        const auto changed = sequencesAfter(m_rows, cutoff);
        QVERIFY(!changed.empty());
        QCOMPARE(requests.size(), changed.size() + 1); // the list, and one history per sequence with a newer date
        for (auto [isl, osl] : changed)
            QVERIFY(fetchedHistoryOf(requests, isl, osl));
        // stored: exactly the rows dated after the cutoff; the rest of the answers read and left out
        std::uint64_t imported = 0, skipped = 0;
        for (const SyncItemResult& r : report.items) {
            imported += r.imported;
            skipped += r.skipped;
        }
        QCOMPARE(imported, std::uint64_t(m_rows.size() - early.size()));
        QVERIFY(skipped > 0);
        QCOMPARE(report.changes.newRuns.at(kModel), imported);
        auto byHand = importedByHand(dir, "all", m_rows);
        QCOMPARE(hashes(*store), hashes(*byHand));
        QVERIFY(firstHashes.size() < hashes(*store).size());

        // what changed: the groups with a run after the cutoff, each found independently in the rows
        std::set<std::string> expectedGroups;
        for (const json& r : m_rows)
            if (r["date"].get<std::string>() > cutoff)
                expectedGroups.insert(r["hardware"].get<std::string>() + r["framework"].get<std::string>()
                    + r["precision"].get<std::string>() + r["spec_method"].get<std::string>()
                    + std::to_string(r["isl"].get<int>()) + "/" + std::to_string(r["osl"].get<int>()));
        for (const LineChange& l : report.changes.lines) {
            QVERIFY(!l.after.empty() && l.after > cutoff);
            QVERIFY2(l.before.empty() || l.before <= cutoff, l.group.c_str());
        }
        QCOMPARE(report.changes.lines.size(), expectedGroups.size());
        // the readings reported moved more than 5% between the two stores; those not reported did not
        auto earlyStore = importedByHand(dir, "early", early);
        for (const ReadingChange& c : report.changes.readings) {
            QVERIFY(c.before || c.after);
            if (c.before && c.after)
                QVERIFY2(std::abs(*c.after - *c.before) > 0.05 * *c.before, c.hardware.c_str());
        }
        FrontierCache cacheBefore(*earlyStore), cacheAfter(*store);
        LadderRequest req;
        req.scope.model = "dsr1";
        req.scope.isl = 1024;
        req.scope.osl = 1024;
        auto a = computeLadder(cacheBefore, bundledPricing(), req);
        auto b = computeLadder(cacheAfter, bundledPricing(), req);
        QVERIFY(a.ok() && b.ok());
        int compared = 0;
        for (const HardwareLadder& hb : *b)
            for (const HardwareLadder& ha : *a)
                if (ha.hardware == hb.hardware)
                    for (std::size_t i = 0; i < hb.rows.size(); ++i) {
                        const auto& x = ha.rows[i].entry;
                        const auto& y = hb.rows[i].entry;
                        if (!x.value || !y.value || x.status != LadderStatus::Ok || y.status != LadderStatus::Ok)
                            continue;
                        const bool moved = std::abs(*y.value - *x.value) > 0.05 * *x.value;
                        const bool reported = std::any_of(report.changes.readings.begin(),
                            report.changes.readings.end(), [&](const ReadingChange& c) {
                                return c.hardware == hb.hardware && c.sequence == "1k/1k" && c.target == y.target;
                            });
                        QCOMPARE(reported, moved);
                        ++compared;
                    }
        QVERIFY(compared > 10);
    }

    void failuresKeepWhatWasCompletedAndAResumedSyncEndsAsOneCleanSync()
    {
        QTemporaryDir dir;
        ReplayServer server;
        server.setBenchmarks(m_rows);
        auto store = openTempStore(dir);
        SyncOptions options = optionsFor(server);
        options.http.tries = 1;
        options.http.stallSeconds = 1;
        options.jobs = 2;
        // three sequences, three faults: a 500, a connection cut halfway, a body that stalls
        server.failNext("/api/v1/benchmarks/history?model=DeepSeek-R1-0528&isl=1024&osl=1024", { 500 });
        server.failNext("/api/v1/benchmarks/history?model=DeepSeek-R1-0528&isl=1024&osl=8192", { 0, -1, true });
        server.failNext(
            "/api/v1/benchmarks/history?model=DeepSeek-R1-0528&isl=8192&osl=1024", { 0, -1, false, true, 3 });
        const SyncReport broken = sync(*store, options);
        QCOMPARE(broken.failed(), std::size_t(3));
        for (const SyncItemResult& r : broken.items)
            QVERIFY2(r.error.find("127.0.0.1") != std::string::npos && r.imported == 0, r.error.c_str());
        QCOMPARE(store->runCount(), 0LL);
        auto marks = readSyncMarks(*store, server.root());
        QVERIFY(marks.ok() && marks->empty()); // nothing marked synced

        options.http.stallSeconds = 10;
        // the same again with one fault: two sequences stored and marked, one not
        server.failNext("/api/v1/benchmarks/history?model=DeepSeek-R1-0528&isl=1024&osl=8192", { 503 });
        const SyncReport partial = sync(*store, options);
        QCOMPARE(partial.failed(), std::size_t(1));
        QVERIFY(store->runCount() > 0);
        marks = readSyncMarks(*store, server.root());
        QCOMPARE(marks->size(), std::size_t(2));
        QVERIFY(!marks->contains(std::string(kModel) + " 1k/8k"));

        server.takeRequests();
        const SyncReport resumed = sync(*store, options);
        QCOMPARE(resumed.failed(), std::size_t(0));
        const auto requests = server.takeRequests();
        QCOMPARE(requests.size(), std::size_t(2)); // the list and the one sequence left
        QVERIFY(fetchedHistoryOf(requests, 1024, 8192));
        auto clean = openTempStore(dir, QStringLiteral("clean.sqlite"));
        QCOMPARE(sync(*clean, optionsFor(server)).failed(), std::size_t(0));
        QCOMPARE(hashes(*store), hashes(*clean));
    }

    void aTransientFailureIsTriedAgainAfterRetryAfter()
    {
        QTemporaryDir dir;
        ReplayServer server;
        server.setBenchmarks(m_rows);
        auto store = openTempStore(dir);
        SyncOptions options = optionsFor(server);
        options.jobs = 1;
        options.sequences = { SyncSequence { 1024, 1024, false } };
        const std::string route = "/api/v1/benchmarks/history?model=DeepSeek-R1-0528&isl=1024&osl=1024";
        server.failNext(route, { 429, 1 });
        server.failNext(route, { 0, -1, true }); // then a cut connection
        QElapsedTimer clock;
        clock.start();
        const SyncReport report = sync(*store, options);
        QVERIFY2(report.failed() == 0, describe(report).c_str());
        const auto requests = server.takeRequests();
        QCOMPARE(std::count(requests.begin(), requests.end(), route), 3L);
        QVERIFY(clock.elapsed() >= 900); // the server's Retry-After: 1, not the 20 ms delay of the options
        QCOMPARE(report.items.size(), std::size_t(1));
        QVERIFY(report.items[0].imported > 0);
    }

    void aModelKeyWithoutADisplayNameIsSyncedUnderItsKey()
    {
        QTemporaryDir dir;
        ReplayServer server;
        server.setBenchmarks(m_rows);
        server.addAvailability(
            { { "model", "zeta9" }, { "isl", 1024 }, { "osl", 1024 }, { "precision", "fp8" }, { "hardware", "h200" },
                { "framework", "vllm" }, { "spec_method", "none" }, { "disagg", false }, { "date", "2026-07-01" } });
        auto store = openTempStore(dir);
        SyncOptions options = optionsFor(server);
        options.models = { "zeta9" };
        auto plan = planSync(*store, options);
        QVERIFY2(plan.ok(), plan.ok() ? "" : plan.error().c_str());
        QCOMPARE(plan->items.size(), std::size_t(1));
        QCOMPARE(plan->items[0].label, std::string("zeta9 1k/1k"));
        QVERIFY(std::any_of(plan->notes.begin(), plan->notes.end(),
            [](const std::string& n) { return n.find("'zeta9'") != std::string::npos; }));
        // an empty answer where the list names a date is short: refused, the unit not marked
        server.answerWith("/api/v1/benchmarks/history?model=zeta9&isl=1024&osl=1024", "[]");
        SyncReport report = runSync(*store, *plan, options, {});
        QVERIFY2(report.failed() == 1 && report.items[0].error.find("short answer") != std::string::npos,
            describe(report).c_str());
        QVERIFY(readSyncMarks(*store, server.root())->empty());
        json row = m_rows[0];
        row["model"] = "zeta9";
        row["isl"] = 1024;
        row["osl"] = 1024;
        row["date"] = "2026-07-01";
        server.answerWith("/api/v1/benchmarks/history?model=zeta9&isl=1024&osl=1024", json::array({ row }).dump());
        report = runSync(*store, *plan, options, {});
        QVERIFY2(report.failed() == 0, describe(report).c_str());
        QCOMPARE(readSyncMarks(*store, server.root())->at("zeta9 1k/1k").lastDate, std::string("2026-07-01"));
        // a model the source lacks is an error that lists what it has
        options.models = { "nosuchmodel" };
        auto missing = planSync(*store, options);
        QVERIFY(!missing.ok());
        QVERIFY2(missing.error().find("nosuchmodel") != std::string::npos
                && missing.error().find(kModel) != std::string::npos,
            missing.error().c_str());
    }

    void anAnswerThatIsNotTheRoutesFormatIsRefused()
    {
        QTemporaryDir dir;
        ReplayServer server;
        server.setBenchmarks(m_rows);
        auto store = openTempStore(dir);
        SyncOptions options = optionsFor(server);
        options.sequences = { SyncSequence { 1024, 1024, false } };
        const std::string route = "/api/v1/benchmarks/history?model=DeepSeek-R1-0528&isl=1024&osl=1024";
        // evaluation rows where benchmark rows belong, then an object, then a row with a field of the wrong type
        server.answerWith(route, fixtureRows("evaluations.json").dump());
        SyncReport report = sync(*store, options);
        QCOMPARE(report.failed(), std::size_t(1));
        QVERIFY2(report.items[0].error.find("history") != std::string::npos
                && report.items[0].error.find("refused") != std::string::npos,
            report.items[0].error.c_str());
        server.answerWith(route, R"({"error":"Internal"})");
        report = sync(*store, options);
        QCOMPARE(report.failed(), std::size_t(1));
        json bad = json::array();
        for (const json& r : rowsThrough(m_rows, "2026-03-01"))
            if (r["isl"] == 1024 && r["osl"] == 1024)
                bad.push_back(r);
        bad[3]["conc"] = "many";
        server.answerWith(route, bad.dump());
        report = sync(*store, options);
        QCOMPARE(report.failed(), std::size_t(1));
        QVERIFY2(report.items[0].error.find("record 4") != std::string::npos
                && report.items[0].error.find("conc") != std::string::npos,
            report.items[0].error.c_str());
        QCOMPARE(store->runCount(), 0LL);
        QVERIFY(readSyncMarks(*store, server.root())->empty());
        // an availability row without a date refuses the whole list, naming the row and the field
        server.answerWith("/api/v1/availability", R"([{"model":"dsr1","isl":1024,"osl":1024},{"model":"dsr1"}])");
        auto plan = planSync(*store, options);
        QVERIFY(!plan.ok());
        QVERIFY2(plan.error().find("row 1") != std::string::npos && plan.error().find("'date'") != std::string::npos,
            plan.error().c_str());
    }

    void aCancelKeepsWhatWasImportedAndTheNextSyncGoesOn()
    {
        QTemporaryDir dir;
        ReplayServer server;
        server.setBenchmarks(m_rows);
        auto store = openTempStore(dir);
        SyncOptions options = optionsFor(server);
        options.jobs = 1;
        std::atomic<bool> cancel { false };
        SyncCallbacks callbacks;
        callbacks.keepGoing = [&] { return !cancel.load(); };
        callbacks.progress = [&](const SyncEvent& e) {
            if (e.stage == SyncStage::Done)
                cancel = true; // after the first item
        };
        const SyncReport report = sync(*store, options, callbacks);
        QVERIFY(report.cancelled);
        QCOMPARE(report.items.size(), std::size_t(1));
        QCOMPARE(readSyncMarks(*store, server.root())->size(), std::size_t(1));
        const auto runsAfterCancel = store->runCount();
        QCOMPARE(runsAfterCancel, static_cast<long long>(report.items[0].imported));

        const SyncReport rest = sync(*store, optionsFor(server));
        QCOMPARE(rest.failed(), std::size_t(0));
        QCOMPARE(rest.upToDate.size(), std::size_t(1));
        auto byHand = importedByHand(dir, "all", m_rows);
        QCOMPARE(hashes(*store), hashes(*byHand));
    }

    void theLatestViewSyncsEachModelInOneRequest()
    {
        QTemporaryDir dir;
        ReplayServer server;
        server.setBenchmarks(m_rows);
        auto store = openTempStore(dir);
        SyncOptions options = optionsFor(server);
        options.history = false;
        const SyncReport report = sync(*store, options);
        QVERIFY2(report.failed() == 0, describe(report).c_str());
        const auto requests = server.takeRequests();
        QVERIFY2(requests
                == (std::vector<std::string> { "/api/v1/availability", "/api/v1/benchmarks?model=DeepSeek-R1-0528" }),
            joined(requests).c_str());
        // the latest view: per configuration the rows of its newest date, as the ladder's --runs latest reads them
        QVERIFY(store->runCount() > 0 && store->runCount() < static_cast<long long>(m_rows.size()));
        // a later sync with history takes the whole history, since the latest view was not all of it
        const SyncReport full = sync(*store, optionsFor(server));
        QCOMPARE(full.failed(), std::size_t(0));
        QCOMPARE(store->runCount(), static_cast<long long>(m_rows.size()));
    }

    void theCliSyncsAndPrintsTheChangesAgainLater()
    {
        QTemporaryDir dir;
        ReplayServer server;
        server.setBenchmarks(m_rows);
        const QString db = dir.filePath(QStringLiteral("cli.sqlite"));
        QProcess cli;
        cli.start(cliProgram(),
            { QStringLiteral("sync"), QStringLiteral("--db"), db, QStringLiteral("--source"),
                QString::fromStdString(server.root()), QStringLiteral("--sequences"), QStringLiteral("1k/1k,8k/1k") });
        QVERIFY(cli.waitForFinished(60000));
        const QByteArray out = cli.readAllStandardOutput();
        QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
        const json summary = json::parse(out.toStdString());
        std::uint64_t expected = 0;
        for (const json& r : m_rows)
            expected += r["osl"] == 1024 ? 1 : 0;
        QCOMPARE(summary["new_runs"][kModel].get<std::uint64_t>(), expected);
        QCOMPARE(summary["items"].size(), std::size_t(2));

        QProcess changes;
        changes.start(cliProgram(),
            { QStringLiteral("changes"), QStringLiteral("--db"), db, QStringLiteral("--since"),
                QStringLiteral("2000-01-01") });
        QVERIFY(changes.waitForFinished(60000));
        QCOMPARE(changes.exitCode(), 0);
        QCOMPARE(changes.readAllStandardOutput(), out);

        QProcess bad;
        bad.start(cliProgram(),
            { QStringLiteral("sync"), QStringLiteral("--db"), db, QStringLiteral("--sequences"),
                QStringLiteral("1k") });
        QVERIFY(bad.waitForFinished(60000));
        QCOMPARE(bad.exitCode(), 2);
        QVERIFY(bad.readAllStandardError().contains("1k/1k"));
    }
};

PARETOSCOPE_GUILESS_SUITE(TestSync)
#include "tests/support/testpaths.h"
#include "tst_sync.moc"
