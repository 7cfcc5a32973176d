#include "core/live/enginelauncher.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "core/import/httpfetch.h"

extern char** environ;

namespace paretoscope {

namespace {

bool executable(const std::filesystem::path& p)
{
    struct stat st { };
    return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
}

// The guardian: leader of the engine's process group. Only async-signal-safe calls from here on (the parent may have
// threads). It exits with the engine's status, or after stopping the group when told to stop or when its parent dies.
[[noreturn]] void guardian(
    const char* path, char* const* argv, char* const* envp, int logFd, int pidPipe, pid_t parent, long graceMs)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGHUP);
    sigaddset(&set, SIGCHLD);
    sigprocmask(SIG_BLOCK, &set, nullptr);
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent) // the parent died before the line above
        _exit(125);
    pid_t engine = fork();
    if (engine == 0) {
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, nullptr);
        signal(SIGPIPE, SIG_DFL);
        dup2(logFd, STDOUT_FILENO);
        dup2(logFd, STDERR_FILENO);
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0)
            dup2(devnull, STDIN_FILENO);
        // nothing of Paretoscope's (the store, sockets) leaks into the engine
        syscall(SYS_close_range, 3U, ~0U, 0U);
        execve(path, argv, envp);
        const char msg[] = "paretoscope: could not execute the engine program\n";
        [[maybe_unused]] auto n = write(STDERR_FILENO, msg, sizeof msg - 1);
        _exit(127);
    }
    [[maybe_unused]] auto n = write(pidPipe, &engine, sizeof engine);
    close(pidPipe);
    if (engine < 0)
        _exit(126);
    for (;;) {
        siginfo_t info;
        int sig = sigwaitinfo(&set, &info);
        if (sig == SIGCHLD) {
            int status = 0;
            pid_t done = waitpid(engine, &status, WNOHANG);
            if (done == engine) {
                kill(0, SIGTERM); // workers the engine left behind (the guardian blocks TERM itself)
                if (WIFEXITED(status))
                    _exit(WEXITSTATUS(status));
                _exit(128 + WTERMSIG(status));
            }
            continue;
        }
        if (sig < 0)
            continue;
        // stop: the whole group (engine, its workers), a grace period, then KILL
        kill(0, SIGTERM);
        timespec step { 0, 50'000'000 };
        for (long waited = 0; waited < graceMs; waited += 50) {
            int status = 0;
            if (waitpid(-1, &status, WNOHANG) < 0 && errno == ECHILD)
                break;
            nanosleep(&step, nullptr);
        }
        signal(SIGTERM, SIG_IGN);
        kill(0, SIGKILL);
        _exit(143);
    }
}

// Alive and not a zombie: /proc/PID/stat's state field.
bool processRunning(pid_t pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string stat;
    if (!std::getline(in, stat))
        return false;
    std::size_t close = stat.rfind(')');
    return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z' && stat[close + 2] != 'X';
}

std::string describeStatus(int status)
{
    if (WIFEXITED(status)) {
        int code = WEXITSTATUS(status);
        if (code == 127)
            return "the program could not be executed (exit code 127)";
        if (code > 128 && code < 160)
            return "killed by signal " + std::to_string(code - 128);
        return "exited with code " + std::to_string(code);
    }
    if (WIFSIGNALED(status))
        return "killed by signal " + std::to_string(WTERMSIG(status));
    return "ended";
}

} // namespace

std::string resolveProgram(const std::string& program)
{
    std::error_code ec;
    std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        std::filesystem::path dir = self.parent_path();
        for (const auto& candidate :
            { dir / program, dir / ".." / "enginesim" / program, dir / ".." / ".." / "enginesim" / program })
            if (executable(candidate))
                return std::filesystem::weakly_canonical(candidate, ec).string();
    }
    const char* path = std::getenv("PATH");
    std::string p = path ? path : "/usr/local/bin:/usr/bin:/bin";
    std::size_t start = 0;
    while (start <= p.size()) {
        std::size_t end = p.find(':', start);
        std::string dir = p.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (!dir.empty() && executable(std::filesystem::path(dir) / program))
            return (std::filesystem::path(dir) / program).string();
        if (end == std::string::npos)
            break;
        start = end + 1;
    }
    return {};
}

