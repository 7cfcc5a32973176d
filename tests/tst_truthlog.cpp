// The engine emulator's --truth-log (when it read each streamed request and wrote its first and last token,
// CLOCK_MONOTONIC ns) against what the live-session client recorded of the same requests: every completed request
// is in the log once, matched by the answer's id, and no time of the client's comes before the emulator's cause of
// it. No assertion on speed: the figures themselves come from tests/bench/bench_client.
#include <QtTest>

#include <map>

#include "core/live/loadgenerator.h"
#include "core/live/workload.h"
#include "tests/support/simprocess.h"
#include "tests/support/suite.h"
#include "tests/support/truthlog.h"

using namespace paretoscope;
using paretoscope::testsupport::SimProcess;
using paretoscope::testsupport::TruthLine;

namespace {

// Both processes read CLOCK_MONOTONIC (the client through std::chrono::steady_clock) and the emulator takes its
// times just before send(), so the client can only be later; the tolerance covers the conversions of nanoseconds to
// seconds in doubles (well under a microsecond at this machine's uptime), nothing else.
constexpr double causalityTolerance = 10e-6;

struct Level {
    LevelResult result;
    std::vector<TruthLine> truth;
    int badLines = 0;
};

// Runs one level against an emulator writing a truth log; the emulator is stopped (and its log written out) first.
Level runWithTruth(const QStringList& simArgs, int concurrency, bool chat, int osl = 16, int clientThreads = 1)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("truth.csv"));
    Level level;
    {
        SimProcess sim(simArgs + QStringList { QStringLiteral("--truth-log"), path });
        if (!sim.ok())
            return level;
        RandomWorkload workload({ "sim-model", chat, PromptKind::TokenIds }, 64, osl);
        LevelOptions options;
        options.concurrency = concurrency;
        options.clientThreads = clientThreads;
        auto result = runLevel({ sim.url().toStdString(), {}, chat }, workload, options);
        if (result)
            level.result = std::move(*result);
    }
    level.truth = testsupport::readTruthLog(path, &level.badLines);
    return level;
}

} // namespace

class TstTruthLog : public QObject {
    Q_OBJECT

private slots:
    void everyCompletedRequestIsLoggedOnceAndAfterItsCause_data()
    {
        QTest::addColumn<int>("concurrency");
        QTest::addColumn<bool>("chat");
        QTest::addColumn<int>("clientThreads");
        QTest::newRow("completions, 4 streams") << 4 << false << 1;
        QTest::newRow("completions, 32 streams") << 32 << false << 1;
        QTest::newRow("chat, 8 streams") << 8 << true << 1;
        // the clients' requests merged onto one time zero must still come after their causes
        QTest::newRow("completions, 32 streams, 3 client threads") << 32 << false << 3;
    }
    void everyCompletedRequestIsLoggedOnceAndAfterItsCause()
    {
        QFETCH(int, concurrency);
        QFETCH(bool, chat);
        QFETCH(int, clientThreads);
        Level level = runWithTruth(
            { QStringLiteral("--ttft-ms"), QStringLiteral("20"), QStringLiteral("--itl-ms"), QStringLiteral("2") },
            concurrency, chat, 16, clientThreads);
        const auto& requests = level.result.requests;
        QCOMPARE(int(requests.size()), 12 * concurrency); // 10 x c measured plus 2 x c warm-ups
        QCOMPARE(level.badLines, 0);
        QCOMPARE(level.truth.size(), requests.size()); // nothing failed, so every stream is logged
        std::map<std::string, const TruthLine*> byId;
        for (const TruthLine& t : level.truth) {
            QVERIFY2(byId.emplace(t.id, &t).second, t.id.c_str());
            QCOMPARE(t.outcome, std::string("ok"));
            QCOMPARE(t.tokens, 16);
            QVERIFY(t.receivedNs > 0 && t.receivedNs <= t.firstNs && t.firstNs <= t.lastNs);
        }
        QVERIFY(level.result.clockOriginNs > 0);
        const double origin = static_cast<double>(level.result.clockOriginNs) * 1e-9;
        for (const RequestLog& r : requests) {
            QVERIFY2(r.ok(), r.error.c_str());
            QVERIFY(!r.responseId.empty());
            auto it = byId.find(r.responseId);
            QVERIFY2(it != byId.end(), r.responseId.c_str());
            const TruthLine& t = *it->second;
            byId.erase(it); // each request matches its own line, once
            const double received = static_cast<double>(t.receivedNs) * 1e-9;
            const double first = static_cast<double>(t.firstNs) * 1e-9, last = static_cast<double>(t.lastNs) * 1e-9;
            const double clientLast = r.sent + static_cast<double>(r.chunks.back());
            // the request is sent before the emulator reads it, each token written before the client receives it
            QVERIFY2(origin + r.sent <= received + causalityTolerance,
                qPrintable(QStringLiteral("read %1 ms before it was sent").arg((origin + r.sent - received) * 1e3)));
            QVERIFY2(origin + r.firstToken >= first - causalityTolerance,
                qPrintable(QStringLiteral("first token seen %1 ms before it was written")
                               .arg((first - origin - r.firstToken) * 1e3)));
            QVERIFY2(origin + clientLast >= last - causalityTolerance,
                qPrintable(QStringLiteral("last token seen %1 ms before it was written")
                               .arg((last - origin - clientLast) * 1e3)));
            QVERIFY(origin + r.end >= last - causalityTolerance);
        }
        QVERIFY(byId.empty());
    }

