// Devices and telemetry: NVML and ROCm SMI are bound with dlopen, so the tests load stand-in libraries with the same
// C interface (tests/support/fake*.cpp) whose power and energy are known; and the Prometheus text of vLLM/SGLang.
#include <QElapsedTimer>
#include <QtTest>

#include <atomic>
#include <memory>

#include <cstdlib>
#include <thread>

#include "core/live/devices.h"
#include "core/live/prometheus.h"
#include "core/live/telemetrysampler.h"
#include "tests/support/simprocess.h"
#include "tests/support/suite.h"

using namespace paretoscope;

class TestTelemetry : public QObject {
    Q_OBJECT

private slots:
    // qputenv and qunsetenv, never setenv: Qt Test's watchdog thread reads the environment at each test function,
    // under Qt's environment lock, and a setenv beside it crashed getenv there (AddressSanitizer, once)
    void cleanup()
    {
        qunsetenv("PARETOSCOPE_NVML_LIBRARY");
        qunsetenv("PARETOSCOPE_ROCM_SMI_LIBRARY");
    }

    void worksWhereNoLibraryExists()
    {
        qputenv("PARETOSCOPE_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1");
        qputenv("PARETOSCOPE_ROCM_SMI_LIBRARY", "/nonexistent/librocm_smi64.so.7");
        DeviceDiscovery d = discoverDevices();
        QVERIFY(d.devices.empty());
        QCOMPARE(int(d.notes.size()), 2);
        QVERIFY(QString::fromStdString(d.notes[0]).contains(QStringLiteral("NVML not found")));
    }

    void nvmlDevicesAndTheirTelemetry()
    {
        qputenv("PARETOSCOPE_NVML_LIBRARY", fakeNvmlLibrary().toLocal8Bit());
        qputenv("PARETOSCOPE_ROCM_SMI_LIBRARY", "/nonexistent");
        DeviceDiscovery d = discoverDevices();
        QCOMPARE(int(d.devices.size()), 2);
        const GpuDevice& g = d.devices[1];
        QCOMPARE(QString::fromStdString(g.name), QStringLiteral("NVIDIA B300 SXM6 AC"));
        QCOMPARE(QString::fromStdString(g.hardware), QStringLiteral("b300"));
        QCOMPARE(QString::fromStdString(g.architecture), QStringLiteral("sm_103"));
        QCOMPARE(g.memoryBytes, 288ull << 30);
        GpuSample s = d.backends[0]->sample(1);
        QCOMPARE(*s.powerW, 750.0); // mW -> W
        QCOMPARE(*s.smClockMhz, 1965.0);
        QCOMPARE(*s.utilization, 97.0);

        // a level of about 0.6 s on both GPUs: 1,450 W together, energy from the counters
        SessionConfig c;
        c.hardware = "b300";
        std::string note;
        auto sampler = makeSessionSampler(d, c, "", "", note);
        QVERIFY2(QString::fromStdString(note).contains(QStringLiteral("2 x NVIDIA B300")), note.c_str());
        sampler->begin();
        std::this_thread::sleep_for(std::chrono::milliseconds(600));
        LevelTelemetry t = sampler->end();
        QVERIFY(t.samples >= 3);
        QVERIFY2(std::abs(*t.avgPowerW - 1450) < 1450 * 0.01, qPrintable(QString::number(*t.avgPowerW)));
        QVERIFY(*t.energyJ > 1450 * 0.55 && *t.energyJ < 1450 * 0.75);
        QCOMPARE(*t.avgSmClockMhz, 1965.0);
        QCOMPARE(*t.maxMemoryUsedGiB, 500.0); // 250 GiB on each
        // only the devices asked for
        auto one = makeSessionSampler(d, c, "1", "", note);
        one->begin();
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        t = one->end();
        QVERIFY(std::abs(*t.avgPowerW - 750) < 750 * 0.01);
        // a session on other hardware samples none of them
        c.hardware = "mi325x";
        auto none = makeSessionSampler(d, c, "", "", note);
        QVERIFY(QString::fromStdString(note).startsWith(QStringLiteral("no mi325x found")));
    }

