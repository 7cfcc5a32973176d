// Importers on the real InferenceX data in ../shared/fixtures/real (values checked against the files, read with Qt's
// own JSON parser as the independent computation), on files the test makes, and on bad input.
#include <QtTest>

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "core/import/importer.h"
#include "core/output/reports.h"
#include "tests/support/suite.h"
#include "tests/support/testpaths.h"
#include "tests/support/testserver.h"
#include "tests/support/testutil.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;

namespace {
constexpr double kRel = 1e-12; // same double arithmetic on both sides; only the parse differs

std::vector<StoredRun> allRuns(RunStore& store)
{
    return store.allRuns();
}

ImportOptions disaggVllm()
{
    ImportOptions o;
    o.hardware = "mi355x";
    o.prefillGpus = 8;
    o.decodeGpus = 8;
    o.engine = "vllm";
    o.precision = "fp4";
    o.model = "gpt-oss-120b";
    return o;
}
} // namespace

class TestImporters : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    Result<ImportSummary> importOne(RunStore& store, const QString& path, const ImportOptions& o = {})
    {
        auto out = importPath(store, path.toStdString(), o);
        if (out.size() != 1)
            return Error { "expected one outcome" };
        return std::move(out[0].result);
    }

private slots:
    void aggRecords()
    {
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        QDir agg(fixture(QStringLiteral("inferencex-agg")));
        const auto files = agg.entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name);
        QCOMPARE(files.size(), 3);
        for (const QString& f : files) {
            auto r = importOne(*store, agg.filePath(f));
            QVERIFY2(r.ok(), r.ok() ? "" : r.error().c_str());
            QCOMPARE(r->format, std::string("inferencex-agg"));
            QCOMPARE(r->imported, 1u);
            QCOMPARE(r->duplicates, 0u);
            QCOMPARE(r->sha256.size(), std::size_t(64));
        }
        QCOMPARE(store->runCount(), 3);
        for (const StoredRun& run : allRuns(*store)) {
            const RunRecord& r = run.record;
            QJsonObject src = QJsonDocument::fromJson(readAll(QString::fromStdString(r.provenance.source))).object();
            QCOMPARE(r.hardware, std::string("mi355x"));
            QCOMPARE(r.engine, std::string("vllm"));
            QCOMPARE(r.precision, std::string("int4"));
            QCOMPARE(r.specDecoding, std::string("mtp"));
            QCOMPARE(r.model, std::string("moonshotai/Kimi-K2.5"));
            QCOMPARE(r.engineImage, std::string("vllm/vllm-openai-rocm:v0.21.0"));
            QCOMPARE(r.gpus, 8); // tp 8 x pp 1
            QCOMPARE(r.concurrency, src[QStringLiteral("conc")].toInt());
            QCOMPARE(r.isl, src[QStringLiteral("isl")].toInt());
            QVERIFY(near(*r.tputPerGpu, src[QStringLiteral("tput_per_gpu")].toDouble(), kRel));
            QVERIFY(near(*r.outputTputPerGpu, src[QStringLiteral("output_tput_per_gpu")].toDouble(), kRel));
            QVERIFY(near(*r.ttft.median, src[QStringLiteral("median_ttft")].toDouble(), kRel));
            QVERIFY(near(*r.e2el.p999, src[QStringLiteral("p99.9_e2el")].toDouble(), kRel));
            QVERIFY(near(*r.itl.p90, src[QStringLiteral("p90_itl")].toDouble(), kRel));
            // interactivity is 1 / median TPOT; the file's median_intvty agrees to rounding
            QVERIFY(near(*r.interactivity, 1.0 / src[QStringLiteral("median_tpot")].toDouble(), kRel));
            QVERIFY(std::abs(*r.interactivity - src[QStringLiteral("median_intvty")].toDouble()) < 1e-9);
            QCOMPARE(r.provenance.format, std::string("inferencex-agg"));
        }
    }

    void apiRows()
    {
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        auto imported = importOne(*store, fixture(QStringLiteral("inferencex-app-api/benchmarks.json")));
        QVERIFY2(imported.ok(), imported.ok() ? "" : imported.error().c_str());
        QCOMPARE(imported->format, std::string("inferencex-api"));
        QCOMPARE(imported->imported, 435u);
        const QJsonArray rows
            = QJsonDocument::fromJson(readAll(fixture(QStringLiteral("inferencex-app-api/benchmarks.json")))).array();
        auto runs = allRuns(*store);
        QCOMPARE(int(runs.size()), rows.size());
        int disagg = 0;
        for (const StoredRun& run : runs) {
            const RunRecord& r = run.record;
            // record_index order is the file order; look the row up by its unique configuration instead
            const QJsonObject* match = nullptr;
            QJsonObject row;
            for (const auto& v : rows) {
                QJsonObject o = v.toObject();
                QJsonObject m = o[QStringLiteral("metrics")].toObject();
                if (o[QStringLiteral("hardware")].toString().toStdString() == r.hardware
                    && o[QStringLiteral("conc")].toInt() == r.concurrency
                    && o[QStringLiteral("framework")].toString().toStdString() == r.engine
                    && o[QStringLiteral("isl")].toInt() == r.isl && o[QStringLiteral("osl")].toInt() == r.osl
                    && near(m[QStringLiteral("tput_per_gpu")].toDouble(), *r.tputPerGpu, kRel)) {
                    row = o;
                    match = &row;
                    break;
                }
            }
            QVERIFY(match);
            QJsonObject m = row[QStringLiteral("metrics")].toObject();
            QVERIFY(near(*r.ttft.median, m[QStringLiteral("median_ttft")].toDouble(), kRel));
            QVERIFY(near(*r.interactivity, 1.0 / m[QStringLiteral("median_tpot")].toDouble(), kRel));
            QCOMPARE(r.specDecoding, row[QStringLiteral("spec_method")].toString().toStdString());
            QCOMPARE(r.runDate, row[QStringLiteral("date")].toString().toStdString());
            QCOMPARE(r.runUrl, row[QStringLiteral("run_url")].toString().toStdString());
            if (m.contains(QStringLiteral("avg_power_w")))
                QVERIFY(near(*r.avgPowerW, m[QStringLiteral("avg_power_w")].toDouble(), kRel));
            if (!m.contains(QStringLiteral("output_tput_per_gpu")))
                QVERIFY(!r.outputTputPerGpu);
            if (row[QStringLiteral("disagg")].toBool()) {
                ++disagg;
                QVERIFY(r.disaggregated);
                QCOMPARE(r.prefillGpus, row[QStringLiteral("num_prefill_gpu")].toInt());
                QCOMPARE(r.decodeGpus, row[QStringLiteral("num_decode_gpu")].toInt());
                QCOMPARE(r.gpus, r.prefillGpus + r.decodeGpus);
            } else {
                // the row's num_decode_gpu holds tp x ep; InferenceX's process_result.py divides by tp x pp GPUs
                QCOMPARE(r.tp, row[QStringLiteral("decode_tp")].toInt());
                QCOMPARE(r.gpus, row[QStringLiteral("decode_tp")].toInt());
                QCOMPARE(r.tp * std::max(r.ep, 1), row[QStringLiteral("num_decode_gpu")].toInt());
            }
        }
        QCOMPARE(disagg, 235);
        QCOMPARE(store->scopes().size(), std::size_t(3));
    }

    void vllmBenchServe()
    {
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        const QString folder = fixture(QStringLiteral("inferencex-raw-bench-serving"));
        auto outcomes = importPath(*store, folder.toStdString(), disaggVllm());
        QCOMPARE(outcomes.size(), std::size_t(8));
        for (const auto& o : outcomes) {
            QVERIFY2(o.result.ok(), o.result.ok() ? "" : o.result.error().c_str());
            QCOMPARE(o.result->format, std::string("vllm-bench"));
            QCOMPARE(o.result->imported, 1u);
        }
        for (const StoredRun& run : allRuns(*store)) {
            const RunRecord& r = run.record;
            QJsonObject src = QJsonDocument::fromJson(readAll(QString::fromStdString(r.provenance.source))).object();
            const double total = src[QStringLiteral("total_token_throughput")].toDouble(),
                         out = src[QStringLiteral("output_throughput")].toDouble();
            // per-GPU division for a disaggregated run: total over all 16, output over decode, input over prefill
            QVERIFY(near(*r.tputPerGpu, total / 16, kRel));
            QVERIFY(near(*r.outputTputPerGpu, out / 8, kRel));
            QVERIFY(near(*r.inputTputPerGpu, (total - out) / 8, kRel));
            // ms to s
            QVERIFY(near(*r.ttft.median, src[QStringLiteral("median_ttft_ms")].toDouble() / 1000, kRel));
            QVERIFY(near(*r.e2el.p99, src[QStringLiteral("p99_e2el_ms")].toDouble() / 1000, kRel));
            QVERIFY(near(*r.interactivity, 1000.0 / src[QStringLiteral("median_tpot_ms")].toDouble(), kRel));
            QCOMPARE(r.concurrency, src[QStringLiteral("max_concurrency")].toInt());
            QCOMPARE(r.isl, 1024); // total_input_tokens / completed
            QCOMPARE(r.osl, 1024);
            QCOMPARE(*r.completed, qint64(src[QStringLiteral("completed")].toInt()));
            QVERIFY(!r.failed); // this fork omits "failed"
            QCOMPARE(r.runDate, std::string("2026-04-28"));
            QCOMPARE(r.gpus, 16);
        }
    }

    void vllmNeedsCallerFields()
    {
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        const QString f = fixture(QStringLiteral(
            "inferencex-raw-bench-serving/gpt-oss-120b/concurrency_4_req_rate_inf_gpus_16_ctx_8_gen_8.json"));
        auto r = importOne(*store, f);
        QVERIFY(!r.ok());
        for (const QString& word : { QStringLiteral("hardware"), QStringLiteral("gpus"), QStringLiteral("engine"),
                 QStringLiteral("precision"), QStringLiteral("model"), QStringLiteral("concurrency_4_req") })
            QVERIFY2(QString::fromStdString(r.error()).contains(word), r.error().c_str());
        ImportOptions partial = disaggVllm();
        partial.precision.clear();
        r = importOne(*store, f, partial);
        QVERIFY(!r.ok());
        QVERIFY(QString::fromStdString(r.error()).contains(QStringLiteral("precision")));
        QVERIFY(!QString::fromStdString(r.error()).contains(QStringLiteral("hardware")));
        QCOMPARE(store->runCount(), 0);
    }

    void sglangJsonl()
    {
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        // two lines as SGLang's bench_serving appends them; the older one has no total_throughput
        QByteArray jsonl
            = R"({"backend": "sglang", "dataset_name": "random", "request_rate": "inf", "max_concurrency": 16, "random_input_len": 1024, "random_output_len": 1024, "duration": 60.0, "completed": 160, "total_input_tokens": 163840, "total_output_tokens": 163840, "request_throughput": 2.6, "input_throughput": 2730.5, "output_throughput": 2730.5, "mean_ttft_ms": 120.0, "median_ttft_ms": 100.0, "std_ttft_ms": 10.0, "p99_ttft_ms": 300.0, "mean_tpot_ms": 5.5, "median_tpot_ms": 5.0, "std_tpot_ms": 0.1, "p99_tpot_ms": 7.0, "mean_e2e_latency_ms": 5300.0, "median_e2e_latency_ms": 5200.0, "std_e2e_latency_ms": 50.0, "p99_e2e_latency_ms": 6000.0, "mean_itl_ms": 5.4, "median_itl_ms": 5.1, "std_itl_ms": 1.0, "p95_itl_ms": 6.0, "p99_itl_ms": 9.0, "concurrency": 15.8}
{"backend": "sglang", "dataset_name": "random", "request_rate": "inf", "max_concurrency": 64, "random_input_len": 1024, "random_output_len": 1024, "duration": 60.0, "completed": 640, "total_input_tokens": 655360, "total_output_tokens": 655360, "request_throughput": 10.4, "input_throughput": 9000.0, "output_throughput": 8000.0, "total_throughput": 17000.0, "median_ttft_ms": 400.0, "median_tpot_ms": 8.0, "median_e2e_latency_ms": 8600.0, "concurrency": 63.1}
)";
        const QString path = dir.filePath(QStringLiteral("sglang.jsonl"));
        QVERIFY(writeFile(path, jsonl));
        ImportOptions o;
        o.hardware = "B300";
        o.gpus = 8;
        o.engine = "sglang";
        o.precision = "fp4";
        o.model = "DeepSeek-R1";
        auto r = importOne(*store, path, o);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().c_str());
        QCOMPARE(r->format, std::string("sglang-bench"));
        QCOMPARE(r->imported, 2u);
        auto runs = allRuns(*store);
        QCOMPARE(runs.size(), std::size_t(2));
        const RunRecord& a = runs[0].record.concurrency == 16 ? runs[0].record : runs[1].record;
        const RunRecord& b = runs[0].record.concurrency == 16 ? runs[1].record : runs[0].record;
        QCOMPARE(a.hardware, std::string("b300"));
        QVERIFY(near(*a.tputPerGpu, (2730.5 + 2730.5) / 8, kRel)); // total = input + output
        QVERIFY(near(*a.ttft.median, 0.1, kRel));
        QVERIFY(near(*a.e2el.median, 5.2, kRel));
        QVERIFY(near(*a.interactivity, 200.0, kRel));
        QVERIFY(near(*b.tputPerGpu, 17000.0 / 8, kRel));
        QVERIFY(near(*b.inputTputPerGpu, 9000.0 / 8, kRel)); // total - output
        QCOMPARE(a.isl, 1024);
        QCOMPARE(a.workload, std::string("random 1k/1k"));
    }

    void decodeSloSummaryInSeconds()
    {
        // InferenceX's experimental decode-SLO results: vLLM's summary with its latencies in seconds (median_tpot,
        // not median_tpot_ms) and without the throughputs. tests/fixtures/decode-slo-summary.json is modelled on
        // that field list (made here, not captured). Worked by hand from its numbers, 8 GPUs:
        //   total: (327,680 + 327,680) tokens / 187.5 s = 3,495.253333 tok/s, / 8 = 436.906667 tok/s/GPU
        //   output: 327,680 / 187.5 = 1,747.626667 tok/s, / 8 = 218.453333 (input the same)
        //   interactivity: 1 / 0.0172 s = 58.139535 tok/s/user; lengths 327,680 / 320 = 1,024 each
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        const QString path = testsSourceDir() + QStringLiteral("/fixtures/decode-slo-summary.json");
        QVERIFY(!path.isEmpty());
        ImportOptions o;
        o.hardware = "b200";
        o.gpus = 8;
        o.engine = "vllm";
        o.precision = "fp8";
        o.model = "DeepSeek-R1-0528";
        auto r = importOne(*store, path, o);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().c_str());
        QCOMPARE(r->format, std::string("vllm-bench"));
        QCOMPARE(r->imported, 1u);
        auto runs = allRuns(*store);
        QCOMPARE(runs.size(), std::size_t(1));
        const RunRecord& run = runs[0].record;
        auto close = [](double got, double want) { return std::abs(got - want) <= 1e-6 * want; }; // 7 digits by hand
        QVERIFY2(close(*run.tputPerGpu, 436.906667), qPrintable(QString::number(*run.tputPerGpu, 'g', 12)));
        QVERIFY(close(*run.outputTputPerGpu, 218.453333));
        QVERIFY(close(*run.inputTputPerGpu, 218.453333));
        QVERIFY(close(*run.interactivity, 58.139535));
        // seconds stay seconds: no thousandfold scaling as for the _ms keys
        QCOMPARE(*run.ttft.median, 0.389);
        QCOMPARE(*run.tpot.p99, 0.0191);
        QCOMPARE(*run.e2el.median, 17.98);
        QCOMPARE(*run.itl.mean, 0.0171);
        QCOMPARE(run.concurrency, 32);
        QCOMPARE(*run.completed, qint64(320));
        QCOMPARE(run.isl, 1024);
        QCOMPARE(run.osl, 1024);
        QCOMPARE(run.workload, std::string("random 1k/1k"));
        QCOMPARE(run.runDate, std::string("2026-06-12"));

        // like vLLM's own, it needs what it ran on; without output tokens it says which fields would do
        auto none = importOne(*store, path);
        QVERIFY(!none.ok());
        QVERIFY2(QString::fromStdString(none.error()).contains(QStringLiteral("does not say what it ran on")),
            none.error().c_str());
        QByteArray noTokens = readAll(path);
        noTokens.replace("\"total_output_tokens\": 327680,", "");
        const QString cut = dir.filePath(QStringLiteral("no-output-tokens.json"));
        QVERIFY(writeFile(cut, noTokens));
        auto refused = importOne(*store, cut, o);
        QVERIFY(!refused.ok());
        for (const QString& word : { QStringLiteral("no-output-tokens.json"), QStringLiteral("output_throughput"),
                 QStringLiteral("total_output_tokens") })
            QVERIFY2(QString::fromStdString(refused.error()).contains(word), refused.error().c_str());
    }

    void zeroOptionalValueIsLeftOut()
    {
        // InferenceX writes 0 for an input throughput it did not measure: the records stay, the value is unset and
        // the result says so, naming the file, the records and the field
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        const QByteArray good = readAll(fixture("inferencex-agg/"
                                                "agg_kimik2.5_1k1k_int4_vllm_tp8-ep1-dpafalse_disagg-false_spec-mtp_"
                                                "conc4_MI355-gbt350-odcdh5-wbb3.json"));
        QVERIFY(good.contains("\"input_tput_per_gpu\": 27.948691873346146"));
        auto variant = [&](const char* conc, bool zero) {
            QByteArray g = good;
            g.replace("\"conc\": 4", QByteArray("\"conc\": ") + conc);
            if (zero)
                g.replace("\"input_tput_per_gpu\": 27.948691873346146", "\"input_tput_per_gpu\": 0");
            return g;
        };
        const QString path = dir.filePath(QStringLiteral("agg_bmk.json"));
        QVERIFY(writeFile(path,
            "[" + variant("4", true) + "," + variant("8", false) + "," + variant("16", true) + "," + variant("32", true)
                + "]"));
        auto r = importOne(*store, path);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().c_str());
        QCOMPARE(r->imported, 4u);
        QCOMPARE(r->notes.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(r->notes[0]),
            path + QStringLiteral(": 3 records (1, 3, 4): field 'input_tput_per_gpu' is 0, left out"));
        for (const StoredRun& run : allRuns(*store)) {
            QVERIFY(near(*run.record.tputPerGpu, 55.62670336516291, kRel));
            QVERIFY(near(*run.record.outputTputPerGpu, 27.678011491816765, kRel));
            if (run.record.concurrency == 8)
                QVERIFY(near(*run.record.inputTputPerGpu, 27.948691873346146, kRel));
            else
                QVERIFY(!run.record.inputTputPerGpu);
        }
        // the API rows too; a required value of 0 and a negative optional one are still refused
        QJsonArray rows
            = QJsonDocument::fromJson(readAll(fixture(QStringLiteral("inferencex-app-api/benchmarks.json")))).array();
        QJsonObject row = rows[0].toObject(), m = row[QStringLiteral("metrics")].toObject();
        m[QStringLiteral("input_tput_per_gpu")] = 0;
        row[QStringLiteral("metrics")] = m;
        const QString api = dir.filePath(QStringLiteral("api-row.json"));
        QVERIFY(writeFile(api, QJsonDocument(QJsonArray { row }).toJson()));
        auto a = importOne(*store, api);
        QVERIFY2(a.ok(), a.ok() ? "" : a.error().c_str());
        QCOMPARE(a->notes.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(a->notes[0]),
            api + QStringLiteral(": record 1: field 'metrics.input_tput_per_gpu' is 0, left out"));
        QByteArray negative = good;
        negative.replace("\"input_tput_per_gpu\": 27.948691873346146", "\"input_tput_per_gpu\": -1");
        QVERIFY(writeFile(path, negative));
        QVERIFY(!importOne(*store, path).ok());
        QByteArray zeroTput = good;
        zeroTput.replace("\"tput_per_gpu\": 55.62670336516291", "\"tput_per_gpu\": 0");
        QVERIFY(writeFile(path, zeroTput));
        auto required = importOne(*store, path);
        QVERIFY(!required.ok());
        QVERIFY2(QString::fromStdString(required.error()).contains(QStringLiteral("'tput_per_gpu': is zero")),
            required.error().c_str());
    }

    void datasetDecidesTheLengths()
    {
        // SGLang writes its random_*_len defaults whatever the dataset: only a random run has those lengths. A
        // ShareGPT run's are its measured means: 60,437 / 200 = 302.19 -> 302 in, 39,143 / 200 = 195.72 -> 196 out.
        // A random run keeps its nominal lengths even when its prompts were shorter (a range ratio): 1024/1024.
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        const QByteArray jsonl
            = R"({"backend": "sglang", "dataset_name": "sharegpt", "request_rate": "inf", "max_concurrency": 16, "random_input_len": 1024, "random_output_len": 1024, "duration": 40.0, "completed": 200, "total_input_tokens": 60437, "total_output_tokens": 39143, "request_throughput": 5.0, "input_throughput": 1510.925, "output_throughput": 978.575, "median_ttft_ms": 50.0, "median_tpot_ms": 12.5, "median_e2e_latency_ms": 2500.0}
{"backend": "sglang", "dataset_name": "random", "request_rate": "inf", "max_concurrency": 16, "random_input_len": 1024, "random_output_len": 1024, "duration": 60.0, "completed": 160, "total_input_tokens": 139264, "total_output_tokens": 148480, "request_throughput": 2.6, "input_throughput": 2321.07, "output_throughput": 2474.67, "median_ttft_ms": 100.0, "median_tpot_ms": 5.0, "median_e2e_latency_ms": 5200.0}
)";
        const QString path = dir.filePath(QStringLiteral("sglang.jsonl"));
        QVERIFY(writeFile(path, jsonl));
        ImportOptions o;
        o.hardware = "h200";
        o.gpus = 8;
        o.engine = "sglang";
        o.precision = "fp8";
        o.model = "DeepSeek-R1";
        auto r = importOne(*store, path, o);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().c_str());
        QCOMPARE(r->imported, 2u);
        auto runs = allRuns(*store);
        QCOMPARE(runs.size(), std::size_t(2));
        const RunRecord& share = runs[0].record.workload == "sharegpt" ? runs[0].record : runs[1].record;
        const RunRecord& random = runs[0].record.workload == "sharegpt" ? runs[1].record : runs[0].record;
        QCOMPARE(share.workload, std::string("sharegpt"));
        QCOMPARE(share.isl, 302);
        QCOMPARE(share.osl, 196);
        QCOMPARE(random.workload, std::string("random 1k/1k"));
        QCOMPARE(random.isl, 1024);
        QCOMPARE(random.osl, 1024);
        // said once, for the ShareGPT line only
        QCOMPARE(r->notes.size(), std::size_t(1));
        const QString note = QString::fromStdString(r->notes[0]);
        for (const QString& word : { path + QStringLiteral(": record 1: "), QString(QStringLiteral("sharegpt")),
                 QString(QStringLiteral("measured mean")),
                 QStringLiteral("random_input_len and random_output_len are ignored") })
            QVERIFY2(note.contains(word), qPrintable(note));
        // lengths from the caller win over both
        auto other = openTempStore(dir, QStringLiteral("other.sqlite"));
        o.isl = 300;
        o.osl = 200;
        QVERIFY(importOne(*other, path, o).ok());
        for (const StoredRun& run : allRuns(*other))
            QVERIFY(run.record.isl == 300 && run.record.osl == 200);
    }

    void formatFromContentNotName()
    {
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        const QString misnamed = dir.filePath(QStringLiteral("results.csv"));
        QDir agg(fixture(QStringLiteral("inferencex-agg")));
        QVERIFY(writeFile(misnamed, readAll(agg.filePath(agg.entryList({ QStringLiteral("*.json") })[0]))));
        auto r = importOne(*store, misnamed);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().c_str());
        QCOMPARE(r->format, std::string("inferencex-agg"));
    }

    void ownFormatsRoundTrip()
    {
        QTemporaryDir dir;
        auto a = openTempStore(dir, QStringLiteral("a.sqlite"));
        QVERIFY(importOne(*a, fixture(QStringLiteral("inferencex-app-api/benchmarks.json"))).ok());
        auto runs = allRuns(*a);
        const QString csv = dir.filePath(QStringLiteral("runs.csv")), json = dir.filePath(QStringLiteral("runs.json"));
        QVERIFY(writeFile(csv, QByteArray::fromStdString(runsCsv(runs))));
        QVERIFY(writeFile(json, QByteArray::fromStdString(runsJson(runs))));
        for (const QString& path : { csv, json }) {
            auto b = openTempStore(dir, QFileInfo(path).fileName() + QStringLiteral(".sqlite"));
            auto r = importOne(*b, path);
            QVERIFY2(r.ok(), r.ok() ? "" : r.error().c_str());
            QCOMPARE(
                r->format, std::string(path.endsWith(QStringLiteral("csv")) ? "paretoscope-csv" : "paretoscope-json"));
            QCOMPARE(r->imported, std::uint64_t(runs.size()));
            auto back = allRuns(*b);
            QCOMPARE(back.size(), runs.size());
            for (std::size_t i = 0; i < runs.size(); ++i) {
                RunRecord x = runs[i].record, y = back[i].record;
                x.provenance = y.provenance = {};
                // the content hash covers every field: equal hashes, equal records (doubles round-trip exactly)
                QCOMPARE(contentHash(x), contentHash(y));
            }
        }
    }

    void folderIsRecursive()
    {
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        QDir(dir.path()).mkpath(QStringLiteral("in/a/b"));
        QDir agg(fixture(QStringLiteral("inferencex-agg")));
        auto names = agg.entryList({ QStringLiteral("*.json") });
        QVERIFY(writeFile(dir.filePath(QStringLiteral("in/one.json")), readAll(agg.filePath(names[0]))));
        QVERIFY(writeFile(dir.filePath(QStringLiteral("in/a/b/two.json")), readAll(agg.filePath(names[1]))));
        QVERIFY(writeFile(dir.filePath(QStringLiteral("in/a/notes.txt")), "not data"));
        auto out = importPath(*store, dir.filePath(QStringLiteral("in")).toStdString(), {});
        QCOMPARE(out.size(), std::size_t(2));
        QVERIFY(out[0].result.ok() && out[1].result.ok());
        QCOMPARE(store->runCount(), 2);
    }

    void fromUrl()
    {
        QTemporaryDir dir;
        auto store = openTempStore(dir);
        TestServer server(readAll(fixture(QStringLiteral("inferencex-app-api/benchmarks.json"))).toStdString());
        const std::string url = server.url("/api/v1/benchmarks?model=DeepSeek-R1-0528");
        auto out = importPath(*store, url, {});
        QCOMPARE(out.size(), std::size_t(1));
        QVERIFY2(out[0].result.ok(), out[0].result.ok() ? "" : out[0].result.error().c_str());
        QCOMPARE(out[0].result->imported, 435u);
        QCOMPARE(out[0].source, url);
        QCOMPARE(out[0].result->sha256,
            std::string(
                "f46823a76cb63248705329f327e1494df02b4dfa4df0898b7ee084c75c20bd52")); // the digest its publisher gives
                                                                                      // (the fixtures' source notes)

        auto missing = importPath(*store, server.url("/api/v1/nothing"), {});
        QVERIFY(!missing[0].result.ok());
        QVERIFY2(QString::fromStdString(missing[0].result.error()).contains(QStringLiteral("HTTP 404")),
            missing[0].result.error().c_str());

        // a port nobody listens on: the offline case
        auto offline = importPath(*store, "http://127.0.0.1:9/api/v1/benchmarks", {});
        QVERIFY(!offline[0].result.ok());
        QVERIFY2(QString::fromStdString(offline[0].result.error()).contains(QStringLiteral("cannot reach")),
            offline[0].result.error().c_str());
        QCOMPARE(store->runCount(), 435);
    }
};

PARETOSCOPE_GUILESS_SUITE(TestImporters)
#include "tst_importers.moc"
