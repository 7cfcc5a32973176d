#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <sys/types.h>

#include "core/live/recipe.h"
#include "core/model/result.h"

namespace paretoscope {

/// A serving engine started from a recipe. It runs in its own process group under a small guardian process that
/// forwards a stop to the whole group (TERM, then KILL after the grace period) and that the kernel signals when
/// Paretoscope dies (PR_SET_PDEATHSIG), so an engine is never left behind, even after a crash or a SIGKILL.
class EngineProcess {
public:
    /// Resolves the program (beside this executable, then PATH), then starts it without a shell, its output appended
    /// to logPath.
    static Result<std::unique_ptr<EngineProcess>> start(
        const LaunchPlan& plan, const std::string& logPath, double graceSeconds = 10);
    ~EngineProcess(); ///< stops the engine
    EngineProcess(const EngineProcess&) = delete;
    EngineProcess& operator=(const EngineProcess&) = delete;

    /// Polls the health paths every half second until each answers 2xx, the engine exits, the startup timeout
    /// passes or `keepWaiting` returns false. Errors carry the log's tail.
    Status waitHealthy(const std::function<bool(double elapsed)>& keepWaiting = {});
    /// Why the engine is gone ("exited with code 1", "killed by signal 9"), or empty while it runs.
    std::optional<std::string> exitReason();
    /// TERM to the process group, KILL after the grace period; returns once every process in it is gone.
    void stop();
    /// The last lines of the engine's log.
    std::string logTail(int lines = 30) const;
    const std::string& logPath() const { return m_logPath; }
    const LaunchPlan& plan() const { return m_plan; }
    pid_t enginePid() const { return m_engine; } ///< the engine itself (the group's leader is the guardian)
    pid_t processGroup() const { return m_guardian; }

private:
    EngineProcess() = default;
    void reap(bool block);

    LaunchPlan m_plan;
    std::string m_logPath;
    double m_grace = 10;
    pid_t m_guardian = -1;
    pid_t m_engine = -1;
    std::optional<std::string> m_exit;
};

/// Where a program named in a recipe is found: beside this executable (and in the build tree's enginesim/), then on
/// PATH. Empty when nowhere.
std::string resolveProgram(const std::string& program);

} // namespace paretoscope
