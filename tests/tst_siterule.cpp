// The InferenceX site's rules of today (docs/architecture.md section 10): "latest" is one run per curve (its database
// migrations 011 and 014), the per-configuration rule (migration 007) stays as an option, a curve a narrower run
// replaced is said, and GPUs are counted per pool. Expectations are worked by hand from the crafted rows.
#include <QtTest>

#include <sqlite3.h>

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
#include "core/store/sqlite.h"
#include "tests/support/fixturejson.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;
using nlohmann::json;

namespace {

// Imports rows written as a file of the folder: the number imported, or why not.
Result<std::size_t> importRows(RunStore& store, const QTemporaryDir& dir, const QString& name, const QByteArray& text)
{
    const QString path = dir.filePath(name);
    if (!writeFile(path, text))
        return Error { "cannot write " + path.toStdString() };
    auto out = importPath(store, path.toStdString(), {});
    if (!out.front().result)
        return Error { out.front().result.error() };
    return out.front().result->imported;
}

// A scope of model m at 1k/1k.
Scope scopeOfM()
{
    return lengthScope("m", 1024, 1024);
}

// The runs a scope selects from the store.
std::vector<StoredRun> selectedRuns(RunStore& store, const Scope& s)
{
    std::vector<long long> ids;
    for (const Series& se : store.series(s))
        ids.push_back(se.id);
    return store.runsOfSeries(ids, s);
}

} // namespace

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
        const auto imported = importRows(*store, dir, QStringLiteral("curves.json"), QJsonDocument(a).toJson());
        QVERIFY2(imported, imported ? "" : imported.error().c_str());
        // the points selected, as (run, tp, concurrency), worked out by hand from the list above
        const auto selected = [&](RunSelection runs, int isl, const std::string& workload) {
            Scope s = scopeOfM();
            s.isl = isl;
            s.osl = isl;
            s.workload = workload;
            s.runs = runs;
            std::set<std::tuple<std::string, int, int>> got;
            for (const StoredRun& r : selectedRuns(*store, s))
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
        Scope s = scopeOfM();
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

    // Append-only runs (the site's migration 014; docs/architecture.md section 10.2), worked by hand. FP4: January's
    // full run (image A: TP8 at 4 and 8, TP4 at 4), February's append-only run (A: TP8 at 16, and 8 again) and
    // March's append-only run (A: TP4 at 8, and at 4 with recipe r2) chain back to January: every point is kept, but
    // January's TP8 at 8, which February measured again; TP4 at 4 stays twice, as two recipes are two points. FP8:
    // February's append-only run is of image B: it chains to the next older run of image B (November's), over
    // January's of image A. A chaining run does not narrow its curve. Read the same through the InferenceX API's rows.
    void appendOnlyRunsChainBackToTheirImage()
    {
        struct P {
            const char* run;
            const char* date;
            const char* precision;
            const char* image;
            bool appendOnly;
            int tp;
            int concurrency;
            const char* recipe = "";
        };
        const std::vector<P> points {
            { "gh:100/1", "2026-01-10", "fp4", "A", false, 8, 4 },
            { "gh:100/1", "2026-01-10", "fp4", "A", false, 8, 8 },
            { "gh:100/1", "2026-01-10", "fp4", "A", false, 4, 4 },
            { "gh:200/1", "2026-02-01", "fp4", "A", true, 8, 16 },
            { "gh:200/1", "2026-02-01", "fp4", "A", true, 8, 8 },
            { "gh:300/1", "2026-03-01", "fp4", "A", true, 4, 8 },
            { "gh:300/1", "2026-03-01", "fp4", "A", true, 4, 4, "r2" },
            { "gh:450/1", "2025-11-01", "fp8", "B", false, 8, 2 },
            { "gh:500/1", "2026-01-10", "fp8", "A", false, 8, 4 },
            { "gh:500/1", "2026-01-10", "fp8", "A", false, 8, 8 },
            { "gh:600/1", "2026-02-01", "fp8", "B", true, 8, 16 },
        };
        QJsonArray a;
        for (const P& p : points) {
            QJsonObject o { { QStringLiteral("schema"), QStringLiteral("paretoscope.run/1") },
                { QStringLiteral("model"), QStringLiteral("m") },
                { QStringLiteral("hardware"), QStringLiteral("b300") },
                { QStringLiteral("engine"), QStringLiteral("vllm") },
                { QStringLiteral("precision"), QLatin1String(p.precision) },
                { QStringLiteral("engine_image"), QLatin1String(p.image) }, { QStringLiteral("tp"), p.tp },
                { QStringLiteral("gpus"), p.tp }, { QStringLiteral("isl"), 1024 }, { QStringLiteral("osl"), 1024 },
                { QStringLiteral("concurrency"), p.concurrency }, { QStringLiteral("run"), QLatin1String(p.run) },
                { QStringLiteral("run_date"), QLatin1String(p.date) },
                { QStringLiteral("interactivity_tok_s_user"), 400.0 / p.concurrency },
                { QStringLiteral("tput_per_gpu_tok_s"), 100.0 * p.concurrency / p.tp + p.date[6] } };
            if (p.appendOnly)
                o[QStringLiteral("append_only")] = true;
            if (*p.recipe)
                o[QStringLiteral("recipe_fingerprint")] = QLatin1String(p.recipe);
            a.append(o);
        }
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        const auto imported = importRows(*store, dir, QStringLiteral("chains.json"), QJsonDocument(a).toJson());
        QVERIFY2(imported, imported ? "" : imported.error().c_str());
        QCOMPARE(*imported, points.size()); // the recipe makes March's TP4 at 4 a point of its own
        using T = std::set<std::tuple<std::string, int, int, std::string>>;
        int wrongMarks = 0;
        const auto selected = [&](const char* precision, RunSelection runs) {
            Scope s = scopeOfM();
            s.precisions = { precision };
            s.runs = runs;
            T got;
            for (const StoredRun& r : selectedRuns(*store, s)) {
                const bool full
                    = r.record.run == "gh:100/1" || r.record.run == "gh:450/1" || r.record.run == "gh:500/1";
                wrongMarks += r.record.appendOnly == full ? 1 : 0; // the mark read back as written
                got.insert({ r.record.run, r.record.tp, r.record.concurrency, r.record.recipeFingerprint });
            }
            return got;
        };
        QCOMPARE(selected("fp4", RunSelection::Latest),
            (T { { "gh:300/1", 4, 8, "" }, { "gh:300/1", 4, 4, "r2" }, { "gh:200/1", 8, 16, "" },
                { "gh:200/1", 8, 8, "" }, { "gh:100/1", 8, 4, "" }, { "gh:100/1", 4, 4, "" } }));
        QCOMPARE(selected("fp8", RunSelection::Latest), (T { { "gh:600/1", 8, 16, "" }, { "gh:450/1", 8, 2, "" } }));
        // the per-configuration rule has no chains: the TP8 line's newest run alone
        QCOMPARE(selected("fp8", RunSelection::LatestPerConfiguration), (T { { "gh:600/1", 8, 16, "" } }));
        // as of January the chains are not there yet: January's runs alone
        Scope january = scopeOfM();
        january.asOf = "2026-01-31";
        std::set<std::string> runsThen;
        for (const StoredRun& r : selectedRuns(*store, january))
            runsThen.insert(r.record.run);
        QCOMPARE(runsThen, (std::set<std::string> { "gh:100/1", "gh:500/1" }));
        // a chaining run adds to its curve: no narrowing said (February's FP8 run measured 1 point against 2)
        FrontierCache cache(*store);
        for (const GroupFrontier& g : cache.frontiers(scopeOfM(), TputMetric::Total))
            QVERIFY2(g.narrowed.empty(), g.key.precision.c_str());

        // the InferenceX API's rows carry the mark and the fingerprint
        const json row { { "hardware", "b300" }, { "framework", "vllm" }, { "model", "m" }, { "precision", "fp4" },
            { "spec_method", "none" }, { "disagg", false }, { "is_multinode", false }, { "decode_tp", 8 },
            { "decode_ep", 1 }, { "decode_dp_attention", false }, { "num_decode_gpu", 8 }, { "isl", 1024 },
            { "osl", 1024 }, { "conc", 8 }, { "image", "A" }, { "date", "2026-04-01" },
            { "run_url", "https://github.com/x/y/actions/runs/900/attempts/1" }, { "append_only", true },
            { "recipe_fingerprint", "r9" }, { "metrics", { { "tput_per_gpu", 1000 }, { "median_intvty", 50 } } } };
        const auto api = importRows(
            *store, dir, QStringLiteral("api.json"), QByteArray::fromStdString(json::array({ row }).dump()));
        QVERIFY2(api, api ? "" : api.error().c_str());
        bool seen = false;
        for (const StoredRun& r : store->allRuns())
            if (r.record.run == "gh:900/1") {
                seen = true;
                QVERIFY(r.record.appendOnly);
                QCOMPARE(r.record.recipeFingerprint, std::string("r9"));
            }
        QVERIFY(seen);
        // April's append-only run of image A chains to March's, February's and January's: all kept, and its point
        QCOMPARE(selected("fp4", RunSelection::Latest).size(), std::size_t(7));
        QCOMPARE(wrongMarks, 0);
    }

    // A store of schema 10 (before append-only marks and recipes) is brought up to date keeping every value: the
    // runs of the API fixture written by this build, the two columns schema 11 adds dropped again (schema 10's runs
    // table exactly), then opened.
    void aStoreOfSchema10Migrates()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("store.sqlite"));
        std::vector<RunRecord> before;
        {
            auto s = openTempStore(dir);
            QVERIFY(importPath(*s, fixture(QStringLiteral("inferencex-app-api/benchmarks.json")).toStdString(), {})[0]
                        .result);
            for (const StoredRun& r : s->allRuns())
                before.push_back(r.record);
        }
        QCOMPARE(before.size(), std::size_t(435));
        {
            sqlite3* h = nullptr;
            QCOMPARE(sqlite3_open(db.toUtf8().constData(), &h), SQLITE_OK);
            const std::unique_ptr<sqlite3, int (*)(sqlite3*)> closer(h, sqlite3_close_v2);
            QVERIFY(sql::exec(h,
                "ALTER TABLE runs DROP COLUMN append_only; ALTER TABLE runs DROP COLUMN "
                "recipe_fingerprint; PRAGMA user_version = 10"));
        }
        auto s = openTempStore(dir);
        QVERIFY(s);
        QCOMPARE(s->schemaVersion(), RunStore::currentSchemaVersion());
        QCOMPARE(s->schemaVersion(), 11);
        QCOMPARE(QString::fromStdString(s->integrityCheck()), QStringLiteral("ok"));
        const auto after = s->allRuns();
        QCOMPARE(after.size(), before.size());
        for (std::size_t i = 0; i < after.size(); ++i) {
            QCOMPARE(contentHash(after[i].record), contentHash(before[i]));
            QVERIFY(!after[i].record.appendOnly && after[i].record.recipeFingerprint.empty());
        }
        QCOMPARE(importPath(*s, fixture(QStringLiteral("inferencex-app-api/benchmarks.json")).toStdString(), {})[0]
                     .result->duplicates,
            435u);
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
        auto store = openTempStore(dir);
        const auto imported = importRows(*store, dir, QStringLiteral("rows.json"),
            QByteArray::fromStdString(json::array({ prefillOnly, pools, layered }).dump()));
        QVERIFY2(imported, imported ? "" : imported.error().c_str());
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
