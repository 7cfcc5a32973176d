// The speed-of-light bound, checked against the model's arithmetic worked by hand (docs/probe.md).
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cmath>
#include <set>

#include "core/analysis/chartdata.h"
#include "core/analysis/deviceprofile.h"
#include "core/analysis/speedoflight.h"
#include "core/import/importer.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;

class TestSpeedOfLight : public QObject {
    Q_OBJECT

private slots:
    void shippedTablesResolve()
    {
        QVERIFY(findModelArch("DeepSeek-R1-0528"));
        QCOMPARE(QString::fromStdString(findModelArch("deepseek-ai/DeepSeek-R1-0528-FP4")->name),
            QStringLiteral("DeepSeek-R1-0528"));
        QCOMPARE(QString::fromStdString(findModelArch("dsr1")->name), QStringLiteral("DeepSeek-R1-0528"));
        QVERIFY(!findModelArch("DeepSeek-V4.1-Flash")); // no published architecture: no bound drawn, not a guess
        QVERIFY(findDeviceSpec("B300"));
        QCOMPARE(findDeviceSpec("mi325x")->matrixFlops.at("fp8"), 2.6e15);
        QVERIFY(!findDeviceSpec("tpu"));
    }

    void datasheetValues_data()
    {
        // the vendors' published figures; the matrix rates are the dense ones (half the sparse figure printed)
        QTest::addColumn<QString>("hardware");
        QTest::addColumn<double>("tbPerS");
        QTest::addColumn<double>("gb");
        QTest::addColumn<double>("fp4"); // PFLOP/s dense, 0: no FP4 matrix unit
        QTest::addColumn<double>("fp8");
        QTest::addColumn<double>("bf16");
        QTest::newRow("h100 sxm") << "h100" << 3.35 << 80.0 << 0.0 << 3.958 / 2 << 1.979 / 2;
        QTest::newRow("h200") << "h200" << 4.8 << 141.0 << 0.0 << 3.958 / 2 << 1.979 / 2;
        QTest::newRow("b200 hgx") << "b200" << 8.0 << 180.0 << 18.0 / 2 << 9.0 / 2 << 4.5 / 2;
        QTest::newRow("gb200 nvl72") << "gb200" << 576.0 / 72 << 186.0 << 1440.0 / 72 / 2 << 720.0 / 72 / 2
                                     << 360.0 / 72 / 2;
        QTest::newRow("gb300 nvl72") << "gb300" << 576.0 / 72 << 279.0 << 1080.0 / 72 << 720.0 / 72 / 2
                                     << 360.0 / 72 / 2;
        QTest::newRow("mi300x") << "mi300x" << 5.3 << 192.0 << 0.0 << 5.2298 / 2 << 2.6149 / 2;
        QTest::newRow("mi355x") << "mi355x" << 8.0 << 288.0 << 10.1 << 5.0 << 2.5; // AMD prints the dense figures
    }
    void datasheetValues()
    {
        QFETCH(QString, hardware);
        QFETCH(double, tbPerS);
        QFETCH(double, gb);
        QFETCH(double, fp4);
        QFETCH(double, fp8);
        QFETCH(double, bf16);
        auto spec = findDeviceSpec(hardware.toStdString());
        QVERIFY(spec);
        auto same = [](double got, double want) { return std::abs(got - want) <= 5e-3 * want; }; // datasheets round
        QVERIFY(same(spec->hbmBytesPerS, tbPerS * 1e12));
        QVERIFY(same(spec->memoryBytes, gb * 1e9));
        QCOMPARE(spec->matrixFlops.count("fp4"), std::size_t(fp4 > 0 ? 1 : 0));
        if (fp4 > 0)
            QVERIFY2(same(spec->matrixFlops.at("fp4"), fp4 * 1e15),
                qPrintable(QString::number(spec->matrixFlops.at("fp4"))));
        QVERIFY(same(spec->matrixFlops.at("fp8"), fp8 * 1e15));
        QVERIFY(same(spec->matrixFlops.at("bf16"), bf16 * 1e15));
    }