    void rocmSmiDevicesAndTheirTelemetry()
    {
        qputenv("PARETOSCOPE_NVML_LIBRARY", "/nonexistent");
        qputenv("PARETOSCOPE_ROCM_SMI_LIBRARY", fakeRocmSmiLibrary().toLocal8Bit());
        DeviceDiscovery d = discoverDevices();
        QCOMPARE(int(d.devices.size()), 1);
        QCOMPARE(QString::fromStdString(d.devices[0].hardware), QStringLiteral("mi325x"));
        QCOMPARE(QString::fromStdString(d.devices[0].architecture), QStringLiteral("gfx942"));
        QCOMPARE(d.devices[0].memoryBytes, 256ull * 1000 * 1000 * 1000);
        SessionConfig c;
        c.hardware = "mi325x";
        std::string note;
        auto sampler = makeSessionSampler(d, c, "", "", note);
        sampler->begin();
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        LevelTelemetry t = sampler->end();
        // counter x 15.3 uJ: 750 W
        QVERIFY2(std::abs(*t.avgPowerW - 750) < 750 * 0.01, qPrintable(QString::number(*t.avgPowerW)));
        QCOMPARE(*t.avgUtilization, 88.0);
    }

    void hardwareKeys_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("key");
        QTest::newRow("b300") << "NVIDIA B300 SXM6 AC"
                              << "b300";
        QTest::newRow("gb300") << "NVIDIA GB300"
                               << "gb300";
        QTest::newRow("h200") << "NVIDIA H200"
                              << "h200";
        QTest::newRow("mi325x") << "AMD Instinct MI325X"
                                << "mi325x";
        QTest::newRow("unknown") << "NVIDIA A10"
                                 << "";
    }
    void hardwareKeys()
    {
        QFETCH(QString, name);
        QFETCH(QString, key);
        QCOMPARE(QString::fromStdString(hardwareKeyFor(name.toStdString(), "")), key);
    }

    void prometheusTextAsEnginesWriteIt()
    {
        std::string text = "# HELP vllm:num_requests_running Number of requests in model execution batches.\n"
                           "# TYPE vllm:num_requests_running gauge\n"
                           "vllm:num_requests_running{engine=\"0\",model_name=\"m\"} 12.0\n"
                           "vllm:num_requests_running{engine=\"1\",model_name=\"m\"} 3.0\n"
                           "vllm:kv_cache_usage_perc{model_name=\"a}b\"} 0.25\r\n"
                           "vllm:prompt_tokens_total{model_name=\"m\"} 1.5e6 1700000000000\n"
                           "vllm:generation_tokens_total 4096\n"
                           "broken_line_without_value\n"
                           "vllm:prefix_cache_hits_total{x=\"y\"} NaN\n"
                           "sglang:num_queue_reqs 7\n";
        auto s = parsePrometheusText(text);
        QCOMPARE(s["vllm:num_requests_running"], 15.0); // summed over engines
        QCOMPARE(s["vllm:kv_cache_usage_perc"], 0.25); // a brace inside a quoted label
        QCOMPARE(s["vllm:prompt_tokens_total"], 1.5e6); // the timestamp is not the value
        QVERIFY(!s.count("broken_line_without_value"));
        QVERIFY(!s.count("vllm:prefix_cache_hits_total"));
        auto e = engineState(s);
        QCOMPARE(e["running"], 15.0);
        QCOMPARE(e["waiting"], 7.0); // SGLang's name
        QCOMPARE(e["generation_tokens"], 4096.0);
    }

    // The coverage rule: two answered readings cover the time between them less each period whose reading is
    // missing; a late wake-up loses nothing.
    void coverageRule_data()
    {
        QTest::addColumn<double>("gap"); // in periods
        QTest::addColumn<double>("covered"); // in periods
        QTest::newRow("on time") << 1.0 << 1.0;
        QTest::newRow("late") << 1.4 << 1.4;
        QTest::newRow("the next one early") << 0.6 << 0.6;
        QTest::newRow("one reading missing") << 2.1 << 1.1;
        QTest::newRow("a read that took 6 periods") << 7.0 << 1.0;
    }
    void coverageRule()
    {
        QFETCH(double, gap);
        QFETCH(double, covered);
        QCOMPARE(coveredBetween(gap * 0.2, 0.2), covered * 0.2);
    }

    // A sampler on a device whose Nth read is slow or hangs: a slow read leaves the periods it held up uncovered;
    // a read that hangs holds nothing up (end() gives up on it and keeps what was read), and the next level reads
    // nothing from the device (coverage 0) while it still hangs; the sampler goes while its thread is still inside
    // the read, which keeps the device's backend.
    void slowAndHangingReads_data()
    {
        QTest::addColumn<int>("slowRead"); // which read of the device is slow; -1: none
        QTest::addColumn<int>("slowMs");
        QTest::newRow("every read prompt") << -1 << 0;
        QTest::newRow("one read takes 1.2 s") << 3 << 1200;
        QTest::newRow("one read hangs") << 3 << 20000;
    }
    void slowAndHangingReads()
    {
        QFETCH(int, slowRead);
        QFETCH(int, slowMs);
        struct ScriptedGpu : GpuBackend {
            int slow = -1, slowMs = 0;
            std::atomic<int> reads = 0;
            std::vector<GpuDevice> devices() override { return {}; }
            GpuSample sample(int) override
            {
                if (reads++ == slow)
                    std::this_thread::sleep_for(std::chrono::milliseconds(slowMs));
                return { 1000.0, std::nullopt, std::nullopt, std::nullopt, std::nullopt };
            }
        };
        auto gpu = std::make_shared<ScriptedGpu>();
        gpu->slow = slowRead;
        gpu->slowMs = slowMs;
        std::weak_ptr<ScriptedGpu> kept = gpu;
        auto sampler = std::make_unique<TelemetrySampler>(gpu, std::vector<int> { 0 }, "", "", 0.2);
        gpu.reset();
        QElapsedTimer level;
        level.start();
        sampler->begin();
        std::this_thread::sleep_for(std::chrono::milliseconds(2500));
        QElapsedTimer ending;
        ending.start();
        LevelTelemetry t = sampler->end();
        const double seconds = double(level.nsecsElapsed()) / 1e9;
        const QString said = QStringLiteral("coverage %1 of %2 readings over %3 s")
                                 .arg(t.coverage.value_or(-1))
                                 .arg(t.samples)
                                 .arg(seconds);
        QVERIFY2(t.coverage && *t.coverage >= 0 && *t.coverage <= 1, qPrintable(said));
        QCOMPARE(*t.avgPowerW, 1000.0);
        if (slowRead < 0) {
            QVERIFY2(*t.coverage >= 0.85, qPrintable(said));
            return;
        }
        // the slow read held up at least its 1.2 s, less the period it stood for
        QVERIFY2(*t.coverage <= 1 - 1.0 / seconds, qPrintable(said));
        if (slowMs < 10000) {
            QVERIFY2(*t.coverage >= 0.2, qPrintable(said));
            return;
        }
        QVERIFY2(ending.elapsed() < 1000 * (sampler->giveUpAfterSeconds() + 2), qPrintable(said));
        sampler->begin(); // the device still hangs: this level reads nothing from it
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        LevelTelemetry next = sampler->end();
        QCOMPARE(next.coverage.value_or(-1), 0.0);
        QCOMPARE(next.samples, 0);
        QVERIFY(!next.avgPowerW);
        sampler.reset();
        QVERIFY(!kept.expired()); // the hung read's thread still holds the backend
    }

    void engineMetricsAreScrapedPerLevel()
    {
        testsupport::SimProcess sim(
            { QStringLiteral("--ttft-ms"), QStringLiteral("1"), QStringLiteral("--itl-ms"), QStringLiteral("1") });
        QVERIFY(sim.ok());
        TelemetrySampler sampler(nullptr, {}, sim.url().toStdString() + "/metrics", "");
        sampler.begin();
        LevelTelemetry t = sampler.end();
        QVERIFY(!t.avgPowerW);
        QVERIFY2(QString::fromStdString(t.engineMetricsJson).contains(QStringLiteral("\"scrapes\":2")),
            t.engineMetricsJson.c_str());
    }
};

PARETOSCOPE_GUILESS_SUITE(TestTelemetry)
#include "tests/support/testpaths.h"
#include "tst_telemetry.moc"
