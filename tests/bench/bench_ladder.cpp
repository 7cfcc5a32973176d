// Ladder recompute with many runs in the store: what the interactivity slider triggers. The store is built once
// (PARETOSCOPE_BENCH_RECORDS records, default 1,000,000) in a temporary folder; a warm recompute reads the cached
// frontiers (a binary search and a cubic per group), a cold one rebuilds them from SQLite.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <memory>

#include "core/analysis/frontiercache.h"
#include "core/analysis/ladder.h"
#include "core/import/importer.h"
#include "tests/support/agggenerator.h"

using namespace paretoscope;

namespace {
struct Fixture {
    std::filesystem::path dir;
    std::unique_ptr<RunStore> store;
    std::unique_ptr<FrontierCache> cache;
    LadderRequest request;

    Fixture()
    {
        const char* env = std::getenv("PARETOSCOPE_BENCH_RECORDS");
        const std::uint64_t n = env ? std::strtoull(env, nullptr, 10) : 1000000;
        dir = std::filesystem::temp_directory_path() / ("paretoscope-bench-" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir);
        const std::string data = (dir / "agg.json").string();
        testsupport::writeAggArray(data, n);
        store = std::move(*RunStore::open((dir / "store.sqlite").string()));
        auto out = importPath(*store, data, {});
        if (!out[0].result.ok())
            std::fprintf(stderr, "import failed: %s\n", out[0].result.error().c_str());
        std::filesystem::remove(data);
        std::fprintf(stderr, "store: %lld runs\n", store->runCount());
        cache = std::make_unique<FrontierCache>(*store);
        request.scope.model = "synthetic/model-0";
        request.scope.isl = 1024;
        request.scope.osl = 1024;
    }
    ~Fixture() { std::filesystem::remove_all(dir); }
};

Fixture& fixture()
{
    static Fixture f;
    return f;
}

void BM_LadderWarm(benchmark::State& state)
{
    Fixture& f = fixture();
    computeLadder(*f.cache, bundledPricing(), f.request); // fill the cache
    double target = 30;
    for (auto _ : state) {
        f.request.targets = { target, 50, 75, 100, 150, 200 };
        auto l = computeLadder(*f.cache, bundledPricing(), f.request);
        benchmark::DoNotOptimize(l);
        target = target < 200 ? target + 0.7 : 30; // a slider moving
    }
}
BENCHMARK(BM_LadderWarm)->Unit(benchmark::kMicrosecond);

void BM_LadderCold(benchmark::State& state)
{
    Fixture& f = fixture();
    for (auto _ : state) {
        f.cache->clear();
        auto l = computeLadder(*f.cache, bundledPricing(), f.request);
        benchmark::DoNotOptimize(l);
    }
}
BENCHMARK(BM_LadderCold)->Unit(benchmark::kMillisecond)->Iterations(5);
} // namespace

BENCHMARK_MAIN();
