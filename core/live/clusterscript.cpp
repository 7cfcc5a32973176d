// The array job's script, its submission, and running the scheduler's programs (core/live/cluster.h).
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <map>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <tuple>
#include <unistd.h>

#include "core/analysis/viewoptions.h"
#include "core/live/cluster.h"
#include "core/model/outsidefile.h"
#include "core/model/printable.h"

extern char** environ;

namespace paretoscope {

namespace fs = std::filesystem;

namespace {

// A word of an #SBATCH line as sbatch reads it back: a backslash before every character but the plain ones (sbatch
// ends an argument at a blank and a comment at '#'), and '%' doubled (a filename pattern there). A value with a
// control character has no place on such a line: writeArray refuses it first.
std::string sbatchWord(const std::string& s)
{
    std::string out;
    for (char c : s) {
        if (c == '%')
            out += "%%";
        else if (std::isalnum(static_cast<unsigned char>(c)) || std::strchr("/._-+=,:@", c))
            out += c;
        else
            out += std::string("\\") + c;
    }
    return out;
}

std::string quoted(const std::vector<std::string>& args)
{
    std::string s;
    for (const std::string& a : args)
        s += (s.empty() ? "" : " ") + shellQuote(a);
    return s;
}

// The largest shape: the script's own #SBATCH lines, which a per-shape submission overrides.
TaskResources largest(const Matrix& m)
{
    TaskResources t { 0, 0, 0 };
    for (const MatrixConfig& c : m.configurations) {
        TaskResources r = taskResources(c);
        t.nodes = std::max(t.nodes, r.nodes);
        t.gpusPerNode = std::max(t.gpusPerNode, r.gpusPerNode);
    }
    return t;
}

// What a task runs: its bench into its own store, then the export renamed into place, then its status.
const char* kTaskBody = R"SH(WORK="$DIR/work/$TASK"
mkdir -p "$WORK" "$DIR/results" "$DIR/status"
rm -f "$DIR/status/$TASK" "$DIR/results/$TASK.json" "$WORK/store.sqlite"
# temporary names from mktemp (created anew, never a link someone planted), renamed into place when whole
status() { local t; t=$(mktemp "$DIR/status/.$TASK.XXXXXX") && printf '%s\n' "$1" > "$t" && chmod 644 "$t" && mv -f "$t" "$DIR/status/$TASK"; }
if [ -n "${UNRUNNABLE:-}" ]; then # see paretoscope::unrunnableReason
    echo "task $TASK ($NAME): not run: $UNRUNNABLE" >&2
    status "failed: not run: $UNRUNNABLE"
    exit 1
fi
# the reason, on one line: bench's last own line (the session's end) and the line after it (an engine log's first)
reason() {
    awk '/^paretoscope-cli: /{m=$0; n=""; next} n=="" && m!=""{n=$0} END{sub(/^paretoscope-cli: /,"",m); print m (n=="" ? "" : " " n)}' \
        "$WORK/bench.err" | tr -d '\r\n' | cut -c1-1000
}
trap 'status "failed: stopped by the scheduler (time limit or scancel)"; exit 1' TERM
echo "task $TASK ($NAME) on $(hostname): $PARETOSCOPE_CLI bench ${BENCH[*]}"
"$PARETOSCOPE_CLI" bench "${BENCH[@]}" --db "$WORK/store.sqlite" --engine-log "$WORK/engine.log" \
    > "$WORK/levels.jsonl" 2> "$WORK/bench.err" &
wait $! || { status "failed: $(reason)"; exit 1; }
RESULT=$(mktemp "$DIR/results/.$TASK.XXXXXX") || { status "failed: cannot write in $DIR/results"; exit 1; }
if ! "$PARETOSCOPE_CLI" export --db "$WORK/store.sqlite" "${EXPORT[@]}" > "$RESULT" 2>> "$WORK/bench.err"; then
    rm -f "$RESULT"
    status "failed: export: $(reason)"
    exit 1
fi
chmod 644 "$RESULT" && mv -f "$RESULT" "$DIR/results/$TASK.json"
status finished
)SH";

} // namespace