    void everyDeviceNamesItsSource()
    {
        const auto& all = shippedDeviceSpecs();
        QCOMPARE(all.size(), std::size_t(9));
        for (const DeviceSpec& d : all) {
            QVERIFY2(d.reference.size() > 40, d.hardware.c_str());
            QVERIFY2(QString::fromStdString(d.reference).contains(QStringLiteral("dense")), d.hardware.c_str());
        }
        // the loader takes the per-device source and refuses one that is not text
        auto parsed = parseDeviceSpecs(
            R"({"devices":[{"hardware":"x","hbm_bytes_per_s":1,"memory_bytes":1,"matrix_flops":{},"source":"y"}]})",
            "d.json");
        QVERIFY(parsed);
        QCOMPARE(QString::fromStdString(parsed->front().reference), QStringLiteral("y"));
        QVERIFY(!parseDeviceSpecs(
            R"({"devices":[{"hardware":"x","hbm_bytes_per_s":1,"memory_bytes":1,"matrix_flops":{},"source":1}]})",
            "d.json"));
    }

    void everyFixtureHardwareHasABound()
    {
        // every hardware and precision measured in the InferenceX API fixture (read here with Qt's JSON, not the
        // importer) gets a speed-of-light line in every scope it was measured in, above every point measured
        const QJsonArray rows
            = QJsonDocument::fromJson(readAll(fixture(QStringLiteral("inferencex-app-api/benchmarks.json")))).array();
        QVERIFY(!rows.isEmpty());
        std::set<std::pair<std::string, std::string>> measured;
        for (const auto& v : rows)
            measured.insert({ v.toObject()[QStringLiteral("hardware")].toString().toStdString(),
                v.toObject()[QStringLiteral("precision")].toString().toStdString() });
        QCOMPARE(measured.size(), std::size_t(14)); // 9 hardware, fp4 and fp8
        for (const auto& [hardware, precision] : measured) {
            auto spec = findDeviceSpec(hardware);
            QVERIFY2(spec, hardware.c_str());
            QVERIFY2(spec->matrixFlops.count(precision), (hardware + " " + precision).c_str());
        }

        QTemporaryDir dir;
        auto store = openTempStore(dir);
        auto out = importPath(*store, fixture(QStringLiteral("inferencex-app-api/benchmarks.json")).toStdString(), {});
        QVERIFY(out.size() == 1 && out[0].result.ok());
        std::set<std::pair<std::string, std::string>> drawn;
        for (const ScopeSummary& sc : store->scopes()) {
            Scope scope;
            scope.model = sc.model;
            scope.isl = sc.isl;
            scope.osl = sc.osl;
            const ScopeData data = loadScopeData(*store, scope, TputMetric::Total);
            QVERIFY(!data.frontiers.empty());
            std::string missing;
            for (const std::string& m : data.speedOfLightMissing)
                missing += m + "; ";
            QVERIFY2(missing.empty(), missing.c_str());
            for (const GroupFrontier& g : data.frontiers) {
                const std::string what = g.key.hardware + " " + g.key.precision + " at " + std::to_string(sc.isl) + "/"
                    + std::to_string(sc.osl);
                const SolLine* line = nullptr;
                for (const SolLine& l : data.speedOfLight)
                    if (l.hardware == g.key.hardware && l.precision == g.key.precision)
                        line = &l;
                QVERIFY2(line, what.c_str());
                drawn.insert({ g.key.hardware, g.key.precision });
                // a bound: every measured point lies under it (a datasheet figure too low would show here)
                for (const Point& p : g.points) {
                    auto bound = speedOfLightAt(line->curve, p.x);
                    QVERIFY2(bound && p.y <= *bound, (what + " " + g.key.engine).c_str());
                }
            }
        }
        QVERIFY(drawn == measured);
    }

    void runnerSuffixesFindTheirHardware()
    {
        // InferenceX names some runs by their runner ("gb300-nv", "b200-dgxc"); the emulator's are no hardware
        auto nv = findDeviceSpec("GB300-nv");
        QVERIFY(nv);
        QCOMPARE(nv->hardware, std::string("gb300-nv"));
        QCOMPARE(nv->matrixFlops.at("fp4"), findDeviceSpec("gb300")->matrixFlops.at("fp4"));
        QVERIFY(findDeviceSpec("b200-dgxc"));
        QVERIFY(!findDeviceSpec("b300-sim"));
        QVERIFY(!findDeviceSpec("sim-fixed"));
        QVERIFY(!findDeviceSpec("-b200"));
    }

