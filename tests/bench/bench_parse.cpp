// Reading records into RunRecords, the parsing thread's share of an import: the same 20,000 synthetic InferenceX
// aggregate records (cut out of the stream once, kept in memory) walked into the agg mapper and finished, by the
// flat reader (what the importer does) and by simdjson alone (what it did before), in one process. The ratio of the
// two times is the figure; the absolute ones move with the machine. Run them interleaved:
//   bench_parse --benchmark_repetitions=12 --benchmark_enable_random_interleaving=true
#include <benchmark/benchmark.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "core/analysis/planmix.h"
#include "core/analysis/tco.h"
#include "core/import/bytesource.h"
#include "core/import/documentstream.h"
#include "core/import/formats/jsonrecordparser.h"
#include "core/import/formats/recordmapper.h"
#include "core/live/matrix.h"
#include "core/model/outsidejson.h"
#include "core/sync/synccatalog.h"
#include "tests/support/agggenerator.h"

using namespace paretoscope;

namespace {

struct Records {
    std::vector<std::string> text; // each with 64 readable bytes after it, as the splitter leaves them
    Records()
    {
        const auto path = std::filesystem::temp_directory_path() / ("paretoscope-parse-" + std::to_string(::getpid()));
        testsupport::writeAggArray(path.string(), 20000);
        std::ifstream in(path);
        std::stringstream all;
        all << in.rdbuf();
        std::filesystem::remove(path);
        MemorySource source("agg.json", all.str());
        (void)forEachJsonElement(
            source, {},
            [&](const JsonElement& e) -> Status {
                text.emplace_back(std::string(e.text) + std::string(64, ' '));
                return ok();
            },
            nullptr);
    }
};

const Records& records()
{
    static const Records r;
    return r;
}

template <bool Flat> void BM_ReadRecords(benchmark::State& state)
{
    const Records& r = records();
    JsonRecordParser parser;
    auto mapper = makeMapper(Format::InferenceXAgg, {});
    for (auto _ : state) {
        for (const std::string& t : r.text) {
            JsonElement el;
            el.text = std::string_view(t.data(), t.size() - 64);
            el.capacity = t.size();
            mapper->begin();
            Status st = Flat ? parser.walk(el, *mapper) : parser.walkGeneral(el, *mapper);
            auto rec = mapper->finish();
            if (!st || !rec)
                state.SkipWithError("a record failed");
            benchmark::DoNotOptimize(rec);
        }
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * r.text.size()));
}
BENCHMARK(BM_ReadRecords<true>)->Name("read_records/flat_reader")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ReadRecords<false>)->Name("read_records/simdjson_only")->Unit(benchmark::kMillisecond);

// parseOutsideJson (availability lists, evaluations, matrices) on an array of N small objects, beside nlohmann's own
// parser on the same text: linear if the per-row time stays flat from 100,000 rows to 400,000 and the ratio to
// nlohmann's stays near 1 (the callback parser it replaced: 5 s at 100,000 rows, 15.6 s at 200,000)
std::string objectRows(std::int64_t n)
{
    std::string text = "[";
    for (std::int64_t i = 0; i < n; ++i)
        text += std::string(i ? "," : "")
            + "{\"model\":\"dsr1\",\"date\":\"2026-01-02\",\"isl\":1024,\"osl\":" + std::to_string(i) + "}";
    return text + "]";
}

void BM_OutsideJson(benchmark::State& state)
{
    const std::string text = objectRows(state.range(0));
    for (auto _ : state) {
        auto doc = parseOutsideJson(text, "rows.json", 64);
        if (!doc)
            state.SkipWithError(doc.error().c_str());
        benchmark::DoNotOptimize(doc);
    }
    state.SetItemsProcessed(state.iterations() * state.range(0));
}
void BM_NlohmannJson(benchmark::State& state)
{
    const std::string text = objectRows(state.range(0));
    for (auto _ : state)
        benchmark::DoNotOptimize(nlohmann::json::parse(text));
    state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_OutsideJson)->Name("outside_json")->Arg(100000)->Arg(400000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NlohmannJson)->Name("nlohmann_parse")->Arg(100000)->Arg(400000)->Unit(benchmark::kMillisecond);