    void failedStreamsAreLoggedWithTheirOutcome()
    {
        // an error event or a closed connection part way through; the first token always goes out (fault at 0
        // sends nothing, so such requests have no line)
        Level level = runWithTruth(
            { QStringLiteral("--ttft-ms"), QStringLiteral("5"), QStringLiteral("--itl-ms"), QStringLiteral("1"),
                QStringLiteral("--stream-error"), QStringLiteral("0.25"), QStringLiteral("--drop"),
                QStringLiteral("0.25"), QStringLiteral("--seed"), QStringLiteral("5") },
            8, false, 32);
        QCOMPARE(level.badLines, 0);
        std::map<std::string, const TruthLine*> byId;
        for (const TruthLine& t : level.truth)
            byId.emplace(t.id, &t);
        QCOMPARE(byId.size(), level.truth.size());
        int failedLogged = 0;
        for (const RequestLog& r : level.result.requests) {
            auto it = byId.find(r.responseId);
            if (r.ok()) {
                QVERIFY2(it != byId.end(), r.responseId.c_str());
                QCOMPARE(it->second->outcome, std::string("ok"));
                QCOMPARE(it->second->tokens, 32);
            } else if (it != byId.end()) {
                ++failedLogged;
                QVERIFY(it->second->outcome == "error" || it->second->outcome == "closed");
                QVERIFY(it->second->tokens < 32);
                QCOMPARE(it->second->lastNs, 0LL);
            }
        }
        QVERIFY(failedLogged > 0);
    }

    void linesReachTheFileWhileTheEmulatorRuns()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("truth.csv"));
        SimProcess sim({ QStringLiteral("--ttft-ms"), QStringLiteral("5"), QStringLiteral("--itl-ms"),
            QStringLiteral("1"), QStringLiteral("--truth-log"), path });
        QVERIFY(sim.ok());
        RandomWorkload workload({ "sim-model", false, PromptKind::TokenIds }, 64, 8);
        LevelOptions options;
        options.concurrency = 2;
        options.prompts = 4;
        options.warmups = 0;
        auto result = runLevel({ sim.url().toStdString(), {}, false }, workload, options);
        QVERIFY(result);
        // the idle emulator writes what it holds within about a second, not only at exit
        QTRY_COMPARE_WITH_TIMEOUT(testsupport::readTruthLog(path).size(), std::size_t(4), 10000);
    }

    void clientThreadsSplitTheLevelAndCancelTogether()
    {
        SimProcess sim(
            { QStringLiteral("--ttft-ms"), QStringLiteral("5"), QStringLiteral("--itl-ms"), QStringLiteral("1") });
        QVERIFY(sim.ok());
        RandomWorkload workload({ "sim-model", false, PromptKind::TokenIds }, 64, 8);
        LevelOptions options;
        options.concurrency = 7;
        options.prompts = 20;
        options.warmups = 5;
        options.clientThreads = 3;
        LevelProgress last;
        auto result = runLevel({ sim.url().toStdString(), {}, false }, workload, options, [&](const LevelProgress& p) {
            last = p;
            return true;
        });
        QVERIFY(result);
        QCOMPARE(int(result->requests.size()), 25);
        QCOMPARE(int(std::count_if(
                     result->requests.begin(), result->requests.end(), [](const RequestLog& r) { return r.warmup; })),
            5);
        QCOMPARE(last.finished, 20);
        QCOMPARE(last.total, 20);
        QCOMPARE(last.warmupsLeft, 0);
        QCOMPARE(last.outputTokens, 160LL);

        // a cancel from the caller stops every client
        SimProcess slow(
            { QStringLiteral("--ttft-ms"), QStringLiteral("5"), QStringLiteral("--itl-ms"), QStringLiteral("1000") });
        QVERIFY(slow.ok());
        options.warmups = 0;
        auto cancelled = runLevel({ slow.url().toStdString(), {}, false }, workload, options,
            [](const LevelProgress& p) { return p.inFlight < 7; });
        QVERIFY(cancelled);
        QVERIFY(cancelled->cancelled);
    }

    void anUnwritableTruthLogStopsTheEmulator()
    {
        SimProcess sim({ QStringLiteral("--ttft-ms"), QStringLiteral("5"), QStringLiteral("--itl-ms"),
            QStringLiteral("1"), QStringLiteral("--truth-log"), QStringLiteral("/nonexistent-dir/truth.csv") });
        QVERIFY(!sim.ok());
    }
};

PARETOSCOPE_GUILESS_SUITE(TstTruthLog)
#include "tst_truthlog.moc"
