// The numbers as the InferenceX site draws them (docs/architecture.md section 10): a chart line is one configuration's
// points from one run (the newest; its every concurrency, none borrowed), a configuration keeps its prefill side apart
// from its decode side, an aggregated run counts tp x pp GPUs, a disaggregated run's output and input throughput on
// the site's basis or on all GPUs, and the site's model names. On the real API rows of ../shared/fixtures/real, with
// the second runs written by the tests.
#include <QtTest>

#include <QProcess>
#include <QTemporaryDir>

#include <cmath>
#include <fstream>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "core/analysis/bestpersku.h"
#include "core/analysis/envelope.h"
#include "core/analysis/pricing.h"
#include "core/import/importer.h"
#include "core/model/displaynames.h"
#include "core/model/modelnames.h"
#include "core/model/runidentity.h"
#include "core/store/contentbuckets.h"
#include "core/store/runcolumns.h"
#include "core/store/sqlite.h"
#include "core/store/storecheck.h"
#include "tests/support/fixturejson.h"
#include "tests/support/storequeries.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;
using nlohmann::json;

namespace {

// The identity of a row's line as the site keeps it: everything but the concurrency and the run.
std::string lineOf(const json& r)
{
    json k = r;
    for (const char* drop : { "conc", "date", "run_url", "metrics", "image", "workers" })
        k.erase(drop);
    return k.dump();
}

// The aggregated line with the most concurrencies in the fixture's 1k/1k rows.
std::vector<json> longestAggregatedLine(const json& rows)
{
    std::map<std::string, std::vector<json>> lines;
    for (const json& r : rows)
        if (!r["disagg"].get<bool>() && r["isl"] == 1024 && r["osl"] == 1024)
            lines[lineOf(r)].push_back(r);
    std::vector<json> best;
    for (auto& [key, l] : lines)
        if (l.size() > best.size())
            best = l;
    std::sort(best.begin(), best.end(), [](const json& a, const json& b) { return a["conc"] < b["conc"]; });
    return best;
}

// A row measured again by another run: its date, its run, its throughputs scaled (so that it is no duplicate).
json rerun(json r, const std::string& date, long long runId, double scale)
{
    r["date"] = date;
    r["run_url"] = "https://github.com/SemiAnalysisAI/InferenceX/actions/runs/" + std::to_string(runId) + "/attempts/1";
    for (const char* m : { "tput_per_gpu", "output_tput_per_gpu", "input_tput_per_gpu" })
        if (r["metrics"].contains(m))
            r["metrics"][m] = r["metrics"][m].get<double>() * scale;
    return r;
}

Scope scopeOf(const json& r)
{
    Scope s;
    s.model = r["model"];
    s.isl = r["isl"].get<int>();
    s.osl = r["osl"].get<int>();
    s.hardware = { r["hardware"].get<std::string>() };
    s.engines = { r["framework"].get<std::string>() };
    s.precisions = { r["precision"].get<std::string>() };
    s.specDecoding = { r["spec_method"].get<std::string>() };
    return s;
}

// The runs of the points a scope selects, with their concurrency, from the store.
std::multimap<int, RunRecord> selected(RunStore& store, const Scope& scope)
{
    std::vector<long long> series;
    for (const Series& s : store.series(scope))
        series.push_back(s.id);
    std::vector<long long> ids;
    for (const Point& p : store.points(series, TputMetric::Total, scope))
        ids.push_back(p.runId);
    std::multimap<int, RunRecord> out;
    for (const StoredRun& r : store.runs(ids))
        out.emplace(r.record.concurrency, r.record);
    return out;
}

} // namespace