    void denseModelByHand()
    {
        // Llama 3.1 70B, FP8 weights (1 B/param), 8 x H200 (4.8 TB/s, 141 GB, 1.979 PFLOP/s FP8), 1k/1k
        SolRequest r;
        r.model = *findModelArch("Llama-3.1-70B");
        r.device = *findDeviceSpec("h200");
        r.precision = "fp8";
        r.gpus = 8;
        r.isl = 1024;
        r.osl = 1024;
        auto c = speedOfLight(r);
        QVERIFY2(c, c ? "" : c.error().c_str());
        // B = 1: bytes (70.6e9 + 1,536 x 163,840) / 8 / 4.8e12 = 1.84513 ms, memory bound
        const SolPoint& one = c->points.back();
        QCOMPARE(one.batch, 1);
        double t1 = (70.6e9 + 1536.0 * 163840) / 8 / 4.8e12;
        QVERIFY(std::abs(one.interactivity - 1 / t1) < 1e-9 * (1 / t1));
        QVERIFY(std::abs(one.tputPerGpu - 2 / t1 / 8) < 1e-9 * (2 / t1 / 8)); // total tokens: x (1024 + 1024) / 1024
        QVERIFY(!one.computeBound);
        // FLOPs per step 2 x 70.6e9 x B x (1 + 1024 / 1024) with the prefill's share: compute bound past
        // (70.6e9 / 4.8e12) / (282.4e9 / 1.979e15 - 1,536 x 163,840 / 4.8e12) = 162.9 sequences (memory would hold
        // 2,815); from there output tokens/s per GPU are 1.979e15 / 282.4e9, total tokens twice that
        const SolPoint& most = c->points.front();
        QVERIFY(most.computeBound);
        QVERIFY(most.batch >= 163 && most.batch < 200);
        QVERIFY(!c->points[1].computeBound && c->points[1].batch < 163);
        QVERIFY(std::abs(most.tputPerGpu - 2 * 1.979e15 / 282.4e9) < 1e-9 * most.tputPerGpu);
        // a frontier: interactivity up, throughput down
        for (std::size_t i = 1; i < c->points.size(); ++i) {
            QVERIFY(c->points[i].interactivity > c->points[i - 1].interactivity);
            QVERIFY(c->points[i].tputPerGpu < c->points[i - 1].tputPerGpu);
        }
    }

    void expertsTouchedGrowWithTheBatch()
    {
        // DeepSeek R1, NVFP4 (0.5625 B/param), one B300: at B = 1 the weights read are the dense 17e9 plus 8/256 of
        // the 654e9 of experts
        SolRequest r;
        r.model = *findModelArch("DeepSeek-R1-0528");
        r.device = *findDeviceSpec("b300");
        r.gpus = 8;
        r.isl = 1024;
        r.osl = 1024;
        r.metric = TputMetric::Output;
        auto c = speedOfLight(r);
        QVERIFY(c);
        QCOMPARE(c->weightBytesPerParam, 0.5625);
        const SolPoint& one = c->points.back();
        double bytes = (17e9 + 654e9 * 8 / 256) * 0.5625 + 1536.0 * 35136;
        QVERIFY(std::abs(one.interactivity - 8 * 8e12 / bytes) < 1e-9 * one.interactivity);
        QVERIFY(std::abs(one.tputPerGpu - one.interactivity / 8) < 1e-9 * one.tputPerGpu); // output tokens
        // MXFP4 on MI325X: an E8M0 scale per 32 values
        r.device = *findDeviceSpec("mi325x");
        QCOMPARE(speedOfLight(r)->weightBytesPerParam, 0.53125);
    }

    void envelopeAndReadingBetweenKnots()
    {
        SolRequest r;
        r.model = *findModelArch("DeepSeek-R1-0528");
        r.device = *findDeviceSpec("b300");
        r.isl = 8192;
        r.osl = 1024;
        auto all = speedOfLight(r); // every deployment size
        QVERIFY(all);
        r.gpus = 8;
        auto eight = speedOfLight(r);
        QVERIFY(eight);
        // the envelope is at least any one size, wherever both are defined
        for (const SolPoint& p : eight->points) {
            auto env = speedOfLightAt(*all, p.interactivity);
            QVERIFY(env && *env >= p.tputPerGpu * (1 - 1e-9));
        }
        // log-log between two knots, by hand
        const SolPoint &a = eight->points[3], &b = eight->points[4];
        double x = std::sqrt(a.interactivity * b.interactivity);
        QVERIFY(std::abs(*speedOfLightAt(*eight, x) - std::sqrt(a.tputPerGpu * b.tputPerGpu)) < 1e-6 * a.tputPerGpu);
        QVERIFY(!speedOfLightAt(*eight, eight->points.back().interactivity * 1.01)); // faster than one sequence
        // memory-bound all the way here: the batch stops where 8 x 275e9 x 0.9 - 671e9 x 0.5625 bytes of KV room hold
        // sequences of 9,216 tokens at 35,136 B each: 4,949
        QCOMPARE(eight->points.front().batch, 4949);
        QVERIFY(!eight->points.front().computeBound);
        QCOMPARE(*speedOfLightAt(*eight, 1e-3), eight->points.front().tputPerGpu); // memory caps the batch
    }

