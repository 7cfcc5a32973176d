#include "core/live/sweep.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <memory>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/import/httpfetch.h"
#include "core/live/adaptivesweep.h"
#include "core/live/sessionjournal.h"
#include "core/live/sessionstore.h"
#include "core/live/validity.h"
#include "core/model/urls.h"

namespace paretoscope {

namespace {

using nlohmann::json;

constexpr int kModelListTries = 3; // as the other preflight requests (runSession)

struct ServedModels {
    std::vector<std::string> ids;
    std::string simulation;
};

Result<ServedModels> servedModels(const std::string& base, const std::string& apiKey)
{
    HttpOptions o;
    o.connectTimeoutMs = 5000;
    o.totalTimeoutMs = 20000;
    o.maxBytes = 4u << 20;
    o.tries = kModelListTries;
    if (!apiKey.empty())
        o.headers.push_back("Authorization: Bearer " + apiKey);
    auto body = httpGet(base + "/v1/models", o);
    if (!body)
        return Error { body.error() };
    json j = json::parse(*body, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("data") || !j["data"].is_array())
        return Error { base + "/v1/models: not an OpenAI model list" };
    ServedModels m;
    for (const json& d : j["data"]) {
        if (!d.is_object() || !d.contains("id") || !d["id"].is_string())
            continue;
        m.ids.push_back(d["id"].get<std::string>());
        if (d.value("owned_by", "") == "paretoscope-engine-sim") {
            std::string label
                = d.contains("simulation") && d["simulation"].is_string() ? d["simulation"].get<std::string>() : "";
            m.simulation = label.empty() || label == "fixed" ? "sim-fixed" : label;
        }
    }
    if (m.ids.empty())
        return Error { base + "/v1/models: the server lists no model" };
    return m;
}

std::unique_ptr<Workload> makeWorkload(const SessionConfig& c)
{
    RequestShape shape { c.model, c.chat, c.prompt };
    if (c.workload == "agentic")
        return std::make_unique<AgenticWorkload>(shape, c.agentic);
    return std::make_unique<RandomWorkload>(shape, c.isl, c.osl);
}

} // namespace

int automaticClientThreads(int concurrency, unsigned hardwareThreads)
{
    // one thread keeps up with 256 streams (docs/benchmarks.md, client threads); past that the receive path is spread
    const int wanted = (std::max(concurrency, 1) + 255) / 256;
    return std::max(1, std::min(wanted, static_cast<int>(std::max(hardwareThreads, 1u))));
}

LevelOptions levelOptions(const SessionConfig& config, int level)
{
    LevelOptions o;
    o.concurrency = config.concurrencies[static_cast<std::size_t>(level)];
    o.requestRate = config.requestRate;
    o.prompts = config.promptsPerLevel;
    o.warmups = config.warmups;
    o.requestTimeout = config.requestTimeout;
    o.stallTimeout = config.stallTimeout;
    o.seed = 1000 + static_cast<unsigned long long>(level);
    o.clientThreads = config.clientThreads > 0
        ? config.clientThreads
        : automaticClientThreads(o.concurrency, std::thread::hardware_concurrency());
    return o;
}

std::string sessionWorkloadName(const SessionConfig& config)
{
    return makeWorkload(config)->name();
}

namespace {

// Preflight requests are tried three times: a server that is still starting, overloaded (429) or briefly failing
// (5xx) often answers the next try, and a whole sweep should not be lost to one refused request.
constexpr int kPreflightTries = 3;

bool transientProbeFailure(const RequestLog& log)
{
    return transientHttpStatus(log.httpStatus) || log.error.starts_with("cannot connect")
        || log.error.starts_with("connection closed");
}

// One short request shows whether the server takes token-id prompts; one that refuses them (HTTP 400 or 422) gets
// text. Returns why the session cannot go on, if it cannot.
std::optional<std::string> choosePromptKind(
    const Endpoint& endpoint, SessionConfig& config, const std::function<void(const std::string&)>& note)
{
    if (config.chat || config.prompt != PromptKind::TokenIds)
        return std::nullopt;
    RandomWorkload probe({ config.model, false, PromptKind::TokenIds }, 8, 2, 1.0);
    LevelOptions o;
    o.prompts = 1;
    o.warmups = 0;
    o.requestTimeout = std::min(config.requestTimeout, 120.0);
    RequestLog log;
    for (int attempt = 1;; ++attempt) {
        auto r = runLevel(endpoint, probe, o);
        if (!r)
            return r.error();
        log = r->requests.front();
        if (log.ok() || !transientProbeFailure(log) || attempt >= kPreflightTries)
            break;
        note("a test request failed (" + log.error + "); trying again");
        std::this_thread::sleep_for(std::chrono::milliseconds(500 << (attempt - 1)));
    }
    if (!log.ok() && (log.httpStatus == 400 || log.httpStatus == 422)) {
        config.prompt = PromptKind::Text;
        note("the server refused token-id prompts (" + log.error + "); sending text, counted by the server");
    } else if (!log.ok()) {
        return "a test request failed" + std::string(transientProbeFailure(log) ? " 3 times" : "") + ": " + log.error;
    }
    return std::nullopt;
}

// Settles the model (the configuration's, or the first the endpoint serves) and the prompt kind the endpoint takes.
// Returns why the session cannot go on, if it cannot.
std::optional<std::string> takeEndpoint(const Endpoint& endpoint, const ServedModels& served, SessionConfig& config,
    const std::function<void(const std::string&)>& note)
{
    config.model = config.model.empty() ? served.ids.front() : config.model;
    if (std::find(served.ids.begin(), served.ids.end(), config.model) == served.ids.end())
        return redactUrl(config.endpoint) + " serves " + served.ids.front() + ", not " + config.model;
    if (!served.simulation.empty())
        note("the endpoint is paretoscope-engine-sim (" + served.simulation + "): results are labelled a simulation");
    return choosePromptKind(endpoint, config, note);
}

// The most frequent error of a level in which every request failed.
std::string mostFrequentError(const LevelMetrics& m)
{
    std::string top = m.errors.empty() ? "no requests" : m.errors.begin()->first;
    for (const auto& [message, count] : m.errors)
        if (count > m.errors.at(top))
            top = message;
    return top;
}

// A level's requests and telemetry, or how the session ends in it (the engine gone, cancelled, an error).
struct MeasuredLevel {
    std::optional<LevelResult> result;
    LevelTelemetry telemetry;
    std::string endStatus; ///< "failed" or "cancelled" when the session ends here; empty when it goes on
    std::string endReason;
};

MeasuredLevel measureLevel(const Endpoint& endpoint, Workload& workload, const SessionConfig& config, int level,
    const SessionEvents& events, const SessionHooks& hooks)
{
    const int c = config.concurrencies[static_cast<std::size_t>(level)];
    const std::string which = "level " + std::to_string(level + 1);
    std::optional<std::string> engineGone;
    bool userCancelled = false;
    LevelOptions options = levelOptions(config, level);
    if (hooks.adjustLevel)
        hooks.adjustLevel(options);
    // the devices are sampled over the measured requests, as the level's duration and tokens are: warm-ups spend
    // energy that no measured token carries (with the default 2 x c warm-ups, about a fifth more J/token)
    bool sampling = false;
    auto result = runLevel(endpoint, workload, options, [&](const LevelProgress& p) {
        if (hooks.sampler && !sampling && p.warmupsLeft == 0) {
            hooks.sampler->begin();
            sampling = true;
        }
        if (hooks.engineFailure && (engineGone = hooks.engineFailure()))
            return false;
        if (events.progress && !events.progress(level, c, p)) {
            userCancelled = true;
            return false;
        }
        return true;
    });
    MeasuredLevel out;
    out.telemetry = sampling ? hooks.sampler->end() : LevelTelemetry {};
    if (!result)
        return { {}, {}, "failed", which + ": " + result.error() };
    if (!engineGone && hooks.engineFailure)
        engineGone = hooks.engineFailure();
    if (engineGone)
        return { {}, {}, "failed",
            "the engine stopped during " + which + " (concurrency " + std::to_string(c) + "): " + *engineGone };
    if (result->cancelled || userCancelled)
        return { {}, {}, "cancelled", "cancelled during " + which + "; finished levels kept" };
    out.result = std::move(*result);
    return out;
}

// A measured level as it is stored and shown: its metrics, validity flags, record and JSON line.
LevelOutcome levelOutcome(const SessionConfig& config, const std::string& simulation, const std::string& workload,
    long long sessionId, int level, const std::string& reason, LevelMetrics metrics, const MeasuredLevel& measured)
{
    const int c = config.concurrencies[static_cast<std::size_t>(level)];
    const LevelTelemetry& telemetry = measured.telemetry;
    LevelOutcome lo;
    lo.level = level;
    lo.concurrency = c;
    lo.metrics = std::move(metrics);
    lo.telemetry = telemetry;
    lo.reason = reason;
    lo.clientCpuShare = measured.result->clientCpuShare;
    lo.validity = validityFlags(lo.metrics, validityInputs(config, c, telemetry, lo.clientCpuShare));
    lo.record = levelRecord(config, simulation, workload, c, lo.metrics, telemetry, sessionId);
    lo.record.validity = joinFlags(lo.validity);
    lo.json = levelJson(level, c, lo.metrics, telemetry, lo.record, reason, lo.clientCpuShare);
    return lo;
}

// Records how a session ended; a store that cannot take it keeps it in the session's own file.
SessionOutcome endSession(RunStore& store, SessionOutcome& out, const std::string& status, const std::string& reason,
    const std::function<void(const std::string&)>& note)
{
    out.status = status;
    out.reason = reason;
    if (auto st = finishSession(store, out.sessionId, status, reason); !st) {
        auto kept = sessionjournal::keepEnd(store.path(), out.sessionId, status, reason);
        note("the store could not record how session " + std::to_string(out.sessionId) + " ended (" + st.error() + ")"
            + (kept ? "; kept in " + *kept + " for `paretoscope-cli sessions --recover`" : ""));
    }
    return out;
}

// Stores a measured level whatever else writes to the store (the write waits its turn); a store that cannot take it
// (a full disk, a damaged file) does not lose it: it goes to the session's own file. False when not stored.
bool storeOrKeep(RunStore& store, long long sessionId, LevelOutcome& lo, const std::vector<RequestLog>& requests,
    const std::function<void(const std::string&)>& note)
{
    auto run = storeLevel(store, sessionId, lo.level, lo.concurrency, lo.record, lo.json, requests);
    if (run) {
        lo.runId = *run;
        return true;
    }
    lo.storeError = run.error();
    auto kept
        = sessionjournal::keepLevel(store.path(), sessionId, lo.level, lo.concurrency, lo.record, lo.json, requests);
    if (kept)
        lo.keptIn = *kept;
    note("level " + std::to_string(lo.level + 1) + " was measured but not stored: " + run.error()
        + (kept ? "; kept in " + *kept + " until `paretoscope-cli sessions --recover` stores it"
                : "; and it could not be kept in the session's own file: " + kept.error()));
    return false;
}

// An adaptive sweep appends its next level to the configuration's list and returns why it chose it; at its end it
// appends nothing and says why in `end`. A fixed list is left as it is.
std::string nextLevel(SessionConfig& config, const std::vector<LevelOutcome>& done, std::string& end)
{
    if (!config.concurrencyAuto)
        return "";
    std::vector<SweepPoint> points;
    points.reserve(done.size());
    for (const LevelOutcome& lo : done)
        points.push_back({ lo.concurrency, lo.record.tputPerGpu.value_or(0), lo.record.interactivity.value_or(0),
            lo.metrics.ttft.median });
    AdaptiveOptions options;
    options.targets = config.targets;
    options.maxLevels = config.maxLevels;
    AdaptiveStep step = nextAdaptiveLevel(points, options);
    if (step.concurrency <= 0) {
        end = step.reason;
        return "";
    }
    config.concurrencies.push_back(step.concurrency);
    return step.reason;
}

} // namespace

Result<SessionOutcome> runSession(RunStore& store, SessionConfig config, const std::string& apiKey,
    const SessionEvents& events, const SessionHooks& hooks)
{
    auto note = [&](const std::string& s) {
        if (events.note)
            events.note(s);
    };
    if (auto st = validateSessionConfig(config); !st)
        return Error { st.error() };
    auto base = normalizeEndpointUrl(config.endpoint);
    if (!base)
        return Error { base.error() };
    config.endpoint = *base;

    // the session is recorded from here on: whatever fails now is stored as its reason
    SessionOutcome out;
    auto id = createSession(store, config, "");
    if (!id)
        return Error { id.error() };
    out.sessionId = *id;
    auto end = [&](const std::string& status, const std::string& reason) -> Result<SessionOutcome> {
        return endSession(store, out, status, reason, note);
    };

    auto served = servedModels(config.endpoint, apiKey);
    if (!served)
        return end("failed", "the endpoint does not answer as an OpenAI-compatible server: " + served.error());
    out.simulation = served->simulation;
    Endpoint endpoint { config.endpoint, apiKey, config.chat };
    if (auto failed = takeEndpoint(endpoint, *served, config, note))
        return end("failed", *failed);
    if (auto st = updateSession(store, out.sessionId, config, served->simulation); !st)
        return end("failed", st.error());

    auto workload = makeWorkload(config);
    note("session " + std::to_string(out.sessionId) + ": "
        + (config.concurrencyAuto ? "an adaptive sweep (at most " + std::to_string(config.maxLevels) + " levels)"
                                  : std::to_string(config.concurrencies.size()) + " levels")
        + " of " + workload->name());

    int unstored = 0;
    std::string adaptiveEnd;
    for (std::size_t i = 0;; ++i) {
        std::string reason = nextLevel(config, out.levels, adaptiveEnd);
        if (i >= config.concurrencies.size())
            break;
        int level = static_cast<int>(i);
        int c = config.concurrencies[i];
        note("level " + std::to_string(level + 1)
            + (config.concurrencyAuto ? " (auto)" : " of " + std::to_string(config.concurrencies.size()))
            + ": concurrency " + std::to_string(c) + (reason.empty() ? "" : ": " + reason));
        MeasuredLevel measured = measureLevel(endpoint, *workload, config, level, events, hooks);
        if (!measured.endStatus.empty())
            return end(measured.endStatus, measured.endReason);
        LevelMetrics m = computeLevelMetrics(measured.result->requests, config.slo);
        if (m.completed == 0)
            return end("failed",
                "level " + std::to_string(level + 1) + " (concurrency " + std::to_string(c)
                    + "): every request failed, most often: " + mostFrequentError(m));
        LevelOutcome lo = levelOutcome(
            config, served->simulation, workload->name(), out.sessionId, level, reason, std::move(m), measured);
        if (!lo.record.marked.empty())
            note("level " + std::to_string(level + 1) + " is marked as not trusted: " + lo.record.marked);
        for (const std::string& flag : lo.validity)
            note("level " + std::to_string(level + 1) + " is flagged " + flagDescription(flag));
        if (!storeOrKeep(store, out.sessionId, lo, measured.result->requests, note))
            ++unstored;
        if (events.levelStored)
            events.levelStored(lo);
        out.levels.push_back(std::move(lo));
    }
    if (config.concurrencyAuto) {
        note("adaptive sweep: " + adaptiveEnd);
        updateSession(store, out.sessionId, config, served->simulation); // the levels it chose, kept with the session
    }
    // levels that were all measured but none trusted are no result: the session failed, saying why
    if (!out.levels.empty() && std::all_of(out.levels.begin(), out.levels.end(), [](const LevelOutcome& l) {
            return !l.record.marked.empty();
        }))
        return end("failed",
            "every level is marked as not trusted (level 1: " + out.levels.front().record.marked
                + "); they are kept, marked"
                + (unstored > 0 ? "; " + std::to_string(unstored)
                            + " of them not stored: `paretoscope-cli sessions --recover` stores them"
                                : ""));
    if (unstored > 0)
        return end("finished",
            std::to_string(unstored)
                + " level(s) measured but not stored; `paretoscope-cli sessions --recover` "
                  "stores them from the session's own file");
    return end("finished", config.concurrencyAuto ? "adaptive sweep: " + adaptiveEnd : "");
}

} // namespace paretoscope