class TestParity : public QObject {
    Q_OBJECT

private slots:
    // A newer run that measured fewer concurrencies truncates its line: the older run's other concurrencies are not
    // borrowed. As of the older run's date, the older run's line is whole again.
    // Names as the site and every panel write them, from core: one rule for the explorer, the reports and the summary.
    void displayNames()
    {
        QCOMPARE(hardwareDisplayName("b300"), std::string("B300"));
        QCOMPARE(hardwareDisplayName("mi325x-sim"), std::string("MI325X (simulated)"));
        QCOMPARE(hardwareDisplayName("sim-fixed"), std::string("Emulator (fixed timing, simulated)"));
        QCOMPARE(groupDisplayName({ "b300", "dynamo-sglang", "fp4", "mtp" }),
            std::string("B300 · Dynamo SGLang · FP4 · MTP"));
        QCOMPARE(groupDisplayName({ "h200", "trt", "fp8", "none" }, false), std::string("TensorRT-LLM · FP8"));
        // the precision column says the speculative decoding that goes with it: MI325X's "SGLang FP8" reading is MTP
        QCOMPARE(precisionWithSpecDecoding({ "mi325x", "sglang", "fp8", "mtp" }), std::string("FP8 · MTP"));
        QCOMPARE(precisionWithSpecDecoding({ "mi325x", "sglang", "fp8", "none" }), std::string("FP8"));
        QCOMPARE(specDecodingDisplayName(""), std::string());
        // a benchmark client's model id: a Hugging Face cache path by its model, a path by its last part
        QCOMPARE(
            benchModelName("/models/models--openai--gpt-oss-120b/snapshots/b5c939de8f754692c1647ca79fbf85e8c1e70f8a/"),
            std::string("gpt-oss-120b"));
        QCOMPARE(benchModelName("/data/llama-3-70b"), std::string("llama-3-70b"));
        QCOMPARE(benchModelName("deepseek-ai/DeepSeek-R1"), std::string("deepseek-ai/DeepSeek-R1"));
    }

    // Two tiers of different tables once both read "3-year rental" (GB300 $5.00 and $3.30 per GPU-hour): every label
    // is its own and starts with its table.
    void tierLabelsNameTheirTable()
    {
        std::set<std::string> labels;
        for (const PricingTier& t : bundledPricing().tiers) {
            QVERIFY2(labels.insert(t.label).second, t.label.c_str());
            const std::string table = t.table == "latest" ? "Latest: " : "Mid-2026 table: ";
            QVERIFY2(t.label.starts_with(table), (t.table + " / " + t.label).c_str());
        }
        QCOMPARE(labels.size(), std::size_t(5));
    }

    void aLineIsTakenFromOneRun()
    {
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        QVERIFY(importPath(*store, fixture(kApi).toStdString(), {})[0].result);
        const json rows = fixtureJson(kApi);
        const std::vector<json> line = longestAggregatedLine(rows);
        QVERIFY2(line.size() >= 3, "the fixture keeps at least three concurrencies of some 1k/1k line");
        const std::string oldDate = line.front()["date"];
        json newer = json::array();
        for (std::size_t i = 0; i + 1 < line.size(); i += 2) // every other concurrency: fewer than the old run's
            newer.push_back(rerun(line[i], "2026-12-01", 99000000001, 1.25));
        auto imported = importPath(*store, writeJson(dir, QStringLiteral("newer.json"), newer), {});
        QVERIFY2(imported[0].result, imported[0].result ? "" : imported[0].result.error().c_str());
        QCOMPARE(imported[0].result->imported, std::uint64_t(newer.size()));

        const Scope scope = scopeOf(line.front());
        const auto latest = selected(*store, scope);
        QCOMPARE(latest.size(), newer.size());
        for (const auto& [conc, r] : latest) {
            QCOMPARE(QString::fromStdString(r.run), QStringLiteral("gh:99000000001/1"));
            QCOMPARE(QString::fromStdString(r.runDate), QStringLiteral("2026-12-01"));
        }
        // as of the older run's date its whole line, from its one run
        Scope asOf = scope;
        asOf.asOf = oldDate;
        const auto older = selected(*store, asOf);
        QCOMPARE(older.size(), line.size());
        const auto run = workflowRun(line.front()["run_url"].get<std::string>());
        QVERIFY(run);
        for (const auto& [conc, r] : older)
            QCOMPARE(QString::fromStdString(r.run), QString::fromStdString(run->key));
        // every run: both
        Scope all = scope;
        all.runs = RunSelection::All;
        QCOMPARE(selected(*store, all).size(), line.size() + newer.size());
    }

