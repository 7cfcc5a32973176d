// The report (docs/report.md) of one scope with a plan on a big store: what `paretoscope-cli report` and File >
// Export report... build, from the store to the HTML text (goal: under 2 s). The store is built once
// (PARETOSCOPE_BENCH_RECORDS records, default 1,000,000) in a temporary folder. BM_Report is the whole report with a
// demand plan (a cold frontier cache each time, as a command has); BM_ReportHtml and BM_ReportPdf only write a built
// one as HTML (its three SVG charts) and as PDF.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <unistd.h>

#include "core/import/importer.h"
#include "core/output/reportbuild.h"
#include "core/store/runstore.h"
#include "tests/support/agggenerator.h"

using namespace paretoscope;

namespace {

struct Fixture {
    std::filesystem::path dir;
    std::unique_ptr<RunStore> store;
    ReportRequest request;

    Fixture()
    {
        const char* env = std::getenv("PARETOSCOPE_BENCH_RECORDS");
        const std::uint64_t n = env ? std::strtoull(env, nullptr, 10) : 1000000;
        dir = std::filesystem::temp_directory_path() / ("paretoscope-bench-report-" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir);
        const std::string file = (dir / "agg.json").string();
        testsupport::writeAggArray(file, n);
        store = std::move(*RunStore::open((dir / "store.sqlite").string()));
        auto out = importPath(*store, file, {});
        if (!out[0].result.ok())
            std::fprintf(stderr, "import failed: %s\n", out[0].result.error().c_str());
        std::filesystem::remove(file);
        request.view.request.scope.model = "synthetic/model-0";
        request.view.request.scope.isl = 1024;
        request.view.request.scope.osl = 1024;
        request.view.baseline = "h200";
        PlanRequest plan;
        plan.scope = request.view.request.scope;
        plan.demand = 1e6;
        plan.unit = DemandUnit::TokPerS;
        request.plan = plan;
        std::fprintf(stderr, "store: %lld runs\n", store->runCount());
    }
    ~Fixture() { std::filesystem::remove_all(dir); }
};

Fixture& fixture()
{
    static Fixture f;
    return f;
}

void BM_Report(benchmark::State& state)
{
    Fixture& f = fixture();
    std::size_t bytes = 0;
    for (auto _ : state) {
        ReportOutcome report = buildReport(*f.store, f.request);
        if (!report.doc) {
            state.SkipWithError(report.error.c_str());
            return;
        }
        const std::string html = reportHtml(*report.doc);
        bytes = html.size();
        benchmark::DoNotOptimize(html);
    }
    state.counters["html_kb"] = double(bytes) / 1024;
}
BENCHMARK(BM_Report)->Unit(benchmark::kMillisecond)->Iterations(5);

void BM_ReportHtml(benchmark::State& state)
{
    Fixture& f = fixture();
    const ReportOutcome report = buildReport(*f.store, f.request);
    if (!report.doc) {
        state.SkipWithError(report.error.c_str());
        return;
    }
    for (auto _ : state)
        benchmark::DoNotOptimize(reportHtml(*report.doc));
}
BENCHMARK(BM_ReportHtml)->Unit(benchmark::kMillisecond);

void BM_ReportPdf(benchmark::State& state)
{
    Fixture& f = fixture();
    const ReportOutcome report = buildReport(*f.store, f.request);
    if (!report.doc) {
        state.SkipWithError(report.error.c_str());
        return;
    }
    for (auto _ : state)
        benchmark::DoNotOptimize(reportPdf(*report.doc));
}
BENCHMARK(BM_ReportPdf)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
