// A sync (docs/sync.md) of N InferenceX API rows (default 100,000) served by a local HTTP server from a file,
// against importing the same file: the sync's time as a ratio to the import's (the goal: within 1.5x), the sync's
// peak memory (VmHWM after resetting it, the goal: under 150 MB), and a second sync with nothing new (the goal: under
// a second). Rows are the real DeepSeek-R1 rows of ../shared/fixtures/real/inferencex-app-api/benchmarks.json made
// distinct (concurrency and date), all of one sequence. Prints one JSON line.
// Usage: bench_sync [ROWS]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "core/import/importer.h"
#include "core/model/runselection.h"
#include "core/store/runstore.h"
#include "core/sync/sync.h"
#include "tests/support/testpaths.h"
#include "tests/support/testserver.h"

using namespace paretoscope;
using nlohmann::json;

namespace {

double seconds(std::chrono::steady_clock::time_point since)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// The peak resident memory since the last reset, in MB.
double peakMb()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmHWM:", 0) == 0)
            return std::strtod(line.c_str() + 6, nullptr) / 1024.0;
    return -1;
}

void resetPeak()
{
    std::ofstream("/proc/self/clear_refs") << "5";
}

std::unique_ptr<RunStore> freshStore(const std::filesystem::path& path)
{
    std::filesystem::remove(path);
    auto s = RunStore::open(path.string());
    if (!s) {
        std::fprintf(stderr, "%s\n", s.error().c_str());
        std::exit(1);
    }
    return std::move(*s);
}

int run(int argc, char** argv)
{
    const std::uint64_t rows = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 100000;
    const auto dir = std::filesystem::temp_directory_path() / ("paretoscope-bench-sync-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    json fixture;
    {
        std::ifstream in(testsupport::fixturesDir().toStdString() + "/inferencex-app-api/benchmarks.json");
        fixture = json::parse(in);
    }
    // the rows, one sequence, over 64 dates; the availability list of those dates
    const std::string data = (dir / "history.json").string();
    std::set<std::string> dates;
    {
        std::ofstream out(data);
        out << "[";
        for (std::uint64_t i = 0; i < rows; ++i) {
            json r = fixture[i % fixture.size()];
            const std::uint64_t round = i / fixture.size();
            r["isl"] = 1024;
            r["osl"] = 1024;
            r["conc"] = r["conc"].get<int>() + static_cast<int>(round % 1000) * 1024;
            const std::string date = dayText(20260101 + static_cast<int>(round % 28));
            r["date"] = date;
            dates.insert(date);
            out << (i ? "," : "") << r.dump();
        }
        out << "]";
    }
    const std::string availability = (dir / "availability.json").string();
    {
        json list = json::array();
        for (const std::string& d : dates)
            list.push_back(
                { { "model", "dsr1" }, { "isl", 1024 }, { "osl", 1024 }, { "precision", "fp4" }, { "hardware", "b200" },
                    { "framework", "sglang" }, { "spec_method", "none" }, { "disagg", false }, { "date", d } });
        std::ofstream(availability) << list.dump();
    }
    testsupport::TestServer server("[]");
    server.serveFile("/api/v1/availability", availability);
    server.serveFile("/api/v1/benchmarks/history", data);

    auto t0 = std::chrono::steady_clock::now();
    {
        auto store = freshStore(dir / "import.sqlite");
        auto out = importPath(*store, data, {});
        if (!out[0].result) {
            std::fprintf(stderr, "import: %s\n", out[0].result.error().c_str());
            return 1;
        }
    }
    const double importSeconds = seconds(t0);

    SyncOptions options;
    options.source = "http://127.0.0.1:" + std::to_string(server.port()) + "/api/v1";
    auto store = freshStore(dir / "sync.sqlite");
    resetPeak();
    const double before = peakMb();
    t0 = std::chrono::steady_clock::now();
    auto plan = planSync(*store, options);
    if (!plan) {
        std::fprintf(stderr, "plan: %s\n", plan.error().c_str());
        return 1;
    }
    const SyncReport report = runSync(*store, *plan, options, {});
    const double syncSeconds = seconds(t0);
    const double peak = peakMb();
    if (report.failed() > 0 || store->runCount() != static_cast<long long>(rows)) {
        std::fprintf(stderr, "sync: %s\n", syncReportJson(report).c_str());
        return 1;
    }

    // of the sync: reading the changes (the ladders of the scopes it touched, once before and once after)
    t0 = std::chrono::steady_clock::now();
    (void)snapshotReadings(*store, { ReadingScope { "dsr1", SyncSequence { 1024, 1024, false } } });
    const double snapshotSeconds = seconds(t0);

    t0 = std::chrono::steady_clock::now();
    {
        auto again = freshStore(dir / "import2.sqlite");
        importPath(*again, data, {});
    }
    const double importAgainSeconds = seconds(t0);

    t0 = std::chrono::steady_clock::now();
    auto nothing = planSync(*store, options);
    const SyncReport second = runSync(*store, *nothing, options, {});
    const double nothingNewSeconds = seconds(t0);

    const double importMean = (importSeconds + importAgainSeconds) / 2;
    std::printf("{\"rows\":%llu,\"import_s\":[%.2f,%.2f],\"sync_s\":%.2f,\"sync_to_import\":%.2f,"
                "\"sync_peak_mb\":%.1f,\"readings_snapshot_s\":%.2f,\"rss_before_sync_mb\":%.1f,\"nothing_new_s\":%.3f,"
                "\"nothing_new_items\":%zu}\n",
        static_cast<unsigned long long>(rows), importSeconds, importAgainSeconds, syncSeconds, syncSeconds / importMean,
        peak, snapshotSeconds, before, nothingNewSeconds, second.items.size());
    std::filesystem::remove_all(dir);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    try {
        return run(argc, argv);
    } catch (const std::exception& e) { // the fixture unreadable, a disk full
        std::fprintf(stderr, "bench_sync: %s\n", e.what());
        return 1;
    }
}