Result<std::unique_ptr<EngineProcess>> EngineProcess::start(
    const LaunchPlan& plan, const std::string& logPath, double graceSeconds)
{
    std::string path = resolveProgram(plan.program);
    if (path.empty())
        return Error { "cannot start " + plan.program + ": not found beside Paretoscope or on PATH" };
    int logFd = ::open(logPath.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (logFd < 0)
        return Error { "cannot write the engine log " + logPath + ": " + std::strerror(errno) };
    // everything the child needs is built before fork: after it, only async-signal-safe calls
    std::vector<std::string> envStrings;
    for (char** e = environ; *e; ++e) {
        std::string kv = *e;
        bool replaced = false;
        for (const auto& [k, v] : plan.env)
            replaced = replaced || kv.compare(0, k.size() + 1, k + "=") == 0;
        if (!replaced)
            envStrings.push_back(kv);
    }
    for (const auto& [k, v] : plan.env)
        envStrings.push_back(k + "=" + v);
    std::vector<char*> envp, argv;
    for (std::string& s : envStrings)
        envp.push_back(s.data());
    envp.push_back(nullptr);
    std::vector<std::string> args = plan.argv;
    for (std::string& s : args)
        argv.push_back(s.data());
    argv.push_back(nullptr);
    int pipeFds[2];
    if (::pipe2(pipeFds, O_CLOEXEC) != 0) {
        ::close(logFd);
        return Error { std::string("cannot start the engine: ") + std::strerror(errno) };
    }
    pid_t parent = ::getpid();
    pid_t g = ::fork();
    if (g == 0) {
        ::setpgid(0, 0);
        ::close(pipeFds[0]);
        // the log and pipe descriptors are close-on-exec; the engine gets its own copies through dup2
        int fd = ::fcntl(logFd, F_DUPFD, 3);
        guardian(
            path.c_str(), argv.data(), envp.data(), fd, pipeFds[1], parent, static_cast<long>(graceSeconds * 1000));
    }
    ::close(logFd);
    ::close(pipeFds[1]);
    if (g < 0) {
        ::close(pipeFds[0]);
        return Error { std::string("cannot start the engine: ") + std::strerror(errno) };
    }
    ::setpgid(g, g); // also from this side, so the group exists before any signal is sent to it
    std::unique_ptr<EngineProcess> p(new EngineProcess);
    p->m_plan = plan;
    p->m_logPath = logPath;
    p->m_grace = graceSeconds;
    p->m_guardian = g;
    pid_t engine = -1;
    if (::read(pipeFds[0], &engine, sizeof engine) == sizeof engine)
        p->m_engine = engine;
    ::close(pipeFds[0]);
    return p;
}

EngineProcess::~EngineProcess()
{
    stop();
}

void EngineProcess::reap(bool block)
{
    if (m_guardian <= 0 || m_exit)
        return;
    int status = 0;
    pid_t r = ::waitpid(m_guardian, &status, block ? 0 : WNOHANG);
    if (r == m_guardian)
        m_exit = describeStatus(status);
    else if (r < 0 && errno == ECHILD)
        m_exit = "ended";
}

std::optional<std::string> EngineProcess::exitReason()
{
    reap(false);
    if (!m_exit && m_engine > 0 && !processRunning(m_engine)) {
        // the engine is dead (a zombie until the guardian reaps it): give the guardian a moment to report how
        auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
        while (!m_exit && std::chrono::steady_clock::now() < until) {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
            reap(false);
        }
    }
    return m_exit;
}

void EngineProcess::stop()
{
    if (m_guardian <= 0)
        return;
    reap(false);
    if (!m_exit) {
        ::kill(m_guardian, SIGTERM);
        auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(m_grace + 2);
        while (!m_exit && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            reap(false);
        }
        if (!m_exit) {
            ::kill(-m_guardian, SIGKILL);
            reap(true);
        }
    }
    // anything still in the group (a worker that ignored TERM) goes now
    ::kill(-m_guardian, SIGKILL);
    m_guardian = -1;
}

std::string EngineProcess::logTail(int lines) const
{
    std::ifstream in(m_logPath, std::ios::binary);
    if (!in)
        return {};
    in.seekg(0, std::ios::end);
    std::streamoff size = in.tellg();
    std::streamoff from = std::max<std::streamoff>(0, size - std::streamoff { 64 } * 1024);
    in.seekg(from);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::size_t pos = text.size();
    for (int n = 0; n <= lines && pos != std::string::npos && pos > 0; ++n)
        pos = text.rfind('\n', pos - 1);
    return pos == std::string::npos ? text : text.substr(pos + 1);
}

Status EngineProcess::waitHealthy(const std::function<bool(double)>& keepWaiting)
{
    auto started = std::chrono::steady_clock::now();
    HttpOptions o;
    o.connectTimeoutMs = 1000;
    o.totalTimeoutMs = 5000;
    o.maxBytes = 1 << 20;
    for (;;) {
        double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        if (auto why = exitReason())
            return Error { m_plan.program + " " + *why + " before it was ready. Log (" + m_logPath + "):\n"
                + logTail() };
        bool healthy = true;
        for (const std::string& path : m_plan.health)
            if (!httpGet(m_plan.baseUrl + path, o)) {
                healthy = false;
                break;
            }
        if (healthy)
            return ok();
        if (elapsed > m_plan.startupTimeout)
            return Error { m_plan.program + " was not healthy at " + m_plan.baseUrl + " after "
                + std::to_string(static_cast<long>(m_plan.startupTimeout)) + " s. Log (" + m_logPath + "):\n"
                + logTail() };
        if (keepWaiting && !keepWaiting(elapsed))
            return Error { "cancelled while " + m_plan.program + " was starting" };
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
}

} // namespace paretoscope
