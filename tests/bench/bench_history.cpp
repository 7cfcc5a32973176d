// Time on a large store: the history of a reading (what `paretoscope-cli history` computes) and a step of a replay
// through the run dates (reselect the runs as of a date, rebuild the frontiers, read the ladder). The store is built
// once (PARETOSCOPE_BENCH_RECORDS records, default 1,000,000, dated over 64 days: every configuration measured
// again on later days) in a temporary folder; PARETOSCOPE_BENCH_KEEP=PATH keeps it there to time the CLI on it.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <memory>

#include "core/analysis/frontiercache.h"
#include "core/analysis/history.h"
#include "core/import/importer.h"
#include "tests/support/agggenerator.h"

using namespace paretoscope;

namespace {
struct Fixture {
    std::filesystem::path dir;
    std::string keep;
    std::unique_ptr<RunStore> store;
    Scope scope;

    Fixture()
    {
        const char* env = std::getenv("PARETOSCOPE_BENCH_RECORDS");
        const std::uint64_t n = env ? std::strtoull(env, nullptr, 10) : 1000000;
        keep = std::getenv("PARETOSCOPE_BENCH_KEEP") ? std::getenv("PARETOSCOPE_BENCH_KEEP") : "";
        dir = std::filesystem::temp_directory_path() / ("paretoscope-bench-history-" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir);
        const std::string data = (dir / "agg.json").string();
        testsupport::writeAggArray(data, n, 1, 64);
        const std::string path = keep.empty() ? (dir / "store.sqlite").string() : keep;
        store = std::move(*RunStore::open(path));
        auto out = importPath(*store, data, {});
        if (!out[0].result.ok())
            std::fprintf(stderr, "import failed: %s\n", out[0].result.error().c_str());
        std::filesystem::remove(data);
        std::fprintf(stderr, "store: %lld runs\n", store->runCount());
        scope.model = "synthetic/model-0";
        scope.isl = 1024;
        scope.osl = 1024;
    }
    ~Fixture() { std::filesystem::remove_all(dir); }
};

Fixture& fixture()
{
    static Fixture f;
    return f;
}

// What the history command does after opening the store: read the scope once, then a ladder per run date.
void BM_History(benchmark::State& state)
{
    Fixture& f = fixture();
    HistoryRequest req;
    req.scope = f.scope;
    for (auto _ : state) {
        const ScopeTimeline timeline = ScopeTimeline::load(*f.store, f.scope, TputMetric::Total);
        auto h = computeHistory(timeline, bundledPricing(), req);
        benchmark::DoNotOptimize(h);
        state.counters["days"] = static_cast<double>(timeline.days().size());
        state.counters["runs"] = static_cast<double>(timeline.runCount());
    }
}
BENCHMARK(BM_History)->Unit(benchmark::kMillisecond)->Iterations(3);

// What the explorer's History tab computes when the target or the price moves: the history on the scope's runs
// already in memory (the timeline the scope was loaded with), without reading the store.
void BM_HistoryOnTimeline(benchmark::State& state)
{
    Fixture& f = fixture();
    const ScopeTimeline timeline = ScopeTimeline::load(*f.store, f.scope, TputMetric::Total);
    HistoryRequest req;
    req.scope = f.scope;
    double target = 30;
    for (auto _ : state) {
        req.target = target;
        auto h = computeHistory(timeline, bundledPricing(), req);
        benchmark::DoNotOptimize(h);
        target = target >= 200 ? 30 : target + 10;
    }
}
BENCHMARK(BM_HistoryOnTimeline)->Unit(benchmark::kMillisecond)->Iterations(5);

// The same for its "compare two dates" mode: the ladder at six targets as of the first and the latest run date.
void BM_DiffOnTimeline(benchmark::State& state)
{
    Fixture& f = fixture();
    const ScopeTimeline timeline = ScopeTimeline::load(*f.store, f.scope, TputMetric::Total);
    LadderRequest req;
    req.scope = f.scope;
    for (auto _ : state) {
        auto d = computeDiff(timeline, bundledPricing(), req, timeline.days().front(), timeline.days().back());
        benchmark::DoNotOptimize(d);
    }
}
BENCHMARK(BM_DiffOnTimeline)->Unit(benchmark::kMillisecond)->Iterations(5);

// One step of a replay with the scope's runs in memory: the runs as of the next date, every frontier, the ladder.
void BM_ReplayStep(benchmark::State& state)
{
    Fixture& f = fixture();
    const ScopeTimeline timeline = ScopeTimeline::load(*f.store, f.scope, TputMetric::Total);
    LadderRequest req;
    req.scope = f.scope;
    std::size_t d = 0;
    for (auto _ : state) {
        auto l = computeLadder(timeline.frontiersAsOf(timeline.days()[d]), bundledPricing(), req);
        benchmark::DoNotOptimize(l);
        d = (d + 1) % timeline.days().size();
    }
}
BENCHMARK(BM_ReplayStep)->Unit(benchmark::kMillisecond)->Iterations(64);

// A cold ladder of the latest runs (as `ladder` computes it), against the same with every run.
void BM_LadderCold(benchmark::State& state)
{
    Fixture& f = fixture();
    LadderRequest req;
    req.scope = f.scope;
    req.scope.runs = state.range(0) ? RunSelection::All : RunSelection::Latest;
    for (auto _ : state) {
        FrontierCache cache(*f.store);
        auto l = computeLadder(cache, bundledPricing(), req);
        benchmark::DoNotOptimize(l);
    }
}
BENCHMARK(BM_LadderCold)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(5);
} // namespace

BENCHMARK_MAIN();
