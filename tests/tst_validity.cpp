// Validity flags: the rule on synthetic levels at and around each threshold, then each flag raised by an emulator
// fault, a client made to lag or GPUs that stop answering, stored with the run, and none on a clean run.
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cstdlib>

#include "core/live/sessionstore.h"
#include "core/live/sweep.h"
#include "core/live/telemetrysampler.h"
#include "core/live/validity.h"
#include "tests/support/sessionconfigs.h"
#include "tests/support/simprocess.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;

namespace {

// A clean level of 4 streams for 10 s: 100 requests, 4 in flight on average, TTFT 100 ms, no client wait.
LevelMetrics cleanLevel()
{
    LevelMetrics m;
    m.completed = 100;
    m.duration = 10;
    m.effectiveConcurrency = 4;
    m.ttft.median = 0.1;
    m.clientWait.median = 0.001;
    return m;
}

} // namespace

class TestValidity : public QObject {
    Q_OBJECT

private slots:
    void cleanup()
    {
        qunsetenv("PARETOSCOPE_NVML_LIBRARY");
        qunsetenv("PARETOSCOPE_ROCM_SMI_LIBRARY");
        qunsetenv("PARETOSCOPE_FAKE_NVML_LOST_AFTER");
    }

    void rule_data()
    {
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("flags");
        QTest::newRow("clean") << ""
                               << "";
        QTest::newRow("client wait 4% of TTFT") << "wait=0.004"
                                                << "";
        QTest::newRow("client wait 6% of TTFT") << "wait=0.006"
                                                << "client-bound";
        QTest::newRow("client CPU 80%") << "cpu=0.8"
                                        << "";
        QTest::newRow("client CPU 95%") << "cpu=0.95"
                                        << "client-bound";
        QTest::newRow("Little 3.7 of 4") << "little=3.7"
                                         << "";
        QTest::newRow("Little 3.5 of 4") << "little=3.5"
                                         << "low-concurrency";
        QTest::newRow("Little low, open loop") << "little=2,open"
                                               << "";
        QTest::newRow("Little low, think time") << "little=2,think"
                                                << "";
        QTest::newRow("prefix hits 4%") << "prefix=0.04"
                                        << "";
        QTest::newRow("prefix hits 20%") << "prefix=0.2"
                                         << "prefix-cache";
        QTest::newRow("prefix hits 20%, agentic") << "prefix=0.2,agentic"
                                                  << "";
        QTest::newRow("prompt mismatch") << "mismatch=3"
                                         << "prompt-mismatch";
        QTest::newRow("prompt mismatch, text prompts") << "mismatch=3,text"
                                                       << "";
        QTest::newRow("1 failed of 101") << "failed=1"
                                         << "";
        QTest::newRow("2 failed of 102") << "failed=2"
                                         << "failed";
        QTest::newRow("telemetry 95%") << "coverage=0.95"
                                       << "";
        QTest::newRow("telemetry 80%") << "coverage=0.8"
                                       << "telemetry-gaps";
        QTest::newRow("several, in order") << "failed=5,cpu=1,coverage=0.5"
                                           << "client-bound,failed,telemetry-gaps";
    }
    void rule()
    {
        QFETCH(QString, change);
        QFETCH(QString, flags);
        LevelMetrics m = cleanLevel();
        ValidityInputs in;
        in.concurrency = 4;
        for (const QString& part : change.split(u',', Qt::SkipEmptyParts)) {
            const QString key = part.section(u'=', 0, 0);
            const double v = part.section(u'=', 1).toDouble();
            if (key == QStringLiteral("wait"))
                m.clientWait.median = v;
            else if (key == QStringLiteral("cpu"))
                in.clientCpuShare = v;
            else if (key == QStringLiteral("little"))
                m.effectiveConcurrency = v;
            else if (key == QStringLiteral("open"))
                in.closedLoop = false;
            else if (key == QStringLiteral("think"))
                in.thinkTime = true;
            else if (key == QStringLiteral("prefix"))
                in.prefixHitRate = v;
            else if (key == QStringLiteral("agentic"))
                in.randomWorkload = false;
            else if (key == QStringLiteral("mismatch"))
                m.promptMismatches = static_cast<long long>(v);
            else if (key == QStringLiteral("text"))
                in.tokenIdPrompts = false;
            else if (key == QStringLiteral("failed"))
                m.failed = static_cast<long long>(v);
            else if (key == QStringLiteral("coverage"))
                in.telemetryCoverage = v;
        }
        QCOMPARE(QString::fromStdString(joinFlags(validityFlags(m, in))), flags);
    }