    // Two runs of one line on one date: the higher run id wins, whichever was imported first.
    void aSameDateTieGoesToTheHigherRunId()
    {
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        const std::vector<json> line = longestAggregatedLine(fixtureJson(kApi));
        json high = json::array({ rerun(line[0], "2026-12-01", 99000000200, 1.1) });
        json low = json::array(
            { rerun(line[0], "2026-12-01", 99000000100, 1.2), rerun(line[1], "2026-12-01", 99000000100, 1.2) });
        QVERIFY(importPath(*store, writeJson(dir, QStringLiteral("high.json"), high), {})[0].result); // imported first
        QVERIFY(importPath(*store, writeJson(dir, QStringLiteral("low.json"), low), {})[0].result);
        const auto latest = selected(*store, scopeOf(line[0]));
        QCOMPARE(latest.size(), std::size_t(1)); // run 200's one point; run 100's second concurrency is not borrowed
        QCOMPARE(QString::fromStdString(latest.begin()->second.run), QStringLiteral("gh:99000000200/1"));
        QCOMPARE(*latest.begin()->second.tputPerGpu, line[0]["metrics"]["tput_per_gpu"].get<double>() * 1.1);
    }

    // Two disaggregated configurations that differ only on the prefill side (attention data parallel on and off) are
    // two lines: both stay under "latest-per-configuration", and the Runs tab's prefill side tells them apart. They
    // are one curve: under "latest" (the site's rule since its migrations 011 and 014) the newer run replaces it.
    void prefillSidesAreConfigurationsOfTheirOwn()
    {
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        json rows = fixtureJson(kApi);
        json base;
        for (const json& r : rows)
            if (r["disagg"].get<bool>() && r["prefill_num_workers"].get<int>() >= 1) {
                base = r;
                break;
            }
        QVERIFY(!base.is_null());
        json other = base;
        other["prefill_dp_attention"] = !base["prefill_dp_attention"].get<bool>();
        other["run_url"] = "https://github.com/SemiAnalysisAI/InferenceX/actions/runs/99000000300/attempts/1";
        other["metrics"]["tput_per_gpu"] = base["metrics"]["tput_per_gpu"].get<double>() * 0.9;
        QVERIFY(
            importPath(*store, writeJson(dir, QStringLiteral("two.json"), json::array({ base, other })), {})[0].result);
        Scope perConfiguration = scopeOf(base);
        perConfiguration.runs = RunSelection::LatestPerConfiguration;
        const auto latest = selected(*store, perConfiguration);
        QCOMPARE(latest.size(), std::size_t(2));
        const auto ofCurve = selected(*store, scopeOf(base));
        QCOMPARE(ofCurve.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(ofCurve.begin()->second.run), QStringLiteral("gh:99000000300/1"));
        std::set<bool> sides;
        for (const auto& [conc, r] : latest) {
            QCOMPARE(r.prefillTp, base["prefill_tp"].get<int>());
            QCOMPARE(r.prefillEp, base["prefill_ep"].get<int>());
            QCOMPARE(r.prefillWorkers, base["prefill_num_workers"].get<int>());
            QCOMPARE(r.decodeWorkers, base["decode_num_workers"].get<int>());
            QCOMPARE(r.tp, base["decode_tp"].get<int>());
            sides.insert(r.prefillDpAttention);
        }
        QCOMPARE(sides.size(), std::size_t(2));
    }

