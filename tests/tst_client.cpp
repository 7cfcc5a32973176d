// The live-session client: the SSE parser under every way of cutting a stream, vLLM's metric definitions, and whole
// levels against paretoscope-engine-sim, whose fixed mode is the ground truth (first token after TTFT, then one
// token every ITL) and whose fault options inject the failures a real engine shows.
#include <QtTest>

#include <chrono>
#include <cmath>

#include "core/live/levelmetrics.h"
#include "core/live/loadgenerator.h"
#include "core/live/sseparser.h"
#include "core/live/workload.h"
#include "tests/support/simprocess.h"
#include "tests/support/suite.h"

using namespace paretoscope;
using paretoscope::testsupport::SimProcess;

namespace {

// A stream as vLLM sends it, with the variations the spec allows: CRLF, CR and LF line ends, a keep-alive comment,
// a data field split over two lines, an event name, an error object mid-stream, the usage chunk and [DONE].
const std::string recorded = ": keep-alive\r\n\r\n"
                             "data: {\"choices\":[{\"index\":0,\"text\":\"Hello\"}]}\r\n\r\n"
                             "data:{\"choices\":[{\"index\":0,\"text\":\" world\"}]}\n\n"
                             "event: message\ndata: {\"a\":\ndata: 1}\n\n"
                             "data: {\"error\":{\"message\":\"boom\"}}\r\r"
                             ": ping\n"
                             "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2}}\n\n"
                             "data: [DONE]\n\n";

const std::vector<std::pair<std::string, std::string>> recordedEvents = {
    { "", "{\"choices\":[{\"index\":0,\"text\":\"Hello\"}]}" },
    { "", "{\"choices\":[{\"index\":0,\"text\":\" world\"}]}" },
    { "message", "{\"a\":\n1}" },
    { "", "{\"error\":{\"message\":\"boom\"}}" },
    { "", "{\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2}}" },
    { "", "[DONE]" },
};

std::vector<std::pair<std::string, std::string>> parseInPieces(const std::vector<std::string_view>& pieces)
{
    std::vector<std::pair<std::string, std::string>> out;
    SseParser parser;
    for (std::string_view p : pieces)
        parser.feed(p, [&](SseEvent& e) { out.emplace_back(e.event, e.data); });
    return out;
}

Endpoint endpointOf(const SimProcess& sim, bool chat = false)
{
    return { sim.url().toStdString(), {}, chat };
}

RequestShape idsShape(bool chat = false)
{
    return { "sim-model", chat, PromptKind::TokenIds };
}

} // namespace

class TestClient : public QObject {
    Q_OBJECT

private slots:
    void sseEveryTwoCuts()
    {
        // every split of the recording into three reads (about 90,000 ways), then one byte per read
        const std::string_view all(recorded);
        for (std::size_t i = 0; i <= all.size(); ++i)
            for (std::size_t j = i; j <= all.size(); j += 1) {
                auto got = parseInPieces({ all.substr(0, i), all.substr(i, j - i), all.substr(j) });
                if (got != recordedEvents)
                    QFAIL(qPrintable(QStringLiteral("cut at %1 and %2 parsed differently").arg(i).arg(j)));
            }
        std::vector<std::string_view> bytes;
        bytes.reserve(all.size());
        for (std::size_t i = 0; i < all.size(); ++i)
            bytes.push_back(all.substr(i, 1));
        QVERIFY(parseInPieces(bytes) == recordedEvents);
    }

    void sseCutsOffAnEndlessLine()
    {
        SseParser parser(1024);
        int events = 0;
        std::string chunk(300, 'x');
        QVERIFY(parser.feed("data: ", [&](SseEvent&) { ++events; }));
        bool fine = true;
        for (int i = 0; i < 10 && fine; ++i)
            fine = parser.feed(chunk, [&](SseEvent&) { ++events; });
        QVERIFY(!fine);
        QVERIFY(parser.failed());
        QCOMPARE(events, 0);
        // a long event within the limit is fine
        SseParser roomy(1 << 20);
        std::string big = "data: " + std::string(500000, 'y') + "\n\n";
        std::size_t size = 0;
        QVERIFY(roomy.feed(big, [&](SseEvent& e) { size = e.data.size(); }));
        QCOMPARE(size, std::size_t(500000));
    }

