#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/live/levelmetrics.h"
#include "core/live/levelsampler.h"
#include "core/live/loadgenerator.h"
#include "core/live/sessionconfig.h"
#include "core/model/result.h"
#include "core/store/runstore.h"

namespace paretoscope {

/// A finished and stored level.
struct LevelOutcome {
    int level = 0;
    int concurrency = 0;
    LevelMetrics metrics;
    LevelTelemetry telemetry;
    RunRecord record;
    long long runId = 0; ///< 0 when the store could not take the level (storeError says why)
    std::string json; ///< what the CLI prints and the store keeps as the level's metrics
    std::string storeError; ///< why the level is not in the store; empty when it is
    std::string keptIn; ///< the session file that keeps a level the store could not take
    std::string reason; ///< why an adaptive sweep chose this level; empty in a fixed list
    std::vector<std::string>
        validity; ///< the level's validity flags (also in record.validity), empty when it checks out
    std::optional<double> clientCpuShare; ///< the load generator's CPU time over the level's wall time
};

struct SessionOutcome {
    long long sessionId = 0;
    std::string status; ///< finished, failed, cancelled
    std::string reason;
    std::string simulation; ///< the emulator's label, empty on real hardware
    std::vector<LevelOutcome> levels;
};

/// Callbacks of a running session, all on the session's thread.
struct SessionEvents {
    std::function<void(const std::string&)> note; ///< a status line (probing, prompt mode, level started)
    std::function<bool(int level, int concurrency, const LevelProgress&)> progress; ///< false cancels
    /// A level is finished: its run is in the store, or (LevelOutcome::storeError) kept in the session's own file.
    std::function<void(const LevelOutcome&)> levelStored;
};

/// What else a session watches: a launched engine's health, the device's telemetry.
struct SessionHooks {
    std::function<std::optional<std::string>()> engineFailure; ///< why the launched engine is gone, if it is
    LevelSampler* sampler = nullptr;
    std::function<void(LevelOptions&)> adjustLevel; ///< tests: changes each level's options (a client made to lag)
};

/// Runs a sweep: records the session, checks the endpoint (/v1/models: the model, whether it is the emulator; tried
/// three times on HTTP 429, 5xx or no connection), falls back to text prompts where token ids are refused, then runs
/// each concurrency level and stores it the moment it is measured. A failure ends the session with the finished
/// levels kept and the reason stored; the result says what happened (an Error only for a configuration that cannot
/// start, or a store that cannot record the session at all).
Result<SessionOutcome> runSession(RunStore& store, SessionConfig config, const std::string& apiKey,
    const SessionEvents& events = {}, const SessionHooks& hooks = {});

/// The client threads of a level when the configuration leaves them to the session: one up to 256 concurrent streams,
/// then one per 256 streams (rounded up), at most the machine's hardware threads (at least one).
int automaticClientThreads(int concurrency, unsigned hardwareThreads);

/// The load generator's options of the level at `level` in the configuration's list: its concurrency, prompts,
/// warm-ups, timeouts, seed and client threads (SessionConfig::clientThreads, else automaticClientThreads).
LevelOptions levelOptions(const SessionConfig& config, int level);

/// The workload's name as its runs are stored ("random 1k/1k", "agentic 8 turns, ...").
std::string sessionWorkloadName(const SessionConfig& config);

/// The run record of a level (docs/architecture.md section 3 derivations: per GPU, interactivity from the median TPOT).
RunRecord levelRecord(const SessionConfig& config, const std::string& simulation, const std::string& workloadName,
    int concurrency, const LevelMetrics& metrics, const LevelTelemetry& telemetry, long long sessionId);

/// The level as JSON: seconds and tokens/s, the errors, client wait, telemetry, validity flags.
std::string levelJson(int level, int concurrency, const LevelMetrics& metrics, const LevelTelemetry& telemetry,
    const RunRecord& record, const std::string& reason = {}, std::optional<double> clientCpuShare = {});

} // namespace paretoscope