    // An aggregated API row's num_prefill_gpu / num_decode_gpu hold tp x ep: TP8 EP8 is 64 there, 8 GPUs as
    // InferenceX's process_result.py counts them (tp x pp); a disaggregated row's GPUs are prefill plus decode.
    void gpusAreCountedAsInferenceXCountsThem()
    {
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        QVERIFY(importPath(*store, fixture(kApi).toStdString(), {})[0].result);
        int tp8ep8 = 0;
        for (const StoredRun& s : store->allRuns()) {
            const RunRecord& r = s.record;
            if (r.disaggregated) {
                QCOMPARE(r.gpus, r.prefillGpus + r.decodeGpus);
            } else {
                QCOMPARE(r.gpus, r.tp * std::max(r.pp, 1));
                tp8ep8 += r.tp == 8 && r.ep == 8;
                if (r.tp == 8 && r.ep == 8)
                    QCOMPARE(r.gpus, 8);
            }
        }
        QVERIFY2(tp8ep8 >= 30, "the fixture has 33 aggregated TP8 EP8 rows");
        // vLLM results of a 16-GPU disaggregated deployment (8 prefill + 8 decode): per GPU as process_result.py
        // divides (total / all GPUs, output / decode GPUs, input / prefill GPUs), from the file's own totals
        const QString file = fixture(QStringLiteral(
            "inferencex-raw-bench-serving/gpt-oss-120b/concurrency_64_req_rate_inf_gpus_16_ctx_8_gen_8.json"));
        std::ifstream in(file.toStdString());
        const json raw = json::parse(in);
        ImportOptions o;
        o.model = "gpt-oss-120b";
        o.hardware = "mi355x";
        o.engine = "vllm";
        o.precision = "fp4";
        o.prefillGpus = 8;
        o.decodeGpus = 8;
        auto out = importPath(*store, file.toStdString(), o);
        QVERIFY2(out[0].result, out[0].result ? "" : out[0].result.error().c_str());
        auto found = store->allRuns();
        const RunRecord& r = found.back().record;
        const double total = raw["total_token_throughput"], output = raw["output_throughput"];
        QCOMPARE(r.gpus, 16);
        QVERIFY(std::abs(*r.tputPerGpu - total / 16) < 1e-9 * total);
        QVERIFY(std::abs(*r.outputTputPerGpu - output / 8) < 1e-9 * output);
        QVERIFY(std::abs(*r.inputTputPerGpu - (total - output) / 8) < 1e-9 * total);
    }

    // --basis: a disaggregated row's output tokens per decode GPU (the site's) or per all its GPUs, worked by hand
    // from the row; total tokens are per all GPUs either way, and aggregated rows read the same.
    void basisOfADisaggregatedRow()
    {
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        QVERIFY(importPath(*store, fixture(kApi).toStdString(), {})[0].result);
        json row;
        for (const json& r : fixtureJson(kApi))
            if (r["disagg"].get<bool>() && r["num_prefill_gpu"] != r["num_decode_gpu"]
                && r["metrics"].contains("output_tput_per_gpu") && r["metrics"].contains("input_tput_per_gpu")) {
                row = r;
                break;
            }
        QVERIFY(!row.is_null());
        const double prefill = row["num_prefill_gpu"], decode = row["num_decode_gpu"];
        const double out = row["metrics"]["output_tput_per_gpu"], in = row["metrics"]["input_tput_per_gpu"];
        Scope scope = scopeOf(row);
        std::vector<long long> series;
        for (const Series& s : store->series(scope))
            series.push_back(s.id);
        const auto y = [&](TputMetric m, TputBasis basis) {
            Scope s = scope;
            s.basis = basis;
            s.runs = RunSelection::All;
            for (const RunPoint& p : store->runPoints(series, m, s))
                for (const StoredRun& r : store->runs({ p.runId }))
                    if (r.record.concurrency == row["conc"].get<int>()
                        && r.record.runDate == row["date"].get<std::string>() && r.record.prefillGpus == int(prefill)
                        && r.record.decodeGpus == int(decode))
                        return p.tputPerGpu;
            return -1.0;
        };
        QCOMPARE(y(TputMetric::Output, TputBasis::Serving), out);
        QVERIFY(std::abs(y(TputMetric::Output, TputBasis::AllGpus) - out * decode / (prefill + decode)) < 1e-9 * out);
        QCOMPARE(y(TputMetric::Input, TputBasis::Serving), in);
        QVERIFY(std::abs(y(TputMetric::Input, TputBasis::AllGpus) - in * prefill / (prefill + decode)) < 1e-9 * in);
        QCOMPARE(y(TputMetric::Total, TputBasis::AllGpus), y(TputMetric::Total, TputBasis::Serving));
        // the CLI's --basis gives the same
        QProcess cli;
        const QStringList args { QStringLiteral("frontier"), QStringLiteral("--db"),
            QString::fromStdString(store->path()), QStringLiteral("--model"), QStringLiteral("dsr1"),
            QStringLiteral("--isl"), QString::number(row["isl"].get<int>()), QStringLiteral("--osl"),
            QString::number(row["osl"].get<int>()), QStringLiteral("--metric"), QStringLiteral("output"),
            QStringLiteral("--runs"), QStringLiteral("all"), QStringLiteral("--format"), QStringLiteral("json") };
        cli.start(cliProgram(), args + QStringList { QStringLiteral("--basis"), QStringLiteral("nope") });
        QVERIFY(cli.waitForFinished(60000));
        QCOMPARE(cli.exitCode(), 2);
        QVERIFY(cli.readAllStandardError().contains("--basis must be serving"));
    }