    void emulator_data()
    {
        QTest::addColumn<QStringList>("simArgs");
        QTest::addColumn<double>("chunkLag"); // s of busy work per request and per chunk in the client
        QTest::addColumn<double>("pause"); // s each user idles between requests
        QTest::addColumn<QString>("flag"); // empty: none at all
        QTest::newRow("clean") << QStringList() << 0.0 << 0.0 << "";
        QTest::newRow("failed") << QStringList { QStringLiteral("--fail-500"), QStringLiteral("0.2") } << 0.0 << 0.0
                                << QStringLiteral("failed");
        QTest::newRow("prompt-mismatch") << QStringList { QStringLiteral("--prompt-offset"), QStringLiteral("3") }
                                         << 0.0 << 0.0 << QStringLiteral("prompt-mismatch");
        QTest::newRow("prefix-cache") << QStringList { QStringLiteral("--prefix-hits"), QStringLiteral("0.3") } << 0.0
                                      << 0.0 << QStringLiteral("prefix-cache");
        QTest::newRow("client-bound") << QStringList() << 0.01 << 0.0 << "client-bound";
        QTest::newRow("low-concurrency") << QStringList() << 0.0 << 0.1 << "low-concurrency";
    }
    void emulator()
    {
        QFETCH(QStringList, simArgs);
        QFETCH(double, chunkLag);
        QFETCH(double, pause);
        QFETCH(QString, flag);
        SimProcess sim(QStringList { QStringLiteral("--ttft-ms"), QStringLiteral("20"), QStringLiteral("--itl-ms"),
                           QStringLiteral("5") }
            + simArgs);
        QVERIFY2(sim.ok(), qPrintable(sim.output()));
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        QVERIFY(store);
        SessionConfig c = quickConfig(sim.url().toStdString());
        c.concurrencies = { 4 };
        c.promptsPerLevel = 24;
        c.warmups = 4;
        TelemetrySampler sampler(nullptr, {}, sim.url().toStdString() + "/metrics", "", 0.2);
        SessionHooks hooks;
        hooks.sampler = &sampler;
        hooks.adjustLevel = [&](LevelOptions& o) {
            o.testLag = chunkLag;
            o.testPause = pause;
        };
        auto out = runSession(*store, c, "", {}, hooks);
        QVERIFY2(out.ok(), out ? "" : out.error().c_str());
        QCOMPARE(out->levels.size(), std::size_t(1));
        const LevelOutcome& lo = out->levels.front();
        const QString got = QString::fromStdString(lo.record.validity);
        if (flag.isEmpty())
            QVERIFY2(got.isEmpty(), qPrintable(got + QStringLiteral(" ") + QString::fromStdString(lo.json)));
        else
            QVERIFY2(got.split(u',').contains(flag),
                qPrintable(got + QStringLiteral(" ") + QString::fromStdString(lo.json)));
        QVERIFY(lo.json.find("\"validity\"") != std::string::npos);
        // stored with the run, and read back
        auto runs = store->runs({ lo.runId });
        QCOMPARE(runs.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(runs.front().record.validity), got);
    }