    void percentilesAsNumpy_data()
    {
        QTest::addColumn<std::vector<double>>("values");
        QTest::addColumn<double>("q");
        QTest::addColumn<double>("expected");
        // numpy.percentile(values, q) with its default linear interpolation, worked by hand
        QTest::newRow("median of four") << std::vector<double> { 4, 1, 3, 2 } << 50.0 << 2.5;
        QTest::newRow("p90 of four") << std::vector<double> { 1, 2, 3, 4 } << 90.0 << 3.7;
        QTest::newRow("p99 of four") << std::vector<double> { 1, 2, 3, 4 } << 99.0 << 3.97;
        QTest::newRow("p99.9 of eleven") << std::vector<double> { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 } << 99.9 << 9.99;
        QTest::newRow("one value") << std::vector<double> { 7 } << 99.0 << 7.0;
    }
    void percentilesAsNumpy()
    {
        QFETCH(std::vector<double>, values);
        QFETCH(double, q);
        QFETCH(double, expected);
        std::sort(values.begin(), values.end());
        QVERIFY(std::abs(percentileOfSorted(values, q) - expected) < 1e-12);
    }

    void metricsAsVllmDefinesThem()
    {
        // two completed requests, one failure and one warm-up, times in seconds from the level's start
        RequestLog a;
        a.scheduled = 0.0;
        a.sent = 0.1;
        a.firstToken = 0.3;
        a.end = 1.3;
        a.chunks = { 0.2f, 0.7f, 1.2f };
        a.inputTokens = 100;
        a.serverPromptTokens = 100;
        a.outputTokens = 5;
        RequestLog b = a;
        b.scheduled = 0.5;
        b.sent = 0.5;
        b.firstToken = 0.6;
        b.end = 2.1;
        b.chunks = { 0.1f, 0.4f };
        b.serverPromptTokens = 98;
        b.outputTokens = 4;
        RequestLog failed;
        failed.scheduled = failed.sent = 1.0;
        failed.end = 1.5;
        failed.error = "HTTP 500: x";
        RequestLog warm = a;
        warm.warmup = true;
        warm.end = 9;
        Slo slo;
        slo.ttft = 0.15;
        LevelMetrics m = computeLevelMetrics({ a, b, failed, warm }, slo);
        QCOMPARE(m.completed, 2LL);
        QCOMPARE(m.failed, 1LL);
        QCOMPARE(m.errors.at("HTTP 500: x"), 1LL);
        QCOMPARE(m.duration, 2.1); // scheduled 0.0 to the last end 2.1; the warm-up is not counted
        QCOMPARE(m.totalInput, 198LL); // the server's count wins
        QCOMPARE(m.promptMismatches, 1LL);
        QCOMPARE(m.totalOutput, 9LL);
        QVERIFY(std::abs(m.outputThroughput - 9 / 2.1) < 1e-12);
        QVERIFY(std::abs(m.totalThroughput - 207 / 2.1) < 1e-12);
        QVERIFY(std::abs(m.requestThroughput - 2 / 2.1) < 1e-12);
        // TTFT 0.2 and 0.1; TPOT (1.2 - 0.2) / 4 = 0.25 and (1.6 - 0.1) / 3 = 0.5
        QVERIFY(std::abs(*m.ttft.median - 0.15) < 1e-12);
        QVERIFY(std::abs(*m.tpot.mean - 0.375) < 1e-12);
        QVERIFY(std::abs(*m.e2el.median - (1.2 + 1.6) / 2) < 1e-12);
        // ITL: the gaps 0.5, 0.5 and 0.3 (float times, so 1e-6)
        QVERIFY(std::abs(*m.itl.median - 0.5) < 1e-6);
        QVERIFY(std::abs(*m.itl.mean - 1.3 / 3) < 1e-6);
        // client wait: 0.1, 0 and 0 (the failure waited too)
        QVERIFY(std::abs(*m.clientWait.mean - 0.1 / 3) < 1e-12);
        // goodput: only b meets TTFT <= 0.15
        QVERIFY(m.goodput && std::abs(*m.goodput - 1 / 2.1) < 1e-12);
    }

