// The array's status (status files, then squeue and sacct) and the collector (core/live/cluster.h).
#include "core/live/cluster.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "core/import/importer.h"
#include "core/live/recipe.h"
#include "core/model/outsidefile.h"
#include "core/model/printable.h"
#include "core/store/runstore.h"

namespace paretoscope {

namespace fs = std::filesystem;

namespace {

// A file of the array's folder, which the tasks and anyone with the shared disk can write: a regular file, bounded;
// a file that is not there reads as empty.
Result<std::string> readArrayFile(const fs::path& path, std::uint64_t limit)
{
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(path, ec)))
        return std::string();
    return readRegularFile(path.string(), limit);
}

std::string trimmed(std::string s)
{
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' '))
        s.pop_back();
    return s;
}

std::vector<std::string> lines(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (!trimmed(line).empty())
            out.push_back(trimmed(line));
    return out;
}

// Tasks already collected into the store at storePath.
Result<std::set<int>> collectedTasks(const fs::path& dir, const std::string& storePath)
{
    std::set<int> out;
    auto text = readArrayFile(dir / "collected", limits::kBookkeeping);
    if (!text)
        return Error { text.error() };
    for (const std::string& line : lines(*text)) {
        auto tab = line.find('\t');
        if (tab != std::string::npos && !storePath.empty()
            && fs::absolute(line.substr(tab + 1)) == fs::absolute(storePath))
            out.insert(std::atoi(line.substr(0, tab).c_str()));
    }
    return out;
}

// A scheduler state as one of ours; a state that ended without a status file is a failure.
void applySchedulerState(TaskStatus& t, const std::string& state, const fs::path& dir)
{
    if (state == "PENDING" || state == "REQUEUED" || state == "RESV_DEL_HOLD")
        t.state = "pending";
    else if (state == "RUNNING" || state == "CONFIGURING" || state == "COMPLETING" || state == "SUSPENDED"
        || state == "STAGE_OUT" || state == "SIGNALING")
        t.state = "running";
    else if (state == "COMPLETED") {
        t.state = "failed";
        t.reason = "the task ended without writing its status (see " + (dir / "logs").string() + ")";
    } else {
        t.state = "failed";
        t.reason = "the scheduler ended it: " + state;
    }
}

// What squeue, then sacct, say of each task: none when neither can be asked.
std::map<int, std::string> schedulerStates(const std::vector<std::string>& ids, std::string& note)
{
    std::string list;
    for (const std::string& id : ids)
        list += (list.empty() ? "" : ",") + id;
    std::map<int, std::string> states;
    auto sacct = runProgram({ "sacct", "-n", "-P", "-X", "-j", list, "-o", "JobID,State" });
    if (sacct && sacct->exitCode == 0)
        states = parseSchedulerStates(sacct->out, true);
    // squeue is the fresher word on live tasks; a finished job it no longer lists is simply absent
    auto squeue = runProgram({ "squeue", "-h", "-r", "-t", "all", "-j", list, "-o", "%K|%T" });
    // a job id squeue no longer knows (purged after MinJobAge) is an answer too: it lists none of its tasks
    if (squeue && (squeue->exitCode == 0 || squeue->err.find("Invalid job id") != std::string::npos)) {
        for (const auto& [task, state] : parseSchedulerStates(squeue->out, false))
            states[task] = state;
    } else if (!sacct || sacct->exitCode != 0) {
        note = "neither squeue nor sacct answered: " + trimmed(squeue ? squeue->err : squeue.error()).substr(0, 200);
    }
    return states;
}

// Whether text is an array task number as the scheduler prints it: digits only, at most 8 of them.
bool taskNumber(const std::string& text)
{
    return !text.empty() && text.size() <= 8 && text.find_first_not_of("0123456789") == std::string::npos;
}

} // namespace

