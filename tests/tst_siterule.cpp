// The InferenceX site's rules of today (docs/architecture.md section 10): "latest" is one run per curve (its database
// migrations 011 and 014), the per-configuration rule (migration 007) stays as an option, a curve a narrower run
// replaced is said, and GPUs are counted per pool. Expectations are worked by hand from the crafted rows.
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include <map>
#include <set>
#include <tuple>

#include <nlohmann/json.hpp>

#include "core/analysis/frontiercache.h"
#include "core/analysis/ladder.h"
#include "core/import/importer.h"
#include "core/model/runselection.h"
#include "tests/support/fixturejson.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;
using nlohmann::json;

class TestSiteRule : public QObject {
    Q_OBJECT
private slots:
    // A curve replaced across parallelisms (the site's rule since its migrations 011 and 014): a validation sweep of
    // TP4 at three concurrencies replaces January's published run of TP8 and TP4 (9 points) whole, and the ladder says
    // so; the per-configuration rule keeps January's TP8 line beside the new TP4 points. A disaggregated run is a curve
    // of its own. An agentic trace's curve spans spec decoding: its newest run (with MTP) replaces the one without.
    void curveIsReplacedWholeAndNarrowingIsSaid()
    {
        struct P {
            const char* run;
            const char* date;
            int tp;
            int concurrency;
            bool disaggregated = false;
            const char* spec = "none";
            int isl = 1024;
        };
        const std::vector<P> points {
            { "gh:100/1", "2026-01-10", 8, 4 }, { "gh:100/1", "2026-01-10", 8, 8 }, { "gh:100/1", "2026-01-10", 8, 16 },
            { "gh:100/1", "2026-01-10", 8, 32 }, { "gh:100/1", "2026-01-10", 4, 4 }, { "gh:100/1", "2026-01-10", 4, 8 },
            { "gh:100/1", "2026-01-10", 4, 16 }, { "gh:100/1", "2026-01-10", 4, 32 },
            { "gh:100/1", "2026-01-10", 4, 64 }, // 9 points
            { "gh:200/1", "2026-02-01", 4, 8 }, { "gh:200/1", "2026-02-01", 4, 16 },
            { "gh:200/1", "2026-02-01", 4, 32 }, // the validation sweep: 3 points
            { "gh:150/1", "2026-01-20", 8, 8, true }, { "gh:150/1", "2026-01-20", 8, 16, true }, // disaggregated
            { "gh:300/1", "2026-01-10", 8, 8, false, "none", 0 }, { "gh:300/1", "2026-01-10", 8, 16, false, "none", 0 },
            { "gh:400/1", "2026-02-01", 8, 8, false, "mtp", 0 }, // agentic: MTP replaces the run without
        };
        QJsonArray a;
        for (const P& p : points) {
            QJsonObject o { { QStringLiteral("schema"), QStringLiteral("paretoscope.run/1") },
                { QStringLiteral("model"), QStringLiteral("m") },
                { QStringLiteral("hardware"), QStringLiteral("b300") },
                { QStringLiteral("engine"), QStringLiteral("vllm") },
                { QStringLiteral("precision"), QStringLiteral("fp4") },
                { QStringLiteral("spec_decoding"), QLatin1String(p.spec) }, { QStringLiteral("tp"), p.tp },
                { QStringLiteral("isl"), p.isl }, { QStringLiteral("osl"), p.isl },
                { QStringLiteral("concurrency"), p.concurrency }, { QStringLiteral("run"), QLatin1String(p.run) },
                { QStringLiteral("run_date"), QLatin1String(p.date) },
                { QStringLiteral("interactivity_tok_s_user"), 400.0 / p.concurrency },
                { QStringLiteral("tput_per_gpu_tok_s"), 100.0 * p.concurrency / p.tp } };
            if (p.isl == 0)
                o[QStringLiteral("workload")] = QStringLiteral("agentic coding");
            if (p.disaggregated) {
                o[QStringLiteral("disaggregated")] = true;
                o[QStringLiteral("prefill_gpus")] = 8;
                o[QStringLiteral("decode_gpus")] = 8;
                o[QStringLiteral("gpus")] = 16;
            } else {
                o[QStringLiteral("gpus")] = p.tp;
            }
            a.append(o);
        }
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        const QString path = dir.filePath(QStringLiteral("curves.json"));
        QVERIFY(writeFile(path, QJsonDocument(a).toJson()));
        auto out = importPath(*store, path.toStdString(), {});
        QVERIFY2(out.front().result, out.front().result ? "" : out.front().result.error().c_str());
        // the points selected, as (run, tp, concurrency), worked out by hand from the list above
        const auto selected = [&](RunSelection runs, int isl, const std::string& workload) {
            Scope s;
            s.model = "m";
            s.isl = isl;
            s.osl = isl;
            s.workload = workload;
            s.runs = runs;
            std::set<std::tuple<std::string, int, int>> got;
            std::vector<long long> ids;
            for (const Series& se : store->series(s))
                ids.push_back(se.id);
            for (const StoredRun& r : store->runsOfSeries(ids, s))
                got.insert({ r.record.run, r.record.tp, r.record.concurrency });
            return got;
        };
        using T = std::set<std::tuple<std::string, int, int>>;
        QCOMPARE(selected(RunSelection::Latest, 1024, {}),
            (T { { "gh:200/1", 4, 8 }, { "gh:200/1", 4, 16 }, { "gh:200/1", 4, 32 }, { "gh:150/1", 8, 8 },
                { "gh:150/1", 8, 16 } }));
        QCOMPARE(selected(RunSelection::LatestPerConfiguration, 1024, {}),
            (T { { "gh:100/1", 8, 4 }, { "gh:100/1", 8, 8 }, { "gh:100/1", 8, 16 }, { "gh:100/1", 8, 32 },
                { "gh:200/1", 4, 8 }, { "gh:200/1", 4, 16 }, { "gh:200/1", 4, 32 }, { "gh:150/1", 8, 8 },
                { "gh:150/1", 8, 16 } }));
        QCOMPARE(selected(RunSelection::Latest, 0, "agentic coding"), (T { { "gh:400/1", 8, 8 } }));
        QCOMPARE(selected(RunSelection::LatestPerConfiguration, 0, "agentic coding"),
            (T { { "gh:300/1", 8, 8 }, { "gh:300/1", 8, 16 }, { "gh:400/1", 8, 8 } }));
        // the narrowing, said by the frontier the ladder reads and by the CLI
        FrontierCache cache(*store);
        Scope s;
        s.model = "m";
        s.isl = 1024;
        s.osl = 1024;
        const std::vector<GroupFrontier>& frontiers = cache.frontiers(s, TputMetric::Total);
        QCOMPARE(frontiers.size(), std::size_t(1));
        QCOMPARE(frontiers[0].narrowed.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(narrowingNote(frontiers[0], frontiers[0].narrowed[0])),
            QStringLiteral("B300 · vLLM · FP4: the newest run (2026-02-01) measured 3 points; the run it replaced "
                           "(2026-01-10) measured 9"));
        s.runs = RunSelection::LatestPerConfiguration;
        QVERIFY(cache.frontiers(s, TputMetric::Total)[0].narrowed.empty());
        const auto cli = [&](const QStringList& args) {
            QProcess p;
            p.start(cliProgram(),
                QStringList { QStringLiteral("ladder"), QStringLiteral("--db"), QString::fromStdString(store->path()),
                    QStringLiteral("--model"), QStringLiteral("m"), QStringLiteral("--isl"), QStringLiteral("1024"),
                    QStringLiteral("--osl"), QStringLiteral("1024") }
                    + args);
            p.waitForFinished(30000);
            return std::pair { p.exitCode(), QString::fromUtf8(p.readAllStandardError()) };
        };
        const auto [code, err] = cli({ QStringLiteral("--targets"), QStringLiteral("50") });
        QCOMPARE(code, 0);
        QVERIFY2(err.contains(QStringLiteral("note: B300 · vLLM · FP4: the newest run (2026-02-01) measured 3 points")),
            qPrintable(err));
        const auto [badCode, badErr] = cli({ QStringLiteral("--runs"), QStringLiteral("newest") });
        QCOMPARE(badCode, 2);
        QVERIFY2(badErr.contains(QStringLiteral("latest-per-configuration")), qPrintable(badErr));
    }

