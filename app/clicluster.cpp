// bench --matrix and the cluster command: the commands over core/live/matrix.h and core/live/cluster.h.
#include "app/clicluster.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "app/clibench.h"
#include "core/live/cluster.h"
#include "core/live/matrix.h"
#include "core/model/datafiles.h"
#include "core/model/outsidefile.h"
#include "core/model/outsidejson.h"
#include "core/model/printable.h"

namespace paretoscope::cli {

namespace {

std::atomic<bool> g_stop { false };

void onStop(int)
{
    g_stop = true;
}

// This executable's own path: the tasks run the same paretoscope-cli (a shared file system, as clusters have).
std::string selfPath()
{
    std::error_code ec;
    auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string("paretoscope-cli") : p.string();
}

// Runs each configuration here through bench itself, one after another; a failed one does not stop the rest.
int runMatrixHere(const Invocation& in, const Matrix& m)
{
    int failed = 0;
    for (std::size_t i = 0; i < m.configurations.size(); ++i) {
        const MatrixConfig& c = m.configurations[i];
        if (auto why = unrunnableReason(c)) {
            std::cerr << "paretoscope-cli: configuration " << i << " (" << c.name << ") not run: " << *why << "\n";
            ++failed;
            continue;
        }
        std::vector<std::string> words { "paretoscope-cli", "bench" };
        for (const std::string& w : benchArguments(c))
            words.push_back(w);
        for (const char* option : { "db", "api-key-env" })
            if (auto v = in.args.value(option))
                words.insert(words.end(), { std::string("--") + option, *v });
        std::vector<char*> argv;
        argv.reserve(words.size());
        for (std::string& w : words)
            argv.push_back(w.data());
        std::string error;
        auto args = parseArgs(static_cast<int>(argv.size()), argv.data(), { { "bench", benchOptions() } }, error);
        std::cerr << "paretoscope-cli: configuration " << i << " (" << c.name << ") of " << m.configurations.size()
                  << "\n";
        int rc = args ? cmdBench(Invocation { *args, StoreNeed::Write, static_cast<int>(argv.size()), argv.data() })
                      : usageError(error);
        failed += rc != 0;
    }
    if (failed > 0)
        std::cerr << "paretoscope-cli: " << failed << " of " << m.configurations.size() << " configuration(s) failed\n";
    return failed > 0 ? 1 : 0;
}

std::string statusJson(const ArrayStatus& st)
{
    nlohmann::json tasks = nlohmann::json::array();
    for (const TaskStatus& t : st.tasks) {
        nlohmann::json j { { "task", t.task }, { "name", t.name }, { "state", t.state }, { "collected", t.collected } };
        if (!t.reason.empty())
            j["reason"] = t.reason;
        if (!t.results.empty())
            j["results"] = t.results;
        tasks.push_back(j);
    }
    nlohmann::json j { { "jobs", st.jobIds }, { "ended", st.ended }, { "tasks", tasks } };
    if (!st.note.empty())
        j["note"] = st.note;
    return jsonText(j);
}

void printStatus(const ArrayStatus& st, const std::string& format)
{
    if (format == "json") {
        std::cout << statusJson(st) << "\n";
        return;
    }
    std::string jobs;
    for (const std::string& id : st.jobIds)
        jobs += (jobs.empty() ? "" : ",") + id;
    std::cout << (jobs.empty() ? std::string("array") : "job " + jobs) << (st.ended ? ": ended" : "")
              << (st.note.empty() ? "" : " (" + st.note + ")") << "\n";
    for (const TaskStatus& t : st.tasks)
        std::cout << t.task << "\t" << t.state << "\t" << t.name << (t.collected ? "\tcollected" : "")
                  << (t.reason.empty() ? "" : "\t" + t.reason) << "\n";
}

// One pass of collect: imports what finished since, one JSON line per task imported.
bool collectOnce(RunStore& store, const std::string& dir, ArrayStatus& st)
{
    bool allOk = true;
    for (const Collected& c : collectFinished(store, dir, st)) {
        nlohmann::json j { { "task", c.task }, { "name", st.tasks[static_cast<std::size_t>(c.task)].name } };
        if (c.error.empty()) {
            j["imported"] = c.imported;
            j["duplicates"] = c.duplicates;
        } else {
            j["error"] = c.error;
            allOk = false;
        }
        std::cout << jsonText(j) << std::endl;
    }
    return allOk;
}

int collect(const Invocation& in, const std::string& dir)
{
    double interval = 5;
    if (auto v = in.args.value("interval")) {
        auto d = parseDouble(*v);
        if (!d || *d <= 0 || *d > 3600)
            return usageError("--interval takes seconds above zero, up to 3600");
        interval = *d;
    }
    auto store = in.store();
    if (!store)
        return 1;
    const bool watch = in.args.has("watch");
    std::signal(SIGINT, onStop);
    std::signal(SIGTERM, onStop);
    bool allOk = true;
    for (;;) {
        auto st = arrayStatus(dir, store->path());
        if (!st) {
            std::cerr << "paretoscope-cli: " << st.error() << "\n";
            return 1;
        }
        allOk = collectOnce(*store, dir, *st) && allOk;
        if (!watch || st->ended || g_stop) {
            // what finished is imported first; a failed task then makes the exit status 1, as a failed import does
            int failed = 0;
            for (const TaskStatus& t : st->tasks)
                if (t.state == "failed") {
                    ++failed;
                    std::cout << jsonText(
                        { { "task", t.task }, { "name", t.name }, { "state", "failed" }, { "reason", t.reason } })
                              << "\n";
                }
            if (failed > 0)
                std::cerr << "paretoscope-cli: " << failed << " of " << st->tasks.size() << " task(s) failed\n";
            if (watch && !st->ended)
                std::cerr << "paretoscope-cli: stopped before the array ended\n";
            return allOk && failed == 0 ? 0 : 1;
        }
        for (int waited = 0; waited < interval * 10 && !g_stop; ++waited)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
}

} // namespace

int cmdBenchMatrix(const Invocation& in)
{
    const Args& a = in.args;
    static const std::set<std::string> allowed { "matrix", "db", "emit-sbatch", "submit", "api-key-env", "format" };
    for (const auto& [name, values] : a.options)
        if (!allowed.count(name))
            return usageError("--" + name + " does not go with --matrix: the matrix file gives each configuration");
    const std::string file = findDataFile(*a.value("matrix")); // the shipped examples too, when installed
    auto text = readRegularFile(file, limits::kSmallJson);
    if (!text)
        return usageError(text.error());
    auto matrix = parseMatrix(*text, file);
    if (!matrix)
        return usageError(matrix.error());
    auto dir = a.value("emit-sbatch");
    if (!dir) {
        if (a.has("submit"))
            return usageError("--submit goes with --emit-sbatch DIR");
        return runMatrixHere(in, *matrix);
    }
    if (auto st = writeArray(*matrix, *text, *dir, selfPath()); !st) {
        std::cerr << "paretoscope-cli: " << st.error() << "\n";
        return 1;
    }
    std::cerr << "paretoscope-cli: wrote " << *dir << "/array.sbatch (" << matrix->configurations.size()
              << " task(s); submit it with " << *dir << "/submit.sh or --submit)\n";
    for (std::size_t i = 0; i < matrix->configurations.size(); ++i)
        if (auto why = unrunnableReason(matrix->configurations[i]))
            std::cerr << "paretoscope-cli: task " << i << " (" << matrix->configurations[i].name
                      << ") will fail at once: " << *why << "\n";
    if (!a.has("submit"))
        return 0;
    auto ids = submitArray(*dir);
    if (!ids) {
        std::cerr << "paretoscope-cli: " << ids.error() << "\n";
        return 1;
    }
    for (const std::string& id : *ids)
        std::cout << id << "\n";
    return 0;
}

std::map<std::string, bool> clusterOptions()
{
    return { { "db", true }, { "format", true }, { "watch", false }, { "interval", true } };
}

int cmdCluster(const Invocation& in)
{
    const Args& a = in.args;
    const auto& pos = a.positional;
    if (pos.size() != 2 || (pos[0] != "status" && pos[0] != "collect"))
        return usageError("cluster takes status DIR or collect DIR (the folder of --emit-sbatch)");
    if (pos[0] == "collect")
        return collect(in, pos[1]);
    std::string error, format;
    if (!formatOption(a, { "table", "json" }, format, error))
        return usageError(error);
    if (a.has("watch") || a.has("interval"))
        return usageError("--watch and --interval go with cluster collect");
    auto st = arrayStatus(pos[1], a.value("db").value_or(""));
    if (!st) {
        std::cerr << "paretoscope-cli: " << st.error() << "\n";
        return 1;
    }
    printStatus(*st, format);
    return 0;
}

} // namespace paretoscope::cli