    // The session's two GPUs (the stand-in NVML library, bound and sampled as the real one) fall off the bus part-way
    // through the level: from the Nth reading on, every one fails with NVML_ERROR_GPU_IS_LOST. The stored level
    // carries telemetry-gaps with the coverage that N samples at the sampling period give over the level's duration;
    // the same GPUs without the fault cover the level and leave no such flag.
    void telemetryGapsFromLostGpus_data()
    {
        QTest::addColumn<int>("lostAfter"); // readings each GPU answers; -1: every one
        QTest::addColumn<int>("warmups");
        QTest::newRow("clean") << -1 << 0;
        QTest::newRow("GPUs lost after 4 readings") << 4 << 0;
        // warm-ups (2 x c, the default) spend energy no measured token carries: sampling starts after them
        QTest::newRow("clean, after 8 warm-ups") << -1 << 8;
    }
    void telemetryGapsFromLostGpus()
    {
        QFETCH(int, lostAfter);
        QFETCH(int, warmups);
        qputenv("PARETOSCOPE_NVML_LIBRARY", fakeNvmlLibrary().toLocal8Bit());
        qputenv("PARETOSCOPE_ROCM_SMI_LIBRARY", "/nonexistent");
        if (lostAfter >= 0)
            qputenv("PARETOSCOPE_FAKE_NVML_LOST_AFTER", QByteArray::number(lostAfter));
        DeviceDiscovery found = discoverDevices();
        QCOMPARE(int(found.devices.size()), 2);
        // a level of at least 2.2 s whatever the machine: 6 waves of 4 requests, each 20 + 7 x 50 ms in the emulator
        SimProcess sim(
            { QStringLiteral("--ttft-ms"), QStringLiteral("20"), QStringLiteral("--itl-ms"), QStringLiteral("50") });
        QVERIFY2(sim.ok(), qPrintable(sim.output()));
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        QVERIFY(store);
        SessionConfig c = quickConfig(sim.url().toStdString());
        c.concurrencies = { 4 };
        c.promptsPerLevel = 24;
        c.warmups = warmups; // the sampler's window is the measured requests' (and their connections')
        std::string note;
        auto sampler = makeSessionSampler(found, c, "", "", note); // as the CLI and the live tab make it
        QVERIFY2(QString::fromStdString(note).contains(QStringLiteral("2 x NVIDIA B300")), note.c_str());
        SessionHooks hooks;
        hooks.sampler = sampler.get();
        auto out = runSession(*store, c, "", {}, hooks);
        QVERIFY2(out.ok(), out ? "" : out.error().c_str());
        QCOMPARE(out->status, std::string("finished"));
        QCOMPARE(out->levels.size(), std::size_t(1));
        const LevelOutcome& lo = out->levels.front();

        // as stored: the run's flags and the level's metrics, read back
        auto runs = store->runs({ lo.runId });
        QCOMPARE(runs.size(), std::size_t(1));
        const QStringList flags = QString::fromStdString(runs.front().record.validity).split(u',', Qt::SkipEmptyParts);
        auto levels = sessionLevels(*store, out->sessionId);
        QCOMPARE(levels.size(), std::size_t(1));
        const QJsonObject stored
            = QJsonDocument::fromJson(QByteArray::fromStdString(levels.front().metricsJson)).object();
        const double coverage = stored.value(QStringLiteral("telemetry_coverage")).toDouble(-1);
        const double samples = stored.value(QStringLiteral("telemetry_samples")).toDouble(-1);
        const double duration = stored.value(QStringLiteral("duration_s")).toDouble();
        const QString context
            = flags.join(u',') + QStringLiteral(" ") + QString::fromStdString(levels.front().metricsJson);
        QVERIFY2(duration >= 2.2, qPrintable(context));
        const double interval = 0.2; // makeSessionSampler's sampling period
        // both GPUs together: the stand-in's 700 + 750 W, read from the energy counters over the span they answered
        QVERIFY2(std::abs(stored.value(QStringLiteral("avg_power_w")).toDouble() - 1450) <= 1450 * 0.01,
            qPrintable(context));
        // the level's energy is that of its measured requests: 1450 W over their duration, within 10% (the sampler's
        // window adds the connections' set-up and the last reading; 8 warm-ups would add a third here)
        const double energy = stored.value(QStringLiteral("energy_j")).toDouble(-1);
        QVERIFY2(std::abs(energy - 1450 * duration) <= 0.1 * 1450 * duration,
            qPrintable(QStringLiteral("energy %1 J, expected %2 J; ").arg(energy).arg(1450 * duration) + context));
        if (lostAfter < 0) {
            QVERIFY2(!flags.contains(QStringLiteral("telemetry-gaps")), qPrintable(context));
            QVERIFY2(coverage >= kMinTelemetryCoverage && coverage <= 1, qPrintable(context));
            // one sample per period over the level, and the first one at its start
            QVERIFY2(samples >= kMinTelemetryCoverage * duration / interval + 1, qPrintable(context));
            return;
        }
        QVERIFY2(flags.contains(QStringLiteral("telemetry-gaps")), qPrintable(context));
        QCOMPARE(samples, double(lostAfter));
        QVERIFY2(coverage >= 0 && coverage < kMinTelemetryCoverage, qPrintable(context));
        // N samples cover N - 1 periods of the level's duration; the sampler's window adds the connections' set-up
        // and the last reading to the duration (first request sent to last one finished): within 10%
        const double expected = (lostAfter - 1) * interval / duration;
        QVERIFY2(std::abs(coverage - expected) <= 0.1 * expected,
            qPrintable(QStringLiteral("coverage %1, expected %2; ").arg(coverage).arg(expected) + context));
        // and in words where the level is shown
        QVERIFY(QString::fromStdString(flagDescription("telemetry-gaps")).contains(QStringLiteral("less than 90%")));
    }
};

PARETOSCOPE_GUILESS_SUITE(TestValidity)
#include "tests/support/testpaths.h"
#include "tst_validity.moc"
