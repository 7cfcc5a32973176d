// The array's status (status files, then squeue and sacct) and the collector (core/live/cluster.h).
#include "core/live/cluster.h"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "core/import/importer.h"
#include "core/store/runstore.h"

namespace paretoscope {

namespace fs = std::filesystem;

namespace {

std::string readText(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
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
std::set<int> collectedTasks(const fs::path& dir, const std::string& storePath)
{
    std::set<int> out;
    for (const std::string& line : lines(readText(dir / "collected"))) {
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
                auto dash = r.find('-');
                int lo = std::atoi(r.c_str());
                int hi = dash == std::string::npos ? lo : std::atoi(r.c_str() + dash + 1);
                for (int t = lo; t <= hi && hi - lo < 100000; ++t)
                    out[t] = state;
            }
        } else if (!id.empty() && id.find_first_not_of("0123456789") == std::string::npos) {
            out[std::atoi(id.c_str())] = state;
        }
    }
    return out;
}

// The task's own status file, where it wrote one: finished, or failed with its reason.
static bool readStatusFile(TaskStatus& t, const fs::path& dir)
{
    const fs::path statusFile = dir / "status" / std::to_string(t.task);
    if (!fs::exists(statusFile))
        return false;
    const std::string text = trimmed(readText(statusFile));
    if (text == "finished") {
        t.state = "finished";
        t.reason.clear();
        t.results = (dir / "results" / (std::to_string(t.task) + ".json")).string();
    } else {
        t.state = "failed";
        t.reason = text.starts_with("failed: ") ? text.substr(8) : text;
    }
    return true;
}

Result<ArrayStatus> arrayStatus(const std::string& dirGiven, const std::string& collectedBy)
{
    const fs::path dir = fs::absolute(dirGiven);
    auto matrix = parseMatrix(readText(dir / "matrix.json"), (dir / "matrix.json").string());
    if (!matrix)
        return Error { dir.string() + " is not an array written by --emit-sbatch: " + matrix.error() };
    ArrayStatus st;
    st.jobIds = lines(readText(dir / "jobs"));
    std::map<int, std::string> scheduler;
    if (st.jobIds.empty())
        st.note = "not submitted (no " + (dir / "jobs").string() + ")";
    const std::set<int> collected = collectedTasks(dir, collectedBy);
    bool asked = false;
    st.ended = true;
    for (std::size_t i = 0; i < matrix->configurations.size(); ++i) {
        TaskStatus t;
        t.task = static_cast<int>(i);
        t.name = matrix->configurations[i].name;
        t.collected = collected.count(t.task) > 0;
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

std::vector<Collected> collectFinished(RunStore& store, const std::string& dirGiven, ArrayStatus& status)
{
    const fs::path dir = fs::absolute(dirGiven);
    std::vector<Collected> out;
    for (TaskStatus& t : status.tasks) {
        if (t.state != "finished" || t.collected)
            continue;
        Collected c { t.task, 0, 0, {} };
        for (const ImportOutcome& o : importPath(store, t.results, ImportOptions {})) {
            if (!o.result) {
                c.error = o.result.error();
                continue;
            }
            c.imported += o.result->imported;
            c.duplicates += o.result->duplicates;
        }
        if (c.error.empty()) {
            std::ofstream record(dir / "collected", std::ios::binary | std::ios::app);
            record << t.task << "\t" << fs::absolute(store.path()).string() << "\n";
            t.collected = static_cast<bool>(record.flush());
        }
        out.push_back(std::move(c));
    }
    return out;
}

} // namespace paretoscope
