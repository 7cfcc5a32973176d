// Capacity-plan recompute with many runs in the store: what the Plan tab does when the slider moves. The store is
// built once (PARETOSCOPE_BENCH_RECORDS records, default 1,000,000) in a temporary folder; the plan's frontiers are
// loaded once (BM_PlanLoad measures that store side), and a warm recompute is the plan at the target plus its
// cost-of-speed curve of 20 targets, from memory (goal: under 1 ms). BM_MixWarm plans a mix of the model's three
// scopes (1k/1k, 8k/1k, 1k/8k) from their loaded frontiers (goal: under 3 ms); BM_CostCapWarm and BM_BudgetWarm
// answer a cost cap and a budget on the 1k/1k scope.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <unistd.h>

#include "core/analysis/plan.h"
#include "core/analysis/planbudget.h"
#include "core/analysis/plancap.h"
#include "core/analysis/planmix.h"
#include "core/import/importer.h"
#include "tests/support/agggenerator.h"

using namespace paretoscope;

namespace {
struct Fixture {
    std::filesystem::path dir;
    std::unique_ptr<RunStore> store;
    PlanRequest request;
    PlanFrontiers data;
    std::vector<MixPart> mix;
    std::vector<PlanFrontiers> mixData;

    Fixture()
    {
        const char* env = std::getenv("PARETOSCOPE_BENCH_RECORDS");
        const std::uint64_t n = env ? std::strtoull(env, nullptr, 10) : 1000000;
        dir = std::filesystem::temp_directory_path() / ("paretoscope-bench-plan-" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir);
        const std::string file = (dir / "agg.json").string();
        testsupport::writeAggArray(file, n);
        store = std::move(*RunStore::open((dir / "store.sqlite").string()));
        auto out = importPath(*store, file, {});
        if (!out[0].result.ok())
            std::fprintf(stderr, "import failed: %s\n", out[0].result.error().c_str());
        std::filesystem::remove(file);
        request.scope.model = "synthetic/model-0";
        request.scope.isl = 1024;
        request.scope.osl = 1024;
        request.demand = 1e6;
        request.unit = DemandUnit::TokPerS;
        data = loadPlanFrontiers(*store, request.scope);
        std::size_t knots = 0;
        for (const GroupFrontier& g : data.total)
            knots += g.points.size();
        mix = *parseMixSpec("1024/1024:0.5,8192/1024:0.3,1024/8192:0.2", request.scope);
        for (const MixPart& p : mix)
            mixData.push_back(loadPlanFrontiers(*store, p.scope));
        std::fprintf(stderr, "store: %lld runs; scope: %zu hardware, %zu groups, %zu knots\n", store->runCount(),
            data.hardwareWithoutLimits.size(), data.total.size(), knots);
    }
    ~Fixture() { std::filesystem::remove_all(dir); }
};

Fixture& fixture()
{
    static Fixture f;
    return f;
}

std::vector<double> curveTargets()
{
    std::vector<double> t;
    for (int i = 1; i <= 20; ++i)
        t.push_back(10.0 * i);
    return t;
}

void BM_PlanWarm(benchmark::State& state)
{
    Fixture& f = fixture();
    const std::vector<double> targets = curveTargets();
    double target = 30;
    for (auto _ : state) {
        f.request.target = target;
        auto plan = computePlan(f.data, f.request);
        auto curve = costOfSpeed(f.data, f.request, targets);
        benchmark::DoNotOptimize(plan);
        benchmark::DoNotOptimize(curve);
        target = target < 200 ? target + 0.7 : 30; // a slider moving
    }
}
BENCHMARK(BM_PlanWarm)->Unit(benchmark::kMicrosecond);

void BM_MixWarm(benchmark::State& state)
{
    Fixture& f = fixture();
    std::vector<const PlanFrontiers*> data;
    data.reserve(f.mixData.size());
    for (const PlanFrontiers& d : f.mixData)
        data.push_back(&d);
    double target = 30;
    for (auto _ : state) {
        f.request.target = target;
        auto plan = computeMixPlan(data, f.request, f.mix);
        benchmark::DoNotOptimize(plan);
        target = target < 200 ? target + 0.7 : 30;
    }
}
BENCHMARK(BM_MixWarm)->Unit(benchmark::kMicrosecond);

void BM_CostCapWarm(benchmark::State& state)
{
    Fixture& f = fixture();
    f.request.target = 50;
    double cap = 0.1;
    for (auto _ : state) {
        auto plan = computeCostCap(f.data, f.request, cap);
        benchmark::DoNotOptimize(plan);
        cap = cap < 2 ? cap * 1.1 : 0.1;
    }
}
BENCHMARK(BM_CostCapWarm)->Unit(benchmark::kMicrosecond);

void BM_BudgetWarm(benchmark::State& state)
{
    Fixture& f = fixture();
    double target = 30;
    for (auto _ : state) {
        f.request.target = target;
        auto plan = computeBudgetPlan(f.data, f.request, BudgetKind::Megawatts, 10);
        benchmark::DoNotOptimize(plan);
        target = target < 200 ? target + 0.7 : 30;
    }
}
BENCHMARK(BM_BudgetWarm)->Unit(benchmark::kMicrosecond);

void BM_PlanLoad(benchmark::State& state)
{
    Fixture& f = fixture();
    for (auto _ : state) {
        auto data = loadPlanFrontiers(*f.store, f.request.scope);
        benchmark::DoNotOptimize(data);
    }
}
BENCHMARK(BM_PlanLoad)->Unit(benchmark::kMillisecond)->Iterations(3);
} // namespace

BENCHMARK_MAIN();