    // The site's GPU count since Sep 2026 (docs/architecture.md section 10.1): a row with no decode GPUs (8P+0D) is
    // aggregated, its one pool the prefill side (8 GPUs: tp 8); a multinode row that gives its pools' workers and tp
    // but not their GPUs counts each pool as workers x tp (2 x 4 prefill + 1 x 8 decode = 16); a pcp of 2 doubles each.
    void gpuCountOfPoolsAndOfARunWithoutDecode()
    {
        json base;
        for (const json& r : fixtureJson(kApi))
            if (r["disagg"].get<bool>()) {
                base = r;
                break;
            }
        QVERIFY(!base.is_null());
        json prefillOnly = base;
        prefillOnly["is_multinode"] = false;
        prefillOnly["num_prefill_gpu"] = 8;
        prefillOnly["num_decode_gpu"] = 0;
        prefillOnly["prefill_tp"] = 8;
        prefillOnly["prefill_ep"] = 1;
        prefillOnly["prefill_num_workers"] = 1;
        prefillOnly["decode_tp"] = 0;
        prefillOnly["decode_ep"] = 0;
        prefillOnly["decode_num_workers"] = 0;
        prefillOnly["conc"] = 7001;
        json pools = base;
        pools["is_multinode"] = true;
        pools.erase("num_prefill_gpu");
        pools.erase("num_decode_gpu");
        pools["prefill_num_workers"] = 2;
        pools["prefill_tp"] = 4;
        pools["decode_num_workers"] = 1;
        pools["decode_tp"] = 8;
        pools["conc"] = 7002;
        json layered = pools;
        layered["pcp_size"] = 2;
        layered["conc"] = 7003;
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("rows.json"));
        QVERIFY(writeFile(path, QByteArray::fromStdString(json::array({ prefillOnly, pools, layered }).dump())));
        auto store = openTempStore(dir);
        auto out = importPath(*store, path.toStdString(), {});
        QVERIFY2(out[0].result, out[0].result ? "" : out[0].result.error().c_str());
        std::map<int, RunRecord> byConcurrency;
        for (const StoredRun& r : store->allRuns())
            byConcurrency[r.record.concurrency] = r.record;
        QCOMPARE(byConcurrency.size(), std::size_t(3));
        const RunRecord& agg = byConcurrency[7001];
        QVERIFY(!agg.disaggregated);
        QCOMPARE(agg.tp, 8);
        QCOMPARE(agg.gpus, 8);
        QCOMPARE(byConcurrency[7002].prefillGpus, 8);
        QCOMPARE(byConcurrency[7002].decodeGpus, 8);
        QCOMPARE(byConcurrency[7002].gpus, 16);
        QCOMPARE(byConcurrency[7003].gpus, 32);
    }
};

PARETOSCOPE_GUILESS_SUITE(TestSiteRule)
#include "tests/support/testpaths.h"
#include "tst_siterule.moc"