    // A store of schema 7 (one tp, ep and dp-attention per run; aggregated InferenceX rows counted by tp x ep GPUs)
    // migrates: every run gets its run (its run_url's workflow run), aggregated runs their prefill side and tp x pp
    // GPUs with their content hashes recomputed, so the file imported again is all duplicates and restores the prefill
    // side of the disaggregated runs, which kept what they had until then (and say so).
    void aStoreOfSchema7Migrates()
    {
        QTemporaryDir dir;
        std::vector<RunRecord> runs;
        {
            auto scratch = openTempStore(dir, QStringLiteral("scratch.sqlite"));
            QVERIFY(importPath(*scratch, fixture(kApi).toStdString(), {})[0].result);
            for (const StoredRun& r : scratch->allRuns())
                runs.push_back(r.record);
        }
        const QString db = dir.filePath(QStringLiteral("store.sqlite"));
        QVERIFY(RunStore::createAtVersion(db.toStdString(), 7).ok());
        {
            // the rows as schema 7's importer wrote them: an aggregated row's GPUs were its num_decode_gpu (tp x ep)
            sqlite3* h = nullptr;
            QCOMPARE(sqlite3_open(db.toUtf8().constData(), &h), SQLITE_OK);
            const std::unique_ptr<sqlite3, int (*)(sqlite3*)> closer(h, sqlite3_close_v2);
            QVERIFY(sql::exec(h,
                "BEGIN; INSERT INTO sources(path, sha256, format, imported_at) VALUES "
                "('benchmarks.json', '', 'inferencex-api', 0)"));
            sql::Statement series(h,
                "INSERT INTO series(model, isl, osl, workload, hardware, engine, precision, spec_decoding) "
                "VALUES (?,?,?,?,?,?,?,?) ON CONFLICT DO UPDATE SET model = excluded.model RETURNING id");
            const std::set<std::string> newer { "prefill_tp", "prefill_ep", "prefill_dp_attention", "prefill_workers",
                "decode_workers", "append_only", "recipe_fingerprint" };
            std::string cols = "series_id, source_id, record_index, content_hash", marks = "?,?,?,?";
            for (const RunColumn& c : runColumns())
                if (!newer.count(c.name)) {
                    cols += std::string(", ") + c.name;
                    marks += ",?";
                }
            sql::Statement run(h, "INSERT INTO runs(" + cols + ") VALUES (" + marks + ")");
            QVERIFY2(run.valid(), run.prepareError().c_str());
            std::vector<std::uint64_t> hashes;
            for (std::size_t i = 0; i < runs.size(); ++i) {
                RunRecord r = runs[i];
                if (!r.disaggregated)
                    r.gpus = r.tp * std::max(r.ep, 1); // num_decode_gpu of the row
                series.reset();
                int c = 1;
                for (const std::string* t : { &r.model })
                    series.bindText(c++, *t);
                series.bind(c++, static_cast<std::int64_t>(r.isl));
                series.bind(c++, static_cast<std::int64_t>(r.osl));
                for (const std::string* t : { &r.workload, &r.hardware, &r.engine, &r.precision, &r.specDecoding })
                    series.bindText(c++, *t);
                QVERIFY(series.step());
                const std::int64_t seriesId = series.int64(0);
                while (series.step()) { }
                run.reset();
                c = 1;
                run.bind(c++, seriesId);
                run.bind(c++, std::int64_t { 1 });
                run.bind(c++, static_cast<std::int64_t>(i));
                run.bind(c++, static_cast<std::int64_t>(contentHash(r)));
                hashes.push_back(contentHash(r));
                for (const RunColumn& col : runColumns())
                    if (!newer.count(col.name))
                        col.bind(run, c++, r);
                run.step();
                QVERIFY2(!run.failed(), run.error().c_str());
            }
            // their hashes in their buckets, as schema 7 keeps them
            std::sort(hashes.begin(), hashes.end(),
                [](std::uint64_t a, std::uint64_t b) { return std::int64_t(a) < std::int64_t(b); });
            sql::Statement bucket(h, "INSERT INTO content_buckets(bucket, hashes) VALUES (?, ?)");
            for (std::size_t i = 0; i < hashes.size();) {
                std::size_t end = i + 1;
                while (
                    end < hashes.size() && contentbuckets::bucketOf(hashes[end]) == contentbuckets::bucketOf(hashes[i]))
                    ++end;
                bucket.reset();
                bucket.bind(1, contentbuckets::bucketOf(hashes[i]));
                bucket.bindBlob(2, contentbuckets::merged({}, std::span(hashes).subspan(i, end - i)));
                bucket.step();
                QVERIFY2(!bucket.failed(), bucket.error().c_str());
                i = end;
            }
            QVERIFY(sql::exec(h, "COMMIT"));
        }
        auto s = openTempStore(dir);
        QVERIFY(s);
        QCOMPARE(s->schemaVersion(), RunStore::currentSchemaVersion());
        auto report = checkStore(db.toStdString());
        QVERIFY2(report && report->ok(), report ? report->text().c_str() : report.error().c_str());
        int aggregated = 0, disaggregated = 0;
        for (const StoredRun& row : s->allRuns()) {
            const RunRecord& r = row.record;
            QVERIFY2(r.run.starts_with("gh:"), r.run.c_str());
            if (r.disaggregated) {
                ++disaggregated;
                QCOMPARE(r.prefillTp, r.tp); // kept what it had, and says so
                QVERIFY(
                    QString::fromStdString(r.provenance.note).contains(QStringLiteral("prefill side not recorded")));
            } else {
                ++aggregated;
                QCOMPARE(r.gpus, r.tp * std::max(r.pp, 1));
                QCOMPARE(r.prefillTp, r.tp);
            }
        }
        QVERIFY(aggregated > 0 && disaggregated > 0);
        QCOMPARE(s->storedContentHashes(), runHashes(*s));
        // the file again: every row a duplicate, and the prefill side of each disaggregated row restored
        auto again = importPath(*s, fixture(kApi).toStdString(), {});
        QVERIFY(again[0].result);
        QCOMPARE(again[0].result->duplicates, std::uint64_t(runs.size()));
        QCOMPARE(scalar(db, "SELECT count(*) FROM runs WHERE disaggregated AND prefill_tp IS NULL"), 0);
        for (const StoredRun& row : s->allRuns())
            QVERIFY(!QString::fromStdString(row.record.provenance.note)
                         .contains(QStringLiteral("prefill side not recorded")));
    }