std::string arrayScript(const Matrix& m, const std::string& dir, const std::string& cli)
{
    std::time_t now = std::time(nullptr);
    char date[32];
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
    const TaskResources shape = largest(m);
    std::string s = "#!/bin/bash\n";
    s += "# Written by paretoscope-cli bench --matrix --emit-sbatch on " + std::string(date) + ": one array task per\n";
    s += "# configuration of " + printable(dir)
        + "/matrix.json. Each task leaves results/TASK.json (Paretoscope JSON) and\n";
    s += "# status/TASK (finished, or failed: reason); paretoscope-cli cluster collect imports them.\n";
    s += "# Per task (submit.sh submits each shape with its own --nodes and --gpus-per-node):\n";
    for (std::size_t i = 0; i < m.configurations.size(); ++i) {
        const MatrixConfig& c = m.configurations[i];
        TaskResources r = taskResources(c);
        s += "#   task " + std::to_string(i) + " " + printable(c.name) + ": " + std::to_string(r.nodes) + " node(s), "
            + (r.gpusPerNode ? std::to_string(r.gpusPerNode) + " GPU(s) per node" : "no GPU (a simulation)")
            + (c.prefill ? " (prefill " + std::to_string(c.prefill->nodes) + " + decode "
                        + std::to_string(c.decode->nodes) + " nodes)"
                         : "")
            + "\n";
    }
    s += "#SBATCH --job-name=paretoscope-matrix\n";
    s += "#SBATCH --array=0-" + std::to_string(m.configurations.size() - 1) + "\n";
    s += "#SBATCH --nodes=" + std::to_string(shape.nodes) + "\n";
    if (shape.gpusPerNode > 0)
        s += "#SBATCH --gpus-per-node=" + std::to_string(shape.gpusPerNode) + "\n";
    s += "#SBATCH --exclusive\n"; // tasks never share a node (docs/architecture.md section 13.2)
    s += "#SBATCH --time=" + m.time + "\n";
    if (!m.partition.empty())
        s += "#SBATCH --partition=" + m.partition + "\n";
    if (!m.account.empty())
        s += "#SBATCH --account=" + m.account + "\n";
    s += "#SBATCH --output=" + sbatchWord(dir + "/logs/task-") + "%a.log\n";
    s += "set -uo pipefail\n";
    s += "DIR=" + shellQuote(dir) + "\n";
    s += "TASK=\"${SLURM_ARRAY_TASK_ID:?submit this script with sbatch: it is an array job}\"\n";
    s += "PARETOSCOPE_CLI=\"${PARETOSCOPE_CLI:-}\"\n";
    s += "[ -n \"$PARETOSCOPE_CLI\" ] || PARETOSCOPE_CLI=" + shellQuote(cli) + "\n";
    s += "export PATH=\"$(dirname \"$PARETOSCOPE_CLI\"):$PATH\" # paretoscope-engine-sim is installed beside it\n";
    s += "case \"$TASK\" in\n";
    for (std::size_t i = 0; i < m.configurations.size(); ++i) {
        const MatrixConfig& c = m.configurations[i];
        s += std::to_string(i) + ")\n    NAME=" + shellQuote(c.name) + "\n";
        s += "    BENCH=(" + quoted(benchArguments(c)) + ")\n";
        if (auto why = unrunnableReason(c))
            s += "    UNRUNNABLE=" + shellQuote(*why) + "\n";
        s += "    EXPORT=(" + quoted(exportArguments(c)) + ")\n    ;;\n";
    }
    s += "*)\n    echo \"no configuration $TASK in this array\" >&2\n    exit 1\n    ;;\nesac\n";
    return s + kTaskBody;
}

std::vector<std::vector<std::string>> submitCommands(const Matrix& m, const std::string& script)
{
    std::map<std::pair<int, int>, std::string> shapes; // (nodes, GPUs per node) -> its tasks
    for (std::size_t i = 0; i < m.configurations.size(); ++i) {
        TaskResources r = taskResources(m.configurations[i]);
        std::string& list = shapes[{ r.nodes, r.gpusPerNode }];
        list += (list.empty() ? "" : ",") + std::to_string(i);
    }
    if (shapes.size() == 1)
        return { { "sbatch", "--parsable", script } };
    std::vector<std::vector<std::string>> out;
    for (const auto& [shape, tasks] : shapes) {
        std::vector<std::string> cmd { "sbatch", "--parsable", "--array=" + tasks,
            "--nodes=" + std::to_string(shape.first) };
        if (shape.second > 0)
            cmd.push_back("--gpus-per-node=" + std::to_string(shape.second));
        cmd.push_back(script);
        out.push_back(std::move(cmd));
    }
    return out;
}