std::map<int, std::string> parseSchedulerStates(const std::string& text, bool sacct)
{
    std::map<int, std::string> out;
    for (const std::string& line : lines(text)) {
        auto bar = line.find('|');
        if (bar == std::string::npos)
            continue;
        std::string id = line.substr(0, bar);
        std::string state = line.substr(bar + 1);
        state = state.substr(0, state.find(' ')); // sacct: "CANCELLED by 0"
        if (sacct) {
            auto under = id.find('_');
            if (under == std::string::npos)
                continue;
            id = id.substr(under + 1);
        }
        if (id.starts_with("[")) { // pending tasks: [0-3,5,7-8%2]
            std::string ranges = id.substr(1, id.find_first_of("]%") - 1);
            std::istringstream in(ranges);
            for (std::string r; std::getline(in, r, ',');) {
                // task numbers are digits only, within Slurm's array size; a range of more tasks is none of ours
                const auto dash = r.find('-');
                const std::string first = r.substr(0, dash);
                const std::string last = dash == std::string::npos ? first : r.substr(dash + 1);
                if (!taskNumber(first) || !taskNumber(last))
                    continue;
                const int lo = std::stoi(first), hi = std::stoi(last);
                if (lo > hi || hi - lo >= 100000)
                    continue;
                for (int t = lo; t <= hi; ++t)
                    out[t] = state;
            }
        } else if (taskNumber(id)) {
            out[std::stoi(id)] = state;
        }
    }
    return out;
}

void applyStatusText(TaskStatus& t, std::string_view text, const std::string& results)
{
    const std::string line = trimmed(std::string(text));
    if (line == "finished") {
        t.state = "finished";
        t.reason.clear();
        t.results = results;
    } else {
        t.state = "failed";
        t.reason = line.starts_with("failed: ") ? line.substr(8) : line;
    }
}

// The task's own status file, where it wrote one. A status file that cannot be read (not a regular file, too large)
// fails the task with that reason.
static bool readStatusFile(TaskStatus& t, const fs::path& dir)
{
    const fs::path statusFile = dir / "status" / std::to_string(t.task);
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(statusFile, ec)))
        return false;
    auto read = readRegularFile(statusFile.string(), limits::kStatusFile);
    if (!read) {
        t.state = "failed";
        t.reason = "its status file: " + read.error();
        return true;
    }
    applyStatusText(t, *read, (dir / "results" / (std::to_string(t.task) + ".json")).string());
    return true;
}

Result<ArrayStatus> arrayStatus(const std::string& dirGiven, const std::string& collectedBy)
{
    const fs::path dir = fs::absolute(dirGiven);
    auto matrixText = readRegularFile((dir / "matrix.json").string(), limits::kSmallJson);
    auto matrix = matrixText ? parseMatrix(*matrixText, (dir / "matrix.json").string()) : Error { matrixText.error() };
    if (!matrix)
        return Error { dir.string() + " is not an array written by --emit-sbatch: " + matrix.error() };
    auto jobs = readArrayFile(dir / "jobs", limits::kBookkeeping);
    if (!jobs)
        return Error { jobs.error() };
    ArrayStatus st;
    st.matrix = *matrix;
    st.jobIds = lines(*jobs);
    for (const std::string& id : st.jobIds)
        if (id.find_first_not_of("0123456789") != std::string::npos)
            return Error { (dir / "jobs").string() + ": \"" + printable(id) + "\" is not a job id" };
    std::map<int, std::string> scheduler;
    if (st.jobIds.empty())
        st.note = "not submitted (no " + (dir / "jobs").string() + ")";
    auto collected = collectedTasks(dir, collectedBy);
    if (!collected)
        return Error { collected.error() };
    bool asked = false;
    st.ended = true;
    for (std::size_t i = 0; i < matrix->configurations.size(); ++i) {
        TaskStatus t;
        t.task = static_cast<int>(i);
        t.name = matrix->configurations[i].name;
        t.collected = collected->count(t.task) > 0;
        if (!readStatusFile(t, dir)) {
            if (!st.jobIds.empty()) {
                if (!asked) {
                    scheduler = schedulerStates(st.jobIds, st.note);
                    asked = true;
                }
                if (auto it = scheduler.find(t.task); it != scheduler.end())
                    applySchedulerState(t, it->second, dir);
                else if (st.note.empty()) { // squeue -r lists every task of a live array, pending ones too
                    t.state = "failed";
                    t.reason = "the task left no status file and the scheduler no longer lists it";
                } else {
                    t.state = "unknown";
                }
            } else {
                t.state = "pending";
            }
            // a task that ended between the look for its status file and the scheduler's answer wrote the file
            // before it ended: its own word, not the state the scheduler gave it as it ended, says how it went
            readStatusFile(t, dir);
        }
        st.ended = st.ended && (t.state == "finished" || t.state == "failed");
        st.tasks.push_back(std::move(t));
    }
    return st;
}