    void probeMeasurementsReplaceTheDatasheet()
    {
        QTemporaryDir dir;
        qputenv("XDG_DATA_HOME", dir.path().toUtf8());
        const std::string probe = R"({"device":{"name":"NVIDIA B300 SXM6 AC"},"bandwidth":{"copy_bytes_per_s":6.4e12},
            "gemm":{"fp4":{"pass":true,"flops_per_s":1.1e16},"fp8":{"pass":false,"flops_per_s":9e15}}})";
        auto profile = profileFromProbeJson(probe, "2026-11-29T19:00:00Z");
        QVERIFY2(profile, profile ? "" : profile.error().c_str());
        QCOMPARE(QString::fromStdString(profile->hardware), QStringLiteral("b300"));
        QVERIFY(!profile->gemmFlops.count("fp8")); // a rate whose check failed is not kept
        QVERIFY(saveDeviceProfile(*profile));
        auto spec = findDeviceSpec("b300");
        QCOMPARE(spec->hbmBytesPerS, 6.4e12);
        QCOMPARE(spec->matrixFlops.at("fp4"), 1.1e16);
        QCOMPARE(QString::fromStdString(spec->source), QStringLiteral("probe 2026-11-29"));
        QVERIFY(QString::fromStdString(profileSummary(*profile))
                    .contains(QStringLiteral("6.40 TB/s copy, fp4 11.00 PFLOP/s")));
        // the bound follows: memory-bound at one sequence, interactivity scales with the bandwidth
        SolRequest r;
        r.model = *findModelArch("DeepSeek-R1-0528");
        r.device = *spec;
        r.gpus = 8;
        double measured = speedOfLight(r)->points.back().interactivity;
        r.device = applyProfile(*spec, *profile);
        qunsetenv("XDG_DATA_HOME");
        auto sheet = findDeviceSpec("b300");
        QCOMPARE(sheet->hbmBytesPerS, 8.0e12); // without the profile: the datasheet
        r.device = *sheet;
        QVERIFY(std::abs(speedOfLight(r)->points.back().interactivity / measured - 8.0 / 6.4) < 1e-9);
        QVERIFY(!profileFromProbeJson("{}", "x"));
        // a section that failed on the device reports {"error": ...}; the others are kept
        auto partial = profileFromProbeJson(R"({"device":{"name":"NVIDIA H200"},"bandwidth":{"copy_bytes_per_s":4e12},
            "gemm":{"bf16":{"pass":true,"flops_per_s":7e14},"fp8":{"error":"cublasLtMatmulAlgoGetHeuristic: no algorithm"}}})",
            "x");
        QVERIFY2(partial, partial ? "" : partial.error().c_str());
        QCOMPARE(partial->gemmFlops.size(), std::size_t(1));
        QCOMPARE(partial->gemmFlops.at("bf16"), 7e14);
        QVERIFY(!profileFromProbeJson(
            R"({"device":{"name":"NVIDIA H200"},"bandwidth":{"error":"cudaMalloc: out of memory"}})", "x"));
    }

    void refusalsSayWhy()
    {
        SolRequest r;
        r.model = *findModelArch("DeepSeek-R1-0528");
        r.device = *findDeviceSpec("h200");
        r.precision = "fp4"; // H200 has no FP4 matrix rate
        QVERIFY(QString::fromStdString(speedOfLight(r).error()).contains(QStringLiteral("no matrix rate for fp4")));
        r.precision = "fp8";
        r.gpus = 1; // 671 GB of weights in 141 GB
        QVERIFY(QString::fromStdString(speedOfLight(r).error()).contains(QStringLiteral("does not fit")));
        QVERIFY(!parseModelArchitectures(R"({"models":[{"name":"x","total_params":-1}]})", "m.json"));
        QVERIFY(QString::fromStdString(parseDeviceSpecs(R"({"devices":[{"hardware":"x"}]})", "d.json").error())
                    .contains(QStringLiteral("d.json: device 0, field hbm_bytes_per_s")));
    }
};

PARETOSCOPE_GUILESS_SUITE(TestSpeedOfLight)
#include "tst_speedoflight.moc"