// Each parser of outside data on 250,000 and 1,000,000 elements (issue 61: availability, a TCO file, a mix file, a
// matrix; the last three past their files' 16 MiB bound, to time the parser alone): linear
// where the time per element stays flat from N to 4N. A mix or a matrix over its part or configuration limit is read
// whole and then refused, and that refusal is what is timed (a --mix-file of 200,000 parts took 6.4 s; a --tco file
// of 100,000 entries 65 s).
std::string availabilityRows(std::int64_t n)
{
    std::string text = "[";
    for (std::int64_t i = 0; i < n; ++i)
        text += std::string(i ? "," : "") + "{\"model\":\"dsr1\",\"isl\":1024,\"osl\":" + std::to_string(1024 + i % 7)
            + ",\"precision\":\"fp4\",\"hardware\":\"b" + std::to_string(i % 50) + "\",\"framework\":\"sglang\","
            + "\"spec_method\":\"none\",\"disagg\":false,\"date\":\"2026-0" + std::to_string(1 + i % 9) + "-1"
            + std::to_string(i % 10) + "\"}";
    return text + "]";
}
std::string tcoEntries(std::int64_t n)
{
    std::string text = "{\"defaults\":{\"amortization_years\":4,\"power_basis\":\"all_in\","
                       "\"electricity_usd_per_kwh\":0.08},\"hardware\":{";
    for (std::int64_t i = 0; i < n; ++i)
        text += std::string(i ? "," : "") + "\"gpu" + std::to_string(i)
            + "\":{\"capex_per_gpu_usd\":30000,\"power_kw\":1.37}";
    return text + "}}";
}
std::string mixParts(std::int64_t n)
{
    std::string text = "{\"parts\":[";
    for (std::int64_t i = 0; i < n; ++i)
        text += std::string(i ? "," : "") + "{\"isl\":" + std::to_string(1 + i) + ",\"osl\":1024,\"share\":0.5}";
    return text + "]}";
}
std::string matrixConfigurations(std::int64_t n)
{
    std::string text = "{\"configurations\":[";
    for (std::int64_t i = 0; i < n; ++i)
        text += std::string(i ? "," : "") + "{\"name\":\"c" + std::to_string(i)
            + "\",\"recipe\":\"sim\",\"profile\":\"b300-sim\",\"tp\":8,\"isl\":1024,\"osl\":128,\"concurrency\":[1,4]}";
    return text + "]}";
}

// The resident memory now, and its peak since the last reset (VmRSS, VmHWM), in MB.
double statusMb(const char* field)
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind(field, 0) == 0)
            return std::strtod(line.c_str() + std::strlen(field), nullptr) / 1024.0;
    return -1;
}

// Also the parse's peak memory above what the process held with the text in memory ("peak_mb", VmHWM after a reset
// less VmRSS before): bounded by the parser's result, not the text's size
template <std::string (*Make)(std::int64_t), typename Parse> void timeParser(benchmark::State& state, Parse parse)
{
    const std::string text = Make(state.range(0));
    std::ofstream("/proc/self/clear_refs") << "5";
    const double before = statusMb("VmRSS:");
    for (auto _ : state)
        benchmark::DoNotOptimize(parse(text));
    state.SetItemsProcessed(state.iterations() * state.range(0));
    state.counters["MB"] = static_cast<double>(text.size()) / 1e6;
    state.counters["peak_mb"] = statusMb("VmHWM:") - before;
}
void BM_Availability(benchmark::State& state)
{
    timeParser<availabilityRows>(state, [](const std::string& t) { return parseAvailability(t, "availability").ok(); });
}
void BM_Tco(benchmark::State& state)
{
    timeParser<tcoEntries>(state, [](const std::string& t) { return parseTco(t, "tco.json").ok(); });
}
void BM_MixFile(benchmark::State& state)
{
    timeParser<mixParts>(state, [](const std::string& t) { return parseMixFile(t, "mix.json", Scope {}).ok(); });
}
void BM_Matrix(benchmark::State& state)
{
    timeParser<matrixConfigurations>(state, [](const std::string& t) { return parseMatrix(t, "matrix.json").ok(); });
}
BENCHMARK(BM_Availability)->Name("formats/availability")->Arg(250000)->Arg(1000000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Tco)->Name("formats/tco")->Arg(250000)->Arg(1000000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MixFile)->Name("formats/mix_file")->Arg(250000)->Arg(1000000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Matrix)->Name("formats/matrix")->Arg(250000)->Arg(1000000)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