Status checkTaskResult(const MatrixConfig& c, const RunRecord& r)
{
    const auto differs = [](const char* field, const std::string& got, const std::string& want) {
        return Error { "field " + std::string(field) + ": the result says \"" + printable(got) + "\", the task ran \""
            + printable(want) + "\"" };
    };
    if (r.model != c.model)
        return differs("model", r.model, c.model);
    if (!c.precision.empty() && r.precision != c.precision)
        return differs("precision", r.precision, c.precision);
    auto recipe = bundledRecipe(c.recipe);
    if (recipe && recipe->engine != "engine-sim") { // the emulator labels its runs with the engine it plays
        if (r.engine != recipe->engine)
            return differs("engine", r.engine, recipe->engine);
        if (r.hardware != recipe->hardware)
            return differs("hardware", r.hardware, recipe->hardware);
    }
    if (c.workload == "random" && (r.isl != c.isl || r.osl != c.osl))
        return differs("isl/osl", std::to_string(r.isl) + "/" + std::to_string(r.osl),
            std::to_string(c.isl) + "/" + std::to_string(c.osl));
    if (c.workload != "random") { // the workload's name, as the task's export selects it
        const std::vector<std::string> e = exportArguments(c);
        const auto at = std::find(e.begin(), e.end(), "--workload");
        if (at != e.end() && at + 1 != e.end() && r.workload != *(at + 1))
            return differs("workload", r.workload, *(at + 1));
    }
    if (!c.autoConcurrency
        && std::find(c.concurrencies.begin(), c.concurrencies.end(), r.concurrency) == c.concurrencies.end())
        return Error { "field concurrency: the result says " + std::to_string(r.concurrency)
            + ", not one of the task's levels" };
    if (c.tp > 0 && r.tp != c.tp)
        return differs("tp", std::to_string(r.tp), std::to_string(c.tp));
    if (c.ep > 0 && r.ep > 0 && r.ep != c.ep)
        return differs("ep", std::to_string(r.ep), std::to_string(c.ep));
    if (r.dpAttention != c.dpAttention)
        return differs("dp_attention", r.dpAttention ? "true" : "false", c.dpAttention ? "true" : "false");
    if (const int gpus = taskResources(c).gpus; r.gpus != gpus)
        return differs("gpus", std::to_string(r.gpus), std::to_string(gpus));
    return ok();
}

std::vector<Collected> collectFinished(RunStore& store, const std::string& dirGiven, ArrayStatus& status)
{
    const fs::path dir = fs::absolute(dirGiven);
    std::vector<Collected> out;
    for (TaskStatus& t : status.tasks) {
        if (t.state != "finished" || t.collected)
            continue;
        Collected c { t.task, 0, 0, {} };
        const std::size_t index = static_cast<std::size_t>(t.task);
        if (index >= status.matrix.configurations.size()) {
            c.error = "task " + std::to_string(t.task) + ": not in the matrix";
            out.push_back(std::move(c));
            continue;
        }
        // what a task exports and nothing else: Paretoscope JSON of its own configuration
        ImportOptions options;
        options.acceptFormats = { Format::ParetoscopeJson };
        options.run = "task:" + dir.string() + "#" + std::to_string(t.task); // the task is the run of its points
        options.expect = [&config = status.matrix.configurations[index], task = t.task](const RunRecord& r) {
            auto st = checkTaskResult(config, r);
            return st ? st
                      : Error { "task " + std::to_string(task) + " (" + printable(config.name) + "): " + st.error() };
        };
        auto file = FileSource::open(t.results);
        auto imported = file ? importSource(store, **file, options) : Result<ImportSummary>(Error { file.error() });
        if (imported) {
            c.imported = imported->imported;
            c.duplicates = imported->duplicates;
            const std::string line = std::to_string(t.task) + "\t" + fs::absolute(store.path()).string() + "\n";
            auto recorded = appendToFile((dir / "collected").string(), line);
            t.collected = static_cast<bool>(recorded);
            if (!recorded)
                c.error = "imported, but not recorded as collected: " + recorded.error();
        } else {
            c.error = imported.error();
        }
        out.push_back(std::move(c));
    }
    return out;
}

} // namespace paretoscope