    // The site's model names: shown for the keys its runs carry, and taken on the command line for them.
    void siteModelNames()
    {
        QCOMPARE(QString::fromStdString(modelDisplayName("dsr1")), QStringLiteral("DeepSeek-R1-0528"));
        QCOMPARE(QString::fromStdString(modelDisplayName("kimik2.6")), QStringLiteral("Kimi-K2.5"));
        QCOMPARE(QString::fromStdString(modelDisplayName("my-model")), QStringLiteral("my-model"));
        QCOMPARE(QString::fromStdString(resolveModelName("DeepSeek-R1-0528", { "dsr1", "x" }).model),
            QStringLiteral("dsr1"));
        QVERIFY(!resolveModelName("Kimi-K2.5", { "kimik2.5", "kimik2.6" }).error.empty());
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("store.sqlite"));
        {
            auto store = openTempStore(dir);
            QVERIFY(importPath(*store, fixture(kApi).toStdString(), {})[0].result);
        }
        QByteArray answers[2];
        int i = 0;
        for (const char* model : { "dsr1", "DeepSeek-R1-0528" }) {
            QProcess cli;
            cli.start(cliProgram(),
                { QStringLiteral("ladder"), QStringLiteral("--db"), db, QStringLiteral("--model"),
                    QString::fromLatin1(model), QStringLiteral("--isl"), QStringLiteral("1024"),
                    QStringLiteral("--osl"), QStringLiteral("1024") });
            QVERIFY(cli.waitForFinished(60000));
            QCOMPARE(cli.exitCode(), 0);
            answers[i++] = cli.readAllStandardOutput();
        }
        QCOMPARE(answers[0], answers[1]);
    }

    // The site's "best per SKU": per physical hardware the frontier with the highest mean over the x range its
    // frontiers share (two-knot frontiers are straight lines, so the means are worked by hand), else the highest
    // measured point; ties to the smaller key.
    void bestPerSkuPicksAsTheSiteDoes()
    {
        const auto group = [](const char* hw, const char* engine, std::vector<Point> knots) {
            auto g = makeGroupFrontier(GroupKey { hw, engine, "fp8", "none" }, std::move(knots));
            return *g;
        };
        std::vector<GroupFrontier> groups;
        // h100: A peaks higher (1,000) but over the shared 20..100, A = 1100 - 10x averages 500 and
        // B = 900 - (850/180)(x - 20) averages (900 + 522.2) / 2 = 711.1: B
        groups.push_back(group("h100", "a", { { 10, 1000, 0 }, { 100, 100, 0 } }));
        groups.push_back(group("h100-dgxc", "b", { { 20, 900, 0 }, { 200, 50, 0 } }));
        // mi300x: no shared range, the highest measured point (600 of D)
        groups.push_back(group("mi300x", "c", { { 1, 500, 0 }, { 5, 400, 0 } }));
        groups.push_back(group("mi300x", "d", { { 10, 600, 0 }, { 20, 300, 0 } }));
        // b200: the same frontier twice, the smaller key ("e")
        groups.push_back(group("b200", "f", { { 10, 800, 0 }, { 50, 200, 0 } }));
        groups.push_back(group("b200", "e", { { 10, 800, 0 }, { 50, 200, 0 } }));
        QCOMPARE(physicalHardware("h100-dgxc"), std::string("h100"));
        QCOMPARE(bestPerHardware(groups), (std::vector<std::size_t> { 1, 3, 5 }));
        // where A is raised above B over the shared range, A
        groups[0] = group("h100", "a", { { 10, 1000, 0 }, { 100, 800, 0 } });
        QCOMPARE(bestPerHardware(groups), (std::vector<std::size_t> { 0, 3, 5 }));
    }

    // The envelope of a hardware's lines, by hand: A (10, 1000)-(100, 100) and B (20, 850)-(200, 50). A alone to 20,
    // A above B until they cross where 1100 - 10x = 850 - (800 / 180)(x - 20), x = 29, then B to 200. With a lower y
    // the better (cost), B from 20 on. Another hardware's line is an envelope of its own; an unpriced one none.
    void envelopeTakesTheBestAtEachX()
    {
        ChartData chart;
        const auto series = [](const char* hw, const char* engine, std::vector<Point> path, bool priced = true) {
            ChartSeries s;
            s.key = GroupKey { hw, engine, "fp8", "none" };
            s.path = std::move(path);
            s.frontier = s.path;
            s.priced = priced;
            return s;
        };
        chart.series.push_back(series("h100", "a", { { 10, 1000, 0 }, { 100, 100, 0 } }));
        chart.series.push_back(series("h100", "b", { { 20, 850, 0 }, { 200, 50, 0 } }));
        chart.series.push_back(series("b200", "c", { { 5, 2000, 0 }, { 50, 900, 0 } }));
        chart.series.push_back(series("mi300x", "d", { { 5, 2000, 0 }, { 50, 900, 0 } }, false));
        const std::vector<HardwareEnvelope> high = hardwareEnvelopes(chart, true);
        QCOMPARE(high.size(), std::size_t(2));
        QCOMPARE(high[0].hardware, std::string("h100"));
        QCOMPARE(high[0].stretches.size(), std::size_t(2));
        const EnvelopeStretch &a = high[0].stretches[0], &b = high[0].stretches[1];
        QCOMPARE(a.series, std::size_t(0));
        QCOMPARE(b.series, std::size_t(1));
        const double cross = 20 + 50.0 / (50.0 - (100 - (850 - 800.0 / 180 * 80))) * 80; // where A - B changes sign
        QVERIFY(std::abs(cross - 29.0) < 0.01);
        QCOMPARE(a.xFrom, 10.0);
        QVERIFY(std::abs(a.xTo - cross) < 1e-9);
        QVERIFY(std::abs(b.xFrom - cross) < 1e-9);
        QCOMPARE(b.xTo, 200.0);
        // the stretches meet: A's last point is B's first
        QVERIFY(std::abs(a.path.back().y - b.path.front().y) < 1e-6);
        QVERIFY(std::abs(a.path.back().y - (1100 - 10 * cross)) < 1e-6);
        QCOMPARE(a.path.front().y, 1000.0);
        QCOMPARE(b.path.back().y, 50.0);
        QCOMPARE(high[1].hardware, std::string("b200"));
        QCOMPARE(high[1].stretches.size(), std::size_t(1));
        // lower is better: A alone from 10 to 20, B (the lower) from 20 to the crossing at 29, A (falling faster) from
        // there to its end at 100, then B alone to 200
        const std::vector<HardwareEnvelope> low = hardwareEnvelopes(chart, false);
        QCOMPARE(low[0].stretches.size(), std::size_t(4));
        QCOMPARE(low[0].stretches[0].series, std::size_t(0));
        QCOMPARE(low[0].stretches[0].xTo, 20.0); // A runs on to where B begins
        QCOMPARE(low[0].stretches[1].series, std::size_t(1));
        QVERIFY(std::abs(low[0].stretches[1].xTo - cross) < 1e-9);
        QCOMPARE(low[0].stretches[2].series, std::size_t(0));
        QCOMPARE(low[0].stretches[2].xTo, 100.0);
        QCOMPARE(low[0].stretches[3].series, std::size_t(1));
        QCOMPARE(low[0].stretches[3].xFrom, 100.0);
        // only the series asked for
        const std::vector<HardwareEnvelope> onlyB = hardwareEnvelopes(chart, true, { false, true, false, false });
        QCOMPARE(onlyB.size(), std::size_t(1));
        QCOMPARE(onlyB[0].stretches.size(), std::size_t(1));
        QCOMPARE(onlyB[0].stretches[0].series, std::size_t(1));
    }
};

PARETOSCOPE_GUILESS_SUITE(TestParity)
#include "tests/support/testpaths.h"
#include "tst_parity.moc"
