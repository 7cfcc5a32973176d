// Ladder recompute with many runs in the store: what the interactivity slider triggers. The store is built once
// (PARETOSCOPE_BENCH_RECORDS records, default 1,000,000) in a temporary folder; a warm recompute reads the cached
// frontiers (a binary search and a cubic per group), a cold one rebuilds them from SQLite. With accuracy: the same
// warm ladder with each reading's accuracy (PARETOSCOPE_BENCH_EVALUATIONS evaluations, default 100,000, spread over
// the scope's groups and 50 dates) and a --min-accuracy requirement judged, beside the plain one as its peer.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include "core/analysis/frontiercache.h"
#include "core/analysis/ladder.h"
#include "core/analysis/ladderaccuracy.h"
#include "core/import/importer.h"
#include "core/store/evaluationstore.h"
#include "tests/support/agggenerator.h"

using namespace paretoscope;

namespace {
struct Fixture {
    std::filesystem::path dir;
    std::unique_ptr<RunStore> store;
    std::unique_ptr<FrontierCache> cache;
    LadderRequest request;
    EvaluationIndex evaluations;

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
        addEvaluations();
    }
    // evaluations of the scope's groups: per group, configurations (tp 1 to 8) evaluated on dates through 2026
    void addEvaluations()
    {
        const char* env = std::getenv("PARETOSCOPE_BENCH_EVALUATIONS");
        const std::uint64_t n = env ? std::strtoull(env, nullptr, 10) : 100000;
        const auto& groups = cache->frontiers(request.scope, request.metric);
        if (groups.empty())
            return;
        std::vector<GroupKey> keys;
        keys.reserve(groups.size());
        for (const GroupFrontier& g : groups)
            keys.push_back(g.key);
        const std::vector<EvaluationRecord> records = testsupport::syntheticEvaluations(request.scope.model, keys, n);
        Provenance p { "bench-evaluations", "", "inferencex-evaluations", 0, "" };
        if (auto w = storeEvaluations(*store, p, records); !w)
            std::fprintf(stderr, "evaluations failed: %s\n", w.error().c_str());
        auto t0 = std::chrono::steady_clock::now();
        evaluations = EvaluationIndex(storedEvaluations(*store, request.scope.model));
        std::fprintf(stderr, "evaluations: %lld stored, read and indexed in %.0f ms\n", evaluationCount(*store),
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
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

void BM_LadderWarmWithAccuracy(benchmark::State& state)
{
    Fixture& f = fixture();
    computeLadder(*f.cache, bundledPricing(), f.request); // fill the cache
    LadderRequest req = f.request;
    req.accuracy = *parseAccuracyRequirement("gsm8k:0.93");
    double target = 30;
    for (auto _ : state) {
        req.targets = { target, 50, 75, 100, 150, 200 };
        req.excludedGroups.clear();
        const auto& groups = f.cache->frontiers(req.scope, req.metric);
        applyAccuracyRequirement(req, groups, f.evaluations);
        auto l = computeLadder(groups, bundledPricing(), req);
        if (l)
            attachAccuracy(*l, f.evaluations, "gsm8k", {});
        benchmark::DoNotOptimize(l);
        target = target < 200 ? target + 0.7 : 30; // a slider moving
    }
}
BENCHMARK(BM_LadderWarmWithAccuracy)->Unit(benchmark::kMicrosecond);

// The same, each reading's accuracy read on the evaluated configuration closest to its own (the frontier knot
// nearest the target; the knots' configurations read once, as the explorer reads them with the scope)
void BM_LadderWarmWithAccuracyOfItsConfiguration(benchmark::State& state)
{
    Fixture& f = fixture();
    computeLadder(*f.cache, bundledPricing(), f.request); // fill the cache
    LadderRequest req = f.request;
    req.accuracy = *parseAccuracyRequirement("gsm8k:0.93");
    const auto& groups = f.cache->frontiers(req.scope, req.metric);
    const KnotConfigurations configurations = knotConfigurations(*f.store, groups);
    double target = 30;
    for (auto _ : state) {
        req.targets = { target, 50, 75, 100, 150, 200 };
        req.excludedGroups.clear();
        applyAccuracyRequirement(req, groups, f.evaluations);
        auto l = computeLadder(groups, bundledPricing(), req);
        if (l)
            attachAccuracy(*l, f.evaluations, "gsm8k", {}, &groups, &configurations);
        benchmark::DoNotOptimize(l);
        target = target < 200 ? target + 0.7 : 30; // a slider moving
    }
}
BENCHMARK(BM_LadderWarmWithAccuracyOfItsConfiguration)->Unit(benchmark::kMicrosecond);

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