Status writeArray(const Matrix& m, const std::string& matrixText, const std::string& dirGiven, const std::string& cli)
{
    std::error_code ec;
    const fs::path dir = fs::absolute(dirGiven, ec);
    // the folder is written into #SBATCH lines and comments, where a line break would start a line of its own
    for (const std::string& path : { dir.string(), cli })
        if (auto bad = std::find_if(
                path.begin(), path.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
            bad != path.end())
            return Error { printable(path) + ": a path with a control character (" + printable(std::string(1, *bad))
                + ") cannot go into a batch script: choose another" };
    for (const char* sub : { "", "logs", "results", "status", "work" })
        if (fs::create_directories(dir / sub, ec); ec)
            return Error { (dir / sub).string() + ": cannot create: " + ec.message() };
    const std::string script = (dir / "array.sbatch").string();
    // the job ids go to DIR/jobs, where cluster status and collect find them, as with --submit
    std::string submit = "#!/bin/sh\n# Submits array.sbatch, one sbatch per task shape; prints the job ids and keeps "
                         "them in jobs.\nset -e\n: > "
        + shellQuote((dir / "jobs").string()) + "\n";
    for (const auto& cmd : submitCommands(m, script))
        submit
            += "id=$(" + quoted(cmd) + ")\necho \"${id%%;*}\" | tee -a " + shellQuote((dir / "jobs").string()) + "\n";
    // each written whole under a temporary name and renamed: a link planted at one of these names is replaced
    const std::tuple<fs::path, std::string, unsigned> files[] { { dir / "array.sbatch",
                                                                    arrayScript(m, dir.string(), cli), 0755 },
        { dir / "submit.sh", submit, 0755 }, { dir / "matrix.json", matrixText, 0644 } };
    for (const auto& [path, text, mode] : files)
        if (auto st = replaceFile(path.string(), text, mode); !st)
            return st;
    fs::remove(dir / "jobs", ec);
    fs::remove(dir / "collected", ec);
    return ok();
}

Result<std::vector<std::string>> submitArray(const std::string& dirGiven)
{
    const fs::path dir = fs::absolute(dirGiven);
    auto text = readRegularFile((dir / "matrix.json").string(), limits::kSmallJson);
    if (!text)
        return Error { text.error() };
    auto m = parseMatrix(*text, (dir / "matrix.json").string());
    if (!m)
        return Error { m.error() };
    std::vector<std::string> ids;
    for (const auto& cmd : submitCommands(*m, (dir / "array.sbatch").string())) {
        auto run = runProgram(cmd);
        if (!run)
            return Error { run.error() };
        if (run->exitCode != 0)
            return Error { "sbatch failed (exit " + std::to_string(run->exitCode) + "): " + printable(run->err, true) };
        std::string id = run->out.substr(0, run->out.find_first_of(";\n")); // --parsable: ID[;cluster]
        if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
            return Error { "sbatch printed no job id: " + printable(run->out.substr(0, 200)) };
        ids.push_back(id);
    }
    std::string jobs;
    for (const std::string& id : ids)
        jobs += id + "\n";
    if (auto st = replaceFile((dir / "jobs").string(), jobs); !st)
        return Error { st.error() + " (submitted jobs: " + quoted(ids) + ")" };
    return ids;
}

Result<ProgramOutput> runProgram(const std::vector<std::string>& argv, int timeoutSeconds)
{
    int outPipe[2], errPipe[2];
    if (pipe(outPipe) != 0 || pipe(errPipe) != 0)
        return Error { std::string("pipe: ") + std::strerror(errno) };
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, outPipe[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, errPipe[1], STDERR_FILENO);
    posix_spawn_file_actions_addclose(&actions, outPipe[0]);
    posix_spawn_file_actions_addclose(&actions, errPipe[0]);
    std::vector<char*> args;
    args.reserve(argv.size());
    for (const std::string& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(outPipe[1]);
    close(errPipe[1]);
    ProgramOutput result;
    pollfd fds[2] { { outPipe[0], POLLIN, 0 }, { errPipe[0], POLLIN, 0 } };
    std::string* into[2] { &result.out, &result.err };
    // a scheduler that never answers (a controller gone, a network cut) must not hang the caller
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeoutSeconds);
    bool timedOut = false;
    for (int open = rc == 0 ? 2 : 0; open > 0;) {
        const auto left
            = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            timedOut = true;
            ::kill(pid, SIGKILL);
            break;
        }
        if (poll(fds, 2, static_cast<int>(std::min<long long>(left.count(), 1000))) < 0 && errno != EINTR)
            break;
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !fds[i].revents)
                continue;
            char buf[4096];
            ssize_t n = read(fds[i].fd, buf, sizeof buf);
            if (n > 0) {
                // what a program prints is kept up to a bound: a runaway one cannot fill the memory
                if (into[i]->size() < kMaxProgramOutput)
                    into[i]->append(buf, static_cast<std::size_t>(n));
            } else if (n == 0 || errno != EINTR) {
                close(fds[i].fd);
                fds[i].fd = -1;
                --open;
            }
        }
    }
    for (pollfd& f : fds)
        if (f.fd >= 0)
            close(f.fd);
    if (rc != 0)
        return Error { "cannot start " + argv[0] + ": " + std::strerror(rc) };
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) { }
    if (timedOut)
        return Error { argv[0] + " did not answer within " + std::to_string(timeoutSeconds) + " s: stopped" };
    result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return result;
}

} // namespace paretoscope