    void endpointsAreHttpOnly_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("normalized");
        QTest::newRow("plain") << "http://127.0.0.1:8000"
                               << "http://127.0.0.1:8000";
        QTest::newRow("trailing path") << "https://host/v1/completions"
                                       << "https://host";
        QTest::newRow("v1") << "HTTP://host:1/v1/"
                            << "HTTP://host:1";
        QTest::newRow("file") << "file:///etc/passwd"
                              << "";
        QTest::newRow("ftp") << "ftp://host"
                             << "";
        QTest::newRow("no scheme") << "127.0.0.1:8000"
                                   << "";
        QTest::newRow("no host") << "http:///v1"
                                 << "";
    }
    void endpointsAreHttpOnly()
    {
        QFETCH(QString, url);
        QFETCH(QString, normalized);
        auto got = normalizeEndpointUrl(url.toStdString());
        if (normalized.isEmpty()) {
            QVERIFY(!got);
            QVERIFY(QString::fromStdString(got.error()).contains(QStringLiteral("http")));
        } else {
            QVERIFY2(got, got ? "" : got.error().c_str());
            QCOMPARE(QString::fromStdString(*got), normalized);
        }
    }

    void fixedModeIsMeasuredAsTheServerTimesIt_data()
    {
        QTest::addColumn<int>("concurrency");
        QTest::newRow("1") << 1;
        QTest::newRow("16") << 16;
        // 256 streams of two instrumented processes on a loaded two-core machine put the server's own first token
        // 29 ms late (one CI run beside another build): what this case catches, a time taken at the wrong event,
        // the plain build checks at 256 and both builds at 16
        if (!qEnvironmentVariableIsSet("PARETOSCOPE_SANITIZED"))
            QTest::newRow("256") << 256;
    }
    void fixedModeIsMeasuredAsTheServerTimesIt()
    {
        QFETCH(int, concurrency);
        SimProcess sim(
            { QStringLiteral("--ttft-ms"), QStringLiteral("50"), QStringLiteral("--itl-ms"), QStringLiteral("10") });
        QVERIFY2(sim.ok(), qPrintable(sim.output()));
        RandomWorkload workload(idsShape(), 200, 16);
        LevelOptions options;
        options.concurrency = concurrency;
        auto result = runLevel(endpointOf(sim), workload, options);
        QVERIFY2(result, result ? "" : result.error().c_str());
        const auto& requests = result->requests;
        QCOMPARE(int(requests.size()), 12 * concurrency); // 10 x c measured plus 2 x c warm-ups
        LevelMetrics m = computeLevelMetrics(requests);
        QCOMPARE(m.completed, 10LL * concurrency);
        QCOMPARE(m.failed, 0LL);
        // every request got what the server served: 16 tokens, in 16 chunks, its whole prompt counted
        for (const RequestLog& r : requests) {
            QCOMPARE(r.outputTokens, 16);
            QCOMPARE(int(r.chunks.size()), 16);
            QCOMPARE(r.serverPromptTokens, r.inputTokens);
            QVERIFY(r.inputTokens >= 160 && r.inputTokens <= 200);
        }
        QCOMPARE(m.totalOutput, 160LL * concurrency);
        QCOMPARE(m.promptMismatches, 0LL);
        double ttftErr = std::abs(*m.ttft.median - 0.050), tpotErr = std::abs(*m.tpot.median - 0.010);
        qInfo("concurrency %d: median TTFT %.3f ms, TPOT %.4f ms, client wait %.3f ms", concurrency,
            *m.ttft.median * 1e3, *m.tpot.median * 1e3, *m.clientWait.median * 1e3);
        // The bound, half the ITL, catches a time taken at the wrong event (a late first chunk is off by the 10 ms
        // ITL). The half-millisecond goal itself is measured by tests/bench/bench_client, not asserted here: this
        // machine is shared, one loaded moment put an optimised run at +0.61 ms and a build beside it at +4.2 ms at
        // 256 streams.
        const double tolerance = 0.005;
        QVERIFY2(ttftErr < tolerance, qPrintable(QStringLiteral("TTFT off by %1 ms").arg(ttftErr * 1e3)));
        QVERIFY2(tpotErr < tolerance, qPrintable(QStringLiteral("TPOT off by %1 ms").arg(tpotErr * 1e3)));
    }

    void chatCompletionsCountContentDeltas()
    {
        SimProcess sim(
            { QStringLiteral("--ttft-ms"), QStringLiteral("5"), QStringLiteral("--itl-ms"), QStringLiteral("1") });
        QVERIFY(sim.ok());
        RandomWorkload workload(idsShape(true), 50, 8);
        LevelOptions options;
        options.concurrency = 2;
        auto result = runLevel(endpointOf(sim, true), workload, options);
        QVERIFY(result);
        LevelMetrics m = computeLevelMetrics(result->requests);
        QCOMPARE(m.completed, 20LL);
        for (const RequestLog& r : result->requests) {
            QCOMPARE(int(r.chunks.size()), 8); // the role-only first delta carries no token
            QCOMPARE(r.serverPromptTokens, r.inputTokens); // one word per id in text prompts
        }
    }

    void serverErrorsAreFailuresNotLatencies()
    {
        SimProcess sim({ QStringLiteral("--ttft-ms"), QStringLiteral("20"), QStringLiteral("--itl-ms"),
            QStringLiteral("1"), QStringLiteral("--fail-500"), QStringLiteral("0.2"), QStringLiteral("--fail-429"),
            QStringLiteral("0.1"), QStringLiteral("--seed"), QStringLiteral("7") });
        QVERIFY(sim.ok());
        RandomWorkload workload(idsShape(), 50, 8);
        LevelOptions options;
        options.concurrency = 8;
        options.prompts = 400;
        options.warmups = 0;
        auto result = runLevel(endpointOf(sim), workload, options);
        QVERIFY(result);
        LevelMetrics m = computeLevelMetrics(result->requests);
        QCOMPARE(m.completed + m.failed, 400LL);
        long long e500 = m.errors.count("HTTP 500: simulated internal error")
            ? m.errors.at("HTTP 500: simulated internal error")
            : 0;
        long long e429
            = m.errors.count("HTTP 429: simulated overload") ? m.errors.at("HTTP 429: simulated overload") : 0;
        QCOMPARE(e500 + e429, m.failed);
        // 80 and 40 expected; a binomial's 4 sigma is about 32 and 23
        QVERIFY2(std::abs(e500 - 80) < 32 && std::abs(e429 - 40) < 23,
            qPrintable(QStringLiteral("%1 %2").arg(e500).arg(e429)));
        // an error answer arrives in well under the 20 ms TTFT: had it been counted, the minimum would show it
        QVERIFY(*m.ttft.median >= 0.0195);
        for (const RequestLog& r : result->requests)
            if (r.ok())
                QVERIFY(r.firstToken - r.sent >= 0.0195);
    }

    void brokenStreamsAreFailures_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("error");
        QTest::newRow("dropped") << QStringList { QStringLiteral("--drop"), QStringLiteral("1") }
                                 << QStringLiteral("connection closed mid-stream");
        QTest::newRow("stalled") << QStringList { QStringLiteral("--stall"), QStringLiteral("1") }
                                 << QStringLiteral("stalled: no data for 1 s");
        QTest::newRow("error event") << QStringList { QStringLiteral("--stream-error"), QStringLiteral("1") }
                                     << "server error mid-stream: simulated engine failure mid-stream";
        QTest::newRow("ids refused") << QStringList { QStringLiteral("--text-only") }
                                     << "HTTP 400: token id prompts are not accepted by this server";
    }
    void brokenStreamsAreFailures()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, error);
        SimProcess sim(QStringList { QStringLiteral("--ttft-ms"), QStringLiteral("5"), QStringLiteral("--itl-ms"),
                           QStringLiteral("2") }
            + args);
        QVERIFY(sim.ok());
        RandomWorkload workload(idsShape(), 20, 16);
        LevelOptions options;
        options.concurrency = 4;
        options.prompts = 8;
        options.warmups = 0;
        options.stallTimeout = 1;
        auto result = runLevel(endpointOf(sim), workload, options);
        QVERIFY(result);
        LevelMetrics m = computeLevelMetrics(result->requests);
        QCOMPARE(m.completed, 0LL);
        QCOMPARE(m.failed, 8LL);
        QCOMPARE(QString::fromStdString(m.errors.begin()->first), error);
        QVERIFY(!m.ttft.median);
    }

    void endlessAnswersAreCutOff_data()
    {
        QTest::addColumn<QString>("flood");
        QTest::addColumn<QString>("error");
        // a 1 GB line never arrives whole: the SSE parser stops at its event limit (here the 1 MB answer limit)
        QTest::newRow("endless line") << "line"
                                      << "answer longer than 1 MB, cut off";
        QTest::newRow("endless events") << "events"
                                        << "answer longer than 1 MB, cut off";
    }
    void endlessAnswersAreCutOff()
    {
        QFETCH(QString, flood);
        QFETCH(QString, error);
        SimProcess sim({ QStringLiteral("--ttft-ms"), QStringLiteral("1"), QStringLiteral("--itl-ms"),
            QStringLiteral("1"), QStringLiteral("--flood"), flood });
        QVERIFY(sim.ok());
        RandomWorkload workload(idsShape(), 16, 16);
        LevelOptions options;
        options.concurrency = 2;
        options.prompts = 2;
        options.warmups = 0;
        options.maxResponseBytes = 1u << 20;
        auto result = runLevel(endpointOf(sim), workload, options);
        QVERIFY(result);
        LevelMetrics m = computeLevelMetrics(result->requests);
        QCOMPARE(m.failed, 2LL);
        QCOMPARE(QString::fromStdString(m.errors.begin()->first), error);
    }

    void poissonArrivalsAtTheRequestedRate()
    {
        SimProcess sim(
            { QStringLiteral("--ttft-ms"), QStringLiteral("2"), QStringLiteral("--itl-ms"), QStringLiteral("1") });
        QVERIFY(sim.ok());
        RandomWorkload workload(idsShape(), 16, 4);
        LevelOptions options;
        options.requestRate = 200; // per second
        options.concurrency = 0; // no cap: every arrival is sent when it is due
        options.prompts = 400;
        options.warmups = 0;
        options.seed = 42;
        auto result = runLevel(endpointOf(sim), workload, options);
        QVERIFY(result);
        std::vector<double> at;
        for (const RequestLog& r : result->requests)
            at.push_back(r.scheduled);
        std::sort(at.begin(), at.end());
        // 400 exponential gaps of mean 5 ms: the mean within 4 standard errors (5 ms / sqrt(400) x 4 = 1 ms)
        double mean = (at.back() - at.front()) / double(at.size() - 1);
        QVERIFY2(std::abs(mean - 0.005) < 0.001, qPrintable(QString::number(mean)));
        // and exponential, not regular: the gaps' coefficient of variation is about 1
        double sum = 0, sq = 0;
        for (std::size_t i = 1; i < at.size(); ++i) {
            double g = at[i] - at[i - 1];
            sum += g;
            sq += g * g;
        }
        double n = double(at.size() - 1), mu = sum / n, cv = std::sqrt(sq / n - mu * mu) / mu;
        QVERIFY2(cv > 0.8 && cv < 1.2, qPrintable(QString::number(cv)));
        LevelMetrics m = computeLevelMetrics(result->requests);
        QCOMPARE(m.completed, 400LL);
        QVERIFY(*m.clientWait.median < 0.002); // uncapped: nothing waits in the client
    }

    void cancelClosesEveryStream()
    {
        SimProcess sim(
            { QStringLiteral("--ttft-ms"), QStringLiteral("10"), QStringLiteral("--itl-ms"), QStringLiteral("50") });
        QVERIFY(sim.ok());
        RandomWorkload workload(idsShape(), 20, 1000); // 50 s per request
        LevelOptions options;
        options.concurrency = 32;
        auto started = std::chrono::steady_clock::now();
        int calls = 0;
        auto result = runLevel(endpointOf(sim), workload, options, [&](const LevelProgress& p) {
            ++calls;
            return p.elapsed < 0.5;
        });
        double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        QVERIFY(result);
        QVERIFY(result->cancelled);
        QVERIFY(calls >= 2);
        QVERIFY2(took < 3, qPrintable(QString::number(took)));
    }

    void agenticContextGrowsOnASharedPrefix()
    {
        SimProcess sim(
            { QStringLiteral("--ttft-ms"), QStringLiteral("2"), QStringLiteral("--itl-ms"), QStringLiteral("1") });
        QVERIFY(sim.ok());
        AgenticOptions a;
        a.prefixTokens = 500;
        a.turnTokens = 100;
        a.outputTokens = 10;
        a.turns = 3;
        a.meanThinkSeconds = 0.01;
        AgenticWorkload workload(idsShape(), a);
        LevelOptions options;
        options.concurrency = 1;
        options.prompts = 6;
        options.warmups = 0;
        auto result = runLevel(endpointOf(sim), workload, options);
        QVERIFY(result);
        const auto& r = result->requests;
        QCOMPARE(int(r.size()), 6);
        // turn 1: prefix + new tokens; turn 2 adds the answer (10) and new tokens; a fourth turn starts over
        for (int conv = 0; conv < 2; ++conv) {
            const std::size_t first = std::size_t(conv) * 3;
            const RequestLog &t1 = r[first], &t2 = r[first + 1], &t3 = r[first + 2];
            QVERIFY(t1.serverPromptTokens >= 580 && t1.serverPromptTokens <= 600);
            QVERIFY(t2.serverPromptTokens - t1.serverPromptTokens >= 90
                && t2.serverPromptTokens - t1.serverPromptTokens <= 110);
            QVERIFY(t3.serverPromptTokens > t2.serverPromptTokens);
            // think time: the next turn was scheduled after the previous answer ended
            QVERIFY(t2.scheduled >= t1.end);
        }
    }
};

PARETOSCOPE_GUILESS_SUITE(TestClient)
#include "tst_client.moc"
